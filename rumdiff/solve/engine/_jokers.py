"""The rules of puzzles with jokers or a table: the engine's steps (``_loop``).

The same DP as the joker-free rules (``_plain``: run slots per colour, groups from the
tiles the runs leave, one row of values at a time), with what jokers and the table need
(2015 paper, Section 4.5, generalised; see ``rumdiff.solve.jokers``):

- a state's code holds each colour's run state in ``bits`` bits (the fewest that hold
  F), then the jokers placed so far (``code >> (bits * k)``);
- a colour may extend more slots than it has tiles at a value: each extra slot holds a
  joker, and there are ``m + j`` slots, since a joker may stand for a tile whose m
  copies are all in runs already;
- runs never end short (``rumdiff.solve.runstates.complete_run_states``), so every tile
  and joker a state puts in a run is placed, and scores are exact, not optimistic;
- a row has k + 1 steps: one per colour, then the groups, which take the tiles the runs
  leave, the table's among them, and any number of jokers
  (``rumdiff.solve.groups.joker_group_table``); a state whose groups cannot hold the
  table's leftover tiles dies there;
- after the closing row, a state that placed fewer jokers than the table holds dies;
- under the opening meld's rule (``meld`` points, ``rumdiff.solve.meld``), a code also
  holds the meld's points so far, each tile and joker counted at its face value, up to
  ``meld`` (``code >> (bits * k + 3)``), and after the closing row a state short of
  ``meld`` dies.

While a row's colours step, a state's ``aux`` holds the tiles the colours stepped so far
leave (bits 0-7), the jokers each colour's runs hold (3 bits a colour from bit 8; the
groups' after them) and the same as a number in base j + 1 from bit 32, which is part
of the key: it decides which tiles are left for the groups. At the row's end ``aux``
keeps the jokers placed at the row, for the traceback (``rumdiff.solve.jokers.rebuild``).
"""

import numpy as np
from numba import njit

from rumdiff.solve.engine._loop import (
    AUX,
    CODE,
    FIELDS,
    KEY,
    ORG,
    SLOT,
    VAL,
    borrowed,
    engine_pass,
    merge,
    slot,
)  # fmt: skip
from rumdiff.solve.engine._prune import keep_best

#: ``numbers``: the jokers, those of them the table holds, the target, the beam, whether
#: dominated states are dropped, the bits of a colour's run state in a code, the bit
#: where the jokers placed start, the row's value; the meld's points (0: no meld), the
#: weight a tile has beyond its face value, the bit where a key's row jokers start, the
#: row's face value.
_JOKERS, _OWED, _TARGET, _BEAM, _DOMINATE, _BITS, _TOP, _V, _MELD, _BIG, _KEYS, _FACE = range(12)
_LOW32 = (1 << 32) - 1
#: The jokers placed at a row, as the layer keeps them: 3 bits a colour, then the groups'.
_PICKS = (1 << 24) - 1


@njit(cache=True, inline="always")
def _begin(rules, lists):
    """The start: no runs, no joker placed."""
    lists[0, KEY] = 0
    lists[0, CODE] = 0
    lists[0, VAL] = 0
    lists[0, AUX] = 0
    lists[0, ORG] = -1
    return np.int64(1)


@njit(cache=True, inline="always")
def _begin_row(rules, i, lists, live):
    """A new row: no leftovers, no jokers placed in it yet."""
    numbers = rules[11]
    numbers[_V] = rules[2][i]
    numbers[_FACE] = rules[2][i] - numbers[_BIG] if i < rules[0].shape[0] else 0
    for j in range(live):
        lists[j, AUX] = 0


