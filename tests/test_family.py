"""Tests for rumdiff.data.family: one value for a family of random puzzles."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from rumdiff import config
from rumdiff.data import Family, generate, make_to_order
from rumdiff.puzzle import Game


def test_text_and_sidecar_form():
    family = Family(Game(4, 3, 100), "fixed", (20, 20, 20))
    assert str(family) == "G(4, 3, 100), fixed 20/20/20"
    assert str(Family(Game(4, 2, 13), "turn", jokers=2)) == "G(4, 2, 13) j=2, turn"
    # The text names the jokers however many: the game's header omits its default.
    most = Family(Game(4, 2, 13), "turn", jokers=config.MAX_JOKERS)
    assert str(most) == f"G(4, 2, 13) j={config.MAX_JOKERS}, turn"
    assert str(most.game) == "G(4, 2, 13)"
    assert family.as_json() == {
        "k": 4, "m": 3, "n": 100, "mode": "fixed", "percentages": [20.0, 20.0, 20.0],
        "regime_weights": list(config.REGIME_WEIGHTS), "jokers": 0,
    }  # fmt: skip


def test_the_game_is_the_drawn_puzzles_game():
    # With jokers the game holds that many (j=J in a header); without, it is the plain game.
    assert Family(Game(4, 2, 13), jokers=1).game == Game(4, 2, 13, jokers=1)
    assert Family(Game(4, 2, 13), jokers=0).game == Game(4, 2, 13)
    family = Family(Game(5, 2, 30), "simplex", jokers=2)
    assert generate(3, family, seed=1).puzzles.game == family.game
    assert family == Family(Game(5, 2, 30, jokers=2), "simplex", jokers=2)


def test_the_jokers_default_to_the_ones_the_game_states():
    assert Family(Game(4, 2, 13, jokers=2), "turn").jokers == 2
    assert Family(Game(4, 2, 13, jokers=0), "turn").jokers == 0
    assert Family(Game(4, 2, 13)).jokers == 0  # states none, as its header
    with pytest.raises(ValueError, match="holds 1 jokers, but jokers=0"):
        Family(Game(4, 2, 13, jokers=1), jokers=0)
    # A family made again with other jokers meets the game it drew with.
    with pytest.raises(ValueError, match="holds 1 jokers, but jokers=3"):
        replace(Family(Game(4, 2, 13), jokers=1), jokers=3)
    assert replace(Family(Game(4, 2, 13)), jokers=3).game == Game(4, 2, 13, jokers=3)


def test_equal_values_are_equal_families():
    a = Family(Game(3, 2, 20), "fixed", [10, 30])
    b = Family(Game(3, 2, 20), "fixed", np.array([10.0, 30.0]))
    assert a == b and hash(a) == hash(b)
    assert a != Family(Game(3, 2, 20), "fixed", [10, 31])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"mode": "uniform"}, "mode"),
        ({"mode": "fixed"}, "fixed mode needs percentages"),
        ({"mode": "fixed", "percentages": (50,)}, "needs 2 percentages"),
        ({"mode": "fixed", "percentages": (60, 50)}, "sum to at most 100"),
        ({"mode": "fixed", "percentages": (np.nan, 10)}, "lie in 0..100"),
        ({"mode": "simplex", "percentages": (10, 10)}, "only used by fixed mode"),
        ({"regime_weights": (1, 1)}, "needs 3 numbers"),
        ({"regime_weights": (0, 0, 0)}, "positive sum"),
        ({"jokers": config.MAX_JOKERS + 1}, "jokers"),
        ({"jokers": -1}, "jokers"),
        ({"game": Game(4, 2, 13, jokers=1), "jokers": 2}, "holds 1 jokers"),
        ({"game": Game(4, 2, 13, meld=30)}, "no mode draws opening moves"),
    ],
)
def test_invalid_families_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        Family(**arguments)


def test_a_game_is_required():
    with pytest.raises(TypeError, match="game must be a Game"):
        Family((4, 2, 100))
    with pytest.raises(TypeError, match="family must be a Family"):
        generate(1, Game(4, 2, 100))
    with pytest.raises(TypeError, match="family must be a Family"):
        make_to_order(1, 0, 1, Game(4, 2, 100))


@pytest.mark.parametrize(
    "family",
    [
        Family(Game(1, 2, 3), "simplex"),
        Family(Game(2, 1, 3), "mixed", regime_weights=(1, 0, 0)),
        Family(Game(2, 2, 2), "fixed", (40, 30)),
        Family(Game(2, 2, 2), "fixed", (100, 0)),
        Family(Game(1, 3, 2), "fixed", (0, 50, 0)),
    ],
)
def test_distinct_counts_every_puzzle_the_family_can_draw(family):
    # Twin, from the arguments alone: the copies a cell can get are 0..m, or, in fixed
    # mode, those of a positive percentage, and m when the percentages leave a rest.
    m, cells = family.game.m, family.game.k * family.game.n
    counts = list(range(m + 1))
    if family.percentages is not None:
        counts = [c for c, p in enumerate(family.percentages) if p > 0]
        counts += [m] if sum(family.percentages) < 100 else []
    every = set(itertools.product(counts, repeat=cells))
    assert family.distinct == len(every)
    drawn = generate(family.distinct, family, seed=4).puzzles.copies
    assert {tuple(puzzle.ravel()) for puzzle in drawn} == every  # each one, once
    with pytest.raises(ValueError, match="distinct puzzles"):
        generate(family.distinct + 1, family, seed=4)


def test_distinct_is_none_when_uncountable():
    assert Family(Game(4, 2, 100)).distinct is None
    assert Family(Game(4, 2, 13), "turn").distinct is None
