"""How fast the solver settles a puzzle its bounds decide, beside the floor of one call,
and the floor of one DP pass: what each row costs it with a single state alive.

Usage: ``python experiments/solver_floor.py [--count 300] [--seed 1] [--repeats 5]
[--without-reference-counts]``.

Draws ``--count`` mixed G(4, 2, 100) puzzles and times ``rumdiff.solve.solve`` on those
the bounds settle (``work.method == "bounds"``: no DP pass runs), the least of
``--repeats`` calls each, in this one process. The floor beside it is a solve of a
three-tile puzzle (``rumdiff.solve.solver.warm_up_puzzle``): what one call costs with
next to nothing to do (the wrapper, numba's dispatch, the kernel's set-up). Prints the
median and mean microseconds of each.

Then it times ``rumdiff.solve.engine.run_pass`` of each rule set, exact and with a beam
of 16, over a G(4, 2, n) puzzle with no tile, so that one state lives from the first row
to the last: n = 100 and n = 1, the least of ``--repeats`` rounds of 200 passes each.
The difference over the 99 rows is what a row costs a pass before it has any move to try
(the row's tables, each step, the end of the row, and for the jokers' rules the bound
``run_pass`` computes for the pass); a turn of the real game has 13 rows a pass.

With ``--without-reference-counts`` it times the same passes once more in a child
process whose kernels numba compiles afresh (into a temporary cache, a minute or so)
with its reference counting of arrays switched off: a diagnostic of what that counting
costs a row, since the rules' arrays reach each step through it. Arrays are never freed
in that child, so its per-pass figure grows with the memory it leaks; only its per-row
figure compares.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Puzzle
from rumdiff.solve import solve
from rumdiff.solve.engine import Rules, run_pass
from rumdiff.solve.solver import warm_up_puzzle

#: The child run of ``--without-reference-counts`` (its environment holds a fresh cache).
_WITHOUT = "--passes-without-reference-counts"


def least(puzzle, repeats: int) -> float:
    """The least seconds of ``repeats`` solves of one puzzle."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        solve(puzzle)
        times.append(time.perf_counter() - started)
    return min(times)


def pass_seconds(rules: Rules, beam: int, n: int, repeats: int) -> float:
    """The least mean seconds of a pass over a G(4, 2, n) puzzle with no tile, of
    ``repeats`` rounds of 200."""
    puzzle = Puzzle(np.zeros((n, 4), dtype=np.int64), m=2)
    run_pass(puzzle, rules, aim=0, beam=beam)  # compiled, or loaded, before the clock
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(200):
            run_pass(puzzle, rules, aim=0, beam=beam)
        best = min(best, (time.perf_counter() - started) / 200)
    return best


def print_pass_floor(repeats: int, label: str) -> None:
    """Per rule set and beam: a pass over 100 rows, over 1, and what a row adds."""
    print(f"a pass with one state alive{label}, microseconds:")
    for name in ("plain", "jokers"):
        for beam in (0, 16):
            rules = Rules(name, "fast")
            long, short = (pass_seconds(rules, beam, n, repeats) for n in (100, 1))
            print(
                f"  {name:6} rules, {'exact' if beam == 0 else 'beam 16'}: 100 rows "
                f"{long * 1e6:.1f}, 1 row {short * 1e6:.1f}, "
                f"a row {(long - short) / 99 * 1e6:.2f}"
            )


def without_reference_counts(repeats: int) -> None:
    """Time the passes with numba's reference counting of arrays switched off (a
    diagnostic; this process's kernels must not have been compiled or loaded yet)."""
    from numba.core.runtime import context

    def uncounted(self, builder, typ, value):
        """Emit nothing where numba would count a reference."""

    context.NRTContext.incref = uncounted
    context.NRTContext.decref = uncounted
    print_pass_floor(repeats, ", reference counts switched off (arrays leak)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--without-reference-counts", action="store_true")
    parser.add_argument(_WITHOUT, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.passes_without_reference_counts:
        without_reference_counts(args.repeats)
        return
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
    print_pass_floor(args.repeats, "")
    if args.without_reference_counts:
        with tempfile.TemporaryDirectory() as cache:
            subprocess.run(
                [sys.executable, __file__, _WITHOUT, "--repeats", str(args.repeats)],
                check=True, env={**os.environ, "NUMBA_CACHE_DIR": cache},
            )  # fmt: skip


if __name__ == "__main__":
    main()
