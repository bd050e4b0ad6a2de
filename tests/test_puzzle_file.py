"""The thesis file format: round trips, defaults and one-line errors for bad input."""

import os
from pathlib import Path

import numpy as np
import pytest
from helpers import random_copies

from rumdiff import config
from rumdiff.puzzle import (
    PuzzleFileError,
    Puzzles,
    format_puzzles,
    parse_puzzles,
    read_puzzles,
    read_scores,
    scan_puzzles,
    write_puzzles,
    write_scores,
)


def test_section_4_1_matrices(section_4_1):
    first = section_4_1.copies[0]
    # Thesis Figure 3a, rows 1..5, columns b g r y.
    assert first.tolist() == [[2, 1, 0, 2], [1, 0, 0, 1], [2, 2, 2, 2], [1, 2, 2, 0], [2, 2, 2, 2]]
    assert (section_4_1.k, section_4_1.m, section_4_1.n) == (4, 2, 5)


def test_without_a_header_a_file_is_the_default_game_with_the_values_given():
    puzzles = parse_puzzles("1\n3\n1b 2g 7b\n")
    assert (puzzles.k, puzzles.m, puzzles.n) == (4, 2, 100)
    with pytest.raises(PuzzleFileError, match="colour 'o' is not one of the colours of G"):
        parse_puzzles("1\n3\n1b 2o 3p\n")
    assert parse_puzzles("1\n3\n1b 2o 3p\n", k=6).k == 6
    puzzles = parse_puzzles("1\n3\n1b 2b 3b\n", k=1, m=1, n=3)
    assert (puzzles.k, puzzles.m, puzzles.n) == (1, 1, 3)


