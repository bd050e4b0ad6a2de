"""Twins of the jokers' rules' pieces: the fast passes' bound on the rows ahead
(:func:`rumdiff.solve.engine.joker_rules.joker_bound`) against exhaustive searches, their dominance
(:func:`rumdiff.solve.engine.joker_rules.undominated`) against a check of every pair of states, and
the reference pass (:func:`rumdiff.solve.engine.run_pass`), whose effort labels joker
puzzles, against a slow pass over dictionaries that counts the same work."""

from itertools import combinations

import numpy as np
import pytest
from helpers import joker_groups_exhaustive, tiny_joker_puzzle

from rumdiff.puzzle import Puzzle
from rumdiff.solve.engine import Rules, run_pass
from rumdiff.solve.engine.joker_rules import joker_bound, undominated
from rumdiff.solve.runstates import complete_run_states
from rumdiff.solve.twins import solve_brute_force

# Rows walk the values downwards: row i of a puzzle of n values holds value n - i.


def _rows_points(puzzle: Puzzle) -> list[int]:
    """The points of every tile at rows i.. (values n - i..1), for i in 0..n."""
    by_value = puzzle.copies.sum(axis=1) * np.arange(1, puzzle.n + 1)
    return [int(by_value[: puzzle.n - i].sum()) for i in range(puzzle.n + 1)]


def _bound_puzzles(seed: int, count: int, most_tiles: int):
    """Tiny seeded puzzles with 0..4 jokers and tiles, tables and all (the bound reads no
    table)."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        puzzle = tiny_joker_puzzle(rng, ("random table", "valid sets")[made % 2])
        if 0 < puzzle.tiles <= most_tiles:
            made += 1
            yield puzzle


def _rows_alone(puzzle: Puzzle, i: int, jokers: int) -> int:
    """The brute force's best of the rows i.. alone (values n - i..1) with ``jokers``."""
    rows = puzzle.copies[: puzzle.n - i]
    return solve_brute_force(Puzzle(rows, m=puzzle.m, jokers=jokers))


def test_the_bound_holds_the_best_of_the_rows_ahead_alone():
    # A state that has placed s jokers may place j - s more. One way on places the best
    # arrangement of the rows i.. alone (the puzzle of values n - i..1, j - s jokers): the
    # brute force's best there is at most ahead[i, s], which is at most every tile's
    # points at rows i..; rows n and n + 1 add nothing.
    compared = tight = 0
    for puzzle in _bound_puzzles(61, 150, 12):
        n, j = puzzle.n, puzzle.jokers
        ahead = joker_bound(puzzle)
        assert ahead.shape == (n + 2, j + 1) and (ahead[n:] == 0).all()
        points = _rows_points(puzzle)
        for i in range(n):
            for s in range(j + 1):
                alone = _rows_alone(puzzle, i, j - s)
                assert alone <= ahead[i, s] <= points[i], (puzzle, i, s)
                compared += 1
                tight += int(alone == ahead[i, s])
    assert compared > 1500 and tight > 300  # (often equal: a bound too low would show)


def _arrangement_sets(copies: np.ndarray, jokers: int) -> list:
    """Every set that ``copies`` and ``jokers`` can make, as (tiles, jokers by value):
    runs of 3 to 5 (a longer run is two of these, with the same tiles and jokers at the
    same values) with jokers at any of their values, and groups."""
    n, k = copies.shape
    sets = []
    for c in range(k):
        for low in range(1, n - 1):
            for high in range(low + 2, min(n, low + 4) + 1):
                span = range(low, high + 1)
                for held in range(min(jokers, len(span)) + 1):
                    for wild in combinations(span, held):
                        tiles = [(v, c) for v in span if v not in wild]
                        if all(copies[v - 1, c] for v, _ in tiles):
                            sets.append((tiles, {v: 1 for v in wild}))
    for v in range(1, n + 1):
        present = [c for c in range(k) if copies[v - 1, c]]
        for size in range(len(present) + 1):
            for colours in combinations(present, size):
                for wild in range(min(jokers, k - size) + 1):
                    if size + wild >= 3:
                        sets.append(([(v, c) for c in colours], {v: wild}))
    return sets


