"""Benchmark: what the joker bound and probe features cost beside the search they predict.

The ``joker_bound_*`` features (``rumdiff/features/jokers.py``) run the reference
search's first joker pass, stopped after ``config.FEATURE_JOKER_BOUND_STATES`` states;
the ``joker_probe_*`` features a beam of ``config.FEATURE_PROBE_WIDTH`` states through
its second pass. A prediction is worth having when it costs less than the search: for
seeded puzzles of the joker families of the default model's mix, this script times, in
this one process, the whole scaled feature set of the puzzles, the same with a budget
of 0 states and a probe one state wide (the features as they were without either,
but for the first pass's first row and a probe that walks every row with one state),
and the reference search of each
(``rumdiff.solve.search_effort``), and prints the ratios and the shares of the search's
transitions that the bounded pass and the probe tried (in total, and the median per
puzzle).

    python experiments/bench_joker_bound.py               # 300 puzzles a family
    python experiments/bench_joker_bound.py --count 50
    python experiments/bench_joker_bound.py --width 256   # the probe at another width
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.features import compute_features
from rumdiff.puzzle import Game
from rumdiff.solve import search_effort

#: (k, m, n, mode, jokers) of the families timed: the mix's families that run the joker DP.
FAMILIES = (
    (4, 2, 13, "turn", 2),
    (4, 2, 13, "turn", 0),
    (3, 2, 30, "turn", 1),
    (4, 1, 40, "turn", 2),
    (4, 3, 13, "turn", 2),
    (5, 2, 20, "turn", 2),
    (6, 2, 13, "turn", 2),
    (4, 2, 13, "simplex", 2),
    (5, 2, 50, "simplex", 1),
    (4, 2, 100, "simplex", 2),
)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=None, metavar="STATES",
                        help="the probe this many states wide (default: config's)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.width is not None:
        config.FEATURE_PROBE_WIDTH = args.width
    warm = generate(2, Family(Game(4, 2, 13), "turn", jokers=2), seed=args.seed).puzzles
    compute_features(warm, m=2, feature_set="scaled")  # compile outside the timing
    search_effort(warm[0])
    print("| family | puzzles | features, ms a puzzle | without the bound | reference search, "
          "ms a puzzle | features / search | without the bound | bound transitions / "
          "search's, total | median a puzzle | probe transitions / search's, total | "
          "median a puzzle |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")  # fmt: skip
    budget, width = config.FEATURE_JOKER_BOUND_STATES, config.FEATURE_PROBE_WIDTH
    for k, m, n, mode, jokers in FAMILIES:
        count = args.count if n <= 50 else max(1, args.count // 6)
        puzzles = generate(
            count, Family(Game(k, m, n), mode, jokers=jokers), seed=args.seed
        ).puzzles
        started = time.perf_counter()
        features = compute_features(puzzles, m=m, feature_set="scaled")
        feature_seconds = time.perf_counter() - started
        config.FEATURE_JOKER_BOUND_STATES = 1  # the pass stops at its first state
        config.FEATURE_PROBE_WIDTH = 1
        started = time.perf_counter()
        compute_features(puzzles, m=m, feature_set="scaled")
        without = time.perf_counter() - started
        config.FEATURE_JOKER_BOUND_STATES, config.FEATURE_PROBE_WIDTH = budget, width
        started = time.perf_counter()
        efforts = [search_effort(puzzles[i]).transitions for i in range(count)]
        search_seconds = time.perf_counter() - started
        bound = features["joker_bound_transitions"].to_numpy(float)
        probe = features["joker_probe_transitions"].to_numpy(float)
        effort = np.maximum(np.asarray(efforts, dtype=float), 1)
        print(f"| G({k}, {m}, {n}) j={jokers} {mode} | {count} | "
              f"{1000 * feature_seconds / count:.2f} | {1000 * without / count:.2f} | "
              f"{1000 * search_seconds / count:.2f} | {feature_seconds / search_seconds:.2f} | "
              f"{without / search_seconds:.2f} | {bound.sum() / effort.sum():.3f} | "
              f"{np.median(bound / effort):.3f} | {probe.sum() / effort.sum():.3f} | "
              f"{np.median(probe / effort):.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