@pytest.mark.parametrize("k, m", [(1, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_round_trip(tmp_path, k, m):
    rng = np.random.default_rng(k + m)
    copies = np.stack([random_copies(rng, k=k, m=m, n=20) for _ in range(5)])
    path = tmp_path / "p.in"
    write_puzzles(path, Puzzles(copies, m=m))
    again = read_puzzles(path, k=k, m=m, n=20)
    assert np.array_equal(again.copies, copies)
    assert format_puzzles(again) == path.read_text()


BAD = {
    "empty file": ("", 1, "empty file"),
    "not a number": ("x\n", 1, "non-negative integer"),
    "negative count": ("-1\n", 1, "non-negative integer"),
    "huge count": ("99999999999999999999\n", 1, "too large"),
    "two numbers on count line": ("1 2\n", 1, "expected only"),
    "missing puzzle": ("2\n1\n1b\n", 4, "file ends early"),
    "missing tile line": ("1\n2\n", 3, "file ends early"),
    "too few tiles": ("1\n3\n1b 2b\n", 3, "declares 3 tiles but lists 2"),
    "too many tiles": ("1\n1\n1b 2b\n", 3, "declares 1 tiles but lists 2"),
    "unknown colour": ("1\n1\n1x\n", 3, "colour 'x' is not one of"),
    "colour beyond k": ("1\n1\n1o\n", 3, "colour 'o' is not one of"),
    "value zero": ("1\n1\n0b\n", 3, "value must be at least 1"),
    "value above n": ("1\n1\n9b\n", 3, "value outside 1..5"),
    "huge value": ("1\n1\n123456789012345b\n", 3, "too large"),
    "not a tile": ("1\n1\nb1\n", 3, "is not a tile"),
    "too many copies": ("1\n3\n1b 1b 1b\n", 3, "more than m=2 copies of 1b"),
    "too many copies, then a bad tile": ("2\n3\n1b 1b 1b\n1\n1x\n", 3, "more than m=2"),
    "stray blank line inside": ("1\n\n1\n1b\n", 2, "blank line"),
    "stray blank line at end": ("1\n1\n1b\n\n", 4, "stray blank line"),
    "extra text at end": ("1\n1\n1b\n1\n", 4, "unexpected text"),
    "cr inside a line": ("1\n2\n1b\r2b\n", 3, "CR inside a line"),
    "tile count not a number": ("1\nthree\n1b\n", 2, "non-negative integer"),
}


#: Characters a file refuses between tiles, which text must refuse too.
SEPARATORS = {"vertical tab": "\x0b", "NUL": "\x00", "no-break space": "\xa0",
              "line separator": "\u2028", "next line": "\x85"}  # fmt: skip


@pytest.mark.parametrize("name", sorted(BAD) + sorted(SEPARATORS))
def test_bad_input_names_file_line_and_problem(tmp_path, name):
    if name in SEPARATORS:
        text, line, problem = f"1\n3\n1b{SEPARATORS[name]}2b 3b\n", 3, ""
    else:
        text, line, problem = BAD[name]
    path = tmp_path / "bad.in"
    path.write_bytes(text.encode())
    kwargs = {"k": 4, "n": 5} if name in ("colour beyond k", "value above n") else {}
    with pytest.raises(PuzzleFileError) as caught:
        read_puzzles(path, **kwargs)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert problem in message
    assert "\n" not in message
    # The file's text reads as the file does: the same line, the same reason (text says
    # "character" where a file says "byte").
    with pytest.raises(PuzzleFileError) as from_text:
        parse_puzzles(text, "bad.in", **kwargs)
    told = message.split(": ", 1)[1].replace("byte in file", "character in text")
    assert str(from_text.value) == f"bad.in:{line}: {told}"
    # The whole-file check that rumdiff solve makes first finds the same problem, in
    # blocks of any size (cells=1: a puzzle a block).
    for cells in (1, config.PUZZLE_BLOCK_CELLS):
        with pytest.raises(PuzzleFileError) as scanned:
            scan_puzzles(path, cells=cells, **kwargs)
        assert str(scanned.value) == message


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(PuzzleFileError, match="cannot read"):
        read_puzzles(tmp_path / "absent.in")
    path = tmp_path / "binary.in"
    path.write_bytes(b"1\n1\n1\xffb\n")
    with pytest.raises(PuzzleFileError, match=r":3: non-ASCII"):
        read_puzzles(path)


def test_bad_parameters():
    with pytest.raises(PuzzleFileError, match="m must be"):
        parse_puzzles("1\n1\n1b\n", m=4)
    with pytest.raises(PuzzleFileError, match="k must be"):
        parse_puzzles("1\n1\n1b\n", k=7)


def test_empty_puzzle_and_zero_puzzles():
    puzzles = parse_puzzles("1\n0\n\n", n=3)
    assert len(puzzles) == 1 and puzzles[0].tiles == 0
    assert len(parse_puzzles("0\n", n=3)) == 0


def test_scores_round_trip_and_errors(tmp_path):
    path = tmp_path / "s.out"
    write_scores(path, [93, 65, 0])
    assert read_scores(path).tolist() == [93, 65, 0]
    path.write_text("93\n\n65\n")
    with pytest.raises(PuzzleFileError, match=r":2: blank line"):
        read_scores(path)
    path.write_text("93\nabc\n")
    with pytest.raises(PuzzleFileError, match=r":2: score must be"):
        read_scores(path)


def test_fast_tile_parser_equals_its_checked_twin():
    from rumdiff.puzzle import Game
    from rumdiff.puzzle.files import _checked_tiles
    from rumdiff.puzzle.tokens import colour_lookup as _colour_lookup
    from rumdiff.puzzle.tokens import fast_tiles as _fast_tiles

    rng = np.random.default_rng(5)
    letters = config.COLOURS
    colour_of = _colour_lookup(letters)
    for _ in range(200):
        count = int(rng.integers(0, 30))
        values = rng.integers(1, 120, count)
        colours = rng.integers(0, len(letters), count)
        zeros = rng.integers(0, 3, count)  # leading zeros are valid: 007b is 7b
        tiles = zip(values, colours, zeros, strict=True)
        fields = [f"{'0' * z}{v}{letters[c]}" for v, c, z in tiles]
        n = int(rng.choice([119, 200]))
        fast = _fast_tiles(" ".join(fields), colour_of, n)
        expected = values.max(initial=0) <= n
        assert (fast is not None) == expected
        if fast is not None:
            slow = _checked_tiles(fields, Game(6, 3, n), ("", ""), "f", 1)
            np.testing.assert_array_equal(fast[0], slow[0])
            np.testing.assert_array_equal(fast[1], slow[1])
            np.testing.assert_array_equal(fast[0], values)
    # Whatever is not a line of well-formed tiles goes to the checked path, which names
    # the problem or reads the jokers and the table mark.
    for line in ("7x", "7B", "b7", "7bb", "7 b", "0b", "1234567890b", "101b", "7b|", "7b J",
                 "7b | 8b", "7b\x0b8b", "7é", "-7b", "+7b", "7b,8b"):  # fmt: skip
        assert _fast_tiles(line, colour_of, 100) is None, line
    for line, values, colours in (
        ("", [], []),
        ("  7b\t 12r  ", [7, 12], [0, 2]),
        ("007y 100b 000000001g", [7, 100, 1], [3, 0, 1]),
    ):  # fmt: skip
        fast = _fast_tiles(line, colour_of, 100)
        assert fast is not None and fast[0].tolist() == values and fast[1].tolist() == colours


def _outcome(read):
    """What a reader gives: the puzzles' arrays, or the message of its error."""
    try:
        puzzles = read()
    except PuzzleFileError as error:
        return str(error)
    return [
        None if part is None else part.tolist()
        for part in (puzzles.copies, puzzles.table, puzzles.jokers, puzzles.table_jokers)
    ]


def _read_in_pieces(path, read_bytes: int | None):
    """``read_puzzles(path)``, its file read ``read_bytes`` at a time."""
    from rumdiff.puzzle.files import _all_records, _FileLines, _head_records, _stack

    lines = _FileLines(str(path), str(path), read_bytes=read_bytes)
    given = {"k": None, "m": None, "n": None, "meld": None}
    opened = _head_records(lines, str(path), given, source=lines)
    return _stack(_all_records(opened.records, str(path), opened.game), str(path), opened.game)


def _random_puzzle_text(rng) -> str:
    """A small puzzle file in the ways people write them (header or none, jokers, a
    table, tabs, runs of spaces, leading zeros, CRLF, zero tiles, too many copies or
    jokers), sometimes with a few bytes changed at random."""
    header = bool(rng.integers(2))
    n = 13 if header else 100
    lines = ["# G(4, 2, 13) j=2"] if header else []
    count = int(rng.integers(0, 6))
    lines.append(f"{' ' * int(rng.integers(2))}{count}")
    for _ in range(count):
        zeros = ["0" * int(rng.choice([0, 0, 1, 9])) for _ in range(12)]  # 07b is 7b
        tiles = [
            f"{zeros[i]}{rng.integers(1, n + 1)}{'bgry'[rng.integers(4)]}"
            for i in range(int(rng.integers(0, 12)))
        ]
        tiles += ["J"] * int(rng.choice([0, 0, 0, 1, 2, 3]))
        order = [tiles[i] for i in rng.permutation(len(tiles))]
        if rng.random() < 0.4:
            order.insert(int(rng.integers(len(order) + 1)), "|")
        declared = len(tiles) + int(rng.choice([0] * 10 + [1, -1]))
        lines.append(f"{declared}{' ' * int(rng.integers(2))}")
        gaps = [str(rng.choice([" ", " ", "\t", "  "])) for _ in order]
        lines.append("".join(gap + tile for gap, tile in zip(gaps, order, strict=True)))
    ending = "\r\n" if rng.random() < 0.2 else "\n"
    text = ending.join(lines) + (ending if rng.random() < 0.9 else "")
    for _ in range(int(rng.choice([0, 0, 0, 1, 2]))):
        at = int(rng.integers(len(text) + 1))
        byte = str(rng.choice(list("0123456789bgryxJ| \t\r\n#\x00\x0b")))
        cut = int(rng.integers(2))  # replace the byte there, or insert before it
        text = text[:at] + byte + text[at + cut :]
    return text


def test_a_file_in_buffers_of_any_size_reads_as_its_text(tmp_path):
    """The fast path (whole puzzles read from the file's buffer by a kernel) and the
    line-by-line reader of text: the same puzzles, or the same message."""
    rng = np.random.default_rng(11)
    path = tmp_path / "p.in"
    told = read = 0
    for _ in range(400):
        text = _random_puzzle_text(rng)
        path.write_bytes(text.encode())
        expected = _outcome(lambda: parse_puzzles(text, str(path)))  # noqa: B023
        assert _outcome(lambda: read_puzzles(path)) == expected, text  # noqa: B023
        for read_bytes in (1, 5, 64):
            assert _outcome(lambda: _read_in_pieces(path, read_bytes)) == expected, text  # noqa: B023
        told += isinstance(expected, str)
        read += not isinstance(expected, str)
    assert told > 100 and read > 100  # both kinds of file were tried


def test_a_line_over_the_limit_is_named_whichever_path_meets_it(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "PUZZLE_LINE_BYTES", 12)
    path = tmp_path / "long.in"
    path.write_bytes(b"3\n3\n1b 2b 3b\r\n4\n1b 2b 3b 4b\n4\n1b 2b 10b 4b\n")  # 11, 12, 13 bytes
    for read_bytes in (None, 1, 5):
        with pytest.raises(PuzzleFileError, match=r":7: line longer than 12 bytes"):
            _read_in_pieces(path, read_bytes)
    path.write_bytes(b"2\n3\n1b 2b 3b\r\n4\n1b 2b 3b 4b\n")
    for read_bytes in (None, 1, 5):
        assert _read_in_pieces(path, read_bytes).copies.sum() == 7


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="lists open files by /proc")
def test_a_file_is_closed_once_its_problem_is_told(tmp_path):
    path = tmp_path / "bad.in"
    path.write_text("3\n1\n1b\n1\n1x\n1\n2b\n" + "1\n1b\n" * 50_000)
    with pytest.raises(PuzzleFileError, match=":5:") as caught:
        read_puzzles(path)
    fds = Path("/proc/self/fd")
    open_files = {os.path.realpath(fds / fd) for fd in os.listdir(fds)}
    assert str(path.resolve()) not in open_files, caught.value


def test_a_well_formed_file_is_read_by_the_fast_path(tmp_path, monkeypatch):
    from rumdiff.puzzle import files

    rng = np.random.default_rng(3)
    copies = np.stack([random_copies(rng, k=4, m=2, n=100) for _ in range(300)])
    path = tmp_path / "p.in"
    write_puzzles(path, Puzzles(copies, m=2))
    # Lines that end in CRLF, tabs, jokers and a table are read the same way.
    text = path.read_text().replace("\n", "\r\n").replace(" ", "\t", 50)
    text = text.replace("1b", "J", 1).replace("2b", "| 2b", 1)
    windows = tmp_path / "windows.in"
    windows.write_bytes(text.encode())
    expected = _outcome(lambda: parse_puzzles(text, str(windows)))
    line_by_line = []
    monkeypatch.setattr(files, "fast_tiles", lambda line, *args: line_by_line.append(line))
    assert np.array_equal(read_puzzles(path).copies, copies)
    assert _outcome(lambda: read_puzzles(windows)) == expected
    assert expected[1] is not None  # (the table was read)
    assert line_by_line == []
    # A malformed puzzle goes to the line-by-line reader, which names its problem.
    bad = tmp_path / "bad.in"
    bad.write_text(path.read_text().replace("\n1b", "\n1x", 1))
    with pytest.raises(PuzzleFileError, match=":3: tile '1x'"):
        read_puzzles(bad)
    assert line_by_line and all(line.startswith("1x ") for line in line_by_line)


@pytest.mark.parametrize(
    "puzzle",
    [
        "3\n1b 2b 2b 2b\n", "1\n1234567890b\n", "1\n0000000001b\n", "2\n1b | 2b | 3b\n",
        "4\n1b J J J\n", "1\n1x\n", "1\n0b\n", "1\n14b\n", "1\n1b|\n", "1\n1bJ\n",
        "1\n1b\r \n", "1\n1b\x0b\n", "1\n1b\xa0\n", "0000000000\n\n", "1 1\n1b\n", "1\n1b",
        "1\n", "x\n1b\n", "4\n1b 1b 1b 2b\n",
    ],
)  # fmt: skip
def test_the_fast_path_leaves_any_other_puzzle_to_the_line_reader(puzzle):
    from rumdiff.puzzle import Game
    from rumdiff.puzzle.tokens import colour_lookup, fast_puzzles, puzzle_scratch

    game = Game(4, 2, 13, jokers=2)
    colour_of = colour_lookup("bgry")
    scratch = puzzle_scratch(game, 10)
    for part in scratch:
        part.fill(1)  # (what an earlier call left)
    good = b"3\n1b J | 2b\r\n0\n\n"
    read = fast_puzzles(good + puzzle.encode("latin-1"), 0, game, colour_of, scratch)
    copies, table, counts, end = read
    assert counts == [[1, 0, 1], [0, 0, 0]] and end == len(good)
    assert copies[0, :2, 0].tolist() == [1, 1] and table[0, :2, 0].tolist() == [0, 1]
    assert copies.sum() == 2 and table.sum() == 1
    assert fast_puzzles(puzzle.encode("latin-1"), 0, game, colour_of, scratch) is None
    one = tuple(part[:1] for part in scratch)
    assert fast_puzzles(good, 0, game, colour_of, one)[3] == good.index(b"0")  # at most 1
