"""A dataset's feature matrix and difficulty labels, checked and ready to train on.

:func:`training_data` selects a dataset's precomputed feature columns (named as in
:func:`rumdiff.features.feature_names`) and computes its labels from the solver columns
(rumdiff.data.labels), so training never featurises 400,000 puzzles again.
:func:`check_features` featurises a few of the dataset's puzzles afresh, to make sure the
columns are what rumdiff.features computes now (a model is fed fresh features).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from rumdiff import config
from rumdiff.learn.sidecar import scope_text

__all__ = [
    "TrainingData",
    "check_features",
    "combine_training_data",
    "recorded_label",
    "training_data",
]


@dataclass(frozen=True, eq=False)
class TrainingData:
    """A dataset's feature matrix and labels, ready to train on.

    Attributes
    ----------
    X : ndarray of float32, shape (rows, features)
    y : ndarray of int64, shape (rows,)
        Difficulty classes 1..4.
    feature_names : list of str
    feature_set : str
    label_by : str
        The label measure: ``"search"``, ``"solver"`` or ``"time"``.
    thresholds : list
        The label measure's thresholds (see rumdiff.data.labels).
    k, m, n : int
        Parameters of the dataset's puzzles (all rows share them); for data that spans
        families (:attr:`scope`), the family a puzzle file without a header is read as.
    puzzles : Puzzles
        A few decoded puzzles of the dataset, drawn from all of it, to check features
        and fit the model's feature step.
    jokers : bool
        Whether the dataset's puzzles have jokers or a table: the features then
        include the joker features, and so does the model.
    effort : ndarray of float64, shape (rows,)
        What the labels cut by thresholds (``config.LABEL_EFFORT[label_by]``):
        transitions or seconds; the report shows where the errors fall on it.
    metadata : dict
        The dataset's JSON sidecar.
    source : str
        The dataset file, or ``""``.
    sha256 : str
        SHA-256 of the dataset file, or ``""``.
    needs_dp : ndarray of bool, shape (rows,)
        Whether bounds leave each puzzle to a search (dataset column ``method``).
    puzzle_rows : ndarray of int, shape (sample,)
        The rows of ``puzzles``.
    below_upper : ndarray of bool, shape (rows,), or None
        Whether each puzzle's optimum lies below the solver's upper bound (dataset
        columns ``score`` and ``upper``): what decides many labels and no pre-solve
        feature can see (rumdiff.report.errors). None when the columns are absent.
    scope : dict or None
        For data of several families (:func:`combine_training_data`): the ranges of
        k, m, n and jokers they span, whether any has a table (turns), the most copies
        of one value (k * m) and the rows of each family. None for one family.
    family : ndarray of str, shape (rows,), or None
        With :attr:`scope`: each row's family, such as ``"G(4, 2, 13) j=2 turn"``.
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: list
    feature_set: str
    label_by: str
    thresholds: list
    k: int
    m: int
    n: int
    puzzles: object
    effort: np.ndarray
    needs_dp: np.ndarray
    puzzle_rows: np.ndarray
    metadata: dict = field(default_factory=dict)
    source: str = ""
    sha256: str = ""
    below_upper: np.ndarray | None = None
    jokers: bool = False
    scope: dict | None = None
    family: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.y)

    @property
    def puzzles_text(self) -> str:
        """What the puzzles are, for reports: ``"G(4, 2, 100)"``, or the scope."""
        if self.scope is None:
            return f"G({self.k}, {self.m}, {self.n})"
        return f"{len(self.scope['families'])} families ({scope_text(self.scope)})"

    @property
    def target(self) -> np.ndarray:
        """What the regressor learns: log10 of the effort, plus a floor (one transition,
        a microsecond) so that an effort of zero has a logarithm."""
        return np.log10(self.effort + config.EFFORT_FLOOR[self.label_by])


def recorded_label(metadata: dict) -> tuple:
    """The label measure and thresholds a dataset's sidecar records, or (None, None)."""
    label = metadata.get("label")
    if isinstance(label, dict) and label.get("measure") in config.LABEL_MEASURES:
        return label["measure"], label.get("thresholds")
    return None, None


def _recorded_thresholds(metadata: dict, measure: str):
    """The thresholds a dataset's sidecar records for ``measure``, or None."""
    label = metadata.get("label")
    if isinstance(label, dict) and label.get("measure") == measure:
        return label.get("thresholds")
    return None


def _one(frame: pd.DataFrame, column: str) -> int:
    values = frame[column].unique()
    if len(values) != 1:
        raise ValueError(f"dataset rows differ in {column}: {sorted(values.tolist())}")
    return int(values[0])


