"""Solutions as players see them (rumdiff.solve.display): the cards of each arrangement,
as text (``rumdiff solve --show``) and drawn (``rumdiff show``, Jupyter)."""

import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rumdiff import config
from rumdiff.cli import main
from rumdiff.puzzle import Puzzle, read_puzzles
from rumdiff.solve import Arrangement, Group, InvalidArrangement, Run, solve
from rumdiff.solve.display import arrangement_rows, draw_puzzles, solution_text

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"
TURN = EXAMPLES / "turn.in"


@pytest.fixture(scope="module")
def turn():
    """The example turn G(4, 2, 13): 14 tiles and 2 jokers, 10 tiles of them on the table."""
    puzzle = read_puzzles(TURN, k=4, m=2, n=13)[0]
    return puzzle, solve(puzzle).arrangement


def _cards(rows, kinds=None):
    return [card for row in rows if kinds is None or row.kind in kinds for card in row.cards]


def _labelled(figure, label):
    axes = figure.axes[0]
    return [a for a in (*axes.patches, *axes.texts) if a.get_label() == label]


def test_every_tile_of_the_turn_is_on_one_card(turn):
    puzzle, arrangement = turn
    rows = arrangement_rows(puzzle, arrangement)
    cards = _cards(rows)
    regular = sorted((c.value, c.colour) for c in cards if not c.joker)
    assert regular == puzzle.tile_list()
    assert sum(c.joker for c in cards) == puzzle.jokers == 2
    # Every table tile and table joker is placed, and marked as the table's.
    table = [c for c in cards if c.table]
    assert len(table) == int(puzzle.table_copies.sum()) + puzzle.table_jokers == 10
    assert not any(c.table for c in _cards(rows, {"unplaced"}))
    assert Counter((c.value, c.colour) for c in table if not c.joker) == Counter(
        (v + 1, c) for v, c in zip(*puzzle.table_copies.nonzero(), strict=True)
        for _ in range(int(puzzle.table_copies[v, c]))
    )  # fmt: skip
    sets = [r for r in rows if r.kind in ("run", "group")]
    assert len(sets) == len(arrangement.runs) + len(arrangement.groups)


def test_jokers_show_what_they_stand_for(turn):
    puzzle, arrangement = turn
    expected = sorted(
        [f"={v}{config.COLOURS[r.colour]}" for r in arrangement.runs for v in r.jokers]
        + [f"={g.value}{config.COLOURS[c]}" for g in arrangement.groups for c in g.jokers]
    )
    assert len(expected) == 2
    cards = _cards(arrangement_rows(puzzle, arrangement))
    assert sorted(c.stands_for for c in cards if c.joker) == expected
    figure = draw_puzzles([puzzle], [arrangement])
    assert sorted(t.get_text() for t in _labelled(figure, "stands")) == expected
    assert [t.get_text() for t in _labelled(figure, "joker")] == ["J", "J"]


def test_a_joker_in_a_run_stands_in_its_place_and_unplaced_tiles_stay_apart():
    puzzle = Puzzle.from_tiles([(1, 0), (3, 0), (4, 2), "J", "J"], k=4, m=2, n=5)
    arrangement = Arrangement(runs=(Run(0, 1, 3, jokers=(2,)),))
    rows = arrangement_rows(puzzle, arrangement)
    assert [row.kind for row in rows] == ["run", "unplaced"]
    assert [(c.text, c.stands_for) for c in rows[0].cards] == [("1", ""), ("J", "=2b"), ("3", "")]
    unplaced = rows[1].cards
    assert [(c.value, c.colour, c.joker) for c in unplaced] == [(4, 2, False), (0, -1, True)]
    assert unplaced[1].stands_for == "" and not any(c.table for c in _cards(rows))


def test_a_group_shows_its_joker_among_its_colours():
    puzzle = Puzzle.from_tiles([(5, 0), (5, 3)], k=4, m=2, n=5, table=["J"])
    rows = arrangement_rows(puzzle, Arrangement(groups=(Group(5, (0, 3), jokers=(1,)),)))
    assert [(c.text, c.stands_for, c.table) for c in rows[0].cards] == [
        ("5", "", False), ("J", "=5g", True), ("5", "", False),
    ]  # fmt: skip


