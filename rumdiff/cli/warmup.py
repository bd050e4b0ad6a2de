"""Compile every numba kernel once, so no command's timing or progress includes it.

numba compiles a kernel the first time it runs and keeps the machine code in its cache
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``); later processes load it in
about a second. ``make setup`` runs ``python -m rumdiff.cli.warmup`` right after installing.
The kernels of puzzles with jokers or a table take as long to compile as all the others
(about 100 s each on 2 cores), so the two parts compile in two processes at once.
"""

from __future__ import annotations

import time

__all__ = ["PARTS", "compile_kernels"]

#: The parts of :func:`compile_kernels`, each a separate set of kernels.
PARTS = ("plain", "jokers")

#: A turn of the real game with jokers on the rack and the table: every branch of the
#: jokers' rules that compiles lazily runs on it.
_TURN = "# G(4, 2, 13) j=2\n1\n16\n2b 2b 2r J 8g 8r | 1b 1g 1r 4b 4g 4r 9b 10b 11b J\n"


def compile_kernels(part: str | None = None) -> float:
    """Run the kernels of ``part`` (one of :data:`PARTS`; None: all) on tiny puzzles.

    ``plain``: the file readers (of text, and of a file's buffer), the solver, the
    reference search and every feature kernel of joker-free puzzles; ``jokers``: the
    same for a puzzle with jokers and a table, and the opening meld.

    Returns
    -------
    float
        Seconds taken (compiling on an empty cache, loading from a warm one).
    """
    import tempfile
    from pathlib import Path

    import numpy as np

    from rumdiff.features import compute_features
    from rumdiff.puzzle import Puzzle, parse_puzzles, read_puzzles
    from rumdiff.solve import search_effort, solve

    started = time.perf_counter()
    if part in (None, "plain"):
        parse_puzzles("1\n3\n1b 2b 3b\n", k=4, m=2, n=12)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder, "turn.in")
            path.write_text(_TURN)
            read_puzzles(path)
        # A dense puzzle, so every branch that compiles lazily (the DP passes) runs too.
        puzzle = Puzzle(np.full((12, 4), 2) - np.eye(12, 4, dtype=np.int64), m=2)
        solve(puzzle)
        search_effort(puzzle)
        for feature_set in ("all", "scaled"):  # scaled: the default model's
            compute_features(puzzle.copies[None], m=puzzle.m, feature_set=feature_set)
    if part in (None, "jokers"):
        turns = parse_puzzles(_TURN)
        solve(turns[0])
        solve(parse_puzzles(_TURN, meld=20)[0])
        search_effort(turns[0])
        compute_features(turns, m=turns.m, feature_set="all", jokers=True)
        compute_features(turns, m=turns.m, feature_set="scaled", jokers=True)
    return time.perf_counter() - started


def main() -> int:  # pragma: no cover - exercised by make setup
    from rumdiff.processes import run_unordered

    print("compiling kernels, once (about a minute and a half on an empty cache)...", flush=True)
    began = time.perf_counter()
    tasks = [(part,) for part in PARTS]
    for _ in run_unordered(compile_kernels, tasks, jobs=len(PARTS)):
        pass
    print(f"kernels ready in {time.perf_counter() - began:.0f} s", flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
