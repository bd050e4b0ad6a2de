"""Train the difficulty classifier: grid search, stratified cross-validation, final fit.

The classifier is a random forest in a scikit-learn :class:`~sklearn.pipeline.Pipeline`
(step ``"forest"``). It is trained on a dataset's precomputed feature columns (named as
in :func:`rumdiff.features.feature_names`), so training never featurises 400,000 puzzles
again; the saved model puts :class:`rumdiff.features.PuzzleFeatures` in front of the
same fitted forest, so that it goes from raw puzzles to a prediction (rumdiff.learn.model).
A few puzzles of the dataset are featurised afresh to check that the columns are what
rumdiff.features computes now.

How the hyperparameters are chosen
----------------------------------
:func:`train` runs three stages:

1. **Search**: ``GridSearchCV`` over the grid (``config.TRAIN_GRIDS``), scored by macro-F1
   with ``config.TRAIN_SEARCH_FOLDS`` stratified folds, on a stratified subsample of
   ``config.TRAIN_SEARCH_ROWS[grid]`` rows (every row for ``grid="thesis"``).
2. **Evaluation**: the best parameters are cross-validated on *every* row with ``folds``
   stratified folds (shuffled, seeded), giving the out-of-fold predictions behind the
   classification report and the confusion matrix.
3. **Final fit** on every row; its impurity importances, and permutation importances of
   the first fold's model on (a sample of) that fold's held-out rows.

The default grid is small, searched on a subsample, and bounds every tree: the forest's
capacity hardly matters, and this keeps models near 4 MB and 400,000 rows under two
minutes on 2 cores (docs/decisions/default-grid.md). The figures we report come from
stage 2 on all rows. ``grid="thesis"`` runs the thesis's grid on every row.

Every random thing (subsample, folds, forests, permutations) follows ``seed``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rumdiff import config
from rumdiff.learn.importance import importances
from rumdiff.learn.regression import (
    RegressionResult,
    cross_validate_regressor,
    fit_regressor,
    regression_metrics,
)
from rumdiff.learn.training_set import TrainingData, check_features

__all__ = [
    "TrainResult",
    "class_metrics",
    "cross_validate",
    "fit_forest",
    "folds_of",
    "grid_for",
    "make_pipeline",
    "search",
    "stratified_subsample",
    "train",
    "tune",
    "with_sample_cap",
]


@dataclass(eq=False)
class TrainResult:
    """What :func:`train` learned and measured.

    Attributes
    ----------
    data : TrainingData
    grid : str
    best_params : dict
        The forest's chosen parameters (without the ``forest__`` prefix).
    search : DataFrame
        One row per candidate: its parameters, mean and std of the search score, rank.
    search_rows : int
        Rows the grid was searched on.
    folds, seed : int
    y_pred : ndarray of int64
        Out-of-fold prediction of every row (stage 2).
    proba : ndarray of float64, shape (rows, classes)
        Out-of-fold class probabilities, columns in ``classes``.
    classes : ndarray of int64
        The classes the forests know (those present in the data).
    fold_scores : DataFrame
        Per fold: rows, accuracy, macro_f1, fit_seconds.
    importance : DataFrame
        Per feature: impurity importance (mean, std over trees) of the final model and
        permutation importance (mean, std over repeats, drop in macro-F1).
    pipeline : Pipeline
        The final forest pipeline, fitted on every row's feature matrix.
    regression : RegressionResult
        The regressor of log10 effort: out-of-fold predictions on the same folds, final
        fit (rumdiff.learn.regression).
    timings : dict
        Seconds spent per stage.
    """

    data: TrainingData
    grid: str
    best_params: dict
    search: pd.DataFrame
    search_rows: int
    folds: int
    seed: int
    y_pred: np.ndarray
    proba: np.ndarray
    classes: np.ndarray
    fold_scores: pd.DataFrame
    importance: pd.DataFrame
    pipeline: object
    regression: RegressionResult
    timings: dict

    @property
    def metrics(self) -> dict:
        """Classification report of the out-of-fold predictions; see :func:`class_metrics`."""
        return class_metrics(self.data.y, self.y_pred)

    @property
    def regression_metrics(self) -> dict:
        """The regressor's pooled out-of-fold scores; see :func:`regression_metrics`."""
        return regression_metrics(self.data.target, self.regression.z_pred, self.data.needs_dp)