def test_copies_on_rack_and_table_are_marked_as_many_as_each_holds():
    # 1b 2b 3b twice, one copy each on the table: two equal runs, one the table's.
    tiles = [(1, 0), (2, 0), (3, 0)]
    puzzle = Puzzle.from_tiles(tiles, k=4, m=2, n=5, table=tiles)
    rows = arrangement_rows(puzzle, solve(puzzle).arrangement)
    assert [(row.kind, [c.table for c in row.cards]) for row in rows] == [
        ("run", [True, True, True]), ("run", [False, False, False]),
    ]  # fmt: skip


def test_a_wrong_arrangement_is_not_drawn():
    puzzle = Puzzle.from_tiles([(1, 0), (2, 0), (3, 0)], k=4, m=2, n=5)
    with pytest.raises(InvalidArrangement):
        arrangement_rows(puzzle, Arrangement(runs=(Run(0, 2, 4),)))


def test_the_figure_has_a_card_per_tile(turn):
    puzzle, arrangement = turn
    plain = read_puzzles(EXAMPLES / "thesis-4.1.in", k=4, m=2, n=5)
    puzzles = [*plain, puzzle]
    figure = draw_puzzles(puzzles, [solve(p).arrangement for p in puzzles], numbers=[4, 5, 6])
    tiles = sum(p.tiles + p.jokers for p in puzzles)
    legend = len(_labelled(figure, "legend"))
    assert legend == 2  # a puzzle has a table: rack and table cards are explained
    assert len(_labelled(figure, "card:rack")) + len(_labelled(figure, "card:table")) == tiles
    assert len(_labelled(figure, "card:table")) == 10
    values = Counter(t.get_text() for t in _labelled(figure, "value"))
    expected = Counter(str(v) for p in puzzles for v, _ in p.tile_list())
    assert values == expected
    titles = [t.get_text() for t in figure.axes[0].texts if t.get_text().startswith("puzzle")]
    assert titles == [
        f"puzzle {number}: score {solve(p).score} of {p.points}"
        for number, p in zip([4, 5, 6], puzzles, strict=True)
    ]


def test_an_infeasible_puzzle_is_drawn_with_a_note():
    # The table's 5b 5g need a third 5 in another colour; the rack has only a 1r.
    puzzle = Puzzle.from_tiles([(1, 2)], k=4, m=2, n=5, table=[(5, 0), (5, 1)])
    solution = solve(puzzle)
    assert not solution.feasible
    rows = arrangement_rows(puzzle, solution.arrangement)
    assert [(row.kind, len(row.cards)) for row in rows] == [("table", 2), ("rack", 1)]
    assert all(c.table for c in rows[0].cards) and not rows[1].cards[0].table
    figure = draw_puzzles([puzzle], [None])
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert any("infeasible" in text for text in texts)
    assert len(_labelled(figure, "card:table")) == 2 and len(_labelled(figure, "card:rack")) == 1


def test_a_picture_keeps_every_text_on_its_canvas(turn):
    from helpers import clipped_texts

    puzzle, arrangement = turn
    infeasible = Puzzle.from_tiles([(1, 2)], k=4, m=2, n=5, table=[(5, 0), (5, 1)])
    long_run = Puzzle.from_tiles([(v, 5) for v in range(95, 101)], k=6, m=1, n=100)
    puzzles = [puzzle, infeasible, long_run]
    arrangements = [arrangement, None, solve(long_run).arrangement]
    # The narrowest picture with the longest title (an infeasible puzzle, a two-digit
    # number), and one whose cards reach three digits.
    assert clipped_texts(draw_puzzles([infeasible], [None], numbers=[20])) == []
    assert clipped_texts(draw_puzzles(puzzles, arrangements, numbers=[18, 19, 20])) == []


