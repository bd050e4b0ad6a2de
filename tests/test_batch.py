"""Solving stacks of puzzles into dataset columns (rumdiff.data.batch)."""

import numpy as np
import pytest
from helpers import random_copies

from rumdiff.data.batch import SHARED_COLUMNS, solve_batch, solver_columns
from rumdiff.puzzle import Puzzle
from rumdiff.solve import search_effort, solve


def test_columns_are_the_solvers_and_repeats_keep_the_work():
    rng = np.random.default_rng(11)
    copies = np.stack([random_copies(rng, k=4, m=2, n=30) for _ in range(12)])
    both = solve_batch(copies, m=2, solvers=("search", "solver"))
    thrice = solve_batch(copies, m=2, solvers=("solver", "search"), repeats=3)
    plain = solve_batch(copies, m=2, solvers=("solver",), beam_width=0)
    assert list(both) == solver_columns(("search", "solver"))
    assert list(plain) == [*SHARED_COLUMNS, "solver_states", "solver_transitions", "solver_seconds"]
    for i in range(len(copies)):
        puzzle = Puzzle(copies[i], m=2)
        effort, solution = search_effort(puzzle), solve(puzzle)
        shared = (both["score"][i], both["lower"][i], both["upper"][i], both["method"][i])
        assert shared == (effort.score, effort.lower, effort.upper, effort.method)
        assert (both["search_states"][i], both["search_transitions"][i]) == (
            effort.states, effort.transitions
        )  # fmt: skip
        assert (both["solver_states"][i], both["solver_transitions"][i]) == (
            solution.work.states, solution.work.transitions
        )  # fmt: skip
        assert both["search_seconds"][i] > 0 and thrice["solver_seconds"][i] > 0
        beam_off = solve(puzzle, beam_width=0).work
        assert plain["solver_transitions"][i] == beam_off.transitions
    for name in solver_columns(("search", "solver")):
        if not name.endswith("seconds"):
            np.testing.assert_array_equal(both[name], thrice[name])
    np.testing.assert_array_equal(both["score"], plain["score"])


def test_an_empty_stack_gives_empty_columns():
    out = solve_batch(np.zeros((0, 30, 4), dtype=np.int8), m=2)
    assert list(out) == solver_columns(("search",))
    assert all(len(out[name]) == 0 for name in out)


def test_solvers_that_disagree_are_an_internal_error(monkeypatch):
    import rumdiff.solve

    real = rumdiff.solve.search_effort

    def wrong(puzzle, **options):
        effort = real(puzzle, **options)
        return type(effort)(**{**effort.__dict__, "score": effort.score + 1})

    monkeypatch.setattr(rumdiff.solve, "search_effort", wrong)
    copies = np.stack([random_copies(np.random.default_rng(1), k=4, m=2, n=13)])
    with pytest.raises(RuntimeError, match="disagree"):
        solve_batch(copies, m=2, solvers=("search", "solver"))
