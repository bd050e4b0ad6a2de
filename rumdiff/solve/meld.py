"""The opening meld: a first move from the rack alone, worth at least its points.

Under the opening meld's rule (a game with ``meld=P``, :class:`rumdiff.puzzle.Game`; 30
points in the real game), a move places rack tiles and rack jokers only, in new sets
worth at least P points at face value, a joker counted as the tile it stands for. No
rack tile joins the table's sets, and the table's tiles and jokers must still form valid
sets by themselves. The score is the value of every regular tile placed, the table's
included; a joker scores 0.

So such a puzzle falls into two that share nothing (:func:`meld_parts`): the table
alone, every tile and joker of which is placed, and the rack alone under the meld's
rule, which the jokers' rules of the DP engine count in each state (``_jokers``: the
meld's points so far, up to P). The solver solves the two apart
(:func:`rumdiff.solve.solve`) and :func:`check_meld` checks what it found.
"""

from __future__ import annotations

import numpy as np

from rumdiff.puzzle import Puzzle
from rumdiff.solve.arrangement import Arrangement, InvalidArrangement

__all__ = ["check_meld", "join", "meld_parts"]


def meld_parts(puzzle: Puzzle) -> tuple[Puzzle | None, Puzzle]:
    """The table and the rack of a puzzle of a game with an opening meld, as puzzles.

    Returns
    -------
    table : Puzzle or None
        The table's tiles and jokers alone, every one to be placed, in the game without
        the meld's rule; None for a puzzle without a table.
    rack : Puzzle
        The rack's tiles and jokers, none of which must be placed, in the game with the
        meld's rule.

    Raises
    ------
    ValueError
        If the puzzle's game has no opening meld.
    """
    game = puzzle.game
    if game.meld is None:
        raise ValueError(f"{game} has no opening meld")
    if puzzle.table is None and puzzle.table_jokers == 0:
        return None, puzzle  # a hidden rack: the move is its rack
    rack = Puzzle(puzzle.rack, jokers=puzzle.jokers - puzzle.table_jokers, game=game)
    table = Puzzle(
        puzzle.table_copies, jokers=puzzle.table_jokers, table=puzzle.table_copies,
        table_jokers=puzzle.table_jokers, game=game.with_meld(None),
    )  # fmt: skip
    return table, rack


def join(*arrangements: Arrangement) -> Arrangement:
    """The sets of several arrangements as one, sorted as an arrangement keeps them."""
    runs = sorted(run for each in arrangements for run in each.runs)
    groups = sorted(group for each in arrangements for group in each.groups)
    return Arrangement(tuple(runs), tuple(groups))


def check_meld(puzzle: Puzzle, arrangement: Arrangement, new: Arrangement) -> int:
    """Check an opening move and return its score.

    ``arrangement`` holds every set after the move and ``new`` the sets it made from the
    rack. The sets ``arrangement`` holds beyond ``new`` must place the table's tiles and
    jokers, all of them and nothing else; ``new`` must be made of rack tiles and rack
    jokers and be worth at least the meld's points at face value.

    Raises
    ------
    InvalidArrangement
        If one of those fails, or ``new`` holds a set ``arrangement`` lacks.
    """
    table, rack = meld_parts(puzzle)
    # The table's sets place all of its tiles and jokers and nothing more: exactly them.
    nothing = Puzzle(np.zeros_like(puzzle.copies), game=rack.game)
    _without(arrangement, new).check(nothing if table is None else table)
    new.check(rack)
    if new.face < puzzle.game.meld:
        raise InvalidArrangement(
            f"the new sets are worth {new.face} points, short of the meld's {puzzle.game.meld}"
        )
    return arrangement.score


def _without(arrangement: Arrangement, new: Arrangement) -> Arrangement:
    """The sets of ``arrangement`` left once those of ``new`` are taken out, one copy per
    copy."""
    runs, groups = list(arrangement.runs), list(arrangement.groups)
    for sets, taken in ((runs, new.runs), (groups, new.groups)):
        for one in taken:
            if one not in sets:
                raise InvalidArrangement(f"the new set {one} is not among the sets placed")
            sets.remove(one)
    return Arrangement(tuple(runs), tuple(groups))