def test_the_text_marks_rack_tiles_and_the_sets_they_change(turn):
    puzzle, arrangement = turn
    assert solution_text(puzzle, arrangement).splitlines() == [
        "run   9b 10b 11b",
        "group 1b 1g 1r",
        "group +2b J=2g +2r  # changed",  # the table's joker, two tiles from the rack
        "group 4b 4g 4r",
        "group +J=8b +8g +8r  # new",
    ]
    # Every rack tile placed is marked once: the rack less what stays on it.
    text = solution_text(puzzle, arrangement)
    unplaced = [r for r in arrangement_rows(puzzle, arrangement) if r.kind == "unplaced"]
    rack = int(puzzle.rack.sum()) + puzzle.jokers - puzzle.table_jokers
    assert text.count("+") == rack - sum(len(r.cards) for r in unplaced)


def test_without_a_table_the_text_is_the_arrangements(section_4_1):
    from helpers import random_copies

    rng = np.random.default_rng(8)
    puzzles = list(section_4_1) + [
        Puzzle(random_copies(rng, k=k, m=2, n=n), m=2) for k, n in ((4, 13), (5, 30), (6, 20))
    ]
    for puzzle in puzzles:
        arrangement = solve(puzzle).arrangement
        assert solution_text(puzzle, arrangement) == str(arrangement)
    # With rack jokers alone: no marks, a group's joker in its colour's place.
    jokers = Puzzle.from_tiles([(5, 0), (5, 3), "J"], k=4, m=2, n=5)
    arrangement = Arrangement(groups=(Group(5, (0, 3), jokers=(1,)),))
    assert solution_text(jokers, arrangement) == "group 5b J=5g 5y"


def test_solve_show_prints_the_marks(tmp_path, capsys):
    assert main(["solve", str(TURN), "-n", "13", "--show"]) == 0
    out = capsys.readouterr().out
    assert "group +J=8b +8g +8r  # new\n" in out and "run   9b 10b 11b\n" in out


def test_a_solution_draws_itself_in_a_notebook(turn):
    puzzle, arrangement = turn
    solution = solve(puzzle)
    svg = solution._repr_svg_()
    assert svg.startswith("<?xml") and "</svg>" in svg
    assert f"score {solution.score} of {puzzle.points}" in svg
    # The same picture as rumdiff show draws, but for its title's number.
    import io

    from matplotlib import rc_context

    from rumdiff.puzzle.cards import SVG_SETTINGS

    out = io.StringIO()
    with rc_context(SVG_SETTINGS):
        draw_puzzles([puzzle], [arrangement]).savefig(out, format="svg", metadata={"Date": None})
    assert out.getvalue().replace("puzzle 1: score", "score") == svg
    infeasible = solve(Puzzle.from_tiles([(1, 2)], k=4, m=2, n=5, table=[(5, 0), (5, 1)]))
    assert "infeasible" in infeasible._repr_svg_()


def test_a_solution_too_tall_to_draw_falls_back_to_its_text(monkeypatch, turn):
    monkeypatch.setattr(config, "SHOW_MAX_INCHES", 1)
    assert solve(turn[0])._repr_svg_() is None  # Jupyter then shows its repr


# --- the command ----------------------------------------------------------------------


@pytest.fixture
def puzzle_file(tmp_path):
    path = tmp_path / "a.in"
    path.write_text("3\n3\n1b 2b 3b\n4\n5r 5g 5b 5y\n3\n1r | 5b 5g\n")
    return path


