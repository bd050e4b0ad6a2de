"""Feature importance of a trained classifier: impurity (with its spread over trees) and
permutation importance on held-out rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rumdiff import config

__all__ = ["importances", "macro_f1"]


def importances(data, final, first, test_rows, *, seed=config.SEED) -> pd.DataFrame:
    """Impurity importance of ``final``; permutation importance of ``first`` on held-out rows."""
    from sklearn.inspection import permutation_importance

    forest = final.named_steps["forest"]
    per_tree = np.array([tree.feature_importances_ for tree in forest.estimators_])
    rng = np.random.default_rng(seed)
    if len(test_rows) > config.PERMUTATION_ROWS:
        test_rows = np.sort(rng.choice(test_rows, config.PERMUTATION_ROWS, replace=False))
    # Each feature is scored once per repeat. scikit-learn's scorer of that name spends
    # most of a scoring of a few hundred rows checking the labels; ours gives the same
    # score to the last bit (tests/test_importance.py).
    scoring = macro_f1 if config.TRAIN_SCORING == "f1_macro" else config.TRAIN_SCORING
    permuted = permutation_importance(
        first, data.X[test_rows], data.y[test_rows], scoring=scoring,
        n_repeats=config.PERMUTATION_REPEATS, random_state=seed, n_jobs=1,
    )  # fmt: skip
    table = pd.DataFrame(
        {
            "feature": data.feature_names,
            "impurity": forest.feature_importances_,
            "impurity_std": per_tree.std(axis=0),
            "permutation": permuted.importances_mean,
            "permutation_std": permuted.importances_std,
        }
    )
    return table.sort_values("impurity", ascending=False, kind="stable").reset_index(drop=True)


def macro_f1(estimator, X, y) -> float:
    """Macro-averaged F1 of ``estimator`` on ``X`` and ``y``, as scikit-learn's "f1_macro".

    scikit-learn's scorer of that name, to the last bit, without its checks of the
    labels: the mean, over the labels of ``y`` and of the predictions (sorted), of each
    label's F1, ``2 tp / (true + predicted)``, computed as scikit-learn computes it. No
    such label is counted zero times both ways, so no division is by zero.
    """
    predicted = np.asarray(estimator.predict(X))
    y = np.asarray(y)
    labels, codes = np.unique(np.concatenate([y, predicted]), return_inverse=True)
    true, guessed = codes[: len(y)], codes[len(y) :]
    size = len(labels)
    hits = np.bincount(true[true == guessed], minlength=size)
    counts = np.bincount(true, minlength=size) + np.bincount(guessed, minlength=size)
    return float(np.mean(2.0 * hits / counts))
