"""Puzzle files read in bounded blocks, or checked whole without being kept.

:func:`iter_puzzles` reads a file in blocks of one shape, holding one block at a time;
:func:`stream_puzzles` reads an input that can be read only once (standard input, a
pipe, a device) as it comes, block by block, never copying it aside; :func:`scan_puzzles`
checks a whole file and says the shape to read it with. Each reads the file's header
(``rumdiff.puzzle.header``) first: k, m and n not given come from it, else from the
defaults each names; the readers' objects say which they settled on.
"""

from __future__ import annotations

from typing import NamedTuple

from rumdiff import config
from rumdiff.puzzle.files import _open_records, _stack

__all__ = ["FileShape", "PuzzleBlocks", "iter_puzzles", "scan_puzzles", "stream_puzzles"]


class PuzzleBlocks:
    """The puzzles of a file in blocks, read front to back once; its header is read.

    An iterator of :class:`~rumdiff.puzzle.Puzzles`, in file order, made by
    :func:`iter_puzzles` and :func:`stream_puzzles`. A malformed file raises when the
    reader reaches the problem, after the blocks before it were yielded.

    Attributes
    ----------
    k, m, n : int or None
        The shape the puzzles are read with: given, else the file's header, else the
        reader's default. k and n are None when each block takes its own from its
        puzzles (:func:`stream_puzzles` given neither them nor a header).
    header : tuple of int or None
        The header's ``(k, m, n)``, or None when the file has none.
    name : str
        What messages call the file.
    """

    def __init__(self, blocks, *, shape: tuple, header: tuple | None, name: str):
        self.k, self.m, self.n = shape
        self.header = header
        self.name = name
        self._blocks = blocks

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._blocks)

    def __repr__(self) -> str:
        return f"PuzzleBlocks({self.name!r}, k={self.k}, m={self.m}, n={self.n})"


def iter_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None,
    cells: int = config.PUZZLE_BLOCK_CELLS, name=None,
    defaults: tuple[int, int, int] = (config.K, config.M, config.N),
) -> PuzzleBlocks:  # fmt: skip
    """Read a puzzle file in blocks of puzzles, holding one block at a time.

    Each block holds about ``cells`` cells (``cells // (n * k)`` puzzles, at least one),
    so memory follows the block, not the file. The file is opened and its header read
    at once; a malformed puzzle raises when the reader reaches it, after the blocks
    before it were yielded: commit outputs only once the blocks are exhausted.

    Parameters
    ----------
    path : str or path-like
        The file; ``-`` is standard input.
    k, m, n : int, optional
        The puzzles' shape; None: the header's, else ``defaults``.
    cells : int
        Cells (values x colours) a block holds, about.
    name : str, optional
        What messages call the file (default: ``path``).
    defaults : tuple of int
        The ``(k, m, n)`` for those neither given nor in the header (default: ``config.K``,
        ``config.M``, ``config.N``).

    Returns
    -------
    PuzzleBlocks
        Blocks of shape G(k, m, n), its attributes.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed, or a value given differs from the
        header's.
    """
    name = str(path) if name is None else name
    opened = _open_records(path, name, (k, m, n), defaults)
    return PuzzleBlocks(
        _fixed_blocks(opened.records, name, opened.shape, cells),
        shape=opened.shape, header=opened.header, name=name,
    )  # fmt: skip


def _fixed_blocks(records, name: str, shape: tuple, cells: int):
    k, m, n = shape
    size = max(1, cells // (n * k))
    block = []
    for record in records:
        block.append(record)
        if len(block) == size:
            yield _stack(block, name, k=k, m=m, n=n)
            block = []
    if block:
        yield _stack(block, name, k=k, m=m, n=n)


def stream_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None,
    cells: int = config.PUZZLE_BLOCK_CELLS, name=None,
) -> PuzzleBlocks:  # fmt: skip
    """Read a puzzle file once, front to back, in blocks: for standard input and pipes,
    which cannot be read twice (and are never copied whole anywhere).

    As :func:`iter_puzzles`, but k and n not given nor in the header stay None: each
    block then takes the defaults of :func:`~rumdiff.puzzle.read_puzzles` from its own
    puzzles, so blocks may differ in shape. m defaults to ``config.M``. A block holds
    about ``cells`` cells at the largest value read so far.

    Returns
    -------
    PuzzleBlocks
    """
    name = str(path) if name is None else name
    opened = _open_records(path, name, (k, m, n))
    return PuzzleBlocks(
        _streamed_blocks(opened.records, name, opened.shape, cells),
        shape=opened.shape, header=opened.header, name=name,
    )  # fmt: skip


def _streamed_blocks(records, name: str, shape: tuple, cells: int):
    k, m, n = shape
    block, held = [], 0
    for record in records:
        block.append(record)
        values = record[1]
        held = max(held, int(values.max()) if values.size else 1)
        if len(block) * held * (k or config.MAX_K) >= cells:
            yield _stack(block, name, k=k, m=m, n=n)
            block, held = [], 0
    if block:
        yield _stack(block, name, k=k, m=m, n=n)


class FileShape(NamedTuple):
    """What :func:`scan_puzzles` finds: the shape to read a file with, and its puzzles."""

    k: int
    m: int
    n: int
    count: int


def scan_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None, name=None
) -> FileShape:
    """Check a whole puzzle file without keeping it; return the shape it implies.

    Given k, m or n, or a header, every tile is checked against them too. Messages call
    the file ``name`` (default: ``path``).

    Returns
    -------
    FileShape
        ``k``, ``m``, ``n``: as given, else the header's, else the defaults of
        :func:`~rumdiff.puzzle.read_puzzles` (k the colours up to the last letter used,
        at least 4; m ``config.M``; n the largest value); ``count``, the number of
        puzzles. The shape is what :func:`iter_puzzles` takes.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed, or a value given differs from the
        header's.
    """
    name = str(path) if name is None else name
    opened = _open_records(path, name, (k, m, n))
    k, m, n = opened.shape
    seen_k, seen_n, count = k or config.K, n or 1, 0
    for record in opened.records:
        alone = _stack([record], name, k=k, m=m, n=n)  # checks its values and copies
        seen_k, seen_n, count = max(seen_k, alone.k), max(seen_n, alone.n), count + 1
    return FileShape(seen_k, m, seen_n, count)
