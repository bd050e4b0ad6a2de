"""Real-game turns: a table of valid sets and a rack, drawn from one game's tiles.

The game's box holds m copies of every tile of G(k, m, n) and ``jokers`` jokers. A turn
lays ``sets`` valid sets on the table (runs of 3-5 tiles when n >= 3 and groups of 3..k
colours when k >= 3, each tile drawn from what the box still holds, and each joker of
the box put in place of a table tile with probability one half), then deals the rack
from what is left, jokers included. Such a table is always placeable, since the sets
themselves place it.

:func:`generate_turns` draws a run of them for ``rumdiff generate --mode turn``: turn
``i`` of seed ``s`` comes from its own stream ``SeedSequence(s, spawn_key=(2, i, a))``
(attempt ``a`` = 0, or the redraw of a duplicate), with ``config.TURN_SETS`` sets and a
rack of ``config.TURN_RACK``; so a turn does not depend on how a run is split.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Game, Puzzle

__all__ = ["REAL_GAME", "draw_turn", "generate_turns", "turn_keys"]

#: The real game: 4 colours, values 1..13, two copies of each, two jokers.
REAL_GAME = Game(4, 2, 13, jokers=2)
#: First spawn-key entry of the turn streams (the generator uses 0 and 1).
_TURN_STREAM = 2
#: Tries to lay one more set before giving up on a box too empty for it.
_TRIES = 200


def _draw_set(rng, box: np.ndarray, k: int, n: int) -> list[tuple[int, int]] | None:
    """The tiles of one random valid set the box holds, or None."""
    if rng.random() < 0.5:
        if n < config.S:  # no run fits
            return None
        colour = int(rng.integers(k))
        length = int(rng.integers(config.S, min(5, n) + 1))
        start = int(rng.integers(1, n - length + 2))
        tiles = [(v, colour) for v in range(start, start + length)]
    else:
        if k < config.S:
            return None
        value = int(rng.integers(1, n + 1))
        size = int(rng.integers(config.S, k + 1))
        tiles = [(value, int(c)) for c in rng.choice(k, size=size, replace=False)]
    if all(box[v - 1, c] > 0 for v, c in tiles):
        return tiles
    return None


def draw_turn(rng, game: Game = REAL_GAME, *, jokers: int = 2, sets: int = 6,
              rack: int = 14) -> Puzzle:  # fmt: skip
    """A seeded random turn: ``sets`` valid sets on the table and ``rack`` rack tiles.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    game : Game, default REAL_GAME
        The game G(k, m, n) whose box the turn is dealt from; its own jokers are not
        read (``jokers`` says how many the box holds).
    jokers : int
        Jokers in the box (the real game has 2): the most the turn's game holds
        (without any, the plain game G(k, m, n), as
        :func:`rumdiff.data.generator.generate`'s).
    sets : int
        Sets on the table (fewer if the box runs out of them).
    rack : int
        Tiles dealt to the rack, jokers included (fewer if the box runs out).
    """
    k, m, n = game.k, game.m, game.n
    box = np.full((n, k), m, dtype=np.int64)
    table = np.zeros((n, k), dtype=np.int64)
    spare = jokers  # jokers still in the box
    on_table = 0
    laid = 0
    for _ in range(_TRIES):
        if laid == sets:
            break
        tiles = _draw_set(rng, box, k, n)
        if tiles is None:
            continue
        laid += 1
        for v, c in tiles:
            if spare and rng.random() < 0.5:
                spare -= 1
                on_table += 1
                continue  # a joker stands for this tile; the tile stays in the box
            box[v - 1, c] -= 1
            table[v - 1, c] += 1
    pool = np.concatenate([np.repeat(np.arange(n * k), box.ravel()), np.full(spare, -1)])
    dealt = rng.choice(pool, size=min(rack, pool.size), replace=False)
    hand = np.bincount(dealt[dealt >= 0], minlength=n * k).reshape(n, k)
    # The game holds the box's jokers, so that a file of turns reads back as drawn;
    # without jokers it is the plain game, whose header has never named any.
    return Puzzle(
        table + hand,
        jokers=on_table + int((dealt < 0).sum()),
        table=table,
        table_jokers=on_table,
        game=Game.drawn_with(k, m, n, jokers),
    )


def turn_keys(puzzles) -> list[bytes]:
    """Keys of turns for uniqueness: equal turns of one shape have equal keys."""
    from rumdiff.puzzle import encode_games

    return [text.encode("ascii") for text in encode_games(puzzles)]


def generate_turns(count: int, game: Game, *, jokers: int, seed: int, start: int = 0,
                   seen: set | None = None):  # fmt: skip
    """Turns ``start .. start + count - 1`` of the game's run ``seed``, all distinct;
    see the module docstring. ``jokers`` are the box's (:func:`draw_turn`). Returns
    ``(puzzles, shares, redraws)``: a :class:`~rumdiff.puzzle.Puzzles`, the share of
    cells with 0..m copies of each turn (what it holds, not what it was drawn with) and
    the redraws of each."""
    from rumdiff.puzzle import Puzzles

    low, high = config.TURN_SETS
    seen = set() if seen is None else seen
    turns, redraws = [], np.zeros(count, dtype=np.int32)
    for j in range(count):
        for attempt in range(config.TURN_REDRAWS + 1):
            stream = np.random.SeedSequence(seed, spawn_key=(_TURN_STREAM, start + j, attempt))
            rng = np.random.default_rng(stream)
            sets = int(rng.integers(low, high + 1))
            turn = draw_turn(rng, game, jokers=jokers, sets=sets, rack=config.TURN_RACK)
            key = turn_keys(Puzzles.from_list([turn]))[0]
            if key not in seen:
                break
        else:
            raise ValueError(
                f"turn {start + j}: still a duplicate after {config.TURN_REDRAWS} redraws"
            )
        seen.add(key)
        redraws[j] = attempt
        turns.append(turn)
    if not turns:
        drawn = Game.drawn_with(game.k, game.m, game.n, jokers)  # a turn's (draw_turn)
        return Puzzles.empty(drawn), np.zeros((0, game.m + 1)), redraws
    puzzles = Puzzles.from_list(turns, source=f"generate(mode='turn', seed={seed})")
    cells = puzzles.copies.reshape(count, -1)
    shares = np.stack([(cells == c).mean(axis=1) for c in range(game.m + 1)], axis=1)
    return puzzles, shares, redraws
