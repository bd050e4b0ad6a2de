"""Puzzle files read in bounded blocks, or checked whole without being kept.

:func:`iter_puzzles` reads a file in blocks, holding one block at a time, and
:func:`stream_puzzles` reads an input that can be read only once (standard input, a
pipe, a device) the same way, never copying it aside; :func:`scan_puzzles` checks a whole
file and counts its puzzles. Each reads the file's header first and settles the game by
the one rule of ``rumdiff.puzzle.files`` (the header's, else the default game with the
k, m and n given in its place): a file and a stream of the same text are read alike.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from rumdiff import config
from rumdiff.puzzle.files import _all_records, _open_records, _stack
from rumdiff.puzzle.game import Game

__all__ = ["FileShape", "PuzzleBlocks", "iter_puzzles", "scan_puzzles", "stream_puzzles"]


class PuzzleBlocks:
    """The puzzles of a file in blocks, read front to back once; its header is read.

    An iterator of :class:`~rumdiff.puzzle.Puzzles`, in file order, made by
    :func:`iter_puzzles` and :func:`stream_puzzles`. A malformed file raises when the
    reader reaches the problem, after the blocks before it were yielded.

    Attributes
    ----------
    game : Game
        The game every puzzle is read as (its header's, else the default one).
    header : bool
        Whether the file's header named the game.
    k, m, n : int
        The game's.
    name : str
        What messages call the file.
    """

    def __init__(self, blocks, *, game: Game, header: bool, name: str):
        self.game = game
        self.header = header
        self.k, self.m, self.n = game.k, game.m, game.n
        self.name = name
        self._blocks = blocks

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._blocks)

    def __repr__(self) -> str:
        return f"PuzzleBlocks({self.name!r}, {self.game})"


def iter_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None,
    meld: int | None = None, cells: int = config.PUZZLE_BLOCK_CELLS, name=None,
) -> PuzzleBlocks:  # fmt: skip
    """Read a puzzle file in blocks of puzzles, holding one block at a time.

    Each block holds about ``cells`` cells (``cells // (n * k)`` puzzles, at least one),
    so memory follows the block, not the file. The file is opened and its header read
    at once; a malformed puzzle raises when the reader reaches it, after the blocks
    before it were yielded: commit outputs only once the blocks are exhausted. Standard
    input (``-``), a pipe or a device is read the same way, once, as it comes.

    Parameters
    ----------
    path : str or path-like
        The file; ``-`` is standard input.
    k, m, n : int, optional
        The game's k, m and n where the file has no header (with one, they must agree);
        None: the header's, else the default game's.
    meld : int, optional
        The points of an opening meld, as :func:`~rumdiff.puzzle.parse_puzzles` takes it.
    cells : int
        Cells (values x colours) a block holds, about.
    name : str, optional
        What messages call the file (default: ``path``).

    Returns
    -------
    PuzzleBlocks

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed, or a value given differs from the
        header's.
    """
    name = str(path) if name is None else name
    opened = _open_records(path, name, {"k": k, "m": m, "n": n, "meld": meld})
    return PuzzleBlocks(
        _blocks(opened.records, name, opened.game, cells),
        game=opened.game, header=opened.header, name=name,
    )  # fmt: skip


#: A stream is read as a file is: its game is settled before its first puzzle.
stream_puzzles = iter_puzzles


def _blocks(records, name: str, game: Game, cells: int):
    size = max(1, cells // (game.n * game.k))
    records = iter(records)
    while block := _all_records(itertools.islice(records, size), name, game):
        yield _stack(block, name, game)


class FileShape(NamedTuple):
    """What :func:`scan_puzzles` finds: the game to read a file with, and its puzzles."""

    game: Game
    header: bool
    count: int

    @property
    def k(self) -> int:
        return self.game.k

    @property
    def m(self) -> int:
        return self.game.m

    @property
    def n(self) -> int:
        return self.game.n


def scan_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None,
    meld: int | None = None, cells: int = config.PUZZLE_BLOCK_CELLS, name=None,
) -> FileShape:  # fmt: skip
    """Check a whole puzzle file without keeping it: the game it is read as (as
    :func:`iter_puzzles` reads it), whether its header said so, and its puzzles' number.

    Messages call the file ``name`` (default: ``path``). The puzzles are checked in blocks
    of about ``cells`` count cells, one block held at a time, as :func:`iter_puzzles`
    reads them.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed, or a value given differs from the
        header's.
    """
    name = str(path) if name is None else name
    opened = _open_records(path, name, {"k": k, "m": m, "n": n, "meld": meld})
    blocks = _blocks(opened.records, name, opened.game, cells)
    count = sum(len(block) for block in blocks)  # (each block checked, then dropped)
    return FileShape(opened.game, opened.header, count)