@njit(cache=True, inline="always")
def _step(rules, i, s, lists, start, stop, out, index, built, limit, work):
    """Steps 0..k-1 move colour s's slots, with tiles or jokers; step k forms the groups.

    A child that cannot reach the target even with every tile still ahead (``ahead``) is
    dropped. With ``dominate`` (the solver's fast path) so is a child whose short runs
    cannot go on (its colour lacks the tiles at the next values, and the jokers left do
    not make up for them), and, once the last colour has moved, one whose best groups
    at this value cannot reach the target (written out here: a helper taking arrays
    costs more).
    """
    x, need, values, ahead, tables, groups, pair, radix, pair_radix, power, digits = rules[:11]
    numbers = rules[11]
    first, used, next_state, nonzero, short = tables[0], tables[1], tables[2], tables[3], tables[5]
    rows, k = x.shape
    jokers = numbers[_JOKERS]
    target = numbers[_TARGET]
    dominate = numbers[_DOMINATE] != 0
    bits = numbers[_BITS]
    top = numbers[_TOP]
    digit = (1 << bits) - 1
    v = numbers[_V]
    meld, face, keys = numbers[_MELD], numbers[_FACE], numbers[_KEYS]
    closing = i == rows
    transitions = 0
    if s < k:
        c = s
        xc = x[i, c] if not closing else 0
        later = 0  # the tiles of the colours after c at this row
        for d in range(c + 1, k):
            later += x[i, d] if not closing else 0
        hoping = dominate and c == k - 1 and not closing
        for j in range(start, stop):
            cj = lists[j, CODE]
            vj = lists[j, VAL]
            aj = lists[j, AUX]
            oj = lists[j, ORG]
            spent = (cj >> top) & 7
            points = cj >> (top + 3)  # the meld's so far (0 without one)
            cc = (cj >> (bits * c)) & digit
            if hoping:
                for d in range(k):  # once per state, not per move
                    digits[d] = (cj >> (bits * d)) & digit
            for e in range(first[cc], first[cc + 1]):
                u = used[e]
                fewest = max(0, u - xc)
                if spent + fewest > jokers or (closing and u > 0):
                    break  # moves come in increasing u
                # A joker may also stand in a run where a tile is at hand (which then
                # stays unplaced or goes to a group): y jokers, u - y tiles.
                for y in range(fewest, min(u, jokers - spent) + 1):
                    transitions += 1
                    nv = vj + v * (u - y)
                    left = (aj & 255) + xc - (u - y)
                    if nv + v * (later + left) + ahead[i + 1, spent + y] < target:
                        continue
                    code = cj + (next_state[e] - cc) * radix[c] + (y << top)
                    if meld > 0:
                        code += (min(meld, points + face * u) - points) << (top + 3)
                    na = (aj - (aj & 255)) + left + (y << (8 + 3 * c))
                    na += (y * power[c]) << 32
                    if dominate and not closing:
                        # Short runs go on at the next values: tiles of the colour there,
                        # or jokers still free.
                        ns = next_state[e]
                        ahead1 = x[i + 1, c] if i + 1 < rows else 0
                        ahead2 = x[i + 2, c] if i + 2 < rows else 0
                        lacking = max(0, short[ns, 0] - ahead1)
                        lacking += max(0, short[ns, 1] - ahead2)
                        if lacking > jokers - spent - y:
                            continue
                    if hoping:
                        # The last colour moved: what the groups can add is known.
                        digits[c] = next_state[e]
                        group = 0
                        for d in range(k):
                            real = nonzero[digits[d]] - ((na >> (8 + 3 * d)) & 7)
                            required = max(0, need[i, d] - real)
                            group += pair[x[i, d] - real, required] * pair_radix[d]
                        hope = -1
                        for g in range(jokers - spent - y + 1):
                            if groups[group, g] >= 0:
                                gain = v * groups[group, g]
                                hope = max(hope, gain + ahead[i + 1, spent + y + g])
                        if hope < 0 or nv + hope < target:
                            continue
                    key = code + ((na >> 32) << keys)
                    built, full = merge(out, index, False, built, limit, key, code, nv, oj, na, 0)
                    if full:
                        work[1] += transitions
                        return built, True
    else:
        owed = numbers[_OWED]
        for j in range(start, stop):
            cj = lists[j, CODE]
            vj = lists[j, VAL]
            aj = lists[j, AUX]
            oj = lists[j, ORG]
            spent = (cj >> top) & 7
            points = cj >> (top + 3)
            if closing:
                if spent >= owed and points >= meld:  # the table's jokers placed, the meld met
                    built, full = merge(out, index, False, built, limit, cj, cj, vj, oj, 0, 0)
                    if full:
                        work[1] += transitions
                        return built, True
                continue
            group = 0
            for d in range(k):
                real = nonzero[(cj >> (bits * d)) & digit] - ((aj >> (8 + 3 * d)) & 7)
                required = max(0, need[i, d] - real)
                group += pair[x[i, d] - real, required] * pair_radix[d]
            for g in range(jokers - spent + 1):
                placed = groups[group, g]
                if placed < 0:
                    continue
                transitions += 1
                nv = vj + v * placed
                if nv + ahead[i + 1, spent + g] < target:
                    continue
                code = cj + (g << top)
                if meld > 0:
                    code += (min(meld, points + face * (placed + g)) - points) << (top + 3)
                na = (aj & _LOW32) + (g << (8 + 3 * k)) - (aj & 255)
                built, full = merge(out, index, False, built, limit, code, code, nv, oj, na, 0)
                if full:
                    work[1] += transitions
                    return built, True
    work[1] += transitions
    return built, False


