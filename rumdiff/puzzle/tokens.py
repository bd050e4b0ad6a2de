"""Tiles of puzzle lines, read by compiled kernels: the fast paths of
``rumdiff.puzzle.files``, which fall back to a token-by-token reader that names the bad
tile, or reads jokers and the table mark.

:func:`fast_tiles` reads one line of tiles; :func:`fast_puzzles` reads whole puzzles,
count lines and tile lines, from a file's buffer at once.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from rumdiff import config

__all__ = ["colour_lookup", "fast_puzzles", "fast_tiles", "puzzle_scratch"]


def colour_lookup(letters: str) -> np.ndarray:
    """Colour index of each byte; -1 for a byte that is not a colour letter."""
    lookup = np.full(256, -1, dtype=np.int64)
    lookup[np.frombuffer(letters.encode("ascii"), dtype=np.uint8)] = np.arange(len(letters))
    return lookup


def fast_tiles(line: str, colour_of: np.ndarray, n: int):
    """Values and colours of a line made only of well-formed tiles of values 1..n
    (``7b 12r``); None if it holds anything else.

    ``colour_of`` is :func:`colour_lookup` of the file's colour letters.
    """
    raw = np.frombuffer(line.encode("utf-8", "replace"), dtype=np.uint8)
    size = raw.shape[0] // 2 + 1
    values = np.empty(size, np.int64)
    colours = np.empty(size, np.int64)
    count = _kernels().read_tiles(raw, colour_of, n, values, colours)
    if count < 0:
        return None
    # Copies: a view would keep the buffers, sized for the line, alive with the record.
    return values[:count].copy(), colours[:count].copy()


def puzzle_scratch(game, wanted: int):
    """Scratch for :func:`fast_puzzles`: room for ``wanted`` puzzles of ``game``, kept
    from one call to the next (fresh memory costs a page fault a page)."""
    return (
        np.empty((wanted, game.n, game.k), np.int8),
        np.empty((wanted, game.n, game.k), np.int8),
        np.empty((wanted, 3), np.int64),
    )


def fast_puzzles(data: bytes, at: int, game, colour_of: np.ndarray, scratch):
    """Whole, well-formed puzzles of ``game`` read from ``data[at:]``, as many as
    ``scratch`` (:func:`puzzle_scratch`) holds at most.

    A puzzle is its tile-count line and its tile line (tiles, jokers and a table mark),
    each ending in LF or CRLF. Reading stops before the first puzzle ``data`` does not
    hold whole, or that breaks any rule of the file format (``_tokens.read_puzzle_lines``
    lists what is read): the token-by-token reader reads that one, and names its
    problem.

    Returns
    -------
    tuple or None
        ``(copies, table, counts, end)``: the puzzles' tiles as an int8 array of shape
        (puzzles, n, k); those after the table mark, of the same shape, or None when no
        puzzle has one; per puzzle its rack's jokers, its table's jokers and 1 if it has
        a mark, as lists; and the position after the puzzles. None when none was read.
    """
    copies, table, counts = scratch
    raw = np.frombuffer(data, dtype=np.uint8)
    most = game.tiles + game.jokers
    line_bytes = config.PUZZLE_LINE_BYTES
    done, end = _kernels().read_puzzle_lines(
        raw, at, colour_of, game.n, game.m, most, game.jokers, line_bytes, copies, table, counts
    )
    if done == 0:
        return None
    counts = counts[:done]
    marks = counts[:, 2].astype(bool)
    if marks.any():
        table = table[:done].copy()
        table[~marks] = 0  # (rows without a mark are not written)
    else:
        table = None
    return copies[:done].copy(), table, counts.tolist(), end


@cache
def _kernels():
    """The kernels' module, imported on first use: importing the package imports no
    numba, and an import statement in :func:`fast_tiles` would cost every line a few us."""
    from rumdiff.puzzle import _tokens

    return _tokens
