"""The exact solver against its slow twins: the ILP and brute force."""

import numpy as np
import pytest
from helpers import random_copies, shared_examples
from make_golden import ilp_cases, read_golden

from rumdiff import config
from rumdiff.puzzle import Puzzle, decode_puzzle, encode_puzzle, read_puzzles, read_scores
from rumdiff.solve import SolverBudgetError, solve
from rumdiff.solve._tiles import (
    colour_runs,
    remove_isolated,
    runs_only_path,
    runs_path_of_counts,
    segments,
)
from rumdiff.solve.runstates import run_states
from rumdiff.solve.solver import _rebuild
from rumdiff.solve.twins import solve_brute_force, solve_ilp


def _check(copies, m, expected, **options):
    solution = solve(Puzzle(copies, m=m), **{"trace": True, **options})
    assert solution.score == expected
    assert solution.arrangement.check(copies) == expected
    assert solution.lower <= expected <= solution.upper
    if solution.work.method == "bounds":
        assert solution.work.transitions == 0
    # Exact passes after the beams: none where one met the upper bound; below the bound,
    # one proving the optimum, and on large joint state spaces up to TAIL_BLOCKS more
    # that sharpen the tails' bounds (which may prove it instead). A beam that never
    # filled was exact too, and proves what it finds.
    passes = solution.work.exact_passes
    sharpen = run_states(m).size ** solution.puzzle.k >= config.TAIL_STATES
    most = 1 + (config.TAIL_BLOCKS if sharpen else 0)
    assert 0 <= passes <= most * solution.dp_segments
    whole = sum(not t.cut for t in solution.work.trace if "exact" not in t.kind)
    assert (expected < solution.upper) <= (passes + whole >= 1)
    return solution


def test_section_4_1_examples(section_4_1):
    for puzzle, expected in zip(section_4_1, (93, 65), strict=True):
        _check(puzzle.copies, 2, expected)


def test_thesis_example_files():
    puzzles_path, scores_path = shared_examples()
    puzzles = read_puzzles(puzzles_path)
    scores = read_scores(scores_path)
    assert len(puzzles) == len(scores) == 50
    for puzzle, expected in zip(puzzles, scores, strict=True):
        _check(puzzle.copies, 2, int(expected))


def test_equals_the_stored_ilp_optima():
    # 2,060 seeded puzzles from sparse to full, k 1..6, m 1..3, n up to 1,000, with their
    # optimum by the reference ILP (tests/make_golden.py writes them; the slow test
    # below solves them with the live ILP again).
    rows = read_golden("ilp_optima.csv.gz")
    assert len(rows) >= 2000
    for row in rows:
        k, m, n = int(row["k"]), int(row["m"]), int(row["n"])
        copies = decode_puzzle(row["puzzle"], k, n, m=m)
        _check(copies, m, int(row["score"]))


@pytest.mark.slow
def test_the_stored_ilp_optima_are_the_live_ilps():
    rows = read_golden("ilp_optima.csv.gz")
    cases = list(ilp_cases())
    assert len(rows) == len(cases)
    for row, (case, copies, m) in zip(rows, cases, strict=True):
        assert int(row["m"]) == m
        assert (row["case"], row["puzzle"]) == (case, encode_puzzle(copies))
        assert int(row["score"]) == solve_ilp(copies).check(copies)


def test_equals_the_hard_ilp_optima():
    # The solver's worst shapes (k = 6, m = 3, n = 200 simplex, dense and half full; the
    # dense G(4, 3, 100)) with the better of two ILP runs, the two puzzles on which HiGHS
    # claimed a proven optimum one point short, and one that crowds the DP's lists
    # between colour passes (tests/make_golden.py).
    rows = read_golden("ilp_hard.csv.gz")
    assert len(rows) == 39
    short = 0
    for row in rows:
        k, m, n = int(row["k"]), int(row["m"]), int(row["n"])
        copies = decode_puzzle(row["puzzle"], k, n, m=m)
        presolve, no_presolve = int(row["presolve"]), int(row["no_presolve"])
        short += presolve != no_presolve
        _check(copies, m, max(presolve, no_presolve))
    assert short == 2


def test_equals_brute_force_on_tiny_puzzles():
    rng = np.random.default_rng(7)
    for _ in range(300):
        k, m, n = int(rng.integers(1, 6)), int(rng.integers(1, 4)), int(rng.integers(1, 7))
        copies = random_copies(rng, k=k, m=m, n=n)
        if copies.sum() > 24:
            continue
        _check(copies, m, solve_brute_force(copies))


