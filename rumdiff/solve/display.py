"""Solutions as players see them: their sets as rows of cards, as text or as a picture.

:func:`arrangement_rows` turns a puzzle's arrangement into rows of
:class:`rumdiff.puzzle.cards.Card` s: one per run and group, then the rack tiles left,
each card marked as a table or a rack tile. From the same rows :func:`solution_text`
writes what ``rumdiff solve --show`` prints (a rack tile marked ``+``, a set taking
rack tiles ``# new`` or ``# changed``, for puzzles with a table) and :func:`draw_puzzles`
draws what ``rumdiff show`` writes and ``Solution._repr_svg_`` shows in Jupyter (the
cards and layout of :mod:`rumdiff.puzzle.cards`).
"""

from __future__ import annotations

from rumdiff.puzzle.cards import (
    Card,
    Panel,
    Row,
    draw_panels,
    loose_cards,
    panels_inches,
    panels_svg,
    puzzle_rows,
)

__all__ = [
    "Drawable",
    "arrangement_rows",
    "draw_puzzles",
    "figure_inches",
    "solution_panel",
    "solution_svg",
    "solution_text",
]

#: What ``solution_text`` writes after a set of a puzzle with a table, by whether the set
#: holds table tiles and rack tiles.
SET_MARKS = {(False, True): "  # new", (True, True): "  # changed", (True, False): ""}


def arrangement_rows(puzzle, arrangement, new=None) -> list[Row]:
    """The rows of cards that show ``puzzle`` arranged as ``arrangement``.

    Parameters
    ----------
    puzzle : rumdiff.puzzle.Puzzle
        The puzzle, with its jokers and table.
    arrangement : rumdiff.solve.Arrangement or None
        A valid arrangement of the puzzle (checked here); None for an infeasible puzzle.
    new : rumdiff.solve.Arrangement, optional
        The sets an opening move made from the rack (``Solution.meld``): their cards are
        the rack's, the others' the table's (the move is checked here).

    Returns
    -------
    list of Row
        For an arrangement: its runs, then its groups (sorted as its text; a group's
        joker in its colour's place), then one ``unplaced`` row if any tile stays on the
        rack. For
        None: the puzzle's ``table`` and ``rack`` rows. Every tile and joker of the
        puzzle is on exactly one card.
    """
    if arrangement is None:
        return puzzle_rows(puzzle)
    arrangement.check(puzzle)  # a wrong picture is worse than none
    if new is not None:
        from rumdiff.solve.meld import check_meld

        check_meld(puzzle, arrangement, new)
    # Copies of a tile are alike, so which placed copies are the table's is a choice:
    # the first ones met (an opening move says which: the sets it did not make). Every
    # table tile is placed, so they all get marked.
    table_left = puzzle.table_copies.tolist()  # lists: a card at a time, numpy's indexing is slow
    jokers_left = [puzzle.table_jokers]
    fresh = {"run": list(getattr(new, "runs", ())), "group": list(getattr(new, "groups", ()))}

    def card(value: int, colour: int, joker: bool, made: bool = False) -> Card:
        if made:
            return Card(value, colour, joker, False)
        if joker:
            on_table = jokers_left[0] > 0
            jokers_left[0] -= on_table
        else:
            on_table = table_left[value - 1][colour] > 0
            table_left[value - 1][colour] -= on_table
        return Card(value, colour, joker, bool(on_table))

    def made(kind: str, one) -> bool:
        """Whether the move made this set (one copy of a set per copy it made)."""
        if one in fresh[kind]:
            fresh[kind].remove(one)
            return True
        return False

    rows = []
    for run in sorted(arrangement.runs):
        mine = made("run", run)
        cards = [card(v, run.colour, v in run.jokers, mine) for v in range(run.start, run.end + 1)]
        rows.append(Row("run", tuple(cards)))
    for group in sorted(arrangement.groups):
        mine = made("group", group)
        colours = sorted([(c, False) for c in group.colours] + [(c, True) for c in group.jokers])
        cards = tuple(card(group.value, c, joker, mine) for c, joker in colours)
        rows.append(Row("group", cards))
    left = puzzle.copies - arrangement.usage(puzzle.k, puzzle.n)
    unplaced = loose_cards(left, puzzle.jokers - arrangement.jokers, table=False)
    if unplaced:
        rows.append(Row("unplaced", unplaced))
    return rows


