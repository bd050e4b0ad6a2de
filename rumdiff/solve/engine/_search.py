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
depend on how the states are stored; the engine's two layouts (``_loop``) give it,
whichever is faster:

- dense: a value for every joint state, and a step specialised for it
  (:func:`_dense_step`) that moves a colour for whole rows of states at once
  (vectorised); best when many joint states are reachable;
- lists of the live states (:func:`_list_step`); best when few are.
"""

import numpy as np
from numba import njit

from rumdiff.solve._tiles import colour_runs, fill_report, joint_radix, prepare, segment_bounds
from rumdiff.solve.engine._loop import (
    AUX,
    CODE,
    KEY,
    OK,
    ORG,
    OVER_BUDGET,
    UNSET,
    VAL,
    borrowed,
    compact,
    engine_pass,
    merge,
)  # fmt: skip
from rumdiff.solve.engine._moves import colour_moves, hope_by_group, move_scratch, value_tables

#: Joint state spaces up to this size may use the dense layout (about 64 bytes each).
DENSE_MAX_SIZE = 1 << 20
#: The dense layout is used when, on average over the segment's values, at least this
#: share of the joint states is reachable (the product of each colour's reachable run
#: states): below it, most of its work would be on states that do not live.
DENSE_MIN_SHARE = 0.1
#: ``layout`` of :func:`search_kernel`: chosen per segment, or always one of the two.
AUTO, DENSE, SPARSE = 0, 1, 2
#: Lists of joint state spaces up to this size are merged through a direct index, keyed
#: by the states' joint codes (``_loop.merge``; 64 MiB of address space at most).
DIRECT_MAX_SIZE = 1 << 22
#: ``numbers``: the target, the value of the first row, m, whether the layout is dense,
#: whether the index is direct, then the row's value and the least a state must reach
#: after it.
_TARGET, _FIRST, _M, _DENSE, _DIRECT, _V, _THRESHOLD = range(7)
#: A state's ``aux`` (list layout): the group index of the colours stepped so far (bits
#: 0-11, (m + 1)**k <= 4096), then the least losses of the colours to come.
_GROUP_BITS = 12
#: ``UNSET + _OPEN`` is above any state's value: a child's value capped at it, or at
#: UNSET, is kept or dropped without a branch.
_OPEN = 3 << 61


@njit(cache=True, inline="always")
def _begin(rules, lists):
    """The start: no runs (code 0, at position 0 of either layout)."""
    lists[0, VAL] = 0
    if rules[6][_DENSE] == 0:
        lists[0, KEY] = 0
        lists[0, CODE] = 0
        lists[0, ORG] = -1
    return np.int64(1)


@njit(cache=True, inline="always")
def _begin_row(rules, i, lists, live):
    """The row's tables; in the list layout, per state no colour done yet and the least
    losses of every colour but the first still to come."""
    x, suffix, tables, scratch, numbers = rules[0], rules[1], rules[3], rules[4], rules[6]
    left_index, least_loss, after_index, after_tiles = (
        scratch[3],
        scratch[4],
        scratch[5],
        scratch[6],
    )
    k = x.shape[1]
    v = numbers[_FIRST] + i
    numbers[_V] = v
    numbers[_THRESHOLD] = numbers[_TARGET] - suffix[i + 1]
    value_tables(x, i, v, numbers[_M], tables, left_index, least_loss, after_index, after_tiles)
    if numbers[_DENSE] != 0:
        return
    for j in range(live):
        bits = lists[j, CODE]
        later = 0
        for d in range(1, k):
            later += least_loss[d, (bits >> (5 * d)) & 31]
        lists[j, AUX] = later << _GROUP_BITS


@njit(cache=True, inline="always")
def _step(rules, i, s, lists, start, stop, out, index, built, limit, work):
    """Colour s's moves at the row: the same tables for either layout, then its step."""
    x, gv, tables, scratch, numbers = rules[0], rules[2], rules[3], rules[4], rules[6]
    move_delta, move_gain, move_end = scratch[0], scratch[1], scratch[2]
    after_index, after_tiles, digits, hope = scratch[5], scratch[6], scratch[7], scratch[8]
    rows = x.shape[0]
    v = numbers[_V]
    if start == 0:  # once a step, not once a run of states
        xc = x[i, s] if i < rows else 0
        colour_moves(xc, v, v - 1, 2 * v - 3, tables, move_delta, move_gain, move_end)
        hope_by_group(s, v, numbers[_M] + 1, after_index, after_tiles, digits, gv, hope)
    if numbers[_DENSE] != 0:
        _dense_step(rules, i, s, lists, out, work)
        return np.int64(out.shape[0]), False
    return _list_step(rules, i, s, lists, start, stop, out, index, built, limit, work)


