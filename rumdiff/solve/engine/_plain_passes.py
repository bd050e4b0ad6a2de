"""The whole-puzzle solving kernel: isolated tiles, segments, bounds and the DP passes.

Called by ``rumdiff.solve.solver.solve``; the passes are ``rumdiff.solve.engine._plain.plain_pass``.
"""

import numpy as np
from numba import njit

from rumdiff import config
from rumdiff.solve._tiles import (
    colour_runs,
    fill_report,
    prepare,
    runs_only_path,
    runs_path_of_counts,
    segment_bounds,
)
from rumdiff.solve.engine._loop import NOT_REACHED, OK, OVER_BUDGET
from rumdiff.solve.engine._plain import plain_pass

# The sharpening of the tails' bounds (:func:`_tail_bounds`) follows config.TAIL_STATES,
# TAIL_STEP, TAIL_BLOCKS and TAIL_BUDGET, read when the kernel compiles.
TAIL_STATES = config.TAIL_STATES
TAIL_STEP = config.TAIL_STEP
TAIL_BLOCKS = config.TAIL_BLOCKS
TAIL_BUDGET = config.TAIL_BUDGET
# So does the narrow beam's width (``beam // NARROW``; :func:`solve_kernel`).
NARROW = config.NARROW_BEAM_DIVISOR


#: The kinds of pass a trace records (``solve_kernel``): the narrow beam aimed at the
#: upper bound, the beam for a lower bound, the wide beam walking the values upwards
#: (aimed at the upper bound), a tail's beam and exact passes, the exact pass aimed at
#: the lower bound + 1, the narrow beam walking the values upwards, and the exact pass
#: aimed at the lower bound + 1 walking the values upwards.
NARROW_BEAM, BEAM, BEAM_UP, TAIL_BEAM, TAIL_EXACT, EXACT_LOWER, NARROW_UP, EXACT_UP = range(8)
#: The exact pass walks the values upwards when, walked that way, it reaches the highest
#: row where the beam's arrangement loses points in under this share of the rows it needs
#: walked downwards to reach the lowest (:func:`_proves_upwards`).
UPWARDS_SHARE = config.UPWARDS_PROOF_SHARE


@njit(cache=True, inline="always")
def _record(trace, traced, segment, kind, aim, best, states, transitions, status, cut):
    """Add a pass to the trace (a row of ``trace``, ``traced[0]`` of them so far), if the
    caller keeps one."""
    at = traced[0]
    if at < trace.shape[0]:
        trace[at, 0] = segment
        trace[at, 1] = kind
        trace[at, 2] = aim
        trace[at, 3] = best
        trace[at, 4] = states
        trace[at, 5] = transitions
        trace[at, 6] = status
        trace[at, 7] = cut
        traced[0] = at + 1


@njit(cache=True, inline="always")
def _copy_rows(out, lo, rows):
    """``out[lo : lo + len(rows)] = rows`` (1-d), by a loop: numba compiles a slice assignment
    from an array with a shape-mismatch error message (string formatting, 1-2 s)."""
    for i in range(rows.shape[0]):
        out[lo + i] = rows[i]


@njit(cache=True, inline="always")
def _pass(x, worth, suffix, rules, aim, limits, entry, trial, scores, log, kind, work):
    """One :func:`plain_pass` over the rows ``x`` (``worth`` their values, ``suffix`` their
    bounds) aimed at ``aim``, from run state ``entry``: ``(best, states, status, cut)``,
    ``cut`` whether its beam dropped a state (one that dropped none was exact).

    ``rules`` is ``(m, tables, dominance, gv)``; the pass goes to the trace (``log``:
    ``(trace, traced, segment)``, :func:`_record`) as ``kind``, and its states and
    transitions are added to ``work[0]`` and ``work[1]``."""
    m, tables, dominance, gv = rules
    best, kept, spent, result, cut = plain_pass(
        x, worth, m, tables, dominance, gv, suffix, aim, limits, entry, trial, scores
    )
    trace, traced, segment = log
    _record(trace, traced, segment, kind, aim, best, kept, spent, result, cut)
    work[0] += kept
    work[1] += spent
    return best, kept, result, cut


