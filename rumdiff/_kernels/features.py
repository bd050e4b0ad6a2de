"""Kernels of the pre-solve features: the thesis's six and the extended set.

Every kernel takes a whole ``(puzzles, n, k)`` stack and writes one row of integer
outputs per puzzle, so that featurising many puzzles costs one call. Row ``w`` of a
count matrix holds value ``w + 1``.
"""

import numpy as np
from numba import njit

from rumdiff._kernels.search import _NEG, ascent_segment, greedy_segment
from rumdiff._kernels.tiles import (
    group_index,
    max_groups_row,
    remove_isolated,
    row_upper_bounds,
    segments,
)

#: Columns of :func:`thesis_stack`'s output (the copy counts follow, one per 0..m).
THESIS_BOUND_GAP = 0
THESIS_TILE_SURPLUS = 1
THESIS_IN_BOTH = 2
THESIS_COUNTS = 3

#: Columns of :func:`extended_stack`'s output, in order.
EXTENDED_COLUMNS = (
    "tiles", "points", "removed", "segments", "largest_segment", "nonclearable_values",
    "contested_values", "full_values", "longest_full_streak",
    "groups_only", "groups_only_tiles", "runs_only", "runs_only_tiles", "solver_lower",
    "solver_upper", "solver_gap", "solver_gap_tiles", "dp_segments", "dp_values",
    "dp_tiles", "colour_run_states", "run_states", "dp_run_states",
    "greedy_lower", "ascent_lower",
)  # fmt: skip


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def colour_runs(x, c, lo, hi, first, used, next_state, dropped1, dropped2, reach, work):
    """Exact runs-only optimum of colour c on rows lo..hi-1: ``(points, tiles)``.

    A forward DP over the colour's run states (``rumdiff.runstates``), once weighting
    each tile by its value and once by 1, each maximised on its own. ``reach[i]``
    receives the number of run states reachable after row i, for i in lo..hi-1.
    Scores are optimistic as in the solver: a tile earns when it joins a run and is
    taken back when its run ends short. ``work`` is scratch of shape (4, F).
    """
    size = first.shape[0] - 1
    val, til, nval, ntil = work[0], work[1], work[2], work[3]
    val[:] = _NEG
    til[:] = _NEG
    val[0] = 0
    til[0] = 0
    for i in range(lo, hi + 1):
        xc = x[i, c] if i < hi else 0
        v = i + 1
        nval[:] = _NEG
        ntil[:] = _NEG
        for state in range(size):
            if val[state] == _NEG:
                continue
            for e in range(first[state], first[state + 1]):
                if used[e] > xc:
                    break
                target = next_state[e]
                d1 = dropped1[e]
                d2 = dropped2[e]
                gain = val[state] + used[e] * v - d1 * (v - 1) - d2 * (2 * v - 3)
                if gain > nval[target]:
                    nval[target] = gain
                gain = til[state] + used[e] - d1 - 2 * d2
                if gain > ntil[target]:
                    ntil[target] = gain
        reachable = 0
        for state in range(size):
            val[state] = nval[state]
            til[state] = ntil[state]
            if nval[state] != _NEG:
                reachable += 1
        if i < hi:
            reach[i] = reachable
    return val[0], til[0]