def test_show_writes_a_png(tmp_path, capsys):
    out = tmp_path / "turn.png"
    assert main(["show", str(TURN), "-n", "13", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        capsys.readouterr().err == f"rumdiff show: {TURN}: read as G(4, 2, 13) j=2 (its header)\n"
    )
    assert main(["show", str(TURN), "-q", "-o", str(out)]) == 0
    assert capsys.readouterr().err == ""


def test_show_writes_an_svg_with_its_text(tmp_path):
    out = tmp_path / "turn.svg"
    assert main(["show", str(TURN), "-n", "13", "-o", str(out)]) == 0
    text = out.read_text()
    assert "<svg" in text and "puzzle 1: score 65 of 67" in text and "=2g" in text


def test_show_draws_an_infeasible_puzzle(puzzle_file, tmp_path):
    out = tmp_path / "out.svg"
    assert main(["show", str(puzzle_file), "--puzzles", "3,1", "-o", str(out)]) == 0
    text = out.read_text()
    assert "puzzle 3: infeasible" in text and "puzzle 1: score 6 of 6" in text
    assert "puzzle 2" not in text


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["{bad}", "-o", "{out}"], "bad.in:3: tile '3x'"),
        (["{a}", "-o", "{tmp}/out.txt"], "end it in .png, .svg or .pdf"),
        (["{a}", "--puzzles", "2,7", "-o", "{out}"], "there is no puzzle 7"),
        (["{a}", "--puzzles", "7", "-o", "{out}"], "holds 3 puzzles; there is no puzzle 7"),
        (["{a}", "--puzzles", "7-9", "-o", "{out}"], "holds 3 puzzles; there is no puzzle 7"),
        (["{png}", "-o", "{png}"], "is the input"),
        (["{a}", "-o", "{link}"], "is the input"),
        (["{tmp}/missing.in", "-o", "{out}"], "missing.in"),
    ],
)
def test_show_errors_are_one_line_and_write_nothing(arguments, message, puzzle_file, capsys):
    tmp = puzzle_file.parent
    (tmp / "bad.in").write_text("1\n3\n1b 2b 3x\n")
    (tmp / "p.png").write_text(puzzle_file.read_text())
    (tmp / "link.png").symlink_to(puzzle_file)
    names = {"a": puzzle_file, "bad": tmp / "bad.in", "png": tmp / "p.png",
             "link": tmp / "link.png", "out": tmp / "out.png", "tmp": tmp}  # fmt: skip
    before = puzzle_file.read_bytes()
    assert main(["show", *(part.format(**names) for part in arguments)]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp / "out.png").exists() and puzzle_file.read_bytes() == before
    assert (tmp / "p.png").read_text() == before.decode()


