"""Solve a stack of puzzles into the solver columns of their dataset rows.

Used by :mod:`rumdiff.data.dataset` and :mod:`rumdiff.report.exploration`, in worker
processes. Each puzzle is solved by the chosen solvers (``config.DATASET_SOLVERS``): the
reference search (:func:`rumdiff.solve.search_effort`), whose transitions are the search
effort, and rumdiff's fast solver (:func:`rumdiff.solve.solve`). Both are exact; when
both run, their scores must agree. Each process warms the numba kernels once per puzzle
shape, untimed, so that seconds measure solving only.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config

__all__ = ["SHARED_COLUMNS", "solve_batch", "solver_columns"]

#: Columns every solver gives: score, the bounds it starts from, "bounds" or "dp". When
#: both solvers run, they come from the reference search.
SHARED_COLUMNS = ("score", "lower", "upper", "method")
#: Columns of each solver's effort.
EFFORT_COLUMNS = {
    solver: (f"{solver}_states", f"{solver}_transitions", f"{solver}_seconds")
    for solver in config.DATASET_SOLVERS
}
_warm: set = set()  # (shape, m, solver) solved once in this process


def solver_columns(solvers) -> list[str]:
    """The solver columns of a dataset whose puzzles the given solvers solved, in order."""
    columns = list(SHARED_COLUMNS)
    for solver in config.DATASET_SOLVERS:
        if solver in solvers:
            columns += EFFORT_COLUMNS[solver]
    return columns


def solve_batch(
    copies,
    *,
    m: int,
    solvers=("search",),
    repeats: int = 1,
    beam_width: int = config.BEAM_WIDTH,
    max_states: int = config.MAX_STATES,
) -> dict[str, np.ndarray]:
    """Solve stacked puzzles (:class:`~rumdiff.puzzle.Puzzles`, or copies ``(puzzles, n,
    k)``); the solver columns of their rows.

    ``beam_width`` is the fast solver's: it changes its work, never a score.
    ``max_states`` is the state budget of both: over it the reference search stops
    (:class:`~rumdiff.solve.SolverBudgetError`) and the fast solver falls back to the
    ILP. Seconds are the fastest of ``repeats`` solves; the work must be the same in
    every repeat.

    Returns
    -------
    dict
        The arrays of :func:`solver_columns`: int64, except ``method`` (object) and the
        seconds (float64).
    """
    from rumdiff.puzzle import Puzzles
    from rumdiff.solve import search_effort, solve

    puzzles = copies if isinstance(copies, Puzzles) else Puzzles(np.asarray(copies), m=m)
    count = len(puzzles)
    names = solver_columns(solvers)
    out = {name: np.zeros(count, dtype=np.int64) for name in names}
    out["method"] = np.empty(count, dtype=object)
    run = {
        "search": lambda puzzle: search_effort(puzzle, max_states=max_states),
        "solver": lambda puzzle: solve(puzzle, beam_width=beam_width, max_states=max_states),
    }
    for solver in solvers:
        out[f"{solver}_seconds"] = np.zeros(count, dtype=np.float64)
        shape = (puzzles.copies.shape[1:], m, puzzles.plain, solver)
        if count and shape not in _warm:
            run[solver](puzzles[0])
            _warm.add(shape)
    for i in range(count):
        puzzle = puzzles[i]
        scores = []
        for solver in config.DATASET_SOLVERS:
            if solver not in solvers:
                continue
            found = [run[solver](puzzle) for _ in range(repeats)]
            efforts = [result if solver == "search" else result.work for result in found]
            work = {(e.states, e.transitions, r.score) for e, r in zip(efforts, found, strict=True)}
            if len(work) != 1:
                raise RuntimeError(f"internal error: the {solver} is not deterministic on {i}")
            first, effort = found[0], efforts[0]
            out[f"{solver}_states"][i] = effort.states
            out[f"{solver}_transitions"][i] = effort.transitions
            out[f"{solver}_seconds"][i] = min(e.seconds for e in efforts)
            if not scores:
                out["score"][i], out["lower"][i], out["upper"][i] = (
                    first.score, first.lower, first.upper
                )  # fmt: skip
                out["method"][i] = effort.method
            scores.append(first.score)
        if len(set(scores)) != 1:
            raise RuntimeError(f"internal error: the solvers disagree on puzzle {i}: {scores}")
    return out
