"""Puzzles: count matrices, the thesis's file format, and a one-line text codec.

A puzzle G(k, m, n) is an ``(n, k)`` matrix of copies (:class:`Puzzle`); many of one
shape stack into a ``(puzzles, n, k)`` array (:class:`Puzzles`). Modules:

- ``puzzle``: :class:`Puzzle`, :class:`Puzzles` and their checks;
- ``files``: the thesis's puzzle files, read whole (:class:`PuzzleFileError` names the
  file, the line and the problem);
- ``game``: :class:`Game`, the rules of a game as one value (G(k, m, n), its jokers, its
  opening meld), whose text is a file's header;
- ``header``: a file's optional first line, which names its game;
- ``streams``: puzzle files read in bounded blocks, or once as they come (standard
  input, pipes), or checked whole without being kept;
- ``scores``: score files, one maximum score per line;
- ``writer``: the writer of puzzle files; ``tokens``: the fast path of the tile reader;
- ``codec``: a lossless one-digit-per-cell text of a puzzle, for dataset columns;
- ``cards``: puzzles drawn as the cards players see (``Puzzle._repr_svg_``, and the
  cards of ``rumdiff show``).
"""

from rumdiff.puzzle.codec import (
    decode_games,
    decode_puzzle,
    decode_puzzles,
    encode_games,
    encode_puzzle,
    encode_puzzles,
)
from rumdiff.puzzle.files import PuzzleFileError, parse_puzzles, read_puzzles
from rumdiff.puzzle.game import DEFAULT_GAME, MELD_POINTS, Game
from rumdiff.puzzle.header import format_header, parse_header
from rumdiff.puzzle.puzzle import Puzzle, Puzzles, as_copies, as_stack
from rumdiff.puzzle.scores import read_scores, write_scores
from rumdiff.puzzle.streams import (
    FileShape,
    PuzzleBlocks,
    iter_puzzles,
    scan_puzzles,
    stream_puzzles,
)
from rumdiff.puzzle.writer import format_puzzles, write_puzzles

__all__ = [
    "DEFAULT_GAME",
    "FileShape",
    "Game",
    "MELD_POINTS",
    "Puzzle",
    "PuzzleBlocks",
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
    "format_header",
    "format_puzzles",
    "iter_puzzles",
    "parse_header",
    "parse_puzzles",
    "read_puzzles",
    "read_scores",
    "scan_puzzles",
    "stream_puzzles",
    "write_puzzles",
    "write_scores",
]
