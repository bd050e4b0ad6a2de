"""The dynamic program over values, and the whole-puzzle solving kernel.

The rows may come in any order of values (``values`` gives each row's); the solver
walks them downwards (see ``rumdiff.solve.solver._solve_kernel``). State after a row:
one run state per colour (see ``rumdiff.solve.runstates``), packed
as a mixed-radix code ``sum(state[c] * F**c)``. The transition at a row
factorises: each colour's slot update is its own max-plus pass over the live
states, and the group score depends only on the new joint state (the tiles left
for groups are the copies minus the slots in use), so it is added once at the end.

Live states are kept in compact lists; ``dense`` (size F**k, all -1 between calls)
maps a code to its position in the list being built, so merging costs O(1).
"""

import numpy as np
from numba import njit

from rumdiff.solve._moves import colour_moves, move_scratch, value_tables
from rumdiff.solve._prune import (
    compact,
    dominance_costs,
    keep_best,
    least_losses,
    pending_losses,
    thin,
)
from rumdiff.solve._tiles import (
    NOT_REACHED,
    OK,
    OVER_BUDGET,
    fill_report,
    joint_radix,
    prepare,
    segment_bounds,
)

#: A budget that never runs out (the runs-only bound keeps at most n * F states).
UNLIMITED = 1 << 62

# Counters and arguments that reach another kernel start as ``np.int64(0)``, not ``0``:
# numba compiles the callee for every argument type it meets while typing the caller,
# and a literal 0 (``Literal[int](0)``, also as an accumulator's first value or inside
# a tuple) costs a whole extra compile (and cache entry) that never runs.

#: Fewer live states are not worth a dominance check (its costs are computed per value).
DOMINANCE_LIVE = 16
#: Lists this long are thinned by dominance between colour passes as well.
CROWDED = 1 << 20


@njit(cache=True)
def _grow(array, size, most):
    """``array`` copied into a bigger one: room for ``size``, doubling, at most ``most``."""
    bigger = np.empty(max(min(2 * array.shape[0], most), size), array.dtype)
    for j in range(array.shape[0]):  # not a slice assignment: see _copy_rows
        bigger[j] = array[j]
    return bigger


