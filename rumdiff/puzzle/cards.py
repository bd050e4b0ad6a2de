"""Puzzles drawn as the cards players see: rows of coloured numbers, as a picture.

A tile is a :class:`Card`: a coloured number, or a joker ``J`` with, small, what it
stands for (``=5r``); table tiles are grey with a dashed edge, rack tiles cream. Cards
go in :class:`Row` s (a run, a group, the tiles left, or a puzzle's table and rack), and
rows under a title make a :class:`Panel`; :func:`draw_panels` lays panels out one below
the other in one matplotlib figure (object-oriented API: no pyplot, no display).

Here a puzzle is drawn as its tiles (:func:`puzzle_panel`, ``Puzzle._repr_svg_`` in
Jupyter); :mod:`rumdiff.solve.display` draws it arranged, for ``rumdiff show`` and
``Solution._repr_svg_``, with these cards and this layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rumdiff import config

__all__ = [
    "SVG_SETTINGS",
    "TILE_COLOURS",
    "Card",
    "Panel",
    "Row",
    "draw_panels",
    "loose_cards",
    "panels_inches",
    "panels_svg",
    "puzzle_panel",
    "puzzle_rows",
]

#: Ink of each colour letter (config.COLOURS), dark enough to read on a light card.
TILE_COLOURS = {
    "b": "#1a1a1a",  # black, as the thesis's b
    "g": "#1e7b34",
    "r": "#c62828",
    "y": "#b8860b",  # dark goldenrod: a yellow that reads on cream
    "o": "#e65100",
    "p": "#6a1b9a",
}
#: Ink of a joker's J.
JOKER_INK = "#5d4037"
#: Card faces and edges: rack tiles cream with a solid edge, table tiles grey with a
#: dashed one, so the two differ in print and for colour-blind readers alike.
FACES = {False: ("#fff8e1", "#6d6d6d", "solid"), True: ("#d5d5d5", "#424242", "dashed")}

#: What the legend says of each face.
LEGEND = {False: "rack tile (may stay unplaced)", True: "table tile (must be placed)"}

#: Cards in a row before it wraps onto the next line (a run may be n tiles long).
WRAP = 20
#: Width of the row labels (run, group, ...), in card columns.
LABEL_COLUMNS = 2.6
#: Inches per layout unit (one card column); card size and row pitch, in units.
UNIT = 0.42
CARD_WIDTH, CARD_HEIGHT, ROW_PITCH = 0.86, 1.2, 1.45
#: Width of a card's characters, in ems of matplotlib's font, DejaVu Sans: its bold digits
#: are 0.70 em wide; its regular ones 0.64, and "=10000p" 0.66 em a character.
EM = 0.70
#: Height of a panel's title line, the gap after a panel and the legend, in units.
TITLE_HEIGHT, GAP_HEIGHT, LEGEND_HEIGHT = 1.1, 0.6, 1.3

#: How a picture is written as SVG: its text kept as text, and no date or random ids, so
#: the same puzzles give the same file.
SVG_SETTINGS = {"svg.fonttype": "none", "svg.hashsalt": "rumdiff"}


class Card(NamedTuple):
    """One tile as drawn (a named tuple: a solution shown holds hundreds).

    Attributes
    ----------
    value : int
        The number shown; for a joker, the value it stands for (0: unplaced, stands for
        nothing yet).
    colour : int
        Colour index into config.COLOURS; for a joker, the colour it stands for (-1:
        unplaced).
    joker : bool
        A joker (shows ``J`` and, placed, what it stands for).
    table : bool
        A table tile (must be placed), else a rack tile.
    """

    value: int
    colour: int
    joker: bool = False
    table: bool = False

    @property
    def text(self) -> str:
        """The card's big text: its value, or ``J``."""
        return config.JOKER if self.joker else str(self.value)

    @property
    def stands_for(self) -> str:
        """What a placed joker stands for (``=5r``), else an empty string."""
        if not self.joker or self.colour < 0:
            return ""
        return f"={self.value}{config.COLOURS[self.colour]}"

    @property
    def token(self) -> str:
        """The card as puzzle files and ``rumdiff solve --show`` write it: ``5r``, ``J=5r``
        for a placed joker, ``J`` for one that is not."""
        if self.joker:
            return config.JOKER + self.stands_for
        return f"{self.value}{config.COLOURS[self.colour]}"


