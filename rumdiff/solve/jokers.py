"""Solving puzzles with jokers or a table: the DP with a joker dimension (``_jokers``),
and the arrangement along its path.

:func:`rumdiff.solve.solver.solve` sends here every puzzle that has jokers or a table,
and every solve for the ``tiles`` objective. None of the joker-free solver's shortcuts
runs here, each for a reason:

- isolated-tile removal: a joker can make an isolated tile placeable;
- splitting at gaps: a joker bridges a gap, and joker-only sets need no tiles at all;
- the upper bounds by value and the beam's lower bound: they assume that a run may end
  short at no cost but its own tiles', which a table tile forbids.

So the DP walks every value 1..n and prunes by points. The reference search (the
default of :func:`run_joker_dp`) drops a state that cannot reach the target even by
placing every tile still ahead; the solver's fast path (``fast=True``) prunes by a
tighter bound, drops dominated states and judges groups early
(docs/decisions/jokers.md, "The fast path of solve").
"""

from __future__ import annotations

from functools import cache

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle
from rumdiff.solve.arrangement import Arrangement, Group, Run
from rumdiff.solve.groups import group_value_table, joker_group_table, pair_code
from rumdiff.solve.runstates import complete_run_states
from rumdiff.validation import whole

__all__ = [
    "OBJECTIVES",
    "check_codes",
    "joker_bound",
    "joker_rows",
    "joker_tables",
    "rebuild",
    "run_joker_dp",
    "undominated",
]

#: What a solve maximises: the value placed, or the rack tiles placed (ties by value).
OBJECTIVES = ("value", "tiles")


@cache
def _pair_codes(m: int) -> np.ndarray:
    codes = np.zeros((m + 1, m + 1), dtype=np.int64)
    for left in range(m + 1):
        for required in range(left + 1):
            codes[left, required] = pair_code(left, required)
    codes.setflags(write=False)
    return codes


@cache
def _upgrades(slots: int) -> np.ndarray:
    """Per run state of :func:`complete_run_states`, the states one step better (-1:
    none): a run of length 1 made 2 or >= 3 long, one of length 2 made >= 3, an empty
    slot holding a run of length >= 3 (in this order, the kernel relies on it)."""
    tables = complete_run_states(slots)
    index = {tuple(int(v) for v in counts): code for code, counts in enumerate(tables.slots)}
    better = np.full((tables.size, 4), -1, dtype=np.int64)
    for code, counts in enumerate(tables.slots):
        for column, (low, high) in enumerate(((1, 2), (1, 3), (2, 3), (0, 3))):
            if counts[low] > 0:
                step = [int(v) for v in counts]
                step[low] -= 1
                step[high] += 1
                better[code, column] = index[tuple(step)]
    better.setflags(write=False)
    return better


@cache
def _short_runs(slots: int) -> np.ndarray:
    """Per run state, the tiles its short runs need at the next value (runs of length 1
    and 2) and at the one after (runs of length 1)."""
    counts = complete_run_states(slots).slots
    short = np.stack([counts[:, 1] + counts[:, 2], counts[:, 1]], axis=1).astype(np.int64)
    short.setflags(write=False)
    return short


def _big(puzzle: Puzzle, objective: str) -> int:
    """The weight of one tile beyond its value: 0, or (tiles) more than all points."""
    return 0 if objective == "value" else puzzle.points + 1


def joker_tables(k: int, m: int, jokers: int) -> tuple:
    """The tables :func:`~rumdiff.solve.engine._jokers.joker_pass` takes for G(k, m, .), j jokers.

    Returns ``(tables, groups, pair)``: its ``tables``, ``groups`` and ``pair`` arguments
    (cached, read-only).
    """
    tables = complete_run_states(m + jokers)
    arrays = (
        tables.first, tables.used, tables.next_state, tables.nonzero, _upgrades(tables.m),
        _short_runs(tables.m),
    )  # fmt: skip
    return arrays, joker_group_table(k, m, jokers), _pair_codes(m)


