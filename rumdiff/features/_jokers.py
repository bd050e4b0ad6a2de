"""Kernels of the joker features, over a whole ``(puzzles, n, k)`` stack.

Row ``w`` of a count matrix holds value ``w + 1``; ``rumdiff.features.jokers`` wraps them.
Capacities reuse the solver's own cell rules (``rumdiff.solve._tiles``).
"""

import numpy as np
from numba import njit

from rumdiff.solve._tiles import (
    colour_runs,
    group_index,
    max_groups_row,
    remove_isolated,
    run_capacity,
    segments,
)

#: Columns of :func:`joker_stack`'s output, in order.
JOKER_COLUMNS = (
    "jokers", "table_jokers", "table_tiles", "rack_tiles", "table_points", "joker_lower",
    "joker_upper", "joker_placeable", "joker_placeable_points", "joker_bridges",
    "joker_groups", "table_needs_joker", "table_blocked",
)  # fmt: skip


@njit(cache=True)
def cell_capacities(x, w, c, s):
    """Most copies of (w, c) that valid sets can hold at once: ``(without a joker, with
    one)``.

    Sets holding the tile are runs of its colour, which shrink to a window of three
    values around it, and groups of its value; the two draw on different cells, so
    their most disjoint counts add up (``run_capacity`` and ``max_groups_row``). One
    joker stands in one set: it is one more copy of one cell of the windows (a
    neighbour in the column within two values) or of the row (another colour), so try
    each such cell with one more copy. ``x`` is changed and restored.
    """
    n, k = x.shape
    runs = run_capacity(x, w, c)
    groups = max_groups_row(x[w], s)
    runs_joker = runs
    for offset in range(-2, 3):
        u = w + offset
        if offset != 0 and 0 <= u < n:
            x[u, c] += 1
            runs_joker = max(runs_joker, run_capacity(x, w, c))
            x[u, c] -= 1
    groups_joker = groups
    for d in range(k):
        if d != c:
            x[w, d] += 1
            groups_joker = max(groups_joker, max_groups_row(x[w], s))
            x[w, d] -= 1
    own = x[w, c]
    return min(own, runs + groups), min(own, max(runs_joker + groups, runs + groups_joker))


@njit(cache=True)
def joker_free_lower(x, m, s, gv, values, tables, reach, work, bounds):
    """The solver's joker-free lower bound of ``x`` (changed in place, row w holding tiles of
    value ``values[w] = w + 1``): after isolated-tile removal and splitting, per segment
    max(exact runs only, groups only), summed."""
    k = x.shape[1]
    remove_isolated(x, s)
    pieces = segments(x, bounds)
    no_parent = np.empty((0, 0), np.int64)  # (colour_runs: no path wanted)
    lower = 0
    for segment in range(pieces):
        lo = bounds[segment, 0]
        hi = bounds[segment, 1]
        groups = 0
        for w in range(lo, hi):
            groups += (w + 1) * gv[group_index(x[w], m + 1)]
        runs = 0
        for c in range(k):
            best, _ = colour_runs(x, c, lo, hi, values, tables, reach[c], work, no_parent)
            runs += best
        lower += max(runs, groups)
    return lower


@njit(cache=True)
def joker_stack(stack, table, jokers, table_jokers, m, s, gv, tables, out):
    """The joker features of every puzzle: one row of ``out`` per puzzle, columns
    ``JOKER_COLUMNS``.

    ``stack`` holds the regular tiles (rack and table), ``table`` the table's, ``jokers``
    and ``table_jokers`` the counts. The upper bound sums, per cell, the value times
    the copies valid sets can hold: with j jokers at most one more per joker, and the
    first joker's gain is known exactly (:func:`cell_capacities`). The lower bound is
    the joker-free one (:func:`joker_free_lower`) without a table, since jokers may stay
    on the rack; with a table (tiles or jokers) only the table's points, which every
    arrangement must place.
    """
    count, n, k = stack.shape
    size = tables[0].shape[0] - 1
    x = np.empty((n, k), np.int64)
    scratch = np.empty((n, k), np.int64)
    reach = np.empty((k, n), np.int64)
    work = np.empty((4, size), np.int64)
    bounds = np.empty((n, 2), np.int64)
    values = np.arange(1, n + 1)
    for p in range(count):
        j = jokers[p]
        on_table = 0
        table_points = 0
        rack = 0
        upper = 0
        placeable = 0
        placeable_points = 0
        bridges = 0
        joker_groups = 0
        needs_joker = 0
        blocked = 0
        for w in range(n):
            present = 0
            for c in range(k):
                x[w, c] = stack[p, w, c]
                on_table += table[p, w, c]
                table_points += (w + 1) * table[p, w, c]
                rack += stack[p, w, c] - table[p, w, c]
                if x[w, c] > 0:
                    present += 1
            # Exactly s - 1 colours: no group without a joker, one with it.
            if present == s - 1 and k >= s:
                joker_groups += 1
        for w in range(n):
            for c in range(k):
                if x[w, c] == 0:
                    # A joker here joins the runs on both sides.
                    if 0 < w < n - 1 and x[w - 1, c] > 0 and x[w + 1, c] > 0:
                        bridges += 1
                    continue
                alone, helped = cell_capacities(x, w, c, s)
                placeable += helped - alone
                placeable_points += (w + 1) * (helped - alone)
                held = alone if j == 0 else min(x[w, c], helped + j - 1)
                upper += (w + 1) * held
                needs_joker += max(0, table[p, w, c] - alone)
                blocked += max(0, table[p, w, c] - held)
        if on_table > 0 or table_jokers[p] > 0:
            lower = table_points
        else:
            scratch[:, :] = x
            lower = joker_free_lower(scratch, m, s, gv, values, tables, reach, work, bounds)
        row = (
            j, table_jokers[p], on_table, rack, table_points, lower, upper, placeable,
            placeable_points, bridges, joker_groups, needs_joker, blocked,
        )  # fmt: skip
        for column in range(len(row)):
            out[p, column] = row[column]
    return out


@njit(cache=True)
def probe_growth(profile):
    """log10 of the product, over the steps of a probe's pass (``profile``: the states
    made and those the beam kept, per step), of states made over states kept the step
    before, up to the last step that made any.

    The states that step would hold had every state beyond the beam grown like those
    kept, as in Knuth's estimate of a search tree from sampled paths. It telescopes to
    the last step's states times what the beam cut at each step, so it is never below 0;
    a pass that runs to its end closes in one state, so there it measures how much the
    beam had to cut (0 when it never cut), and a probe whose beam lost every state (which
    proves nothing) gives the estimate at the step where it did.
    """
    growth = 0.0
    cuts = 0.0
    for step in range(profile.shape[1]):
        if profile[0, step] == 0:
            break  # no state lives: the beam lost them all, or the pass has none
        growth = cuts + np.log10(profile[0, step])
        cuts += np.log10(profile[0, step] / profile[1, step])
    return growth
