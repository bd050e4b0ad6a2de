"""The reference search: the exact DP whose work defines a puzzle's search effort.

Its definition is fixed (docs/search-effort.md): the thesis's preprocessing (removal of
isolated copies, splitting, bounds; ``_tiles``), then per segment that bounds do not
settle the 2015 paper's DP over values with per-colour run slots, pruned only against
the lower bound known before it starts: one exact pass aimed at that bound, then, when
the optimum lies below the upper bound, a pass aimed at the upper bound and one at the
optimum plus one, which prove it. It counts exactly what rumdiff's solver counted with
``beam_width=0`` in rumdiff 0.1.0 (tests/data/search_work.csv.gz).

A pass visits the live joint states value by value; at each value one max-plus step per
colour, then the group score of the tiles left over. A state, also between colour
steps, is dropped when its value plus what it may still gain falls below the target less
the per-value bounds of the later values: later colours place at most their tiles less
what their moves must drop, and the leftovers of the colours done at most what groups
can take (``_moves.hope_by_group``). The count is the moves tried from live states, so it does not
depend on how the states are stored; two layouts give it, whichever is faster:

- :func:`_dense_pass` keeps a value for every joint state and steps a colour for whole
  rows of states at once (vectorised); best when many joint states are reachable;
- :func:`_sparse_pass` keeps a list of the live states; best when few are.
"""

import numpy as np
from numba import njit

from rumdiff.solve._moves import colour_moves, hope_by_group, move_scratch, value_tables
from rumdiff.solve._tiles import (
    NOT_REACHED,
    OK,
    OVER_BUDGET,
    colour_runs,
    fill_report,
    joint_radix,
    prepare,
    segment_bounds,
)

#: A value below every reachable one: no state lives there.
UNSET = -(1 << 62)
#: Joint state spaces up to this size may use the dense layout (about 64 bytes each).
DENSE_MAX_SIZE = 1 << 20
#: The dense layout is used when, on average over the segment's values, at least this
#: share of the joint states is reachable (the product of each colour's reachable run
#: states): below it, most of its work would be on states that do not live.
DENSE_MIN_SHARE = 0.1
#: ``layout`` of :func:`search_kernel`: chosen per segment, or always one of the two.
AUTO, DENSE, SPARSE = 0, 1, 2