def _run_bits(puzzle: Puzzle) -> int:
    """The bits of a colour's run state in a state's code, as the kernel packs them."""
    return max(1, (complete_run_states(puzzle.m + puzzle.jokers).size - 1).bit_length())


def check_codes(puzzle: Puzzle, meld: int = 0) -> None:
    """Refuse a puzzle whose states would not fit the jokers' rules' 63-bit keys: each
    colour's run state, the jokers placed, the meld's points so far and, within a row,
    the jokers each colour's runs hold (``_jokers``). Without a meld every puzzle of
    G(k <= 6, m <= 3) with up to 4 jokers fits; a meld of many points beside many
    jokers in G(6, 3, n) may not.

    Raises
    ------
    ValueError
    """
    bits = puzzle.k * _run_bits(puzzle) + 3 + int(meld).bit_length()
    bits += ((puzzle.jokers + 1) ** puzzle.k - 1).bit_length()
    if bits > 63:
        raise ValueError(
            f"the DP's states of {puzzle.game} with {puzzle.jokers} jokers and a meld of "
            f"{meld} points take {bits} bits, more than the 63 a state holds"
        )


def joker_rows(puzzle: Puzzle, objective: str) -> tuple:
    """The rows the jokers' rules walk, values downwards (a tile lost at a high value
    prunes early): ``(x, need, values)``, the copies, the table's copies and each row's
    weight (its value, plus, for the ``tiles`` objective, more than all points), with
    one more weight, 0, for the closing row."""
    x = np.ascontiguousarray(puzzle.copies[::-1], dtype=np.int64)
    need = np.ascontiguousarray(puzzle.table_copies[::-1], dtype=np.int64)
    values = np.zeros(puzzle.n + 1, dtype=np.int64)
    values[: puzzle.n] = np.arange(puzzle.n, 0, -1) + _big(puzzle, objective)
    return x, need, values


def joker_bound(puzzle: Puzzle) -> np.ndarray:
    """The fast solver's bound on what the rows ahead of a state may still add.

    Parameters
    ----------
    puzzle : Puzzle
        Its table is not read: the bound holds for every arrangement of its tiles.

    Returns
    -------
    ndarray of shape (n + 2, jokers + 1)
        ``ahead[i, s]`` bounds from above the points that any arrangement of the
        puzzle's tiles with at most ``jokers`` jokers, at most ``jokers - s`` of them at
        rows i.., places at rows i.. (values n - i down to 1, the rows of
        :func:`joker_rows`): what a state that has placed s jokers may still add. Its
        jokers before row i reach rows i.. only through runs from the two rows before
        (``rumdiff.solve.engine._joker_bound.joker_ahead`` says why). It never exceeds the
        points of every tile at rows i..; rows n and n + 1 are 0. The passes of the
        ``"fast"`` pruning drop a state that cannot reach their aim even with
        ``ahead[i, s]`` more.
    """
    from rumdiff.solve._tiles import row_upper_bounds
    from rumdiff.solve.engine._joker_bound import joker_ahead

    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"joker_bound expects a Puzzle, got {type(puzzle).__name__}")
    x, _, values = joker_rows(puzzle, "value")
    bound = np.zeros(puzzle.n, dtype=np.int64)
    row_upper_bounds(x, group_value_table(puzzle.k, puzzle.m), puzzle.m, values, bound)
    ahead = np.zeros((puzzle.n + 2, puzzle.jokers + 1), dtype=np.int64)
    joker_ahead(x, values, puzzle.jokers, bound, ahead)
    return ahead