def test_removal_is_safe_on_tiny_puzzles():
    # Removed copies are in no optimal arrangement: brute force finds the same optimum.
    rng = np.random.default_rng(12)
    removed_any = 0
    for _ in range(300):
        k, m = int(rng.integers(3, 6)), int(rng.integers(1, 4))
        copies = random_copies(rng, k=k, m=m, n=int(rng.integers(3, 9)))
        if copies.sum() > 22:
            continue
        reduced = copies.astype(np.int64).copy()
        removed_any += remove_isolated(reduced, 3) > 0
        assert solve_brute_force(reduced) == solve_brute_force(copies)
    assert removed_any > 20


@pytest.mark.slow
def test_removal_is_safe():
    # Removed copies are in no optimal arrangement: the optimum does not change.
    rng = np.random.default_rng(11)
    removed_any = 0
    for _ in range(150):
        k, m = int(rng.integers(3, 6)), int(rng.integers(1, 4))
        copies = random_copies(rng, k=k, m=m, n=int(rng.integers(3, 30)))
        reduced = copies.astype(np.int64).copy()
        removed = remove_isolated(reduced, 3)
        assert removed == copies.sum() - reduced.sum()
        assert np.all(reduced <= copies)
        removed_any += removed > 0
        assert solve_ilp(reduced).score == solve_ilp(copies).score
    assert removed_any > 20


def _segments_slow(x):
    cuts = [
        w
        for w in range(1, len(x))
        if all(x[w - 1, c] == 0 or x[w, c] == 0 for c in range(x.shape[1]))
    ]
    out = []
    for lo, hi in zip([0, *cuts], [*cuts, len(x)], strict=True):
        rows = [w for w in range(lo, hi) if x[w].any()]
        if rows:
            out.append((rows[0], rows[-1] + 1))
    return out


def test_segments_against_slow_split():
    rng = np.random.default_rng(5)
    for _ in range(300):
        x = random_copies(rng, k=int(rng.integers(1, 6)), m=2, n=int(rng.integers(1, 40)))
        x = x.astype(np.int64)
        found = np.zeros((len(x), 2), dtype=np.int64)
        count = segments(x, found)
        assert [tuple(b) for b in found[:count].tolist()] == _segments_slow(x)


def _traced(copies, m, trace):
    """The tiles the runs that ``trace`` traces through ``copies`` use, with rows walked
    downwards as the solver walks them, and what ``trace`` returns. ``trace`` takes
    ``(reduced, values, tables, reach, scratch, parent, path)`` and fills ``path``; the
    solver's rebuild replays it (and raises if it is not a path)."""
    n, k = copies.shape
    tables = run_states(m).kernel_tables
    size = tables[5].shape[0]
    reduced = np.ascontiguousarray(copies[::-1], dtype=np.int64)
    values = np.full(n + 3, n + 1, dtype=np.int64)
    values[:n] = np.arange(n, 0, -1)
    path = np.full(n, -1, dtype=np.int64)
    work, parent = np.empty((4, size), np.int64), np.full((k, n + 1, size), -1, np.int64)
    result = trace(reduced, values, tables, np.empty(n, np.int64), work, parent, path)
    used = np.zeros_like(copies)
    for run in _rebuild(reduced, path, m).runs:
        used[run.start - 1 : run.end, run.colour] += 1
    return used, result


def test_a_replayed_path_by_hand():
    # One colour, m = 1; state codes 1, 2, 3: one slot of length 1, 2, >= 3 (run_states).
    tiles = np.ones((4, 1), np.int64)
    assert str(_rebuild(tiles, np.array([1, 2, 3, 3]), 1)) == "run   1b 2b 3b 4b"
    assert str(_rebuild(tiles, np.array([1, 2, 3, 0]), 1)) == "run   2b 3b 4b"  # row w: n - w
    with pytest.raises(RuntimeError, match="path uses missing tiles at value 1"):
        _rebuild(np.zeros((3, 1), np.int64), np.array([1, 2, 3]), 1)
    with pytest.raises(ValueError, match="no move leads from state 0 to state 2"):
        _rebuild(tiles, np.array([2, 3, 3, 3]), 1)
    # A run of length 1 that stays at length 1: the move from 1 to 1 starts a new run.
    with pytest.raises(RuntimeError, match="path is not canonical at value 2"):
        _rebuild(tiles, np.array([1, 1, 0, 0]), 1)


