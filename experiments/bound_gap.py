"""How far the solver's upper bound and the linear relaxation lie above the optimum.

Usage::

    python experiments/bound_gap.py [--k 4] [--m 3] [--n 100] [--count 20]
        [--mode fixed] [--seed 1]

For each puzzle: the optimum and the upper bound the solver works with (per row the
most its tiles can place, ``Solution.upper``), and the optimum of the linear relaxation
of the reference ILP (``rumdiff.solve.twins.lp_bound``). Prints each bound's gap above
the optimum as a share of the points in the puzzles, how many puzzles the relaxation
settles (its optimum rounded down is the puzzle's), and the mean seconds of a solve and
of the relaxation. docs/decisions/limits.md ("The solver") reads these.
"""

from __future__ import annotations

import time

import numpy as np
from solver_passes import family_parser, family_puzzles

from rumdiff.solve import solve
from rumdiff.solve.twins import lp_bound

#: HiGHS's optimum is a float: within this of a whole number it is that number.
TOLERANCE = 1e-6


def main(argv=None) -> int:
    args = family_parser(__doc__.splitlines()[0], 20).parse_args(argv)
    k, m, n = args.k, args.m, args.n
    puzzles = family_puzzles(args)
    solve(puzzles[0])  # load the kernels first
    points = upper_gap = lp_gap = settled = 0
    solve_seconds = lp_seconds = 0.0
    for puzzle in puzzles:
        solution = solve(puzzle)
        solve_seconds += solution.work.seconds
        started = time.perf_counter()
        relaxed = lp_bound(puzzle)
        lp_seconds += time.perf_counter() - started
        if relaxed < solution.score - TOLERANCE:
            raise RuntimeError(f"the relaxation lies below the optimum: {puzzle!r}")
        points += puzzle.points
        upper_gap += solution.upper - solution.score
        lp_gap += relaxed - solution.score
        settled += int(np.floor(relaxed + TOLERANCE)) == solution.score
    count = len(puzzles)
    print(f"G({k},{m},{n}) {args.mode}, {count} puzzles, seed {args.seed}; {points:,} points")
    print(
        f"  upper bound (row bounds) above the optimum: {upper_gap:,} points "
        f"({100 * upper_gap / points:.2f}%)\n"
        f"  linear relaxation above the optimum: {lp_gap:,.1f} points "
        f"({100 * lp_gap / points:.2f}%); it settles {settled} of {count} puzzles\n"
        f"  a solve {1e3 * solve_seconds / count:.2f} ms, the relaxation "
        f"{1e3 * lp_seconds / count:.2f} ms (mean)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