@njit(cache=True)
def extended_stack(stack, m, s, gv, first, used, next_state, dropped1, dropped2, source,
                   out):  # fmt: skip
    """The extended features of every puzzle in a ``(puzzles, n, k)`` stack.

    Per puzzle, on the copy left by the solver's isolated-tile removal
    (``tiles.remove_isolated``) and split like the solver (``tiles.segments``): per
    segment, groups-only, the exact runs-only optimum (:func:`colour_runs`) and the
    per-value bounds (``tiles.row_upper_bounds``) give the solver's own lower and
    upper bounds; where they differ, ``search.greedy_segment`` and then
    ``search.ascent_segment`` (from the greedy's arrangement) try to close the gap. Row
    counts and reachable run states complete the row of ``out``, whose columns are
    ``EXTENDED_COLUMNS``.
    """
    count, n, k = stack.shape
    size = first.shape[0] - 1
    x = np.empty((n, k), np.int64)
    bounds = np.empty((n, 2), np.int64)
    row_bound = np.empty(n, np.int64)
    product = np.empty(n, np.int64)
    floor = np.empty(n + 1, np.int64)
    reach = np.empty((k, n), np.int64)
    usage = np.empty((n, k), np.int64)
    work = np.empty((4, size), np.int64)
    back = np.empty((n + 1, size), np.int64)
    gain = np.empty((k, m + 1), np.int64)
    move = np.empty((k, m + 1), np.int64)
    scratch = np.empty((9, k), np.int64)
    for p in range(count):
        tiles = 0
        points = 0
        for w in range(n):
            for c in range(k):
                x[w, c] = stack[p, w, c]
                tiles += x[w, c]
                points += (w + 1) * x[w, c]
        removed = remove_isolated(x, s)
        row_upper_bounds(x, gv, m, row_bound)
        pieces = segments(x, bounds)
        nonclearable = 0
        contested = 0
        full = 0
        streak = 0
        longest = 0
        for w in range(n):
            row_tiles = 0
            at_m = 0
            for c in range(k):
                row_tiles += x[w, c]
                if x[w, c] == m:
                    at_m += 1
            value = gv[group_index(x[w], m + 1)]
            if value < row_tiles:
                nonclearable += 1
                if value > 0:
                    contested += 1
            if at_m == k:
                full += 1
                streak += 1
                longest = max(longest, streak)
            else:
                streak = 0
            product[w] = 1
        group_points = 0
        group_tiles = 0
        run_points = 0
        run_tiles = 0
        lower = 0
        upper = 0
        gap_tiles = 0
        largest = 0
        dp_segments = 0
        dp_values = 0
        dp_tiles = 0
        dp_states = 0
        greedy = 0
        ascent = 0
        colour_states = n * k
        for segment in range(pieces):
            lo = bounds[segment, 0]
            hi = bounds[segment, 1]
            largest = max(largest, hi - lo)
            seg_group_points = 0
            seg_group_tiles = 0
            seg_bound = 0
            seg_bound_tiles = 0
            seg_tiles = 0
            for w in range(lo, hi):
                value = gv[group_index(x[w], m + 1)]
                seg_group_points += (w + 1) * value
                seg_group_tiles += value
                seg_bound += row_bound[w]
                seg_bound_tiles += row_bound[w] // (w + 1)
                for c in range(k):
                    seg_tiles += x[w, c]
            seg_run_points = 0
            seg_run_tiles = 0
            for c in range(k):
                best, most = colour_runs(
                    x, c, lo, hi, first, used, next_state, dropped1, dropped2, reach[c], work
                )
                seg_run_points += best
                seg_run_tiles += most
                for w in range(lo, hi):
                    product[w] *= reach[c, w]
                    colour_states += reach[c, w] - 1
            low = max(seg_run_points, seg_group_points)
            high = min(seg_run_points + seg_group_points, seg_bound)
            lower += low
            upper += high
            gap_tiles += min(seg_run_tiles + seg_group_tiles, seg_bound_tiles) - max(
                seg_run_tiles, seg_group_tiles
            )
            seg_greedy = low
            seg_ascent = low
            if low < high:
                dp_segments += 1
                dp_values += hi - lo
                dp_tiles += seg_tiles
                for w in range(lo, hi):
                    dp_states += product[w]
                # The solver prunes a state whose value plus the later values' bounds
                # falls below the lower bound: the greedy pass must stay above that.
                later = 0
                floor[hi - lo] = low
                for w in range(hi - 1, lo - 1, -1):
                    floor[w - lo] = low - later
                    later += row_bound[w]
                found = greedy_segment(
                    x, lo, hi, m, gv, first, used, next_state, dropped1, dropped2, floor,
                    gain, move, scratch, usage,
                )  # fmt: skip
                seg_greedy = max(low, found)
                # The ascent polishes the greedy's arrangement when there is one.
                seg_ascent = max(low, ascent_segment(
                    x, lo, hi, m, gv, first, used, next_state, dropped1, dropped2, source,
                    usage, found >= 0, work, back,
                ))  # fmt: skip
            greedy += seg_greedy
            ascent += seg_ascent
            group_points += seg_group_points
            group_tiles += seg_group_tiles
            run_points += seg_run_points
            run_tiles += seg_run_tiles
        states = 0
        for w in range(n):
            states += product[w]
        row = (
            tiles, points, removed, pieces, largest, nonclearable, contested, full, longest,
            group_points, group_tiles, run_points, run_tiles, lower, upper, upper - lower,
            gap_tiles, dp_segments, dp_values, dp_tiles, colour_states, states, dp_states,
            greedy, ascent,
        )  # fmt: skip
        for j in range(len(row)):
            out[p, j] = row[j]
    return out