def solution_text(puzzle, arrangement, new=None) -> str:
    """The arrangement as ``rumdiff solve --show`` prints it: a line per run and group.

    Without a table the lines are ``str(arrangement)``'s, but for a group's joker, which
    stands in its colour's place (``5b J=5g 5y``), as drawn. With a table, each tile from
    the rack is marked ``+``, and a set that takes rack tiles ends in ``# new`` (rack tiles
    alone) or ``# changed`` (rack tiles joined to table tiles). The file gives the table's
    tiles, not its sets before the move, so a set of table tiles alone may still have
    been rearranged; of copies alike, the table's are the first ones met. An opening
    move's sets (``new``, :func:`arrangement_rows`) are its rack's, and with a table
    every other set is the table's as it was.
    """
    tabled = puzzle.table is not None or puzzle.table_jokers > 0
    lines = []
    for row in arrangement_rows(puzzle, arrangement, new):
        if row.kind not in ("run", "group"):
            continue
        table = [card.table for card in row.cards]
        tiles = " ".join(
            ("+" if tabled and not on_table else "") + card.token
            for on_table, card in zip(table, row.cards, strict=True)
        )
        end = SET_MARKS[(any(table), not all(table))] if tabled else ""
        lines.append(f"{row.kind:<5} {tiles}{end}")
    return "\n".join(lines)


def solution_panel(puzzle, arrangement, number: int | None = None, new=None) -> Panel:
    """A puzzle and its optimal arrangement (None: infeasible) under a title: its number
    (if given) and its score, or that it is infeasible; ``new`` as
    :func:`arrangement_rows` takes it."""
    name = "" if number is None else f"puzzle {number}: "
    meld = puzzle.game.meld
    if arrangement is None and meld is not None:
        title = (
            f"{name}infeasible, no move of the rack alone meets the meld of {meld} (or the "
            "table forms no sets)"
        )
    elif arrangement is None:
        title = f"{name}infeasible, no arrangement places the whole table"
    else:
        title = f"{name}score {arrangement.score} of {puzzle.points}"
    rows = tuple(arrangement_rows(puzzle, arrangement, new))
    return Panel(title, rows, arrangement is None)


def _panels(puzzles, arrangements, numbers=None, new=None) -> list[Panel]:
    puzzles, arrangements = list(puzzles), list(arrangements)
    numbers = range(1, len(puzzles) + 1) if numbers is None else list(numbers)
    new = [None] * len(puzzles) if new is None else list(new)
    if not len(puzzles) == len(arrangements) == len(numbers) == len(new):
        raise ValueError("puzzles, arrangements, numbers and new sets must be as many")
    return [solution_panel(*one) for one in zip(puzzles, arrangements, numbers, new, strict=True)]


def figure_inches(puzzles, arrangements) -> tuple[float, float]:
    """Width and height, in inches, of :func:`draw_puzzles`' figure (to refuse a picture
    too large to be useful before drawing it)."""
    return panels_inches(_panels(puzzles, arrangements))


def draw_puzzles(puzzles, arrangements, *, numbers=None, new=None):
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
    new : sequence of rumdiff.solve.Arrangement or None, optional
        Per puzzle, the sets an opening move made (``Solution.meld``), or None.

    Returns
    -------
    matplotlib.figure.Figure
        As :func:`rumdiff.puzzle.cards.draw_panels` draws it.
    """
    return draw_panels(_panels(puzzles, arrangements, numbers, new))


def solution_svg(solution) -> str | None:
    """A :class:`rumdiff.solve.Solution` drawn as ``rumdiff show`` draws it, as SVG text;
    None for a picture too tall to draw (:func:`rumdiff.puzzle.cards.panels_svg`)."""
    panel = solution_panel(solution.puzzle, solution.arrangement, new=solution.meld)
    return panels_svg([panel])


class Drawable:
    """What makes a :class:`rumdiff.solve.Solution` draw itself in Jupyter, as ``rumdiff
    show`` draws it (its base class, which keeps the drawing out of the solver)."""

    def _repr_svg_(self) -> str | None:
        """The puzzle arranged, as SVG text; None when too tall to draw."""
        return solution_svg(self)
