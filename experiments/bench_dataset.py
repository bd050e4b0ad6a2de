"""How long a labelled dataset takes, and how its labels are spread (issue 4's target).

Usage: ``python experiments/bench_dataset.py [--count N] [--jobs J] [--features SET]``.
Builds a default mixed G(4, 2, 100) dataset of N puzzles (the thesis's regime
proportions; default 20,000) with ``rumdiff.dataset.build_dataset``, exactly as
``rumdiff generate`` does, then prints puzzles per second, the time that rate gives
for 400,000 puzzles beside the 30-minute target, where the time went, the work-label
distribution beside the thesis's, the time labels the thesis's thresholds give here,
and the spread of the DP puzzles' transitions that the work thresholds are chosen
from, with the thresholds ``suggest_work_thresholds`` picks from it. The machine's
load average is printed too: other processes slow the run down; the worker CPU
seconds give an estimate for otherwise idle cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from rumdiff import config
from rumdiff.cli.progress import ProgressCallback, format_duration
from rumdiff.data import DatasetSpec, build_dataset, read_dataset
from rumdiff.data.labels import compute_labels, label_by_work, suggest_work_thresholds

#: The thesis's label distribution (Table 3), by its time thresholds.
THESIS = {"easy": 25.9, "moderate": 17.4, "medium": 28.0, "hard": 28.7}
TARGET_COUNT, TARGET_MINUTES = 400_000, 30


def _shares(labels) -> list[float]:
    counts = np.bincount(np.asarray(labels, dtype=np.int64), minlength=5)[1:]
    return list(100 * counts / max(1, counts.sum()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="puzzles to build")
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all)")
    parser.add_argument("--seed", type=int, default=config.SEED, help="generator seed")
    parser.add_argument(
        "--features", default=config.DATASET_FEATURE_SET, help="feature set (or none)"
    )
    parser.add_argument("--out", default=None, help="keep the dataset here (default: temp)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(args.out or Path(scratch) / "bench.parquet")
        print(
            f"{args.count:,} mixed G(4, 2, 100) puzzles, seed {args.seed}, jobs {args.jobs}, "
            f"features {args.features}; {os.cpu_count()} cores, load average before "
            f"{os.getloadavg()[0]:.2f}"
        )
        progress = ProgressCallback()

        began = time.perf_counter()
        spec = DatasetSpec(count=args.count, seed=args.seed, feature_set=args.features)
        metadata = build_dataset(path, spec, jobs=args.jobs, progress=progress)
        wall = time.perf_counter() - began
        progress.close()
        load_after = os.getloadavg()
        frame = read_dataset(path)

    rate = args.count / wall
    estimate = TARGET_COUNT / rate
    jobs = metadata["sessions"][-1]["jobs"]
    print(
        f"\nwall {format_duration(wall)} ({wall:.1f} s): {rate:,.1f} puzzles/s; "
        f"{TARGET_COUNT:,} puzzles would take {format_duration(estimate)} "
        f"({estimate / 60:.1f} min; target {TARGET_MINUTES} min: "
        f"{'met' if estimate <= 60 * TARGET_MINUTES else 'NOT met'})"
    )
    solve = metadata["solve_seconds"]
    print(
        f"solve seconds (sum over puzzles) {solve:.1f} s = {1000 * solve / args.count:.2f} ms a "
        f"puzzle; over {jobs} workers {solve / jobs:.1f} s of the {wall:.1f} s wall; "
        f"load average after {load_after[0]:.2f}"
    )
    cpu = metadata["sessions"][-1]["cpu_seconds"]
    idle = cpu / jobs * TARGET_COUNT / args.count
    print(
        f"worker CPU {cpu:.1f} s = {1000 * cpu / args.count:.2f} ms a puzzle (solve + features);"
        f" with {jobs} otherwise idle cores, {TARGET_COUNT:,} puzzles would take about "
        f"{idle / 60:.1f} min"
    )
    by_regime = frame.groupby("regime")["seconds"].agg(["count", "mean"])
    print(
        "mean solve ms by regime: "
        + ", ".join(
            f"{r}: {1000 * row['mean']:.2f} (n={int(row['count'])})"
            for r, row in by_regime.iterrows()
        )  # fmt: skip
    )

    print("\nlabels     work (ours)   thesis (time)   time thresholds here")
    work = _shares(frame["label"])
    timed = _shares(compute_labels(frame, "time"))
    for i, name in enumerate(config.LABEL_NAMES):
        print(f"{name:<9} {work[i]:10.1f}%   {THESIS[name]:12.1f}%   {timed[i]:18.1f}%")
    thresholds = metadata["label"]["thresholds"]
    print(f"work thresholds on transitions: {thresholds[0]:,} / {thresholds[1]:,}")
    suggested = suggest_work_thresholds(frame["method"], frame["transitions"])
    shares = _shares(label_by_work(frame["method"], frame["transitions"], suggested))
    print(
        f"suggested by rumdiff.labels.suggest_work_thresholds: {suggested[0]:,} / "
        f"{suggested[1]:,}, giving " + " / ".join(f"{x:.1f}%" for x in shares)
    )

    dp = frame["method"] == "dp"
    transitions = frame.loc[dp, "transitions"].to_numpy()
    print(f"\nno DP (easy): {100 * (1 - dp.mean()):.1f}%; DP puzzles' transitions:")
    quantiles = np.quantile(transitions, [0.1, 1 / 3, 0.5, 2 / 3, 0.9])
    print("  quantiles 10% / 33% / 50% / 67% / 90%: " + " / ".join(f"{q:,.0f}" for q in quantiles))
    edges = [0, 50_000, 100_000, 150_000, 200_000, 300_000, 500_000, 1_000_000, 2_000_000,
             5_000_000, np.inf]  # fmt: skip
    counts, _ = np.histogram(transitions, bins=edges)
    print("  share of all puzzles per band:")
    for low, high, c in zip(edges, edges[1:], counts, strict=False):
        print(f"    {low:>11,.0f} - {high:>11,.0f}: {100 * c / len(frame):5.1f}%")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
