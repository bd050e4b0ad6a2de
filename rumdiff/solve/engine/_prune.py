"""What the fast solver's joker-free passes (the plain rules, ``_plain``) prune with:
the pending points a run state must lose, dominance between run states
(``rumdiff.solve.runstates.dominance``), and the beam's cut, which the jokers' rules
(``_jokers``) share.
"""

import numpy as np
from numba import njit

from rumdiff.solve.engine._loop import CODE, VAL, compact


@njit(cache=True)
def pending_losses(x, i, one, two, ones, twos, pending):
    """The least pending points each colour's run state after row i must lose: a run
    of length 2 (pending points ``two``) completes only with a tile at the next row, one
    of length 1 (``one``) only with tiles at the next two, and the colour has just so
    many."""
    rows, k = x.shape
    for c in range(k):
        t1 = x[i + 1, c] if i + 1 < rows else 0
        t2 = x[i + 2, c] if i + 2 < rows else 0
        for cc in range(ones.shape[0]):
            saved2 = min(twos[cc], t1)
            saved1 = min(ones[cc], t1 - saved2, t2)
            pending[c, cc] = (twos[cc] - saved2) * two + (ones[cc] - saved1) * one


@njit(cache=True)
def least_losses(x, i, lost1, lost2, tables, pending, colours, least):
    """The least points the state before row i of each of ``colours`` must lose,
    whatever it does there: the pending points of the runs its move ends short
    (``lost1`` for a run of length 1, ``lost2`` for one of length 2) plus what the state
    it moves to must lose later (``pending``, from :func:`pending_losses`)."""
    first, used, next_state, dropped1, dropped2, _ = tables
    rows = x.shape[0]
    for c in colours:
        xc = x[i, c] if i < rows else 0
        for cc in range(first.shape[0] - 1):
            fewest = 1 << 62
            e = first[cc]
            while e < first[cc + 1] and used[e] <= xc:
                loss = dropped1[e] * lost1 + dropped2[e] * lost2
                fewest = min(fewest, loss + pending[c, next_state[e]])
                e += 1
            least[c, cc] = fewest


@njit(cache=True)
def dominance_costs(dominance, prev, v, after, later, out):
    """Each dominance cost at a row of value v (``prev``, ``after`` and ``later`` the
    values of the rows before and after), as a matrix: ``out[a, b]`` is what state a
    must score above state b to dominate it.

    The multiples (``dominance[0]``) are dense, so this is a loop over contiguous rows
    that the compiler vectorises; it runs once per row and pass."""
    multiples = dominance[0]
    by_prev, by_v, by_after, by_later = multiples[0], multiples[1], multiples[2], multiples[3]
    size = out.shape[0]
    for a in range(size):
        for b in range(size):
            out[a, b] = (
                by_prev[a, b] * prev
                + by_v[a, b] * v
                + by_after[a, b] * after
                + by_later[a, b] * later
            )
    for b in range(size):
        out[b, b] = 1 << 62  # never read: a state is never compared with itself