@njit(cache=True, inline="always")
def _upwards(x, worth, row_bound, rules, aim, limits, log, kind, work, runs, path):
    """One :func:`_pass` over the rows ``x`` walked the other way, upwards in value, aimed
    at ``aim``: ``(best, status, cut)``. When it reached the aim, ``path`` receives an
    arrangement that places at least as much, as a path of this order
    (:func:`runs_path_of_counts` over the tiles the pass's path puts in runs at each row;
    the groups take the rest).

    ``row_bound`` are the rows' bounds (their sums, taken upwards, are the pass's
    suffix bounds); ``runs`` is ``(reach, scratch, parent)`` of :func:`colour_runs`.
    A beam walked the other way makes other choices, and reaches the bound in many
    segments where the beams walked downwards miss it (docs/decisions/limits.md, "The
    beams walk upwards too"); an exact pass walked this way meets sooner the losses that
    lie near the low values (:func:`_proves_upwards`).
    """
    rows, k = x.shape
    tables = rules[1]
    backwards = np.empty_like(x)
    weights = np.empty(rows + 3, np.int64)
    suffix = np.zeros(rows + 2, np.int64)
    for i in range(rows):
        backwards[i] = x[rows - 1 - i]
        weights[i] = worth[rows - 1 - i]
    for e in range(3):  # (any positive value stands for the rows beyond)
        weights[rows + e] = worth[0] + 1 + e
    for i in range(rows - 1, -1, -1):
        suffix[i] = suffix[i + 1] + row_bound[rows - 1 - i]
    trial = np.empty(rows, np.int64)
    scores = np.empty(rows, np.int64)
    zero = np.int64(0)
    best, _, result, cut = _pass(
        backwards, weights, suffix, rules, aim, limits, zero, trial, scores, log, kind, work
    )  # fmt: skip
    if result != OK:
        return best, result, cut
    # The tiles each row puts in runs, in this order; the runs that place them, traced
    # in this order; the groups take what they leave, as in the pass.
    nonzero = tables[5]
    counts = np.empty_like(x)
    for i in range(rows):
        for c in range(k):
            counts[rows - 1 - i, c] = nonzero[(trial[i] >> (5 * c)) & 31]
    reach, scratch, parent = runs
    runs_path_of_counts(counts, worth, tables, reach, scratch, parent, path)
    return best, result, cut


@njit(cache=True, inline="always")
def _proves_upwards(row_bound, scores, best):
    """Whether the exact pass should walk the values upwards, judged by where the beam's
    arrangement (``best`` points; its DP value after each row, ``scores``) loses points
    against the rows' bounds ``row_bound``.

    A pass aimed one above that arrangement drops a state once it has lost as much as the
    arrangement does in all; until it has walked past the rows where those losses lie,
    every state that has lost less lives. So the pass walks upwards when, walked that
    way, it reaches the highest row with a loss in under ``UPWARDS_SHARE`` of the rows it
    needs walked downwards to reach the lowest one (docs/decisions/limits.md, "The exact
    pass walks the shorter way"). A DP value counts the runs still open in full, so a
    loss that shows after no row is in runs the last rows leave short: the lowest values.
    """
    rows = row_bound.shape[0]
    loss = np.empty(rows, np.int64)
    bounds = 0
    for i in range(rows):
        bounds += row_bound[i]
        loss[i] = bounds - scores[i]
    total = bounds - best
    down = 0  # rows walked downwards until the whole loss (the closing row: rows)
    while down < rows and loss[down] < total:
        down += 1
    up = 0  # rows walked upwards until the highest row with a loss (none: 0)
    for i in range(rows):
        if loss[i] > 0:
            up = rows - i
            break
    return up < UPWARDS_SHARE * (down + 1)


