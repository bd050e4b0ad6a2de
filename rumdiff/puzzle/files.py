"""Read and write the thesis's puzzle file format and score files.

A puzzle file (thesis Section 4.1) holds, line by line::

    # G(4, 2, 100)         <- optional header: the puzzles' game
    2                      <- number of puzzles
    28                     <- tiles in puzzle 1
    1b 1b 1g 1y ...        <- its tiles: value then colour letter
    23                     <- tiles in puzzle 2
    1g 1r 1r 1y ...

Colour letters are ``config.COLOURS`` in order (b, g, r, y, then o, p for k = 5, 6).
Only the first line can be a header (``rumdiff.puzzle.header``), which names the game
(``rumdiff.puzzle.game``); line numbers in messages count it. Every reader settles the
game before it reads a puzzle, by one rule: the header's; without one, the default game
``DEFAULT_GAME``, G(4, 2, 100), with the k, m and n the caller gives in its place. A file
and a stream of the same text are read alike, and a tile outside the game is an error.
A value given that differs from the header's is an error too. Lines may end in LF or
CRLF. Input is checked strictly. Every problem raises :class:`PuzzleFileError`, whose
message names the file, the line and what is wrong, in one line. The readers in blocks
are in ``rumdiff.puzzle.streams``.
"""

from __future__ import annotations

import itertools
import re
import sys
from typing import NamedTuple

import numpy as np

from rumdiff import config
from rumdiff.puzzle.game import DEFAULT_GAME, Game
from rumdiff.puzzle.header import is_header
from rumdiff.puzzle.puzzle import Puzzles
from rumdiff.puzzle.tokens import colour_lookup, fast_puzzles, fast_tiles, puzzle_scratch
from rumdiff.validation import control_character, quoted, whole

__all__ = ["PuzzleFileError", "parse_puzzles", "read_puzzles"]

_TILE = re.compile(r"([0-9]+)([A-Za-z])")
#: Longest digit string, leading zeros left out, accepted before a number is called too
#: large (and never converted).
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


def _split_lines(text: str, path: str):
    """Yield the lines of a file's text, each checked as it is reached, by the rules its
    bytes are read by (:class:`_FileLines`): LF or CRLF ends a line, and a control
    character or anything beyond ASCII is an error, so that text and file read alike
    and tell the same first problem."""
    if text == "":
        raise PuzzleFileError(path, 1, "empty file")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line
    for number, line in enumerate(lines, start=1):
        raw = line.encode("utf-8", "surrogatepass")
        if problem := control_character(raw):
            raise PuzzleFileError(path, number, problem)
        if "\r" in line:
            ended = number < len(lines) or text.endswith("\n")
            line = _without_cr(line, path, number, ended)
        if not line.isascii():
            raise PuzzleFileError(path, number, "non-ASCII character in text")
        yield line


def _without_cr(line: str, path: str, number: int, ended: bool) -> str:
    """A line without the CR of its CRLF ending (files saved on Windows); a CR anywhere
    else is an error."""
    if ended and line.endswith("\r") and "\r" not in line[:-1]:
        return line[:-1]
    raise PuzzleFileError(path, number, "CR inside a line (only LF or CRLF may end a line)")


#: The first bytes of files that are given for a puzzle file by mistake, and what they are.
_NOT_PUZZLE_FILES = (
    (b"PAR1", "a Parquet file (a dataset?)"),
    (b"PK\x03\x04", "a zip archive (a model?)"),
    (b"\x89PNG", "a PNG picture"),
)


