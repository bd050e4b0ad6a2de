"""Puzzles drawn as cards (rumdiff.puzzle.cards): a puzzle draws itself in Jupyter."""

from __future__ import annotations

from collections import Counter

from helpers import clipped_texts

from rumdiff import config
from rumdiff.puzzle import Puzzle
from rumdiff.puzzle.cards import Card, draw_panels, puzzle_panel, puzzle_rows


def _turn():
    return Puzzle.from_tiles([(2, 0), (2, 2), "J"], k=4, m=2, n=13,
                             table=[(1, 0), (1, 1), (1, 2), "J"])  # fmt: skip


def test_a_puzzle_is_its_table_and_its_rack():
    puzzle = _turn()
    rows = puzzle_rows(puzzle)
    assert [row.kind for row in rows] == ["table", "rack"]
    assert [card.token for card in rows[0].cards] == ["1b", "1g", "1r", "J"]
    assert all(card.table for card in rows[0].cards)
    assert [card.token for card in rows[1].cards] == ["2b", "2r", "J"]
    assert not any(card.table for card in rows[1].cards)
    plain = Puzzle.from_tiles([(3, 1), (3, 1), (7, 5)], k=6, m=2, n=9)
    assert [(row.kind, [c.token for c in row.cards]) for row in puzzle_rows(plain)] == [
        ("rack", ["3g", "3g", "7p"])
    ]


def test_a_card_is_written_as_puzzle_files_write_it():
    assert Card(5, 2).token == "5r"
    assert Card(5, 2, joker=True).token == "J=5r" and Card(0, -1, joker=True).token == "J"


def test_a_puzzle_draws_itself_in_a_notebook():
    puzzle = _turn()
    svg = puzzle._repr_svg_()
    assert svg.startswith("<?xml") and "</svg>" in svg
    assert "G(4, 2, 13): 5 tiles, 2 jokers, 7 points" in svg  # text stays text
    assert "table tile (must be placed)" in svg  # the legend, for a puzzle with a table
    assert svg == puzzle._repr_svg_()  # no date, no random ids
    figure = draw_panels([puzzle_panel(puzzle)])
    values = Counter(t.get_text() for t in figure.axes[0].texts if t.get_label() == "value")
    assert values == Counter(str(v) for v, _ in puzzle.tile_list())
    assert clipped_texts(figure) == []


def test_a_puzzle_too_tall_to_draw_falls_back_to_its_text(monkeypatch):
    monkeypatch.setattr(config, "SHOW_MAX_INCHES", 1)
    assert _turn()._repr_svg_() is None  # Jupyter then shows repr(puzzle)
