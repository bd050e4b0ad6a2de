"""Tests for rumdiff.features.jokers and the joker integration: every joker feature on hand
cases and against slow, obvious twins (enumerated valid sets, the brute-force solver) on
seeded tiny puzzles; feature names, compute_features, the transformer and its layout."""

from __future__ import annotations

import pickle
from itertools import combinations, product

import numba
import numpy as np
import pandas as pd
import pytest
from helpers import applicable_checks
from sklearn.base import clone

from rumdiff import config
from rumdiff.data import Family
from rumdiff.features import (
    JOKER_FEATURES,
    JOKERS_REFUSED,
    PuzzleFeatures,
    compute_features,
    describe_features,
    extended_features,
    feature_names,
    flatten_puzzles,
    joker_features,
)
from rumdiff.puzzle import Game, Puzzle, Puzzles
from rumdiff.solve._tiles import remove_isolated
from rumdiff.solve.twins.brute_force import solve_brute_force

P = Puzzle.from_tiles


def tiny_puzzles(seed: int, count: int, *, table: bool = True, jokers: int = 2) -> list[Puzzle]:
    """Seeded tiny puzzles (k 3..4, m 1..2, n 3..6) of sparse to dense copies, with a random
    table (when asked) and 0..jokers jokers."""
    rng = np.random.default_rng(seed)
    puzzles = []
    while len(puzzles) < count:
        k, m, n = int(rng.integers(3, 5)), int(rng.integers(1, 3)), int(rng.integers(3, 7))
        copies = (rng.random((n, k)) < rng.uniform(0.15, 0.6)) * rng.integers(1, m + 1, (n, k))
        if copies.sum() > 11:
            continue
        on_table = (rng.random((n, k)) < rng.random() * 0.5) * copies if table else None
        j = int(rng.integers(0, jokers + 1))
        tj = int(rng.integers(0, j + 1)) if table else 0
        puzzles.append(Puzzle(copies, m=m, jokers=j, table=on_table, table_jokers=tj))
    return puzzles


# --- slow twins ------------------------------------------------------------------------


def sets_holding(x, w, c, jokers):
    """Every valid set holding a tile of cell (w, c), as (other cells' tiles, jokers used):
    runs of colour c through value w + 1, groups of that value holding colour c, each other
    place a present tile or a joker."""
    n, k = x.shape
    places = []
    for lo in range(w + 1):
        for hi in range(max(w, lo + 2), n):  # rows lo..hi, at least three, holding w
            places.append([(r, c) for r in range(lo, hi + 1) if r != w])
    for size in range(3, k + 1):
        for colours in combinations([d for d in range(k) if d != c], size - 1):
            places.append([(w, d) for d in colours])
    found = set()
    for cells in places:
        for joker in product((False, True), repeat=len(cells)):
            tiles = tuple(cell for cell, j in zip(cells, joker, strict=True) if not j)
            if sum(joker) <= jokers and all(x[cell] > 0 for cell in tiles):
                found.add((tiles, sum(joker)))
    return sorted(found)


def slow_capacity(x, w, c, jokers) -> int:
    """Most copies of (w, c) an arrangement with at most ``jokers`` jokers can place: the
    most sets holding it that fit the tiles, by exhaustive search."""
    candidates = sets_holding(x, w, c, jokers)

    def most(start, left, jokers_left, placed):
        if placed == x[w, c]:
            return placed
        best = placed
        for i in range(start, len(candidates)):
            cells, used = candidates[i]
            if used <= jokers_left and all(left[cell] > 0 for cell in cells):
                for cell in cells:
                    left[cell] -= 1
                best = max(best, most(i, left, jokers_left - used, placed + 1))
                for cell in cells:
                    left[cell] += 1
        return best

    return most(0, x.copy(), jokers, 0)


