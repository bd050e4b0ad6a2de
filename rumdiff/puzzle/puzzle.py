"""Rummikub puzzles as count matrices.

A puzzle G(k, m, n) is a multiset of tiles in k colours with values 1..n and at most
m copies of each (colour, value). We store it as an ``(n, k)`` integer matrix
``copies`` whose row ``v - 1`` holds the number of copies of value ``v`` in each
colour. Many puzzles of the same shape stack into one ``(puzzles, n, k)`` array.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from rumdiff import config
from rumdiff.puzzle.game import MELD_POINTS, Game
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
    if array.dtype.kind not in "iu":  # integers, the usual case, need no dtype checks (us)
        dtype = array.dtype
        if dtype.kind == "b" or not np.issubdtype(dtype, np.number) or np.iscomplexobj(array):
            raise ValueError(f"copies must be whole numbers (integers), got dtype {dtype}")
        if array.size and not (np.all(np.isfinite(array)) and np.all(np.mod(array, 1) == 0)):
            raise ValueError("copies must be whole numbers")
    if array.size and (array.min() < 0 or array.max() > m):
        raise ValueError(f"copies must lie in 0..{m}, got {array.min()}..{array.max()}")
    return np.ascontiguousarray(array, dtype=np.int8)


def _count_jokers(name: str, value) -> int:
    """``value`` as a joker count 0..config.MAX_JOKERS, or ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if not 0 <= value <= config.MAX_JOKERS:
        raise ValueError(f"{name} must lie in 0..{config.MAX_JOKERS}, got {value}")
    return int(value)


def _settle_m(m, game) -> int:
    """A puzzle's m: the one given, the game's, or ``config.M``; given both, they agree."""
    if game is not None and not isinstance(game, Game):
        raise TypeError(f"game must be a Game, got {type(game).__name__}")
    if game is not None and m is not None and m != game.m:
        raise ValueError(f"m={m} was given, but the game is {game}")
    return game.m if game is not None else config.M if m is None else m


def _settle_game(game, k: int, m: int, n: int) -> Game:
    """A puzzle's game: the one given, whose k and n must be the copies' shape's, else
    G(k, m, n) of that shape."""
    if game is None:
        return Game(k, m, n)
    if (game.k, game.n) != (k, n):
        raise ValueError(f"copies of shape (n, k) = {(n, k)} are not of the game {game}")
    return game