class _FileLines:
    """The numbered lines of a puzzle file (``-``: standard input), checked as
    :func:`_split_lines` checks text, and whole puzzles read from the same buffer at once.

    Iterating yields ``(line number, text)``. The file is read ``read_bytes`` at a time
    (default ``config.PUZZLE_READ_BYTES``; what a pipe has ready, at most), opened when
    the first line is asked for, and closed once read to its end, on an error of
    :func:`_records` or when dropped; messages call it ``name``. No line may exceed
    ``config.PUZZLE_LINE_BYTES``, so the buffer, and memory, stay bounded.
    :meth:`puzzles` is the fast path of :func:`_records`.
    """

    def __init__(self, path: str, name: str, *, read_bytes: int | None = None):
        self.path = path
        self.name = name
        self.read_bytes = config.PUZZLE_READ_BYTES if read_bytes is None else read_bytes
        self.number = 0  # lines read
        self._stream = None
        self._data = b""
        self._at = 0
        self._ended = False
        self._scratch = None

    def __iter__(self):
        return self

    def __next__(self) -> tuple[int, str]:
        raw = self._raw_line()
        path = self.name
        if not raw:
            if self.number == 0:
                raise PuzzleFileError(path, 1, "empty file")
            raise StopIteration
        self.number = number = self.number + 1
        for magic, what in _NOT_PUZZLE_FILES if number == 1 else ():
            if raw.startswith(magic):
                raise PuzzleFileError(path, 1, f"{what}, not a puzzle file")
        if problem := control_character(raw):  # named as it is, not as a miscounted tile
            raise PuzzleFileError(path, number, problem)
        if len(raw) > config.PUZZLE_LINE_BYTES:
            raise PuzzleFileError(
                path, number, f"line longer than {config.PUZZLE_LINE_BYTES:,} bytes"
            )
        ended = raw.endswith(b"\n")
        if ended:
            raw = raw[:-1]
        if b"\r" in raw:
            if not (ended and raw.endswith(b"\r") and b"\r" not in raw[:-1]):
                raise PuzzleFileError(
                    path, number, "CR inside a line (only LF or CRLF may end a line)"
                )
            raw = raw[:-1]  # a CRLF ending, from a file saved on Windows
        try:
            return number, raw.decode("ascii")
        except UnicodeDecodeError:
            raise PuzzleFileError(path, number, "non-ASCII byte in file") from None

    def puzzles(self, game: Game, colour_of: np.ndarray, wanted: int):
        """Up to ``wanted`` whole puzzles from the buffer, read by a compiled kernel
        (:func:`~rumdiff.puzzle.tokens.fast_puzzles`): ``(copies, table, counts, first
        tile line)``, or None when the next puzzle is not one it reads (cut by the end of
        the buffer, or anything but well formed): the lines of that one are read one by
        one."""
        if self._scratch is None or len(self._scratch[0]) < wanted:
            self._scratch = puzzle_scratch(game, wanted)
        scratch = tuple(part[:wanted] for part in self._scratch)
        read = fast_puzzles(self._data, self._at, game, colour_of, scratch)
        if read is None:
            return None
        copies, table, counts, self._at = read
        first = self.number + 2
        self.number += 2 * len(copies)
        return copies, table, counts, first

    def _raw_line(self) -> bytes:
        """The next line, its LF included, as ``readline(config.PUZZLE_LINE_BYTES + 1)``
        gives it: b"" at the end of the file."""
        limit = config.PUZZLE_LINE_BYTES + 1
        while True:
            end = self._data.find(b"\n", self._at, self._at + limit)
            if end >= 0 or self._ended or len(self._data) - self._at >= limit:
                raw = self._data[self._at : end + 1 if end >= 0 else self._at + limit]
                self._at += len(raw)
                return raw
            self._fill()

    def _fill(self) -> None:
        """Append what the file gives next to what is left of the buffer."""
        if self._stream is None:
            self._stream = _open(self.path)
        read = getattr(self._stream, "read1", self._stream.read)
        try:
            chunk = read(self.read_bytes)
        except OSError as error:
            raise PuzzleFileError(self.name, 0, f"cannot read: {error.strerror or error}") from None
        self._data = self._data[self._at :] + chunk
        self._at = 0
        if not chunk:
            self._ended = True
            self.close()

    def close(self) -> None:
        """Close the file (standard input is not ours to close); nothing more is read."""
        self._ended = True
        if self._stream is not None and self.path != "-":
            self._stream.close()

    def __del__(self):
        self.close()