def _most_ahead(puzzle: Puzzle) -> list[list[int]]:
    """``most[i][l]``: the most points that an arrangement of the puzzle's tiles with at
    most j jokers places at rows i.. when it places l jokers there (-1: none does), by
    trying every arrangement (a table is not read)."""
    n, j = puzzle.n, puzzle.jokers
    sets = _arrangement_sets(puzzle.copies, j)
    left = puzzle.copies.astype(int).tolist()
    points, wild = [0] * (n + 1), [0] * (n + 1)  # placed, by value
    most = [[-1] * (j + 1) for _ in range(n + 1)]

    def place(first: int, jokers: int) -> None:
        for i in range(n + 1):
            here = sum(wild[1 : n - i + 1])
            most[i][here] = max(most[i][here], sum(points[1 : n - i + 1]))
        for index in range(first, len(sets)):
            tiles, held = sets[index]
            if sum(held.values()) > jokers or any(left[v - 1][c] == 0 for v, c in tiles):
                continue
            for v, c in tiles:
                left[v - 1][c] -= 1
                points[v] += v
            for v, count in held.items():
                wild[v] += count
            place(index, jokers - sum(held.values()))
            for v, c in tiles:
                left[v - 1][c] += 1
                points[v] -= v
            for v, count in held.items():
                wild[v] -= count

    place(0, j)
    return most


def test_the_bound_holds_every_arrangement_whose_jokers_ahead_are_left():
    # The bound's own claim: an arrangement of the whole puzzle with at most j jokers, of
    # which at most j - s stand at rows i.., places at most ahead[i, s] points there,
    # whatever it does before row i (runs reach rows i.. from the rows before, their
    # jokers among them). The rows ahead alone (the test above) are one such arrangement.
    compared = beyond = 0
    for puzzle in _bound_puzzles(62, 150, 10):
        n, j = puzzle.n, puzzle.jokers
        ahead, most = joker_bound(puzzle), _most_ahead(puzzle)
        for i in range(n):
            for s in range(j + 1):
                best = max(most[i][: j - s + 1])
                assert best <= ahead[i, s], (puzzle, i, s)
                compared += 1
                beyond += int(best > _rows_alone(puzzle, i, j - s))
    # Often a run from the rows before adds to rows i..: more than the rows alone.
    assert compared > 1000 and beyond > 150


# Dominance: a state of a finished row is (runs, jokers, points, value), its runs a
# colour's slot counts by length (0, 1, 2, >= 3) per colour.

#: One step better in one slot: (length before, length after).
_STEPS = ((1, 2), (1, 3), (2, 3), (0, 3))


def _one_step_better(better: tuple, worse: tuple) -> bool:
    """Whether a colour's slots ``better`` are ``worse`` with one slot one step longer."""
    change = [b - w for b, w in zip(better, worse, strict=True)]
    return any(
        change == [(length == after) - (length == before) for length in range(4)]
        for before, after in _STEPS
    )


def _dominates(a: tuple, b: tuple, owed: int, meld: int) -> bool:
    """Whether state ``a`` dominates state ``b``: no less value, as many jokers placed
    (or fewer but at least ``owed``), the same runs or one step better in one colour,
    the same points of the meld or the meld met."""
    runs_a, jokers_a, points_a, value_a = a
    runs_b, jokers_b, points_b, value_b = b
    differ = [(x, y) for x, y in zip(runs_a, runs_b, strict=True) if x != y]
    return (
        a[:3] != b[:3]
        and value_a >= value_b
        and (jokers_a == jokers_b or owed <= jokers_a < jokers_b)
        and (points_a == points_b or points_a >= meld)
        and (not differ or (len(differ) == 1 and _one_step_better(*differ[0])))
    )


def _run_states(puzzle: Puzzle) -> list[tuple]:
    """A colour's run states, in the order of their codes, as slot counts by length."""
    slots = complete_run_states(puzzle.m + puzzle.jokers).slots
    return [tuple(int(v) for v in counts) for counts in slots]


def _code(puzzle: Puzzle, state: tuple) -> int:
    """A state's code as the engine writes it (``undominated``'s docstring)."""
    slots = _run_states(puzzle)
    index = {counts: code for code, counts in enumerate(slots)}
    bits = max(1, (len(slots) - 1).bit_length())
    runs, jokers, points, _ = state
    code = sum(index[counts] << (bits * c) for c, counts in enumerate(runs))
    return code + (jokers << (bits * puzzle.k)) + (points << (bits * puzzle.k + 3))


def _random_row(rng, puzzle: Puzzle, meld: int) -> list[tuple]:
    """Distinct random states of a row, crowded so that many dominate others: each
    colour's runs are drawn from a few states and the states a step or two better."""
    slots = _run_states(puzzle)
    choices = []
    for _ in range(puzzle.k):
        near = {slots[int(rng.integers(len(slots)))] for _ in range(2)}
        for _ in range(2):
            near |= {s for s in slots for t in near if _one_step_better(s, t)}
        choices.append(sorted(near))
    points = sorted({0, meld, int(rng.integers(0, meld + 1))})
    states = {}
    for _ in range(int(rng.integers(1, 60))):
        runs = tuple(colour[int(rng.integers(len(colour)))] for colour in choices)
        key = (runs, int(rng.integers(0, puzzle.jokers + 1)), int(rng.choice(points)))
        states[key] = int(rng.integers(0, 5))
    return [(*key, value) for key, value in states.items()]