@pytest.mark.parametrize(
    "puzzles, reason",
    [("0", "numbered from 1 up"), ("5-3", "a range goes up, got '5-3'; write 3-5"),
     ("x", "such as 1,3,5-8"), ("1-50", "fit one picture")],
)  # fmt: skip
def test_a_bad_puzzle_list_is_a_usage_error(puzzles, reason, puzzle_file, tmp_path, capsys):
    argv = ["show", str(puzzle_file), "--puzzles", puzzles, "-o", str(tmp_path / "o.png")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--puzzles" in err and reason in err


def test_a_long_file_draws_its_first_puzzles_and_says_so(puzzle_file, tmp_path, monkeypatch,
                                                         capsys):  # fmt: skip
    monkeypatch.setattr(config, "SHOW_MAX_PUZZLES", 2)
    out = tmp_path / "o.svg"
    assert main(["show", str(puzzle_file), "-o", str(out)]) == 0
    text = out.read_text()
    assert "puzzle 1:" in text and "puzzle 2:" in text and "puzzle 3" not in text
    assert "drew puzzles 1-2 of 3 in" in capsys.readouterr().err


@pytest.mark.parametrize("stdin", [False, True])
def test_show_says_why_it_stopped(stdin, puzzle_file, tmp_path, monkeypatch, capsys):
    import io

    def run():
        if stdin:
            data = io.BytesIO(puzzle_file.read_bytes())
            monkeypatch.setattr("sys.stdin", io.TextIOWrapper(data))
        name = "-" if stdin else str(puzzle_file)
        assert main(["show", name, "-o", str(tmp_path / "o.png")]) == 0
        return capsys.readouterr().err

    monkeypatch.setattr(config, "SHOW_MAX_PUZZLES", 2)
    many = "3" if not stdin else "more"  # a stream is read only as far as it is drawn
    assert f"drew puzzles 1-2 of {many} in" in (err := run())
    assert ": a picture holds at most 2 puzzles; pick others with --puzzles" in err
    monkeypatch.setattr(config, "SHOW_MAX_PUZZLES", 20)
    monkeypatch.setattr(config, "SHOW_MAX_INCHES", 2)  # room for the first puzzle alone
    err = run()
    assert "drew puzzles 1-1 of 3 in" in err  # all three read this time
    assert ": puzzle 2 would make the picture taller than 2 inches; pick others" in err


def test_a_picture_too_tall_is_refused(puzzle_file, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(config, "SHOW_MAX_INCHES", 1)
    out = tmp_path / "o.png"
    assert main(["show", str(puzzle_file), "--puzzles", "2", "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert "inches tall" in err and len(err.splitlines()) == 1 and not out.exists()


def test_show_reads_standard_input(monkeypatch, tmp_path):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(TURN.read_bytes())))
    out = tmp_path / "o.pdf"
    assert main(["show", "-", "-n", "13", "-o", str(out)]) == 0
    assert out.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_show_takes_k_m_n_from_the_header(source, monkeypatch, tmp_path, capsys):
    import io

    # A group of five on the table: infeasible but with a fifth colour.
    path, out = tmp_path / "five.in", tmp_path / "five.svg"
    for header, drawn in (("", "puzzle 1: infeasible"), ("# G(5, 2, 13)\n", "=5o")):
        path.write_text(header + "1\n5\n| 5b 5g 5r 5y J\n")
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
        assert main(["show", str(path) if source == "file" else "-", "-o", str(out)]) == 0
        assert drawn in out.read_text()
    out.unlink()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    name = str(path) if source == "file" else "-"
    capsys.readouterr()
    assert main(["show", name, "-m", "3", "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"rumdiff show: error: {name}:1: header says m = 2 but m = 3 was given\n"
    )
    assert not out.exists()


def test_help_does_not_import_matplotlib():
    code = "import sys; from rumdiff.cli import build_parser; build_parser(); "
    code += "print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


@pytest.mark.parametrize(
    "picked, advice",
    [
        (["--puzzles", "2"], "see its arrangement with rumdiff solve --show instead\n"),
        ([], "see its arrangement with rumdiff solve --show instead, or draw others with "
             "--puzzles\n"),
    ],
)  # fmt: skip
def test_one_puzzle_too_tall_is_not_told_to_draw_fewer(
    puzzle_file, tmp_path, monkeypatch, capsys, picked, advice
):
    monkeypatch.setattr(config, "SHOW_MAX_INCHES", 1)
    out = tmp_path / "o.png"
    assert main(["show", str(puzzle_file), *picked, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "draw fewer" not in err and err.endswith(advice)
    assert not out.exists()


def test_five_digit_values_stay_on_their_cards():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    # A run up to n = 10,000 and a joker that stands for a 10000: the longest texts.
    tiles = [(9996, 5), (9997, 5), (9998, 5), (10_000, 0), (10_000, 1)]
    puzzle = Puzzle.from_tiles(tiles, k=6, m=2, n=10_000, jokers=1)
    arrangement = solve(puzzle).arrangement
    assert "J=10000" in str(arrangement)
    figure = draw_puzzles([puzzle], [arrangement])
    renderer = FigureCanvasAgg(figure).get_renderer()
    cards = [card.get_window_extent(renderer) for card in _labelled(figure, "card:rack")]
    texts = [*_labelled(figure, "value"), *_labelled(figure, "stands")]
    assert {"9998", "10000"} <= {t.get_text() for t in texts}
    assert any(t.get_text().startswith("=10000") for t in texts)
    for text in texts:
        box = text.get_window_extent(renderer)
        card = min(cards, key=lambda c: abs((c.x0 + c.x1) / 2 - (box.x0 + box.x1) / 2))
        assert card.x0 <= box.x0 and box.x1 <= card.x1, text.get_text()
