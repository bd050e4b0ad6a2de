"""Solving puzzles with jokers or a table: the passes of the jokers' rules
(:mod:`rumdiff.solve.engine.joker_rules`), and the arrangement along their path.

:func:`rumdiff.solve.solver.solve` sends here every puzzle that has jokers or a table,
and every solve for the ``tiles`` objective. None of the joker-free solver's shortcuts
runs here, each for a reason:

- isolated-tile removal: a joker can make an isolated tile placeable;
- splitting at gaps: a joker bridges a gap, and joker-only sets need no tiles at all;
- the upper bounds by value and the beam's lower bound: they assume that a run may end
  short at no cost but its own tiles', which a table tile forbids.

So the DP walks every value 1..n and prunes by points: the solver's passes
(:func:`run_joker_dp`) by a bound tighter than every tile ahead, dropping dominated
states and judging groups early (docs/decisions/jokers.md, "The fast path of solve").
The reference search's passes, which drop only a state that cannot reach the aim even by
placing every tile still ahead, are :func:`rumdiff.solve.search.joker_passes`.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle
from rumdiff.solve.arrangement import Arrangement, Group, Run
from rumdiff.solve.engine.joker_rules import kernel_rules, run_bits
from rumdiff.solve.groups import group_value_table, joker_group_table, pair_code
from rumdiff.solve.runstates import complete_run_states

__all__ = ["OBJECTIVES", "rebuild", "run_joker_dp"]

#: What a solve maximises: the value placed, or the rack tiles placed (ties by value).
OBJECTIVES = ("value", "tiles")


def run_joker_dp(
    puzzle: Puzzle,
    objective: str,
    max_states: int,
    beam: int,
    lower: int = -1,
    *,
    meld: int = 0,
    live: tuple[int, int] = (config.JOKER_LIVE_START, config.MAX_LIVE_STATES),
):
    """Solve a puzzle with the fast passes of the jokers' rules; return ``(best weight,
    states, transitions, passes, status, path, upper)`` (``path``: the joint codes and
    the jokers placed at each row, see ``_jokers``, or None when the best is ``lower``
    and no pass traced it; ``upper``: the bound above every weight the passes aimed at).

    Rows walk the values downwards (n first), as in the joker-free solver, so a tile
    lost at a high value prunes early. The passes prune by
    :func:`rumdiff.solve.engine._joker_bound.joker_ahead`, isolated tiles counted only as
    far as jokers can place them, and drop dominated states. A beam pass finds a lower
    bound (retried wider when it finds no arrangement; without a table the joker-free
    optimum is one too, since jokers may stay on the rack: ``lower``, -1 for none), and
    one that meets the bound needs no exact pass; exact passes start with room for
    ``live[0]`` live states and grow, a wider beam between two
    (:func:`~rumdiff.solve.engine._joker_passes.joker_search`). No pass keeps more than
    ``live[1]`` states alive at once. With ``meld > 0`` only arrangements worth at least
    ``meld`` points at face value count (``rumdiff.solve.meld``: the rack of an opening
    move). The reference search's passes, whose work is the labels' effort, are
    :func:`rumdiff.solve.search.joker_passes`.
    """
    path = np.zeros((2, puzzle.n), dtype=np.int64)
    work = np.zeros(5, dtype=np.int64)
    # Python ints: numba types them as the kernel's int64, and each np.int64() costs
    # 0.3 us of a small move's solve.
    best, status = _search_kernel()(
        *kernel_rules(puzzle, objective, meld), group_value_table(puzzle.k, puzzle.m),
        puzzle.m, int(lower), (int(max_states), int(live[1]), int(beam), int(live[0])),
        path, work,
    )  # fmt: skip
    states, transitions, passes, high, borrowed = work.tolist()
    traced = None if borrowed else path  # the best is ``lower``, whose path is not ours
    return int(best), states, transitions, passes, int(status), traced, high


@cache
def _search_kernel():
    """``joker_search``, imported on first use: importing it starts numba, and an import
    statement costs every call a microsecond."""
    from rumdiff.solve.engine._joker_passes import joker_search

    return joker_search


def rebuild(puzzle: Puzzle, path: np.ndarray) -> Arrangement:
    """The runs and groups along a path of :func:`run_joker_dp`, jokers included."""
    k, n = puzzle.k, puzzle.n
    counts_of = complete_run_states(puzzle.m + puzzle.jokers).counts
    bits = run_bits(puzzle)
    # Python lists: numpy's indexing costs more than the work at each row and colour.
    x = puzzle.copies[::-1].tolist()
    need = puzzle.table_copies[::-1].tolist()
    codes, picks = path[0, :n].tolist(), path[1, :n].tolist()
    runs: list[Run] = []
    groups: list[Group] = []
    slots = [[] for _ in range(k)]  # per colour: open runs as [length, first row, joker rows]
    for w in range(n + 1):
        code = codes[w] if w < n else 0
        pick = picks[w] if w < n else 0
        if w < n and code == 0 and pick == 0 and not any(x[w]) and not any(slots):
            continue  # no tile, no joker and no open run: nothing happens at this row
        real = []
        for c in range(k):
            state = (code >> (bits * c)) & ((1 << bits) - 1) if w < n else 0
            counts = counts_of[state]
            short = [slot for slot in slots[c] if slot[0] < 3]
            complete = [slot for slot in slots[c] if slot[0] >= 3]
            keep = counts[3] - sum(1 for slot in short if slot[0] == 2)
            for slot in complete[keep:]:
                runs.append(_run(c, slot, w, n))
            extended = short + complete[:keep] + [[0, w, []] for _ in range(counts[1])]
            u = len(extended)
            wild = (pick >> (3 * c)) & 7
            for index, slot in enumerate(extended):
                if index >= u - wild:
                    slot[2].append(w)
                slot[0] += 1
            slots[c] = extended
            real.append(u - wild)
        if w == n:
            break
        jokers = (pick >> (3 * k)) & 7
        groups.extend(_groups(x[w], need[w], real, jokers, puzzle, n - w))
    return Arrangement(tuple(sorted(runs)), tuple(sorted(groups)))


def _run(colour: int, slot, end_row: int, n: int) -> Run:
    """The run a slot built from row ``slot[1]`` to ``end_row - 1`` (values n - row)."""
    length, start_row, joker_rows = slot
    high = n - start_row
    low = high - length + 1
    return Run(colour, low, high, tuple(sorted(n - row for row in joker_rows)))


def _groups(x, need, real, jokers, puzzle: Puzzle, value: int) -> list[Group]:
    """Groups at one value that place what the group table promises with ``jokers`` jokers.

    ``x`` holds the row's tiles, ``need`` its table tiles and ``real`` the tiles its runs
    take, per colour.
    """
    k = puzzle.k
    left = tuple(x[c] - real[c] for c in range(k))
    required = tuple(max(0, need[c] - real[c]) for c in range(k))
    try:
        found = _group_colours(puzzle.m, puzzle.jokers, left, required, jokers)
    except LookupError as error:  # raised without the value, which the cache leaves out
        raise RuntimeError(f"internal error: {str(error).format(value=value)}") from None
    return [Group(value, members, wild) for members, wild in found]


@lru_cache(maxsize=1 << 14)  # rows repeat; with k = 6 there may be millions of kinds
def _group_colours(m: int, j: int, left: tuple, required: tuple, jokers: int) -> tuple:
    """Each group's colours and joker colours at a row, as :func:`_groups` needs them.

    Raises
    ------
    LookupError
        If no groups fit, its message a template of the row's ``{value}``.
    """
    k = len(left)
    index = sum(pair_code(left[c], required[c]) * ((m + 1) * (m + 2) // 2) ** c for c in range(k))
    target = int(joker_group_table(k, m, j)[index, jokers])
    if target < 0:
        raise LookupError("no groups at value {value} fit the path")
    for q in range(0, m + j + 1):
        top = min(sum(min(a, q) for a in left), k * q - jokers)
        if top == target and max(required, default=0) <= q and top >= 3 * q - jokers:
            break
    else:
        raise LookupError("no number of groups at value {value} fits")
    take = list(required)
    for c in range(k):  # then more tiles, up to q a colour, until the target is met
        more = min(min(left[c], q) - take[c], target - sum(take))
        take[c] += max(0, more)
    members: list[list[int]] = [[] for _ in range(q)]
    for c in sorted(range(k), key=lambda c: -take[c]):
        for group in sorted(range(q), key=lambda g: len(members[g]))[: take[c]]:
            members[group].append(c)
    wild: list[list[int]] = [[] for _ in range(q)]
    for _ in range(jokers):
        group = min(range(q), key=lambda g: len(members[g]) + len(wild[g]))
        free = [c for c in range(k) if c not in members[group] and c not in wild[group]]
        wild[group].append(free[0])
    return tuple((tuple(sorted(members[g])), tuple(sorted(wild[g]))) for g in range(q))