def slow_joker_features(puzzle: Puzzle) -> dict:
    """The joker features by their definitions, one cell at a time."""
    x = np.asarray(puzzle.copies, dtype=np.int64)
    table = puzzle.table_copies.astype(np.int64)
    n, k = x.shape
    values = np.arange(1, n + 1)[:, None]
    cap0 = np.zeros_like(x)
    cap1 = np.zeros_like(x)
    for w, c in zip(*np.nonzero(x), strict=True):
        cap0[w, c] = slow_capacity(x, w, c, 0)
        cap1[w, c] = slow_capacity(x, w, c, 1)
    j = puzzle.jokers
    held = cap0 if j == 0 else np.minimum(x, cap1 + j - 1)
    gained = cap1 - cap0
    bridges = sum(
        x[w, c] == 0 and x[w - 1, c] > 0 and x[w + 1, c] > 0
        for w in range(1, n - 1)
        for c in range(k)
    )
    has_table = table.any() or puzzle.table_jokers
    lower = int((table * values).sum()) if has_table else None
    return {
        "jokers": j,
        "table_jokers": puzzle.table_jokers,
        "table_tiles": int(table.sum()),
        "rack_tiles": int((x - table).sum()),
        "table_points": int((table * values).sum()),
        "joker_lower": lower,  # None: the joker-free solver_lower, checked elsewhere
        "joker_upper": int((held * values).sum()),
        "joker_placeable": int(gained.sum()),
        "joker_placeable_points": int((gained * values).sum()),
        "joker_bridges": int(bridges),
        "joker_groups": sum(int((row > 0).sum() == 2) for row in x) if k >= 3 else 0,
        "table_needs_joker": int(np.maximum(table - cap0, 0).sum()),
        "table_blocked": int(np.maximum(table - held, 0).sum()),
        "cap0": cap0,
    }


# --- the features against their twins ----------------------------------------------------


#: The features of the joker DP's bounded first pass, tested on their own below.
BOUND = ("joker_bound_met", "joker_bound_refuted", "joker_bound_transitions")
#: The features of the beam probe of its second pass.
PROBE = ("joker_probe_growth", "joker_probe_transitions")
PASSES = BOUND + PROBE


def test_joker_features_on_hand_cases():
    def features(puzzle):
        got = joker_features(puzzle)
        return {name: int(v[0]) for name, v in got.items() if name not in PASSES}

    # 1b 3b 5g 5r and a joker (G(4, 2, 6)): nothing is placeable without it; with it each
    # tile is (1b J=2b 3b, 5g 5r J), though not all at once; 2b is a bridge, 5 a group.
    got = features(P([(1, 0), (3, 0), (5, 1), (5, 2)], k=4, m=2, n=6, jokers=1))
    assert got == {"jokers": 1, "table_jokers": 0, "table_tiles": 0, "rack_tiles": 4,
                   "table_points": 0, "joker_lower": 0, "joker_upper": 14, "joker_gap": 14,
                   "joker_placeable": 4, "joker_placeable_points": 14, "joker_bridges": 1,
                   "joker_groups": 1, "table_needs_joker": 0, "table_blocked": 0}  # fmt: skip
    # 1b 2b 3b 3b 5b without jokers: 1b 2b 3b scores 6; a joker would place the second 3b
    # and 5b (3b J=4b 5b), which the joker-free removal removes.
    tiles = [(1, 0), (2, 0), (3, 0), (3, 0), (5, 0)]
    got = features(P(tiles, k=4, m=2, n=6))
    assert (got["joker_lower"], got["joker_upper"], got["joker_gap"]) == (6, 6, 0)
    assert (got["joker_placeable"], got["joker_placeable_points"], got["joker_bridges"]) == (
        2, 8, 1)  # fmt: skip
    got = features(P(tiles, k=4, m=2, n=6, jokers=1))
    assert (got["joker_lower"], got["joker_upper"], got["joker_gap"]) == (6, 14, 8)
    got = features(P(tiles, k=4, m=2, n=6, jokers=3))  # two more jokers: two more copies
    assert got["joker_upper"] == 14 and got["jokers"] == 3
    # A table 5g 5r 5y J and a rack 1b 2b: the lower bound is the table's 15 points; one
    # joker would also place 1b 2b.
    got = features(P([(1, 0), (2, 0)], k=4, m=2, n=6, table=[(5, 1), (5, 2), (5, 3), "J"]))
    assert got == {"jokers": 1, "table_jokers": 1, "table_tiles": 3, "rack_tiles": 2,
                   "table_points": 15, "joker_lower": 15, "joker_upper": 18, "joker_gap": 3,
                   "joker_placeable": 2, "joker_placeable_points": 3, "joker_bridges": 0,
                   "joker_groups": 0, "table_needs_joker": 0, "table_blocked": 0}  # fmt: skip
    # A table 3b alone cannot be placed: the gap is negative, and the puzzle infeasible.
    lonely = P([(1, 0)], k=4, m=2, n=6, table=[(3, 0)])
    got = features(lonely)
    assert (got["joker_gap"], got["table_needs_joker"], got["table_blocked"]) == (-3, 1, 1)
    assert solve_brute_force(lonely) is None
    # With one joker it can (1b J=2b 3b), with the joker pinned to it.
    got = features(P([(1, 0)], k=4, m=2, n=6, jokers=1, table=[(3, 0)]))
    assert (got["joker_gap"], got["table_needs_joker"], got["table_blocked"]) == (1, 1, 0)