def _runs_only(reduced, values, tables, reach, scratch, parent, path):
    """Every colour's runs-only optimum (``colour_runs``), its runs traced into ``path``."""
    rows, k = reduced.shape
    optimum = sum(
        colour_runs(reduced, c, 0, rows, values, tables, reach, scratch, parent[c])[0]
        for c in range(k)
    )
    runs_only_path(parent, rows, path)
    return optimum


def _points(used):
    """The points of the tiles ``used`` (row i holds value i + 1)."""
    return int((np.arange(1, len(used) + 1)[:, None] * used).sum())


def _runs_only_points(copies, m):
    """The points of the runs ``runs_only_path`` traces, checked against the tiles, and
    the runs-only optimum."""
    used, optimum = _traced(copies, m, _runs_only)
    assert (used <= copies).all()
    return _points(used), optimum


@pytest.mark.parametrize(("k", "m", "n"), [(4, 2, 100), (4, 3, 40), (1, 1, 20), (3, 2, 13)])
def test_runs_only_path_places_the_runs_only_optimum(k, m, n):
    # The arrangement a segment gets when runs alone reach its bound is traced back
    # through the runs-only DP of its bound (colour_runs, which test_features holds
    # against a slow twin): its runs must place exactly that optimum.
    rng = np.random.default_rng(k * 1000 + m * 100 + n)
    for _ in range(40):
        placed, optimum = _runs_only_points(random_copies(rng, k=k, m=m, n=n), m)
        assert placed == optimum


@pytest.mark.parametrize(
    ("column", "m", "points"),
    [
        ([0, 0, 0, 0], 2, 0),  # no tile
        ([1, 1, 0, 1, 1], 2, 0),  # no three in a row
        ([1, 1, 1], 1, 6),  # one run
        ([2, 2, 2, 1], 2, 12 + 4),  # two runs, one of them four long
        ([1, 2, 2, 2, 1], 2, 10 + 14),  # 1-4 and 2-5: every tile
        ([2, 2, 1, 1, 1], 3, 15),  # 1-5; the other 1 and 2 make no run of three
    ],
)
def test_runs_only_path_by_hand(column, m, points):
    copies = np.asarray(column, dtype=np.int64)[:, None]
    placed, optimum = _runs_only_points(copies, m)
    assert placed == optimum == points


def _some_runs(rng, k, m, n):
    """The copies that random runs of length >= 3 place, at most m of each tile: per
    colour, m slots of runs one after another."""
    counts = np.zeros((n, k), dtype=np.int64)
    for c in range(k):
        for _ in range(m):
            start = int(rng.integers(0, 4))
            while start + 3 <= n:
                end = min(n, start + int(rng.integers(3, 9)))
                counts[start:end, c] += 1
                start = end + int(rng.integers(0, 4))
    return counts


@pytest.mark.parametrize(("k", "m", "n"), [(4, 2, 100), (4, 3, 40), (1, 1, 20), (6, 3, 30)])
def test_runs_path_of_counts_places_every_tile_of_some_runs(k, m, n):
    # A beam that walked the values upwards hands back the tiles its arrangement puts in
    # runs at each row (_plain_passes._upwards); the runs traced through them downwards
    # must place every one of them, row by row, whenever some runs do.
    rng = np.random.default_rng(k * 1000 + m * 100 + n)
    for _ in range(40):
        counts = _some_runs(rng, k, m, n)
        used, points = _traced(counts, m, runs_path_of_counts)
        assert (used == counts).all()
        assert points == _points(counts)


@pytest.mark.parametrize(
    ("column", "m", "points"),
    [
        ([0, 0, 0], 1, 0),  # no tile
        ([1, 1, 0, 2, 2, 2], 2, 2 * (4 + 5 + 6)),  # 1 and 2 make no run: the rest do
        ([1, 2, 2, 2, 1], 2, 10 + 14),  # 1-4 and 2-5
        ([1, 2, 1, 1], 2, 10),  # 1-4; the other 2 makes no run
    ],
)
def test_runs_path_of_counts_by_hand(column, m, points):
    counts = np.asarray(column, dtype=np.int64)[:, None]
    used, placed = _traced(counts, m, runs_path_of_counts)
    assert placed == _points(used) == points
    assert (used <= counts).all()


