"""The rules of joker-free puzzles in the fast solver: the engine's steps (``_loop``).

A state holds one run state per colour (``rumdiff.solve.runstates``), packed 5 bits a
colour (its key and its code alike). At each row every colour steps once, in increasing
order of its tiles there (:func:`rumdiff.solve.engine._rows.step_order`); the group score
depends only on the states after the last colour's step (the tiles left for groups are
the copies less the slots in use), so it is added once, when the row ends.
Scores are optimistic (a run ending short gives its tiles back), so a state's value less
the pending points it must lose, plus what the rows ahead may place, bounds anything it
leads to: a state that cannot reach the target so is dropped, at every step. So is a state
another dominates (``_prune``), and with a beam all but the best.

The rows may come in any order of values (``values`` gives each row's, two more entries,
any positive, for the rows after the last); the solver walks them downwards, and two of
its beams and, where that meets the beam's losses sooner, its exact pass upwards
(``rumdiff.solve.engine._plain_passes``).

The rules' data is one tuple of few arrays (each array a hook receives costs two atomic
reference counts a row): ``(x, values, suffix, gv, tables, dominance, counts, per_state,
per_colour, moves, children, cost, numbers)``.
"""

import numpy as np
from numba import njit

from rumdiff.solve.engine._loop import (
    AUX,
    CODE,
    HOPE,
    ORG,
    VAL,
    borrowed,
    compact,
    engine_pass,
    merge,
)
from rumdiff.solve.engine._moves import colour_moves
from rumdiff.solve.engine._prune import (
    dominance_costs,
    keep_best,
    least_losses,
    pending_losses,
    sibling_dominated,
    thin,
)
from rumdiff.solve.engine._rows import leftovers, move_ends, step_order

# Counters and arguments that reach another kernel start as ``np.int64(0)``, not ``0``:
# numba compiles the callee for every argument type it meets while typing the caller,
# and a literal 0 (``Literal[int](0)``, also as an accumulator's first value or inside
# a tuple) costs a whole extra compile (and cache entry) that never runs.

#: Fewer live states are not worth a dominance check (its costs are computed per value).
DOMINANCE_LIVE = 16
#: Lists this long are thinned by dominance between colour steps as well.
CROWDED = 1 << 20
#: Most states the lists of a pass start with room for (they grow as needed).
FIRST_ROOM = 1 << 12
#: Tables per colour and run state (``per_state``): the tiles each state leaves for
#: groups, as a count and as a group-table index; the pending points it must lose; the
#: least the state before the row must lose.
_LEFT_COUNT, _LEFT_INDEX, _PENDING, _LEAST = range(4)
#: Per colour (``per_colour``): the order the colours step in, its inverse, and the group
#: index and tiles of the colours stepped after each; every colour.
_ORDER, _RANK, _AFTER_INDEX, _AFTER_TILES, _EVERY = range(5)
#: Per move (``moves``): its step and gain at the row; per state, one past its last move.
_DELTA, _GAIN, _END = range(3)
#: The children of one state at the last step (``children``): move, state, worth, hope.
_MOVE, _STATE, _WORTH, _HOPE = range(4)
#: ``numbers``: the pass's settings (target, beam, the run state every colour enters
#: with, m), then the row's (its value, those of the two rows before, the least a state
#: must reach after it, whether its dominance costs are computed), then whether the beam
#: has dropped a state yet.
_TARGET, _BEAM, _ENTRY, _M, _V, _PREV, _PREV2, _THRESHOLD, _COSTS, _CUT = range(10)


@njit(cache=True, inline="always")
def _begin(rules, lists):
    """The start: every colour in run state ``entry`` (0: no runs)."""
    k = rules[0].shape[1]
    entry = rules[12][_ENTRY]
    start = 0
    for c in range(k):
        start += entry << (5 * c)
    lists[0, 0] = start
    lists[0, CODE] = start
    lists[0, VAL] = 0
    lists[0, ORG] = -1
    return np.int64(1)


