"""Write puzzle files in the thesis's format, extended with jokers and a table (see
``rumdiff.puzzle.files``)."""

from __future__ import annotations

from rumdiff import config
from rumdiff.atomic import atomic_write_text
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


def format_puzzles(puzzles: Puzzles) -> str:
    """The text of a puzzle file holding ``puzzles``.

    Rack tiles come first, then the rack's jokers; a puzzle with a table (tiles or
    jokers) goes on with ``|``, the table's tiles and the table's jokers."""
    out = [str(len(puzzles))]
    for puzzle in puzzles if not puzzles.plain else ():
        table = puzzle.table_copies
        tiles = _tokens(puzzle.copies - table)
        tiles += [config.JOKER] * (puzzle.jokers - puzzle.table_jokers)
        count = len(tiles)
        if puzzle.table is not None or puzzle.table_jokers:
            on_table = _tokens(table) + [config.JOKER] * puzzle.table_jokers
            tiles += [config.TABLE_MARK, *on_table]
            count += len(on_table)
        out += [str(count), " ".join(tiles)]
    for copies in puzzles.copies if puzzles.plain else ():
        tiles = _tokens(copies)
        out += [str(len(tiles)), " ".join(tiles)]
    return "\n".join(out) + "\n"


def write_puzzles(path, puzzles: Puzzles) -> None:
    """Write ``puzzles`` in the thesis file format, atomically."""
    atomic_write_text(path, format_puzzles(puzzles), encoding="ascii")
