"""How long a labelled dataset takes, where the time goes, and how its labels spread.

Usage: ``python experiments/bench_dataset.py [--count N] [--jobs J] [--label-by M]
[--solvers S,S] [--features SET] [--out PATH]``.

Builds a mixed G(4, 2, 100) dataset of N puzzles (the thesis's regime proportions;
default 20,000) with ``rumdiff.data.build_dataset``, exactly as ``rumdiff generate``
does, then prints: puzzles per second and the time that rate gives for 400,000 puzzles
beside issue #38's 10-minute target; the cost a puzzle, split into each solver's time, the
features' time and the rest (encoding, tables, part files), all in worker CPU seconds;
the label distribution beside the thesis's; and the spread of the labelled effort, with
its terciles and the thresholds ``suggest_thresholds`` picks (how the default thresholds
are chosen). The machine's load average is printed too: other processes slow the run.
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
from rumdiff.data.labels import compute_labels, suggest_thresholds, tercile_thresholds

#: The thesis's label distribution (Table 3), by its time thresholds.
THESIS = {"easy": 25.9, "moderate": 17.4, "medium": 28.0, "hard": 28.7}
#: Issue #38: ``make run COUNT=400000`` in at most 10 minutes on 2 cores.
TARGET_COUNT, TARGET_MINUTES = 400_000, 10


def _shares(labels) -> list[float]:
    counts = np.bincount(np.asarray(labels, dtype=np.int64), minlength=5)[1:]
    return list(100 * counts / max(1, counts.sum()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="puzzles to build")
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all)")
    parser.add_argument("--seed", type=int, default=config.SEED, help="generator seed")
    parser.add_argument("--label-by", default=config.LABEL_BY, help="label measure")
    parser.add_argument("--solvers", default=None, help="solvers, comma separated")
    parser.add_argument("--features", default=config.DATASET_FEATURE_SET, help="feature set")
    parser.add_argument("--out", default=None, help="keep the dataset here (default: temp)")
    args = parser.parse_args()
    solvers = None if args.solvers is None else tuple(args.solvers.split(","))

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(args.out or Path(scratch) / "bench.parquet")
        print(
            f"{args.count:,} mixed G(4, 2, 100) puzzles, seed {args.seed}, jobs {args.jobs}, "
            f"{args.label_by} labels, features {args.features}; {os.cpu_count()} cores, load "
            f"average before {os.getloadavg()[0]:.2f}"
        )
        progress = ProgressCallback()
        began = time.perf_counter()
        spec = DatasetSpec(
            count=args.count, seed=args.seed, feature_set=args.features, solvers=solvers
        )
        metadata = build_dataset(
            path, spec, label_by=args.label_by, jobs=args.jobs, progress=progress
        )
        wall = time.perf_counter() - began
        progress.close()
        load_after = os.getloadavg()
        frame = read_dataset(path)

    rate = args.count / wall
    estimate = TARGET_COUNT / rate
    session = metadata["sessions"][-1]
    print(
        f"\nwall {format_duration(wall)} ({wall:.1f} s): {rate:,.1f} puzzles/s; "
        f"{TARGET_COUNT:,} puzzles would take {format_duration(estimate)} "
        f"({estimate / 60:.1f} min; target {TARGET_MINUTES} min: "
        f"{'met' if estimate <= 60 * TARGET_MINUTES else 'NOT met'}); "
        f"load average after {load_after[0]:.2f}"
    )
    cpu, featuring = session["cpu_seconds"], session["feature_cpu_seconds"]
    solving = metadata["solve_seconds"]
    rest = cpu - featuring - sum(solving.values())
    split = [f"{name} {1000 * s / args.count:.2f}" for name, s in solving.items()]
    split += [
        f"features {1000 * featuring / args.count:.2f}",
        f"rest {1000 * rest / args.count:.2f}",
    ]
    print(
        f"worker CPU {1000 * cpu / args.count:.2f} ms a puzzle = " + " + ".join(split)
        + f" ms; over {session['jobs']} workers"
    )  # fmt: skip

    measure = metadata["label"]["measure"]
    effort = frame[config.LABEL_EFFORT[measure]].to_numpy()
    print(f"\nlabels     {measure:<12}  thesis (time)")
    for name, ours in zip(config.LABEL_NAMES, _shares(frame["label"]), strict=True):
        print(f"{name:<9} {ours:10.1f}%   {THESIS[name]:12.1f}%")
    if measure != "time":
        print(f"thresholds: {' / '.join(f'{t:,}' for t in metadata['label']['thresholds'])}")
        terciles = tercile_thresholds(effort)
        shares = _shares(compute_labels(frame, measure, terciles))
        print(f"terciles of the puzzles that need a search: {terciles[0]:,} / {terciles[1]:,}, "
              "giving " + " / ".join(f"{x:.1f}%" for x in shares))  # fmt: skip
        valleys = suggest_thresholds(effort)
        shares = _shares(compute_labels(frame, measure, valleys))
        print(f"valleys (suggest_thresholds): {valleys[0]:,} / {valleys[1]:,}, giving "
              + " / ".join(f"{x:.1f}%" for x in shares))  # fmt: skip
        searched = effort[effort > 0]
        print(f"\nsettled by bounds (easy): {100 * (1 - searched.size / effort.size):.1f}%; "
              "transitions of the others:")  # fmt: skip
        quantiles = np.quantile(searched, [0.1, 1 / 3, 0.5, 2 / 3, 0.9])
        print("  10% / 33% / 50% / 67% / 90%: " + " / ".join(f"{q:,.0f}" for q in quantiles))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