def training_data(
    frame: pd.DataFrame,
    metadata: dict | None = None,
    *,
    feature_set: str = config.TRAIN_FEATURE_SET,
    label_by: str | None = None,
    thresholds=None,
    source: str = "",
    sha256: str = "",
    alone: bool = True,
) -> TrainingData:
    """Select a dataset's feature columns and labels.

    Parameters
    ----------
    frame : DataFrame
        A dataset (rumdiff.data.dataset): one row per puzzle with k, m, n, puzzle, the feature
        columns and the label columns.
    metadata : dict, optional
        The dataset's sidecar.
    feature_set : {"thesis", "extended", "all"}
    label_by : {"search", "solver", "time"}, optional
        Label measure; labels are computed from the effort columns (rumdiff.data.labels).
        Default: the one the dataset's sidecar records, else ``config.LABEL_BY``.
    thresholds : sequence, optional
        The measure's thresholds; default those the dataset's sidecar records for it,
        else ``config.LABEL_THRESHOLDS``.
    source, sha256 : str
        The dataset file and its hash, recorded in the model.
    alone : bool, default True
        The dataset is trained on by itself, so it must hold two classes; False for
        one of several (:func:`combine_training_data` checks their union).

    Raises
    ------
    ValueError
        On an unknown feature set or measure, missing columns, mixed k/m/n, feature
        values that are not finite, or fewer than two classes.
    """
    from rumdiff.data.labels import check_thresholds, compute_labels
    from rumdiff.features import check_feature_set, feature_names
    from rumdiff.puzzle import decode_games

    check_feature_set(feature_set)
    metadata = dict(metadata or {})
    if label_by is None:
        label_by = recorded_label(metadata)[0] or config.LABEL_BY
    if thresholds is None:
        thresholds = _recorded_thresholds(metadata, label_by)
    thresholds = check_thresholds(label_by, thresholds)
    if len(frame) == 0:
        raise ValueError("the dataset has no rows")
    for column in ("k", "m", "n", "puzzle"):
        if column not in frame:
            raise ValueError(f"the dataset has no column {column!r}")
    k, m, n = (_one(frame, column) for column in ("k", "m", "n"))
    # A puzzle with jokers or a table is stored as copies|table|jokers|table jokers.
    jokers = bool(frame["puzzle"].astype(str).str.contains("|", regex=False).any())
    jokers = jokers or feature_set == "scaled"  # read as the model will: jokers and all
    names = list(feature_names(feature_set, k=k, m=m, jokers=jokers))
    missing = [name for name in names if name not in frame]
    if missing:
        if feature_set == "scaled":
            raise ValueError(
                f"the dataset lacks the scaled feature columns ({len(missing)} of "
                f"{len(names)}); generate it with rumdiff generate --features scaled, or "
                "rewrite its features with rumdiff.data.refeaturise_dataset"
            )
        raise ValueError(f"the dataset lacks feature columns {missing}; rebuild it")
    y = compute_labels(frame, label_by, thresholds).astype(np.int64)
    if alone and len(np.unique(y)) < 2:
        raise ValueError(f"all {len(y)} rows have the same {label_by} label; nothing to learn")
    X = frame[names].to_numpy(dtype=np.float64)
    # Every feature is a count, a gap or a percentage: any row outside that is damaged
    # (only the joker bounds' gap may be negative: the table cannot be placed whole).
    signed = np.array([name.startswith("joker_gap") for name in names], dtype=bool)
    bad = ~np.isfinite(X) | ((X < 0) & ~signed)
    percent = np.array([name.startswith("pct_") for name in names], dtype=bool)
    bad[:, percent] |= X[:, percent] > 100
    if bad.any():
        row, column = map(int, np.argwhere(bad)[0])
        raise ValueError(
            f"feature {names[column]!r} of row {row} is {X[row, column]:g}, which no puzzle "
            "gives; rebuild the dataset"
        )
    X = X.astype(np.float32)
    below_upper = None
    if "score" in frame and "upper" in frame:
        below_upper = (frame["score"] < frame["upper"]).to_numpy()
    rows = _check_rows(len(frame))
    puzzles = decode_games(frame["puzzle"].iloc[rows].tolist(), k, n, m=m)
    return TrainingData(
        X=X, y=y, feature_names=names, feature_set=feature_set, label_by=label_by,
        thresholds=list(thresholds), k=k, m=m, n=n, puzzles=puzzles,
        effort=frame[config.LABEL_EFFORT[label_by]].to_numpy(dtype=np.float64),
        needs_dp=_needs_dp(frame, label_by), metadata=metadata, source=str(source),
        sha256=sha256, below_upper=below_upper, puzzle_rows=rows, jokers=jokers,
    )  # fmt: skip


def family_name(data: TrainingData) -> str:
    """The family of one dataset's rows, such as ``"G(4, 2, 13) j=2 turn"``."""
    parameters = data.metadata.get("parameters") or {}
    name = f"G({data.k}, {data.m}, {data.n})"
    if parameters.get("jokers"):
        name += f" j={parameters['jokers']}"
    return f"{name} {parameters['mode']}" if parameters.get("mode") else name


