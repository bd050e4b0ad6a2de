"""Write puzzle files in the thesis's format, extended with jokers and a table (see
``rumdiff.puzzle.files``)."""

from __future__ import annotations

from rumdiff import config
from rumdiff.atomic import atomic_open
from rumdiff.puzzle.header import format_header
from rumdiff.puzzle.puzzle import Puzzles

__all__ = ["format_puzzles", "write_puzzles"]


def _tokens(copies) -> list[str]:
    """The tiles of a count matrix, by value then colour."""
    return [
        f"{v + 1}{config.COLOURS[c]}"
        for v in range(copies.shape[0])
        for c in range(copies.shape[1])
        for _ in range(int(copies[v, c]))
    ]


def format_puzzles(puzzles: Puzzles, *, header: bool = False) -> str:
    """The text of a puzzle file holding ``puzzles``.

    Rack tiles come first, then the rack's jokers; a puzzle with a table (tiles or
    jokers) goes on with ``|``, the table's tiles and the table's jokers.

    Parameters
    ----------
    puzzles : Puzzles
    header : bool
        Open with the header of the puzzles' game (``rumdiff.puzzle.game``), so that
        readers need not be told it.
    """
    return "".join(_puzzle_lines(puzzles, header))


def _puzzle_lines(puzzles: Puzzles, header: bool):
    """The file's text in pieces: the header if asked for, the count, then one puzzle's
    two lines at a time."""
    if header:
        yield format_header(puzzles.game) + "\n"
    yield f"{len(puzzles)}\n"
    if puzzles.plain:
        for copies in puzzles.copies:
            tiles = _tokens(copies)
            yield f"{len(tiles)}\n{' '.join(tiles)}\n"
        return
    for puzzle in puzzles:
        table = puzzle.table_copies
        tiles = _tokens(puzzle.copies - table)
        tiles += [config.JOKER] * (puzzle.jokers - puzzle.table_jokers)
        count = len(tiles)
        if puzzle.table is not None or puzzle.table_jokers:
            on_table = _tokens(table) + [config.JOKER] * puzzle.table_jokers
            tiles += [config.TABLE_MARK, *on_table]
            count += len(on_table)
        yield f"{count}\n{' '.join(tiles)}\n"


def write_puzzles(path, puzzles: Puzzles, *, header: bool = False) -> None:
    """Write ``puzzles`` in the thesis file format, atomically, a puzzle at a time; with
    ``header``, first the line ``# G(k, m, n)`` (see :func:`format_puzzles`)."""
    with atomic_open(path, encoding="ascii") as stream:
        for piece in _puzzle_lines(puzzles, header):
            stream.write(piece)
