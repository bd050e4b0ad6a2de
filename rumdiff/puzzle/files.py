"""Read and write the thesis's puzzle file format and score files.

A puzzle file (thesis Section 4.1) holds, line by line::

    # G(4, 2, 100)         <- optional header: the puzzles' k, m and n
    2                      <- number of puzzles
    28                     <- tiles in puzzle 1
    1b 1b 1g 1y ...        <- its tiles: value then colour letter
    23                     <- tiles in puzzle 2
    1g 1r 1r 1y ...

Colour letters are ``config.COLOURS`` in order (b, g, r, y, then o, p for k = 5, 6).
Only the first line can be a header (``rumdiff.puzzle.header``); line numbers in
messages count it. The readers take k, m and n from their arguments, else from the
header, else these defaults, and record them on the returned
:class:`~rumdiff.puzzle.Puzzles`:

- k: the number of colours up to the last letter used, and at least 4 (the game's k);
- m: 2;
- n: the largest value in the file.

A value given that differs from the header's is an error. Input is checked strictly.
Every problem raises :class:`PuzzleFileError`, whose message names the file, the line
and what is wrong, in one line. The readers in blocks are in ``rumdiff.puzzle.streams``.
"""

from __future__ import annotations

import itertools
import re
import sys
from typing import NamedTuple

import numpy as np

from rumdiff import config
from rumdiff.puzzle.header import is_header, parse_header, settle_shape
from rumdiff.puzzle.puzzle import Puzzles
from rumdiff.puzzle.tokens import colour_lookup, fast_tiles
from rumdiff.validation import control_character, quoted, whole

__all__ = ["PuzzleFileError", "parse_puzzles", "read_puzzles"]

_TILE = re.compile(r"([0-9]+)([A-Za-z])")
#: What a reader takes for k, m and n that neither its arguments nor the header give:
#: None for k and n, which then follow the puzzles (see the module docstring).
_DEFAULTS = (None, config.M, None)
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


def _stream_lines(stream, path: str):
    """Yield ``(line number, text)`` of a binary stream, checked as :func:`_split_lines`
    checks text; no line may exceed ``config.PUZZLE_LINE_BYTES``, so memory stays bounded."""
    number = 0
    while True:
        raw = stream.readline(config.PUZZLE_LINE_BYTES + 1)
        if not raw:
            if number == 0:
                raise PuzzleFileError(path, 1, "empty file")
            return
        number += 1
        if problem := control_character(raw):  # named as it is, not as a miscounted tile
            raise PuzzleFileError(path, number, problem)
        if len(raw) > config.PUZZLE_LINE_BYTES:
            raise PuzzleFileError(
                path, number, f"line longer than {config.PUZZLE_LINE_BYTES:,} bytes"
            )
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if b"\r" in raw:
            raise PuzzleFileError(path, number, "CRLF or CR line ending; use plain LF line endings")
        try:
            yield number, raw.decode("ascii")
        except UnicodeDecodeError:
            raise PuzzleFileError(path, number, "non-ASCII byte in file") from None


def _integer(token: str, path: str, line: int, what: str) -> int:
    if not token.isdigit() or not token.isascii():
        raise PuzzleFileError(
            path, line, f"{what} must be a non-negative integer, got {quoted(token)}"
        )
    if len(token.lstrip("0")) > _MAX_DIGITS:
        raise PuzzleFileError(path, line, f"{what} {token[:20]}... is too large")
    return int(token)


def _count(numbered: tuple[int, str], path: str, what: str) -> int:
    number, line = numbered
    fields = line.split()
    if not fields:
        raise PuzzleFileError(path, number, f"blank line where {what} was expected")
    if is_header(line):
        raise PuzzleFileError(
            path, number, f"{quoted(line)} where {what} was expected: a header can only be "
            "the first line",
        )  # fmt: skip
    if len(fields) != 1:
        raise PuzzleFileError(path, number, f"expected only {what}, got {quoted(line)}")
    return _integer(fields[0], path, number, what)


def _check_shape(path: str, k, m, n) -> None:
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