def test_puzzles_with_and_without_a_table_share_the_kernel_signature(monkeypatch):
    # The kernel compiles once per signature: a writable empty table beside a puzzle's
    # read-only table would make the warm-up compile it twice.
    from rumdiff.features import _jokers as kernels

    real, signatures = kernels.joker_stack, []

    def recording(*args):
        signatures.append(tuple(numba.typeof(a) for a in args))
        return real(*args)

    monkeypatch.setattr(kernels, "joker_stack", recording)
    joker_features(P([(1, 0), (2, 0), (3, 0)], k=4, m=2, n=6))
    joker_features(P([(1, 0), (2, 0)], k=4, m=2, n=6, table=[(5, 1), (5, 2), (5, 3)]))
    assert len(signatures) == 2 and signatures[0] == signatures[1]


@pytest.mark.parametrize("seed", range(4))
def test_joker_features_match_slow_twin(seed):
    puzzles = tiny_puzzles(100 + seed, 150)
    placeable = 0
    for puzzle in puzzles:
        got = {name: int(v[0]) for name, v in joker_features(puzzle).items() if name not in PASSES}
        expected = slow_joker_features(puzzle)
        cap0 = expected.pop("cap0")
        if expected["joker_lower"] is None:
            expected["joker_lower"] = int(extended_features(puzzle.copies[None], m=puzzle.m)[
                "solver_lower"][0])  # fmt: skip
        expected["joker_gap"] = expected["joker_upper"] - expected["joker_lower"]
        assert got == expected, puzzle
        # What isolated-tile removal removes is exactly what no arrangement can place.
        reduced = puzzle.copies.astype(np.int64)
        assert remove_isolated(reduced, config.S) == puzzle.tiles - cap0.sum()
        placeable += got["joker_placeable"]
    assert placeable > 20  # the comparison is not all zeros


def test_capacities_match_the_brute_force_solver():
    """The twin itself: a copy count is placeable iff the brute force places it as a table."""
    checked = 0
    for puzzle in tiny_puzzles(7, 60, table=False, jokers=0):
        x = puzzle.copies.astype(np.int64)
        for w, c in zip(*np.nonzero(x), strict=True):
            for jokers in (0, 1, 2):
                most = slow_capacity(x, w, c, jokers)
                for count in range(1, x[w, c] + 1):
                    table = np.zeros_like(x)
                    table[w, c] = count
                    test = Puzzle(x, m=puzzle.m, jokers=jokers, table=table)
                    assert (solve_brute_force(test) is not None) == (count <= most)
                    checked += 1
                if jokers == 2:  # the upper bound's rule: one more copy per further joker
                    assert most <= min(x[w, c], slow_capacity(x, w, c, 1) + 1)
    assert checked > 100


