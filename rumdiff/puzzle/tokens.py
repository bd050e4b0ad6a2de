"""Tiles of a puzzle line, read vectorised: the fast path of ``rumdiff.puzzle.files``,
which falls back to a token-by-token reader that names the bad tile."""

from __future__ import annotations

import re

import numpy as np

__all__ = ["colour_lookup", "fast_tiles"]

#: A whole line of well-formed tiles, for the vectorised fast path.
_TILES = re.compile(r"[0-9]{1,9}[a-z](?: [0-9]{1,9}[a-z])*")
_LETTERS_TO_SPACES = str.maketrans({chr(c): " " for c in range(ord("a"), ord("z") + 1)})
_KEEP_LETTERS = str.maketrans({c: None for c in "0123456789 "})


def colour_lookup(letters: str) -> np.ndarray:
    """Colour index of each ASCII code; -1 for a letter that is not a colour."""
    lookup = np.full(256, -1, dtype=np.int64)
    lookup[np.frombuffer(letters.encode("ascii"), dtype=np.uint8)] = np.arange(len(letters))
    return lookup


def fast_tiles(fields, colour_of: np.ndarray, n: int | None):
    """Values and colours of well-formed tiles, vectorised; None if any tile is bad.

    ``colour_of`` is :func:`colour_lookup` of the file's colour letters.
    """
    if not fields:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    joined = " ".join(fields)
    if not _TILES.fullmatch(joined):
        return None
    values = np.array(joined.translate(_LETTERS_TO_SPACES).split(), dtype=np.int64)
    codes = np.frombuffer(joined.translate(_KEEP_LETTERS).encode("ascii"), dtype=np.uint8)
    colours = colour_of[codes]
    if colours.min() < 0 or values.min() < 1 or (n is not None and values.max() > n):
        return None
    return values, colours
