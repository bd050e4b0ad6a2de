"""Kernels of the thesis's six features, over a whole ``(puzzles, n, k)`` stack.

Row ``w`` of a count matrix holds value ``w + 1``; ``rumdiff.features.thesis`` wraps them.
"""

import numpy as np
from numba import njit

from rumdiff.solve._tiles import group_index, max_groups_row

#: Columns of :func:`thesis_stack`'s output (the copy counts follow, one per 0..m).
THESIS_BOUND_GAP = 0
THESIS_TILE_SURPLUS = 1
THESIS_IN_BOTH = 2
THESIS_COUNTS = 3


@njit(cache=True, inline="always")
def window_runs(x, w, c):
    """The thesis's r: 3-runs through cell (w, c), counted window by window.

    Each window (two values below, one either side, two above) that lies inside the
    puzzle adds the smaller copy count of its two other cells: for m <= 2 exactly the
    published rule (2 if both hold 2 copies, else 1 if both hold one, else 0).
    """
    n = x.shape[0]
    r = 0
    if w >= 2:
        r += min(x[w - 1, c], x[w - 2, c])
    if w + 2 < n:
        r += min(x[w + 1, c], x[w + 2, c])
    if w >= 1 and w + 1 < n:
        r += min(x[w - 1, c], x[w + 1, c])
    return r


@njit(cache=True)
def thesis_remove(x, gv, m, s):
    """Remove isolated copies in place by the published solver's rule; return how many.

    From the highest value down, in every value that is not clearable, each colour
    keeps at most g + r copies: r from :func:`window_runs` on the puzzle as changed
    so far, g the most groups the value can form (judged before the value changes;
    for k = 4, m = 2 that is 1 if the group value is positive, else 0).
    """
    n, k = x.shape
    removed = 0
    for w in range(n - 1, -1, -1):
        tiles = 0
        for c in range(k):
            tiles += x[w, c]
        if gv[group_index(x[w], m + 1)] == tiles:
            continue
        g = max_groups_row(x[w], s)
        for c in range(k):
            if x[w, c] == 0:
                continue
            keep = g + window_runs(x, w, c)
            if x[w, c] > keep:
                removed += x[w, c] - keep
                x[w, c] = keep
    return removed


@njit(cache=True)
def runs_rules(x, m):
    """Runs-only lower bound by the thesis's rules (Section 6.2): ``(points, tiles)``.

    Per colour, from the highest value down, on copies capped at 2: over each maximal
    stretch of >= 3 values with copies every value counts one copy; a second copy
    also counts when it opens a block of >= 3 doubles (the block counts double), when
    it and the value below are doubles with copies just above and below the pair
    (both count, the scan skips the pair), or when it is a lone double with copies in
    the two values above and the two below. For m = 3 each maximal stretch of >= 3
    values holding 3 copies adds one more copy per value (an extra run of third copies).
    """
    n, k = x.shape
    points = 0
    tiles = 0
    for c in range(k):
        i = n - 1
        while i >= 0:
            if x[i, c] == 0 or i < 2 or x[i - 1, c] == 0 or x[i - 2, c] == 0:
                i -= 1
                continue
            while i >= 0 and x[i, c] > 0:
                if x[i, c] >= 2:
                    if i >= 2 and x[i - 1, c] >= 2 and x[i - 2, c] >= 2:
                        while i >= 0 and x[i, c] >= 2:
                            points += 2 * (i + 1)
                            tiles += 2
                            i -= 1
                        continue
                    if i >= 2 and i + 1 < n and x[i + 1, c] > 0 and x[i - 1, c] >= 2:
                        if x[i - 2, c] > 0:
                            points += 4 * i + 2
                            tiles += 4
                            i -= 2
                            continue
                    if i >= 2 and i + 2 < n and x[i + 1, c] > 0 and x[i + 2, c] > 0:
                        if x[i - 1, c] > 0 and x[i - 2, c] > 0:
                            points += i + 1
                            tiles += 1
                points += i + 1
                tiles += 1
                i -= 1
        for layer in range(3, m + 1):
            start = 0
            for i in range(n + 1):
                if i < n and x[i, c] >= layer:
                    continue
                if i - start >= 3:
                    for j in range(start, i):
                        points += j + 1
                        tiles += 1
                start = i + 1
    return points, tiles


@njit(cache=True, nogil=True)
def thesis_stack(stack, m, s, gv, out):
    """The thesis's features of every puzzle in a ``(puzzles, n, k)`` stack.

    Per puzzle: :func:`thesis_remove`, then groups-only (value times group value) and
    :func:`runs_rules`; ``out`` receives bound gap, tile surplus, tiles in run and
    group, then the number of cells holding 0..m copies after removal.
    """
    count, n, k = stack.shape
    x = np.empty((n, k), np.int64)
    for p in range(count):
        for w in range(n):
            for c in range(k):
                x[w, c] = stack[p, w, c]
        thesis_remove(x, gv, m, s)
        tiles = 0
        points = 0
        group_points = 0
        group_tiles = 0
        in_both = 0
        for j in range(m + 1):
            out[p, THESIS_COUNTS + j] = 0
        for w in range(n):
            row_tiles = 0
            for c in range(k):
                row_tiles += x[w, c]
                out[p, THESIS_COUNTS + x[w, c]] += 1
            value = gv[group_index(x[w], m + 1)]
            tiles += row_tiles
            points += (w + 1) * row_tiles
            group_points += (w + 1) * value
            group_tiles += value
            if value > 0:
                clear = value == row_tiles
                g = max_groups_row(x[w], s)
                for c in range(k):
                    if x[w, c] > 0:
                        a = x[w, c] if clear else min(x[w, c], g)
                        in_both += min(a, window_runs(x, w, c))
        run_points, run_tiles = runs_rules(x, m)
        lower = max(run_points, group_points)
        upper = min(points, run_points + group_points)
        out[p, THESIS_BOUND_GAP] = upper - lower
        out[p, THESIS_TILE_SURPLUS] = tiles - max(run_tiles, group_tiles)
        out[p, THESIS_IN_BOTH] = in_both
    return out
