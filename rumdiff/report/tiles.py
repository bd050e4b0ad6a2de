"""Pictures of puzzles: each puzzle's optimal arrangement drawn as the tiles players see.

A puzzle becomes :class:`Row` s of :class:`Card` s (:func:`puzzle_rows`): one row per
run or group of its arrangement, then the rack tiles left unplaced. Each card is a
coloured number; a joker shows ``J`` and, small, what it stands for (``=5r``); table
tiles are grey with a dashed edge, rack tiles cream. An infeasible puzzle (no
arrangement places its whole table) shows its table and rack apart, with a note.
:func:`draw_puzzles` lays many puzzles out in one figure, drawn with matplotlib's
object-oriented API (no pyplot, no display); the caller solves and saves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rumdiff import config

__all__ = ["TILE_COLOURS", "Card", "Row", "draw_puzzles", "figure_inches", "puzzle_rows"]

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
#: Height of a puzzle's title line, the gap after a puzzle and the legend, in units.
TITLE_HEIGHT, GAP_HEIGHT, LEGEND_HEIGHT = 1.1, 0.6, 1.3

#: Row kinds, and the label each row shows on its left.
KINDS = {"run": "run", "group": "group", "unplaced": "unplaced", "table": "table", "rack": "rack"}


@dataclass(frozen=True)
class Card:
    """One tile as drawn.

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


@dataclass(frozen=True)
class Row:
    """A row of cards: a run, a group, the unplaced tiles, or (infeasible) the table or
    the rack."""

    kind: str
    cards: tuple[Card, ...]


def puzzle_rows(puzzle, arrangement) -> list[Row]:
    """The rows of cards that show ``puzzle`` arranged as ``arrangement``.

    Parameters
    ----------
    puzzle : rumdiff.puzzle.Puzzle
        The puzzle, with its jokers and table.
    arrangement : rumdiff.solve.Arrangement or None
        A valid arrangement of the puzzle (checked here); None for an infeasible puzzle.

    Returns
    -------
    list of Row
        For an arrangement: its runs, then its groups (sorted as its text), then one
        ``unplaced`` row if any tile stays on the rack. For None: a ``table`` row and a
        ``rack`` row (each only if not empty). Every tile and joker of the puzzle is on
        exactly one card.
    """
    if arrangement is None:
        rows = [
            Row("table", _loose(puzzle.table_copies, puzzle.table_jokers, table=True)),
            Row("rack", _loose(puzzle.rack, puzzle.jokers - puzzle.table_jokers, table=False)),
        ]
        return [row for row in rows if row.cards]
    arrangement.check(puzzle)  # a wrong picture is worse than none
    # Copies of a tile are alike, so which placed copies are the table's is a choice:
    # the first ones met. Every table tile is placed, so they all get marked.
    table_left = puzzle.table_copies.astype(np.int64)
    jokers_left = [puzzle.table_jokers]

    def card(value: int, colour: int, joker: bool) -> Card:
        if joker:
            on_table = jokers_left[0] > 0
            jokers_left[0] -= on_table
        else:
            on_table = table_left[value - 1, colour] > 0
            table_left[value - 1, colour] -= on_table
        return Card(value, colour, joker, bool(on_table))

    rows = []
    for run in sorted(arrangement.runs):
        cards = [card(v, run.colour, v in run.jokers) for v in range(run.start, run.end + 1)]
        rows.append(Row("run", tuple(cards)))
    for group in sorted(arrangement.groups):
        colours = sorted([(c, False) for c in group.colours] + [(c, True) for c in group.jokers])
        rows.append(Row("group", tuple(card(group.value, c, joker) for c, joker in colours)))
    left = puzzle.copies - arrangement.usage(puzzle.k, puzzle.n)
    unplaced = _loose(left, puzzle.jokers - arrangement.jokers, table=False)
    if unplaced:
        rows.append(Row("unplaced", unplaced))
    return rows


def _loose(copies, jokers: int, *, table: bool) -> tuple[Card, ...]:
    """Cards for tiles outside any set: by value, then colour, then the jokers."""
    cards = [
        Card(int(v) + 1, int(c), table=table)
        for v, c in np.argwhere(copies > 0)
        for _ in range(int(copies[v, c]))
    ]
    return tuple(cards + [Card(0, -1, joker=True, table=table)] * int(jokers))


