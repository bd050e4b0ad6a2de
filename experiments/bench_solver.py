"""Benchmark: the rumdiff solver against the reference ILP on the same puzzles.

Run ``python experiments/bench_solver.py`` (``--count`` puzzles per regime). Both
solvers run in this one process on the same generated puzzles, one after the other, so
the printed ratios are fair even on a shared, noisy machine. Also prints how long a
fresh process with a warm numba cache takes to return its first solution.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.solve import solve
from rumdiff.solve.twins.ilp import solve_ilp

# name, k, m, generate() options
REGIMES = [
    ("G(4,2,100) regime 1", 4, 2, {"mode": "mixed", "regime_weights": (1, 0, 0)}),
    ("G(4,2,100) regime 2", 4, 2, {"mode": "mixed", "regime_weights": (0, 1, 0)}),
    ("G(4,2,100) regime 3", 4, 2, {"mode": "mixed", "regime_weights": (0, 0, 1)}),
    ("G(4,2,100) thesis mix", 4, 2, {"mode": "mixed"}),
    ("G(4,3,100) 5/5/10% 0/1/2", 4, 3, {"mode": "fixed", "percentages": (5, 5, 10)}),
    ("G(4,3,100) 20/20/20%", 4, 3, {"mode": "fixed", "percentages": (20, 20, 20)}),
    ("G(5,2,100) 5/5%", 5, 2, {"mode": "fixed", "percentages": (5, 5)}),
    ("G(5,2,100) 30/30%", 5, 2, {"mode": "fixed", "percentages": (30, 30)}),
]

STARTUP = """
import time
from rumdiff.puzzle import Puzzle
from rumdiff.solve import solve
import numpy as np
solve(Puzzle(np.full((100, 4), 2) - np.eye(100, 4, dtype=int), m=2))
print(time.perf_counter())
"""


def _summary(seconds):
    return statistics.median(seconds), statistics.fmean(seconds), max(seconds)


def startup_seconds() -> float:
    """Seconds from launching a fresh Python process to its first solved puzzle."""
    subprocess.run([sys.executable, "-c", STARTUP], check=True, capture_output=True)  # warm cache
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", STARTUP], check=True, capture_output=True, text=True
    )
    # perf_counter is system-wide monotonic on Linux, so the child's clock is comparable.
    return float(done.stdout.strip()) - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="puzzles per regime")
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    parser.add_argument("--no-ilp", action="store_true", help="time only the rumdiff solver")
    args = parser.parse_args(argv)

    warm = generate(1, Family(Game(4, 2, 100)), seed=0).puzzles[0]
    solve(warm)  # JIT warm-up: load the compiled kernels before timing
    header = f"{'regime':28} {'solver':8} {'median s':>10} {'mean s':>10} {'max s':>10}"
    print(header + f" {'ILP/rumdiff (mean)':>20}")
    for name, k, m, options in REGIMES:
        puzzles = generate(args.count, Family(Game(k, m, 100), **options), seed=args.seed).puzzles
        ours, ilp = [], []
        for puzzle in puzzles:
            started = time.perf_counter()
            score = solve(puzzle).score
            ours.append(time.perf_counter() - started)
            if not args.no_ilp:
                started = time.perf_counter()
                reference = solve_ilp(puzzle.copies).score
                ilp.append(time.perf_counter() - started)
                if reference != score:
                    raise SystemExit(f"{name}: rumdiff {score} != ILP {reference}")
        print(f"{name:28} {'rumdiff':8} " + " ".join(f"{x:10.5f}" for x in _summary(ours)))
        if ilp:
            ratio = statistics.fmean(ilp) / statistics.fmean(ours)
            line = f"{'':28} {'ILP':8} " + " ".join(f"{x:10.5f}" for x in _summary(ilp))
            print(line + f" {ratio:20.1f}")
    print(f"fresh process, warm numba cache: first solution after {startup_seconds():.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
