"""Kernels of the extended features, over a whole ``(puzzles, n, k)`` stack.

Row ``w`` of a count matrix holds value ``w + 1``; ``rumdiff.features.extended`` wraps
them. The per-segment bounds are the solver's own (``rumdiff.solve._tiles``).
"""

import numpy as np
from numba import njit

from rumdiff.features._search import ascent_segment, bound_search, greedy_segment, least_drops
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
    "greedy_lower", "ascent_lower", "unpruned_transitions", "bound_met", "bound_refuted",
    "bound_open", "bound_nodes",
)  # fmt: skip


@njit(cache=True)
def unpruned_transitions(x, lo, hi, tables, reach, moves):
    """Transitions a pass of the reference search would try on rows lo..hi-1 if it pruned
    nothing: then the live states are every combination of each colour's reachable run
    states, so the count is a sum of products. ``reach[c, i]`` receives the reachable
    states of colour c after row lo + i, ``moves[c, i]`` the moves tried from the states
    reachable before it (i = hi - lo: the closing row); both scratch of shape
    (k, rows + 1)."""
    first, used, next_state, _, _, _ = tables
    k = x.shape[1]
    rows = hi - lo
    for c in range(k):
        now = np.int64(1)  # bit s set: run state s reachable; state 0 before the first row
        for i in range(rows + 1):
            xc = x[lo + i, c] if i < rows else 0
            after = np.int64(0)
            tried = 0
            for s in range(first.shape[0] - 1):
                if (now >> s) & 1:
                    e = first[s]
                    while e < first[s + 1] and used[e] <= xc:
                        after |= np.int64(1) << next_state[e]
                        tried += 1
                        e += 1
            moves[c, i] = tried
            now = after
            count = 0
            while after:
                after &= after - 1
                count += 1
            reach[c, i] = count
    total = 0.0
    for i in range(rows + 1):
        for c in range(k):
            product = float(moves[c, i])
            for d in range(c):
                product *= reach[d, i]
            if i > 0:
                for d in range(c + 1, k):
                    product *= reach[d, i - 1]
            total += product
    return total


@njit(cache=True, nogil=True)
def extended_stack(stack, m, s, gv, tables, source, budget, out):
    """The extended features of every puzzle in a ``(puzzles, n, k)`` stack.

    Per puzzle, on the copy left by the solver's isolated-tile removal
    (``tiles.remove_isolated``) and split like the solver (``tiles.segments``): per
    segment, groups-only, the exact runs-only optimum (:func:`colour_runs`) and the
    per-value bounds (``tiles.row_upper_bounds``) give the solver's own lower and
    upper bounds; where they differ, ``search.greedy_segment`` and then
    ``search.ascent_segment`` (from the greedy's arrangement) try to close the gap, and
    ``search.bound_search`` decides, within ``budget`` nodes, whether an arrangement
    meets the upper bound; :func:`unpruned_transitions` counts what an unpruned pass
    would try. Row counts and reachable run states complete the row of ``out``, whose
    columns are ``EXTENDED_COLUMNS``.
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
    no_parent = np.empty((0, 0), np.int64)  # (colour_runs: no path wanted)
    back = np.empty((n + 1, size), np.int64)
    gain = np.empty((k, m + 1), np.int64)
    move = np.empty((k, m + 1), np.int64)
    scratch = np.empty((9, k), np.int64)
    suffix = np.zeros(n + 2, np.int64)
    least = np.empty((n + 2, m + 1, size), np.int64)
    least_drops(tables, least)
    most = 0
    for state in range(size):
        most = max(most, tables[0][state + 1] - tables[0][state])
    deep = np.empty(((n + 1) * k + 1, k + 7 + 2 * most), np.int64)
    unpruned_reach = np.empty((k, n + 1), np.int64)
    unpruned_moves = np.empty((k, n + 1), np.int64)
    values = np.arange(1, n + 1)
    for p in range(count):
        tiles = 0
        points = 0
        for w in range(n):
            for c in range(k):
                x[w, c] = stack[p, w, c]
                tiles += x[w, c]
                points += (w + 1) * x[w, c]
        removed = remove_isolated(x, s)
        row_upper_bounds(x, gv, m, values, row_bound)
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
        unpruned = 0.0
        met = 0
        refuted = 0
        open_ = 0
        nodes = 0
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
                best, most = colour_runs(x, c, lo, hi, values, tables, reach[c], work, no_parent)
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
                unpruned += unpruned_transitions(x, lo, hi, tables, unpruned_reach, unpruned_moves)
                if seg_ascent == high or seg_greedy == high:
                    met += 1  # the cheap searches already met it
                else:
                    suffix[hi - lo + 1] = 0
                    suffix[hi - lo] = 0
                    for w in range(hi - 1, lo - 1, -1):
                        suffix[w - lo] = suffix[w - lo + 1] + row_bound[w]
                    outcome, tried = bound_search(
                        x, lo, hi, m, gv, tables, suffix, high, budget, least, deep
                    )
                    nodes += tried
                    met += outcome == 1
                    refuted += outcome == 0
                    open_ += outcome == -1
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
            greedy, ascent, round(unpruned), met, refuted, open_, nodes,
        )  # fmt: skip
        for j in range(len(row)):
            out[p, j] = row[j]
    return out