def _integer(token: str, path: str, line: int, what: str) -> int:
    if not token.isdigit() or not token.isascii():
        raise PuzzleFileError(
            path, line, f"{what} must be a non-negative integer, got {quoted(token)}"
        )
    digits = token.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        raise PuzzleFileError(path, line, f"{what} {quoted(token, 20)} is too large")
    return int(digits)  # (leading zeros gone: Python refuses to convert 4,300 digits)


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


def _records(lines, path: str, game: Game, *, after: int = 0, read=None, source=None):
    """Yield ``(puzzle number, tile line, copies, table copies or None, rack jokers, table
    jokers)`` per puzzle of a file's lines (those after the first ``after``, its header),
    its tiles counted per cell (:func:`_counted`), checking each against ``game`` but for
    the copies (which :func:`_stack` checks, a block at a time: see :func:`_all_records`
    for the order of the problems told). ``read`` is how messages name the game, and
    what they add when a file has no header. ``source``, the :class:`_FileLines` the
    lines come from, reads the well-formed puzzles many at once; the others are read
    here, line by line, and their problems named."""
    lines = iter(lines)
    last = after

    def next_line(what: str) -> tuple[int, str]:
        nonlocal last
        numbered = next(lines, None)
        if numbered is None:
            raise PuzzleFileError(path, last + 1, f"file ends early: expected {what}")
        last = numbered[0]
        return numbered

    letters = config.COLOURS[: game.k]
    colour_of = colour_lookup(letters)
    block = max(1, config.PUZZLE_BLOCK_CELLS // (game.n * game.k))
    number = 1
    try:
        count = _count(next_line("the number of puzzles"), path, "the number of puzzles")
        while number <= count:
            run = (
                source.puzzles(game, colour_of, min(block, count - number + 1)) if source else None
            )
            if run is not None:
                copies, table, counts, line = run
                for row, (rack_jokers, table_jokers, marked) in enumerate(counts):
                    on_table = table[row] if marked else None
                    yield (
                        number + row,
                        line + 2 * row,
                        copies[row],
                        on_table,
                        rack_jokers,
                        table_jokers,
                    )
                number += len(counts)
                last = source.number
                continue
            yield _line_record(number, next_line, colour_of, game, read, path)
            number += 1
        stray = next(lines, None)
        if stray is not None:
            problem = "stray blank line" if not stray[1].strip() else "unexpected text"
            raise PuzzleFileError(path, stray[0], f"{problem} after the {count} declared puzzles")
    except BaseException:
        if source is not None:  # (the error's traceback would keep the file open)
            source.close()
        raise


def _line_record(number: int, next_line, colour_of, game: Game, read, path: str):
    """Puzzle ``number`` read line by line (``next_line``, :func:`_records`'), its problems
    named: a record of :func:`_records`."""
    what = f"the tile count of puzzle {number}"
    numbered = next_line(what)
    tiles = _count(numbered, path, what)
    if tiles > game.tiles + game.jokers:
        raise PuzzleFileError(
            path, numbered[0], f"puzzle {number} declares {tiles} tiles and jokers; {read[0]} "
            f"holds {game.tiles} tiles and {game.jokers} jokers{read[1]}",
        )  # fmt: skip
    tile_line, line = next_line(f"puzzle {number}")
    parsed = fast_tiles(line, colour_of, game.n)  # a line of tiles alone, the usual
    if parsed is None or len(parsed[0]) != tiles:
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
        parsed = _tile_line(fields, marks, colour_of, game, read, path, tile_line)
    return number, tile_line, *_counted(game, *parsed)


def _counted(game: Game, values, colours, on_table=None, rack_jokers=0, table_jokers=0):
    """A puzzle's tiles of ``game`` counted per cell, shape (n, k): ``(copies, table copies
    or None, rack jokers, table jokers)``. A count over m + 1 is kept as m + 1, which
    :func:`_stack` tells as too many copies."""
    cells = (values - 1) * game.k + colours
    top = game.m + 1

    def count(chosen):
        found = np.bincount(chosen, minlength=game.n * game.k)
        return np.minimum(found, top).astype(np.int8).reshape(game.n, game.k)

    table = None if on_table is None else count(cells[on_table])
    return count(cells), table, rack_jokers, table_jokers


def _tile_line(fields, marks: int, colour_of, game: Game, read, path: str, line: int):
    """Values, colours, table flags (None without a table) and the rack's and the
    table's jokers of one tile line."""
    table = None
    jokers = [0, 0]
    if marks or config.JOKER in fields:
        split = fields.index(config.TABLE_MARK) if marks else len(fields)
        jokers = [fields[:split].count(config.JOKER), fields[split + 1 :].count(config.JOKER)]
        if sum(jokers) > game.jokers:
            raise PuzzleFileError(
                path, line, f"{sum(jokers)} jokers; a puzzle of {read[0]} holds at most "
                f"{game.jokers}{read[1]}",
            )  # fmt: skip
        rack = [token for token in fields[:split] if token != config.JOKER]
        fields = rack + [token for token in fields[split + 1 :] if token != config.JOKER]
        if marks:
            table = np.arange(len(fields)) >= len(rack)
    parsed = fast_tiles(" ".join(fields), colour_of, game.n)
    if parsed is None:  # something is wrong: find and name the bad tile
        parsed = _checked_tiles(fields, game, read, path, line)
    return *parsed, table, jokers[0], jokers[1]


def parse_puzzles(
    text: str,
    path: str = "<text>",
    *,
    k: int | None = None,
    m: int | None = None,
    n: int | None = None,
    meld: int | None = None,
) -> Puzzles:
    """Parse puzzle-file text; see the module docstring for the format and the game it
    is read as.

    Parameters
    ----------
    text : str
        The file's text, header included if it has one.
    path : str
        What messages call it.
    k, m, n : int, optional
        The game's k, m and n, each where the text has no header (with one, it must
        agree); None: the header's, else the default game's.
    meld : int, optional
        The points of an opening meld every puzzle is a move of (with a header that
        names one, it must agree); None: the header's rule, else none.

    Raises
    ------
    PuzzleFileError
        Naming the file, the line and the problem; also when a value given differs
        from the header's.
    """
    _check_shape(path, k, m, n)
    lines = enumerate(_split_lines(text, path), start=1)
    opened = _head_records(lines, path, {"k": k, "m": m, "n": n, "meld": meld})
    return _stack(_all_records(opened.records, path, opened.game), path, opened.game)


def _checked_tiles(fields, game: Game, read, path: str, line: int):
    """Values and colours of the tiles, tile by tile, raising on the first bad one."""
    letters = config.COLOURS[: game.k]
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
                f"tile {quoted(token)}: colour {match.group(2)!r} is not one of the colours of "
                f"{read[0]}, {', '.join(letters)}{read[1]}",
            )
        if value < 1:
            raise PuzzleFileError(path, line, f"tile {quoted(token)}: value must be at least 1")
        if value > game.n:
            raise PuzzleFileError(
                path, line, f"tile {quoted(token)}: value outside 1..{game.n} of "
                f"{read[0]}{read[1]}",
            )  # fmt: skip
        values.append(value)
        colours.append(colour)
    return np.asarray(values, dtype=np.int64), np.asarray(colours, dtype=np.int64)


