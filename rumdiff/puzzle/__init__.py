"""Puzzles: count matrices, the thesis's file format, and a one-line text codec.

A puzzle G(k, m, n) is an ``(n, k)`` matrix of copies (:class:`Puzzle`); many of one
shape stack into a ``(puzzles, n, k)`` array (:class:`Puzzles`). Modules:

- ``puzzle``: :class:`Puzzle`, :class:`Puzzles` and their checks;
- ``files``: the thesis's puzzle files, read whole or streamed in bounded blocks
  (:class:`PuzzleFileError` names the file, the line and the problem);
- ``streams``: puzzle files read once as they come (standard input, pipes);
- ``scores``: score files, one maximum score per line;
- ``writer``: the writer of puzzle files; ``tokens``: the vectorised tile reader;
- ``codec``: a lossless one-digit-per-cell text of a puzzle, for dataset columns.
"""

from rumdiff.puzzle.codec import (
    decode_games,
    decode_puzzle,
    decode_puzzles,
    encode_games,
    encode_puzzle,
    encode_puzzles,
)
from rumdiff.puzzle.files import (
    PuzzleFileError,
    iter_puzzles,
    parse_puzzles,
    read_puzzles,
    scan_puzzles,
)
from rumdiff.puzzle.puzzle import Puzzle, Puzzles, as_copies, as_stack
from rumdiff.puzzle.scores import read_scores, write_scores
from rumdiff.puzzle.streams import stream_puzzles
from rumdiff.puzzle.writer import format_puzzles, write_puzzles

__all__ = [
    "Puzzle",
    "PuzzleFileError",
    "Puzzles",
    "as_copies",
    "as_stack",
    "decode_games",
    "decode_puzzle",
    "decode_puzzles",
    "encode_games",
    "encode_puzzle",
    "encode_puzzles",
    "format_puzzles",
    "iter_puzzles",
    "parse_puzzles",
    "read_puzzles",
    "read_scores",
    "scan_puzzles",
    "stream_puzzles",
    "write_puzzles",
    "write_scores",
]
