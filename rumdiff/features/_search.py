"""Cheap searches in the solver's DP for lower bounds, used as features.

Where a segment's lower and upper bounds differ, :func:`greedy_segment` and
:func:`ascent_segment` each build a real arrangement, so their scores are lower bounds
that try to meet the solver's upper bound without paying for its full search;
:func:`bound_search` decides within a budget of nodes whether any arrangement meets it,
pruning by a table :func:`least_drops` fills.
"""

from numba import njit

from rumdiff.solve._tiles import NEG


@njit(cache=True)
def greedy_segment(x, lo, hi, m, gv, tables, floor, gain, move, scratch, usage):
    """A beam search of width 1 in the solver's DP on rows lo..hi-1: its score, or -1.

    At each value keep the one joint run state of best value (optimistic, as the
    solver's DP counts it): per colour the best move for each number u of tiles put in
    runs, then the best combination of u's with groups on the leftovers, found by a
    depth-first search over colours k - 1 down to 0 that skips branches whose bound
    (best moves of the colours left, their tiles all in groups) cannot win; ties keep
    the first combination in that order. -1 when the value falls below
    ``floor[i - lo]``, the solver's pruning threshold. ``usage[i, c]`` receives the
    tiles of colour c the path puts in runs at row i. ``tables`` are the run-state
    tables as the solver takes them; ``gain`` and ``move`` are scratch of shape
    (k, m + 1), ``scratch`` of shape (9, k).
    """
    first, used, next_state, dropped1, dropped2, _ = tables
    k = x.shape[1]
    base = m + 1
    state, top, digit, best_digit = scratch[0], scratch[1], scratch[2], scratch[3]
    partial, index, power, rest, full = scratch[4], scratch[5], scratch[6], scratch[7], scratch[8]
    for c in range(k):
        state[c] = 0
        power[c] = base**c
    val = 0
    for i in range(lo, hi + 1):
        v = i + 1
        spare = 0
        whole = 0
        for c in range(k):
            xc = x[i, c] if i < hi else 0
            top[c] = min(xc, m)
            rest[c] = spare  # the best gains of the colours below c, and their tiles
            full[c] = whole
            most = NEG
            for u in range(base):
                gain[c, u] = NEG
            for e in range(first[state[c]], first[state[c] + 1]):
                u = used[e]
                if u > xc:
                    break
                g = u * v - dropped1[e] * (v - 1) - dropped2[e] * (2 * v - 3)
                if g > gain[c, u]:
                    gain[c, u] = g
                    move[c, u] = e
                most = max(most, g)
            spare += most
            whole += xc * power[c]
        best = NEG
        level = k - 1
        digit[level] = -1
        while level < k:
            c = level
            digit[c] += 1
            if digit[c] > top[c]:
                level += 1
                continue
            xc = x[i, c] if i < hi else 0
            partial[c] = (partial[c + 1] if c + 1 < k else 0) + gain[c, digit[c]]
            index[c] = (index[c + 1] if c + 1 < k else 0) + (xc - digit[c]) * power[c]
            if c == 0:
                total = partial[0] + v * gv[index[0]]
                if total > best:
                    best = total
                    for q in range(k):  # not best_digit[:] = digit (see _plain_passes._copy_rows)
                        best_digit[q] = digit[q]
            elif partial[c] + rest[c] + v * gv[index[c] + full[c]] > best:
                level = c - 1
                digit[level] = -1
        val += best
        if val < floor[i - lo]:
            return -1
        for c in range(k):
            state[c] = next_state[move[c, best_digit[c]]]
            if i < hi:
                usage[i, c] = best_digit[c]
    return val


