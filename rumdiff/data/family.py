"""A family of random puzzles as one value: the game, how copies are drawn, and jokers.

A :class:`Family` is what :func:`rumdiff.data.generator.generate` draws from, and what a
dataset, an order and the model's screen name: the :class:`~rumdiff.puzzle.Game`
G(k, m, n), the mode that chooses each puzzle's copy shares (with the fixed mode's
percentages and the mixed mode's regime weights), and the jokers every puzzle holds.
Its text is G(k, m, n), with ``j=J`` when the puzzles hold jokers, then the mode::

    G(4, 2, 100) j=2, simplex
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Game
from rumdiff.validation import choice, whole

__all__ = ["Family", "as_family"]

#: Slack allowed when checking that percentages sum to at most 100.
_PERCENT_SLACK = 1e-9


@dataclass(frozen=True)
class Family:
    """Random puzzles of one game, their copy shares drawn by one mode.

    Parameters
    ----------
    game : Game, default Game()
        The game G(k, m, n). The family keeps the drawn puzzles' game: with jokers it
        holds that many (``j=J`` in a header), without any it is the plain game, whose
        header names none. A game with an opening meld is refused: no mode draws one.
    mode : {"fixed", "mixed", "simplex", "turn"}, default config.GENERATE_MODE
        How each puzzle's copy shares are chosen (:mod:`rumdiff.data.generator`);
        ``"turn"``: real-game turns, a table of valid sets and a rack
        (:mod:`rumdiff.data.turns`).
    percentages : sequence of m floats, optional
        Fixed mode only (and required there): percentages of cells with 0..m-1 copies,
        each in 0..100, summing to at most 100; the rest of the cells get m copies.
    regime_weights : sequence of 3 floats, default config.REGIME_WEIGHTS
        Mixed mode: relative frequencies of regimes 1, 2, 3 (normalised when drawn).
    jokers : int, optional
        Jokers of every puzzle, 0..``config.MAX_JOKERS``: on the rack, or in turn mode
        the game's jokers (some on the table, some on the rack, some in the box).
        Default: the jokers the game states (``Game(4, 2, 13, jokers=2)``), else 0; a
        game that states ``config.MAX_JOKERS`` states none, as its header does.

    Raises
    ------
    ValueError
        On a value out of range, percentages that do not fit the mode or m, or jokers
        other than the ones the game states.
    TypeError
        When ``game`` is no :class:`~rumdiff.puzzle.Game`.
    """

    game: Game = field(default_factory=Game)
    mode: str = config.GENERATE_MODE
    percentages: tuple | None = None
    regime_weights: tuple = config.REGIME_WEIGHTS
    jokers: int | None = None

    def __post_init__(self):
        game = self.game
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, got {type(game).__name__}")
        if game.meld is not None:
            raise ValueError(f"no mode draws opening moves; got the game {game}")
        choice("mode", self.mode, config.GENERATE_MODES)
        stated = None if game.jokers == config.MAX_JOKERS else game.jokers
        if self.jokers is None:
            jokers = 0 if stated is None else stated
        else:
            jokers = whole("jokers", self.jokers, low=0, high=config.MAX_JOKERS)
            if stated is not None and jokers != stated:
                raise ValueError(f"the game {game} holds {stated} jokers, but jokers={jokers}")
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "game", Game.drawn_with(game.k, game.m, game.n, jokers))
        object.__setattr__(self, "percentages", _percentages(self.percentages, self.mode, game.m))
        object.__setattr__(self, "regime_weights", _weights(self.regime_weights))

    @property
    def fixed(self) -> np.ndarray | None:
        """Fixed mode: the probabilities of 0..m copies of a cell (fractions summing to
        1); None in the other modes."""
        if self.percentages is None:
            return None
        p = np.asarray(self.percentages, dtype=np.float64)
        return np.append(p, max(0.0, 100 - p.sum())) / 100

    @property
    def weights(self) -> np.ndarray:
        """Mixed mode: the probabilities of regimes 1, 2, 3."""
        w = np.asarray(self.regime_weights, dtype=np.float64)
        return w / w.sum()

    @property
    def distinct(self) -> int | None:
        """How many distinct puzzles the family holds, or None when astronomically many,
        or for turns (not counted)."""
        fixed = self.fixed
        support = self.game.m + 1 if fixed is None else int(np.count_nonzero(fixed))
        cells = self.game.n * self.game.k
        if self.mode == "turn" or (support > 1 and cells * math.log2(support) > 62):
            return None
        return support**cells

    @property
    def has_jokers(self) -> bool:
        """Whether the puzzles have jokers or a table (their features then include the
        joker features)."""
        return self.jokers > 0 or self.mode == "turn"

    @property
    def shape(self) -> str:
        """``G(k, m, n)``, with ``j=J`` when the puzzles hold jokers (however many)."""
        game = self.game
        text = f"G({game.k}, {game.m}, {game.n})"
        return text + (f" j={self.jokers}" if self.jokers else "")

    def __str__(self) -> str:
        """:attr:`shape`, then the mode (with a fixed mode's percentages)."""
        text = f"{self.shape}, {self.mode}"
        if self.percentages is not None:
            text += " " + "/".join(f"{p:g}" for p in self.percentages)
        return text

    def as_json(self) -> dict:
        """The family as sidecars record it: ``k``, ``m``, ``n``, ``mode``,
        ``percentages``, ``regime_weights`` and ``jokers``."""
        return {
            "k": self.game.k,
            "m": self.game.m,
            "n": self.game.n,
            "mode": self.mode,
            "percentages": None if self.percentages is None else list(self.percentages),
            "regime_weights": list(self.regime_weights),
            "jokers": self.jokers,
        }


def as_family(family) -> Family:
    """``family``, or ``Family()`` for None.

    Raises
    ------
    TypeError
        For anything else.
    """
    if family is None:
        return Family()
    if not isinstance(family, Family):
        raise TypeError(f"family must be a Family, got {type(family).__name__}")
    return family


def _percentages(percentages, mode: str, m: int) -> tuple | None:
    """The fixed mode's percentages as a checked tuple (None in the other modes)."""
    if mode != "fixed":
        if percentages is not None:
            raise ValueError(f"percentages are only used by fixed mode, not {mode!r}")
        return None
    if percentages is None:
        raise ValueError(f"fixed mode needs percentages of cells with 0..{m - 1} copies")
    p = np.asarray(percentages, dtype=np.float64).ravel()
    if p.size != m:
        raise ValueError(
            f"fixed mode with m={m} needs {m} percentages (cells with 0..{m - 1} copies; "
            f"the rest get {m}), got {p.size}"
        )
    if not np.all(np.isfinite(p)) or p.min() < 0 or p.max() > 100:
        raise ValueError(f"percentages must lie in 0..100, got {p.tolist()}")
    if p.sum() > 100 + _PERCENT_SLACK:
        raise ValueError(f"percentages must sum to at most 100, got {p.sum():g}")
    return tuple(float(x) for x in p)


def _weights(regime_weights) -> tuple:
    """The mixed mode's regime weights as a checked tuple."""
    w = np.asarray(regime_weights, dtype=np.float64).ravel()
    if w.size != len(config.REGIME_RANGES):
        raise ValueError(f"regime_weights needs {len(config.REGIME_RANGES)} numbers, got {w.size}")
    if not np.all(np.isfinite(w)) or w.min() < 0 or w.sum() <= 0:
        raise ValueError(f"regime_weights must be non-negative with a positive sum, got {w}")
    return tuple(float(x) for x in w)
