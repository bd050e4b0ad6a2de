"""Read and write the thesis's puzzle file format and score files.

A puzzle file (thesis Section 4.1) holds, line by line::

    2                      <- number of puzzles
    28                     <- tiles in puzzle 1
    1b 1b 1g 1y ...        <- its tiles: value then colour letter
    23                     <- tiles in puzzle 2
    1g 1r 1r 1y ...

Colour letters are ``config.COLOURS`` in order (b, g, r, y, then o, p for k = 5, 6).
The format does not carry k, m or n: the reader takes them from its arguments,
with these defaults, and records them on the returned :class:`~rumdiff.puzzle.Puzzles`:

- k: the number of colours up to the last letter used, and at least 4 (the game's k);
- m: 2;
- n: the largest value in the file.

Input is checked strictly. Every problem raises :class:`PuzzleFileError`, whose
message names the file, the line and what is wrong, in one line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

from rumdiff import config
from rumdiff.atomic import atomic_write_text
from rumdiff.puzzle.puzzle import Puzzles
from rumdiff.validation import whole

__all__ = [
    "PuzzleFileError",
    "parse_puzzles",
    "read_puzzles",
    "format_puzzles",
    "write_puzzles",
    "read_scores",
    "write_scores",
]

_TILE = re.compile(r"([0-9]+)([A-Za-z])")
#: A whole line of well-formed tiles, for the vectorised fast path.
_TILES = re.compile(r"[0-9]{1,9}[a-z](?: [0-9]{1,9}[a-z])*")
_LETTERS_TO_SPACES = str.maketrans({chr(c): " " for c in range(ord("a"), ord("z") + 1)})
_KEEP_LETTERS = str.maketrans({c: None for c in "0123456789 "})
#: Longest digit string accepted before a number is called too large.
_MAX_DIGITS = 9


class PuzzleFileError(ValueError):
    """A malformed puzzle or score file.

    Parameters
    ----------
    path : str
        The file.
    line : int
        1-based line number of the problem (0 when it concerns the whole file).
    problem : str
        What is wrong, in a few words.
    """

    def __init__(self, path: str, line: int, problem: str):
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {problem}")


def _split_lines(text: str, path: str) -> list[str]:
    if text == "":
        raise PuzzleFileError(path, 1, "empty file")
    if "\r" in text:
        line = text[: text.index("\r")].count("\n") + 1
        raise PuzzleFileError(path, line, "CRLF or CR line ending; use plain LF line endings")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line
    return lines


def _integer(token: str, path: str, line: int, what: str) -> int:
    if not token.isdigit() or not token.isascii():
        raise PuzzleFileError(path, line, f"{what} must be a non-negative integer, got {token!r}")
    if len(token.lstrip("0")) > _MAX_DIGITS:
        raise PuzzleFileError(path, line, f"{what} {token[:20]}... is too large")
    return int(token)


def _count_line(lines: list[str], index: int, path: str, what: str) -> int:
    if index >= len(lines):
        raise PuzzleFileError(path, index + 1, f"file ends early: expected {what}")
    fields = lines[index].split()
    if not fields:
        raise PuzzleFileError(path, index + 1, f"blank line where {what} was expected")
    if len(fields) != 1:
        raise PuzzleFileError(path, index + 1, f"expected only {what}, got {lines[index]!r}")
    return _integer(fields[0], path, index + 1, what)


def parse_puzzles(
    text: str,
    path: str = "<text>",
    *,
    k: int | None = None,
    m: int = config.M,
    n: int | None = None,
) -> Puzzles:
    """Parse puzzle-file text; see the module docstring for the format and defaults.

    Raises
    ------
    PuzzleFileError
        Naming the file, the line and the problem.
    """
    try:
        for name, value, top in (
            ("k", k, config.MAX_K),
            ("m", m, config.MAX_M),
            ("n", n, config.MAX_N),
        ):
            if value is not None:
                whole(name, value, low=1, high=top)
    except ValueError as error:
        raise PuzzleFileError(path, 0, str(error)) from None
    lines = _split_lines(text, path)
    count = _count_line(lines, 0, path, "the number of puzzles")
    letters = config.COLOURS if k is None else config.COLOURS[:k]
    colour_of = _colour_lookup(letters)
    puzzles = []  # (values, colours, tile line) per puzzle
    index = 1
    for number in range(1, count + 1):
        tiles = _count_line(lines, index, path, f"the tile count of puzzle {number}")
        if index + 1 >= len(lines):
            raise PuzzleFileError(path, index + 2, f"file ends early: expected puzzle {number}")
        tile_line = index + 2
        fields = lines[index + 1].split()
        if len(fields) != tiles:
            raise PuzzleFileError(
                path, tile_line, f"puzzle {number} declares {tiles} tiles but lists {len(fields)}"
            )
        parsed = _fast_tiles(fields, colour_of, n)
        if parsed is None:  # something is wrong: find and name the bad tile
            parsed = _checked_tiles(fields, letters, n, path, tile_line)
        parsed = (*parsed, tile_line)
        puzzles.append(parsed)
        index += 2
    if index < len(lines):
        problem = "stray blank line" if not lines[index].strip() else "unexpected text"
        raise PuzzleFileError(path, index + 1, f"{problem} after the {count} declared puzzles")
    return _stack(puzzles, path, k=k, m=m, n=n)


def _colour_lookup(letters: str) -> np.ndarray:
    """Colour index of each ASCII code; -1 for a letter that is not a colour."""
    lookup = np.full(256, -1, dtype=np.int64)
    lookup[np.frombuffer(letters.encode("ascii"), dtype=np.uint8)] = np.arange(len(letters))
    return lookup


def _fast_tiles(fields, colour_of: np.ndarray, n: int | None):
    """Values and colours of well-formed tiles, vectorised; None if any tile is bad.

    ``colour_of`` is :func:`_colour_lookup` of the file's colour letters.
    """
    if not fields:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    joined = " ".join(fields)
    if not _TILES.fullmatch(joined):
        return None
    values = np.array(joined.translate(_LETTERS_TO_SPACES).split(), dtype=np.int64)
    codes = np.frombuffer(joined.translate(_KEEP_LETTERS).encode("ascii"), dtype=np.uint8)
    colours = colour_of[codes]
    if colours.min() < 0 or values.min() < 1 or (n is not None and values.max() > n):
        return None
    return values, colours


def _checked_tiles(fields, letters: str, n: int | None, path: str, line: int):
    """Values and colours of the tiles, tile by tile, raising on the first bad one."""
    values, colours = [], []
    for token in fields:
        match = _TILE.fullmatch(token)
        if match is None:
            raise PuzzleFileError(
                path, line, f"{token!r} is not a tile (value then colour, like 7b)"
            )
        value = _integer(match.group(1), path, line, f"tile {token!r}: value")
        colour = letters.find(match.group(2))
        if colour < 0:
            raise PuzzleFileError(
                path,
                line,
                f"tile {token!r}: unknown colour {match.group(2)!r} (expected one of "
                f"{', '.join(letters)})",
            )
        if value < 1 or (n is not None and value > n):
            top = "n" if n is None else str(n)
            raise PuzzleFileError(path, line, f"tile {token!r}: value outside 1..{top}")
        values.append(value)
        colours.append(colour)
    return np.asarray(values, dtype=np.int64), np.asarray(colours, dtype=np.int64)


def _stack(puzzles, path: str, *, k: int | None, m: int, n: int | None) -> Puzzles:
    if k is None:
        used = max((int(c.max()) for _, c, _ in puzzles if c.size), default=-1)
        k = max(config.K, used + 1)
    if n is None:
        n = max((int(v.max()) for v, _, _ in puzzles if v.size), default=1)
        if n > config.MAX_N:
            raise PuzzleFileError(path, 0, f"largest value {n} exceeds the limit {config.MAX_N}")
    copies = np.zeros((len(puzzles), n, k), dtype=np.int16)
    for number, (values, colours, line) in enumerate(puzzles):
        counts = np.bincount((values - 1) * k + colours, minlength=n * k)
        if counts.max(initial=0) > m:
            cell = int(np.argmax(counts > m))
            tile = f"{cell // k + 1}{config.COLOURS[cell % k]}"
            raise PuzzleFileError(
                path, line, f"puzzle {number + 1} has more than m={m} copies of {tile}"
            )
        copies[number] = counts.reshape(n, k)
    return Puzzles(copies, m=m, source=str(path))


def read_puzzles(path, *, k: int | None = None, m: int = config.M, n: int | None = None):
    """Read a puzzle file (``-``: standard input); see :func:`parse_puzzles`.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed.
    """
    path = str(path)
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise PuzzleFileError(path, 0, f"cannot read: {error.strerror or error}") from None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise PuzzleFileError(path, line, "non-ASCII byte in file") from None
    return parse_puzzles(text, path, k=k, m=m, n=n)


def format_puzzles(puzzles: Puzzles) -> str:
    """The text of a puzzle file holding ``puzzles``."""
    out = [str(len(puzzles))]
    for copies in puzzles.copies:
        tiles = [
            f"{v + 1}{config.COLOURS[c]}"
            for v in range(copies.shape[0])
            for c in range(copies.shape[1])
            for _ in range(int(copies[v, c]))
        ]
        out.append(str(len(tiles)))
        out.append(" ".join(tiles))
    return "\n".join(out) + "\n"


def write_puzzles(path, puzzles: Puzzles) -> None:
    """Write ``puzzles`` in the thesis file format, atomically."""
    atomic_write_text(path, format_puzzles(puzzles), encoding="ascii")


def read_scores(path) -> np.ndarray:
    """Read a score file: one non-negative integer per line.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or a line is not a single integer.
    """
    path = str(path)
    try:
        text = Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as error:
        raise PuzzleFileError(path, 0, f"cannot read: {error}") from None
    lines = _split_lines(text, path)
    scores = []
    for number, line in enumerate(lines, start=1):
        token = line.strip()
        if not token:
            raise PuzzleFileError(path, number, "blank line where a score was expected")
        scores.append(_integer(token, path, number, "score"))
    return np.asarray(scores, dtype=np.int64)


def write_scores(path, scores) -> None:
    """Write one integer score per line, atomically."""
    atomic_write_text(path, "".join(f"{int(s)}\n" for s in scores), encoding="ascii")
