"""How long featurising mixed G(4, 2, 100) puzzles takes, beside the reference search.

Usage: ``python experiments/bench_features.py [--count N] [--repeats R] [--seed S]``.
Generates N puzzles (default 10,000) in the thesis's mixed regimes, compiles the kernels
on a few puzzles, then prints the best and the worst of R runs of ``compute_features``
for each feature set, in wall time and in CPU time (which other jobs on the machine
disturb less); then times the reference search (``rumdiff.solve.search_effort``, what
the default labels measure) on the same puzzles in the same run, and prints how many
times cheaper the features are: every pre-solve feature must cost at most a tenth of it.
Numba kernels run on one thread, so this is one core.
"""

from __future__ import annotations

import argparse
import time

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.features import compute_features
from rumdiff.puzzle import Game
from rumdiff.solve import search_effort

#: The issue's target for 10,000 G(4, 2, 100) puzzles, in seconds.
TARGET_SECONDS = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=config.SEED)
    args = parser.parse_args()
    puzzles = generate(args.count, Family(Game(4, 2, 100), "mixed"), seed=args.seed).puzzles
    compute_features(puzzles.copies[:10], m=2)  # compile (or load the cached kernels)
    print(
        f"{args.count:,} mixed G(4, 2, 100) puzzles, seed {args.seed}, "
        f"best / worst of {args.repeats} runs"
    )
    fastest_cpu = {}  # seconds of CPU of each feature set's fastest run
    for feature_set in config.FEATURE_SETS:
        times, cpu = [], []
        for _ in range(args.repeats):
            began, began_cpu = time.perf_counter(), time.process_time()
            frame = compute_features(puzzles, m=2, feature_set=feature_set)
            times.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
        best = min(times)
        fastest_cpu[feature_set] = min(cpu)
        scaled = best * 10_000 / args.count
        print(
            f"{feature_set:>8}: wall {best:6.3f} s / {max(times):6.3f} s, CPU {min(cpu):6.3f} s, "
            f"{frame.shape[1]} features, {1e6 * best / args.count:5.1f} us/puzzle, "
            f"{scaled:5.3f} s per 10,000 "
            f"({'meets' if scaled <= TARGET_SECONDS else 'MISSES'} the {TARGET_SECONDS:g} s target)"
        )
    search_effort(puzzles[0])
    began = time.process_time()
    for puzzle in puzzles:
        search_effort(puzzle)
    searching = (time.process_time() - began) / args.count
    print(
        f"reference search: CPU {1e3 * searching:.3f} ms/puzzle; all features cost "
        f"{searching / (fastest_cpu['all'] / args.count):.1f} times less (at least 10 required)"
    )


if __name__ == "__main__":
    main()