def test_bounds_hold_the_optimum():
    feasible = below = needing = 0
    for puzzle in tiny_puzzles(11, 500, jokers=3):
        got = {name: int(v[0]) for name, v in joker_features(puzzle).items()}
        best = solve_brute_force(puzzle)
        if best is None:
            continue
        feasible += 1
        below += best < got["joker_upper"]
        assert got["joker_lower"] <= best <= got["joker_upper"], puzzle
        assert got["joker_gap"] >= 0 and got["table_blocked"] == 0
        if got["table_needs_joker"]:
            needing += 1
            assert puzzle.jokers > 0
    assert feasible > 100 and below > 10 and needing > 5


def test_joker_bound_says_whether_every_tile_can_be_placed():
    """met: the optimum places every regular tile (brute force); refuted: it does not, or
    no arrangement places the table; puzzles without jokers or a table: all zeros."""
    puzzles = tiny_puzzles(21, 400, jokers=2)
    met = refuted = plain = 0
    for puzzle in puzzles:
        got = joker_features(puzzle)
        bound = tuple(int(got[name][0]) for name in BOUND)
        if puzzle.plain:
            assert bound == (0, 0, 0) and all(got[name][0] == 0 for name in PROBE)
            plain += 1
            continue
        best = solve_brute_force(puzzle)
        places_all = best is not None and best == puzzle.points
        assert bound[:2] == (int(places_all), int(not places_all)), puzzle
        assert bound[2] >= 0
        met += places_all
        refuted += not places_all
    assert met > 20 and refuted > 20 and plain > 5
    # A stack of one family with 0..2 jokers gives each puzzle its own row.
    family = [p for p in puzzles if (p.k, p.m, p.n) == (puzzles[0].k, puzzles[0].m, puzzles[0].n)]
    stacked = joker_features(Puzzles.from_list(family))
    assert len({p.jokers for p in family}) > 1
    for row, puzzle in enumerate(family):
        alone = joker_features(puzzle)
        for name in PASSES:
            assert stacked[name][row] == alone[name][0], (name, puzzle)


def test_joker_bound_is_the_reference_search_first_pass():
    """On turns (a table), the reference search's joker DP starts with this very pass: when
    it places every tile, the search's effort is its transitions; else the search goes on."""
    from rumdiff.data.turns import generate_turns
    from rumdiff.solve import search_effort

    turns, _, _ = generate_turns(60, Game(4, 2, 13), jokers=2, seed=5)
    got = joker_features(turns)
    seen = set()
    for row in range(len(turns)):
        effort = search_effort(turns[row])
        met, refuted, transitions = (int(got[name][row]) for name in BOUND)
        assert met + refuted == 1 and transitions > 0
        if met:
            assert effort.transitions == transitions and effort.score == turns[row].points
        else:
            assert effort.transitions > transitions
            assert effort.score is None or effort.score < turns[row].points
        seen.add(met)
    assert seen == {0, 1}


@pytest.mark.parametrize("budget", [10_000, 50, 5])
def test_joker_bound_equals_the_reference_first_pass(monkeypatch, budget):
    """Every column against the reference search's joker passes told that every tile
    placed is reachable, so that they run their first pass alone: turns with 0, 1 and 2
    jokers, tiny tables and rack jokers, with budgets that decide all, some and almost
    none of them."""
    from rumdiff.data.turns import generate_turns
    from rumdiff.solve.search import joker_passes

    monkeypatch.setattr(config, "FEATURE_JOKER_BOUND_STATES", budget)
    stacks = [generate_turns(25, Game(4, 2, 13), jokers=j, seed=40 + j)[0] for j in range(3)]
    stacks += [Puzzles.from_list([p]) for p in tiny_puzzles(31, 60) if not p.plain]
    decided = undecided = 0
    for stack in stacks:
        got = joker_features(stack)
        for row in range(len(stack)):
            puzzle = stack[row]
            _, _, transitions, _, status = joker_passes(puzzle, puzzle.points, max_states=budget)
            expected = (int(status == "ok"), int(status == "not reached"), transitions)
            assert tuple(int(got[name][row]) for name in BOUND) == expected, puzzle
            decided += status != "over budget"
            undecided += status == "over budget"
    assert decided > 0 and (undecided > 0 if budget < 100 else undecided < 5)


