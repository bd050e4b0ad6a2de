"""The optional header line of puzzle files, the text of their game: read by every reader
by one rule, checked against what callers give, counted in line numbers, written by the
writer."""

import io

import numpy as np
import pytest
from helpers import random_copies
from test_puzzle_file import BAD

from rumdiff import config
from rumdiff.puzzle import (
    DEFAULT_GAME,
    FileShape,
    Game,
    PuzzleFileError,
    Puzzles,
    format_header,
    format_puzzles,
    iter_puzzles,
    parse_header,
    parse_puzzles,
    read_puzzles,
    scan_puzzles,
    stream_puzzles,
    write_puzzles,
)

#: One puzzle whose letters and values alone would make it G(4, 2, 3).
BODY = "1\n3\n1b 2b 3b\n"


def _read_all(reader, path, **shape):
    """Read a whole file with one of the readers; what it settled on, and its puzzles."""
    if reader == "parse":
        puzzles = parse_puzzles(path.read_text(), str(path), **shape)
        return (puzzles.k, puzzles.m, puzzles.n), puzzles
    if reader == "read":
        puzzles = read_puzzles(path, **shape)
        return (puzzles.k, puzzles.m, puzzles.n), puzzles
    if reader == "scan":
        found = scan_puzzles(path, **shape)
        return (found.k, found.m, found.n), None
    blocks = (iter_puzzles if reader == "iter" else stream_puzzles)(path, **shape)
    puzzles = list(blocks)
    return (blocks.k, blocks.m, blocks.n), puzzles[0] if puzzles else None


READERS = ("parse", "read", "scan", "iter", "stream")


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_takes_k_m_n_from_the_header(tmp_path, reader):
    path = tmp_path / "p.in"
    path.write_text("# G(5, 3, 13)\n" + BODY)
    shape, puzzles = _read_all(reader, path)
    assert shape == (5, 3, 13)
    if puzzles is not None:
        assert (puzzles.k, puzzles.m, puzzles.n) == (5, 3, 13)
        assert puzzles.copies[0, :3, 0].tolist() == [1, 1, 1]


@pytest.mark.parametrize("reader", READERS)
def test_without_a_header_every_reader_reads_the_default_game(tmp_path, reader):
    # One rule for every reader, never from the file's letters or largest value: a
    # puzzle reads the same whatever the other puzzles of its file hold.
    path = tmp_path / "p.in"
    path.write_text(BODY)
    shape, _ = _read_all(reader, path)
    assert shape == (config.K, config.M, config.N) == (4, 2, 100)
    assert _read_all(reader, path, n=13, m=3)[0] == (4, 3, 13)


@pytest.mark.parametrize(
    "line",
    [
        "# G(5, 3, 13)",
        "#G(5,3,13)",
        "#  G( 5 , 3 , 13 )",
        "  # G(5, 3, 13)  ",
        "#\tG\t(5,\t3,\t13)",
        "# G(05, 3, 0013)",
    ],
)
def test_whitespace_around_the_parts_is_free(line):
    assert parse_header(line) == Game(5, 3, 13)
    puzzles = parse_puzzles(f"{line}\n{BODY}")
    assert (puzzles.k, puzzles.m, puzzles.n) == (5, 3, 13)


@pytest.mark.parametrize("name, value", [("k", 6), ("m", 2), ("n", 100)])
@pytest.mark.parametrize("reader", READERS)
def test_a_value_given_against_the_header_is_a_one_line_error(tmp_path, reader, name, value):
    path = tmp_path / "p.in"
    path.write_text("# G(5, 3, 13)\n" + BODY)
    said = {"k": 5, "m": 3, "n": 13}[name]
    with pytest.raises(PuzzleFileError) as caught:
        _read_all(reader, path, **{name: value})
    said_given = f"header says {name} = {said} but {name} = {value} was given"
    assert str(caught.value) == f"{path}:1: {said_given}"
    # The same value as the header's is no contradiction.
    assert _read_all(reader, path, **{name: said})[0] == (5, 3, 13)