def undominated(puzzle: Puzzle, codes, values, *, meld: int = 0) -> np.ndarray:
    """Which states of a finished row the fast passes keep: those no other dominates.

    State A dominates state B when A's value is no less, A has placed as many jokers as
    B, or fewer but at least the table's, A's runs are B's or one step better in one
    colour (a run of length 1 made 2 or >= 3 long, one of length 2 made >= 3, an empty
    slot holding a run of length >= 3), and, under a meld, A has B's points of the meld
    or has met it: whatever B does next, A can do too (``rumdiff.solve.engine._jokers``'s
    ``_undominated``). A state that another dominates goes, even when a third dominates
    that other in turn; no two distinct states dominate each other, so a row keeps one
    state at least.

    Parameters
    ----------
    puzzle : Puzzle
        Its colours, copies, jokers and table jokers shape the states.
    codes : array_like of int, shape (states,)
        The states' codes, distinct, as :attr:`rumdiff.solve.engine.Pass.path` holds
        them: each colour's run state (a code of
        ``rumdiff.solve.runstates.complete_run_states(m + jokers)``) in ``b`` bits, the
        fewest that hold them all, colour 0 lowest; then the jokers placed, in 3 bits;
        then the meld's points so far (at most ``meld``).
    values : array_like of int, shape (states,)
        The states' values.
    meld : int, default 0
        The meld's points (0: no meld).

    Returns
    -------
    ndarray of bool, shape (states,)
        True for each state kept.

    Raises
    ------
    ValueError
        If the codes are not distinct or not codes of the puzzle's states.
    """
    from rumdiff.solve.engine._jokers import undominated_states

    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"undominated expects a Puzzle, got {type(puzzle).__name__}")
    meld = whole("meld", meld, low=0)
    check_codes(puzzle, meld)
    codes, values = (np.asarray(a) for a in (codes, values))
    for name, array in (("codes", codes), ("values", values)):
        if array.ndim != 1 or not (array.size == 0 or np.issubdtype(array.dtype, np.integer)):
            raise ValueError(f"{name} must be a 1-D array of whole numbers, got {array.dtype} "
                             f"of shape {array.shape}")  # fmt: skip
    if codes.shape != values.shape:
        raise ValueError(f"{codes.size} codes but {values.size} values")
    codes, values = codes.astype(np.int64), values.astype(np.int64)
    if len(np.unique(codes)) != codes.size:
        raise ValueError("the codes are not distinct: a row holds each state once")
    bits, k = _run_bits(puzzle), puzzle.k
    top = bits * k
    size = complete_run_states(puzzle.m + puzzle.jokers).size
    digits = (codes[:, None] >> (bits * np.arange(k))) & ((1 << bits) - 1)
    bad = (codes < 0) | (digits >= size).any(axis=1) | (codes >> (top + 3) > meld)
    bad |= (codes >> top) & 7 > puzzle.jokers
    if bad.any():
        raise ValueError(f"{int(codes[bad][0])} is not the code of a state of this puzzle "
                         f"with a meld of {meld} points")  # fmt: skip
    kept = np.zeros(codes.size, dtype=np.bool_)
    undominated_states(codes, values, np.int64(puzzle.table_jokers), np.int64(bits),
                       np.int64(k), np.int64(meld), _upgrades(puzzle.m + puzzle.jokers),
                       kept)  # fmt: skip
    return kept


