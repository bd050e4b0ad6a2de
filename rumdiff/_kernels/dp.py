"""The dynamic program over values, and the whole-puzzle solving kernel.

State after value v: one run state per colour (see ``rumdiff.runstates``), packed
as a mixed-radix code ``sum(state[c] * F**c)``. The transition at value v
factorises: each colour's slot update is its own max-plus pass over the live
states, and the group score depends only on the new joint state (the tiles left
for groups are the copies minus the slots in use), so it is added once at the end.

Live states are kept in compact lists; ``dense`` (size F**k, all -1 between calls)
maps a code to its position in the list being built, so merging costs O(1).
"""

import numpy as np
from numba import njit

from rumdiff._kernels.tiles import (
    group_index,
    remove_isolated,
    row_upper_bounds,
    segments,
)

OK = 0
#: No state reached the target score.
NOT_REACHED = 1
#: The state budget ran out.
OVER_BUDGET = 2


@njit(cache=True)
def _grow(array, size):
    bigger = np.empty(max(2 * array.shape[0], size), array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def _grow2(array, size):
    bigger = np.empty((max(2 * array.shape[0], size), array.shape[1]), array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def dp_core(
    x,
    first_value,
    m,
    radix,
    first,
    used,
    next_state,
    dropped1,
    dropped2,
    nonzero,
    gv,
    suffix,
    target,
    beam,
    dense,
    max_states,
    path,
):
    """Best score >= ``target`` of the rows ``x`` (values ``first_value`` on).

    ``suffix[i]`` bounds the points placeable at rows i and later; a state whose
    optimistic value plus ``suffix[i + 1]`` falls below ``target`` is dropped. With
    ``beam > 0`` only the best ``beam`` states per value survive (a heuristic).
    On success ``path[i]`` is the joint state code after row i on a best path.

    Returns ``(best, states, transitions, status)``.
    """
    rows, k = x.shape
    cap = 256
    code = np.empty(cap, np.int64)
    val = np.empty(cap, np.int64)
    org = np.empty(cap, np.int64)
    comp = np.empty((cap, k), np.int64)
    ncode = np.empty(cap, np.int64)
    nval = np.empty(cap, np.int64)
    norg = np.empty(cap, np.int64)
    ncomp = np.empty((cap, k), np.int64)
    lay_code = np.empty(1024, np.int64)
    lay_org = np.empty(1024, np.int64)
    lay_code[0] = 0
    lay_org[0] = -1
    stored = 1
    live = 1
    code[0] = 0
    val[0] = 0
    org[0] = 0
    comp[0, :] = 0
    states = 0
    transitions = 0
    for i in range(rows + 1):
        v = first_value + i
        for c in range(k):
            xc = x[i, c] if i < rows else 0
            umax = min(xc, m)
            power = radix[c]
            built = 0
            for j in range(live):
                cc = comp[j, c]
                base = code[j] - cc * power
                vj = val[j]
                for move in range(first[cc], first[cc + 1]):
                    u = used[move]
                    if u > umax:
                        break
                    nc = next_state[move]
                    nv = vj + u * v - dropped1[move] * (v - 1) - dropped2[move] * (2 * v - 3)
                    target_code = base + nc * power
                    transitions += 1
                    pos = dense[target_code]
                    if pos < 0:
                        if built == ncode.shape[0]:
                            ncode = _grow(ncode, built + 1)
                            nval = _grow(nval, built + 1)
                            norg = _grow(norg, built + 1)
                            ncomp = _grow2(ncomp, built + 1)
                        dense[target_code] = built
                        ncode[built] = target_code
                        nval[built] = nv
                        norg[built] = org[j]
                        for d in range(k):
                            ncomp[built, d] = comp[j, d]
                        ncomp[built, c] = nc
                        built += 1
                    elif nv > nval[pos]:
                        nval[pos] = nv
                        norg[pos] = org[j]
            for j in range(built):
                dense[ncode[j]] = -1
            code, ncode = ncode, code
            val, nval = nval, val
            org, norg = norg, org
            comp, ncomp = ncomp, comp
            live = built
        # Groups from the tiles the new states leave over, then bound pruning.
        threshold = target - suffix[i + 1]
        kept = 0
        for j in range(live):
            nv = val[j]
            if i < rows:
                index = 0
                power = 1
                for c in range(k):
                    index += (x[i, c] - nonzero[comp[j, c]]) * power
                    power *= m + 1
                nv += v * gv[index]
            if nv >= threshold:
                code[kept] = code[j]
                val[kept] = nv
                org[kept] = org[j]
                for d in range(k):
                    comp[kept, d] = comp[j, d]
                kept += 1
        live = kept
        if beam > 0 and live > beam:
            cut = np.partition(val[:live].copy(), live - beam)[live - beam]
            ties = beam
            for j in range(live):
                if val[j] > cut:
                    ties -= 1
            kept = 0
            for j in range(live):
                if val[j] > cut or (val[j] == cut and ties > 0):
                    if val[j] == cut:
                        ties -= 1
                    code[kept] = code[j]
                    val[kept] = val[j]
                    org[kept] = org[j]
                    for d in range(k):
                        comp[kept, d] = comp[j, d]
                    kept += 1
            live = kept
        if live == 0:
            return 0, states, transitions, NOT_REACHED
        states += live
        if stored + live > lay_code.shape[0]:
            lay_code = _grow(lay_code, stored + live)
            lay_org = _grow(lay_org, stored + live)
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


@njit(cache=True)
def solve_kernel(
    copies,
    m,
    s,
    first,
    used,
    next_state,
    dropped1,
    dropped2,
    nonzero,
    gv,
    gv_none,
    beam,
    dense,
    max_states,
    reduced,
    path,
    report,
):
    """Solve one puzzle exactly.

    Removes isolated copies (into ``reduced``), splits the puzzle into independent
    segments and solves each: by bounds when max(runs only, groups only) meets
    min(runs only + groups only, row bounds); otherwise by a beam search for a good
    lower bound, then the exact DP pruned against it. ``path[w]`` receives the joint
    run-state code after value w + 1 of the solution.

    ``report`` receives: score, removed copies, lower bound, upper bound, DP states,
    DP transitions, segments, segments needing the DP, status.
    """
    n, k = copies.shape
    size = nonzero.shape[0]
    radix = np.empty(k, np.int64)
    radix[0] = 1
    for c in range(1, k):
        radix[c] = radix[c - 1] * size
    one = np.ones(1, np.int64)
    reduced[:, :] = copies
    removed = remove_isolated(reduced, s)
    row_bound = np.empty(n, np.int64)
    row_upper_bounds(reduced, gv, m, row_bound)
    bounds = np.empty((n, 2), np.int64)
    count = segments(reduced, bounds)
    path[:] = 0
    score = 0
    lower = 0
    upper = 0
    states = 0
    transitions = 0
    hard = 0
    status = OK
    for segment in range(count):
        lo = bounds[segment, 0]
        hi = bounds[segment, 1]
        rows = hi - lo
        x = reduced[lo:hi]
        groups_only = 0
        for i in range(rows):
            groups_only += (lo + i + 1) * gv[group_index(x[i], m + 1)]
        no_suffix = np.zeros(rows + 2, np.int64)
        colour_path = np.empty(rows, np.int64)
        runs_path = np.zeros(rows, np.int64)
        runs_only = 0
        for c in range(k):
            best, _, _, _ = dp_core(
                x[:, c : c + 1], lo + 1, m, one, first, used, next_state, dropped1, dropped2, nonzero,
                gv_none, no_suffix, 0, 0, dense, max_states, colour_path,
            )  # fmt: skip
            runs_only += best
            for i in range(rows):
                runs_path[i] += colour_path[i] * radix[c]
        suffix = np.zeros(rows + 2, np.int64)
        for i in range(rows - 1, -1, -1):
            suffix[i] = suffix[i + 1] + row_bound[lo + i]
        low = max(runs_only, groups_only)
        high = min(runs_only + groups_only, suffix[0])
        lower += low
        upper += high
        if runs_only >= groups_only:
            path[lo:hi] = runs_path
        if low == high:
            score += low
            continue
        hard += 1
        trial = np.empty(rows, np.int64)
        best, kept, work, result = dp_core(
            x, lo + 1, m, radix, first, used, next_state, dropped1, dropped2, nonzero,
            gv, suffix, low, beam, dense, max_states, trial,
        )  # fmt: skip
        states += kept
        transitions += work
        if result == OK and best > low:
            low = best
            path[lo:hi] = trial
        if low < high:
            best, kept, work, result = dp_core(
                x, lo + 1, m, radix, first, used, next_state, dropped1, dropped2, nonzero,
                gv, suffix, low + 1, 0, dense, max_states, trial,
            )  # fmt: skip
            states += kept
            transitions += work
            if result == OVER_BUDGET:
                status = OVER_BUDGET
                break
            if result == OK:
                low = best
                path[lo:hi] = trial
        score += low
    report[0] = score
    report[1] = removed
    report[2] = lower
    report[3] = upper
    report[4] = states
    report[5] = transitions
    report[6] = count
    report[7] = hard
    report[8] = status