@njit(cache=True, inline="always")
def _list_step(rules, i, s, lists, start, stop, out, index, built, limit, work):
    """Colour s's moves from states ``start..stop - 1`` of the lists, filed into ``out``.

    A child is dropped when its value plus what it may still gain at this value (the
    later colours' tiles, and what groups can take of the leftovers, ``hope``) falls
    below the row's threshold plus the least the later colours must lose. A state's key
    is its joint code (``radix``), its code the same 5 bits a colour. Each move's numbers
    at this step sit side by side (``moves``: a load each, not a chain of them)."""
    tables, scratch, numbers = rules[3], rules[4], rules[6]
    first, next_state = tables[0], tables[2]
    move_delta, move_gain, move_end = scratch[0], scratch[1], scratch[2]
    left_index, least_loss, hope, radix, moves = (
        scratch[3],
        scratch[4],
        scratch[8],
        scratch[9],
        scratch[11],
    )
    k = least_loss.shape[0]
    threshold = numbers[_THRESHOLD]
    direct = numbers[_DIRECT] != 0
    shift = 5 * s
    has_next = s + 1 < k
    following = np.uint64(s + 1 if has_next else s)
    if start == 0:
        for cc in range(first.shape[0] - 1):
            for e in range(first[cc], move_end[cc]):
                moves[e, 0] = move_gain[e]
                moves[e, 1] = left_index[s, next_state[e]]
                moves[e, 2] = move_delta[e] * radix[s]
                moves[e, 3] = move_delta[e] << shift
    transitions = 0
    # (Indices are unsigned in the loops below: numba checks no negative index then.)
    for j in range(np.uint64(start), np.uint64(stop)):
        kj = lists[j, KEY]
        bj = lists[j, CODE]
        aj = lists[j, AUX]
        vj = lists[j, VAL]
        oj = lists[j, ORG]
        dj = aj & ((1 << _GROUP_BITS) - 1)
        lj = aj >> _GROUP_BITS
        cc = np.uint64((bj >> shift) & 31)
        need = threshold - vj + lj
        if has_next:
            lj -= least_loss[following, np.uint64((bj >> (shift + 5)) & 31)]
        e0 = first[cc]
        e1 = move_end[cc]
        transitions += e1 - e0
        for e in range(np.uint64(e0), np.uint64(e1)):
            g = dj + moves[e, 1]
            gain = moves[e, 0]
            if gain + hope[np.uint64(g)] < need:
                continue
            extra = g + (lj << _GROUP_BITS)
            built, full = merge(
                out, index, direct, built, limit, kj + moves[e, 2], bj + moves[e, 3], vj + gain,
                oj, extra, 0,
            )  # fmt: skip
            if full:
                work[1] += transitions
                return built, True
    work[1] += transitions
    return built, False


@njit(cache=True, inline="always")
def _dense_step(rules, i, c, lists, out, work):
    """Colour c's moves over the dense layout (``lists`` and ``out``, a value per joint
    state, ``radix[c]`` the place of colour c in a code).

    For colour c the joint states form rows: the components above c (``hi``), then c,
    then a row of the components below c (``lo``, ``radix[c]`` of them, adjacent in
    memory). A move of colour c shifts a row to another, so one move is one vectorised
    loop over a row. Colour 0's rows have one state each; its step goes state by state.
    The last colour's bound is the leftovers' group score itself: the state keeps it as
    its value. ``lists`` is left ``UNSET``.
    """
    x, tables, scratch, dense, numbers = rules[0], rules[3], rules[4], rules[5], rules[6]
    first, next_state, nonzero = tables[0], tables[2], tables[5]
    move_delta, move_gain, move_end = scratch[0], scratch[1], scratch[2]
    left_index, least_loss, hope, radix = scratch[3], scratch[4], scratch[8], scratch[9]
    group_radix, moves = scratch[10], scratch[11]
    lift, done_lo, loss_hi, row_alive = dense[0], dense[1], dense[2], dense[3]
    cur = lists.reshape(lists.shape[0])  # (one field a state: contiguous values)
    nxt = out.reshape(out.shape[0])
    rows, k = x.shape
    size = nonzero.shape[0]
    total = cur.shape[0]
    threshold = numbers[_THRESHOLD]
    xc = x[i, c] if i < rows else 0
    stride = radix[c]
    block = stride * size
    above = total // block
    transitions = 0
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
    for spare in range(min(xc, numbers[_M]) + 1):
        step = spare * group_radix[c]
        for lo in range(np.uint64(stride)):
            lift[spare, lo] = hope[np.uint64(done_lo[lo] + step)]
    last = c == k - 1
    if stride == 1:
        # A row is one state, so each move's hope is the same for every state: each
        # move's target, bar and gain at this step sit side by side (a load each).
        for cc in range(size):
            for e in range(first[cc], move_end[cc]):
                lifted = lift[max(xc - nonzero[next_state[e]], 0), 0]
                moves[e, 0] = next_state[e]
                moves[e, 1] = move_gain[e] + lifted
                moves[e, 2] = move_gain[e] + (lifted if last else 0)
        for hi in range(np.uint64(above)):
            at = hi * np.uint64(size)
            need = threshold + loss_hi[hi]
            for cc in range(np.uint64(size)):
                vj = cur[at + cc]
                if vj == UNSET:
                    continue
                transitions += move_end[cc] - first[cc]
                short = need - vj
                for e in range(np.uint64(first[cc]), np.uint64(move_end[cc])):
                    at_out = at + np.uint64(moves[e, 0])
                    cand = min(vj + moves[e, 2], UNSET + (moves[e, 1] >= short) * _OPEN)
                    nxt[at_out] = max(nxt[at_out], cand)
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
    work[1] += transitions