def run_joker_dp(
    puzzle: Puzzle,
    objective: str,
    max_states: int,
    beam: int,
    lower: int = -1,
    *,
    fast: bool = False,
    meld: int = 0,
    live: tuple[int, int] = (config.JOKER_LIVE_START, config.MAX_LIVE_STATES),
):
    """Solve a puzzle with the DP; return ``(best weight, states, transitions, passes,
    status, path, upper)`` (``path``: the joint codes and the jokers placed at each row,
    see ``_jokers``, or None when the best is ``lower`` and no pass traced it;
    ``upper``: the bound above every weight the passes aimed at).

    Rows walk the values downwards (n first), as in the joker-free solver, so a tile
    lost at a high value prunes early. A beam pass finds a lower bound (without a table
    the joker-free optimum is one too, since jokers may stay on the rack); an exact pass
    aimed at every tile placed prunes hardest and settles most dense puzzles; failing
    that, an exact pass aimed at the lower bound finds the optimum. ``lower`` is a
    score known to be reachable (-1: none). With ``meld > 0`` only arrangements worth at
    least ``meld`` points at face value count (``rumdiff.solve.meld``: the rack of an
    opening move).

    With ``fast`` (as :func:`rumdiff.solve.solver.solve` calls it) the passes prune by
    :func:`rumdiff.solve.engine._joker_bound.joker_ahead`, isolated tiles counted only as far as
    jokers can place them, and aim at that bound instead of every tile; a beam that
    finds no arrangement is retried wider, and one that meets the bound needs no exact
    pass; exact passes start with room for ``live[0]`` live states and grow, a wider
    beam between two (:func:`~rumdiff.solve.engine._joker_passes.joker_search`). No pass keeps
    more than ``live[1]`` states alive at once.
    Without it, the work counted is the reference search's (tests pin it), the same as
    before that switch existed.
    """
    from rumdiff.solve.engine._joker_bound import reference_ahead
    from rumdiff.solve.engine._joker_passes import joker_search
    from rumdiff.solve.engine._jokers import joker_pass
    from rumdiff.solve.engine._loop import NOT_REACHED, OK, OVER_BUDGET

    arrays, groups, pair = joker_tables(puzzle.k, puzzle.m, puzzle.jokers)
    x, need, values = joker_rows(puzzle, objective)
    check_codes(puzzle, meld)
    melding = (np.int64(meld), np.int64(_big(puzzle, objective)))
    path = np.zeros((2, puzzle.n), dtype=np.int64)
    limits = (np.int64(max_states), np.int64(live[1]))
    if fast:
        work = np.zeros(5, dtype=np.int64)
        best, status = joker_search(
            x, need, values, puzzle.jokers, puzzle.table_jokers, melding, arrays, groups, pair,
            group_value_table(puzzle.k, puzzle.m), puzzle.m, np.int64(lower),
            (*limits, np.int64(beam), np.int64(live[0])), path, work,
        )  # fmt: skip
        traced = None if work[4] else path  # the best is ``lower``, whose path is not ours
        states, transitions, passes, high = (int(value) for value in work[:4])
        return int(best), states, transitions, passes, int(status), traced, high

    ahead = np.zeros((puzzle.n + 2, puzzle.jokers + 1), dtype=np.int64)
    high = int(reference_ahead(x, values, ahead))
    trial = np.zeros((2, puzzle.n), dtype=np.int64)
    unprofiled = np.zeros((2, 0), dtype=np.int64)
    work = [0, 0, 0]

    def run(target, width):
        best, states, transitions, status = joker_pass(
            x, need, values, ahead, puzzle.jokers, puzzle.table_jokers, melding, arrays, groups,
            pair, np.int64(target), (*limits, np.int64(width), False), trial[0], trial[1],
            unprofiled,
        )  # fmt: skip
        work[0] += states
        work[1] += transitions
        work[2] += width == 0
        if status == OK:
            path[:] = trial
        return int(best), int(status)

    low, status = run(0, beam) if beam else (-1, NOT_REACHED)
    if status != OK:
        low = -1
    if lower > low:
        low, status = lower, NOT_REACHED  # (its path is not this DP's)
    result = (low, OK) if low == high and status == OK else (None, None)
    for aim in (high, max(low, 0)):
        if result[0] is not None:
            break
        best, status = run(aim, 0)
        if status == OVER_BUDGET or status == OK:
            result = (best, status)
        elif aim == max(low, 0) or aim <= low:
            result = (0, NOT_REACHED)
    best, status = result
    return best, work[0], work[1], work[2], status, path, high


