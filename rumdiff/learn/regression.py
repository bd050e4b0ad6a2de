"""The difficulty score: a random forest regressor of log10 of the labelled effort.

Beside the four classes, a regressor predicts how much effort a puzzle takes, so that
puzzles can be ranked: the empirical performance model of Hutter, Xu, Hoos and
Leyton-Brown (*Algorithm runtime prediction: methods and evaluation*, Artificial
Intelligence 206, 2014), fitted on the same features as the classifier. Its target is
:attr:`rumdiff.learn.training_set.TrainingData.target`, log10 of the effort plus a floor.
It is evaluated out of fold on the classifier's folds, and its trees' spread gives each
prediction an interval.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rumdiff import config

__all__ = [
    "RegressionResult",
    "cross_validate_regressor",
    "fit_regressor",
    "regression_metrics",
    "tree_quantiles",
]


@dataclass(eq=False)
class RegressionResult:
    """The regressor's out-of-fold evaluation and its final fit.

    Attributes
    ----------
    params : dict
        The forest's parameters.
    z_pred : ndarray of float64
        Out-of-fold predicted target of every row.
    fold_scores : DataFrame
        Per fold: rows, spearman, rmse, r2, fit_seconds.
    pipeline : Pipeline
        The final regressor (step ``"forest"``), fitted on every row.
    """

    params: dict
    z_pred: np.ndarray
    fold_scores: pd.DataFrame
    pipeline: object


def fit_regressor(X, z, *, params=config.REGRESSOR, jobs: int = 1, seed: int = config.SEED):
    """Fit a random forest regressor of ``params`` on features ``X`` and targets ``z``.

    Returns a Pipeline (step ``"forest"``); ``params`` defaults to ``config.REGRESSOR``.
    """
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.pipeline import Pipeline

    params = dict(params)
    if isinstance(params.get("max_samples"), int) and params["max_samples"] >= len(z):
        params["max_samples"] = None  # every row (the forest refuses a larger count)
    forest = RandomForestRegressor(random_state=seed, n_jobs=jobs, **params)
    return Pipeline([("forest", forest)]).fit(X, z)


def regression_metrics(truth, guess, needs_dp=None) -> dict:
    """Spearman's rho, RMSE (log10 units) and R^2 of predicted targets; with ``needs_dp``
    also rho and RMSE among the puzzles that need a search (bounds do not settle)."""
    from scipy.stats import spearmanr

    truth, guess = np.asarray(truth, dtype=float), np.asarray(guess, dtype=float)
    residual = truth - guess
    spread = np.sum((truth - truth.mean()) ** 2)
    out = {
        "spearman": float(spearmanr(truth, guess).statistic) if len(truth) > 1 else np.nan,
        "rmse": float(np.sqrt(np.mean(residual**2))),
        "r2": float(1 - np.sum(residual**2) / spread) if spread > 0 else np.nan,
    }
    if needs_dp is not None:
        dp = np.asarray(needs_dp, dtype=bool)
        several = dp.sum() > 1
        out["spearman_dp"] = float(spearmanr(truth[dp], guess[dp]).statistic) if several else np.nan
        out["rmse_dp"] = float(np.sqrt(np.mean(residual[dp] ** 2))) if dp.any() else np.nan
    return out


def cross_validate_regressor(
    data, splits, *, params=config.REGRESSOR, jobs: int = 1, seed: int = config.SEED, on_fold=None
):
    """Out-of-fold predictions and scores of the regressor of ``params``, fold by fold.

    ``on_fold(fold, folds, seconds)``, if given, is called after each fold.

    Returns
    -------
    z_pred, fold_scores
    """
    z = data.target
    z_pred = np.zeros(len(z))
    rows = []
    for fold, (fit_rows, test_rows) in enumerate(splits, start=1):
        began = time.perf_counter()
        model = fit_regressor(data.X[fit_rows], z[fit_rows], params=params, jobs=jobs, seed=seed)
        seconds = time.perf_counter() - began
        z_pred[test_rows] = model.predict(data.X[test_rows])
        scores = regression_metrics(z[test_rows], z_pred[test_rows])
        rows.append((fold, len(test_rows), scores["spearman"], scores["rmse"], scores["r2"],
                     seconds))  # fmt: skip
        if on_fold is not None:
            on_fold(fold, len(splits), seconds)
    columns = ["fold", "rows", "spearman", "rmse", "r2", "fit_seconds"]
    return z_pred, pd.DataFrame(rows, columns=columns)


def tree_quantiles(pipeline, X, quantiles=config.PREDICT_SPREAD) -> np.ndarray:
    """Quantiles over the regressor's trees of each row's prediction: ``(rows, q)``."""
    forest = pipeline.named_steps["forest"]
    steps = pipeline[:-1]
    X = steps.transform(X) if len(steps) else X
    per_tree = np.stack(
        [tree.predict(np.asarray(X, dtype=np.float32)) for tree in forest.estimators_]
    )
    return np.quantile(per_tree, quantiles, axis=0).T