@njit(cache=True, inline="always")
def _cut(rules, i, s, lists, built):
    """No beam: the reference search keeps every state."""
    return built


@njit(cache=True, inline="always")
def _finish_row(rules, i, lists, live, index):
    """Groups from the tiles the states leave over (the dense layout has them in already:
    it counts the states that live)."""
    gv, numbers = rules[2], rules[6]
    if numbers[_DENSE] != 0:
        cur = lists.reshape(lists.shape[0])
        count = np.int64(0)
        for t in range(np.uint64(cur.shape[0])):
            count += cur[t] != UNSET
        return count
    v = numbers[_V]
    threshold = numbers[_THRESHOLD]
    kept = np.int64(0)
    for j in range(live):
        nv = lists[j, VAL] + v * gv[lists[j, AUX] & ((1 << _GROUP_BITS) - 1)]
        if nv >= threshold:
            compact(lists, j, kept)
            lists[kept, VAL] = nv
            kept += 1
    return kept


_run_pass = engine_pass(_begin, _begin_row, _step, _cut, _finish_row)


@njit(cache=True)
def search_pass(x, first_value, m, radix, tables, gv, suffix, target, budget, dense):
    """Best score >= ``target`` of the rows ``x`` (values ``first_value`` on), exactly, in
    the dense layout or in lists. Returns ``(best, states, transitions, status)``."""
    rows, k = x.shape
    size = tables[5].shape[0]
    base = m + 1
    total = size**k
    scratch = move_scratch(k, m, tables)
    group_radix = np.empty(k, np.int64)
    group_radix[0] = 1
    for c in range(1, k):
        group_radix[c] = group_radix[c - 1] * base
    direct = not dense and total <= DIRECT_MAX_SIZE
    numbers = np.zeros(7, np.int64)
    numbers[_TARGET] = target
    numbers[_FIRST] = first_value
    numbers[_M] = m
    numbers[_DENSE] = dense
    numbers[_DIRECT] = direct
    cells = total if dense else 0
    lift = np.empty((m + 1, cells), np.int64)  # hope, by the tiles left colour c and lo
    done_lo = np.empty(cells, np.int64)  # by lo: the leftovers' group index below c
    loss_hi = np.empty(cells, np.int64)  # by hi: the least losses above c
    row_alive = np.empty(cells, np.int64)
    moves = np.empty((tables[0][size], 4), np.int64)
    owners = (scratch, group_radix, numbers, lift, done_lo, loss_hi, row_alive, moves)
    rules = (
        borrowed(x), borrowed(suffix), borrowed(gv),
        (
            borrowed(tables[0]), borrowed(tables[1]), borrowed(tables[2]), borrowed(tables[3]),
            borrowed(tables[4]), borrowed(tables[5]),
        ),
        (
            borrowed(scratch[0]), borrowed(scratch[1]), borrowed(scratch[2]),
            borrowed(scratch[3]), borrowed(scratch[4]), borrowed(scratch[5]),
            borrowed(scratch[6]), borrowed(scratch[7]), borrowed(scratch[8]), borrowed(radix),
            borrowed(group_radix), borrowed(moves),
        ),
        (borrowed(lift), borrowed(done_lo), borrowed(loss_hi), borrowed(row_alive)),
        borrowed(numbers),
    )  # fmt: skip
    first = tables[0]
    most = np.int64(1)
    for cc in range(size):
        most = max(most, first[cc + 1] - first[cc])
    max_states, max_live = budget
    work = np.zeros(2, np.int64)
    room = total if dense else min(total, np.int64(1 << 12))
    best, status = _run_pass(
        rules, owners, rows, k, (most, total), room, (max_states, max_live), dense, direct,
        np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((2, 0), np.int64), work,
    )  # fmt: skip
    return best, work[0], work[1], status


@njit(cache=True)
def search_kernel(copies, m, s, tables, gv, budget, layout, report):
    """The reference search of one puzzle: its score and its effort.

    Removes isolated copies, splits the puzzle into independent segments and settles each
    by bounds when max(runs only, groups only) meets min(runs only + groups only, row
    bounds); otherwise by a pass aimed at the lower bound, then, unless the optimum meets
    the upper bound, passes aimed at the upper bound and at the optimum plus one.
    ``budget`` is ``(max_states, max_live)``;
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
    no_parent = np.empty((0, 0), np.int64)  # (colour_runs: no path wanted)
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
            points, _ = colour_runs(reduced, c, lo, hi, values, tables, reach[c], work, no_parent)
            runs_only += points
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
        best, kept, done, result = search_pass(
            x, lo + 1, m, radix, tables, gv, suffix, low, budget, use_dense
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
            best, kept, done, result = search_pass(
                x, lo + 1, m, radix, tables, gv, suffix, aim, budget, use_dense
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