def _stack(puzzles, path: str, game: Game) -> Puzzles:
    """Stack the records of a block, as :func:`_records` yields them, into a
    :class:`Puzzles` of ``game``, checking copies against its m."""
    k, m, n = game.k, game.m, game.n
    if not puzzles:
        copies = np.zeros((0, n, k), dtype=np.int8)
    else:
        copies = np.stack([record[2] for record in puzzles])
    plain = all(r[3] is None and r[4] == 0 for r in puzzles)
    table = None if plain else np.zeros_like(copies)
    jokers = None if plain else np.zeros(len(puzzles), dtype=np.int8)
    table_jokers = None if plain else np.zeros(len(puzzles), dtype=np.int8)
    for row, (_, _, _, on_table, rack_jokers, jokers_on_table) in enumerate(puzzles):
        if not plain:
            jokers[row] = rack_jokers + jokers_on_table
            table_jokers[row] = jokers_on_table
            if on_table is not None:
                table[row] = on_table
    flat = copies.reshape(len(puzzles), n * k)
    if len(puzzles) and flat.max() > m:  # (one check for the block: the first over m)
        row = int(np.argmax(flat.max(axis=1) > m))
        cell = int(np.argmax(flat[row] > m))
        tile = f"{cell // k + 1}{config.COLOURS[cell % k]}"
        number, line = puzzles[row][0], puzzles[row][1]
        raise PuzzleFileError(path, line, f"puzzle {number} has more than m={m} copies of {tile}")
    return Puzzles(
        copies, game=game, source=str(path), jokers=jokers, table=table,
        table_jokers=table_jokers,
    )  # fmt: skip


