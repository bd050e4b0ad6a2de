"""Rummikub puzzles as count matrices.

A puzzle G(k, m, n) is a multiset of tiles in k colours with values 1..n and at most
m copies of each (colour, value). We store it as an ``(n, k)`` integer matrix
``copies`` whose row ``v - 1`` holds the number of copies of value ``v`` in each
colour. Many puzzles of the same shape stack into one ``(puzzles, n, k)`` array.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rumdiff import config
from rumdiff.validation import check_kmn

__all__ = ["Puzzle", "Puzzles", "as_copies", "as_stack"]


def as_copies(copies, m: int) -> np.ndarray:
    """``copies`` as a C-contiguous int8 array of whole numbers 0..m, any shape of >= 2 axes.

    Raises
    ------
    ValueError
        On fewer than two axes, a non-numeric, boolean or complex dtype, or values that
        are not whole numbers in 0..m.
    """
    array = np.asarray(copies)
    if array.ndim < 2:
        raise ValueError(f"copies must have shape (n, k), got {array.shape}")
    if array.dtype == bool or not np.issubdtype(array.dtype, np.number) or np.iscomplexobj(array):
        raise ValueError(f"copies must be whole numbers (integers), got dtype {array.dtype}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        if not np.all(np.isfinite(array)) or not np.all(np.equal(np.mod(array, 1), 0)):
            raise ValueError("copies must be whole numbers")
    if array.size and (array.min() < 0 or array.max() > m):
        raise ValueError(f"copies must lie in 0..{m}, got {array.min()}..{array.max()}")
    return np.ascontiguousarray(array, dtype=np.int8)


@dataclass(frozen=True, eq=False)
class Puzzle:
    """One Rummikub puzzle G(k, m, n).

    Parameters
    ----------
    copies : array_like of shape (n, k)
        ``copies[v - 1, c]`` is the number of tiles of value ``v`` and colour ``c``.
    m : int
        Largest number of copies allowed per (colour, value).
    """

    copies: np.ndarray
    m: int = config.M
    k: int = field(init=False)
    n: int = field(init=False)

    def __post_init__(self):
        copies = as_copies(self.copies, self.m)
        if copies.ndim != 2:
            raise ValueError(f"copies must have shape (n, k), got {copies.shape}")
        n, k = copies.shape
        check_kmn(k, self.m, n)
        copies.setflags(write=False)
        object.__setattr__(self, "copies", copies)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "n", n)

    @classmethod
    def from_tiles(cls, tiles, *, k: int = config.K, m: int = config.M, n: int = config.N):
        """Build a puzzle from ``(value, colour)`` pairs (colour an index 0..k-1)."""
        copies = np.zeros((n, k), dtype=np.int64)
        for value, colour in tiles:
            if not 1 <= value <= n:
                raise ValueError(f"value {value} outside 1..{n}")
            if not 0 <= colour < k:
                raise ValueError(f"colour {colour} outside 0..{k - 1}")
            copies[value - 1, colour] += 1
        return cls(copies, m=m)

    @property
    def values(self) -> np.ndarray:
        """Tile values 1..n, one per row of ``copies``."""
        return np.arange(1, self.n + 1)

    @property
    def tiles(self) -> int:
        """Number of tiles in the puzzle."""
        return int(self.copies.sum())

    @property
    def points(self) -> int:
        """Sum of the values of all tiles: the score if every tile were placed."""
        return int(self.copies.sum(axis=1, dtype=np.int64) @ self.values)

    def tile_list(self) -> list[tuple[int, int]]:
        """All tiles as ``(value, colour)`` pairs, sorted by value then colour."""
        out = []
        for v in range(self.n):
            for c in range(self.k):
                out.extend([(v + 1, c)] * int(self.copies[v, c]))
        return out

    def key(self) -> bytes:
        """Bytes that identify the puzzle's tiles (equal puzzles, equal keys)."""
        return self.copies.tobytes()

    def __eq__(self, other) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (
            self.m == other.m
            and self.copies.shape == other.copies.shape
            and bool(np.array_equal(self.copies, other.copies))
        )

    def __hash__(self) -> int:
        return hash((self.m, self.copies.shape, self.key()))

    def __repr__(self) -> str:
        return f"Puzzle(k={self.k}, m={self.m}, n={self.n}, tiles={self.tiles})"


@dataclass(frozen=True, eq=False)
class Puzzles:
    """Many puzzles of the same shape, stacked as one ``(puzzles, n, k)`` array.

    Parameters
    ----------
    copies : ndarray of shape (puzzles, n, k)
        Copies per puzzle, value and colour.
    m : int
        Largest number of copies allowed per (colour, value).
    source : str, optional
        Where the puzzles came from (a file name), for messages and metadata.
    """

    copies: np.ndarray
    m: int = config.M
    source: str = ""

    def __post_init__(self):
        copies = as_copies(self.copies, self.m)
        if copies.ndim != 3:
            raise ValueError(f"copies must have shape (puzzles, n, k), got {copies.shape}")
        check_kmn(copies.shape[2], self.m, copies.shape[1])
        copies.setflags(write=False)
        object.__setattr__(self, "copies", copies)

    @classmethod
    def from_list(cls, puzzles, *, source: str = ""):
        """Stack a non-empty list of :class:`Puzzle` of one shape and one m."""
        puzzles = list(puzzles)
        if not puzzles:
            raise ValueError("from_list needs at least one puzzle; use Puzzles.empty")
        shapes = {(p.copies.shape, p.m) for p in puzzles}
        if len(shapes) != 1:
            raise ValueError(f"puzzles differ in shape or m: {sorted(shapes)}")
        return cls(np.stack([p.copies for p in puzzles]), m=puzzles[0].m, source=source)

    @classmethod
    def empty(cls, *, k: int, m: int, n: int, source: str = ""):
        """No puzzles, but a known shape."""
        return cls(np.zeros((0, n, k), dtype=np.int8), m=m, source=source)

    @property
    def k(self) -> int:
        return self.copies.shape[2]

    @property
    def n(self) -> int:
        return self.copies.shape[1]

    def __len__(self) -> int:
        return self.copies.shape[0]

    def __getitem__(self, index: int) -> Puzzle:
        return Puzzle(self.copies[index], m=self.m)

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

    def __repr__(self) -> str:
        return f"Puzzles({len(self)} x G({self.k}, {self.m}, {self.n}))"


def as_stack(copies, *, m: int) -> np.ndarray:
    """Check puzzles and return them as a C-contiguous ``(puzzles, n, k)`` int8 stack.

    Parameters
    ----------
    copies : Puzzles, Puzzle or array_like of shape (puzzles, n, k)
        Whole numbers 0..m. A single ``(n, k)`` puzzle must be a :class:`Puzzle`.
    m : int
        Most copies of a tile; must match the puzzles' own m when they carry one.

    Raises
    ------
    ValueError
        On a wrong shape, values outside 0..m, unsupported k, m or n, or an m that
        contradicts the puzzles'.
    """
    if isinstance(copies, (Puzzles, Puzzle)):
        if copies.m != m:
            raise ValueError(f"the puzzles have m={copies.m}, but m={m} was given")
        array = copies.copies
        if isinstance(copies, Puzzle):
            array = array[None]
    else:
        array = np.asarray(copies)  # Puzzles checks the values
    if array.ndim != 3:
        raise ValueError(f"copies must have shape (puzzles, n, k), got {array.shape}")
    return Puzzles(array, m=m).copies
