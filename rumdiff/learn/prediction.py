"""Predict the difficulty of puzzles with a saved model, before anyone solves them.

The default model is ``config.DEFAULT_MODEL`` (``models/default.skops`` and its sidecar)
in the repository that holds this package, so it is found after ``pip install -e .``.
Model files are skops archives loaded with a fixed list of trusted types, so a model
from elsewhere cannot run code (see rumdiff.learn.model).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from rumdiff import config

__all__ = [
    "default_model_path",
    "effort_in_class",
    "format_table",
    "missing_shipped_model",
    "model_path",
    "predict",
    "to_csv",
]


#: The repository root: the folder that holds ``rumdiff/`` and ``models/``.
_ROOT = Path(__file__).resolve().parents[2]


def default_model_path() -> Path:
    """Where the default model lives: ``config.DEFAULT_MODEL`` under the repository root."""
    return _ROOT / config.DEFAULT_MODEL


def model_path(name) -> Path:
    """The model file a ``--model`` value names: the default model for None, a shipped
    model for one of ``config.NAMED_MODELS`` ("thesis"), else the path itself (write
    ``./thesis`` for a file of that name)."""
    if name is None:
        return default_model_path()
    if name in config.NAMED_MODELS:
        return _ROOT / config.NAMED_MODELS[name]
    return Path(name)


def missing_shipped_model(name) -> str | None:
    """Why the shipped model a ``--model`` value names (None: the default) cannot be
    read, with the make target that builds it; None when it is there or ``name`` is a
    path of the user's."""
    if name is not None and name not in config.NAMED_MODELS:
        return None
    path = model_path(name)
    if path.is_file():
        return None
    target = "default-model" if name is None else f"{name}-model"
    return f"the shipped model {path} is missing; build it with `make {target}`"


def predict(model, puzzles) -> pd.DataFrame:
    """One row per puzzle: its index, predicted class, class probabilities and effort.

    The class is the classifier's (the most probable); the effort is the regressor's,
    made to agree with it (:func:`effort_in_class`): the estimate lies in the class's
    range of the label measure, and inside its interval. docs/decisions/predict-agreement.md
    measures what this costs.

    Parameters
    ----------
    model : rumdiff.learn.model.Model
    puzzles : rumdiff.puzzle.Puzzles
        Of the model's k, m and n.

    Returns
    -------
    DataFrame
        Columns ``puzzle`` (1-based index in the input), ``difficulty`` (the class's
        name), ``p_<name>`` per class (summing to 1), ``effort`` (the predicted effort in
        the units of the model's label measure: transitions of the reference search for
        search labels) and ``effort_low``, ``effort_high`` (the spread of the regressor's
        trees, ``config.PREDICT_SPREAD``, widened to hold the estimate).

    Raises
    ------
    rumdiff.learn.model.ModelError
        If the puzzles have other k, m or n than the model.
    """
    X = model.features(puzzles)
    proba = model.predict_proba(puzzles, X)
    classes = np.asarray(model.classes)
    best = proba.argmax(axis=1) if len(proba) else np.zeros(0, dtype=np.intp)
    effort = effort_in_class(
        model.predict_effort(puzzles, X), classes[best], model.label_by,
        model.metadata["thresholds"],
    )  # fmt: skip
    names = np.asarray(model.class_names, dtype=object)
    frame = pd.DataFrame({"puzzle": np.arange(1, len(puzzles) + 1), "difficulty": names[best]})
    for column, name in enumerate(model.class_names):
        frame[f"p_{name}"] = proba[:, column]
    for column, name in enumerate(("effort", "effort_low", "effort_high")):
        frame[name] = effort[:, column]
    return frame


def effort_in_class(effort, labels, label_by: str, thresholds) -> np.ndarray:
    """Predicted efforts made to agree with predicted classes.

    Parameters
    ----------
    effort : ndarray of shape (puzzles, 3)
        The regressor's estimate and its trees' spread, low and high
        (:meth:`rumdiff.learn.model.Model.predict_effort`).
    labels : ndarray of int
        Each puzzle's predicted class, 1..4.
    label_by, thresholds
        The label measure and its thresholds, which give each class its range
        (:func:`rumdiff.data.labels.class_ranges`).

    Returns
    -------
    ndarray of shape (puzzles, 3)
        The estimate moved to the nearest value of its class's range (an easy puzzle's
        search effort is 0: bounds settle it), and the spread widened to hold it.
    """
    from rumdiff.data.labels import class_ranges

    effort = np.asarray(effort, dtype=np.float64).reshape(-1, 3)
    ranges = class_ranges(label_by, thresholds)
    low = np.array([bottom for bottom, _ in ranges], dtype=np.float64)
    high = np.array([np.inf if top is None else top for _, top in ranges], dtype=np.float64)
    # The ranges are [low, high): the last transition below the cut, or the last second.
    high = np.nextafter(high, 0) if label_by == "time" else high - 1
    row = np.asarray(labels, dtype=np.intp) - 1
    estimate = np.clip(effort[:, 0], low[row], high[row])
    spread = (np.minimum(effort[:, 1], estimate), np.maximum(effort[:, 2], estimate))
    return np.column_stack([estimate, *spread])


#: Width of each kind of column in :func:`format_table`, so that tables printed block by
#: block line up.
_TABLE_WIDTHS = {"puzzle": 9, "difficulty": 10, "p_": 10, "effort": 11}


def format_table(frame: pd.DataFrame, *, header: bool = True) -> str:
    """A fixed-width text table of :func:`predict`'s result: probabilities to 3 decimals,
    efforts to 3 significant figures, every column as wide for every block."""
    columns = []
    for name in frame.columns:
        kind = next((k for k in _TABLE_WIDTHS if name.startswith(k)), None)
        if name.startswith("p_"):
            cells = [f"{x:.3f}" for x in frame[name]]
        elif name.startswith("effort"):
            cells = [f"{x:.3g}" for x in frame[name]]
        else:
            cells = [str(x) for x in frame[name]]
        width = max([len(name), _TABLE_WIDTHS.get(kind, 0), *map(len, cells)])
        columns.append(([name] if header else []) + [cell.rjust(width) for cell in cells])
    if header:
        columns = [[column[0].rjust(len(column[-1]))] + column[1:] for column in columns]
    return "".join(" ".join(row) + "\n" for row in zip(*columns, strict=True))


def to_csv(frame: pd.DataFrame, *, header: bool = True) -> str:
    """:func:`predict`'s result as CSV text, probabilities to 6 decimals."""
    return frame.to_csv(index=False, header=header, float_format="%.6f", lineterminator="\n")