def _all_records(records, path: str, game: Game) -> list:
    """Every record, in a list; should one be malformed, a puzzle before it with too many
    copies is told first (:func:`_stack` checks copies only once it has the records)."""
    done = []
    try:
        for record in records:
            done.append(record)
    except PuzzleFileError:
        _stack(done, path, game)
        raise
    return done


def _open(path: str):
    if path == "-" and (sys.stdin is None or sys.stdin.closed):
        raise PuzzleFileError(path, 0, "cannot read: standard input is closed")
    try:
        return sys.stdin.buffer if path == "-" else open(path, "rb")
    except (OSError, AttributeError) as error:  # (a closed stand-in has no buffer)
        reason = getattr(error, "strerror", None) or error
        raise PuzzleFileError(path, 0, f"cannot read: {reason}") from None


class _Opened(NamedTuple):
    """A puzzle file whose header is read: the game to read it with, whether a header
    said so, and its records (:func:`_records`), read as they are asked for."""

    game: Game
    header: bool
    records: object


def _head_records(lines, path: str, given: dict, *, source=None) -> _Opened:
    """Read the header of a file's numbered lines, if the first is one, and settle the
    game to read the rest with: the header's (checked against the ``given`` k, m, n and
    meld), else the default game with the given ones in its place. ``source``: the
    :class:`_FileLines` the lines are, whose fast path :func:`_records` takes."""
    lines = iter(lines)
    first = next(lines, None)
    after = 0
    if first is not None and is_header(first[1]):
        try:
            game = Game.parse(first[1]).settle(given)
        except ValueError as error:
            raise PuzzleFileError(path, first[0], str(error)) from None
        after = first[0]
        read = (str(game), "")
    else:
        if first is not None:
            lines = itertools.chain([first], lines)
        chosen = {name: value for name, value in given.items() if value is not None}
        game = Game(**{**vars(DEFAULT_GAME), **chosen})
        hint = f" (a file without a header is read as {game}; a first line '# G(k, m, n)' "
        read = (str(game), hint + "names its game)")
    records = _records(lines, path, game, after=after, read=read, source=source)
    return _Opened(game, after > 0, records)


def _open_records(path, name: str, given: dict) -> _Opened:
    """Check the ``given`` k, m and n, open a puzzle file and read its header
    (:func:`_head_records`); the records follow as they are asked for."""
    _check_shape(name, given.get("k"), given.get("m"), given.get("n"))
    lines = _FileLines(str(path), name)
    return _head_records(lines, name, given, source=lines)


def read_puzzles(
    path, *, k: int | None = None, m: int | None = None, n: int | None = None,
    meld: int | None = None,
) -> Puzzles:  # fmt: skip
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
    opened = _open_records(path, path, {"k": k, "m": m, "n": n, "meld": meld})
    return _stack(_all_records(opened.records, path, opened.game), path, opened.game)