@pytest.mark.parametrize("seed", [63, pytest.param(163, marks=pytest.mark.slow)])
def test_dominance_drops_exactly_the_states_another_dominates(seed):
    # Every pair compared: a state goes when any other state of the row dominates it,
    # kept or not itself (dominance is not transitive: with one step better only, A may
    # dominate B and B dominate C while A does not dominate C; C goes all the same). No
    # two distinct states dominate each other, so every row keeps a state. 200 rows a
    # seed: the fast suite's, and make test-all's as many again.
    rng = np.random.default_rng(seed)
    why = {"same runs": 0, "better runs": 0, "fewer jokers": 0, "meld met": 0, "by a loser": 0}
    rows = dropped = 0
    while rows < 200:
        k, m, j = int(rng.integers(2, 6)), int(rng.integers(1, 4)), int(rng.integers(0, 5))
        owed = int(rng.integers(0, j + 1))
        puzzle = Puzzle(np.zeros((3, k), dtype=int), m=m, jokers=j, table_jokers=owed)
        meld = int(rng.choice([0, int(rng.integers(1, 40))]))
        states = _random_row(rng, puzzle, meld)
        codes = [_code(puzzle, state) for state in states]
        values = [state[3] for state in states]
        kept = undominated(puzzle, codes, values, meld=meld)
        beaten = [[a for a in states if _dominates(a, b, owed, meld)] for b in states]
        assert kept.tolist() == [not by for by in beaten], (puzzle, meld, states)
        assert kept.any()
        for b, by in zip(states, beaten, strict=True):
            assert not any(_dominates(b, a, owed, meld) for a in by)
            for a in by:
                why["same runs"] += a[0] == b[0]
                why["better runs"] += a[0] != b[0]
                why["fewer jokers"] += a[1] < b[1]
                why["meld met"] += a[2] != b[2]
            # (dropped only by states that go too)
            why["by a loser"] += bool(by) and not any(kept[states.index(a)] for a in by)
        rows += 1
        dropped += int((~kept).sum())
    assert dropped > 500 and min(why.values()) > 50, (dropped, why)


def test_the_wrappers_refuse_what_they_cannot_read():
    puzzle = Puzzle.from_tiles([(1, 0), (2, 0), (3, 0)], k=3, m=1, n=3, jokers=1)
    assert len(_run_states(puzzle)) == 10  # 4 bits a colour, so the jokers from bit 12
    with pytest.raises(TypeError, match="expects a Puzzle"):
        joker_bound(puzzle.copies)
    with pytest.raises(TypeError, match="expects a Puzzle"):
        undominated(puzzle.copies, [0], [0])
    for codes, values, problem in (
        ([0, 0], [1, 2], "not distinct"),
        ([0, 1], [1], "2 codes but 1 values"),
        ([[0]], [[1]], "1-D array"),
        ([0.5], [1], "whole numbers"),
        ([-1], [0], "-1 is not the code"),
        ([15], [0], "15 is not the code"),  # a colour's run state beyond the 10
        ([2 << 12], [0], "8192 is not the code"),  # 2 jokers placed of 1
        ([1 << 15], [0], "32768 is not the code of a state of this puzzle with a meld of 0"),
    ):
        with pytest.raises(ValueError, match=problem):
            undominated(puzzle, codes, values)
    assert undominated(puzzle, [], []).shape == (0,)
    assert undominated(puzzle, [1 << 15], [0], meld=1).tolist() == [True]


# The reference pass over dictionaries. A state between rows is (runs, jokers placed,
# points of the meld), its runs each colour's slot counts by length (0, 1, 2, >= 3); m + j
# slots a colour (a joker may stand for a tile whose m copies are all in runs). Within a
# row a state also keeps the tiles each colour it moved put in runs.


def _run_moves(counts: tuple, slots: int):
    """The moves of a colour's slots at a value: ``(used, after)``, ``used`` slots taking
    a tile or a joker. Runs never end short: every run of length 1 or 2 goes on; then
    runs of length >= 3 go on before new runs start (either may end at any value, so
    nothing is lost by it); the rest end (length >= 3) or stay empty."""
    _, one, two, long = counts
    for used in range(one + two, slots + 1):
        going_on = min(long, used - one - two)
        started = used - one - two - going_on
        yield used, (slots - used, started, one, two + going_on)


