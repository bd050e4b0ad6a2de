"""Puzzle files read once, front to back: standard input, pipes and devices.

:func:`stream_puzzles` reads such an input as it comes, block by block, never copying it
aside, for the commands that cannot read it twice (``rumdiff solve -``).
"""

from __future__ import annotations

from rumdiff import config
from rumdiff.puzzle.files import _check_shape, _file_records, _stack

__all__ = ["stream_puzzles"]


def stream_puzzles(
    path, *, k: int | None = None, m: int = config.M, n: int | None = None,
    cells: int = config.PUZZLE_BLOCK_CELLS, name=None,
):  # fmt: skip
    """Read a puzzle file once, front to back, in blocks: for standard input and pipes,
    which cannot be read twice (and are never copied whole anywhere).

    As :func:`iter_puzzles`, but k and n may be None: each block then takes the
    defaults of :func:`read_puzzles` from its own puzzles, so blocks may differ in shape.
    A block holds about ``cells`` cells at the largest value read so far.

    Yields
    ------
    Puzzles
    """
    path = str(path)
    name = path if name is None else name
    _check_shape(name, k, m, n)
    block, held = [], 0
    for record in _file_records(path, k=k, m=m, n=n, name=name):
        block.append(record)
        values = record[1]
        held = max(held, int(values.max()) if values.size else 1)
        if len(block) * held * (k or config.MAX_K) >= cells:
            yield _stack(block, name, k=k, m=m, n=n)
            block, held = [], 0
    if block:
        yield _stack(block, name, k=k, m=m, n=n)
