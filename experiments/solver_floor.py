"""How fast the solver settles a puzzle its bounds decide, beside the floor of one call.

Usage: ``python experiments/solver_floor.py [--count 300] [--seed 1] [--repeats 5]``.

Draws ``--count`` mixed G(4, 2, 100) puzzles and times ``rumdiff.solve.solve`` on those
the bounds settle (``work.method == "bounds"``: no DP pass runs), the least of
``--repeats`` calls each, in this one process. The floor beside it is a solve of a
three-tile puzzle (``rumdiff.solve.solver.warm_up_puzzle``): what one call costs with
next to nothing to do (the wrapper, numba's dispatch, the kernel's set-up). Prints the
median and mean microseconds of each.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.solve import solve
from rumdiff.solve.solver import warm_up_puzzle


def least(puzzle, repeats: int) -> float:
    """The least seconds of ``repeats`` solves of one puzzle."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        solve(puzzle)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    stack = generate(args.count, Family(mode="mixed"), seed=args.seed).puzzles
    puzzles = [stack[i] for i in range(args.count)]
    tiny = warm_up_puzzle()
    solve(tiny)  # compiled, or loaded from the cache, before the clock
    settled = [p for p in puzzles if solve(p).work.method == "bounds"]
    floor = [least(tiny, args.repeats) for _ in range(200)]
    times = [least(p, args.repeats) for p in settled]
    print(f"{len(settled)} of {args.count} mixed G(4, 2, 100) puzzles (seed {args.seed}) are "
          f"settled by the bounds; least of {args.repeats} solves each, microseconds:")  # fmt: skip
    print(
        f"  settled by the bounds: median {statistics.median(times) * 1e6:.1f}, "
        f"mean {statistics.mean(times) * 1e6:.1f}"
    )
    print(
        f"  a three-tile puzzle (the floor of one call): median "
        f"{statistics.median(floor) * 1e6:.1f}, mean {statistics.mean(floor) * 1e6:.1f}"
    )


if __name__ == "__main__":
    main()
