"""Tiles of a puzzle line, read by a compiled kernel: the fast path of
``rumdiff.puzzle.files``, which falls back to a token-by-token reader that names the bad
tile, or reads jokers and the table mark."""

from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["colour_lookup", "fast_tiles"]


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
    count = _read_tiles()(raw, colour_of, n, values, colours)
    if count < 0:
        return None
    # Copies: a view would keep the buffers, sized for the line, alive with the record.
    return values[:count].copy(), colours[:count].copy()


@cache
def _read_tiles():
    """The kernel, imported on first use: importing the package imports no numba, and an
    import statement in :func:`fast_tiles` would cost every line a few us."""
    from rumdiff.puzzle._tokens import read_tiles

    return read_tiles