@njit(cache=True, inline="always")
def _begin_row(rules, i, lists, live):
    """The row's tables, and per state the sums over its colours that the bound needs."""
    x, values, suffix, tables, dominance = rules[0], rules[1], rules[2], rules[4], rules[5]
    per_state, per_colour, moves, numbers = rules[7], rules[8], rules[9], rules[12]
    k = x.shape[1]
    m = numbers[_M]
    v = values[i]
    prev = values[i - 1] if i >= 1 else 0
    prev2 = values[i - 2] if i >= 2 else 0
    numbers[_V] = v
    numbers[_PREV] = prev
    numbers[_PREV2] = prev2
    numbers[_THRESHOLD] = numbers[_TARGET] - suffix[i + 1]
    numbers[_COSTS] = 0  # dominance costs, computed when first needed in the row
    order = per_colour[_ORDER]
    leftovers(x, i, m, tables[5], per_state[_LEFT_COUNT], per_state[_LEFT_INDEX])
    pending_losses(x, i, v, prev + v, dominance[1], dominance[2], per_state[_PENDING])
    step_order(
        x, i, m, order, per_colour[_RANK], per_colour[_AFTER_INDEX], per_colour[_AFTER_TILES],
    )  # fmt: skip
    # (The colour stepped first is never a later colour: no least losses needed.)
    least_losses(
        x, i, prev, prev + prev2, tables, per_state[_PENDING], order[1:], per_state[_LEAST]
    )
    # Every move's step and gain at this row, once for all colours (which of them a
    # colour may take depends on its tiles alone: ``counts``).
    colour_moves(m, v, prev, prev + prev2, tables, moves[_DELTA], moves[_GAIN], moves[_END])
    # Per state, sums over the colours that the bound below needs, kept up to date colour
    # step by colour step (they depend on the code alone, so merging never mixes them):
    # the group index and the tiles the colours stepped so far leave, and minus the least
    # the others must lose. Packed: index in bits 0-11 ((m + 1)**k <= 4096), tiles in
    # 12-19, the losses from bit 20.
    least = per_state[_LEAST]
    for j in range(live):
        bj = lists[j, CODE]
        packed = 0
        for later in range(1, k):
            d = order[later]
            packed -= least[d, (bj >> (5 * d)) & 31] << 20
        lists[j, AUX] = packed


@njit(cache=True, inline="always")
def _costs(rules, i):
    """The row's dominance costs (``_prune.dominance_costs``), computed once a row."""
    numbers, cost = rules[12], rules[11]
    if numbers[_COSTS] == 0:
        values = rules[1]
        v, prev = numbers[_V], numbers[_PREV]
        dominance_costs(rules[5], prev, v, values[i + 1], values[i + 2], cost)
        numbers[_COSTS] = 1
    return cost