def grid_for(grid) -> dict:
    """The parameter grid for ``GridSearchCV``: a name in ``config.TRAIN_GRIDS`` or a dict."""
    if isinstance(grid, str):
        if grid not in config.TRAIN_GRIDS:
            raise ValueError(f"unknown grid {grid!r}; expected one of {tuple(config.TRAIN_GRIDS)}")
        grid = config.TRAIN_GRIDS[grid]
    return {f"forest__{name}": list(values) for name, values in grid.items()}


def make_pipeline(*, seed: int = config.SEED, jobs: int = 1, **forest_params):
    """The training pipeline: a random forest as step ``"forest"``.

    Parameters
    ----------
    seed : int
        The forest's ``random_state``.
    jobs : int
        Threads the forest fits and predicts with.
    **forest_params
        Passed to :class:`~sklearn.ensemble.RandomForestClassifier`.
    """
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.pipeline import Pipeline

    forest = RandomForestClassifier(random_state=seed, n_jobs=jobs, **forest_params)
    return Pipeline([("forest", forest)])


def class_metrics(y_true, y_pred) -> dict:
    """Accuracy, per-class precision/recall/F1/support, macro and weighted averages.

    Keys are ``"accuracy"``, the class names of every class that occurs in ``y_true``
    or ``y_pred``, ``"macro avg"`` and ``"weighted avg"`` (scikit-learn's layout).
    """
    from sklearn.metrics import classification_report

    classes = np.union1d(np.unique(y_true), np.unique(y_pred)).astype(int)
    report = classification_report(
        y_true, y_pred, labels=classes, target_names=[config.CLASS_NAMES[c] for c in classes],
        output_dict=True, zero_division=0,
    )  # fmt: skip
    return report


def _check_folds(y: np.ndarray, folds: int, what: str) -> None:
    values, counts = np.unique(y, return_counts=True)
    if folds < 2:
        raise ValueError(f"{what} needs at least 2 folds, got {folds}")
    if counts.min() < folds:
        rare = config.CLASS_NAMES[int(values[np.argmin(counts)])]
        raise ValueError(
            f"{what}: class {rare!r} has only {counts.min()} rows, fewer than the {folds} folds"
        )


def stratified_subsample(y: np.ndarray, rows: int | None, seed: int) -> np.ndarray:
    """Indices of a stratified subsample of ``rows`` rows (all rows when None or more)."""
    if rows is None or rows >= len(y):
        return np.arange(len(y))
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(np.arange(len(y)), train_size=rows, stratify=y, random_state=seed)
    return np.sort(keep)


def folds_of(y: np.ndarray, folds: int, seed: int, what: str = "cross-validation") -> list:
    """The stratified, shuffled, seeded folds every evaluation here uses: (train, test) pairs."""
    from sklearn.model_selection import StratifiedKFold

    _check_folds(y, folds, what)
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    return list(splitter.split(np.zeros(len(y)), y))


