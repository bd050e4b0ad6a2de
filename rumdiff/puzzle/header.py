"""The optional first line of a puzzle file: the game of its puzzles (``Game``'s text).

A puzzle file (``rumdiff.puzzle.files``) may open with a header such as::

    # G(4, 2, 13) j=2

which names the game every puzzle in it belongs to (``rumdiff.puzzle.game`` says what
each part means). Only the first line can be a header, and a first line that starts
with ``#`` must be one. A k, m or n the caller gives as well must equal the header's.
"""

from __future__ import annotations

from rumdiff.puzzle.game import HEADER_MARK, Game

__all__ = ["HEADER_MARK", "format_header", "is_header", "parse_header"]


def format_header(game: Game) -> str:
    """The header line of a game's puzzles, without its newline: ``# G(4, 2, 13)``."""
    return game.header


def is_header(line: str) -> bool:
    """Whether a first line is meant as a header (it starts with ``#``), well formed or not."""
    return line.lstrip().startswith(HEADER_MARK)


def parse_header(line: str) -> Game:
    """The game of a header line (without its newline); see :meth:`Game.parse`."""
    return Game.parse(line)
