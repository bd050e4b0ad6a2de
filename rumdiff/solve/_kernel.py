"""The whole-puzzle solving kernel: isolated tiles, segments, bounds and the DP passes.

Called by ``rumdiff.solve.solver.solve``; the passes are ``rumdiff.solve._dp.dp_core``.
"""

import numpy as np
from numba import njit

from rumdiff.solve._dp import dp_core
from rumdiff.solve._tiles import OK, OVER_BUDGET, fill_report, joint_radix, prepare, segment_bounds

#: A budget that never runs out (the runs-only bound keeps at most n * F states).
UNLIMITED = 1 << 62


@njit(cache=True, inline="always")
def _copy_rows(out, lo, rows):
    """``out[lo : lo + len(rows)] = rows`` (1-d), by a loop: numba compiles a slice assignment
    from an array with a shape-mismatch error message (string formatting, 1-2 s)."""
    for i in range(rows.shape[0]):
        out[lo + i] = rows[i]


@njit(cache=True, inline="always")  # no library of its own, which would recompile dp_core
def _runs_only(x, values, m, tables, dominance, gv_none, dense, radix, runs_path):
    """Exact runs-only optimum of the rows ``x``, one colour at a time.

    ``gv_none`` is a group-value table of zeros; ``runs_path`` (zeros on entry) receives
    the joint run-state codes of a best path.
    """
    rows, k = x.shape
    one = np.ones(1, np.int64)
    suffix = np.zeros(rows + 2, np.int64)
    path = np.empty(rows, np.int64)
    zero = np.int64(0)  # not a literal 0: see the note at the top of _dp
    total = zero
    limits = (zero, np.int64(UNLIMITED), np.int64(UNLIMITED))  # no beam, no budget
    for c in range(k):
        column = np.empty((rows, 1), np.int64)
        for i in range(rows):
            column[i, 0] = x[i, c]
        best, _, _, _ = dp_core(
            column, values, m, one, tables, dominance, gv_none, suffix, zero, limits, dense, path
        )
        total += best
        for i in range(rows):
            runs_path[i] += path[i] * radix[c]
    return total


@njit(cache=True)
def solve_kernel(
    reduced,
    values,
    m,
    s,
    tables,
    dominance,
    gv,
    gv_none,
    beam,
    dense,
    max_states,
    max_live,
    path,
    report,
):
    """Solve one puzzle exactly.

    Removes isolated copies from ``reduced`` (in place), splits the puzzle into independent
    segments and solves each: by bounds when max(runs only, groups only) meets
    min(runs only + groups only, row bounds); otherwise by a beam search for a good
    lower bound, then the exact DP pruned against it. Row w of ``reduced`` holds tiles
    of value ``values[w]`` (``values`` has 3 more entries, any positive, for the rows
    beyond), so the rows may come in either order. ``path[w]`` receives the joint
    run-state code after row w of the solution.

    ``report`` receives: score, removed copies, lower bound, upper bound, DP states,
    DP transitions, segments, segments needing the DP, status, exact passes.
    """
    k = reduced.shape[1]
    size = tables[5].shape[0]
    radix = joint_radix(k, size)
    removed, row_bound, bounds, count = prepare(reduced, m, s, gv, values)
    path[:] = 0
    score = np.int64(0)
    lower = 0
    upper = 0
    states = 0
    transitions = 0
    hard = 0
    passes = 0
    status = OK
    exact = (np.int64(0), max_states, max_live)
    for segment in range(count):
        lo = bounds[segment, 0]
        hi = bounds[segment, 1]
        rows = hi - lo
        x = reduced[lo:hi]
        runs_path = np.zeros(rows, np.int64)
        worth = values[lo : hi + 3]
        runs_only = _runs_only(x, worth, m, tables, dominance, gv_none, dense, radix, runs_path)
        groups_only, suffix, low, high = segment_bounds(
            x, worth, m, gv, row_bound[lo:hi], runs_only
        )
        lower += low
        upper += high
        if runs_only >= groups_only:
            _copy_rows(path, lo, runs_path)
        if low == high:
            score += low
            continue
        hard += 1
        trial = np.empty(rows, np.int64)
        first_pass = (beam, max_states, max_live)
        best, kept, work, result = dp_core(
            x, worth, m, radix, tables, dominance, gv, suffix, low, first_pass, dense, trial
        )
        states += kept
        transitions += work
        if result == OVER_BUDGET:
            status = OVER_BUDGET
            break
        if result == OK and best > low:
            low = best
            _copy_rows(path, lo, trial)
        # Most dense segments score their upper bound, and a pass aimed at it prunes
        # hardest; only if it fails, search everything that beats the lower bound.
        for aim in (high, low + 1):
            if aim <= low:
                break
            best, kept, work, result = dp_core(
                x, worth, m, radix, tables, dominance, gv, suffix, aim, exact, dense, trial
            )
            passes += 1
            states += kept
            transitions += work
            if result == OVER_BUDGET:
                status = OVER_BUDGET
                break
            if result == OK:
                low = best
                _copy_rows(path, lo, trial)
                break
        if status == OVER_BUDGET:
            break
        score += low
    fill_report(
        report, (score, removed, lower, upper, states, transitions, count, hard, status, passes)
    )