@njit(cache=True, inline="always")
def _cut(rules, i, s, lists, built):
    """The beam: about the ``beam`` states whose value, plus their leftovers' points at
    this row, plus what the rows ahead may add for the jokers they placed, is highest
    (ties may keep up to twice as many)."""
    numbers = rules[11]
    beam = numbers[_BEAM]
    if beam == 0 or built <= beam:
        return built
    ahead, top, v = rules[3], numbers[_TOP], numbers[_V]
    hope = np.empty(built, np.int64)
    for j in range(built):
        spent = (lists[j, CODE] >> top) & 7
        hope[j] = lists[j, VAL] + v * (lists[j, AUX] & 255) + ahead[i + 1, spent]
    return keep_best(built, beam, hope, lists, np.bool_(False))


@njit(cache=True, inline="always")
def _finish_row(rules, i, lists, live, index):
    """Dominance (the fast path's, not on the closing row), then each state's jokers
    placed at this row kept in ``aux`` for the layer."""
    numbers = rules[11]
    if numbers[_DOMINATE] != 0 and i < rules[0].shape[0]:
        live = _undominated(live, numbers, rules[4][4], lists, index)
    for j in range(live):
        lists[j, AUX] = (lists[j, AUX] >> 8) & _PICKS
    return live


_run_pass = engine_pass(_begin, _begin_row, _step, _cut, _finish_row)


@njit(cache=True)
def _undominated(live, numbers, upgrades, lists, index):
    """Drop the states of a finished row that another state dominates; return how many
    are left.

    State A dominates B when A's value is no less, A has placed as many jokers as B, or
    fewer but at least ``owed`` (B's next moves are A's too), A's runs are B's or one
    step better in one colour (``upgrades[state]``): a short run longer, or a run of
    length >= 3 in place of a shorter run or an empty slot (such a run may end at any
    value and take any tile the other takes), and, under a meld, A has B's points of the
    meld or has met it. ``index`` is the engine's empty hash index, with room for
    ``live`` keys; it is left empty.
    """
    owed, top, bits, meld = numbers[_OWED], numbers[_TOP], numbers[_BITS], numbers[_MELD]
    k = top // bits
    digit = (1 << bits) - 1
    runs_mask = (1 << top) - 1
    for j in range(live):
        h = slot(index, lists[j, CODE])
        index[h, 0] = lists[j, CODE]
        index[h, 1] = j
        lists[j, SLOT] = h
    beaten = np.zeros(live, np.bool_)
    for j in range(live):
        code = lists[j, CODE]
        spent = (code >> top) & 7
        points = code >> (top + 3)
        runs = code & runs_mask
        for met in range(2):  # A with B's points of the meld, then A that has met it
            if met == 1 and points >= meld:
                break
            held = meld if met else points
            for fewer in range(min(owed, spent), spent + 1):
                other = runs + (fewer << top) + (held << (top + 3))
                if other != code:
                    h = slot(index, other)
                    if index[h, 0] == other and lists[index[h, 1], VAL] >= lists[j, VAL]:
                        beaten[j] = True
                for c in range(k):
                    cc = (runs >> (bits * c)) & digit
                    for u in range(upgrades.shape[1]):
                        better = upgrades[cc, u]
                        if better < 0 or beaten[j]:
                            continue
                        key = other + ((better - cc) << (bits * c))
                        h = slot(index, key)
                        if index[h, 0] == key and lists[index[h, 1], VAL] >= lists[j, VAL]:
                            beaten[j] = True
    for j in range(live):
        index[lists[j, SLOT], 0] = -1
    kept = np.int64(0)
    for j in range(live):
        if not beaten[j]:
            for field in range(lists.shape[1]):
                lists[kept, field] = lists[j, field]
            kept += 1
    return kept


@njit(cache=True)
def undominated_states(codes, values, owed, bits, k, meld, upgrades, kept):
    """Set ``kept[t]`` when :func:`_undominated` keeps state t of a finished row (its
    code ``codes[t]``, distinct, and its value ``values[t]``), as a pass with ``owed``
    table jokers, ``k`` colours of ``bits`` bits and a meld of ``meld`` points (0: none)
    would; ``upgrades`` as in :func:`joker_pass`'s ``tables``."""
    live = codes.shape[0]
    numbers = np.zeros(12, np.int64)
    numbers[_OWED], numbers[_BITS], numbers[_TOP], numbers[_MELD] = owed, bits, bits * k, meld
    lists = np.zeros((max(live, 1), FIELDS), np.int64)
    for t in range(live):
        lists[t, CODE] = codes[t]
        lists[t, VAL] = values[t]
        lists[t, ORG] = t  # (the states kept move up the lists, their origin with them)
    width = 16
    while width < 2 * live:
        width *= 2
    index = np.full((width, 2), -1, np.int64)
    kept[:] = False
    for t in range(_undominated(live, numbers, upgrades, lists, index)):
        kept[lists[t, ORG]] = True