MALFORMED = {
    "# G(4, 2)": "malformed header '# G(4, 2)': expected",
    "# G(4, 2, 13, 1)": "malformed header",
    "# G(a, 2, 13)": "header '# G(a, 2, 13)': k must be a whole number in 1..6, got 'a'",
    "# G(4, , 13)": "m must be a whole number in 1..3, got ''",
    "# G(4, -2, 13)": "m must be a whole number in 1..3, got '-2'",
    "# G(4, 2.0, 13)": "m must be a whole number in 1..3, got '2.0'",
    "# G(0, 2, 13)": "k must be a whole number in 1..6, got 0",
    "# G(7, 2, 13)": "k must be a whole number in 1..6, got 7",
    "# G(4, 4, 13)": "m must be a whole number in 1..3, got 4",
    "# G(4, 2, 10001)": "n must be a whole number in 1..10000, got 10001",
    "# G(4, 2, 99999999999999999999)": "n must be a whole number in 1..10000, got '9999",
    "# G(4, 2, 13) j=5": "j must be a whole number in 0..4, got 5",
    "# G(4, 2, 13) j=2 j=2": "option j given twice",
    "# G(4, 2, 13) rules=30": "unknown option 'rules'",
    "# G(4, 2, 13) meld=": "meld must be a whole number",
    "# G(4, 2, 13) x": "malformed header",
    "# g(4, 2, 13)": "malformed header",
    "# G[4, 2, 13]": "malformed header",
    "# puzzles of the game": "malformed header '# puzzles of the game'",
    "#": "malformed header '#'",
}


@pytest.mark.parametrize("reader", ["read", "scan", "iter", "stream"])
@pytest.mark.parametrize("line", sorted(MALFORMED))
def test_a_malformed_header_is_a_one_line_error_on_line_1(tmp_path, line, reader):
    path = tmp_path / "p.in"
    path.write_text(f"{line}\n{BODY}")
    with pytest.raises(PuzzleFileError) as caught:
        _read_all(reader, path)
    message = str(caught.value)
    assert message.startswith(f"{path}:1: ") and MALFORMED[line] in message, message
    assert "\n" not in message
    with pytest.raises(ValueError, match="header"):
        parse_header(line)


def test_a_huge_number_in_a_header_is_cut_short():
    with pytest.raises(ValueError) as caught:
        parse_header(f"# G(4, 2, {'9' * 5000})")
    assert len(str(caught.value)) < 200 and "5,000 characters" in str(caught.value)


# Every bad input of the header-free files, behind a header: one line further down.
SHIFTED = sorted(set(BAD) - {"empty file"})


@pytest.mark.parametrize("name", SHIFTED)
@pytest.mark.parametrize("reader", ["read", "scan", "iter", "stream"])
def test_line_numbers_after_a_header_count_it(tmp_path, name, reader):
    text, line, problem = BAD[name]
    path = tmp_path / "bad.in"
    path.write_bytes(b"# G(4, 2, 5)\n" + text.encode())
    with pytest.raises(PuzzleFileError) as caught:
        _read_all(reader, path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line + 1}: "), message
    assert problem in message and "\n" not in message


def test_a_header_alone_holds_no_count():
    with pytest.raises(PuzzleFileError, match=r"^f:2: file ends early: expected the number"):
        parse_puzzles("# G(4, 2, 13)\n", "f")


def test_only_the_first_line_can_be_a_header():
    with pytest.raises(PuzzleFileError) as caught:
        parse_puzzles("1\n# G(4, 2, 13)\n3\n1b 2b 3b\n", "f")
    assert str(caught.value).startswith("f:2: '# G(4, 2, 13)' where the tile count of puzzle 1")
    assert "a header can only be the first line" in str(caught.value)
    with pytest.raises(PuzzleFileError, match=r"^f:2: "):
        parse_puzzles("# G(4, 2, 13)\n# G(4, 2, 13)\n" + BODY, "f")


