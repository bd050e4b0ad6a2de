"""Write puzzle files in the thesis's format, extended with jokers and a table (see
``rumdiff.puzzle.files``)."""

from __future__ import annotations

from rumdiff import config
from rumdiff.atomic import atomic_open
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
    return "".join(_puzzle_lines(puzzles))


def _puzzle_lines(puzzles: Puzzles):
    """The file's text in pieces: the count, then one puzzle's two lines at a time."""
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


def write_puzzles(path, puzzles: Puzzles) -> None:
    """Write ``puzzles`` in the thesis file format, atomically, a puzzle at a time."""
    with atomic_open(path, encoding="ascii") as stream:
        for piece in _puzzle_lines(puzzles):
            stream.write(piece)
