"""What some features add: the classifier and the regressor with and without them.

Usage::

    python experiments/feature_ablation.py DATASET [--drop a,b,...] [--rows 40000]
        [--folds 5] [--jobs 2] [--seed 0]

Reads a labelled dataset (``rumdiff generate``), takes a stratified sample of ``--rows``
rows, and cross-validates on the same stratified folds, once with every feature of the
dataset and once without the ``--drop`` columns (by default the five that look for an
arrangement meeting the upper bound and count the unpruned search): the training
forest (the default grid's larger trees, ``config.TRAIN_MAX_SAMPLES`` rows a tree) and
the difficulty regressor (``config.REGRESSOR``). Prints accuracy, macro-F1, Spearman's
rho (all puzzles and those that need a search) and RMSE of each, and the difference.
"""

from __future__ import annotations

import argparse

import numpy as np

from rumdiff import config
from rumdiff.data import metadata_path, read_dataset, read_metadata
from rumdiff.learn.regression import fit_regressor, regression_metrics
from rumdiff.learn.training import class_metrics, fit_forest, folds_of, stratified_subsample
from rumdiff.learn.training_set import training_data

#: The features added with the search labels (docs/decisions/features.md).
NEW = ("unpruned_transitions", "bound_met", "bound_refuted", "bound_open", "bound_nodes")

#: The default grid's larger trees, each drawing as many rows as ``rumdiff train``'s.
FOREST = {
    "n_estimators": 100,
    "max_leaf_nodes": 1024,
    "class_weight": "balanced",
    "max_samples": config.TRAIN_MAX_SAMPLES["default"],
}


def evaluate(X, y, z, needs_dp, splits, *, jobs: int, seed: int) -> dict:
    """Out-of-fold metrics of the classifier and the regressor on the given folds."""
    guess = np.zeros_like(y)
    score = np.zeros_like(z)
    for fit_rows, test_rows in splits:
        forest = fit_forest(FOREST, X[fit_rows], y[fit_rows], jobs=jobs, seed=seed)
        guess[test_rows] = forest.predict(X[test_rows])
        regressor = fit_regressor(X[fit_rows], z[fit_rows], jobs=jobs, seed=seed)
        score[test_rows] = regressor.predict(X[test_rows])
    metrics = class_metrics(y, guess)
    regression = regression_metrics(z, score, needs_dp)
    return {
        "accuracy": metrics["accuracy"],
        "macro-F1": metrics["macro avg"]["f1-score"],
        "rho": regression["spearman"],
        "rho (search)": regression["spearman_dp"],
        "RMSE": regression["rmse"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("--drop", default=",".join(NEW), help="features to leave out")
    parser.add_argument("--rows", type=int, default=40_000)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=config.SEED)
    args = parser.parse_args()

    frame = read_dataset(args.dataset)
    metadata = read_metadata(metadata_path(args.dataset))
    data = training_data(frame, metadata, feature_set=metadata.get("feature_set", "all"))
    rows = stratified_subsample(data.y, args.rows, args.seed)
    X, y, z, needs_dp = data.X[rows], data.y[rows], data.target[rows], data.needs_dp[rows]
    drop = [name for name in args.drop.split(",") if name]
    unknown = sorted(set(drop) - set(data.feature_names))
    if unknown:
        raise SystemExit(f"not features of this dataset: {unknown}")
    kept = [j for j, name in enumerate(data.feature_names) if name not in drop]
    splits = folds_of(y, args.folds, args.seed)
    print(
        f"{len(rows):,} puzzles of {args.dataset}, {data.label_by} labels, {args.folds} folds; "
        f"leaving out {', '.join(drop)}"
    )
    runs = {
        f"all {X.shape[1]} features": evaluate(
            X, y, z, needs_dp, splits, jobs=args.jobs, seed=args.seed
        ),
        f"without them ({len(kept)})": evaluate(
            X[:, kept], y, z, needs_dp, splits, jobs=args.jobs, seed=args.seed
        ),
    }
    names = list(next(iter(runs.values())))
    print(f"\n| features | {' | '.join(names)} |")
    print(f"|---|{'---|' * len(names)}")
    for label, metrics in runs.items():
        print(f"| {label} | " + " | ".join(f"{metrics[name]:.4f}" for name in names) + " |")
    full, less = runs.values()
    gains = " | ".join(f"{full[name] - less[name]:+.4f}" for name in names)
    print(f"| difference | {gains} |")


if __name__ == "__main__":
    main()