def search(data: TrainingData, grid="default", *, rows=None, jobs=1, seed=config.SEED):
    """Stage 1: grid search on a stratified subsample; returns (best params, table, rows)."""
    from sklearn.model_selection import GridSearchCV

    from rumdiff.processes import joblib_workers_die_with_parent

    param_grid = grid_for(grid)
    keep = stratified_subsample(data.y, rows, seed)
    candidates = int(np.prod([len(values) for values in param_grid.values()]))
    if candidates == 1:  # nothing to choose: skip the search
        best = {name.removeprefix("forest__"): values[0] for name, values in param_grid.items()}
        table = pd.DataFrame([[*map(str, best.values()), np.nan, np.nan, 1]],
                             columns=[*best, "mean_score", "std_score", "rank"])  # fmt: skip
        return best, table, 0
    splits = folds_of(data.y[keep], config.TRAIN_SEARCH_FOLDS, seed, "grid search")
    # Parallel over candidates and folds, one thread per forest: less overhead than the reverse.
    searcher = GridSearchCV(
        make_pipeline(seed=seed, jobs=1), param_grid, scoring=config.TRAIN_SCORING,
        cv=splits, n_jobs=jobs, refit=False, error_score="raise",
    )  # fmt: skip
    with joblib_workers_die_with_parent():  # the search's workers are processes
        searcher.fit(data.X[keep], data.y[keep])
    results = searcher.cv_results_
    # As text, so that None (no class weights, no depth limit) reads as such in the CSV.
    table = pd.DataFrame(
        {
            name.removeprefix("forest__"): [str(v) for v in results[f"param_{name}"]]
            for name in param_grid
        }
    )
    table["mean_score"] = results["mean_test_score"]
    table["std_score"] = results["std_test_score"]
    table["rank"] = results["rank_test_score"]
    table = table.sort_values(["rank", "mean_score"], ascending=[True, False], kind="stable")
    best = {name.removeprefix("forest__"): value for name, value in searcher.best_params_.items()}
    return best, table.reset_index(drop=True), len(keep)


def tune(data: TrainingData, grid="default", *, search_rows="grid", jobs=1, seed=config.SEED):
    """Stage 1 as :func:`train` and :func:`rumdiff.compare.compare_feature_sets` run it.

    ``search_rows="grid"`` takes ``config.TRAIN_SEARCH_ROWS`` of a named grid (every
    row for a dict). Returns the best parameters with the grid's per-tree sample cap,
    the table of candidates and the rows searched.
    """
    if search_rows == "grid":
        search_rows = config.TRAIN_SEARCH_ROWS.get(grid) if isinstance(grid, str) else None
    best, table, searched = search(data, grid, rows=search_rows, jobs=jobs, seed=seed)
    return with_sample_cap(best, grid), table, searched


def with_sample_cap(params: dict, grid) -> dict:
    """``params`` plus the grid's per-tree sample cap (``config.TRAIN_MAX_SAMPLES``)."""
    cap = config.TRAIN_MAX_SAMPLES.get(grid) if isinstance(grid, str) else None
    if cap is None or "max_samples" in params:
        return dict(params)
    return {**params, "max_samples": cap}


def fit_forest(params: dict, X, y, *, jobs=1, seed=config.SEED):
    """Fit :func:`make_pipeline` with ``params``; an integer ``max_samples`` of at least
    the number of rows means every row (the forest would refuse it)."""
    if isinstance(params.get("max_samples"), int) and params["max_samples"] >= len(y):
        params = {**params, "max_samples": None}
    return make_pipeline(seed=seed, jobs=jobs, **params).fit(X, y)


