"""Solve a stack of puzzles into the solver columns of their dataset rows.

Used by :mod:`rumdiff.data.dataset` and :mod:`rumdiff.report.exploration`, in worker
processes: each process warms the numba kernels once per puzzle shape, untimed, so that
``seconds`` measures solving only.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config

__all__ = ["SOLVER_COLUMNS", "solve_batch"]

#: The solver's columns in a dataset, in order.
SOLVER_COLUMNS = ("score", "lower", "upper", "states", "transitions", "method", "seconds")
_warm: set = set()  # shapes solved once in this process, so timings exclude the JIT


def solve_batch(
    copies, *, m: int, repeats: int = 1, beam_width: int = config.BEAM_WIDTH
) -> dict[str, np.ndarray]:
    """Solve stacked puzzles ``(puzzles, n, k)``; the solver columns of their rows.

    ``beam_width`` is the solver's (:func:`rumdiff.solve.solve`): it changes the work
    columns, never the scores. Each process solves its first puzzle of each shape once
    untimed, so that ``seconds`` never includes loading the numba kernels. ``seconds``
    is the fastest of ``repeats`` solves; the work must be the same in every repeat.

    Returns
    -------
    dict
        ``score``, ``lower``, ``upper``, ``states``, ``transitions`` (int64),
        ``method`` (object) and ``seconds`` (float64) arrays.
    """
    from rumdiff.puzzle import Puzzle
    from rumdiff.solve import solve

    copies = np.asarray(copies)
    count = len(copies)
    out = {name: np.zeros(count, dtype=np.int64) for name in SOLVER_COLUMNS}
    out["method"] = np.empty(count, dtype=object)
    out["seconds"] = np.zeros(count, dtype=np.float64)
    if count and (copies.shape[1:], m) not in _warm:
        solve(Puzzle(copies[0], m=m))
        _warm.add((copies.shape[1:], m))
    for i in range(count):
        puzzle = Puzzle(copies[i], m=m)
        first = solve(puzzle, beam_width=beam_width)
        work, seconds = first.work, first.work.seconds
        for _ in range(repeats - 1):
            again = solve(puzzle, beam_width=beam_width)
            if (again.score, again.work.transitions) != (first.score, work.transitions):
                raise RuntimeError(f"internal error: the solver is not deterministic on {i}")
            seconds = min(seconds, again.work.seconds)
        for name, value in (
            ("score", first.score), ("lower", first.lower), ("upper", first.upper),
            ("states", work.states), ("transitions", work.transitions),
            ("method", work.method), ("seconds", seconds),
        ):  # fmt: skip
            out[name][i] = value
    return out
