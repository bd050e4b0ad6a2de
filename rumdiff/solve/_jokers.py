"""The dynamic program over values with a joker dimension and the table's lower limits.

The same DP as ``_dp`` (2015 paper, Section 4: run slots per colour, groups from the
tiles the runs leave, one row of values at a time), with what jokers and the table need
(2015 paper, Section 4.5, generalised; see ``rumdiff.solve.solver``):

- the joint state code holds each colour's run state in ``bits`` bits (the fewest that
  hold F), then the jokers placed so far (``code >> (bits * k)``);
- a colour may extend more slots than it has tiles at a value: each extra slot holds a
  joker, and there are ``m + j`` slots, since a joker may stand for a tile whose m
  copies are all in runs already;
- runs never end short (``rumdiff.solve.runstates.complete_run_states``), so every tile
  and joker a state puts in a run is placed, and scores are exact, not optimistic;
- groups at the end of a row take the tiles the runs leave, the table's among them,
  and any number of jokers (``rumdiff.solve.groups.joker_group_table``); a state whose
  groups cannot hold the table's leftover tiles dies there;
- after the closing row, a state that placed fewer jokers than the table holds dies.

Joint codes may exceed any dense index (F = 120 for m + j = 7), so live states are
found through an open-addressing hash table, cleared after each step.
"""

import numpy as np
from numba import njit

from rumdiff.solve._hash import copied, rehashed, slot
from rumdiff.solve._tiles import NOT_REACHED, OK, OVER_BUDGET