def rebuild(puzzle: Puzzle, path: np.ndarray) -> Arrangement:
    """The runs and groups along a path of :func:`run_joker_dp`, jokers included."""
    k, n = puzzle.k, puzzle.n
    tables = complete_run_states(puzzle.m + puzzle.jokers)
    bits = _run_bits(puzzle)
    x = puzzle.copies[::-1]
    need = puzzle.table_copies[::-1]
    groups_table = joker_group_table(k, puzzle.m, puzzle.jokers)
    runs: list[Run] = []
    groups: list[Group] = []
    slots = [[] for _ in range(k)]  # per colour: open runs as [length, first row, joker rows]
    for w in range(n + 1):
        code = int(path[0, w]) if w < n else 0
        pick = int(path[1, w]) if w < n else 0
        real = []
        for c in range(k):
            state = (code >> (bits * c)) & ((1 << bits) - 1) if w < n else 0
            counts = tables.slots[state]
            short = [slot for slot in slots[c] if slot[0] < 3]
            complete = [slot for slot in slots[c] if slot[0] >= 3]
            keep = int(counts[3]) - sum(1 for slot in short if slot[0] == 2)
            for slot in complete[keep:]:
                runs.append(_run(c, slot, w, n))
            extended = short + complete[:keep] + [[0, w, []] for _ in range(int(counts[1]))]
            u = len(extended)
            wild = (pick >> (3 * c)) & 7
            for index, slot in enumerate(extended):
                if index >= u - wild:
                    slot[2].append(w)
                slot[0] += 1
            slots[c] = extended
            real.append(u - wild)
        if w == n:
            break
        jokers = (pick >> (3 * k)) & 7
        groups.extend(_groups(x[w], need[w], real, jokers, groups_table, puzzle, n - w))
    return Arrangement(tuple(sorted(runs)), tuple(sorted(groups)))


def _run(colour: int, slot, end_row: int, n: int) -> Run:
    """The run a slot built from row ``slot[1]`` to ``end_row - 1`` (values n - row)."""
    length, start_row, joker_rows = slot
    high = n - start_row
    low = high - length + 1
    return Run(colour, low, high, tuple(sorted(n - row for row in joker_rows)))


def _groups(x, need, real, jokers, table, puzzle: Puzzle, value: int) -> list[Group]:
    """Groups at one value that place what ``table`` promises with ``jokers`` jokers."""
    k, m = puzzle.k, puzzle.m
    left = [int(x[c]) - real[c] for c in range(k)]
    required = [max(0, int(need[c]) - real[c]) for c in range(k)]
    index = sum(pair_code(left[c], required[c]) * ((m + 1) * (m + 2) // 2) ** c for c in range(k))
    target = int(table[index, jokers])
    if target < 0:
        raise RuntimeError(f"internal error: no groups at value {value} fit the path")
    for q in range(0, m + puzzle.jokers + 1):
        top = min(sum(min(a, q) for a in left), k * q - jokers)
        if top == target and max(required, default=0) <= q and top >= 3 * q - jokers:
            break
    else:
        raise RuntimeError(f"internal error: no number of groups at value {value} fits")
    take = list(required)
    for c in range(k):  # then more tiles, up to q a colour, until the target is met
        more = min(min(left[c], q) - take[c], target - sum(take))
        take[c] += max(0, more)
    members: list[list[int]] = [[] for _ in range(q)]
    for c in sorted(range(k), key=lambda c: -take[c]):
        for group in sorted(range(q), key=lambda g: len(members[g]))[: take[c]]:
            members[group].append(c)
    wild: list[list[int]] = [[] for _ in range(q)]
    for _ in range(jokers):
        group = min(range(q), key=lambda g: len(members[g]) + len(wild[g]))
        free = [c for c in range(k) if c not in members[group] and c not in wild[group]]
        wild[group].append(free[0])
    return [Group(value, tuple(sorted(members[g])), tuple(sorted(wild[g]))) for g in range(q)]