@dataclass(frozen=True, eq=False)
class Puzzle:
    """One Rummikub puzzle G(k, m, n), with jokers and a table if it has them.

    Parameters
    ----------
    copies : array_like of shape (n, k)
        ``copies[v - 1, c]`` is the number of regular tiles of value ``v`` and colour
        ``c``, rack and table together.
    m : int, optional
        Largest number of copies allowed per (colour, value): the game's (default
        ``config.M`` without a game).
    jokers : int, default 0
        Jokers, rack and table together (at most the game's). A joker stands for any
        tile of G(k, m, n) and scores 0.
    table : array_like of shape (n, k), optional
        The regular tiles on the table (at most ``copies``): every one must be placed.
        None: no table tiles.
    table_jokers : int, default 0
        The jokers on the table (at most ``jokers``): every one must be placed.
    game : Game, optional
        The game the puzzle belongs to (its k and n are the shape of ``copies``; its
        rules, such as the opening meld, travel with it). None: G(k, m, n) of the copies'
        shape, with no rule beyond the papers'.
    """

    copies: np.ndarray
    m: int | None = None
    jokers: int = 0
    table: np.ndarray | None = None
    table_jokers: int = 0
    game: Game | None = None
    k: int = field(init=False)
    n: int = field(init=False)

    def __post_init__(self):
        m = _settle_m(self.m, self.game)
        copies = as_copies(self.copies, m)
        if copies.ndim != 2:
            raise ValueError(f"copies must have shape (n, k), got {copies.shape}")
        n, k = copies.shape
        if self.game is None or (self.game.k, self.game.n) != (k, n):
            check_kmn(k, m, n)  # (a game's own k, m and n were checked when it was made)
        game = _settle_game(self.game, k, m, n)
        copies.setflags(write=False)
        object.__setattr__(self, "copies", copies)
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "n", n)
        jokers = _count_jokers("jokers", self.jokers)
        table_jokers = _count_jokers("table_jokers", self.table_jokers)
        if table_jokers > jokers:
            raise ValueError(f"table_jokers={table_jokers} exceeds jokers={jokers}")
        if jokers > game.jokers:
            raise ValueError(f"{jokers} jokers, but a puzzle of {game} holds at most {game.jokers}")
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "table_jokers", table_jokers)
        table = self.table
        if table is not None:
            table = as_copies(table, m)
            if table.shape != copies.shape:
                raise ValueError(f"table must have shape {copies.shape}, got {table.shape}")
            if (table > copies).any():
                raise ValueError("the table holds tiles that copies lacks")
            if table.any():
                table.setflags(write=False)
            else:
                table = None  # an empty table is no table: one form per puzzle
        object.__setattr__(self, "table", table)

    @classmethod
    def from_tiles(
        cls,
        tiles,
        *,
        k: int = config.K,
        m: int = config.M,
        n: int = config.N,
        jokers: int = 0,
        table=(),
        game: Game | None = None,
    ):
        """Build a puzzle from a rack and a table of tiles.

        Parameters
        ----------
        tiles : iterable
            The rack: ``(value, colour)`` pairs (colour an index 0..k-1), or
            ``config.JOKER`` for a joker.
        k, m, n : int
            The game G(k, m, n), when no ``game`` is given.
        jokers : int, default 0
            More rack jokers, beside any in ``tiles``.
        table : iterable, optional
            The table, in the same form as ``tiles``: every one must be placed.
        game : Game, optional
            The game, with its rules (its k, m and n stand for the ones above).
        """
        if game is not None:
            k, m, n = game.k, game.m, game.n
        copies = np.zeros((n, k), dtype=np.int64)
        on_table = np.zeros((n, k), dtype=np.int64)
        counts = [int(jokers), 0]
        for where, group in ((copies, tiles), (on_table, table)):
            for tile in group:
                if isinstance(tile, str):
                    if tile != config.JOKER:
                        raise ValueError(f"{tile!r} is not a tile (a pair or {config.JOKER!r})")
                    counts[where is on_table] += 1
                    continue
                value, colour = tile
                if not 1 <= value <= n:
                    raise ValueError(f"value {value} outside 1..{n}")
                if not 0 <= colour < k:
                    raise ValueError(f"colour {colour} outside 0..{k - 1}")
                where[value - 1, colour] += 1
        return cls(
            copies + on_table,
            m=m,
            jokers=counts[0] + counts[1],
            table=on_table,
            table_jokers=counts[1],
            game=game,
        )

    def with_meld(self, points: int | None = MELD_POINTS) -> Puzzle:
        """The same tiles as an opening move: in the game with an opening meld of
        ``points`` (None: without one), :meth:`Game.with_meld`."""
        return replace(self, game=self.game.with_meld(points))

    @property
    def plain(self) -> bool:
        """True without jokers and table: the thesis's puzzle."""
        return self.jokers == 0 and self.table is None and self.table_jokers == 0

    @property
    def rack(self) -> np.ndarray:
        """The regular tiles that may stay unplaced: ``copies`` less the table."""
        return self.copies if self.table is None else self.copies - self.table

    @property
    def table_copies(self) -> np.ndarray:
        """The regular tiles that must be placed, zeros without a table."""
        return np.zeros_like(self.copies) if self.table is None else self.table

    @property
    def values(self) -> np.ndarray:
        """Tile values 1..n, one per row of ``copies``."""
        return np.arange(1, self.n + 1)

    @property
    def tiles(self) -> int:
        """Number of regular tiles in the puzzle (jokers not counted)."""
        return int(self.copies.sum())

    @property
    def points(self) -> int:
        """Sum of the values of all tiles: the score if every tile were placed."""
        return int(self.copies.sum(axis=1, dtype=np.int64) @ self.values)

    def tile_list(self) -> list[tuple[int, int]]:
        """All regular tiles as ``(value, colour)`` pairs, sorted by value then colour."""
        out = []
        for v in range(self.n):
            for c in range(self.k):
                out.extend([(v + 1, c)] * int(self.copies[v, c]))
        return out

    def key(self) -> bytes:
        """Bytes that identify the puzzle's tiles (equal puzzles, equal keys)."""
        if self.plain:
            return self.copies.tobytes()
        return b"".join(
            (
                self.copies.tobytes(),
                self.table_copies.tobytes(),
                bytes([self.jokers, self.table_jokers]),
            )
        )

    def __eq__(self, other) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self.game == other.game and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((self.game, self.key()))

    def _repr_svg_(self) -> str | None:
        """The puzzle's table and rack as cards, for Jupyter (rumdiff.puzzle.cards)."""
        from rumdiff.puzzle.cards import panels_svg, puzzle_panel

        return panels_svg([puzzle_panel(self)])

    def __repr__(self) -> str:
        plain_game = str(self.game) == f"G({self.k}, {self.m}, {self.n})"
        extra = "" if plain_game else f", game='{self.game}'"
        if self.jokers:
            extra += f", jokers={self.jokers}"
        if not self.plain and (self.table is not None or self.table_jokers):
            extra += f", table={int(self.table_copies.sum()) + self.table_jokers}"
        return f"Puzzle(k={self.k}, m={self.m}, n={self.n}, tiles={self.tiles}{extra})"


