"""Tests for rumdiff.learn.screen: which models can filter, and the two rules."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import TINY_THRESHOLDS

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.data.order import effort_range
from rumdiff.learn import EffortScreen, screen_refusal
from rumdiff.puzzle import Game


def test_refusals_name_the_mismatch(trained):
    model, _ = trained  # G(4, 2, 20) without jokers, search labels (tests/conftest.py)
    side = model.metadata  # what its sidecar holds: no model need be loaded
    assert screen_refusal(side, Family(Game(4, 2, 20))) is None
    assert "G(4, 2, 13)" in screen_refusal(side, Family(Game(4, 2, 13)))
    assert "jokers" in screen_refusal(side, Family(Game(4, 2, 20), jokers=2))
    assert "jokers" in screen_refusal(side, Family(Game(4, 2, 20), "turn"))
    named = screen_refusal({**side, "label_by": "time"}, Family(Game(4, 2, 20)), "m.skops")
    assert named == "the model m.skops predicts the time measure, not the search effort"
    with pytest.raises(TypeError, match="family must be a Family"):
        screen_refusal(side, "m.skops")  # the path where the family goes
    with pytest.raises(TypeError, match="game must be a Game"):
        model.covers(4, 2, 20)


def test_class_rule_when_the_model_has_the_labels_thresholds(trained, monkeypatch):
    model, _ = trained
    puzzles = generate(40, Family(Game(n=20)), seed=11).puzzles
    low, high = effort_range("medium")
    assert EffortScreen(model, low, high).column is None  # the tiny model's classes differ
    monkeypatch.setitem(config.LABEL_THRESHOLDS, "search", TINY_THRESHOLDS)
    low, high = effort_range("medium")
    screen = EffortScreen(model, low, high, probability=0.3)
    column = model.class_names.index("medium")
    expected = model.predict_proba(puzzles)[:, column] >= 0.3
    assert screen.column == column and np.array_equal(screen(puzzles), expected)
    assert screen.describe()["probability"] == 0.3


def test_margin_rule(trained):
    model, _ = trained
    puzzles = generate(40, Family(Game(n=20)), seed=11).puzzles
    screen = EffortScreen(model, 1_000, 100_000, margin=0.25)
    assert screen.column is None and screen.describe()["margin"] == 0.25
    z = model.regressor.predict(model.features(puzzles))
    expected = (z >= np.log10(1_001) - 0.25) & (z < np.log10(100_001) + 0.25)
    assert np.array_equal(screen(puzzles), expected)
    assert 0 < expected.sum() < 40  # the rule both keeps and skips here
    assert EffortScreen(model, 1, None, margin=0)(puzzles[:0]).shape == (0,)