def test_joker_bound_budget(monkeypatch):
    """Out of states, the pass decides nothing: neither met nor refuted."""
    from rumdiff.data.turns import generate_turns

    turns, _, _ = generate_turns(10, Game(4, 2, 13), jokers=2, seed=6)
    monkeypatch.setattr(config, "FEATURE_JOKER_BOUND_STATES", 2)
    got = joker_features(turns)
    assert not got["joker_bound_met"].any() and not got["joker_bound_refuted"].any()
    assert (got["joker_bound_transitions"] > 0).all()


def test_probe_is_the_second_pass_when_it_keeps_every_state(monkeypatch):
    """Wide enough never to cut, the probe is the reference search's second pass: on turns
    whose first pass is refuted (where the search's second pass aims at the table's
    points, as the probe does), the two passes' transitions add up to the search's. At
    the default width the probe cuts the widest passes: fewer transitions."""
    from rumdiff.data.turns import generate_turns
    from rumdiff.solve import search_effort

    turns = [generate_turns(30, Game(4, 2, 13), jokers=j, seed=60 + j)[0] for j in range(3)]
    turns.append(generate_turns(30, Game(3, 2, 30), jokers=1, seed=63)[0])
    sampled = [joker_features(stack) for stack in turns]
    monkeypatch.setattr(config, "FEATURE_PROBE_WIDTH", 10**6)
    whole = [joker_features(stack) for stack in turns]
    checked = cut = 0
    for stack, few, got in zip(turns, sampled, whole, strict=True):
        assert (few["joker_probe_growth"] >= 0).all() and (got["joker_probe_growth"] >= 0).all()
        assert (few["joker_probe_transitions"] <= got["joker_probe_transitions"]).all()
        cut += int((few["joker_probe_transitions"] < got["joker_probe_transitions"]).sum())
        for row in np.flatnonzero(got["joker_bound_refuted"]):
            effort = search_effort(stack[int(row)])
            passes = got["joker_bound_transitions"][row] + got["joker_probe_transitions"][row]
            assert effort.transitions == passes, stack[int(row)]
            checked += 1
    assert checked > 80 and cut > 10


def _second_pass(puzzle, target, beam):
    """The reference joker pass aimed at ``target`` with a beam (0: none), run through the
    engine's public pass: ``(states, transitions, profile)``."""
    from rumdiff.solve.engine import Rules, run_pass

    done = run_pass(
        puzzle, Rules("jokers", "reference"), aim=int(target), beam=beam,
        budget=(10**7, config.MAX_LIVE_STATES), profile=True,
    )  # fmt: skip
    return done.states, done.transitions, done.profile


