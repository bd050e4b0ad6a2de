"""Kernels on count matrices: isolated-tile removal, splitting, per-row and runs-only bounds.

The reference search (``_search``) and the features use these exactly as they are: a
change here changes every puzzle's search effort (tests/data/search_work.csv.gz).
"""

import numpy as np
from numba import njit

#: Below any reachable score, so it marks run states not reached.
NEG = -(1 << 60)


@njit(cache=True, inline="always")
def max_groups_row(row, s):
    """Most disjoint groups of >= s distinct colours in one row of copies."""
    g = 0
    while True:
        total = 0
        for c in range(row.shape[0]):
            total += min(row[c], g + 1)
        if total < s * (g + 1):
            return g
        g += 1


@njit(cache=True, inline="always")
def run_capacity(x, w, c):
    """Most runs that can pass through cell (w, c), judged from its neighbours.

    A run through value w holds w - 1 or w + 1; runs holding w - 1 but not w + 1
    also hold w - 2, and symmetrically, which gives the three window terms.
    """
    n = x.shape[0]
    a = x[w - 2, c] if w >= 2 else 0
    b = x[w - 1, c] if w >= 1 else 0
    d = x[w + 1, c] if w + 1 < n else 0
    e = x[w + 2, c] if w + 2 < n else 0
    cap = min(a, b) + min(b, d) + min(d, e)
    cap = min(cap, b + min(d, e))
    cap = min(cap, d + min(a, b))
    return cap


@njit(cache=True)
def remove_isolated(x, s):
    """Remove, in place, copies that no valid arrangement can use; return how many.

    A copy of (w, c) beyond ``run_capacity + max_groups_row`` can be in no run and no
    group (a group takes at most one tile per colour). Removing such copies changes
    the neighbours' capacities, so sweep until nothing changes.
    """
    n, k = x.shape
    removed = 0
    changed = True
    while changed:
        changed = False
        for w in range(n):
            g = max_groups_row(x[w], s)
            for c in range(k):
                xc = x[w, c]
                if xc == 0:
                    continue
                keep = min(xc, run_capacity(x, w, c) + g)
                if keep < xc:
                    removed += xc - keep
                    x[w, c] = keep
                    changed = True
    return removed


@njit(cache=True)
def segments(x, bounds_out):
    """Split rows into independent segments; return how many.

    No run can hold both w and w + 1 when every colour lacks one of them, so the
    puzzle splits there. Rows without tiles belong to no segment. Segment i is rows
    ``bounds_out[i, 0]`` to ``bounds_out[i, 1] - 1``.
    """
    n, k = x.shape
    count = 0
    start = -1
    for w in range(n + 1):
        cut = True
        if w < n and start >= 0:
            for c in range(k):
                if x[w - 1, c] > 0 and x[w, c] > 0:
                    cut = False
                    break
        if cut and start >= 0:
            bounds_out[count, 0] = start
            bounds_out[count, 1] = w
            count += 1
            start = -1
        if w < n and start < 0:
            empty = True
            for c in range(k):
                if x[w, c] > 0:
                    empty = False
                    break
            if not empty:
                start = w
    return count


@njit(cache=True, inline="always")
def group_index(row, base):
    """Index of a row of copies in a base-``base`` group-value table."""
    index = 0
    power = 1
    for c in range(row.shape[0]):
        index += row[c] * power
        power *= base
    return index


@njit(cache=True)
def row_upper_bounds(x, gv, m, values, out):
    """Upper bound on the points placed at each row, whatever the arrangement.

    Group tiles are at most the group value; run tiles of a colour at most its
    run capacity. Row w's bound is ``values[w] * min(tiles, that sum)``, its tiles
    being worth ``values[w]`` (w + 1 when the rows come in order).
    """
    n, k = x.shape
    for w in range(n):
        tiles = 0
        runs = 0
        for c in range(k):
            tiles += x[w, c]
            runs += min(x[w, c], run_capacity(x, w, c))
        out[w] = values[w] * min(tiles, gv[group_index(x[w], m + 1)] + runs)