@njit(cache=True)
def ascent_segment(x, lo, hi, m, gv, tables, source, usage, start, work, back):
    """Score of one round of colour-by-colour best responses on rows lo..hi-1.

    Start from the runs in ``usage`` (``usage[i, c]`` tiles of colour c in runs at row
    i) if ``start``, else from every tile in groups; then colour 0, 1, ..., k - 1 in
    turn take the runs that maximise their own run points plus the group score of
    every value's leftovers, the other colours' runs held fixed: an exact per-colour DP
    over run states whose reward at a value depends on how many tiles the move leaves
    for groups. Every colour ends with its own best response, so the result is the
    score of a real arrangement, a lower bound. Ties keep the first best move (states,
    then moves, in order). ``work`` (2, F) and ``back`` (n + 1, F) are scratch;
    ``source[e]`` is the state move e leaves from.
    """
    first, used, next_state, dropped1, dropped2, _ = tables
    k = x.shape[1]
    size = first.shape[0] - 1
    base = m + 1
    val, nval = work[0], work[1]
    if not start:
        for i in range(lo, hi):
            for c in range(k):
                usage[i, c] = 0
    runs = 0
    for c in range(k):
        power = base**c
        val[:] = NEG
        val[0] = 0
        for i in range(lo, hi + 1):
            v = i + 1
            xc = x[i, c] if i < hi else 0
            others = 0
            if i < hi:
                step = 1
                for d in range(k):
                    if d != c:
                        others += (x[i, d] - usage[i, d]) * step
                    step *= base
            nval[:] = NEG
            for state in range(size):
                if val[state] == NEG:
                    continue
                for e in range(first[state], first[state + 1]):
                    u = used[e]
                    if u > xc:
                        break
                    gain = val[state] + u * v - dropped1[e] * (v - 1) - dropped2[e] * (2 * v - 3)
                    if i < hi:
                        gain += v * gv[others + (xc - u) * power]
                    if gain > nval[next_state[e]]:
                        nval[next_state[e]] = gain
                        back[i - lo, next_state[e]] = e
            for state in range(size):  # not val[:] = nval (see _plain_passes._copy_rows)
                val[state] = nval[state]
        state = 0
        for i in range(hi, lo - 1, -1):
            e = back[i - lo, state]
            v = i + 1
            runs += used[e] * v - dropped1[e] * (v - 1) - dropped2[e] * (2 * v - 3)
            if i < hi:
                usage[i, c] = used[e]
            state = source[e]
    groups = 0
    for i in range(lo, hi):
        index = 0
        for c in range(k):
            index += (x[i, c] - usage[i, c]) * base**c
        groups += (i + 1) * gv[index]
    return runs + groups


@njit(cache=True)
def least_drops(tables, least):
    """Fill ``least[v, x, s]``: the least a move from run state s drops at value v.

    Over the moves of state s that use at most x tiles, the least of ``dropped1 * (v - 1)
    + dropped2 * (2 v - 3)``; ``least`` has shape (n + 2, m + 1, F). Every state has a
    move that uses no tile, so there is always one (2**62 would stand for none). It
    depends on the rules alone, so a stack of puzzles fills it once.
    """
    first, used, _, dropped1, dropped2, _ = tables
    for v in range(least.shape[0]):
        for xc in range(least.shape[1]):
            for s in range(least.shape[2]):
                low = 1 << 62
                e = first[s]
                while e < first[s + 1] and used[e] <= xc:
                    low = min(low, dropped1[e] * (v - 1) + dropped2[e] * (2 * v - 3))
                    e += 1
                least[v, xc, s] = low