def test_probe_growth_is_the_product_of_what_each_step_made_of_what_was_kept(monkeypatch):
    """The growth, recomputed in Python from the profile of the same beam pass called
    directly: the product over the steps that made states of made / kept the step
    before. Some turns' probes cut (growth > 0), some never do and close in one state
    (growth 0); and without a table the probe aims at joker_lower, checked against the
    unbeamed pass aimed there."""
    from rumdiff.data.generator import generate
    from rumdiff.data.turns import generate_turns

    turns, _, _ = generate_turns(40, Game(4, 2, 13), jokers=2, seed=80)
    got = joker_features(turns)
    for row in range(len(turns)):
        turn = turns[row]
        _, transitions, profile = _second_pass(
            turn, got["joker_lower"][row], config.FEATURE_PROBE_WIDTH
        )
        made, kept = profile
        steps = int(np.argmin(made > 0)) if (made == 0).any() else len(made)
        before = np.concatenate([[1], kept[: steps - 1]])
        expected = float(np.sum(np.log10(made[:steps] / before)))
        assert got["joker_probe_growth"][row] == pytest.approx(expected, abs=1e-9)
        assert got["joker_probe_transitions"][row] == transitions
    assert (got["joker_probe_growth"] > 0.5).sum() > 10  # the beam cut these
    simplex = generate(12, Family(Game(4, 2, 13), "simplex", jokers=2), seed=81).puzzles
    monkeypatch.setattr(config, "FEATURE_PROBE_WIDTH", 10**6)
    wide = joker_features(simplex)
    # A turn's table can always be placed (it is made of valid sets), so the whole pass
    # closes in one state: nothing cut, nothing grown.
    assert (joker_features(turns)["joker_probe_growth"] == 0).all()
    differ = 0
    for row in range(len(simplex)):
        puzzle = simplex[row]
        transitions = _second_pass(puzzle, wide["joker_lower"][row], 0)[1]
        assert wide["joker_probe_transitions"][row] == transitions
        differ += transitions != _second_pass(puzzle, 0, 0)[1]
    assert differ > 3  # the aim matters: aimed at 0 the pass walks more


def test_joker_dp_profile_counts_the_states():
    """The DP's profile (what the probe reads): without a beam, the states kept at each
    row's last step add up to the states the DP reports, and none is cut; with a beam,
    a step keeps the beam's width of what it made, or up to twice on ties."""
    from rumdiff.data.turns import generate_turns

    turns, _, _ = generate_turns(20, Game(4, 2, 13), jokers=2, seed=70)
    for row in range(len(turns)):
        for beam in (0, 8):
            states, _, (made, kept) = _second_pass(turns[row], 0, beam)
            assert states == kept[4::5].sum() and (kept <= made).all()
            if beam == 0:
                np.testing.assert_array_equal(made, kept)
            else:
                assert (kept <= 2 * beam).all() and (kept < made).any()


@pytest.mark.parametrize(("k", "m", "n"), [(4, 2, 40), (3, 3, 20), (5, 1, 30), (2, 2, 15)])
def test_plain_puzzles_lower_bound_is_solver_lower(k, m, n):
    rng = np.random.default_rng(k * 100 + m * 10 + n)
    stack = (rng.random((40, n, k)) * (m + 1) * rng.uniform(0.3, 1.5, (40, 1, 1))).astype(int)
    stack = np.minimum(stack, m)
    got = joker_features(Puzzles(stack, m=m))
    extended = extended_features(stack, m=m)
    assert np.array_equal(got["joker_lower"], extended["solver_lower"])
    points_left = extended["points"] - (stack - _reduced(stack)).sum(axis=2) @ np.arange(1, n + 1)
    assert np.array_equal(got["joker_upper"], points_left)  # no jokers: the removal's points
    assert not got["jokers"].any() and np.array_equal(got["rack_tiles"], extended["tiles"])


def _reduced(stack):
    out = stack.astype(np.int64).copy()
    for x in out:
        remove_isolated(x, config.S)
    return out


# --- the public API ------------------------------------------------------------------------


def _joker_stack(seed=3, count=12, n=13):
    rng = np.random.default_rng(seed)
    puzzles = []
    for index in range(count):
        copies = rng.integers(0, 3, (n, 4))
        table = (rng.random((n, 4)) < 0.3) * copies if index % 3 else None
        j = index % 4
        puzzles.append(Puzzle(copies, m=2, jokers=j, table=table, table_jokers=min(j, index % 2)))
    return Puzzles.from_list(puzzles)


def test_feature_names_with_jokers():
    # The scaled set holds the joker features already, whatever the puzzles.
    assert feature_names("scaled", k=4, m=2, jokers=True) == feature_names("scaled", k=4, m=2)
    for feature_set in set(config.FEATURE_SETS) - {"scaled"}:
        plain = feature_names(feature_set, k=4, m=2)
        assert feature_names(feature_set, k=4, m=2, jokers=True) == plain + list(JOKER_FEATURES)
        described = describe_features(feature_set, k=4, m=2, jokers=True)
        assert list(described) == plain + list(JOKER_FEATURES)
        assert all(isinstance(doc, str) and doc for doc in described.values())
    assert not set(JOKER_FEATURES) & set(feature_names("all", k=4, m=3))


