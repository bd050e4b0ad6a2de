"""Compile every numba kernel once, so no command's timing or progress includes it.

numba compiles a kernel the first time it runs and keeps the machine code in its cache
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``); later processes load it in
about a second. ``make setup`` runs ``python -m rumdiff.cli.warmup`` right after installing.
"""

from __future__ import annotations

import time

__all__ = ["compile_kernels"]


def compile_kernels() -> float:
    """Run the file reader, the solver, the reference search and every feature kernel on
    tiny puzzles.

    Returns
    -------
    float
        Seconds taken (compiling on an empty cache, loading from a warm one).
    """
    import numpy as np

    from rumdiff.features import compute_features
    from rumdiff.puzzle import Puzzle, parse_puzzles
    from rumdiff.solve import search_effort, solve

    started = time.perf_counter()
    parse_puzzles("1\n3\n1b 2b 3b\n", k=4, m=2, n=12)
    # A dense puzzle, so every branch that compiles lazily (the DP passes) runs too.
    puzzle = Puzzle(np.full((12, 4), 2) - np.eye(12, 4, dtype=np.int64), m=2)
    solve(puzzle)
    search_effort(puzzle)
    compute_features(puzzle.copies[None], m=puzzle.m, feature_set="all")
    return time.perf_counter() - started


def main() -> int:  # pragma: no cover - exercised by make setup
    print("compiling kernels, once (about a minute on an empty cache)...", flush=True)
    print(f"kernels ready in {compile_kernels():.0f} s", flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
