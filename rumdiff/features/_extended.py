"""Kernels of the extended features, over a whole ``(puzzles, n, k)`` stack.

Row ``w`` of a count matrix holds value ``w + 1``; ``rumdiff.features.extended`` wraps
them. The per-segment bounds are the solver's own (``rumdiff.solve._tiles``).
"""

import numpy as np
from numba import njit

from rumdiff.features._search import ascent_segment, greedy_segment
from rumdiff.solve._tiles import (
    colour_runs,
    group_index,
    remove_isolated,
    row_upper_bounds,
    segments,
)

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
def extended_stack(stack, m, s, gv, tables, source, out):
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
    size = tables[0].shape[0] - 1
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
                best, most = colour_runs(x, c, lo, hi, tables, reach[c], work)
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
                found = greedy_segment(x, lo, hi, m, gv, tables, floor, gain, move, scratch, usage)
                seg_greedy = max(low, found)
                # The ascent polishes the greedy's arrangement when there is one.
                polished = ascent_segment(
                    x, lo, hi, m, gv, tables, source, usage, found >= 0, work, back
                )
                seg_ascent = max(low, polished)
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
