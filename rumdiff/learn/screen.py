"""The cheap filter of puzzles made to order: a model's guess of a candidate's effort.

:class:`EffortScreen` tells :func:`rumdiff.data.order.make_to_order` which candidates are
worth the reference search: those whose effort the model's regressor predicts within
``config.ORDER_MARGIN`` log10 units of the range (docs/decisions/made-to-order.md). It
only skips candidates; every accepted puzzle's effort is still measured.
:func:`screen_refusal` says why a model cannot screen some candidates (another family,
jokers it never saw, another label measure).
"""

from __future__ import annotations

import math

import numpy as np

from rumdiff import config
from rumdiff.learn.sidecar import covers, family_text

__all__ = ["EffortScreen", "screen_refusal"]


def screen_refusal(metadata: dict, family, path: str = "") -> str | None:
    """Why the model of this sidecar (``metadata``, as :func:`read_model_sidecar` reads
    it; ``path`` names the model) cannot screen candidates of ``family`` (a
    :class:`~rumdiff.data.family.Family`: its game, mode and jokers), or None when it
    can. It reads the sidecar alone, so that an order can ask before it loads the
    model."""
    from rumdiff.data.family import as_family

    family = as_family(family)
    game = family.game
    where = f" {path}" if path else ""
    if not covers(metadata, game, family.jokers, table=family.mode == "turn"):
        known = tuple(int(metadata[key]) for key in ("k", "m", "n"))
        if metadata.get("scope") is None and (game.k, game.m, game.n) == known:
            if not metadata.get("jokers", False):
                return f"the model{where} was trained without jokers or a table"
            most, table = metadata["most_jokers"], metadata["table"]
            return (f"the model{where} was trained on at most {most} jokers"
                    f"{' with a table' if table else ' and no table'}")  # fmt: skip
        shape = f"G({game.k}, {game.m}, {game.n})"
        return f"the model{where} knows {family_text(metadata)}, not {shape}"
    if metadata["label_by"] != "search":
        label_by = metadata["label_by"]
        return f"the model{where} predicts the {label_by} measure, not the search effort"
    return None


class EffortScreen:
    """Search a candidate unless the model finds it unlikely to lie in ``[low, high)``.

    Two rules (docs/decisions/made-to-order.md): when the range is one of the model's
    classes (the model's thresholds are ``config.LABEL_THRESHOLDS["search"]``), keep a
    candidate whose probability of that class is at least ``probability``; otherwise keep
    one whose predicted ``z = log10(effort + 1)`` has ``log10(low + 1) - margin <= z <
    log10(high + 1) + margin`` (no upper end when ``high`` is None).

    Parameters
    ----------
    model : rumdiff.learn.model.Model
        Of the candidates' family, predicting the search effort (:func:`screen_refusal`).
    low, high : int, int or None
    margin, probability : float
    """

    def __init__(
        self,
        model,
        low: int,
        high: int | None,
        *,
        margin: float = config.ORDER_MARGIN,
        probability: float = config.ORDER_PROBABILITY,
    ):
        from rumdiff.data.order import effort_range

        self.model, self.low, self.high = model, low, high
        self.margin, self.probability = float(margin), float(probability)
        floor = config.EFFORT_FLOOR["search"]
        self._bottom = math.log10(low + floor) - self.margin
        self._top = math.inf if high is None else math.log10(high + floor) + self.margin
        same = [int(t) for t in model.metadata.get("thresholds", ())] == list(
            config.LABEL_THRESHOLDS["search"]
        )
        names = [n for n in config.LABEL_NAMES if effort_range(n) == (low, high)]
        self.column = None  # the class's column of predict_proba, when the class rule applies
        if same and names and names[0] in model.class_names:
            self.column = model.class_names.index(names[0])

    def __call__(self, puzzles) -> np.ndarray:
        """Which puzzles to search (a bool array)."""
        if len(puzzles) == 0:
            return np.zeros(0, dtype=bool)
        X = self.model.features(puzzles)
        if self.column is not None:
            return self.model.predict_proba(puzzles, X)[:, self.column] >= self.probability
        z = np.asarray(self.model.regressor.predict(X))
        return (z >= self._bottom) & (z < self._top)

    def describe(self) -> dict:
        """The filter for a sidecar: its rule, its parameter and its model."""
        if self.column is not None:
            rule = {
                "rule": "search when the model's probability of the class is at least this",
                "probability": self.probability,
            }
        else:
            rule = {
                "rule": "search unless log10(predicted effort + 1) lies more than this outside "
                "[log10(low + 1), log10(high + 1))",
                "margin": self.margin,
            }
        return {
            **rule,
            "model": str(self.model.path),
            "model_sha256": self.model.metadata.get("model_sha256"),
        }