def _title(number: int, puzzle, arrangement) -> str:
    """A puzzle's title: its number and score, or that it is infeasible."""
    if arrangement is None:
        return f"puzzle {number}: infeasible, no arrangement places the whole table"
    return f"puzzle {number}: score {arrangement.score} of {puzzle.points}"


def _lines(rows) -> int:
    """Lines the rows take once long ones wrap (at least one, for a note)."""
    return max(1, sum(-(-len(row.cards) // WRAP) for row in rows))


def figure_inches(puzzles, arrangements) -> tuple[float, float]:
    """Width and height, in inches, of :func:`draw_puzzles`' figure (to refuse a
    picture too large to be useful before drawing it)."""
    width, height = 0.0, 0.0
    for puzzle, arrangement in zip(puzzles, arrangements, strict=True):
        rows = puzzle_rows(puzzle, arrangement)
        widest = max((min(len(row.cards), WRAP) for row in rows), default=0)
        width = max(width, LABEL_COLUMNS + widest)
        height += TITLE_HEIGHT + _lines(rows) * ROW_PITCH + GAP_HEIGHT
    width = max(width, LABEL_COLUMNS + 12)  # room for a title and the legend
    legend = LEGEND_HEIGHT if _any_table(puzzles) else 0.0
    return width * UNIT, (height + legend) * UNIT


def _any_table(puzzles) -> bool:
    """Whether any puzzle has a table: only then do cards need a legend."""
    return any(p.table is not None or p.table_jokers for p in puzzles)


def draw_puzzles(puzzles, arrangements, *, numbers=None):
    """Draw puzzles and their arrangements as tiles, one below the other.

    Parameters
    ----------
    puzzles : sequence of rumdiff.puzzle.Puzzle
        The puzzles.
    arrangements : sequence of rumdiff.solve.Arrangement or None
        One optimal arrangement per puzzle (``solve(puzzle).arrangement``); None for an
        infeasible puzzle.
    numbers : sequence of int, optional
        The number each puzzle's title shows (its place in its file); default 1, 2, ...

    Returns
    -------
    matplotlib.figure.Figure
        Card faces are patches labelled ``card:table`` or ``card:rack``; their texts
        are labelled ``value``, ``joker`` or ``stands`` (what a joker stands for).
    """
    from matplotlib.figure import Figure

    puzzles, arrangements = list(puzzles), list(arrangements)
    numbers = range(1, len(puzzles) + 1) if numbers is None else list(numbers)
    if not len(puzzles) == len(arrangements) == len(numbers):
        raise ValueError("puzzles, arrangements and numbers must be as many")
    width, height = figure_inches(puzzles, arrangements)
    figure = Figure(figsize=(width, height))
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width / UNIT)
    axes.set_ylim(height / UNIT, 0)  # rows go down the page
    axes.set_axis_off()
    y = _legend(axes) if _any_table(puzzles) else 0.0
    for number, puzzle, arrangement in zip(numbers, puzzles, arrangements, strict=True):
        y = _draw_puzzle(axes, y, number, puzzle, arrangement)
    return figure


def _legend(axes) -> float:
    """A sample rack card and table card, explained; returns the y below them."""
    x = 0.2
    for table, words in LEGEND.items():
        _card_face(axes, x, 0.15, table, scale=0.7, label="legend")
        axes.text(x + 0.8, 0.57, words, va="center", fontsize=9, color="#333333")
        x += 8.0
    return LEGEND_HEIGHT


def _draw_puzzle(axes, y: float, number: int, puzzle, arrangement) -> float:
    """Draw one puzzle from ``y`` down; returns the y below it."""
    colour = "#b71c1c" if arrangement is None else "#212121"
    axes.text(0.2, y + 0.55, _title(number, puzzle, arrangement), va="center",
              fontsize=11, fontweight="bold", color=colour)  # fmt: skip
    y += TITLE_HEIGHT
    rows = puzzle_rows(puzzle, arrangement)
    if not rows:
        axes.text(LABEL_COLUMNS, y + CARD_HEIGHT / 2, "(no tiles)", va="center", fontsize=10)
    for row in rows:
        axes.text(0.2, y + CARD_HEIGHT / 2, KINDS[row.kind], va="center", fontsize=9,
                  color="#555555", style="italic")  # fmt: skip
        for start in range(0, len(row.cards), WRAP):
            for column, card in enumerate(row.cards[start : start + WRAP]):
                _draw_card(axes, LABEL_COLUMNS + column, y, card)
            y += ROW_PITCH
    return y + (0 if rows else ROW_PITCH) + GAP_HEIGHT


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