def _records(lines, path: str, *, k: int | None, m: int, n: int | None, after: int = 0):
    """Yield ``(puzzle number, values, colours, tile line)`` per puzzle of a file's lines
    (those after the first ``after``, its header), checking everything but the copies
    (which :func:`_stack` counts)."""
    lines = iter(lines)
    last = after

    def next_line(what: str) -> tuple[int, str]:
        nonlocal last
        numbered = next(lines, None)
        if numbered is None:
            raise PuzzleFileError(path, last + 1, f"file ends early: expected {what}")
        last = numbered[0]
        return numbered

    letters = config.COLOURS if k is None else config.COLOURS[:k]
    colour_of = colour_lookup(letters)
    most = (n or config.MAX_N) * len(letters) * m  # tiles that fit in one puzzle
    count = _count(next_line("the number of puzzles"), path, "the number of puzzles")
    for number in range(1, count + 1):
        what = f"the tile count of puzzle {number}"
        tiles = _count(next_line(what), path, what)
        if tiles > most:
            raise PuzzleFileError(
                path, last, f"puzzle {number} declares {tiles} tiles; at most {most} fit"
            )
        tile_line, line = next_line(f"puzzle {number}")
        fields = line.split()
        marks = fields.count(config.TABLE_MARK)
        if marks > 1:
            raise PuzzleFileError(
                path, tile_line, f"puzzle {number} has {marks} {config.TABLE_MARK!r}; at most one"
            )
        if len(fields) - marks != tiles:
            raise PuzzleFileError(
                path,
                tile_line,
                f"puzzle {number} declares {tiles} tiles but lists {len(fields) - marks}",
            )
        yield (
            number,
            *_tile_line(fields, marks, colour_of, letters, n, path, tile_line),
            tile_line,
        )
    stray = next(lines, None)
    if stray is not None:
        problem = "stray blank line" if not stray[1].strip() else "unexpected text"
        raise PuzzleFileError(path, stray[0], f"{problem} after the {count} declared puzzles")


def _tile_line(fields, marks: int, colour_of, letters: str, n, path: str, line: int):
    """Values, colours, table flags (None without a table) and the rack's and the
    table's jokers of one tile line."""
    table = None
    jokers = [0, 0]
    if marks or config.JOKER in fields:
        split = fields.index(config.TABLE_MARK) if marks else len(fields)
        jokers = [fields[:split].count(config.JOKER), fields[split + 1 :].count(config.JOKER)]
        if sum(jokers) > config.MAX_JOKERS:
            raise PuzzleFileError(
                path, line, f"{sum(jokers)} jokers; a puzzle holds at most {config.MAX_JOKERS}"
            )
        rack = [token for token in fields[:split] if token != config.JOKER]
        fields = rack + [token for token in fields[split + 1 :] if token != config.JOKER]
        if marks:
            table = np.arange(len(fields)) >= len(rack)
    parsed = fast_tiles(fields, colour_of, n)
    if parsed is None:  # something is wrong: find and name the bad tile
        parsed = _checked_tiles(fields, letters, n, path, line)
    return *parsed, table, jokers[0], jokers[1]


def parse_puzzles(
    text: str,
    path: str = "<text>",
    *,
    k: int | None = None,
    m: int | None = None,
    n: int | None = None,
) -> Puzzles:
    """Parse puzzle-file text; see the module docstring for the format and defaults.

    Parameters
    ----------
    text : str
        The file's text, header included if it has one.
    path : str
        What messages call it.
    k, m, n : int, optional
        The puzzles' shape; None: the header's, else the module's defaults.

    Raises
    ------
    PuzzleFileError
        Naming the file, the line and the problem; also when a value given differs
        from the header's.
    """
    _check_shape(path, k, m, n)
    lines = enumerate(_split_lines(text, path), start=1)
    opened = _head_records(lines, path, (k, m, n), _DEFAULTS)
    k, m, n = opened.shape
    return _stack(list(opened.records), path, k=k, m=m, n=n)


def _checked_tiles(fields, letters: str, n: int | None, path: str, line: int):
    """Values and colours of the tiles, tile by tile, raising on the first bad one."""
    values, colours = [], []
    for token in fields:
        match = _TILE.fullmatch(token)
        if match is None:
            raise PuzzleFileError(
                path, line, f"{quoted(token)} is not a tile (value then colour, like 7b)"
            )
        value = _integer(match.group(1), path, line, f"tile {quoted(token)}: value")
        colour = letters.find(match.group(2))
        if colour < 0:
            raise PuzzleFileError(
                path,
                line,
                f"tile {quoted(token)}: unknown colour {match.group(2)!r} (expected one of "
                f"{', '.join(letters)})",
            )
        if value < 1:
            raise PuzzleFileError(path, line, f"tile {quoted(token)}: value must be at least 1")
        if n is not None and value > n:
            raise PuzzleFileError(path, line, f"tile {quoted(token)}: value outside 1..{n}")
        values.append(value)
        colours.append(colour)
    return np.asarray(values, dtype=np.int64), np.asarray(colours, dtype=np.int64)