@njit(cache=True)
def colour_runs(x, c, lo, hi, values, tables, reach, work, parent):
    """Exact runs-only optimum of colour c on rows lo..hi-1: ``(points, tiles)``.

    A DP over the colour's run states (``rumdiff.solve.runstates``), once weighting each
    tile by its value and once by 1, each maximised on its own. Row i holds tiles of value
    ``values[i]``, consecutive values in either direction (the solver walks them
    downwards). ``reach[i]`` receives the number of run states reachable after row i,
    for i in lo..hi-1. Scores are optimistic as in the solver: a tile earns when it joins
    a run and is taken back when its run ends short. ``tables`` are the run-state tables
    as the solver takes them; ``work`` is scratch of shape (4, F).

    ``parent`` (hi - lo + 1 rows of F, or no rows for none) receives in ``parent[r, t]``
    the run state before row lo + r on a best-points path to state t after it (the
    closing row is r = hi - lo): :func:`runs_only_path` traces an optimum back from it.
    """
    record = parent.shape[0] > 0
    first, used, next_state, dropped1, dropped2, _ = tables
    size = first.shape[0] - 1
    val, til, nval, ntil = work[0], work[1], work[2], work[3]
    val[:] = NEG
    til[:] = NEG
    val[0] = 0
    til[0] = 0
    for i in range(lo, hi + 1):
        xc = x[i, c] if i < hi else 0
        v = values[i] if i < hi else 0  # (the closing row places nothing)
        # What a run of length 1 (2) that ends here gives back: the tile(s) before. (The
        # first two rows have no such runs.)
        lost1 = values[i - 1] if i > lo else 0
        lost2 = lost1 + values[i - 2] if i > lo + 1 else 0
        nval[:] = NEG
        ntil[:] = NEG
        for state in range(size):
            if val[state] == NEG:
                continue
            for e in range(first[state], first[state + 1]):
                if used[e] > xc:
                    break
                target = next_state[e]
                d1 = dropped1[e]
                d2 = dropped2[e]
                gain = val[state] + used[e] * v - d1 * lost1 - d2 * lost2
                if gain > nval[target]:
                    nval[target] = gain
                    if record:
                        parent[i - lo, target] = state
                gain = til[state] + used[e] - d1 - 2 * d2
                if gain > ntil[target]:
                    ntil[target] = gain
        reachable = 0
        for state in range(size):
            val[state] = nval[state]
            til[state] = ntil[state]
            if nval[state] != NEG:
                reachable += 1
        if i < hi:
            reach[i] = reachable
    return val[0], til[0]


@njit(cache=True)
def runs_only_path(parent, rows, path):
    """Trace back a runs-only arrangement of a segment that places its runs-only optimum.

    ``path[r]`` receives the state code after the segment's row r of ``rows`` (5 bits a
    colour), traced from the closing row through ``parent[c]``, what :func:`colour_runs`
    recorded for colour c."""
    path[:rows] = 0
    for c in range(parent.shape[0]):
        state = 0  # after the closing row, where every run has ended
        for r in range(rows, 0, -1):
            state = parent[c, r, state]
            path[r - 1] += state << (5 * c)


@njit(cache=True, inline="always")
def joint_radix(k, size):
    """Place value of each colour's run state in a joint state code."""
    radix = np.empty(k, np.int64)
    radix[0] = 1
    for c in range(1, k):
        radix[c] = radix[c - 1] * size
    return radix


@njit(cache=True)
def prepare(reduced, m, s, gv, values):
    """Remove isolated copies from ``reduced`` (in place) and split it: the removed
    copies, the per-row upper bounds (row w holds tiles of value ``values[w]``), the
    segments' ``(lo, hi)`` rows and their count."""
    n = reduced.shape[0]
    removed = remove_isolated(reduced, s)
    row_bound = np.empty(n, np.int64)
    row_upper_bounds(reduced, gv, m, values, row_bound)
    bounds = np.empty((n, 2), np.int64)
    count = segments(reduced, bounds)
    return removed, row_bound, bounds, count


@njit(cache=True)
def segment_bounds(x, values, m, gv, row_bound, runs_only):
    """Groups only, the suffix sums of the row bounds, and the segment's lower and upper
    bounds: max(runs only, groups only) and min(runs only + groups only, row bounds).

    Row i of ``x`` holds tiles of value ``values[i]`` and has the bound ``row_bound[i]``;
    the rows may come in any order of values."""
    rows = x.shape[0]
    groups_only = 0
    for i in range(rows):
        groups_only += values[i] * gv[group_index(x[i], m + 1)]
    suffix = np.zeros(rows + 2, np.int64)
    for i in range(rows - 1, -1, -1):
        suffix[i] = suffix[i + 1] + row_bound[i]
    low = max(runs_only, groups_only)
    high = min(runs_only + groups_only, suffix[0])
    return groups_only, suffix, low, high


@njit(cache=True)
def runs_path_of_counts(counts, values, tables, reach, scratch, parent, path):
    """Trace the best runs within the tiles ``counts`` as a path of state codes.

    ``counts`` holds rows of a segment by colours; ``path[r]`` receives the state code
    after row r (5 bits a colour). Per colour, :func:`colour_runs` over the counts
    alone, then :func:`runs_only_path` (``reach``, ``scratch`` and ``parent`` as those
    take them). Its runs use at most ``counts`` at each row and place at least the
    points of any runs of length >= 3 within them: so a path walked in the other order
    of values (whose codes count the runs from the other end) comes back as one in this
    order whose runs place at least as much, and leave at least as many tiles to the
    groups at each row. Returns the points the runs place.
    """
    rows, k = counts.shape
    points = np.int64(0)
    for c in range(k):
        placed, _ = colour_runs(counts, c, 0, rows, values, tables, reach, scratch, parent[c])
        points += placed
    runs_only_path(parent, rows, path)
    return points


@njit(cache=True, inline="always")
def fill_report(report, values):
    """Copy a kernel's results (a tuple of whole numbers) into its ``report`` array."""
    for j, value in enumerate(values):
        report[j] = value