@njit(cache=True, inline="always")
def _step(rules, i, s, lists, start, stop, out, index, built, limit, work):
    """The moves of colour ``order[s]`` from states ``start..stop - 1``, filed into ``out``.

    The most a state can still gain at this value, beyond colour c's move: later colours
    place at most all their tiles, less what they must drop; earlier colours' leftovers at
    most what groups can take. At the last colour step of a row of an exact pass, a
    state's children that a sibling dominates are dropped
    (:func:`rumdiff.solve.engine._prune.sibling_dominated`): on 30 G(4, 3, 100) puzzles the
    dominance check then meets 0.57 million states instead of 1.05 million (counted once,
    with a counter added to ``mark_dominated``; no script prints it).
    """
    x, gv, first, counts = rules[0], rules[3], rules[4][0], rules[6]
    per_state, per_colour, moves, kids, numbers = rules[7], rules[8], rules[9], rules[10], rules[12]
    # (No row views here: each would be one more reference counted a step.)
    rows, k = x.shape
    v = numbers[_V]
    threshold = numbers[_THRESHOLD]
    c = per_colour[_ORDER, s]
    after_index = per_colour[_AFTER_INDEX, c]
    after_tiles = per_colour[_AFTER_TILES, c]
    xc = x[i, c] if i < rows else 0
    shift = 5 * c
    # Children dominated by a sibling are dropped at the last step of exact passes only:
    # a dropped child no longer dominates the states that differ from it in another
    # colour, and in a beam pass those take places in the beam. (Beam passes too:
    # G(6, 3, 100) fixed, seed 1, ran 6.2 million transitions more on 10 puzzles (16.0
    # million, not 9.8), one beam missing an optimum; 300 simplex G(6, 3, 200), 8% more
    # states.)
    last = s == k - 1 and k > 1 and numbers[_BEAM] == 0
    cost = rules[11]  # (computed by the cut before this step: no call here, see _loop)
    following = per_colour[_ORDER, s + 1] if s + 1 < k else 0
    transitions = 0
    for j in range(start, stop):
        bj = lists[j, CODE]
        cc = (bj >> shift) & 31
        vj = lists[j, VAL]
        oj = lists[j, ORG]
        sj = lists[j, AUX]
        done_index = after_index + (sj & 4095)
        done_tiles = (sj >> 12) & 255
        rest = v * after_tiles + (sj >> 20)
        if s + 1 < k:  # the following colour's losses leave the sum
            sj += per_state[_LEAST, following, (bj >> (5 * following)) & 31] << 20
        end = counts[cc, xc]
        transitions += end - first[cc]
        children = 0
        for e in range(first[cc], end):
            delta = moves[_DELTA, e]
            nc = cc + delta
            nv = vj + moves[_GAIN, e]
            groups = gv[done_index + per_state[_LEFT_INDEX, c, nc]]
            hope = rest + v * min(done_tiles + per_state[_LEFT_COUNT, c, nc], groups)
            hope -= per_state[_PENDING, c, nc]
            if nv + hope < threshold:
                continue
            if last:  # the children of one state: written below
                kids[_MOVE, children] = e
                kids[_STATE, children] = nc
                kids[_WORTH, children] = nv + v * groups
                kids[_HOPE, children] = hope
                children += 1
                continue
            nb = bj + (delta << shift)
            ns = (
                sj
                + per_state[_LEFT_INDEX, c, nc]
                + (per_state[_LEFT_COUNT, c, nc] << 12)
                - (per_state[_PENDING, c, nc] << 20)
            )
            built, full = merge(out, index, False, built, limit, nb, nb, nv, oj, ns, hope)
            if full:
                work[1] += transitions
                return built, True
        for a in range(children):
            # At the last step the children of one state differ in colour c alone, and
            # their groups at this value are known: one that another dominates (as in
            # ``_prune.mark_dominated``) never joins the lists.
            if sibling_dominated(a, children, kids, _STATE, _WORTH, cost):
                continue
            e = kids[_MOVE, a]
            nb = bj + (moves[_DELTA, e] << shift)
            nv = vj + moves[_GAIN, e]
            # (No sums: the row ends here.)
            built, full = merge(out, index, False, built, limit, nb, nb, nv, oj, 0, kids[_HOPE, a])
            if full:
                work[1] += transitions
                return built, True
    work[1] += transitions
    return built, False


@njit(cache=True, inline="always")
def _cut(rules, i, s, lists, built):
    """Between colour steps: a crowded list of an exact pass is thinned by dominance, among
    states that put as many tiles in runs at this value (so their groups are equal); a
    beam keeps the states whose value plus what they may still gain at this value is
    highest."""
    k = rules[0].shape[1]
    beam = rules[12][_BEAM]
    if beam == 0 and s == k - 2:
        _costs(rules, i)  # for the last step's siblings (_step)
    if beam == 0 and built >= CROWDED and s + 1 < k:
        cost = _costs(rules, i)
        order = rules[8][_ORDER]
        built = thin(built, order[: s + 1], np.bool_(True), cost, rules[4][5], lists)
    if beam > 0 and built > beam:
        rules[12][_CUT] = 1
        for j in range(built):
            lists[j, HOPE] += lists[j, VAL]
        built = keep_best(built, beam, lists[:, HOPE], lists, np.bool_(True))
    return built


@njit(cache=True, inline="always")
def _finish_row(rules, i, lists, live, index):
    """Groups from the tiles the states leave over; then dominance, the beam, and each
    state's value kept in ``aux`` for the layer."""
    x, gv, per_state, numbers = rules[0], rules[3], rules[7], rules[12]
    left_index, pending = per_state[_LEFT_INDEX], per_state[_PENDING]
    k = x.shape[1]
    beam = numbers[_BEAM]
    v = numbers[_V]
    threshold = numbers[_THRESHOLD]
    kept = np.int64(0)
    for j in range(live):
        bj = lists[j, CODE]
        group = 0
        loss = 0
        for c in range(k):
            cc = (bj >> (5 * c)) & 31
            group += left_index[c, cc]
            loss += pending[c, cc]
        nv = lists[j, VAL] + v * gv[group]
        if nv - loss >= threshold:
            compact(lists, j, kept)
            lists[kept, VAL] = nv
            kept += 1
    live = kept
    if live >= DOMINANCE_LIVE and k > 1:
        cost = _costs(rules, i)
        live = thin(live, rules[8][_EVERY], np.bool_(False), cost, rules[4][5], lists)
    if beam > 0 and live > beam:
        numbers[_CUT] = 1
        live = keep_best(live, beam, lists[:, VAL], lists, np.bool_(True))
    for j in range(live):
        lists[j, AUX] = lists[j, VAL]
    return live


