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

    Parameters
    ----------
    model : rumdiff.learn.model.Model
    puzzles : rumdiff.puzzle.Puzzles
        Of the model's k, m and n.

    Returns
    -------
    DataFrame
        Columns ``puzzle`` (1-based index in the input), ``label`` (class 1..4),
        ``difficulty`` (its name), ``p_<name>`` per class (summing to 1), ``effort`` (the
        predicted search effort, or whichever measure the model learned) and
        ``effort_low``, ``effort_high`` (the spread of the regressor's trees,
        ``config.PREDICT_SPREAD``).

    Raises
    ------
    rumdiff.learn.model.ModelError
        If the puzzles have other k, m or n than the model.
    """
    X = model.features(puzzles)
    proba = model.predict_proba(puzzles, X)
    effort = model.predict_effort(puzzles, X)
    classes = np.asarray(model.classes)
    names = np.asarray(model.class_names, dtype=object)
    best = proba.argmax(axis=1) if len(proba) else np.zeros(0, dtype=np.intp)
    frame = pd.DataFrame(
        {
            "puzzle": np.arange(1, len(puzzles) + 1),
            "label": classes[best],
            "difficulty": names[best],
        }
    )
    for column, name in enumerate(model.class_names):
        frame[f"p_{name}"] = proba[:, column]
    for column, name in enumerate(("effort", "effort_low", "effort_high")):
        frame[name] = effort[:, column]
    return frame


#: Width of each kind of column in :func:`format_table`, so that tables printed block by
#: block line up.
_TABLE_WIDTHS = {"puzzle": 9, "label": 5, "difficulty": 10, "p_": 10, "effort": 11}


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