@njit(cache=True)
def joker_dp(
    x, need, values, ahead, jokers, owed, tables, groups, pair, target, budget, path, picks,
    profile,
):  # fmt: skip
    """Best score >= ``target`` of the rows ``x`` with ``jokers`` jokers, ``owed`` of them
    the table's, and at least ``need[i, c]`` tiles of row i and colour c placed.

    Row i holds tiles of value weight ``values[i]``; ``values`` has one more entry for
    the closing row, where no tile or joker may go. ``ahead[i, s]`` bounds from above
    what rows i.. may still add to a state that has placed s jokers (rows + 2 rows: the
    points of every tile there, or ``_joker_bound.joker_ahead``); a state that cannot reach
    ``target`` even so is dropped. ``tables`` are
    ``(first, used, next_state, nonzero)`` of
    :func:`rumdiff.solve.runstates.complete_run_states` and the states one step better
    than each (``rumdiff.solve.jokers``, for :func:`_undominated`), ``groups`` and ``pair`` the
    table and codes of :func:`rumdiff.solve.groups.joker_group_table`. ``budget`` is
    ``(max_states, max_live, beam, dominate)``: with ``beam > 0`` only the ``beam``
    states that may gain the most survive each step (a heuristic: its best is a lower
    bound); with ``dominate``, states that others dominate (:func:`_undominated`) are
    dropped after each row. On
    success ``path[i]`` is the joint code after row i on a best path, and ``picks[i]``
    the jokers it placed there: 3 bits per colour's runs, then 3 bits for the groups.
    ``profile`` (2 by steps, or 2 by 0 for none) receives, per step ``i * (k + 1) + c``,
    the states made and the states kept after the beam (the features' probe reads it).

    Returns ``(best, states, transitions, status)``.
    """
    first, used, next_state, nonzero, upgrades, short = tables
    max_states, max_live, beam, dominate = budget
    rows, k = x.shape
    size = nonzero.shape[0]
    # Each colour's run state takes ``bits`` bits of a code, so digits come out by
    # shifts and masks: divisions by a variable are slow, and there is one per move.
    bits = 1
    while (1 << bits) < size:
        bits += 1
    digit = (1 << bits) - 1
    top = bits * k  # the jokers placed, from this bit on
    low32 = (1 << 32) - 1
    radix = np.empty(k + 1, np.int64)
    for c in range(k + 1):
        radix[c] = 1 << (bits * c)
    pair_radix = np.empty(k, np.int64)
    pair_radix[0] = 1
    for c in range(1, k):
        pair_radix[c] = pair_radix[c - 1] * (pair.shape[0] * (pair.shape[0] + 1) // 2)
    # The most children one state has at one step: a move per slot count, or a group
    # choice per joker count.
    children = jokers + 1
    for cc in range(size):
        children = max(children, (first[cc + 1] - first[cc]) * (jokers + 1))
    made_key = np.empty(children, np.int64)  # one state's children: keys, codes, ...
    made_code = np.empty(children, np.int64)
    made_val = np.empty(children, np.int64)
    made_aux = np.empty(children, np.int64)
    digits = np.empty(k, np.int64)  # the run states of one state, colour by colour
    power = np.empty(k, np.int64)
    power[0] = 1
    for c in range(1, k):
        power[c] = power[c - 1] * (jokers + 1)
    # The hash table: keys (-1 empty), each key's list position, each position's slot.
    # It doubles when half full, up to twice ``max_live``.
    keys = np.full(1 << 12, -1, np.int64)
    places = np.empty(1 << 12, np.int64)
    hashed = np.empty(1 << 12, np.int64)
    # Live states: code, value, leftover tiles of the colours stepped so far, origin.
    cap = 1 << 12
    code = np.empty(cap, np.int64)
    val = np.empty(cap, np.int64)
    aux = np.empty(cap, np.int64)
    org = np.empty(cap, np.int64)
    ncode = np.empty(cap, np.int64)
    nval = np.empty(cap, np.int64)
    naux = np.empty(cap, np.int64)
    norg = np.empty(cap, np.int64)
    lay_code = np.empty(1 << 12, np.int64)
    lay_org = np.empty(1 << 12, np.int64)
    lay_pick = np.empty(1 << 12, np.int64)
    code[0] = 0
    val[0] = 0
    aux[0] = 0
    org[0] = -1
    live = 1
    stored = 0
    states = 0
    transitions = 0
    for i in range(rows + 1):
        v = values[i]
        closing = i == rows
        later = 0
        for c in range(k):
            later += x[i, c] if not closing else 0
        for c in range(k + 1):
            # Steps 0..k-1 move colour c's slots; step k forms the groups.
            xc = x[i, c] if c < k and not closing else 0
            later -= xc
            built = 0
            start = 0
            while start < live:
                # Room for the children of a run of states, made before any is stepped:
                # arrays that grow inside the loop over states would cost reference
                # counts at every state.
                if built + children > max_live:
                    for t in range(built):
                        keys[hashed[t]] = -1
                    return 0, states, transitions, OVER_BUDGET
                while 2 * (built + children) > keys.shape[0]:
                    keys, places, hashed = rehashed(keys, hashed, built)
                while built + children > ncode.shape[0]:
                    size_now = 2 * ncode.shape[0]
                    ncode = copied(ncode, size_now, built)
                    nval = copied(nval, size_now, built)
                    naux = copied(naux, size_now, built)
                    norg = copied(norg, size_now, built)
                room = min(max_live, keys.shape[0] // 2, ncode.shape[0]) - built
                stop = min(live, start + room // children)
                for s in range(start, stop):
                    cj = code[s]
                    vj = val[s]
                    aj = aux[s]
                    spent = cj >> top
                    made = 0  # the children of state s, merged into the new lists below
                    if c < k:
                        cc = (cj >> (bits * c)) & digit
                        hoping = dominate and c == k - 1 and not closing
                        if hoping:
                            for d in range(k):  # once per state, not per move
                                digits[d] = (cj >> (bits * d)) & digit
                        for e in range(first[cc], first[cc + 1]):
                            u = used[e]
                            fewest = max(0, u - xc)
                            if spent + fewest > jokers or (closing and u > 0):
                                break  # moves come in increasing u
                            # A joker may also stand in a run where a tile is at hand (which
                            # then stays unplaced or goes to a group): y jokers, u - y tiles.
                            for y in range(fewest, min(u, jokers - spent) + 1):
                                transitions += 1
                                nv = vj + v * (u - y)
                                left = (aj & 255) + xc - (u - y)
                                if nv + v * (later + left) + ahead[i + 1, spent + y] < target:
                                    continue
                                ccode = cj + (next_state[e] - cc) * radix[c] + (y << top)
                                # The row's jokers per colour so far: 3 bits each from bit 8,
                                # and as a number in base j + 1 from bit 32 (part of the key:
                                # they decide which tiles are left for the groups).
                                na = (aj - (aj & 255)) + left + (y << (8 + 3 * c))
                                na += (y * power[c]) << 32
                                if dominate and not closing:
                                    # Short runs go on at the next values: tiles of the
                                    # colour there, or jokers still free.
                                    ns = next_state[e]
                                    ahead1 = x[i + 1, c] if i + 1 < rows else 0
                                    ahead2 = x[i + 2, c] if i + 2 < rows else 0
                                    lacking = max(0, short[ns, 0] - ahead1)
                                    lacking += max(0, short[ns, 1] - ahead2)
                                    if lacking > jokers - spent - y:
                                        continue
                                if hoping:
                                    # The last colour moved: what the groups can add is known.
                                    # (Written out here: a helper taking arrays costs more.)
                                    digits[c] = next_state[e]
                                    index = 0
                                    for d in range(k):
                                        real = nonzero[digits[d]] - ((na >> (8 + 3 * d)) & 7)
                                        required = max(0, need[i, d] - real)
                                        index += pair[x[i, d] - real, required] * pair_radix[d]
                                    hope = -1
                                    for g in range(jokers - spent - y + 1):
                                        if groups[index, g] >= 0:
                                            gain = v * groups[index, g]
                                            hope = max(hope, gain + ahead[i + 1, spent + y + g])
                                    if hope < 0 or nv + hope < target:
                                        continue
                                made_key[made] = ccode + ((na >> 32) << (top + 3))
                                made_code[made] = ccode
                                made_val[made] = nv
                                made_aux[made] = na
                                made += 1
                    elif closing:
                        if spent >= owed:  # every table joker placed
                            made_key[0] = cj
                            made_code[0] = cj
                            made_val[0] = vj
                            made_aux[0] = 0
                            made = 1
                    else:
                        index = 0
                        for d in range(k):
                            xd = x[i, d]
                            real = nonzero[(cj >> (bits * d)) & digit] - ((aj >> (8 + 3 * d)) & 7)
                            required = max(0, need[i, d] - real)
                            index += pair[xd - real, required] * pair_radix[d]
                        for g in range(jokers - spent + 1):
                            placed = groups[index, g]
                            if placed < 0:
                                continue
                            transitions += 1
                            nv = vj + v * placed
                            if nv + ahead[i + 1, spent + g] < target:
                                continue
                            made_key[made] = cj + (g << top)
                            made_code[made] = cj + (g << top)
                            made_val[made] = nv
                            made_aux[made] = (aj & low32) + (g << (8 + 3 * k)) - (aj & 255)
                            made += 1
                    # Add each child to the new lists, or raise its twin's value there (one
                    # merge site for every kind of step; the hash table is at most half full).
                    mask = keys.shape[0] - 1
                    for t in range(made):
                        key = made_key[t]
                        h = slot(keys, key, mask)
                        if keys[h] == key:
                            pos = places[h]
                            if made_val[t] > nval[pos]:
                                nval[pos] = made_val[t]
                                naux[pos] = made_aux[t]
                                norg[pos] = org[s]
                            continue
                        keys[h] = key
                        places[h] = built
                        hashed[built] = h
                        ncode[built] = made_code[t]
                        nval[built] = made_val[t]
                        naux[built] = made_aux[t]
                        norg[built] = org[s]
                        built += 1
                start = stop
            for s in range(built):
                keys[hashed[s]] = -1
            if ncode.shape[0] > code.shape[0]:
                code = np.empty(ncode.shape[0], np.int64)
                val = np.empty(ncode.shape[0], np.int64)
                aux = np.empty(ncode.shape[0], np.int64)
                org = np.empty(ncode.shape[0], np.int64)
            code, ncode = ncode, code
            val, nval = nval, val
            aux, naux = naux, aux
            org, norg = norg, org
            live = built
            if live == 0:
                return 0, states, transitions, NOT_REACHED
            if beam > 0 and live > beam:
                live = _best(live, beam, v, ahead[i + 1], top, code, val, aux, org)
            if profile.shape[1] > 0:
                profile[0, i * (k + 1) + c] = built
                profile[1, i * (k + 1) + c] = live
        if dominate and not closing:  # (within a row it costs more than it saves)
            live = _undominated(
                live, jokers, owed, radix, upgrades, code, val, aux, org, keys, places
            )
        states += live
        if stored + live > max_states:
            return 0, states, transitions, OVER_BUDGET
        if stored + live > lay_code.shape[0]:
            grow = max(stored + live, 2 * lay_code.shape[0])
            lay_code = copied(lay_code, grow, stored)
            lay_org = copied(lay_org, grow, stored)
            lay_pick = copied(lay_pick, grow, stored)
        for s in range(live):
            lay_code[stored + s] = code[s]
            lay_org[stored + s] = org[s]
            lay_pick[stored + s] = (aux[s] >> 8) & ((1 << 24) - 1)
            aux[s] = 0  # a new row: no leftovers, no jokers placed in it yet
            org[s] = stored + s
        stored += live
    best = 0
    for s in range(1, live):
        if val[s] > val[best]:
            best = s
    position = lay_org[stored - live + best]
    for i in range(rows - 1, -1, -1):
        path[i] = lay_code[position]
        picks[i] = lay_pick[position]
        position = lay_org[position]
    return val[best], states, transitions, OK


@njit(cache=True)
def _best(live, beam, v, ahead, top, code, val, aux, org):
    """Keep about the ``beam`` states of the lists whose value plus their leftovers'
    points at this row (of value ``v``) plus ``ahead[jokers placed]`` (``code >> top``)
    is highest (ties may keep up to twice as many); return their count."""
    hope = np.empty(live, np.int64)
    for s in range(live):
        hope[s] = val[s] + v * (aux[s] & 255) + ahead[code[s] >> top]
    cut = np.partition(hope, live - beam)[live - beam]
    kept = 0
    for s in range(live):
        if hope[s] > cut or (hope[s] == cut and kept < beam):
            code[kept] = code[s]
            val[kept] = val[s]
            aux[kept] = aux[s]
            org[kept] = org[s]
            kept += 1
    return kept


@njit(cache=True)
def _undominated(live, jokers, owed, radix, upgrades, code, val, aux, org, keys, places):
    """Drop the states of a finished row that another state dominates; return how many
    are left.

    State A dominates B when A's value is no less, A has placed as many jokers as B, or
    fewer but at least ``owed`` (B's next moves are A's too), and A's runs are B's or
    one step better in one colour (``upgrades[state]``): a short run longer, or a run of
    length >= 3 in place of a shorter run or an empty slot. Such a run may end at any
    value and take any tile the other takes. ``keys`` is an empty hash table at most
    half full with ``live`` keys; it is left empty.
    """
    k = radix.shape[0] - 1
    bits = 1
    while (1 << bits) < radix[1]:
        bits += 1
    top = bits * k
    mask = keys.shape[0] - 1
    hashed = np.empty(live, np.int64)
    for s in range(live):
        h = slot(keys, code[s], mask)
        keys[h] = code[s]
        places[h] = s
        hashed[s] = h
    beaten = np.zeros(live, np.bool_)
    for s in range(live):
        spent = code[s] >> top
        runs = code[s] & (radix[k] - 1)
        for fewer in range(min(owed, spent), spent + 1):
            other = runs + (fewer << top)
            if fewer < spent:
                h = slot(keys, other, mask)
                if keys[h] == other and val[places[h]] >= val[s]:
                    beaten[s] = True
            for c in range(k):
                cc = (runs >> (bits * c)) & (radix[1] - 1)
                for u in range(upgrades.shape[1]):
                    better = upgrades[cc, u]
                    if better < 0 or beaten[s]:
                        continue
                    key = other + (better - cc) * radix[c]
                    h = slot(keys, key, mask)
                    if keys[h] == key and val[places[h]] >= val[s]:
                        beaten[s] = True
    for s in range(live):
        keys[hashed[s]] = -1
    kept = 0
    for s in range(live):
        if not beaten[s]:
            code[kept] = code[s]
            val[kept] = val[s]
            aux[kept] = aux[s]
            org[kept] = org[s]
            kept += 1
    return kept