def combine_training_data(parts) -> TrainingData:
    """One training set of several datasets, each of one family, on the scaled features.

    Parameters
    ----------
    parts : sequence of TrainingData
        From :func:`training_data` with ``feature_set="scaled"``, all labelled by the
        same measure and thresholds.

    Returns
    -------
    TrainingData
        The rows of every part in order, with :attr:`~TrainingData.scope` and
        :attr:`~TrainingData.family` set; ``puzzles`` are the first part's.

    Raises
    ------
    ValueError
        If the parts differ in feature set, measure or thresholds, or are not scaled.
    """
    first = parts[0]
    for part in parts:
        if part.feature_set != "scaled":
            raise ValueError(
                "datasets of several families train only on the scaled features "
                "(--features scaled), which compare across families"
            )
        if (part.label_by, list(part.thresholds)) != (first.label_by, list(first.thresholds)):
            raise ValueError("the datasets are labelled by different measures or thresholds")
    if len(np.unique(np.concatenate([part.y for part in parts]))) < 2:
        raise ValueError("every row has the same label; nothing to learn")
    names = [family_name(part) for part in parts]
    family = np.concatenate(
        [np.full(len(p), name, dtype=object) for p, name in zip(parts, names, strict=True)]
    )
    joined = [
        np.concatenate([getattr(p, key) for p in parts]) for key in ("X", "y", "effort", "needs_dp")
    ]
    below = None
    if all(p.below_upper is not None for p in parts):
        below = np.concatenate([p.below_upper for p in parts])

    def span(values) -> list:
        values = list(values)
        return [int(min(values)), int(max(values))]

    parameters = [p.metadata.get("parameters") or {} for p in parts]
    scope = {
        "k": span(p.k for p in parts),
        "m": span(p.m for p in parts),
        "n": span(p.n for p in parts),
        "jokers": span(int(given.get("jokers") or 0) for given in parameters),
        "table": any(given.get("mode") == "turn" for given in parameters),
        "copies_per_value": max(p.k * p.m for p in parts),
        "families": {name: int(np.sum(family == name)) for name in dict.fromkeys(names)},
    }
    datasets = [{"file": p.source, "sha256": p.sha256, "rows": len(p), "family": name}
                for p, name in zip(parts, names, strict=True)]  # fmt: skip
    return TrainingData(
        X=joined[0], y=joined[1], feature_names=first.feature_names, feature_set="scaled",
        label_by=first.label_by, thresholds=list(first.thresholds), k=config.K, m=config.M,
        n=config.N, puzzles=first.puzzles, effort=joined[2], needs_dp=joined[3],
        metadata={"datasets": datasets}, source=", ".join(p.source for p in parts),
        sha256="", below_upper=below, puzzle_rows=first.puzzle_rows, jokers=True,
        scope=scope, family=family,
    )  # fmt: skip


def _check_rows(rows: int) -> np.ndarray:
    """Rows whose features are computed afresh: spread over the whole file, first and
    last included, the same for every run on the same number of rows."""
    if rows <= config.FEATURE_CHECK_ROWS:
        return np.arange(rows)
    rng = np.random.default_rng(rows)
    middle = rng.choice(np.arange(1, rows - 1), config.FEATURE_CHECK_ROWS - 2, replace=False)
    return np.sort(np.concatenate([[0, rows - 1], middle]))


def _needs_dp(frame, label_by: str) -> np.ndarray:
    if "method" in frame:
        return (frame["method"] == "dp").to_numpy()
    return frame[config.LABEL_EFFORT[label_by]].to_numpy() > 0


def check_features(data: TrainingData) -> None:
    """Featurise a few of the dataset's puzzles afresh and compare with its columns.

    Raises
    ------
    ValueError
        If they differ: the dataset was built by another version of rumdiff.features,
        and a model trained on it would be fed other features at prediction time.
    """
    from rumdiff.features import compute_features

    fresh = compute_features(
        data.puzzles, m=data.puzzles.m, feature_set=data.feature_set, jokers=data.jokers
    )
    fresh = fresh[data.feature_names].to_numpy(dtype=np.float32)
    rows = data.puzzle_rows
    stored = data.X[rows]
    bad = ~np.isclose(fresh, stored, rtol=1e-5, atol=1e-6, equal_nan=True)
    if bad.any():
        at, column = map(int, np.argwhere(bad)[0])
        row = int(rows[at])
        raise ValueError(
            f"feature {data.feature_names[column]!r} of row {row} is {stored[at, column]:g} "
            f"in the dataset but {fresh[at, column]:g} when computed now; rebuild the dataset"
        )
