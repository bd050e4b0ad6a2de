"""Tests for the slow reference solvers: the ILP and the brute force agree with each
other, with the thesis's worked examples and with the thesis's example scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rumdiff import config
from rumdiff.puzzle import Puzzle, parse_puzzles, read_puzzles, read_scores
from rumdiff.solve.arrangement import Arrangement, Group, Run
from rumdiff.solve.twins import MAX_BRUTE_FORCE_TILES, lp_bound, solve_brute_force, solve_ilp

# CI checks out shared/ beside the repository.
SHARED = Path(__file__).resolve().parents[2] / "shared"
EXAMPLES = SHARED / "data" / "thesis-examples"

# The example test file of thesis Section 4.1, verbatim; its output file reads 93, 65.
THESIS_TEXT = """\
2
28
1b 1b 1g 1y 1y 2b 2y 3b 3b 3g 3g 3r 3r 3y 3y 4b 4g 4g 4r 4r 5b 5b 5g 5g 5r 5r 5y 5y
23
1g 1r 1r 1y 2b 2g 2r 2r 2y 3b 3b 3g 3g 3r 3y 3y 4b 4g 4y 5b 5b 5g 5y
"""
THESIS_SCORES = [93, 65]
# Figure 3 of the thesis: the same two puzzles as count matrices (rows 1..5; b g r y).
THESIS_FIGURE_3 = [
    [[2, 1, 0, 2], [1, 0, 0, 1], [2, 2, 2, 2], [1, 2, 2, 0], [2, 2, 2, 2]],
    [[0, 1, 2, 1], [1, 1, 2, 1], [2, 2, 1, 2], [1, 1, 0, 1], [2, 1, 0, 1]],
]


def random_tiny_puzzle(rng: np.random.Generator, k: int, m: int, n: int) -> np.ndarray:
    """A random (n, k) puzzle of at most MAX_BRUTE_FORCE_TILES tiles.

    A random density varies how sparse puzzles are, so that both near-empty and
    crowded rows occur; surplus tiles are then removed one at a time at random.
    """
    density = rng.uniform(0.2, 1.0)
    copies = rng.integers(0, m + 1, size=(n, k)) * (rng.random((n, k)) < density)
    while copies.sum() > MAX_BRUTE_FORCE_TILES:
        cell = rng.choice(np.flatnonzero(copies))
        copies.flat[cell] -= 1
    return copies


# --- the thesis's examples -------------------------------------------------------------


def test_thesis_text_matches_figure_3():
    puzzles = parse_puzzles(THESIS_TEXT, n=5)
    assert (puzzles.k, puzzles.m, puzzles.n) == (4, 2, 5)
    np.testing.assert_array_equal(puzzles.copies, np.array(THESIS_FIGURE_3))


@pytest.mark.parametrize("index", [0, 1])
def test_thesis_worked_examples(index):
    copies = parse_puzzles(THESIS_TEXT, n=5).copies[index]
    arrangement = solve_ilp(copies)
    assert arrangement.check(copies) == THESIS_SCORES[index]
    assert solve_brute_force(copies) == THESIS_SCORES[index]


def test_thesis_example_file():
    if not EXAMPLES.is_dir():
        pytest.skip(f"shared example data not found at {EXAMPLES} (expected beside the repo)")
    puzzles = read_puzzles(EXAMPLES / "small.in")
    expected = read_scores(EXAMPLES / "small.out")
    assert len(puzzles) == len(expected) == 50
    scores = []
    for copies in puzzles.copies:
        arrangement = solve_ilp(copies)
        scores.append(arrangement.check(copies))
    np.testing.assert_array_equal(scores, expected)


# --- ILP against brute force -----------------------------------------------------------


@pytest.mark.parametrize("m", [1, 2, 3])
@pytest.mark.parametrize("k", [3, 4, 5])
def test_ilp_equals_brute_force(k, m):
    rng = np.random.default_rng(1000 * k + m)
    for _ in range(40):
        n = int(rng.integers(3, 8))
        copies = random_tiny_puzzle(rng, k, m, n)
        arrangement = solve_ilp(copies)
        score = arrangement.check(copies)
        assert score == arrangement.score
        assert score == solve_brute_force(copies), copies.tolist()


@pytest.mark.parametrize("k", [1, 2, 6])
def test_ilp_equals_brute_force_unusual_k(k):
    rng = np.random.default_rng(k)
    for _ in range(20):
        n = int(rng.integers(3, 9))
        m = int(rng.integers(1, 4))
        copies = random_tiny_puzzle(rng, k, m, n)
        assert solve_ilp(copies).check(copies) == solve_brute_force(copies), copies.tolist()


# --- small literal cases ---------------------------------------------------------------


@pytest.mark.parametrize("solve", [lambda c: solve_ilp(c).score, solve_brute_force])
def test_literal_cases(solve):
    assert solve(np.zeros((5, 4), dtype=int)) == 0
    run = np.zeros((6, 4), dtype=int)
    run[1:5, 2] = 1  # 2r 3r 4r 5r
    assert solve(run) == 2 + 3 + 4 + 5
    group = np.zeros((9, 4), dtype=int)
    group[6, [0, 1, 3]] = 1  # 7b 7g 7y
    assert solve(group) == 21
    pair = np.zeros((9, 4), dtype=int)
    pair[6, [0, 1]] = 2  # two copies each of 7b 7g: no third colour, no set
    assert solve(pair) == 0
    assert solve(np.ones((1, 4), dtype=int)) == 4  # n = 1: one group of four
    long_run = np.ones((12, 1), dtype=int)
    assert solve(long_run) == 78  # k = 1: the whole run 1..12
    two_colours = np.ones((5, 2), dtype=int)
    two_colours[4, 1] = 0
    assert solve(two_colours) == 15 + 10  # k = 2: runs only, 1..5 and 1..4
    only_groups_look = np.array([[1, 1], [1, 1], [0, 0], [1, 1]])
    assert solve(only_groups_look) == 0  # k = 2 never forms a group
    six = np.ones((1, 6), dtype=int)
    assert solve(six) == 6  # a group of six colours splits into two of three
    double_run = np.full((4, 3), 2)
    double_run[:, 1:] = 0
    assert solve(double_run) == 20  # two copies of the run 1..4


def test_ilp_arrangement_shapes():
    assert solve_ilp(np.zeros((3, 4), dtype=int)) == Arrangement()
    run = np.zeros((5, 4), dtype=int)
    run[:, 0] = 1
    assert solve_ilp(run) == Arrangement(runs=(Run(0, 1, 5),))
    group = np.zeros((3, 4), dtype=int)
    group[1, 1:] = 1
    assert solve_ilp(group) == Arrangement(groups=(Group(2, (1, 2, 3)),))
    long_run = np.ones((13, 1), dtype=int)
    arrangement = solve_ilp(long_run)
    assert arrangement.check(long_run) == 91
    assert all(3 <= r.end - r.start + 1 <= 5 for r in arrangement.runs)


def test_accepts_puzzle_objects_and_whole_floats():
    copies = parse_puzzles(THESIS_TEXT).copies[0]
    puzzle = Puzzle(copies)
    assert solve_ilp(puzzle).score == solve_brute_force(puzzle) == 93
    assert solve_ilp(copies.astype(float)).score == 93


# --- input validation ------------------------------------------------------------------


@pytest.mark.parametrize("solve", [solve_ilp, solve_brute_force, lp_bound])
@pytest.mark.parametrize(
    ("copies", "message"),
    [
        (np.ones(4, dtype=int), "shape"),
        (np.ones((2, 3, 4), dtype=int), "shape"),
        (np.ones((0, 4), dtype=int), "n "),
        (np.ones((3, 0), dtype=int), "k "),
        (np.ones((3, config.MAX_K + 1), dtype=int), "k "),
        (np.full((3, 4), -1), "0.."),
        (np.full((3, 4), config.MAX_M + 1), "0.."),
        (np.full((3, 4), 0.5), "whole"),
        (np.full((3, 4), np.inf), "whole"),
        (np.full((3, 4), np.nan), "whole"),
        (np.full((3, 4), True), "integers"),
        (np.full((3, 4), "1"), "integers"),
    ],
)
def test_rejects_bad_copies(solve, copies, message):
    with pytest.raises(ValueError, match=message):
        solve(copies)


def test_brute_force_refuses_large_puzzles():
    copies = np.full((8, 4), 1)  # 32 tiles
    with pytest.raises(ValueError, match="at most"):
        solve_brute_force(copies)
    assert solve_brute_force(copies, max_tiles=32) == solve_ilp(copies).score


def test_ilp_rejects_bad_time_limit():
    with pytest.raises(ValueError, match="time_limit"):
        solve_ilp(np.ones((3, 4), dtype=int), time_limit=0)
    assert solve_ilp(np.ones((3, 4), dtype=int), time_limit=10).score == 24


def test_ilp_raises_when_highs_is_not_optimal(monkeypatch):
    # A time limit is hit nondeterministically, so fake HiGHS's answer instead.
    from types import SimpleNamespace

    import rumdiff.solve.twins.ilp as reference

    def stopped(*args, **kwargs):
        return SimpleNamespace(status=1, message="Time limit reached.", x=None, fun=None)

    monkeypatch.setattr(reference, "milp", stopped)
    with pytest.raises(TimeoutError, match="time limit of 1 s"):
        solve_ilp(np.ones((3, 4), dtype=int), time_limit=1)

    def failed(*args, **kwargs):
        return SimpleNamespace(status=4, message="Solver failed.", x=None, fun=None)

    monkeypatch.setattr(reference, "milp", failed)
    with pytest.raises(RuntimeError, match="optimality"):
        solve_ilp(np.ones((3, 4), dtype=int))


# --- the linear relaxation --------------------------------------------------------------


@pytest.mark.parametrize("k, m", [(3, 1), (4, 2), (5, 3)])
def test_lp_bound_lies_between_the_optimum_and_every_tile(k, m):
    rng = np.random.default_rng(50 + 10 * k + m)
    for _ in range(25):
        copies = random_tiny_puzzle(rng, k, m, int(rng.integers(3, 8)))
        bound = lp_bound(copies)
        points = int(copies.sum(axis=1) @ np.arange(1, copies.shape[0] + 1))
        assert solve_brute_force(copies) - 1e-6 <= bound <= points + 1e-6, copies.tolist()


def test_lp_bound_of_a_fractional_puzzle():
    # 1b 1g 1r 1y 2g 2y 3b 3g 3y: the best arrangement places 13 (the group of four 1s
    # and 3b 3g 3y), but half of each of the runs 1g-3g and 1y-3y and of the groups 1b 1g
    # 1r, 1b 1r 1y and 3b 3g 3y uses no tile more than once and places 13.5. No more:
    # price 1b, 1g and 1y at 1.5 and 3g and 3y at 4.5, the rest at 0; every set's tiles
    # are priced at least its points, and all the tiles at 13.5.
    copies = np.array([[1, 1, 1, 1], [0, 1, 0, 1], [1, 1, 0, 1]])
    assert solve_brute_force(copies) == 13
    assert lp_bound(copies) == pytest.approx(13.5)


def test_lp_bound_edges():
    assert lp_bound(np.zeros((3, 4), dtype=int)) == 0.0  # no set: no program to solve
    assert lp_bound(np.ones((3, 4), dtype=int)) == pytest.approx(24)
    joker = Puzzle.from_tiles([(1, 0), (2, 0)], k=4, m=1, n=3, jokers=1)
    table = Puzzle.from_tiles([(1, 0)], k=4, m=1, n=3, table=[(2, 0), (3, 0)])
    meld = Puzzle.from_tiles([(1, 0), (2, 0), (3, 0)], k=4, m=1, n=3).with_meld(6)
    for puzzle in (joker, table, meld):
        with pytest.raises(ValueError, match="jokers, a table or a meld"):
            lp_bound(puzzle)
