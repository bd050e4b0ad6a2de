"""Feature sets side by side: each cross-validated on the same folds (``rumdiff train --compare``).

Each set gets its own grid search (rumdiff.learn.training), then the same stratified, seeded
folds, so that the per-fold differences in macro-F1 are paired and their spread says
whether a gain is larger than the noise between folds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rumdiff import config
from rumdiff.learn.training import class_metrics, cross_validate, folds_of, tune
from rumdiff.learn.training_set import check_features, training_data

__all__ = ["compare_feature_sets"]


def compare_feature_sets(
    frame: pd.DataFrame,
    metadata: dict | None = None,
    *,
    feature_sets=config.COMPARE_FEATURE_SETS,
    label_by: str | None = None,
    thresholds=None,
    grid="default",
    search_rows="grid",
    folds: int = config.TRAIN_FOLDS,
    jobs: int = 1,
    seed: int = config.SEED,
    progress=None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Cross-validate each feature set on the same folds, each with its own searched parameters.

    ``grid`` and ``search_rows`` are as for :func:`rumdiff.learn.training.train`;
    ``progress``, if given, is called with a line per feature set and per fold.

    Returns
    -------
    summary : DataFrame
        One row per feature set: features, parameters, accuracy and macro-F1 (mean, std
        over folds), per-class F1 of the pooled out-of-fold predictions, and macro-F1
        minus the first set's (mean and std of the per-fold differences).
    per_fold : DataFrame
        Accuracy and macro-F1 per feature set and fold.
    """
    summary, per_fold, base = [], [], None
    for feature_set in feature_sets:
        data = training_data(
            frame, metadata, feature_set=feature_set, label_by=label_by, thresholds=thresholds
        )
        check_features(data)
        splits = folds_of(data.y, folds, seed)  # same y and seed: the same folds every time
        if progress is not None:
            progress(f"{feature_set} features ({len(data.feature_names)}): grid search")
        best, _, _ = tune(data, grid, search_rows=search_rows, jobs=jobs, seed=seed)

        def on_fold(fold: int, total: int, seconds: float) -> None:
            if progress is not None:
                progress(f"  fold {fold}/{total} fitted in {seconds:.0f} s")

        y_pred, _, _, scores, _ = cross_validate(
            data, best, splits, jobs=jobs, seed=seed, on_fold=on_fold
        )
        scores.insert(0, "feature_set", feature_set)
        per_fold.append(scores)
        base = scores["macro_f1"].to_numpy() if base is None else base
        gain = scores["macro_f1"].to_numpy() - base
        report = class_metrics(data.y, y_pred)
        row = {
            "feature_set": feature_set,
            "features": len(data.feature_names),
            "params": ", ".join(f"{key}={value}" for key, value in best.items()),
            "accuracy_mean": scores["accuracy"].mean(),
            "accuracy_std": scores["accuracy"].std(ddof=1),
            "macro_f1_mean": scores["macro_f1"].mean(),
            "macro_f1_std": scores["macro_f1"].std(ddof=1),
            "macro_f1_gain_mean": gain.mean(),
            "macro_f1_gain_std": gain.std(ddof=1),
        }
        for name in config.LABEL_NAMES:
            row[f"f1_{name}"] = report.get(name, {}).get("f1-score", np.nan)
        summary.append(row)
    return pd.DataFrame(summary), pd.concat(per_fold, ignore_index=True)