def test_compute_features_with_jokers():
    puzzles = _joker_stack()
    names = feature_names("all", k=4, m=2)
    plain = compute_features(puzzles.copies, m=2)
    assert list(plain.columns) == names  # a plain array: as before
    frame = compute_features(puzzles, m=2)  # jokers=None and jokers present: appended
    assert list(frame.columns) == names + list(JOKER_FEATURES)
    pd.testing.assert_frame_equal(frame[names], plain)  # the set's columns: regular tiles
    assert all(frame[name].dtype == (np.float64 if name == "joker_probe_growth" else np.int64)
               for name in JOKER_FEATURES)  # fmt: skip
    for name, values in joker_features(puzzles).items():
        assert np.array_equal(frame[name], values)
    pd.testing.assert_frame_equal(compute_features(puzzles, m=2, jokers=False), plain)
    one = compute_features(puzzles[4], m=2, feature_set="thesis")
    pd.testing.assert_frame_equal(
        one, frame[one.columns].iloc[[4]].reset_index(drop=True), check_dtype=False
    )
    zero = compute_features(puzzles.copies, m=2, feature_set="extended", jokers=True)
    assert not zero[["jokers", "table_jokers", "table_tiles", "table_points"]].any(axis=None)
    assert np.array_equal(zero["rack_tiles"], zero["tiles"])
    assert list(compute_features(Puzzles(puzzles.copies, m=2), m=2).columns) == names
    empty = compute_features(np.zeros((0, 13, 4), dtype=np.int8), m=2, jokers=True)
    assert empty.shape == (0, len(names) + len(JOKER_FEATURES))
    with pytest.raises(ValueError, match="m=2"):
        compute_features(puzzles, m=3)


def test_flatten_puzzles_layout():
    puzzles = _joker_stack(count=8)
    flat = flatten_puzzles(puzzles, jokers=True)
    count, n, k = puzzles.copies.shape
    assert flat.shape == (count, 2 * n * k + 2)
    assert np.array_equal(flat[:, : n * k], puzzles.copies.reshape(count, -1))
    assert np.array_equal(flat[:, n * k : 2 * n * k], puzzles.table.reshape(count, -1))
    assert np.array_equal(flat[:, -2], puzzles.jokers)
    assert np.array_equal(flat[:, -1], puzzles.table_jokers)
    plain = Puzzles(puzzles.copies, m=2)
    assert np.array_equal(flatten_puzzles(plain, jokers=False), flat[:, : n * k])
    assert not flatten_puzzles(plain, jokers=True)[:, n * k :].any()
    with pytest.raises(ValueError, match=JOKERS_REFUSED):
        flatten_puzzles(puzzles, jokers=False)