def cross_validate(
    data: TrainingData, params: dict, splits: list, *, jobs=1, seed=config.SEED, on_fold=None
):
    """Stage 2: fit ``params`` on each fold; out-of-fold predictions and per-fold scores.

    ``on_fold(fold, folds, seconds)``, if given, is called after each fold.

    Returns
    -------
    y_pred, proba, classes, fold_scores, first_model
    """
    from sklearn.metrics import accuracy_score, f1_score

    classes = np.unique(data.y)
    y_pred = np.zeros(len(data), dtype=np.int64)
    proba = np.zeros((len(data), len(classes)), dtype=np.float64)
    rows, first = [], None
    for fold, (fit_rows, test_rows) in enumerate(splits, start=1):
        began = time.perf_counter()
        model = fit_forest(params, data.X[fit_rows], data.y[fit_rows], jobs=jobs, seed=seed)
        seconds = time.perf_counter() - began
        p = np.zeros((len(test_rows), len(classes)))
        p[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(data.X[test_rows])
        proba[test_rows] = p
        y_pred[test_rows] = classes[p.argmax(axis=1)]
        truth, guess = data.y[test_rows], y_pred[test_rows]
        macro = f1_score(truth, guess, average="macro", labels=classes, zero_division=0)
        rows.append((fold, len(test_rows), accuracy_score(truth, guess), macro, seconds))
        first = model if first is None else first
        if on_fold is not None:
            on_fold(fold, len(splits), seconds)
    columns = ["fold", "rows", "accuracy", "macro_f1", "fit_seconds"]
    return y_pred, proba, classes, pd.DataFrame(rows, columns=columns), first


def train(
    data: TrainingData,
    *,
    grid="default",
    folds: int = config.TRAIN_FOLDS,
    jobs: int = 1,
    seed: int = config.SEED,
    search_rows: int | None | str = "grid",
    regressor_params=config.REGRESSOR,
    progress=None,
) -> TrainResult:
    """Search, cross-validate and fit the classifier and the regressor; see the module
    docstring.

    Parameters
    ----------
    data : TrainingData
        From :func:`training_data`.
    grid : str or dict
        A name in ``config.TRAIN_GRIDS`` or a dict of forest parameter lists.
    folds : int
        Folds of the evaluation (stage 2).
    jobs : int
        Parallel workers.
    seed : int
        Seeds the subsample, the folds, the forests and the permutations.
    search_rows : int, None or "grid"
        Rows of the stratified subsample searched; None for every row; ``"grid"`` takes
        ``config.TRAIN_SEARCH_ROWS`` of a named grid (every row for a dict).
    regressor_params : dict, default config.REGRESSOR
        Parameters of the regressor's random forest (rumdiff.learn.regression).
    progress : callable, optional
        Called with the name of each stage as it starts, and with a line after each
        cross-validation fold.

    Returns
    -------
    TrainResult
    """
    timings = {}
    began = mark = time.perf_counter()

    def stage(name: str) -> None:
        nonlocal mark
        if progress is not None:
            progress(name)
        mark = time.perf_counter()

    def done(name: str) -> None:
        timings[name] = time.perf_counter() - mark

    def on_fold(fold: int, folds: int, seconds: float) -> None:
        if progress is not None:
            progress(f"  fold {fold}/{folds} fitted in {seconds:.0f} s")

    check_features(data)
    splits = folds_of(data.y, folds, seed)
    candidates = int(np.prod([len(v) for v in grid_for(grid).values()]))
    stage(f"grid search: {candidates} candidates")
    best, table, searched = tune(data, grid, search_rows=search_rows, jobs=jobs, seed=seed)
    done("search")
    stage(f"classifier, {folds}-fold cross-validation")
    y_pred, proba, classes, fold_scores, first = cross_validate(
        data, best, splits, jobs=jobs, seed=seed, on_fold=on_fold
    )
    done("cross_validation")
    stage(f"regressor, {folds}-fold cross-validation")
    z_pred, regression_folds = cross_validate_regressor(
        data, splits, params=regressor_params, jobs=jobs, seed=seed, on_fold=on_fold
    )
    done("regressor_cross_validation")
    stage("final fits")
    final = fit_forest(best, data.X, data.y, jobs=jobs, seed=seed)
    final_regressor = fit_regressor(
        data.X, data.target, params=regressor_params, jobs=jobs, seed=seed
    )
    done("final_fit")
    stage("feature importance")
    importance = importances(data, final, first, splits[0][1], seed=seed)
    done("importance")
    timings["total"] = time.perf_counter() - began
    regression = RegressionResult(dict(regressor_params), z_pred, regression_folds, final_regressor)
    return TrainResult(
        data=data, grid=grid if isinstance(grid, str) else "custom", best_params=best,
        search=table, search_rows=searched, folds=folds, seed=seed, y_pred=y_pred,
        proba=proba, classes=classes, fold_scores=fold_scores, importance=importance,
        pipeline=final, regression=regression, timings=timings,
    )  # fmt: skip