@njit(cache=True)
def joker_pass(
    x, need, values, ahead, jokers, owed, meld, tables, groups, pair, target, budget, path,
    picks, profile,
):  # fmt: skip
    """Best score >= ``target`` of the rows ``x`` with ``jokers`` jokers, ``owed`` of them
    the table's, and at least ``need[i, c]`` tiles of row i and colour c placed.

    ``meld`` is ``(points, big)``: with ``points > 0``, only arrangements whose sets are
    worth at least ``points`` at face value, a joker counted as the tile it stands for,
    are scored; a tile of row i weighs ``big`` beyond its face value ``values[i] - big``.
    The caller checks that a key still fits 63 bits (``rumdiff.solve.meld``).

    Row i holds tiles of value weight ``values[i]``; ``values`` has one more entry for
    the closing row, where no tile or joker may go. ``ahead[i, s]`` bounds from above
    what rows i.. may still add to a state that has placed s jokers (rows + 2 rows: the
    points of every tile there, or ``_joker_bound.joker_ahead``); a state that cannot reach
    ``target`` even so is dropped. ``tables`` are
    ``(first, used, next_state, nonzero, upgrades, short)`` of
    :func:`rumdiff.solve.runstates.complete_run_states` and the states one step better
    than each (``joker_rules``, for :func:`_undominated`), ``groups`` and ``pair`` the
    table and codes of :func:`rumdiff.solve.groups.joker_group_table`. ``budget`` is
    ``(max_states, max_live, beam, dominate)``: with ``beam > 0`` only the ``beam``
    states that may gain the most survive each step (a heuristic: its best is a lower
    bound); with ``dominate``, states that others dominate (:func:`_undominated`) are
    dropped after each row. On success ``path[i]`` is the code after row i on a best
    path, and ``picks[i]`` the jokers it placed there: 3 bits per colour's runs, then 3
    bits for the groups. ``profile`` (2 by steps, or 2 by 0 for none) receives, per step
    ``i * (k + 1) + c``, the states made and the states kept after the beam (the
    features' probe reads it).

    Returns ``(best, states, transitions, status)``.
    """
    first, nonzero = tables[0], tables[3]
    max_states, max_live, beam, dominate = budget
    rows, k = x.shape
    size = nonzero.shape[0]
    # Each colour's run state takes ``bits`` bits of a code, so digits come out by
    # shifts and masks: divisions by a variable are slow, and there is one per move.
    bits = 1
    while (1 << bits) < size:
        bits += 1
    radix = np.empty(k + 1, np.int64)
    for c in range(k + 1):
        radix[c] = 1 << (bits * c)
    pair_radix = np.empty(k, np.int64)
    pair_radix[0] = 1
    for c in range(1, k):
        pair_radix[c] = pair_radix[c - 1] * (pair.shape[0] * (pair.shape[0] + 1) // 2)
    power = np.empty(k, np.int64)
    power[0] = 1
    for c in range(1, k):
        power[c] = power[c - 1] * (jokers + 1)
    # The most children one state has at one step: a move per slot count, or a group
    # choice per joker count.
    most = np.int64(jokers + 1)
    for cc in range(size):
        most = max(most, (first[cc + 1] - first[cc]) * (jokers + 1))
    numbers = np.zeros(12, np.int64)
    numbers[_JOKERS] = jokers
    numbers[_OWED] = owed
    numbers[_TARGET] = target
    numbers[_BEAM] = beam
    numbers[_DOMINATE] = dominate
    numbers[_BITS] = bits
    numbers[_TOP] = bits * k
    numbers[_MELD], numbers[_BIG] = meld
    numbers[_KEYS] = bits * k + 3
    while (1 << (numbers[_KEYS] - bits * k - 3)) <= numbers[_MELD]:
        numbers[_KEYS] += 1  # the meld's points take the bits of 0..points
    digits = np.empty(k, np.int64)
    owners = (radix, pair_radix, power, digits, numbers)
    rules = (
        borrowed(x), borrowed(need), borrowed(values), borrowed(ahead),
        (
            borrowed(tables[0]), borrowed(tables[1]), borrowed(tables[2]), borrowed(tables[3]),
            borrowed(tables[4]), borrowed(tables[5]),
        ),
        borrowed(groups), borrowed(pair), borrowed(radix), borrowed(pair_radix),
        borrowed(power), borrowed(digits), borrowed(numbers),
    )  # fmt: skip
    work = np.zeros(2, np.int64)
    best, status = _run_pass(
        rules, owners, rows, k + 1, (most, max_live), 1 << 12, (max_states, max_live), False, False,
        path, picks, profile, work,
    )  # fmt: skip
    return best, work[0], work[1], status