@njit(cache=True)
def dp_core(x, values, m, radix, tables, dominance, gv, suffix, target, limits, dense, path):
    """Best score >= ``target`` of the rows ``x``, row i holding tiles of value
    ``values[i]`` (two more entries, any positive, stand for the rows after the last).

    ``tables`` holds the run-state tables ``(first, used, next_state, dropped1,
    dropped2, nonzero)`` of ``rumdiff.solve.runstates.RunStates``; ``dominance`` the
    tables of ``rumdiff.solve.runstates.dominance``; ``limits`` is
    ``(beam, max_states, max_live)``.

    ``suffix[i]`` bounds the points placeable at rows i and later; a state whose
    optimistic value, less the pending points it must lose, plus ``suffix[i + 1]``
    falls below ``target`` is dropped, and so is a state another one dominates. With
    ``beam > 0`` only the best ``beam`` states per value survive (a heuristic).
    On success ``path[i]`` is the joint state code after row i on a best path.

    Each live state carries its code (the index into ``dense``) and the same
    components packed 5 bits a colour, which are cheaper to read than to divide out.

    Returns ``(best, states, transitions, status)``.
    """
    first, nonzero = tables[0], tables[5]
    beam, max_states, max_live = limits
    rows, k = x.shape
    size = nonzero.shape[0]
    scratch = move_scratch(k, m, tables)
    move_delta, move_gain, move_end, left_index, least_loss = scratch[:5]
    after_index, after_tiles = scratch[5:7]
    left_count = np.empty((k, size), np.int64)
    ones, twos = dominance[4:]
    pending = np.empty((k, size), np.int64)
    dom_cost = np.empty(dominance[1].shape[0], np.int64)
    least_after = np.empty((k, size), np.int64)
    # Lists sized once: np.empty only reserves pages, and numba leaks arrays that are
    # regrown and swapped in a loop (4 GB instead of 0.3 GB on a dense G(5, 3, 100), seen
    # once in development).
    cap = min(size**k, dense.shape[0], max_live)
    code = np.empty(cap, np.int64)
    bits = np.empty(cap, np.int64)
    val = np.empty(cap, np.int64)
    org = np.empty(cap, np.int32)
    ncode = np.empty(cap, np.int64)
    nbits = np.empty(cap, np.int64)
    nval = np.empty(cap, np.int64)
    norg = np.empty(cap, np.int32)
    nhope = np.empty(cap, np.int64)
    lay_code = np.empty(1024, np.int64)
    lay_org = np.empty(1024, np.int32)
    lay_code[0] = 0
    lay_org[0] = -1
    stored = 1
    live = 1
    code[0] = 0
    bits[0] = 0
    val[0] = 0
    org[0] = 0
    states = 0
    transitions = 0
    for i in range(rows + 1):
        # The values of this row, the two before and the two after (rows beyond the
        # last have none of its tiles; ``values`` gives them a value all the same).
        v = values[i]
        prev = values[i - 1] if i >= 1 else 0
        prev2 = values[i - 2] if i >= 2 else 0
        lost1 = prev
        lost2 = prev + prev2
        threshold = target - suffix[i + 1]
        # Per colour and state: tiles left for groups (count and table index); per
        # colour: later colours' tiles. (The shared tables' least_loss is the reference
        # search's; the pending losses below are the stronger bound the DP prunes with.)
        value_tables(x, i, v, m, tables, left_index, least_loss, after_index, after_tiles)
        for c in range(k):
            xc = x[i, c] if i < rows else 0
            for cc in range(size):
                left_count[c, cc] = max(xc - nonzero[cc], 0)
        pending_losses(x, i, v, prev + v, ones, twos, pending)
        least_losses(x, i, lost1, lost2, tables, pending, least_after)
        for c in range(k):
            xc = x[i, c] if i < rows else 0
            colour_moves(xc, v, lost1, lost2, tables, move_delta, move_gain, move_end)
            shift = 5 * c
            power = radix[c]
            built = np.int64(0)  # not 0: see the note above
            for j in range(live):
                bj = bits[j]
                cc = (bj >> shift) & 31
                cj = code[j]
                vj = val[j]
                oj = org[j]
                # The most this state can still gain at this value, beyond colour c's
                # move: later colours place at most all their tiles, less what they
                # must drop; earlier colours' leftovers at most what groups can take.
                done_index = after_index[c]
                done_tiles = 0
                rest = v * after_tiles[c]
                for d in range(k):
                    cd = (bj >> (5 * d)) & 31
                    if d < c:
                        done_index += left_index[d, cd]
                        done_tiles += left_count[d, cd]
                        rest -= pending[d, cd]
                    elif d > c:
                        rest -= least_after[d, cd]
                transitions += move_end[cc] - first[cc]
                for e in range(first[cc], move_end[cc]):
                    delta = move_delta[e]
                    nc = cc + delta
                    nv = vj + move_gain[e]
                    groupable = min(
                        done_tiles + left_count[c, nc], gv[done_index + left_index[c, nc]]
                    )
                    hope = rest + v * groupable - pending[c, nc]
                    if nv + hope < threshold:
                        continue
                    t = cj + delta * power
                    pos = dense[t]
                    if pos < 0:
                        if built == cap:
                            for d in range(built):
                                dense[ncode[d]] = -1
                            return 0, states, transitions, OVER_BUDGET
                        dense[t] = built
                        ncode[built] = t
                        nbits[built] = bj + (delta << shift)
                        nval[built] = nv
                        norg[built] = oj
                        nhope[built] = hope
                        built += 1
                    elif nv > nval[pos]:
                        nval[pos] = nv
                        norg[pos] = oj
            if built >= CROWDED and c + 1 < k:
                # A crowded list is thinned between colour passes too, among states that
                # put as many tiles in runs at this value (so their groups are equal).
                dominance_costs(dominance, prev, v, values[i + 1], values[i + 2], dom_cost)
                lists = (ncode, nbits, nval, norg)
                built = thin(
                    built, c + 1, np.bool_(True), radix, dominance, dom_cost, nonzero, dense, lists
                )
            else:
                for j in range(built):
                    dense[ncode[j]] = -1
            if beam > 0 and built > beam:
                # The beam also trims between colour passes, by value plus what the
                # state may still gain at this value, so its lists stay small.
                for j in range(built):
                    nhope[j] += nval[j]
                built = keep_best(built, beam, nhope, ncode, nbits, nval, norg)
            code, ncode = ncode, code
            bits, nbits = nbits, bits
            val, nval = nval, val
            org, norg = norg, org
            live = built
        # Groups from the tiles the new states leave over.
        kept = np.int64(0)
        for j in range(live):
            bj = bits[j]
            index = 0
            loss = 0
            for c in range(k):
                cc = (bj >> (5 * c)) & 31
                index += left_index[c, cc]
                loss += pending[c, cc]
            nv = val[j] + v * gv[index]
            if nv - loss >= threshold:
                compact(j, kept, code, bits, val, org)
                val[kept] = nv
                kept += 1
        live = kept
        if live >= DOMINANCE_LIVE and k > 1:
            dominance_costs(dominance, prev, v, values[i + 1], values[i + 2], dom_cost)
            for j in range(live):
                dense[code[j]] = j
            lists = (code, bits, val, org)
            live = thin(live, k, np.bool_(False), radix, dominance, dom_cost, nonzero, dense, lists)
        if beam > 0 and live > beam:
            live = keep_best(live, beam, val, code, bits, val, org)
        if live == 0:
            return 0, states, transitions, NOT_REACHED
        states += live
        if stored + live > lay_code.shape[0]:
            # Capped, so a pass's memory is bounded by its budget (README, "Solving").
            lay_code = _grow(lay_code, stored + live, max_states + cap)
            lay_org = _grow(lay_org, stored + live, max_states + cap)
        for j in range(live):
            lay_code[stored + j] = code[j]
            lay_org[stored + j] = org[j]
            org[j] = stored + j
        stored += live
        if stored > max_states:
            return 0, states, transitions, OVER_BUDGET
    # After the closing empty row every run has ended: one state, code 0, is left.
    position = lay_org[stored - 1]
    for i in range(rows - 1, -1, -1):
        path[i] = lay_code[position]
        position = lay_org[position]
    return val[0], states, transitions, OK


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
    zero = np.int64(0)  # not a literal 0: see the note at the top
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