@njit(cache=True)
def _sparse_pass(x, first_value, m, radix, tables, gv, suffix, target, dense, budget):
    """Best score >= ``target`` of the rows ``x`` (values ``first_value`` on), exactly, over
    a list of the live states. Returns ``(best, states, transitions, status)``.

    Each live state is a row of ``st``: its code ``sum(state[c] * radix[c])`` (the index
    into ``dense``, all -1 between calls), its components packed 5 bits a colour, the
    group index of the done colours' leftovers and the least losses of the colours to
    come; and its value. Indices are unsigned, so numba checks no negative index.
    """
    first, _, next_state, _, _, nonzero = tables
    max_states, max_live = budget
    rows, k = x.shape
    size = nonzero.shape[0]
    base = m + 1
    scratch = move_scratch(k, m, tables)
    move_delta, move_gain, move_end, left_index, least_loss = scratch[:5]
    after_index, after_tiles, digits, hope = scratch[5:]
    # Per move of the colour in hand: points, the leftovers' index, code and packed steps.
    mv = np.empty((first[size], 4), np.int64)
    cap = min(size**k, dense.shape[0], max_live)
    st = np.empty((cap, 4), np.int64)
    nst = np.empty((cap, 4), np.int64)
    val = np.empty(cap, np.int64)
    nval = np.empty(cap, np.int64)
    live = 1
    st[0, 0] = 0
    st[0, 1] = 0
    val[0] = 0
    stored = 1
    states = 0
    transitions = 0
    for i in range(rows + 1):
        v = first_value + i
        threshold = target - suffix[i + 1]
        value_tables(x, i, v, m, tables, left_index, least_loss, after_index, after_tiles)
        # A new value: no colour done yet, every colour but the first still to come.
        for j in range(np.uint64(live)):
            bits = st[j, 1]
            later = 0
            for d in range(1, k):
                later += least_loss[d, np.uint64((bits >> (5 * d)) & 31)]
            st[j, 2] = 0
            st[j, 3] = later
        for c in range(k):
            xc = x[i, c] if i < rows else 0
            colour_moves(xc, v, v - 1, 2 * v - 3, tables, move_delta, move_gain, move_end)
            hope_by_group(c, v, base, after_index, after_tiles, digits, gv, hope)
            shift = 5 * c
            for cc in range(size):
                for e in range(first[cc], move_end[cc]):
                    mv[e, 0] = move_gain[e]
                    mv[e, 1] = left_index[c, next_state[e]]
                    mv[e, 2] = move_delta[e] * radix[c]
                    mv[e, 3] = move_delta[e] << shift
            has_next = c + 1 < k
            next_loss = least_loss[c + 1] if has_next else least_loss[c]
            built = 0
            for j in range(np.uint64(live)):
                cj = st[j, 0]
                bj = st[j, 1]
                dj = st[j, 2]
                lj = st[j, 3]
                vj = val[j]
                cc = np.uint64((bj >> shift) & 31)
                need = threshold - vj + lj
                if has_next:
                    lj -= next_loss[np.uint64((bj >> (shift + 5)) & 31)]
                e0 = first[cc]
                e1 = move_end[cc]
                transitions += e1 - e0
                for e in range(np.uint64(e0), np.uint64(e1)):
                    g = dj + mv[e, 1]
                    gain = mv[e, 0]
                    if gain + hope[np.uint64(g)] < need:
                        continue
                    t = np.uint64(cj + mv[e, 2])
                    pos = dense[t]
                    if pos >= 0:
                        at = np.uint64(pos)
                        nval[at] = max(nval[at], vj + gain)
                        continue
                    if built == cap:
                        for d in range(np.uint64(built)):
                            dense[np.uint64(nst[d, 0])] = -1
                        return 0, states, transitions, OVER_BUDGET
                    at = np.uint64(built)
                    dense[t] = built
                    nst[at, 0] = t
                    nst[at, 1] = bj + mv[e, 3]
                    nst[at, 2] = g
                    nst[at, 3] = lj
                    nval[at] = vj + gain
                    built += 1
            for j in range(np.uint64(built)):
                dense[np.uint64(nst[j, 0])] = -1
            st, nst = nst, st
            val, nval = nval, val
            live = built
        # Groups from the tiles the new states leave over: every colour is done.
        kept = 0
        for j in range(np.uint64(live)):
            nv = val[j] + v * gv[np.uint64(st[j, 2])]
            if nv >= threshold:
                at = np.uint64(kept)
                st[at, 0] = st[j, 0]
                st[at, 1] = st[j, 1]
                val[at] = nv
                kept += 1
        live = kept
        if live == 0:
            return 0, states, transitions, NOT_REACHED
        states += live
        stored += live
        if stored > max_states:
            return 0, states, transitions, OVER_BUDGET
    # After the closing empty row every run has ended: one state, code 0, is left.
    return val[0], states, transitions, OK