def test_transformer_with_jokers():
    puzzles = _joker_stack(count=16)
    flat = flatten_puzzles(puzzles, jokers=True)
    features = PuzzleFeatures(feature_set="extended", jokers=True)
    assert features.fit(puzzles) is features
    out = features.transform(puzzles)
    expected = compute_features(puzzles, m=2, feature_set="extended", jokers=True)
    assert np.array_equal(out, expected.to_numpy(dtype=float))
    assert np.array_equal(features.transform(flat), out)
    assert np.array_equal(features.transform(flat[::-1]), out[::-1])
    assert np.array_equal(features.transform(puzzles[2]), out[2:3])
    assert features.n_features_in_ == 2 * 13 * 4 + 2
    assert list(features.get_feature_names_out()) == list(expected.columns)
    plain_out = features.transform(puzzles.copies)  # 3-D copies: no jokers, no table
    assert np.array_equal(
        plain_out, compute_features(puzzles.copies, m=2, feature_set="extended", jokers=True)
        .to_numpy(dtype=float))  # fmt: skip
    fitted_flat = PuzzleFeatures(feature_set="thesis", jokers=True).fit(flat)
    assert fitted_flat.n_values_ == 13 and fitted_flat.n_features_in_ == flat.shape[1]
    again = pickle.loads(pickle.dumps(features))
    assert np.array_equal(again.transform(flat), out)
    assert clone(features).get_params()["jokers"] is True
    bad = flat.copy()
    bad[0, -2] = 5
    with pytest.raises(ValueError, match="jokers, table jokers"):
        features.transform(bad)
    bad = flat.copy()
    lacking = np.flatnonzero(flat[0, : 13 * 4] == 0)[0]
    bad[0, 13 * 4 + lacking] = 1  # a table tile the copies lack
    with pytest.raises(ValueError, match="table"):
        features.transform(bad)
    bad = flat.copy()
    bad[0, -1] = bad[0, -2] + 1
    with pytest.raises(ValueError, match="table_jokers"):
        features.transform(bad)
    with pytest.raises(ValueError, match="2 \\* n \\* k \\+ 2"):
        PuzzleFeatures(jokers=True).fit(flat[:, :-1])
    with pytest.raises(ValueError, match="True or False"):
        PuzzleFeatures(jokers="yes").fit(puzzles)


def test_transformer_without_jokers_refuses_them():
    puzzles = _joker_stack(count=8)
    features = PuzzleFeatures(feature_set="thesis").fit(puzzles.copies)
    with pytest.raises(ValueError, match=f"^{JOKERS_REFUSED}; 7 of the 8 puzzles") as error:
        features.transform(puzzles)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match=JOKERS_REFUSED):
        features.transform(puzzles[1])
    with pytest.raises(ValueError, match=JOKERS_REFUSED):
        PuzzleFeatures().fit(puzzles)
    plain = Puzzles(puzzles.copies, m=2)
    assert np.array_equal(features.transform(plain), features.transform(puzzles.copies))
    assert features.transform(puzzles[0]).shape == (1, len(feature_names("thesis", k=4, m=2)))


def test_transformer_saved_before_jokers_reads_as_joker_free():
    features = PuzzleFeatures(feature_set="thesis").fit(_joker_stack().copies)
    state = features.__getstate__()
    del state["jokers"]
    old = PuzzleFeatures.__new__(PuzzleFeatures)
    old.__setstate__(state)
    assert old.get_params()["jokers"] is False
    assert np.array_equal(old.transform(_joker_stack().copies), features.transform(
        _joker_stack().copies))  # fmt: skip


def test_the_thesis_model_still_loads_and_predicts():
    # Saved before PuzzleFeatures had its jokers parameter: it reads as False.
    import json

    import sklearn

    from rumdiff.learn import load_model
    from rumdiff.learn.model import sidecar_path

    path = config_model_path()
    saved_with = json.loads(sidecar_path(path).read_text())["sklearn_version"]
    if saved_with.split(".")[:2] != sklearn.__version__.split(".")[:2]:
        # Another scikit-learn minor version (the oldest allowed): the loader refuses it,
        # which test_predict checks; there is nothing to load here.
        pytest.skip(f"the thesis model was saved with scikit-learn {saved_with}")
    model = load_model(path)
    features = model.pipeline.named_steps["features"]
    assert features.get_params()["jokers"] is False
    stack = np.zeros((1, model.n, model.k), dtype=np.int8)
    assert model.pipeline.predict(stack).shape == (1,)


def config_model_path():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "models" / "thesis.skops"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return path


# --- scikit-learn ------------------------------------------------------------------------

from test_features import _NOT_APPLICABLE  # noqa: E402  (the same reasons apply)


@pytest.mark.parametrize(
    "estimator, check", applicable_checks(PuzzleFeatures(jokers=True), _NOT_APPLICABLE)
)
def test_sklearn_estimator_checks_with_jokers(estimator, check):
    check(estimator)
