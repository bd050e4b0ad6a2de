"""The brute force: a memoised exhaustive search for tiny puzzles, the solver's
slowest and most obvious twin (``rumdiff.solve.twins.ilp`` holds the ILP).

It knows jokers and the table (README, "Jokers and the table"): a joker stands for any
tile of G(k, m, n), even one whose m copies are all present, and scores 0; every table
tile and table joker must be placed. It knows the opening meld of a puzzle's game too
(``rumdiff.solve.meld``): the table's tiles and jokers form sets of their own, and the
rack's new sets are worth at least the meld's points, a joker at the tile's face value.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle, as_copies
from rumdiff.validation import check_kmn

__all__ = ["INFEASIBLE", "MAX_BRUTE_FORCE_TILES", "solve_brute_force"]

#: Most tiles :func:`solve_brute_force` accepts by default; its memo grows
#: exponentially with the tile count, so larger puzzles belong to the ILP.
MAX_BRUTE_FORCE_TILES = 30
#: What the twins return for a puzzle whose table cannot be placed whole.
INFEASIBLE = None

_S = config.S
_NONE = -(1 << 60)  # "no arrangement" inside the search, far below any score


def solve_brute_force(copies, *, max_tiles: int = MAX_BRUTE_FORCE_TILES, objective="value"):
    """Maximum score of a tiny puzzle by exhaustive, memoised search.

    Take the first present tile (lowest value, then lowest colour). Every tile before
    it is decided, so any set holding it is a run whose values below it are jokers, or
    a group at its value with other colours present there (and jokers). Try each:
    leave one copy unused (unless the table needs it), or put it in every such run and
    group with every choice of jokers; recurse on what remains and keep the best. When
    no regular tile is left, the table's jokers still unplaced form a set of their own
    (3 or more jokers), or the branch fails. Results are memoised on what remains.

    Parameters
    ----------
    copies : array_like of shape (n, k) or Puzzle
        ``copies[v - 1, c]`` is the number of tiles of value ``v`` and colour ``c``,
        each in ``0..config.MAX_M``; a :class:`~rumdiff.puzzle.Puzzle` may also hold
        jokers and a table.
    max_tiles : int, optional
        Refuse puzzles with more regular tiles than this (the search is exponential).
    objective : {"value", "tiles"}
        Maximise the value placed, or the rack tiles placed with ties broken by value.

    Returns
    -------
    int or tuple or None
        The maximum total value of the regular tiles placed; for ``objective="tiles"``
        the pair (rack tiles placed, value). ``INFEASIBLE`` (None) when no arrangement
        places the whole table.

    Raises
    ------
    ValueError
        If ``copies`` is malformed or holds more than ``max_tiles`` tiles.
    """
    puzzle = copies if isinstance(copies, Puzzle) else None
    array = as_copies(copies.copies if puzzle else copies, config.MAX_M)
    if array.ndim != 2:
        raise ValueError(f"copies must have shape (n, k), got shape {array.shape}")
    check_kmn(array.shape[1], 1, array.shape[0])
    if objective not in ("value", "tiles"):
        raise ValueError(f"objective must be 'value' or 'tiles', got {objective!r}")
    tiles = int(array.sum())
    if tiles > max_tiles:
        raise ValueError(
            f"puzzle has {tiles} tiles; brute force accepts at most {max_tiles} "
            "(use solve_ilp for larger puzzles)"
        )
    n, k = array.shape
    table = np.zeros_like(array) if puzzle is None else puzzle.table_copies
    jokers = 0 if puzzle is None else puzzle.jokers
    table_jokers = 0 if puzzle is None else puzzle.table_jokers
    meld = None if puzzle is None else puzzle.game.meld
    # A tile is worth its value, or (tiles objective) one more than all points together
    # plus its value, so that one more tile beats any gain in value.
    big = 0 if objective == "value" else int(array.sum(axis=1) @ np.arange(1, n + 1)) + 1
    flat = tuple(array.ravel().tolist()), tuple(table.ravel().tolist())
    if meld is None:
        best = _search(*flat, n, k, big, jokers, table_jokers, 0)
    else:  # the table alone, all of it placed, then the rack alone, meeting the meld
        rack = tuple(a - t for a, t in zip(*flat, strict=True))
        best = _search(flat[1], flat[1], n, k, big, table_jokers, table_jokers, 0)
        if best > _NONE // 2:
            best += _search(rack, (0,) * len(rack), n, k, big, jokers - table_jokers, 0, meld)
    if best <= _NONE // 2:
        return INFEASIBLE
    if objective == "value":
        return best
    placed, value = divmod(best, big)
    return placed - int(table.sum()), value


def _search(
    state: tuple[int, ...], table: tuple[int, ...], n: int, k: int, big: int, j: int, tj: int,
    meld: int,
) -> int:  # fmt: skip
    """Best weight of the flat count vector ``state`` (index ``(value - 1) * k + colour``)
    whose cells must place ``table`` tiles, with ``j`` jokers of which ``tj`` must be
    placed, and sets worth at least ``meld`` points at face value (0: any)."""

    def weight(value: int, tiles: int) -> int:
        return tiles * (big + value)

    def alone(size: int) -> int:
        """The most a set of ``size`` jokers alone is worth at face value (0: none fits)."""
        group = size * n if size <= k else 0
        run = size * (2 * n - size + 1) // 2 if size <= n else 0
        return max(group, run) if size >= _S else 0

    @cache
    def best(
        state: tuple[int, ...], need: tuple[int, ...], jokers: int, owed: int, short: int
    ) -> int:
        first = next((i for i, x in enumerate(state) if x), None)
        if first is None:
            # Only jokers are left: the owed ones (and any others) form one set, which
            # the meld's points still short count at their face value.
            if owed == 0 and short == 0:
                return 0
            sizes = range(max(owed, _S), jokers + 1)
            return 0 if any(alone(size) >= max(short, 1) for size in sizes) else _NONE
        value, colour = first // k + 1, first % k
        rest = list(state)
        rest[first] -= 1
        result = _NONE
        if state[first] > need[first]:
            result = best(tuple(rest), need, jokers, owed, short)  # leave one copy unused
        needed = list(need)
        needed[first] = max(0, needed[first] - 1)
        # Runs holding this tile: a jokers below it, then tiles or jokers above.
        for below in range(0, min(jokers, value - 1) + 1):
            result = max(
                result, _runs(value, colour, below, rest, needed, jokers - below, owed, short)
            )
        # Groups at this value: this tile, other present colours above it (colours below
        # it at this value are decided), and jokers for colours not in the group.
        others = [c for c in range(colour + 1, k) if rest[(value - 1) * k + c] > 0]
        for size in range(0, len(others) + 1):
            for chosen in combinations(others, size):
                for extra in range(0, min(jokers, k - size - 1) + 1):
                    if size + 1 + extra < _S:
                        continue
                    group = list(rest)
                    still = list(needed)
                    for c in chosen:
                        group[(value - 1) * k + c] -= 1
                        still[(value - 1) * k + c] = max(0, still[(value - 1) * k + c] - 1)
                    after = best(
                        tuple(group), tuple(still), jokers - extra, max(0, owed - extra),
                        max(0, short - value * (size + 1 + extra)),
                    )  # fmt: skip
                    result = max(result, weight(value, size + 1) + after)
        return result

    def _runs(value, colour, below, rest, needed, jokers, owed, short) -> int:
        """The best of the runs of ``colour`` holding ``value`` with ``below`` jokers under
        it: each value above is a tile (if present) or a joker; every length >= s."""
        owed = max(0, owed - below)
        box = [_NONE]
        # The run so far runs from value - below to ``end``: its face value.
        face = sum(range(value - below, value + 1))

        def extend(end, run, still, jokers, owed, gained, length, face):
            if length >= _S:
                after = best(tuple(run), tuple(still), jokers, owed, max(0, short - face))
                box[0] = max(box[0], gained + after)
            if end >= n:
                return
            cell = end * k + colour  # the tile of value end + 1
            if run[cell] > 0:
                run2, still2 = list(run), list(still)
                run2[cell] -= 1
                still2[cell] = max(0, still2[cell] - 1)
                extend(end + 1, run2, still2, jokers, owed, gained + weight(end + 1, 1),
                       length + 1, face + end + 1)  # fmt: skip
            if jokers > 0:
                extend(end + 1, run, still, jokers - 1, max(0, owed - 1), gained, length + 1,
                       face + end + 1)  # fmt: skip

        extend(value, rest, needed, jokers, owed, weight(value, 1), below + 1, face)
        return box[0]

    return best(state, table, j, tj, meld)