@dataclass(frozen=True, eq=False)
class Puzzles:
    """Many puzzles of the same shape, stacked as one ``(puzzles, n, k)`` array.

    Parameters
    ----------
    copies : ndarray of shape (puzzles, n, k)
        Copies per puzzle, value and colour (rack and table together).
    m : int, optional
        Largest number of copies allowed per (colour, value): the game's (default
        ``config.M`` without a game).
    source : str, optional
        Where the puzzles came from (a file name), for messages and metadata.
    jokers, table_jokers : ndarray of shape (puzzles,), optional
        Jokers per puzzle, and those of them on the table; None: no jokers.
    table : ndarray of shape (puzzles, n, k), optional
        The table's regular tiles per puzzle; None: no puzzle has a table.
    game : Game, optional
        The game every puzzle belongs to (see :class:`Puzzle`).
    """

    copies: np.ndarray
    m: int | None = None
    source: str = ""
    jokers: np.ndarray | None = None
    table: np.ndarray | None = None
    table_jokers: np.ndarray | None = None
    game: Game | None = None

    def __post_init__(self):
        m = _settle_m(self.m, self.game)
        copies = as_copies(self.copies, m)
        if copies.ndim != 3:
            raise ValueError(f"copies must have shape (puzzles, n, k), got {copies.shape}")
        check_kmn(copies.shape[2], m, copies.shape[1])
        game = _settle_game(self.game, copies.shape[2], m, copies.shape[1])
        copies.setflags(write=False)
        object.__setattr__(self, "copies", copies)
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "game", game)
        count = copies.shape[0]
        for name in ("jokers", "table_jokers"):
            array = getattr(self, name)
            if array is not None:
                array = np.asarray(array, dtype=np.int8).reshape(count)
                if array.size and (array.min() < 0 or array.max() > game.jokers):
                    raise ValueError(f"{name} must lie in 0..{game.jokers} ({game})")
                array.setflags(write=False)
                object.__setattr__(self, name, array if array.any() else None)
        if self.table is not None:
            table = as_copies(self.table, m)
            if table.shape != copies.shape or (table > copies).any():
                raise ValueError("table must have the shape of copies and hold no more tiles")
            table.setflags(write=False)
            object.__setattr__(self, "table", table if table.any() else None)
        if self.table_jokers is not None and (
            self.jokers is None or (self.table_jokers > self.jokers).any()
        ):
            raise ValueError("table_jokers exceeds jokers")

    @property
    def plain(self) -> bool:
        """True when no puzzle has jokers or a table."""
        return self.jokers is None and self.table is None

    @property
    def tabled(self) -> np.ndarray:
        """Per puzzle, whether it has a table (tiles or jokers on it)."""
        rows = np.zeros(len(self), dtype=bool)
        if self.table is not None:
            rows |= self.table.reshape(len(self), -1).any(axis=1)
        if self.table_jokers is not None:
            rows |= self.table_jokers > 0
        return rows

    @classmethod
    def from_list(cls, puzzles, *, source: str = ""):
        """Stack a non-empty list of :class:`Puzzle` of one game."""
        puzzles = list(puzzles)
        if not puzzles:
            raise ValueError("from_list needs at least one puzzle; use Puzzles.empty")
        games = {p.game for p in puzzles}
        if len(games) != 1:
            raise ValueError(f"puzzles differ in their game: {sorted(map(str, games))}")
        extra = {}
        if not all(p.plain for p in puzzles):
            extra = {
                "jokers": [p.jokers for p in puzzles],
                "table": np.stack([p.table_copies for p in puzzles]),
                "table_jokers": [p.table_jokers for p in puzzles],
            }
        copies = np.stack([p.copies for p in puzzles])
        return cls(copies, game=puzzles[0].game, source=source, **extra)

    @classmethod
    def empty(cls, game: Game, *, source: str = ""):
        """No puzzles, but a known game."""
        return cls(np.zeros((0, game.n, game.k), dtype=np.int8), game=game, source=source)

    @property
    def k(self) -> int:
        return self.copies.shape[2]

    @property
    def n(self) -> int:
        return self.copies.shape[1]

    def __len__(self) -> int:
        return self.copies.shape[0]

    def __getitem__(self, index):
        """One :class:`Puzzle`, or for a slice the :class:`Puzzles` it selects."""
        if isinstance(index, slice):
            return Puzzles(
                self.copies[index], game=self.game, source=self.source,
                **{name: None if getattr(self, name) is None else getattr(self, name)[index]
                   for name in ("jokers", "table", "table_jokers")},
            )  # fmt: skip
        if self.plain:
            return Puzzle(self.copies[index], game=self.game)
        return Puzzle(
            self.copies[index],
            jokers=0 if self.jokers is None else int(self.jokers[index]),
            table=None if self.table is None else self.table[index],
            table_jokers=0 if self.table_jokers is None else int(self.table_jokers[index]),
            game=self.game,
        )

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

    def __repr__(self) -> str:
        return f"Puzzles({len(self)} x {self.game})"


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
