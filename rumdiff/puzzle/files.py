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

import numpy as np

from rumdiff import config
from rumdiff.puzzle.puzzle import Puzzles
from rumdiff.puzzle.tokens import colour_lookup, fast_tiles
from rumdiff.validation import control_character, quoted, whole

__all__ = [
    "PuzzleFileError",
    "parse_puzzles",
    "read_puzzles",
    "iter_puzzles",
    "scan_puzzles",
]

_TILE = re.compile(r"([0-9]+)([A-Za-z])")
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


def _records(lines, path: str, *, k: int | None, m: int, n: int | None):
    """Yield ``(puzzle number, values, colours, tile line)`` per puzzle of a file's lines,
    checking everything but the copies (which :func:`_stack` counts)."""
    lines = iter(lines)
    last = 0

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
    m: int = config.M,
    n: int | None = None,
) -> Puzzles:
    """Parse puzzle-file text; see the module docstring for the format and defaults.

    Raises
    ------
    PuzzleFileError
        Naming the file, the line and the problem.
    """
    _check_shape(path, k, m, n)
    lines = enumerate(_split_lines(text, path), start=1)
    return _stack(list(_records(lines, path, k=k, m=m, n=n)), path, k=k, m=m, n=n)


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


def _file_records(path: str, *, k, m: int, n, name: str | None = None):
    stream = _open(path)
    name = path if name is None else name  # what messages call the file
    try:
        yield from _records(_stream_lines(stream, name), name, k=k, m=m, n=n)
    except OSError as error:
        raise PuzzleFileError(name, 0, f"cannot read: {error.strerror or error}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def read_puzzles(path, *, k: int | None = None, m: int = config.M, n: int | None = None):
    """Read a puzzle file (``-``: standard input); see :func:`parse_puzzles`.

    The whole file is held in memory; :func:`iter_puzzles` reads it in bounded blocks.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed.
    """
    path = str(path)
    _check_shape(path, k, m, n)
    return _stack(list(_file_records(path, k=k, m=m, n=n)), path, k=k, m=m, n=n)


def iter_puzzles(
    path, *, k: int, m: int, n: int, cells: int = config.PUZZLE_BLOCK_CELLS, name=None
):
    """Read a puzzle file in blocks of puzzles, holding one block at a time.

    Each block holds about ``cells`` cells (``cells // (n * k)`` puzzles, at least one),
    so memory follows the block, not the file. A malformed file raises when the reader
    reaches the problem, after the blocks before it were yielded: commit outputs only
    once the generator is exhausted. Messages call the file ``name`` (default: ``path``).

    Yields
    ------
    Puzzles
        Of shape G(k, m, n), in file order.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or is malformed.
    """
    path = str(path)
    name = path if name is None else name
    _check_shape(name, k, m, n)
    size = max(1, cells // (n * k))
    block = []
    for record in _file_records(path, k=k, m=m, n=n, name=name):
        block.append(record)
        if len(block) == size:
            yield _stack(block, name, k=k, m=m, n=n)
            block = []
    if block:
        yield _stack(block, name, k=k, m=m, n=n)


def scan_puzzles(
    path, *, k: int | None = None, m: int = config.M, n: int | None = None, name=None
) -> tuple[int, int, int]:
    """Check a whole puzzle file without keeping it; return the k and n it implies.

    Given k or n, every tile is checked against them too. Messages call the file
    ``name`` (default: ``path``).

    Returns
    -------
    k, n, count : int
        ``k`` if given, else the colours up to the last letter used (at least 4); ``n``
        if given, else the largest value; the number of puzzles: what
        :func:`read_puzzles` takes.
    """
    path = str(path)
    name = path if name is None else name
    _check_shape(name, k, m, n)
    seen_k, seen_n, count = k or config.K, n or 1, 0
    for record in _file_records(path, k=k, m=m, n=n, name=name):
        alone = _stack([record], name, k=k, m=m, n=n)  # checks its values and copies
        seen_k, seen_n, count = max(seen_k, alone.k), max(seen_n, alone.n), count + 1
    return seen_k, seen_n, count