@njit(cache=True)
def bound_search(x, lo, hi, m, gv, tables, suffix, target, budget, least, stack):
    """Depth-first search for an arrangement of rows lo..hi-1 scoring at least ``target``.

    The nodes are the reference search's (``rumdiff.solve.engine._search``): one colour's move at
    a time, value by value, groups on each value's leftovers, scores optimistic. Moves
    are tried in decreasing order of the points they earn; a node whose value plus what
    it may still gain (the reference search's bound: later colours' tiles less their
    least drop, leftovers at most what groups take, ``suffix`` for the later values)
    falls below the target is cut. Returns ``(outcome, nodes)``: outcome 1 when an
    arrangement reaches the target, 0 when none can, -1 when ``budget`` nodes did not
    decide. ``least`` is the table :func:`least_drops` fills; ``stack`` is scratch of
    shape (depth + 1, k + 7 + 2 M) with depth (rows + 1) k and M the most moves of a
    state.
    """
    first, used, next_state, dropped1, dropped2, nonzero = tables
    k = x.shape[1]
    rows = hi - lo
    base = m + 1
    depth = (rows + 1) * k
    # Per depth: the k slot states, the value, the next move to try, how many there are;
    # what every move there shares of the bound: the group index and the leftovers of the
    # other colours, the later colours' gain, the weight of this colour in the index;
    # then the moves in the order they are tried.
    at_value, at_next, at_count = k, k + 1, k + 2
    at_index, at_spare, at_later, at_power = k + 3, k + 4, k + 5, k + 6
    moves_at = k + 7
    for c in range(k):
        stack[0, c] = 0
    stack[0, at_value] = 0
    stack[0, at_next] = -1
    nodes = 0
    d = 0
    while True:
        if d == depth:
            return 1, nodes
        i = d // k
        c = d % k
        v = lo + 1 + i
        xc = x[lo + i, c] if i < rows else 0
        if stack[d, at_next] < 0:  # first visit: order this colour's moves
            s = stack[d, c]
            count = 0
            e = first[s]
            while e < first[s + 1] and used[e] <= xc:
                gain = used[e] * v - dropped1[e] * (v - 1) - dropped2[e] * (2 * v - 3)
                at = count
                while at > 0 and stack[d, moves_at + 2 * at - 1] < gain:
                    stack[d, moves_at + 2 * at] = stack[d, moves_at + 2 * at - 2]
                    stack[d, moves_at + 2 * at + 1] = stack[d, moves_at + 2 * at - 1]
                    at -= 1
                stack[d, moves_at + 2 * at] = e
                stack[d, moves_at + 2 * at + 1] = gain
                count += 1
                e += 1
            stack[d, at_next] = 0
            stack[d, at_count] = count
            # The other colours' part of the bound is the same for every move here: the
            # earlier colours have moved at value v, the later ones have not.
            index = 0
            spare = 0
            later = 0
            power = 1
            for q in range(k):
                xq = x[lo + i, q] if i < rows else 0
                if q < c:
                    left = max(xq - nonzero[stack[d, q]], 0)
                    index += left * power
                    spare += left
                elif q == c:
                    stack[d, at_power] = power
                else:
                    index += xq * power
                    later += v * xq - least[v, xq, stack[d, q]]
                power *= base
            stack[d, at_index] = index
            stack[d, at_spare] = spare
            stack[d, at_later] = later
        if stack[d, at_next] >= stack[d, at_count]:
            stack[d, at_next] = -1
            if d == 0:
                return 0, nodes
            d -= 1
            continue
        nodes += 1
        if nodes > budget:
            return -1, nodes
        at = stack[d, at_next]
        stack[d, at_next] = at + 1
        e = stack[d, moves_at + 2 * at]
        value = stack[d, at_value] + stack[d, moves_at + 2 * at + 1]
        # What this node may still gain at value v, then the later values' bounds.
        left = max(xc - nonzero[next_state[e]], 0)
        index = stack[d, at_index] + left * stack[d, at_power]
        groupable = gv[index] if c == k - 1 else min(stack[d, at_spare] + left, gv[index])
        if value + stack[d, at_later] + v * groupable < target - suffix[i + 1]:
            continue
        if c == k - 1:
            value += v * gv[index]
        for q in range(k):
            stack[d + 1, q] = stack[d, q]
        stack[d + 1, c] = next_state[e]
        stack[d + 1, at_value] = value
        stack[d + 1, at_next] = -1
        d += 1