@njit(cache=True, inline="always")
def _tail_bounds(x, worth, rules, suffix, beam, exact, lower, work, log):
    """Sharper suffix bounds for a segment: the best score of tails below checkpoints,
    with runs entering them free.

    Below a checkpoint row r, every slot of every colour enters the tail as a run of
    length >= 3, which may continue or end at no cost; so the tail's best score bounds
    what any arrangement of the segment places in rows r and later, and ``suffix[i]``
    (the row bounds of rows i and later) may drop to the row bounds of rows i .. r - 1
    plus that score. Tails are solved from the bottom up, each pruned with the bounds of
    the shorter tails below it. ``lower[r]`` is a lower bound on the tail's best (the
    beam's arrangement of the segment places that much there); a beam pass on the tail
    may raise it (or, if it never filled, find the tail's best), and an exact pass aimed
    one above either finds the tail's best or proves the lower bound is it.

    ``beam`` and ``exact`` are the passes' limits; an exact pass over its budget ends the
    sharpening, and what it sharpened so far stays valid. ``rules`` and ``log`` are
    :func:`_pass`'s. Returns the sharpened copy of ``suffix``; adds states, transitions
    and exact passes to ``work``, and the passes to the trace.
    """
    rows = x.shape[0]
    free = np.int64(rules[1][5].shape[0] - 1)  # every slot at length >= 3 (runstates)
    sharp = suffix.copy()
    path = np.empty(rows, np.int64)
    scores = np.empty(rows, np.int64)
    step = max(TAIL_STEP, rows // TAIL_BLOCKS)
    for r in range(rows - step, 0, -step):
        tail = x[r:]
        least = lower[r]
        best, _, result, cut = _pass(
            tail, worth[r:], sharp[r:], rules, least, beam, free, path, scores, log, TAIL_BEAM,
            work,
        )  # fmt: skip
        if result == OK:
            least = max(least, best)
        most = sharp[r]
        if result == OK and not cut:
            most = least  # (the beam never filled: it was exact, and found the tail's best)
        elif least < most:
            best, _, result, _ = _pass(
                tail, worth[r:], sharp[r:], rules, least + 1, exact, free, path, scores, log,
                TAIL_EXACT, work,
            )  # fmt: skip
            work[2] += 1
            if result == OVER_BUDGET:
                break
            most = best if result == OK else least
        for i in range(r + 1):
            sharp[i] = min(sharp[i], suffix[i] - suffix[r] + most)
    return sharp


@njit(cache=True)
def solve_kernel(
    reduced,
    values,
    m,
    s,
    tables,
    dominance,
    gv,
    beam,
    max_states,
    max_live,
    path,
    report,
    trace,
):
    """Solve one puzzle exactly.

    Removes isolated copies from ``reduced`` (in place), splits the puzzle into independent
    segments and solves each: by bounds when max(runs only, groups only) meets
    min(runs only + groups only, row bounds); otherwise, unless a beam aimed at the
    upper bound reaches it (a narrow one walking the values downwards, then upwards,
    then one as wide as the next walking upwards: :func:`_upwards`), by a beam search
    for a good lower bound, then the exact DP pruned against it, aimed at the
    lower bound + 1 (on large joint state spaces with sharper bounds on the segment's
    tails, see :func:`_tail_bounds`; elsewhere walking the values upwards when that
    reaches the beam's losses sooner, see :func:`_proves_upwards`). A beam that never
    filled was exact: aimed at the upper bound and reaching nothing, it proves the bound
    out of reach, and the beam for a lower bound that never filled settles the segment.
    Row w of ``reduced``
    holds tiles of value ``values[w]`` (``values`` has 3 more entries, any positive, for
    the rows beyond), so the rows may come in either order. ``path[w]`` receives the
    state code after row w of the solution (5 bits a colour).

    ``report`` receives: score, removed copies, lower bound, upper bound, DP states,
    DP transitions, segments, segments needing the DP, status, exact passes, passes
    traced. ``trace`` (passes by ``(segment, kind, aim, best, states, transitions, status,
    cut)``, or no rows) receives the passes, in order, as far as it has room
    (:func:`_record`).
    """
    k = reduced.shape[1]
    size = tables[5].shape[0]
    removed, row_bound, bounds, count = prepare(reduced, m, s, gv, values)
    path[:] = 0
    score = np.int64(0)
    lower = 0
    upper = 0
    hard = 0
    status = OK
    zero = np.int64(0)  # not a literal 0: see the note at the top of _plain
    exact = (zero, max_states, max_live)
    wide = (beam, max_states, max_live)  # the beam for a lower bound, and the upward one
    rules = (m, tables, dominance, gv)
    work = np.zeros(3, np.int64)  # states, transitions, exact passes: every pass's
    traced = np.zeros(1, np.int64)
    reach = np.empty(reduced.shape[0], np.int64)
    scratch = np.empty((4, size), np.int64)
    # What each colour's runs-only DP kept (colour_runs): the segment's arrangement when
    # runs alone are the answer (runs_only_path).
    parent = np.empty((k, reduced.shape[0] + 1, size), np.int64)
    traceback = (reach, scratch, parent)  # what _upwards' conversion works in
    for segment in range(count):
        lo = bounds[segment, 0]
        hi = bounds[segment, 1]
        rows = hi - lo
        x = reduced[lo:hi]
        worth = values[lo : hi + 3]
        runs_only = zero
        for c in range(k):
            points, _ = colour_runs(reduced, c, lo, hi, values, tables, reach, scratch, parent[c])
            runs_only += points
        groups_only, suffix, low, high = segment_bounds(
            x, worth, m, gv, row_bound[lo:hi], runs_only
        )
        lower += low
        upper += high
        # The segment's arrangement: groups only (no runs: path 0), or runs only, traced
        # when no pass finds a better one (it is then the answer).
        runs = runs_only >= groups_only
        if low == high:
            score += low
            if runs:
                runs_only_path(parent, rows, path[lo:hi])
            continue
        hard += 1
        trial = np.empty(rows, np.int64)
        scores = np.empty(rows, np.int64)
        log = (trace, traced, segment)
        if beam > 0:
            # Most dense segments score their upper bound: a narrow beam aimed at it keeps
            # only states that lose nothing, and when it reaches the bound no other pass
            # is needed (config.NARROW_BEAM_DIVISOR).
            narrow = (max(beam // NARROW, np.int64(1)), max_states, max_live)
            best, _, result, cut = _pass(
                x, worth, suffix, rules, high, narrow, zero, trial, scores, log, NARROW_BEAM,
                work,
            )  # fmt: skip
            if result == OVER_BUDGET:
                status = OVER_BUDGET
                break
            if result == OK:
                score += best
                _copy_rows(path, lo, trial)
                continue
            if not cut:
                # The beam never filled, so it was exact: no arrangement reaches the
                # bound, and no other beam need aim at it.
                high -= 1
            # Walking the values upwards, a beam makes other choices (_upwards): the narrow
            # beam again, then one as wide as the beam that finds a lower bound; both aimed
            # at the upper bound, so they keep only states that lose nothing. Where the
            # beams miss a lossless arrangement, the exact pass may have to list millions
            # of states to find one (13 s instead of 0.06 s on one of 1,000 simplex
            # G(6, 3, 200) puzzles, when that pass was aimed at the upper bound).
            for limits, kind in ((narrow, NARROW_UP), (wide, BEAM_UP)):
                if not cut or (kind == BEAM_UP and limits[0] == narrow[0]):
                    break  # (proved out of reach, or a beam of one state: the narrow again)
                _, result, cut = _upwards(
                    x, worth, row_bound[lo:hi], rules, high, limits, log, kind, work,
                    traceback, path[lo:hi],
                )  # fmt: skip
                if result != NOT_REACHED:
                    break
                if not cut:
                    high -= 1
            if result == OVER_BUDGET:
                status = OVER_BUDGET
                break
            if result == OK:
                score += high
                continue
        best, kept, result, cut = _pass(
            x, worth, suffix, rules, low, wide, zero, trial, scores, log, BEAM, work
        )
        if result == OVER_BUDGET:
            status = OVER_BUDGET
            break
        if result == OK and best > low:
            low = best
            runs = False
            _copy_rows(path, lo, trial)
        if not cut:
            high = low  # without a beam, or one that never filled, that pass was exact
        sharpen = result == OK and size**k >= TAIL_STATES
        tail_pass = (zero, min(max_states, TAIL_BUDGET * kept), max_live)
        lower_tail = np.zeros(rows, np.int64)
        if sharpen:
            # The beam's arrangement places best - scores[r - 1] in rows r and later.
            for r in range(1, rows):
                lower_tail[r] = best - scores[r - 1]
        # The exact pass aimed at the lower bound + 1 (after sharper bounds from the tails)
        # settles it: it finds the best arrangement above the lower bound, or proves there
        # is none. (An exact pass aimed at the upper bound before it, which prunes harder,
        # paid while the beam of 64 came first; since the narrow beam finds most segments
        # that score their bound, it cost more than it saved: config.NARROW_BEAM_DIVISOR.)
        if high > low and sharpen:
            suffix = _tail_bounds(x, worth, rules, suffix, wide, tail_pass, lower_tail, work, log)
            high = min(high, suffix[0])
        if high > low:
            # Walked the shorter way to where the beam's arrangement loses its points
            # (judged by the beam's path; the tails' bounds hold walking downwards only).
            upwards = (
                result == OK and not sharpen and _proves_upwards(row_bound[lo:hi], scores, best)
            )
            if upwards:
                best, result, _ = _upwards(
                    x, worth, row_bound[lo:hi], rules, low + 1, exact, log, EXACT_UP, work,
                    traceback, path[lo:hi],
                )  # fmt: skip
            else:
                best, _, result, _ = _pass(
                    x, worth, suffix, rules, low + 1, exact, zero, trial, scores, log,
                    EXACT_LOWER, work,
                )  # fmt: skip
            work[2] += 1
            if result == OVER_BUDGET:
                status = OVER_BUDGET
                break
            if result == OK:
                low = best
                runs = False
                if not upwards:
                    _copy_rows(path, lo, trial)
        if runs:
            runs_only_path(parent, rows, path[lo:hi])
        score += low
    fill_report(
        report,
        (score, removed, lower, upper, work[0], work[1], count, hard, status, work[2], traced[0]),
    )