_SOME, _DENSE = [0.1, 0.3, 0.6], [0.05, 0.25, 0.7]


@pytest.mark.parametrize(
    ("n", "probabilities", "seed", "kind", "status"),
    [
        (30, _SOME, 9, "narrow beam upwards", "ok"),
        (30, _SOME, 38, "narrow beam upwards", "ok"),
        (100, _DENSE, 104, "beam upwards", "ok"),
        (100, _DENSE, 125, "beam upwards", "ok"),
        (30, _SOME, 3, "exact at lower + 1 upwards", "not reached"),
        (30, _SOME, 27, "exact at lower + 1 upwards", "not reached"),
        (30, _SOME, 248, "exact at lower + 1 upwards", "ok"),
        (30, _SOME, 375, "exact at lower + 1 upwards", "ok"),
        (50, _DENSE, 162, "exact at lower + 1 upwards", "ok"),
    ],
)
def test_the_upward_passes_settle_segments_at_the_optimum(n, probabilities, seed, kind, status):
    # Segments that a pass walking the values upwards settles (_plain_passes._upwards):
    # a beam aimed at the upper bound, or the exact pass where the beam's arrangement
    # loses its points near the low values (_proves_upwards). What such a pass finds,
    # turned into a path downwards, must be valid and score the ILP's optimum (_check
    # rebuilds and checks it); where the exact pass finds nothing above the beam's
    # arrangement, that one must.
    copies = random_copies(np.random.default_rng(seed), k=4, m=2, n=n, probabilities=probabilities)
    solution = _check(copies, 2, solve_ilp(copies).score, trace=True)
    passes = [(each.kind, each.status) for each in solution.work.trace]
    assert (kind, status) in passes
    assert not any(each == "exact at lower + 1" for each, _ in passes)  # (never downwards)


@pytest.mark.parametrize(
    ("k", "m", "n", "probabilities", "seed", "kind"),
    [
        (4, 2, 30, _SOME, 0, "narrow beam"),
        (4, 2, 30, _SOME, 12, "narrow beam upwards"),
        (4, 2, 20, _SOME, 322, "beam upwards"),
        (4, 2, 20, [0.5, 0.3, 0.2], 0, "beam"),
        (5, 3, 60, [0.2, 0.2, 0.2, 0.4], 7, "tail beam"),
    ],
)
def test_a_beam_that_never_fills_settles_what_it_proves(k, m, n, probabilities, seed, kind):
    # A beam that never dropped a state was exact. Aimed at the upper bound and reaching
    # nothing, it proves the bound out of reach: no later beam aims at it (on seeds 12
    # and 322 the beam for a lower bound then meets the bound less one, and no exact
    # pass runs). The beam for a lower bound that never filled found the optimum: no
    # exact pass follows; a tail's, the tail's best: the next tail's beam follows, not
    # the tail's exact pass.
    copies = random_copies(np.random.default_rng(seed), k=k, m=m, n=n, probabilities=probabilities)
    optimum = solve_ilp(copies).score
    solution = _check(copies, m, optimum)
    trace = solution.work.trace
    proof = next(each for each in trace if each.kind == kind and not each.cut)
    after = [each for each in trace[trace.index(proof) :] if each.segment == proof.segment]
    if kind == "beam":
        assert proof.status == "ok" and not any("exact" in each.kind for each in after)
    elif kind == "tail beam":
        assert proof.status == "ok" and after[1].kind == "tail beam"
    else:
        assert proof.status == "not reached" and optimum < solution.upper
        assert not any(each.aim >= proof.aim for each in after[1:])
    if seed in (12, 322):
        assert [each.kind for each in after] == [kind, "beam"]


def test_a_beam_of_one_state_walks_upwards_once():
    # With beam_width=1 the narrow beams hold one state too: the wide beam upwards would
    # be the narrow one again, so it does not run; with 2 it does. (On seed 0 the narrow
    # beam of one state never fills, so it proves the bound out of reach and no beam
    # walks upwards.)
    copies = random_copies(np.random.default_rng(1), k=4, m=2, n=30, probabilities=[0.1, 0.3, 0.6])
    for width, passes in (
        (1, ["narrow beam upwards"]),
        (2, ["narrow beam upwards", "beam upwards"]),
    ):
        trace = solve(Puzzle(copies, m=2), beam_width=width, trace=True).work.trace
        assert [each.kind for each in trace if each.kind.endswith("beam upwards")] == passes