def _stack(puzzles, path: str, *, k: int | None, m: int, n: int | None) -> Puzzles:
    """Count each record's tiles into a :class:`Puzzles` stack, checking copies against m.

    A record is ``(number, values, colours, table flags or None, rack jokers, table
    jokers, line)``, as :func:`_records` yields them."""
    if k is None:
        used = max((int(r[2].max()) for r in puzzles if r[2].size), default=-1)
        k = max(config.K, used + 1)
    if n is None:
        n = max((int(r[1].max()) for r in puzzles if r[1].size), default=1)
        if n > config.MAX_N:
            line = next(r[-1] for r in puzzles if r[1].size and int(r[1].max()) == n)
            raise PuzzleFileError(
                path, line, f"value {n} exceeds the largest allowed, {config.MAX_N}"
            )
    copies = np.zeros((len(puzzles), n, k), dtype=np.int16)
    plain = all(r[3] is None and r[4] == 0 for r in puzzles)
    table = None if plain else np.zeros_like(copies)
    jokers = None if plain else np.zeros(len(puzzles), dtype=np.int8)
    table_jokers = None if plain else np.zeros(len(puzzles), dtype=np.int8)
    for row, (number, values, colours, on_table, rack_jokers, jokers_on_table, line) in enumerate(
        puzzles
    ):
        cells = (values - 1) * k + colours
        counts = np.bincount(cells, minlength=n * k)
        if counts.max(initial=0) > m:
            cell = int(np.argmax(counts > m))
            tile = f"{cell // k + 1}{config.COLOURS[cell % k]}"
            raise PuzzleFileError(
                path, line, f"puzzle {number} has more than m={m} copies of {tile}"
            )
        copies[row] = counts.reshape(n, k)
        if not plain:
            jokers[row] = rack_jokers + jokers_on_table
            table_jokers[row] = jokers_on_table
            if on_table is not None:
                table[row] = np.bincount(cells[on_table], minlength=n * k).reshape(n, k)
    return Puzzles(
        copies, m=m, source=str(path), jokers=jokers, table=table, table_jokers=table_jokers
    )


def _open(path: str):
    if path == "-" and (sys.stdin is None or sys.stdin.closed):
        raise PuzzleFileError(path, 0, "cannot read: standard input is closed")
    try:
        return sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as error:
        raise PuzzleFileError(path, 0, f"cannot read: {error.strerror or error}") from None


class _Opened(NamedTuple):
    """A puzzle file whose header is read: the (k, m, n) to read it with, the header's
    (k, m, n) or None, and its records (:func:`_records`), read as they are asked for."""

    shape: tuple
    header: tuple | None
    records: object


def _head_records(lines, path: str, given: tuple, defaults: tuple) -> _Opened:
    """Read the header of a file's numbered lines, if the first is one, and settle the
    (k, m, n) to read the rest with: each given, else the header's, else its default."""
    lines = iter(lines)
    first = next(lines, None)
    header, after = None, 0
    if first is not None and is_header(first[1]):
        try:
            header = parse_header(first[1])
            given = settle_shape(header, *given)
        except ValueError as error:
            raise PuzzleFileError(path, first[0], str(error)) from None
        after = first[0]
    elif first is not None:
        lines = itertools.chain([first], lines)
    pairs = zip(given, defaults, strict=True)
    k, m, n = (default if value is None else value for value, default in pairs)
    return _Opened((k, m, n), header, _records(lines, path, k=k, m=m, n=n, after=after))


def _file_lines(path: str, name: str):
    """Yield the numbered lines of a file (``-``: standard input), which is opened when the
    first is asked for and closed once read or dropped; messages call it ``name``."""
    stream = _open(path)
    try:
        yield from _stream_lines(stream, name)
    except OSError as error:
        raise PuzzleFileError(name, 0, f"cannot read: {error.strerror or error}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _open_records(path, name: str, given: tuple, defaults: tuple = _DEFAULTS) -> _Opened:
    """Check the ``given`` (k, m, n), open a puzzle file and read its header
    (:func:`_head_records`); the records follow as they are asked for."""
    _check_shape(name, *given)
    return _head_records(_file_lines(str(path), name), name, given, defaults)


def read_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None
) -> Puzzles:
    """Read a puzzle file (``-``: standard input); see :func:`parse_puzzles`.

    The whole file is held in memory; :func:`~rumdiff.puzzle.iter_puzzles` reads it in
    bounded blocks.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed, or a value given differs from the
        header's.
    """
    path = str(path)
    opened = _open_records(path, path, (k, m, n))
    k, m, n = opened.shape
    return _stack(list(opened.records), path, k=k, m=m, n=n)