def _reference_pass(puzzle: Puzzle, aim: int, meld: int = 0):
    """``(best, states, transitions, status)`` of the reference pass of the jokers' rules
    aimed at ``aim``, as :func:`run_pass` counts them: the states left after each row
    (the closing row too) and every move tried, dropped or not; a move is tried when the
    row's tiles and the jokers left allow it."""
    n, k, j, owed = puzzle.n, puzzle.k, puzzle.jokers, puzzle.table_jokers
    slots = puzzle.m + j
    copies, table = puzzle.copies.tolist(), puzzle.table_copies.tolist()
    ahead = _rows_points(puzzle) + [0]  # every tile from row i on: the reference bound
    empty = (slots, 0, 0, 0)
    live = {((empty,) * k, 0, 0): 0}
    states = transitions = 0
    for i in range(n + 1):  # row n closes: runs end, nothing is placed
        value = n - i
        row = copies[value - 1] if i < n else [0] * k
        need = table[value - 1] if i < n else [0] * k
        step = {(runs, spent, points, ()): best for (runs, spent, points), best in live.items()}
        for c in range(k):
            moved = {}
            for (runs, spent, points, real), best in step.items():
                for used, after in _run_moves(runs[c], slots):
                    for wild in range(min(used, j - spent) + 1):
                        tiles = used - wild
                        if tiles > row[c] or (i == n and used > 0):
                            continue
                        transitions += 1
                        now = best + value * tiles
                        unused = sum(row) - sum(real) - tiles  # this row's, not in runs
                        if now + value * unused + ahead[i + 1] < aim:
                            continue
                        key = (
                            runs[:c] + (after,) + runs[c + 1 :], spent + wild,
                            min(meld, points + value * used), real + (tiles,),
                        )  # fmt: skip
                        moved[key] = max(moved.get(key, now), now)
            step = moved
            if not step:
                return None, states, transitions, "not reached"
        live = {}
        for (runs, spent, points, real), best in step.items():
            if i == n:
                if spent >= owed and points >= meld:
                    live[runs, spent, points] = best
                continue
            left = tuple(row[c] - real[c] for c in range(k))
            required = tuple(max(0, need[c] - real[c]) for c in range(k))
            for wild in range(j - spent + 1):
                placed = joker_groups_exhaustive(left, required, wild)
                if placed < 0:
                    continue
                transitions += 1
                now = best + value * placed
                if now + ahead[i + 1] < aim:
                    continue
                key = (runs, spent + wild, min(meld, points + value * (placed + wild)))
                live[key] = max(live.get(key, now), now)
        if not live:
            return None, states, transitions, "not reached"
        states += len(live)
    return max(live.values()), states, transitions, "ok"


def _pass_puzzles(seed: int, count: int):
    """Tiny seeded puzzles with jokers and tables, each with the meld's points of its rules
    (0: none; a puzzle under a meld has no table)."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        kind = ("random table", "valid sets", "jokers alone", "meld")[made % 4]
        puzzle = tiny_joker_puzzle(rng, "random table" if kind == "meld" else kind)
        if puzzle.tiles > 10 or (puzzle.jokers > 2 and puzzle.tiles > 6):
            continue
        made += 1
        if kind != "meld":
            yield puzzle, 0
            continue
        rack = Puzzle(puzzle.rack, m=puzzle.m, jokers=puzzle.jokers - puzzle.table_jokers)
        yield rack, int(rng.integers(1, 2 * puzzle.n))


@pytest.mark.parametrize("seed", [64, pytest.param(164, marks=pytest.mark.slow)])
def test_the_reference_pass_counts_what_a_pass_over_dictionaries_counts(seed):
    # The search effort of a joker puzzle is the states and transitions of these passes:
    # the kernel must count exactly what the plain definition counts, at every aim (every
    # tile placed, the optimum and one above it, a random one, 0). 100 puzzles a seed: the
    # fast suite's, and make test-all's as many again.
    rng = np.random.default_rng(seed)
    passes = reached = infeasible = 0
    for puzzle, meld in _pass_puzzles(seed + 1, 100):
        rules = Rules("jokers", "reference", meld=meld or None)
        optimum = _reference_pass(puzzle, 0, meld)[0]
        infeasible += optimum is None  # the table, or the meld, cannot be placed
        aims = {0, puzzle.points, int(rng.integers(0, puzzle.points + 1))}
        aims |= set() if optimum is None else {optimum, optimum + 1}
        for aim in sorted(aims):
            done = run_pass(puzzle, rules, aim=aim)
            twin = _reference_pass(puzzle, aim, meld)
            assert (done.best, done.states, done.transitions, done.status) == twin, (
                puzzle, meld, aim,
            )  # fmt: skip
            passes += 1
            reached += done.status == "ok"
    assert passes > 300 and 100 < reached < passes - 100 and infeasible > 20, (
        passes, reached, infeasible,
    )  # fmt: skip