@dataclass(frozen=True)
class Row:
    """A row of cards: a run, a group, the unplaced tiles, or a puzzle's table or rack."""

    kind: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Panel:
    """One puzzle as drawn: a title line over rows of cards; ``alarm`` draws the title
    red (an infeasible puzzle)."""

    title: str
    rows: tuple[Row, ...]
    alarm: bool = False


def loose_cards(copies, jokers: int, *, table: bool) -> tuple[Card, ...]:
    """Cards for tiles outside any set: by value, then colour, then the jokers."""
    cards = [
        Card(int(v) + 1, int(c), table=table)
        for v, c in np.argwhere(copies > 0)
        for _ in range(int(copies[v, c]))
    ]
    return tuple(cards + [Card(0, -1, joker=True, table=table)] * int(jokers))


def puzzle_rows(puzzle) -> list[Row]:
    """A puzzle's tiles as rows: its ``table`` and its ``rack`` (each only if not empty)."""
    rows = [
        Row("table", loose_cards(puzzle.table_copies, puzzle.table_jokers, table=True)),
        Row("rack", loose_cards(puzzle.rack, puzzle.jokers - puzzle.table_jokers, table=False)),
    ]
    return [row for row in rows if row.cards]


def puzzle_panel(puzzle) -> Panel:
    """A puzzle, unsolved: its family, tiles and points over its table and rack."""
    jokers = f", {puzzle.jokers} jokers" if puzzle.jokers else ""
    title = (
        f"G({puzzle.k}, {puzzle.m}, {puzzle.n}): {puzzle.tiles} tiles{jokers}, "
        f"{puzzle.points} points"
    )
    return Panel(title, tuple(puzzle_rows(puzzle)))