def test_tiles_are_checked_against_the_header():
    with pytest.raises(PuzzleFileError, match=r"^f:4: tile '1o': colour 'o' is not one of"):
        parse_puzzles("# G(4, 2, 13)\n1\n3\n1b 1g 1o\n", "f")
    with pytest.raises(PuzzleFileError, match=r"^f:4: puzzle 1 has more than m=1 copies of 1b"):
        parse_puzzles("# G(4, 1, 13)\n1\n2\n1b 1b\n", "f")
    with pytest.raises(PuzzleFileError, match=r"^f:6: tile '14b': value outside 1..13"):
        parse_puzzles("# G(4, 2, 13)\n2\n1\n1b\n1\n14b\n", "f")


def test_no_puzzles_keep_the_header_shape(tmp_path):
    puzzles = parse_puzzles("# G(6, 3, 200)\n0\n")
    assert len(puzzles) == 0 and (puzzles.k, puzzles.m, puzzles.n) == (6, 3, 200)
    path = tmp_path / "none.in"
    path.write_text("# G(6, 3, 200)\n0\n")
    assert scan_puzzles(path) == FileShape(Game(6, 3, 200), True, 0)
    blocks = iter_puzzles(path)
    assert (blocks.k, blocks.m, blocks.n, list(blocks)) == (6, 3, 200, [])


@pytest.fixture
def stdin(monkeypatch):
    def give(text: str):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    return give


def test_standard_input_is_read_once_header_included(stdin):
    stdin("# G(5, 2, 13)\n2\n3\n1b 2b 3b\n1\n4o\n")
    blocks = stream_puzzles("-")
    assert (blocks.k, blocks.m, blocks.n, blocks.header) == (5, 2, 13, True)
    puzzles = list(blocks)
    assert sum(len(block) for block in puzzles) == 2
    assert all((block.k, block.n) == (5, 13) for block in puzzles)
    stdin("# G(4, 2, 13)\n1\n1\n14b\n")
    with pytest.raises(PuzzleFileError, match=r"^-:4: tile '14b': value outside 1..13"):
        list(iter_puzzles("-"))


def test_a_stream_and_a_file_are_read_alike(tmp_path, stdin):
    # Each by the one rule: the header's game, else the default one, settled before the
    # first puzzle (a pipe cannot be read twice to find its largest value).
    text = "2\n2\n1b 2b J\n3\n11b 12b 13b\n".replace("\n2\n1b", "\n3\n1b")
    path = tmp_path / "p.in"
    path.write_text(text)
    stdin(text)
    assert iter_puzzles(path).game == stream_puzzles("-").game == DEFAULT_GAME
    stdin(text)
    streamed = [block for block in stream_puzzles("-")]
    assert [b.copies.shape for b in streamed] == [b.copies.shape for b in iter_puzzles(path)]


def test_files_saved_on_windows_read_like_lf():
    windows = parse_puzzles("1\r\n3\r\n1b 2b 3b\r\n")
    assert windows[0] == parse_puzzles(BODY)[0]
    assert parse_puzzles("# G(4, 2, 13)\r\n" + BODY.replace("\n", "\r\n")).n == 13
    with pytest.raises(PuzzleFileError, match=r"^f:3: CR inside a line"):
        parse_puzzles("1\n3\n1b\r2b 3b\n", "f")


def test_a_zero_padded_number_reads_as_its_value():
    # Leading zeros are stripped before a number is converted (Python refuses 4,300 digits).
    padded = "0" * 5000
    puzzles = parse_puzzles(f"1\n{padded}3\n{padded}1b 2b 3b\n")
    assert puzzles[0] == parse_puzzles(BODY)[0]
    with pytest.raises(PuzzleFileError, match="too large"):
        parse_puzzles(f"1\n3\n{padded}1234567890b 2b 3b\n")


