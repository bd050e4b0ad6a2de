"""Predict the difficulty of puzzles with a saved model, before anyone solves them.

The default model is ``config.DEFAULT_MODEL`` (``models/default.joblib`` and its sidecar)
in the repository that holds this package, so it is found after ``pip install -e .``.
Model files are pickles: load only trusted ones (see rumdiff.learn.model).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from rumdiff import config

__all__ = ["default_model_path", "format_table", "predict", "to_csv"]


def default_model_path() -> Path:
    """Where the default model lives: ``config.DEFAULT_MODEL`` under the repository root."""
    return Path(__file__).resolve().parents[2] / config.DEFAULT_MODEL


def predict(model, puzzles) -> pd.DataFrame:
    """One row per puzzle: its index, predicted class and class probabilities.

    Parameters
    ----------
    model : rumdiff.learn.model.Model
    puzzles : rumdiff.puzzle.Puzzles
        Of the model's k, m and n.

    Returns
    -------
    DataFrame
        Columns ``puzzle`` (1-based index in the input), ``label`` (class 1..4),
        ``difficulty`` (its name) and ``p_<name>`` per class, summing to 1.

    Raises
    ------
    rumdiff.learn.model.ModelError
        If the puzzles have other k, m or n than the model.
    """
    proba = model.predict_proba(puzzles)
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
    return frame


def format_table(frame: pd.DataFrame) -> str:
    """A fixed-width text table of :func:`predict`'s result, probabilities to 3 decimals."""
    if frame.empty:
        return " ".join(frame.columns) + "\n"
    return frame.to_string(index=False, float_format=lambda p: f"{p:.3f}") + "\n"


def to_csv(frame: pd.DataFrame) -> str:
    """:func:`predict`'s result as CSV text, probabilities to 6 decimals."""
    return frame.to_csv(index=False, float_format="%.6f", lineterminator="\n")