def _lines(rows) -> int:
    """Lines the rows take once long ones wrap (at least one, for a note)."""
    return max(1, sum(-(-len(row.cards) // WRAP) for row in rows))


def panels_inches(panels) -> tuple[float, float]:
    """Width and height, in inches, of :func:`draw_panels`' figure (to refuse a picture
    too large to be useful before drawing it)."""
    width, height = 0.0, 0.0
    for panel in panels:
        widest = max((min(len(row.cards), WRAP) for row in panel.rows), default=0)
        width = max(width, LABEL_COLUMNS + widest)
        height += TITLE_HEIGHT + _lines(panel.rows) * ROW_PITCH + GAP_HEIGHT
    width = max(width, LABEL_COLUMNS + 12)  # room for a title and the legend
    legend = LEGEND_HEIGHT if _any_table(panels) else 0.0
    return width * UNIT, (height + legend) * UNIT


def _any_table(panels) -> bool:
    """Whether any card is a table tile: only then do cards need a legend."""
    return any(card.table for panel in panels for row in panel.rows for card in row.cards)


def draw_panels(panels):
    """Draw panels one below the other.

    Returns
    -------
    matplotlib.figure.Figure
        Card faces are patches labelled ``card:table`` or ``card:rack``; their texts
        are labelled ``value``, ``joker`` or ``stands`` (what a joker stands for).
    """
    from matplotlib.figure import Figure

    panels = list(panels)
    width, height = panels_inches(panels)
    figure = Figure(figsize=(width, height))
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width / UNIT)
    axes.set_ylim(height / UNIT, 0)  # rows go down the page
    axes.set_axis_off()
    y = _legend(axes) if _any_table(panels) else 0.0
    for panel in panels:
        y = _draw_panel(axes, y, panel)
    return figure


def panels_svg(panels) -> str | None:
    """Panels drawn as SVG text, as ``rumdiff show`` writes its pictures; None for a
    picture taller than ``config.SHOW_MAX_INCHES`` (Jupyter then shows the object's text
    instead)."""
    import io

    from matplotlib import rc_context

    panels = list(panels)
    if panels_inches(panels)[1] > config.SHOW_MAX_INCHES:
        return None
    out = io.StringIO()
    with rc_context(SVG_SETTINGS):
        draw_panels(panels).savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def _legend(axes) -> float:
    """A sample rack card and table card, explained; returns the y below them."""
    x = 0.2
    for table, words in LEGEND.items():
        _card_face(axes, x, 0.15, table, scale=0.7, label="legend")
        axes.text(x + 0.8, 0.57, words, va="center", fontsize=9, color="#333333")
        x += 8.0
    return LEGEND_HEIGHT


def _draw_panel(axes, y: float, panel: Panel) -> float:
    """Draw one panel from ``y`` down; returns the y below it."""
    colour = "#b71c1c" if panel.alarm else "#212121"
    axes.text(0.2, y + 0.55, panel.title, va="center", fontsize=11, fontweight="bold",
              color=colour)  # fmt: skip
    y += TITLE_HEIGHT
    if not panel.rows:
        axes.text(LABEL_COLUMNS, y + CARD_HEIGHT / 2, "(no tiles)", va="center", fontsize=10)
    for row in panel.rows:
        axes.text(0.2, y + CARD_HEIGHT / 2, row.kind, va="center", fontsize=9,
                  color="#555555", style="italic")  # fmt: skip
        for start in range(0, len(row.cards), WRAP):
            for column, card in enumerate(row.cards[start : start + WRAP]):
                _draw_card(axes, LABEL_COLUMNS + column, y, card)
            y += ROW_PITCH
    return y + (0 if panel.rows else ROW_PITCH) + GAP_HEIGHT


def _card_face(axes, x: float, y: float, table: bool, *, scale: float = 1.0, label: str):
    """A card's rounded face with its top left corner at (x, y)."""
    from matplotlib.patches import FancyBboxPatch

    face, edge, style = FACES[table]
    width, height = CARD_WIDTH * scale, CARD_HEIGHT * scale
    patch = FancyBboxPatch(
        (x, y), width, height, boxstyle="round,pad=0,rounding_size=0.12",
        facecolor=face, edgecolor=edge, linestyle=style, linewidth=1.1, label=label,
    )  # fmt: skip
    axes.add_patch(patch)
    return patch


def _draw_card(axes, x: float, y: float, card: Card) -> None:
    """One card: its face, its number (or J) and what a joker stands for."""
    _card_face(axes, x, y, card.table, label="card:table" if card.table else "card:rack")
    middle = x + CARD_WIDTH / 2
    if not card.joker:
        ink = TILE_COLOURS[config.COLOURS[card.colour]]
        axes.text(middle, y + 0.55, card.text, ha="center", va="center",
                  fontsize=_fit(card.text, 13), fontweight="bold", color=ink,
                  label="value")  # fmt: skip
        return
    placed = bool(card.stands_for)
    axes.text(middle, y + (0.45 if placed else 0.55), card.text, ha="center", va="center",
              fontsize=13, fontweight="bold", color=JOKER_INK, label="joker")  # fmt: skip
    if placed:
        ink = TILE_COLOURS[config.COLOURS[card.colour]]
        axes.text(middle, y + 0.93, card.stands_for, ha="center", va="center",
                  fontsize=_fit(card.stands_for, 7), color=ink, label="stands")  # fmt: skip


def _fit(text: str, largest: float) -> float:
    """A font size, at most ``largest``, at which ``text`` stays on its card: values up to
    n = 10,000 have five digits, and a joker's ``=10000p`` seven characters."""
    room = 0.9 * CARD_WIDTH * UNIT * 72  # the card's width in points, a margin kept
    return min(largest, room / (EM * max(1, len(text))))
