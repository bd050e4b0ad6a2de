"""How fast the solver settles a puzzle its bounds decide, beside the floor of one call,
and the floor of one DP pass: what each row costs it with a single state alive.

Usage: ``python experiments/solver_floor.py [--count 300] [--seed 1] [--repeats 5]
[--without-reference-counts]``.

Draws ``--count`` mixed G(4, 2, 100) puzzles and times ``rumdiff.solve.solve`` on those
the bounds settle (``work.method == "bounds"``: no DP pass runs), the least of
``--repeats`` calls each, in this one process. The floor beside it is a solve of a
three-tile puzzle (``rumdiff.solve.solver.warm_up_puzzle``): what one call costs with
next to nothing to do (the wrapper, numba's dispatch, the kernel's set-up). Prints the
median and mean microseconds of each, the settled ones also apart by their answer: runs
alone, or with groups.

Then it times ``rumdiff.solve.engine.run_pass`` of each rule set, exact and with a beam
of 16, over a G(4, 2, n) puzzle with no tile, so that one state lives from the first row
to the last: n = 100 and n = 1, the least of ``--repeats`` rounds of 200 passes each.
The difference over the 99 rows is what a row costs a pass before it has any move to try:
the row's tables, each step, the end of the row, and the per-row part of the bounds
``run_pass`` computes for the pass in Python and a kernel (the plain rules' row bounds
and their sums; the jokers' bound on the rows ahead). A turn of the real game has 13
rows a pass.

With ``--without-reference-counts`` it times the same passes once more in a child
process whose kernels numba compiles afresh (into a temporary cache, a minute or so)
with its reference counting of arrays switched off: a diagnostic of what that counting
costs a row, since the rules' arrays reach each step through it. Arrays are never freed
in that child, so it times rounds of 20 passes (some 0.5 GB leak in all), and its
per-pass figure grows with the memory it leaks; only its per-row figure compares.
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


def pass_seconds(rules: Rules, beam: int, repeats: int, passes: int) -> tuple[float, float]:
    """The mean seconds of a pass over a G(4, 2, n) puzzle with no tile, n = 100 and 1:
    the least of ``repeats`` rounds of ``passes`` of each, the two sizes taking turns
    (so that a round's memory and cache weigh on both alike)."""
    puzzles = [Puzzle(np.zeros((n, 4), dtype=np.int64), m=2) for n in (100, 1)]
    for puzzle in puzzles:
        run_pass(puzzle, rules, aim=0, beam=beam)  # compiled, or loaded, before the clock
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        spent = [0.0, 0.0]
        for _ in range(passes):
            for size, puzzle in enumerate(puzzles):
                started = time.perf_counter()
                run_pass(puzzle, rules, aim=0, beam=beam)
                spent[size] += time.perf_counter() - started
        best = [min(least, total / passes) for least, total in zip(best, spent, strict=True)]
    return best[0], best[1]


def print_pass_floor(repeats: int, passes: int, label: str) -> None:
    """Per rule set and beam: a pass over 100 rows, over 1, and what a row adds."""
    print(f"a pass with one state alive{label}, microseconds:")
    for name in ("plain", "jokers"):
        for beam in (0, 16):
            long, short = pass_seconds(Rules(name, "fast"), beam, repeats, passes)
            print(
                f"  {name:6} rules, {'exact' if beam == 0 else 'beam 16'}: 100 rows "
                f"{long * 1e6:.1f}, 1 row {short * 1e6:.1f}, "
                f"a row {(long - short) / 99 * 1e6:.2f}"
            )


def without_reference_counts(repeats: int) -> None:
    """Time the passes with numba's reference counting of arrays switched off (a
    diagnostic, run in a child process whose numba cache is a new, empty directory: with
    kernels already compiled the switch would change nothing). Rounds of 20 passes bound
    what leaks: a pass leaks about 0.7 MB, so some 0.5 GB in all."""
    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    if not cache or not os.path.isdir(cache) or os.listdir(cache):
        raise SystemExit(
            f"{_WITHOUT} needs an empty numba cache: run the script with "
            "--without-reference-counts, which gives its child one"
        )
    from numba.core.runtime import context

    def uncounted(self, builder, typ, value):
        """Emit nothing where numba would count a reference."""

    context.NRTContext.incref = uncounted
    context.NRTContext.decref = uncounted
    print_pass_floor(repeats, 20, ", reference counts switched off (arrays leak)")


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
    solutions = [solve(p) for p in puzzles]
    settled = [s.puzzle for s in solutions if s.work.method == "bounds"]
    # Their answer is runs alone (traced back through the runs-only DP) or has groups.
    runs = [not s.arrangement.groups for s in solutions if s.work.method == "bounds"]
    floor = [least(tiny, args.repeats) for _ in range(200)]
    times = [least(p, args.repeats) for p in settled]
    print(f"{len(settled)} of {args.count} mixed G(4, 2, 100) puzzles (seed {args.seed}) are "
          f"settled by the bounds; least of {args.repeats} solves each, microseconds:")  # fmt: skip
    print(
        f"  settled by the bounds: median {statistics.median(times) * 1e6:.1f}, "
        f"mean {statistics.mean(times) * 1e6:.1f}"
    )
    for kind, alone in (("answered by runs alone", True), ("with groups", False)):
        some = [t for t, flag in zip(times, runs, strict=True) if flag == alone]
        if some:
            print(
                f"    {len(some)} {kind}: median "
                f"{statistics.median(some) * 1e6:.1f}, mean {statistics.mean(some) * 1e6:.1f}"
            )
    print(
        f"  a three-tile puzzle (the floor of one call): median "
        f"{statistics.median(floor) * 1e6:.1f}, mean {statistics.mean(floor) * 1e6:.1f}"
    )
    print_pass_floor(args.repeats, 200, "")
    if args.without_reference_counts:
        with tempfile.TemporaryDirectory() as cache:
            subprocess.run(
                [sys.executable, __file__, _WITHOUT, "--repeats", str(args.repeats)],
                check=True, env={**os.environ, "NUMBA_CACHE_DIR": cache},
            )  # fmt: skip


if __name__ == "__main__":
    main()
