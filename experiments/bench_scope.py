"""Scope check: does the solver finish every puzzle of a shape within its default budget?

Usage::

    python experiments/bench_scope.py [--count 1000] [--k 6] [--m 3] [--n 200]
        [--mode simplex] [--percentages 20,20,20] [--seed 1] [--ilp 0]

Solves ``--count`` generated G(k, m, n) puzzles with the default settings and prints how
many went over the DP's state budget and were solved by the reference ILP instead (or,
with ``--no-ilp-fallback``, given up on), the seconds per puzzle (mean, median, max),
the most DP states one puzzle needed, and the process's peak memory.
``--ilp N`` also solves the first N with the reference ILP and compares the scores; when
they differ the solver's arrangement is checked, and a valid one scoring higher means
the ILP stopped short (HiGHS does, rarely; see ``rumdiff.solve.twins.ilp.solve_ilp``).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.solve import SolverBudgetError, solve
from rumdiff.solve.twins.ilp import solve_ilp


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to solve")
    parser.add_argument("--k", type=int, default=6, help="colours")
    parser.add_argument("--m", type=int, default=3, help="copies")
    parser.add_argument("--n", type=int, default=200, help="values")
    parser.add_argument("--mode", default="simplex", choices=["simplex", "fixed"])
    parser.add_argument("--percentages", default="20,20,20", help="fixed: shares of 0..m-1")
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    parser.add_argument("--ilp", type=int, default=0, help="compare the first N with the ILP")
    parser.add_argument(
        "--no-ilp-fallback", action="store_true", help="give up over the budget instead"
    )
    args = parser.parse_args(argv)
    options = {"mode": args.mode}
    if args.mode == "fixed":
        options["percentages"] = tuple(int(p) for p in args.percentages.split(","))
    puzzles = generate(args.count, Family(Game(args.k, args.m, args.n), **options), seed=args.seed)
    solve(puzzles.puzzles[0])  # load the kernels before timing
    seconds, states, gave_up, fell_back, ilp_seconds, ilp_short = [], [], [], [], [], 0
    for index, puzzle in enumerate(puzzles.puzzles):
        started = time.perf_counter()
        try:
            solution = solve(puzzle, ilp_fallback=not args.no_ilp_fallback)
            if solution.work.method == "ilp":
                fell_back.append(index)
        except SolverBudgetError:
            gave_up.append(index)
            solution = None
        seconds.append(time.perf_counter() - started)
        if solution is not None:
            states.append(solution.work.states)
        if index < args.ilp:
            started = time.perf_counter()
            reference = solve_ilp(puzzle.copies).score
            ilp_seconds.append(time.perf_counter() - started)
            if solution is not None and solution.score != reference:
                if solution.score < reference or solution.arrangement.check(puzzle) != (
                    solution.score
                ):
                    raise SystemExit(f"puzzle {index}: rumdiff {solution.score} != ILP {reference}")
                ilp_short += 1
    shape = f"G({args.k},{args.m},{args.n}) {args.mode}"
    if args.mode == "fixed":
        shape += f" {args.percentages.replace(',', '/')}%"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{shape}, {args.count} puzzles, seed {args.seed}")
    for what, which in (("over the budget, solved by the ILP", fell_back), ("gave up", gave_up)):
        where = f" (puzzles {', '.join(map(str, which))})" if which else ""
        print(f"{what}: {len(which)} of {args.count}{where}")
    print(
        f"seconds a puzzle: mean {statistics.fmean(seconds):.4f}, median "
        f"{statistics.median(seconds):.4f}, max {max(seconds):.4f}"
    )
    print(f"DP states: mean {statistics.fmean(states or [0]):,.0f}, max {max(states or [0]):,}")
    print(f"peak memory of this process: {peak:,.0f} MB")
    if ilp_seconds:
        ratio = statistics.fmean(ilp_seconds) / statistics.fmean(seconds[: len(ilp_seconds)])
        print(
            f"ILP on the first {len(ilp_seconds)}: mean {statistics.fmean(ilp_seconds):.4f} s, "
            f"{ratio:.1f}x rumdiff's time on them; the ILP stopped short on {ilp_short}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