@njit(cache=True)
def _dense_pass(x, first_value, m, radix, tables, gv, suffix, target, budget):
    """Best score >= ``target`` of the rows ``x``, exactly, over a value for every joint
    state. Returns ``(best, states, transitions, status)``.

    For colour c the joint states form rows: the components above c (``hi``), then c,
    then a row of the components below c (``lo``, ``radix[c]`` of them, adjacent in
    memory). A move of colour c shifts a row to another, so one move is one vectorised
    loop over a row. Colour 0's rows have one state each; its step goes state by state.
    """
    first, _, next_state, _, _, nonzero = tables
    max_states, max_live = budget
    rows, k = x.shape
    size = nonzero.shape[0]
    base = m + 1
    total = size**k
    scratch = move_scratch(k, m, tables)
    move_delta, move_gain, move_end, left_index, least_loss = scratch[:5]
    after_index, after_tiles, digits, hope = scratch[5:]
    group_radix = np.empty(k, np.int64)
    group_radix[0] = 1
    for c in range(1, k):
        group_radix[c] = group_radix[c - 1] * base
    cur = np.full(total, UNSET, np.int64)
    nxt = np.full(total, UNSET, np.int64)
    lift = np.empty((m + 1, total), np.int64)  # hope, by the tiles left colour c and lo
    done_lo = np.empty(total, np.int64)  # by lo: the leftovers' group index below c
    loss_hi = np.empty(total, np.int64)  # by hi: the least losses above c
    row_alive = np.empty(total, np.int64)
    cur[0] = 0
    stored = 1
    states = 0
    transitions = 0
    for i in range(rows + 1):
        v = first_value + i
        threshold = target - suffix[i + 1]
        value_tables(x, i, v, m, tables, left_index, least_loss, after_index, after_tiles)
        for c in range(k):
            xc = x[i, c] if i < rows else 0
            colour_moves(xc, v, v - 1, 2 * v - 3, tables, move_delta, move_gain, move_end)
            hope_by_group(c, v, base, after_index, after_tiles, digits, gv, hope)
            stride = radix[c]
            block = stride * size
            above = total // block
            # Digit by digit, without dividing: the new digit is the most significant.
            done_lo[0] = 0
            width = 1
            for d in range(c):
                for q in range(size - 1, -1, -1):
                    for r in range(width):
                        done_lo[q * width + r] = done_lo[r] + left_index[d, q]
                width *= size
            loss_hi[0] = 0
            width = 1
            for d in range(c + 1, k):
                for q in range(size - 1, -1, -1):
                    for r in range(width):
                        loss_hi[q * width + r] = loss_hi[r] + least_loss[d, q]
                width *= size
            # Few distinct counts of tiles are left colour c: one row of hope each.
            for spare in range(min(xc, m) + 1):
                step = spare * group_radix[c]
                for lo in range(np.uint64(stride)):
                    lift[spare, lo] = hope[np.uint64(done_lo[lo] + step)]
            last = c == k - 1
            if stride == 1:
                for hi in range(np.uint64(above)):
                    at = hi * np.uint64(size)
                    need = threshold + loss_hi[hi]
                    for cc in range(size):
                        vj = cur[at + np.uint64(cc)]
                        if vj == UNSET:
                            continue
                        transitions += move_end[cc] - first[cc]
                        for e in range(np.uint64(first[cc]), np.uint64(move_end[cc])):
                            gain = move_gain[e]
                            nc = next_state[e]
                            lifted = lift[np.uint64(max(xc - nonzero[nc], 0)), 0]
                            if vj + gain + lifted >= need:
                                out = at + np.uint64(nc)
                                # The last colour's bound is the leftovers' group score
                                # itself: the state keeps it as its value.
                                nxt[out] = max(nxt[out], vj + gain + (lifted if last else 0))
            else:
                for cc in range(size):
                    alive = 0
                    for hi in range(above):
                        row = np.uint64(hi * block + cc * stride)
                        here = 0
                        for lo in range(np.uint64(stride)):
                            here += cur[row + lo] != UNSET
                        row_alive[hi] = here
                        alive += here
                    transitions += alive * (move_end[cc] - first[cc])
                    if alive == 0:
                        continue
                    for e in range(first[cc], move_end[cc]):
                        gain = move_gain[e]
                        shift = np.uint64(move_delta[e] * stride)
                        hope_row = lift[max(xc - nonzero[next_state[e]], 0)]
                        for hi in range(above):
                            if row_alive[hi] == 0:
                                continue
                            row = np.uint64(hi * block + cc * stride)
                            need = threshold - gain + loss_hi[np.uint64(hi)]
                            if last:
                                for lo in range(np.uint64(stride)):
                                    raised = cur[row + lo] + hope_row[lo]
                                    cand = raised + gain if raised >= need else UNSET
                                    nxt[row + shift + lo] = max(nxt[row + shift + lo], cand)
                            else:
                                for lo in range(np.uint64(stride)):
                                    vj = cur[row + lo]
                                    cand = vj + gain if vj + hope_row[lo] >= need else UNSET
                                    nxt[row + shift + lo] = max(nxt[row + shift + lo], cand)
            for t in range(np.uint64(total)):
                cur[t] = UNSET
            cur, nxt = nxt, cur
        # The group scores are in (the last colour's step): no state falls here.
        live = 0
        for t in range(np.uint64(total)):
            live += cur[t] != UNSET
        if live == 0:
            return 0, states, transitions, NOT_REACHED
        states += live
        stored += live
        if stored > max_states or live > max_live:
            return 0, states, transitions, OVER_BUDGET
    return cur[0], states, transitions, OK


