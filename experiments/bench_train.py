"""How long ``rumdiff train`` takes with the default grid and 10-fold CV, up to 400,000 rows.

Usage::

    rumdiff generate data/generated/bench.parquet --count 100000
    python experiments/bench_train.py data/generated/bench.parquet [--rows 25000 50000 100000]
        [--folds 10] [--jobs 2] [--target 400000] [--seed 0]

For each row count it trains on a stratified subsample of the dataset exactly as
``rumdiff train`` does (grid search on a subsample, cross-validation on every row, final
fit, importances) and prints the seconds per stage, accuracy and macro-F1. It then
extrapolates to ``--target`` rows: every stage but the search (whose subsample has a
fixed size) is scaled linearly from the two largest runs. That is an upper bound: with
the default grid each tree draws at most ``config.TRAIN_MAX_SAMPLES`` rows, so fitting
stops growing with the data and only prediction and bootstrapping grow linearly.
The target is 30 minutes on a 2-core machine (issue 5).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rumdiff import config
from rumdiff.data import metadata_path, read_dataset, read_metadata
from rumdiff.learn import train, training_data
from rumdiff.learn.training import stratified_subsample

STAGES = ("search", "cross_validation", "final_fit", "importance")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("--rows", type=int, nargs="+", default=None)
    parser.add_argument("--folds", type=int, default=config.TRAIN_FOLDS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--target", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=config.SEED)
    args = parser.parse_args()

    frame = read_dataset(args.dataset)
    side = metadata_path(args.dataset)
    metadata = read_metadata(side) if side.exists() else {}
    full = training_data(frame, metadata)
    sizes = args.rows or [len(full) // 4, len(full) // 2, len(full)]
    print(f"{args.dataset}: {len(full):,} rows, default grid, {args.folds} folds, jobs {args.jobs}")
    print(
        f"{'rows':>9} " + " ".join(f"{s:>16}" for s in STAGES) + f" {'total':>8}  acc    macro-F1"
    )
    measured = []
    for rows in sizes:
        keep = stratified_subsample(full.y, min(rows, len(full)), args.seed)
        frame_rows = frame.iloc[keep].reset_index(drop=True)
        data = training_data(frame_rows, metadata)
        began = time.perf_counter()
        result = train(data, grid="default", folds=args.folds, jobs=args.jobs, seed=args.seed)
        total = time.perf_counter() - began
        metrics = result.metrics
        measured.append((len(data), [result.timings[s] for s in STAGES], total))
        print(
            f"{len(data):>9,} " + " ".join(f"{result.timings[s]:>15.1f}s" for s in STAGES)
            + f" {total:>7.1f}s  {metrics['accuracy']:.4f} {metrics['macro avg']['f1-score']:.4f}",
            flush=True,
        )  # fmt: skip
    if len(measured) >= 2:
        (r0, t0, _), (r1, t1, _) = measured[-2], measured[-1]
        scaled = [t1[0]]  # the search works on a fixed-size subsample
        for a, b in zip(t0[1:], t1[1:], strict=True):
            slope = max((b - a) / max(r1 - r0, 1), 0.0)
            scaled.append(b + slope * (args.target - r1))
        estimate = float(np.sum(scaled))
        print(
            f"extrapolated to {args.target:,} rows (linear per stage from the two largest "
            f"runs, an upper bound): {estimate / 60:.1f} min "
            f"({', '.join(f'{s} {t:.0f}s' for s, t in zip(STAGES, scaled, strict=True))})"
        )


if __name__ == "__main__":
    main()
