"""Feature importance of a trained classifier: impurity (with its spread over trees) and
permutation importance on held-out rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rumdiff import config

__all__ = ["importances"]


def importances(data, final, first, test_rows, *, seed=config.SEED) -> pd.DataFrame:
    """Impurity importance of ``final``; permutation importance of ``first`` on held-out rows."""
    from sklearn.inspection import permutation_importance

    forest = final.named_steps["forest"]
    per_tree = np.array([tree.feature_importances_ for tree in forest.estimators_])
    rng = np.random.default_rng(seed)
    if len(test_rows) > config.PERMUTATION_ROWS:
        test_rows = np.sort(rng.choice(test_rows, config.PERMUTATION_ROWS, replace=False))
    permuted = permutation_importance(
        first, data.X[test_rows], data.y[test_rows], scoring=config.TRAIN_SCORING,
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