@njit(cache=True, inline="always")  # no library of its own, which would recompile both passes
def _pass(use_dense, x, first_value, m, radix, tables, gv, suffix, target, dense, budget):
    """One pass of either layout; see :func:`_sparse_pass` and :func:`_dense_pass`."""
    if use_dense:
        return _dense_pass(x, first_value, m, radix, tables, gv, suffix, target, budget)
    return _sparse_pass(x, first_value, m, radix, tables, gv, suffix, target, dense, budget)


@njit(cache=True)
def search_kernel(copies, m, s, tables, gv, dense, budget, layout, report):
    """The reference search of one puzzle: its score and its effort.

    Removes isolated copies, splits the puzzle into independent segments and settles each
    by bounds when max(runs only, groups only) meets min(runs only + groups only, row
    bounds); otherwise by a pass aimed at the lower bound, then, unless the optimum meets
    the upper bound, passes aimed at the upper bound and at the optimum plus one.
    ``dense`` (all -1) serves the sparse layout; ``budget`` is ``(max_states, max_live)``;
    ``layout`` is AUTO, DENSE (where the joint states fit) or SPARSE: the counts are the
    same, only the time differs.

    ``report`` receives: score, removed copies, lower bound, upper bound, DP states, DP
    transitions, segments, segments needing the DP, status, passes after the first.
    """
    n, k = copies.shape
    size = tables[5].shape[0]
    radix = joint_radix(k, size)
    reduced = copies.copy()
    values = np.arange(1, n + 1)
    removed, row_bound, bounds, count = prepare(reduced, m, s, gv, values)
    reach = np.empty((k, n), np.int64)
    work = np.empty((4, size), np.int64)
    score = np.int64(0)
    lower = 0
    upper = 0
    states = 0
    transitions = 0
    hard = 0
    passes = 0
    status = OK
    for segment in range(count):
        lo = bounds[segment, 0]
        hi = bounds[segment, 1]
        rows = hi - lo
        x = reduced[lo:hi]
        runs_only = np.int64(0)
        for c in range(k):
            runs_only += colour_runs(reduced, c, lo, hi, values, tables, reach[c], work)[0]
        _, suffix, low, high = segment_bounds(x, values[lo:hi], m, gv, row_bound[lo:hi], runs_only)
        lower += low
        upper += high
        if low == high:
            score += low
            continue
        hard += 1
        reachable = 0.0
        for i in range(lo, hi):
            product = 1.0
            for c in range(k):
                product *= reach[c, i]
            reachable += product
        fits = size**k <= DENSE_MAX_SIZE
        crowded = reachable >= DENSE_MIN_SHARE * rows * size**k
        use_dense = fits and (layout == DENSE or (layout == AUTO and crowded))
        # One pass aimed at the lower bound finds the optimum; unless it meets the upper
        # bound, the definition also counts the passes that prove it: aimed at the upper
        # bound, then at the optimum plus one (both find nothing).
        best, kept, done, result = _pass(
            use_dense, x, lo + 1, m, radix, tables, gv, suffix, low, dense, budget
        )
        states += kept
        transitions += done
        if result == OVER_BUDGET:
            status = OVER_BUDGET
            break
        if result == OK and best > low:
            low = best
        for aim in (high, low + 1):
            if aim <= low:
                break
            best, kept, done, result = _pass(
                use_dense, x, lo + 1, m, radix, tables, gv, suffix, aim, dense, budget
            )
            passes += 1
            states += kept
            transitions += done
            if result == OVER_BUDGET:
                status = OVER_BUDGET
                break
            if result == OK:
                low = best
                break
        if status == OVER_BUDGET:
            break
        score += low
    fill_report(
        report, (score, removed, lower, upper, states, transitions, count, hard, status, passes)
    )
