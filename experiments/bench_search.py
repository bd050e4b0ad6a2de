"""How fast the reference search counts a puzzle's search effort, beside the fast solver.

Usage: ``python experiments/bench_search.py [--count N] [--seed S] [--layouts]``.

Generates N mixed G(4, 2, 100) puzzles (the thesis's training mix), then, in this one
process and on the same puzzles, times ``rumdiff.solve.search_effort`` (the reference
search, docs/search-effort.md) and ``rumdiff.solve.solve`` (the fast solver), checks that
their scores agree, and prints milliseconds a puzzle and their ratio. With ``--layouts``
it also times each of the search's two layouts on its own (their counts must agree).
"""

from __future__ import annotations

import argparse
import statistics
import time

from rumdiff.data.generator import generate
from rumdiff.solve import search_effort, solve


def _timed(function, puzzles):
    results, seconds = [], []
    for puzzle in puzzles:
        began = time.perf_counter()
        results.append(function(puzzle))
        seconds.append(time.perf_counter() - began)
    return results, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="puzzles (default: 2000)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default: 1)")
    parser.add_argument("--layouts", action="store_true", help="time each layout too")
    args = parser.parse_args(argv)
    puzzles = list(generate(args.count, seed=args.seed).puzzles)
    search_effort(puzzles[0])  # load the compiled kernels before timing
    solve(puzzles[0])
    efforts, search_seconds = _timed(search_effort, puzzles)
    solutions, solve_seconds = _timed(solve, puzzles)
    for effort, solution in zip(efforts, solutions, strict=True):
        if effort.score != solution.score:
            raise SystemExit(f"scores differ on {solution.puzzle!r}")
    transitions = sum(e.transitions for e in efforts)
    search_total, solve_total = sum(search_seconds), sum(solve_seconds)
    print(f"{args.count:,} mixed G(4, 2, 100) puzzles, seed {args.seed}")
    print(
        f"reference search: {1000 * search_total / args.count:.2f} ms a puzzle "
        f"(median {1000 * statistics.median(search_seconds):.2f}), "
        f"{transitions / args.count:,.0f} transitions a puzzle, "
        f"{transitions / search_total / 1e6:.0f} million a second"
    )
    print(
        f"fast solver:      {1000 * solve_total / args.count:.2f} ms a puzzle "
        f"(median {1000 * statistics.median(solve_seconds):.2f}); "
        f"search / solver = {search_total / solve_total:.2f}"
    )
    if args.layouts:
        for layout in ("dense", "sparse"):
            found, seconds = _timed(lambda p, layout=layout: search_effort(p, layout=layout),
                                    puzzles)  # fmt: skip
            same = all(a.transitions == b.transitions for a, b in zip(found, efforts, strict=True))
            print(
                f"  {layout} layout only: {1000 * sum(seconds) / args.count:.2f} ms a puzzle, "
                f"same counts: {same}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