def test_beam_width_changes_work_not_score():
    rng = np.random.default_rng(9)
    for _ in range(30):
        copies = random_copies(rng, k=4, m=2, n=60, probabilities=[0.05, 0.15, 0.8])
        puzzle = Puzzle(copies, m=2)
        scores = {solve(puzzle, beam_width=width).score for width in (0, 1, 8, 64, 512)}
        assert len(scores) == 1


def test_without_a_beam_the_first_pass_settles_it():
    # Without a beam the first pass is exact: no pass follows it (no tails either, which
    # take their lower bounds from a beam's path). Dense G(5, 3, 100) puzzles, where
    # with a beam the optimum lies below the upper bound and tails run.
    rng = np.random.default_rng(14)
    followed = 0
    for _ in range(3):
        copies = random_copies(rng, k=5, m=3, n=100, probabilities=[0.2, 0.2, 0.2, 0.4])
        bare, beamed = solve(Puzzle(copies, m=3), beam_width=0), solve(Puzzle(copies, m=3))
        assert bare.score == beamed.score
        assert bare.work.exact_passes == 0
        followed += beamed.work.exact_passes > 2 * beamed.dp_segments
    assert followed > 0


def test_work_is_deterministic():
    rng = np.random.default_rng(2)
    copies = random_copies(rng, k=4, m=2, n=100, probabilities=[0.04, 0.04, 0.92])
    first, second = solve(Puzzle(copies, m=2)), solve(Puzzle(copies, m=2))
    assert (first.work.states, first.work.transitions) == (
        second.work.states,
        second.work.transitions,
    )


def test_budget_gives_a_clear_error():
    rng = np.random.default_rng(4)
    needed = 0
    while needed < 1000:  # find a puzzle that needs the DP
        copies = random_copies(rng, k=4, m=2, n=100, probabilities=[0.04, 0.04, 0.92])
        puzzle = Puzzle(copies, m=2)
        needed = solve(puzzle).work.states
    with pytest.raises(SolverBudgetError, match="max_states"):
        solve(puzzle, max_states=needed // 10, ilp_fallback=False)


@pytest.mark.parametrize("wanted", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_over_the_budget_the_ilp_solves_it(wanted):
    rng = np.random.default_rng(4)
    checked = 0
    for _ in range(12):
        copies = random_copies(rng, k=4, m=2, n=60, probabilities=[0.04, 0.04, 0.92])
        puzzle = Puzzle(copies, m=2)
        exact = solve(puzzle)
        if exact.work.states == 0:
            continue  # bounds settled it: no budget to go over
        checked += 1
        fallen = solve(puzzle, max_states=1)
        assert fallen.work.method == "ilp"
        assert fallen.score == exact.score == fallen.arrangement.check(copies)
        assert fallen.work.states > 0  # the DP's work before it gave up counts
        if checked == wanted:  # (each ILP runs in a process of its own, 3 s here)
            break
    assert checked == wanted


def test_empty_and_trivial_puzzles():
    assert solve(Puzzle(np.zeros((5, 4), dtype=int), m=2)).score == 0
    full = np.full((13, 4), 2)
    solution = solve(Puzzle(full, m=2))
    assert solution.score == 2 * 4 * sum(range(1, 14))
    assert solution.work.method == "bounds"


def test_rejects_non_puzzles():
    with pytest.raises(TypeError):
        solve(np.zeros((3, 4)))
    with pytest.raises(ValueError):
        solve(Puzzle(np.zeros((3, 4), dtype=int)), beam_width=-1)


def test_the_ilp_fallback_runs_capped_in_a_child(monkeypatch):
    from rumdiff import config

    rng = np.random.default_rng(4)
    exact = None
    while exact is None or exact.work.states == 0:  # a puzzle that needs the DP
        copies = random_copies(rng, k=4, m=2, n=60, probabilities=[0.04, 0.04, 0.92])
        puzzle = Puzzle(copies, m=2)
        exact = solve(puzzle)
    # A child process holds the ILP: a cap too small for it is an over-budget puzzle.
    monkeypatch.setattr(config, "ILP_MAX_MEMORY", 64 << 20)
    with pytest.raises(SolverBudgetError, match="memory cap of 67,108,864 bytes"):
        solve(puzzle, max_states=1)
    monkeypatch.setattr(config, "ILP_MAX_MEMORY", 6 << 30)
    assert solve(puzzle, max_states=1).score == exact.score