_run_pass = engine_pass(_begin, _begin_row, _step, _cut, _finish_row)


@njit(cache=True)
def plain_pass(x, values, m, tables, dominance, gv, suffix, target, limits, entry, path, scores):
    """Best score >= ``target`` of the rows ``x``, row i holding tiles of value
    ``values[i]`` (two more entries, any positive, stand for the rows after the last).

    ``tables`` holds the run-state tables ``(first, used, next_state, dropped1,
    dropped2, nonzero)`` of ``rumdiff.solve.runstates.RunStates``; ``dominance`` the
    tables of ``rumdiff.solve.runstates.dominance``; ``limits`` is
    ``(beam, max_states, max_live)``; the colours step by increasing tiles at each row
    (:func:`step_order`).

    ``suffix[i]`` bounds the points placeable at rows i and later; a state whose
    optimistic value, less the pending points it must lose, plus ``suffix[i + 1]``
    falls below ``target`` is dropped, and so is a state another one dominates. With
    ``beam > 0`` only the best ``beam`` states per value survive (a heuristic, so the
    order of the colours changes what it finds; without a beam it changes only the
    work). The rows start from run state ``entry`` in every colour (0: no runs). On
    success ``path[i]`` is the state code (5 bits a colour) after row i on a best path
    and, after a beam pass, ``scores[i]`` its DP value there.

    Returns ``(best, states, transitions, status, cut)``: ``cut`` is whether the beam
    dropped a state. A beam that dropped none dropped only what an exact pass may drop
    (states that cannot reach the target, and states another one dominates), so its pass
    was exact: its best is the optimum, and a pass that reached no state proves that
    none reaches the target.
    """
    beam, max_states, max_live = limits
    rows, k = x.shape
    first = tables[0]
    size = first.shape[0] - 1
    most_moves = np.int64(1)
    for cc in range(size):
        most_moves = max(most_moves, first[cc + 1] - first[cc])
    numbers = np.zeros(10, np.int64)
    numbers[_TARGET] = target
    numbers[_BEAM] = beam
    numbers[_ENTRY] = entry
    numbers[_M] = m
    per_colour = np.empty((5, k), np.int64)
    per_colour[_EVERY] = np.arange(k)
    counts = move_ends(tables, m)
    per_state = np.empty((4, k, size), np.int64)
    moves = np.empty((3, first[size]), np.int64)
    kids = np.empty((4, most_moves), np.int64)
    cost = np.empty((size, size), np.int64)
    owners = (per_colour, counts, per_state, moves, kids, cost, numbers)
    dominance = (borrowed(dominance[0]), borrowed(dominance[1]), borrowed(dominance[2]))
    tables = (
        borrowed(tables[0]), borrowed(tables[1]), borrowed(tables[2]), borrowed(tables[3]),
        borrowed(tables[4]), borrowed(tables[5]),
    )  # fmt: skip
    rules = (
        borrowed(x), borrowed(values), borrowed(suffix), borrowed(gv), tables, dominance,
        borrowed(counts), borrowed(per_state), borrowed(per_colour), borrowed(moves),
        borrowed(kids), borrowed(cost), borrowed(numbers),
    )  # fmt: skip
    joint = np.int64(size)  # the joint states: the most distinct keys a step files
    for _ in range(1, k):
        joint *= size
    work = np.zeros(2, np.int64)
    best, status = _run_pass(
        rules, owners, rows, k, (most_moves, joint), min(joint, FIRST_ROOM), (max_states, max_live),
        False, False, path, scores, np.zeros((2, 0), np.int64), work,
    )  # fmt: skip
    return best, work[0], work[1], status, numbers[_CUT] == 1
