"""Solving stacks of puzzles into dataset columns (rumdiff.data.batch)."""

import numpy as np
from helpers import random_copies

from rumdiff.data.batch import SOLVER_COLUMNS, solve_batch
from rumdiff.puzzle import Puzzle
from rumdiff.solve import solve


def test_columns_are_the_solvers_and_repeats_keep_the_work():
    rng = np.random.default_rng(11)
    copies = np.stack([random_copies(rng, k=4, m=2, n=30) for _ in range(12)])
    once = solve_batch(copies, m=2)
    thrice = solve_batch(copies, m=2, repeats=3)
    plain = solve_batch(copies, m=2, beam_width=0)
    assert set(once) == set(SOLVER_COLUMNS)
    for i in range(len(copies)):
        solution = solve(Puzzle(copies[i], m=2))
        expected = (solution.score, solution.lower, solution.upper, solution.work.method)
        assert (once["score"][i], once["lower"][i], once["upper"][i], once["method"][i]) == expected
        assert (once["states"][i], once["transitions"][i]) == (
            solution.work.states, solution.work.transitions
        )  # fmt: skip
        assert once["seconds"][i] > 0 and thrice["seconds"][i] > 0
        exact = solve(Puzzle(copies[i], m=2), beam_width=0).work
        assert (plain["states"][i], plain["transitions"][i]) == (exact.states, exact.transitions)
    for name in ("score", "states", "transitions"):
        np.testing.assert_array_equal(once[name], thrice[name])
    np.testing.assert_array_equal(once["score"], plain["score"])


def test_an_empty_stack_gives_empty_columns():
    out = solve_batch(np.zeros((0, 30, 4), dtype=np.int8), m=2)
    assert all(len(out[name]) == 0 for name in SOLVER_COLUMNS)