def test_jokers_are_counted_apart_from_the_regular_tiles():
    # G(1, 1, 3) holds 3 tiles and up to 4 jokers: a puzzle of all of them fits.
    puzzles = parse_puzzles("# G(1, 1, 3)\n1\n4\n1b 2b 3b J\n")
    assert puzzles[0].jokers == 1
    with pytest.raises(PuzzleFileError, match="holds 3 tiles and 1 jokers"):
        parse_puzzles("# G(1, 1, 3) j=1\n1\n5\n1b 2b 3b J J\n")
    with pytest.raises(PuzzleFileError, match="2 jokers; a puzzle of G\\(4, 2, 13\\) j=1 holds"):
        parse_puzzles("# G(4, 2, 13) j=1\n1\n5\n1b 2b 3b J J\n")


def test_the_header_is_read_when_the_reader_is_made(tmp_path):
    # So a command knows the shape, or fails, before it writes anything.
    path = tmp_path / "p.in"
    path.write_text("# G(4, 2, 13)\n1\n1\nnot-a-tile\n")
    assert iter_puzzles(path).n == 13
    path.write_text("# G(4, 2)\n" + BODY)
    with pytest.raises(PuzzleFileError, match=":1: malformed header"):
        iter_puzzles(path)
    with pytest.raises(PuzzleFileError, match=":1: malformed header"):
        stream_puzzles(path)


@pytest.mark.parametrize("k, m, n", [(1, 1, 3), (4, 2, 13), (5, 3, 20), (6, 3, 100)])
def test_round_trip_through_the_writer_needs_no_shape(tmp_path, k, m, n):
    rng = np.random.default_rng(k * m + n)
    copies = np.stack([random_copies(rng, k=k, m=m, n=n) for _ in range(4)])
    copies[:, -1] = 0  # no tile of the largest value: the file alone would say a smaller n
    puzzles = Puzzles(copies, m=m)
    path = tmp_path / "p.in"
    write_puzzles(path, puzzles, header=True)
    text = path.read_text()
    assert text.startswith(f"# G({k}, {m}, {n})\n{len(puzzles)}\n")
    assert text == format_puzzles(puzzles, header=True)
    again = read_puzzles(path)
    assert (again.k, again.m, again.n) == (k, m, n)
    assert np.array_equal(again.copies, copies)
    assert format_puzzles(again, header=True) == text
    assert scan_puzzles(path) == FileShape(Game(k, m, n), True, len(puzzles))


def test_round_trip_of_jokers_and_a_table():
    text = "2\n16\n2b 2b 2r J 8g 8r | 1b 1g 1r 4b 4g 4r 9b 10b 11b J\n5\n| 5b 5g 5r 5y J\n"
    puzzles = parse_puzzles(text, k=5, n=13)
    written = format_puzzles(puzzles, header=True)
    assert written.startswith("# G(5, 2, 13)\n2\n")
    again = parse_puzzles(written)
    assert (again.k, again.m, again.n) == (5, 2, 13)
    assert [p == q for p, q in zip(again, puzzles, strict=True)] == [True, True]


def test_without_header_the_writer_writes_as_before(tmp_path):
    puzzles = parse_puzzles(BODY)
    assert format_puzzles(puzzles) == BODY
    path = tmp_path / "p.in"
    write_puzzles(path, puzzles)
    assert path.read_text() == BODY
    assert format_header(Game(4, 2, 13)) == "# G(4, 2, 13)"
    assert format_header(Game(4, 2, 13, jokers=2, meld=30)) == "# G(4, 2, 13) j=2 meld=30"


def test_a_games_rules_travel_with_its_puzzles():
    puzzles = parse_puzzles("# G(4, 2, 13) j=2 meld=30\n" + BODY)
    assert puzzles.game == Game(4, 2, 13, jokers=2, meld=30) == puzzles[0].game
    assert format_puzzles(puzzles, header=True).startswith("# G(4, 2, 13) j=2 meld=30\n")
    assert Game.parse(puzzles.game.header) == puzzles.game


def test_the_game_of_puzzles_drawn_with_jokers_names_them_and_without_none():
    from rumdiff.puzzle import Game

    assert str(Game.drawn_with(4, 2, 13, 2)) == "G(4, 2, 13) j=2"
    assert Game.drawn_with(4, 2, 13, 0) == Game(4, 2, 13)
    assert str(Game.drawn_with(4, 2, 13, 0)) == "G(4, 2, 13)"
