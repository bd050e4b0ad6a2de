"""The dynamic program over values (the whole-puzzle kernel that runs it is ``_kernel``).

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

from rumdiff.solve._moves import colour_moves, move_scratch
from rumdiff.solve._prune import (
    compact,
    dominance_costs,
    keep_best,
    least_losses,
    pending_losses,
    sibling_dominated,
    thin,
)
from rumdiff.solve._rows import leftovers, move_ends, step_order
from rumdiff.solve._tiles import NOT_REACHED, OK, OVER_BUDGET

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
    for j in range(array.shape[0]):  # not a slice assignment: see _kernel._copy_rows
        bigger[j] = array[j]
    return bigger


@njit(cache=True)
def dp_core(
    x, values, m, radix, tables, dominance, gv, suffix, target, limits, entry, dense, path, scores
):
    """Best score >= ``target`` of the rows ``x``, row i holding tiles of value
    ``values[i]`` (two more entries, any positive, stand for the rows after the last).

    ``tables`` holds the run-state tables ``(first, used, next_state, dropped1,
    dropped2, nonzero)`` of ``rumdiff.solve.runstates.RunStates``; ``dominance`` the
    tables of ``rumdiff.solve.runstates.dominance``; ``limits`` is
    ``(beam, max_states, max_live, by_tiles)``: the colours step by increasing tiles at
    each row (:func:`step_order`) when ``by_tiles``, else in colour order.

    ``suffix[i]`` bounds the points placeable at rows i and later; a state whose
    optimistic value, less the pending points it must lose, plus ``suffix[i + 1]``
    falls below ``target`` is dropped, and so is a state another one dominates. With
    ``beam > 0`` only the best ``beam`` states per value survive (a heuristic, so the
    order of the colours changes what it finds; without a beam it changes only the
    work).
    The rows start from run state ``entry`` in every colour (0: no runs). On success
    ``path[i]`` is the joint state code after row i on a best path and, after a beam
    pass, ``scores[i]`` its DP value there (exact passes keep no values: at 50 million
    states they would cost 400 MB).

    Each live state carries its code (the index into ``dense``) and the same
    components packed 5 bits a colour, which are cheaper to read than to divide out,
    and the sums over its colours that the bound at each colour step needs (kept up
    to date step by step instead of summed over k colours each time: 3-4% on
    G(4, 3, 100), for 16 bytes more a state). At the last colour step of a row of an
    exact pass, a state's children that a sibling dominates are dropped before they are
    merged (:func:`rumdiff.solve._prune.sibling_dominated`): on 30 G(4, 3, 100)
    puzzles the dominance check then meets 0.57 million states instead of 1.05 million
    (counted once, with a counter added to ``mark_dominated``; no script prints it).

    Returns ``(best, states, transitions, status)``.
    """
    first, nonzero = tables[0], tables[5]
    beam, max_states, max_live, by_tiles = limits
    rows, k = x.shape
    size = nonzero.shape[0]
    scratch = move_scratch(k, m, tables)
    move_delta, move_gain, move_end, left_index = scratch[:4]
    after_index, after_tiles = scratch[5:7]
    ends = move_ends(tables, m)
    most_moves = 1
    for cc in range(size):
        most_moves = max(most_moves, first[cc + 1] - first[cc])
    left_count = np.empty((k, size), np.int64)
    ones, twos = dominance[1], dominance[2]
    pending = np.empty((k, size), np.int64)
    dom_cost = np.empty((size, size), np.int64)
    least_after = np.empty((k, size), np.int64)
    # Lists sized once: np.empty only reserves pages, and numba leaks arrays that are
    # regrown and swapped in a loop (4 GB instead of 0.3 GB on a dense G(5, 3, 100), seen
    # once in development).
    cap = min(size**k, dense.shape[0], max_live)
    code = np.empty(cap, np.int64)
    bits = np.empty(cap, np.int64)
    val = np.empty(cap, np.int64)
    org = np.empty(cap, np.int32)
    sums = np.empty(cap, np.int64)
    ncode = np.empty(cap, np.int64)
    nbits = np.empty(cap, np.int64)
    nval = np.empty(cap, np.int64)
    norg = np.empty(cap, np.int32)
    nsums = np.empty(cap, np.int64)
    nhope = np.empty(cap, np.int64)
    # The last colour step's children of one state, before they are merged.
    child_move = np.empty(most_moves, np.int64)
    child_state = np.empty(most_moves, np.int64)
    child_worth = np.empty(most_moves, np.int64)
    child_hope = np.empty(most_moves, np.int64)
    order = np.empty(k, np.int64)
    rank = np.empty(k, np.int64)
    every = np.arange(k)
    lay_code = np.empty(1024, np.int64)
    lay_org = np.empty(1024, np.int32)
    lay_val = np.empty(1024 if beam > 0 else 1, np.int64)
    start_code = 0
    start_bits = 0
    for c in range(k):
        start_code += entry * radix[c]
        start_bits += entry << (5 * c)
    lay_code[0] = start_code
    lay_val[0] = 0
    lay_org[0] = -1
    stored = 1
    live = 1
    code[0] = start_code
    bits[0] = start_bits
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
        threshold = target - suffix[i + 1]
        leftovers(x, i, m, nonzero, left_count, left_index)
        pending_losses(x, i, v, prev + v, ones, twos, pending)
        step_order(x, i, m, by_tiles, order, rank, after_index, after_tiles)
        # (The colour stepped first is never a later colour: no least losses needed.)
        least_losses(x, i, prev, prev + prev2, tables, pending, order[1:], least_after)
        # Every move's step and gain at this row, once for all colours (which of them a
        # colour may take depends on its tiles alone: ``ends``).
        colour_moves(m, v, prev, prev + prev2, tables, move_delta, move_gain, move_end)
        costs_ready = False  # dominance_costs, computed when first needed in the row
        for step in range(k):
            c = order[step]
            xc = x[i, c] if i < rows else 0
            shift = 5 * c
            power = radix[c]
            # Children dominated by a sibling are dropped at the last step of exact
            # passes only: a dropped child no longer dominates the states that differ
            # from it in another colour, and in a beam pass those take places in the
            # beam. (Beam passes too: G(6, 3, 100) fixed, seed 1, ran 6.2 million
            # transitions more on 10 puzzles (16.0 million, not 9.8), one beam missing
            # an optimum; 300 simplex G(6, 3, 200), 8% more states.)
            last = step == k - 1 and k > 1 and beam == 0
            if step == 0:
                # Per state, sums over the colours that the bound below needs, kept
                # up to date colour step by colour step (they depend on the code
                # alone, so merging never mixes them): the group index and the tiles
                # the colours stepped so far leave, and minus the least the others
                # must lose. Packed: index in bits 0-11 ((m + 1)**k <= 4096), tiles in
                # 12-19, the losses from bit 20.
                for j in range(live):
                    bj = bits[j]
                    packed = 0
                    for later in range(1, k):
                        d = order[later]
                        packed -= least_after[d, (bj >> (5 * d)) & 31] << 20
                    sums[j] = packed
            following = order[step + 1] if step + 1 < k else 0
            built = np.int64(0)  # not 0: see the note above
            for j in range(live):
                bj = bits[j]
                cc = (bj >> shift) & 31
                cj = code[j]
                vj = val[j]
                oj = org[j]
                sj = sums[j]
                # The most this state can still gain at this value, beyond colour c's
                # move: later colours place at most all their tiles, less what they
                # must drop; earlier colours' leftovers at most what groups can take.
                done_index = after_index[c] + (sj & 4095)
                done_tiles = (sj >> 12) & 255
                rest = v * after_tiles[c] + (sj >> 20)
                if step + 1 < k:  # the following colour's losses leave the sum
                    sj += least_after[following, (bj >> (5 * following)) & 31] << 20
                end = ends[cc, xc]
                transitions += end - first[cc]
                children = 0
                full = False
                for e in range(first[cc], end):
                    delta = move_delta[e]
                    nc = cc + delta
                    nv = vj + move_gain[e]
                    groups = gv[done_index + left_index[c, nc]]
                    hope = rest + v * min(done_tiles + left_count[c, nc], groups)
                    hope -= pending[c, nc]
                    if nv + hope < threshold:
                        continue
                    if last:  # the children of one state: merged below
                        child_move[children] = e
                        child_state[children] = nc
                        child_worth[children] = nv + v * groups
                        child_hope[children] = hope
                        children += 1
                        continue
                    # (The merge is written out twice: as an inlined function taking
                    # the lists, the DP ran 1.8 times slower.)
                    t = cj + delta * power
                    pos = dense[t]
                    if pos >= 0:
                        if nv > nval[pos]:
                            nval[pos] = nv
                            norg[pos] = oj
                        continue
                    if built == cap:
                        full = True
                        break
                    dense[t] = built
                    ncode[built] = t
                    nbits[built] = bj + (delta << shift)
                    nval[built] = nv
                    norg[built] = oj
                    nhope[built] = hope
                    nsums[built] = sj + left_index[c, nc] + (left_count[c, nc] << 12)
                    nsums[built] -= pending[c, nc] << 20
                    built += 1
                if children > 1 and not costs_ready:
                    dominance_costs(dominance, prev, v, values[i + 1], values[i + 2], dom_cost)
                    costs_ready = True
                for a in range(children):
                    # At the last step the children of one state differ in colour c
                    # alone, and their groups at this value are known: one that another
                    # dominates (as in ``_prune.mark_dominated``) never joins the lists.
                    if sibling_dominated(a, children, child_state, child_worth, dom_cost):
                        continue
                    e = child_move[a]
                    delta = move_delta[e]
                    nv = vj + move_gain[e]
                    t = cj + delta * power
                    pos = dense[t]
                    if pos >= 0:
                        if nv > nval[pos]:
                            nval[pos] = nv
                            norg[pos] = oj
                        continue
                    if built == cap:
                        full = True
                        break
                    dense[t] = built
                    ncode[built] = t
                    nbits[built] = bj + (delta << shift)
                    nval[built] = nv
                    norg[built] = oj
                    nhope[built] = child_hope[a]  # (no sums: the row ends here)
                    built += 1
                if full:
                    for d in range(built):
                        dense[ncode[d]] = -1
                    return 0, states, transitions, OVER_BUDGET
            for j in range(built):
                dense[ncode[j]] = -1
            if beam == 0 and built >= CROWDED and step + 1 < k:
                # A crowded list is thinned between colour passes too, among states that
                # put as many tiles in runs at this value (so their groups are equal).
                # (With a beam, the cut below keeps lists short, and it needs ``nhope``
                # in step with the lists.)
                dominance_costs(dominance, prev, v, values[i + 1], values[i + 2], dom_cost)
                costs_ready = True
                lists = (ncode, nbits, nval, norg)
                built = thin(
                    built, order[: step + 1], np.bool_(True), dom_cost, nonzero, lists, nsums
                )
            if beam > 0 and built > beam:
                # The beam also trims between colour passes, by value plus what the
                # state may still gain at this value, so its lists stay small.
                for j in range(built):
                    nhope[j] += nval[j]
                built = keep_best(built, beam, nhope, ncode, nbits, nval, norg, nsums)
            code, ncode = ncode, code
            bits, nbits = nbits, bits
            val, nval = nval, val
            org, norg = norg, org
            sums, nsums = nsums, sums
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
            if not costs_ready:
                dominance_costs(dominance, prev, v, values[i + 1], values[i + 2], dom_cost)
                costs_ready = True
            lists = (code, bits, val, org)
            live = thin(live, every, np.bool_(False), dom_cost, nonzero, lists, sums)
        if beam > 0 and live > beam:
            live = keep_best(live, beam, val, code, bits, val, org, sums)
        if live == 0:
            return 0, states, transitions, NOT_REACHED
        states += live
        if stored + live > lay_code.shape[0]:
            # Capped, so a pass's memory is bounded by its budget (README, "Solving").
            lay_code = _grow(lay_code, stored + live, max_states + cap)
            lay_org = _grow(lay_org, stored + live, max_states + cap)
            if beam > 0:
                lay_val = _grow(lay_val, stored + live, max_states + cap)
        for j in range(live):
            lay_code[stored + j] = code[j]
            lay_org[stored + j] = org[j]
            if beam > 0:
                lay_val[stored + j] = val[j]
            org[j] = stored + j
        stored += live
        if stored > max_states:
            return 0, states, transitions, OVER_BUDGET
    # After the closing empty row every run has ended: one state, code 0, is left.
    position = lay_org[stored - 1]
    for i in range(rows - 1, -1, -1):
        path[i] = lay_code[position]
        if beam > 0:
            scores[i] = lay_val[position]
        position = lay_org[position]
    return val[0], states, transitions, OK