#: Multiplier of the hash that files states by their other colours (Fibonacci hashing).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def mark_dominated(live, colours, same_used, cost, nonzero, bits, val):
    """Which of the ``live`` states another one dominates after value v, the two
    differing only in one of ``colours`` (an array of colours; see
    ``rumdiff.solve.runstates.dominance``, ``cost`` from :func:`dominance_costs`). With
    ``same_used`` only states putting as many tiles in runs at v are compared: the
    others' groups at v are still to come.

    Per colour, the states are filed in a small hash table by their other colours, so
    only states that differ in that colour alone meet. (Looking each possible dominator
    up in the index of all F**k joint states instead misses the cache so often that the
    solver ran about a fifth slower on G(5, 3, 100).) A dominated state still counts as
    a dominator: what dominates it dominates the other one too, and with positive values
    no two states dominate each other.
    """
    dead = np.zeros(live, np.bool_)
    width = 16
    lg = 4
    while width < 2 * live:
        width *= 2
        lg += 1
    drop = np.uint64(64 - lg)
    head = np.full(width, -1, np.int32)  # 4 bytes: width < 4 * config.MAX_LIVE_STATES < 2**31
    chain = np.empty(live, np.int32)
    slot = np.empty(live, np.int32)
    for c in colours:
        shift = 5 * c
        mask = ~(31 << shift)
        for j in range(live):
            h = np.int64((np.uint64(bits[j] & mask) * _GOLDEN) >> drop)
            slot[j] = h
            chain[j] = head[h]
            head[h] = j
        for j in range(live):
            if dead[j]:
                continue
            bj = bits[j]
            key = bj & mask
            cj = (bj >> shift) & 31
            vj = val[j]
            i = head[slot[j]]
            while i >= 0:
                bi = bits[i]
                if i != j and bi & mask == key:
                    ci = (bi >> shift) & 31
                    if val[i] >= vj + cost[ci, cj] and (
                        not same_used or nonzero[ci] == nonzero[cj]
                    ):
                        dead[j] = True
                        break
                i = chain[i]
        for j in range(live):
            head[slot[j]] = -1
    return dead


@njit(cache=True)
def thin(live, colours, same_used, cost, nonzero, lists):
    """Drop the dominated entries (:func:`mark_dominated`) from the engine's state
    ``lists`` (``rumdiff.solve.engine._loop``), whose codes hold 5 bits a colour; return how
    many entries are left."""
    dead = mark_dominated(live, colours, same_used, cost, nonzero, lists[:, CODE], lists[:, VAL])
    kept = np.int64(0)
    for j in range(live):
        if not dead[j]:
            compact(lists, j, kept)
            kept += 1
    return kept


@njit(cache=True, inline="always")
def sibling_dominated(b, count, children, state, worth, cost):
    """Whether another of ``count`` states differing in one colour only dominates
    state b: in the table ``children``, row ``state`` holds each one's run state there and
    row ``worth`` its value with this row's groups; the other must score at least
    ``cost[its state, b's state]`` more (see :func:`mark_dominated`; no two states
    dominate each other)."""
    for a in range(count):
        if (
            a != b
            and children[worth, a]
            >= children[worth, b] + cost[children[state, a], children[state, b]]
        ):
            return True
    return False


@njit(cache=True)
def kth_smallest(a, kth):
    """``np.partition(a, kth)[kth]``, reordering ``a`` in place: a quickselect (median of
    three, three-way split). np.partition compiles some 30 more functions (sorting, its
    argument checks and their error messages): about 5 s on an empty cache."""
    lo = 0
    hi = a.shape[0] - 1
    while lo < hi:
        x = a[lo]
        y = a[(lo + hi) >> 1]
        z = a[hi]
        pivot = max(min(x, y), min(max(x, y), z))
        lt = lo
        i = lo
        gt = hi
        while i <= gt:
            ai = a[i]
            if ai < pivot:
                a[i] = a[lt]
                a[lt] = ai
                lt += 1
                i += 1
            elif ai > pivot:
                a[i] = a[gt]
                a[gt] = ai
                gt -= 1
            else:
                i += 1
        if kth < lt:
            hi = lt - 1
        elif kth > gt:
            lo = gt + 1
        else:
            return pivot
    return a[kth]


@njit(cache=True)
def keep_best(live, beam, rank, lists, exact):
    """Keep the entries of the state ``lists`` with the largest ``rank`` (the lists' own
    field, or an array beside them): those above the ``beam``-th largest rank, and of
    those equal to it, in list order, exactly enough for ``beam`` entries (``exact``) or
    each one met while fewer than ``beam`` are kept (the joker rules'). Returns how many
    are kept."""
    cut = kth_smallest(rank[:live].copy(), live - beam)
    ties = beam
    for j in range(live):
        if rank[j] > cut:
            ties -= 1
    kept = np.int64(0)
    for j in range(live):
        if rank[j] > cut or (rank[j] == cut and (ties > 0 if exact else kept < beam)):
            if rank[j] == cut:
                ties -= 1
            compact(lists, j, kept)
            kept += 1
    return kept
