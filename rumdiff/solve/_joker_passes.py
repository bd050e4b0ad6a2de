"""The fast solver's passes of the joker DP (``_jokers.joker_pass``), in one kernel call:
beams for a lower bound, then an exact pass (docs/decisions/jokers.md, "The fast path of
``solve``")."""

import numpy as np
from numba import njit

from rumdiff.solve._engine import NOT_REACHED, OK, OVER_BUDGET
from rumdiff.solve._joker_bound import joker_ahead
from rumdiff.solve._jokers import joker_pass
from rumdiff.solve._tiles import row_upper_bounds

#: How much wider the second beam of :func:`joker_search` is when the first finds none.
WIDER = 4


@njit(cache=True)
def joker_search(
    x, need, values, jokers, owed, meld, tables, groups, pair, gv, m, lower, budget, path, work
):
    """The solver's passes of :func:`joker_pass`, all in one call: the best score, or 0
    with ``NOT_REACHED`` (no arrangement places the table) or ``OVER_BUDGET``.

    Passes prune by :func:`joker_ahead` (``gv`` the group values of
    ``rumdiff.solve.groups.group_value_table(k, m)`` for its row bounds) and drop
    dominated states. A beam pass (``budget = (max_states, max_live, beam)``), retried
    ``WIDER`` times wider when it places no arrangement, gives a lower bound, or
    ``lower`` (-1: none) does; if it meets the bound, no exact pass is needed, else an
    exact pass aimed at it finds the optimum (without a lower bound: one aimed at the
    bound, then one aimed at 0). ``meld`` is :func:`joker_pass`'s. ``path`` receives the
    best path (as ``path, picks`` of :func:`joker_pass`), ``work`` adds states,
    transitions and exact passes.
    """
    max_states, max_live, beam = budget
    rows = x.shape[0]
    bound = np.zeros(rows, np.int64)
    row_upper_bounds(x, gv, m, values, bound)
    ahead = np.zeros((rows + 2, jokers + 1), np.int64)
    joker_ahead(x, values, jokers, bound, ahead)
    high = ahead[0, 0]
    work[3] = high
    trial = np.zeros((2, rows), np.int64)
    unprofiled = np.zeros((2, 0), np.int64)
    low, status, width = -1, NOT_REACHED, beam
    for _ in range(2 if beam > 0 else 0):
        low, states, transitions, status = joker_pass(
            x, need, values, ahead, jokers, owed, meld, tables, groups, pair, 0,
            (max_states, max_live, width, True), trial[0], trial[1], unprofiled,
        )  # fmt: skip
        work[0] += states
        work[1] += transitions
        if status == OK:
            path[:] = trial
        if status != NOT_REACHED:
            break
        width *= WIDER  # a beam too narrow to place the table
    if status != OK:
        low = -1
    if lower > low:
        low, status = lower, NOT_REACHED  # (its path is not this DP's)
    if low == high and status == OK:
        return low, OK
    # With the beam's arrangement in hand, only a better one is sought: the pass prunes
    # harder, and when it finds none, the beam's was the best.
    found = status == OK
    aim = high if low < 0 else low + 1 if found else low
    while True:
        best, states, transitions, status = joker_pass(
            x, need, values, ahead, jokers, owed, meld, tables, groups, pair, aim,
            (max_states, max_live, 0, True), trial[0], trial[1], unprofiled,
        )  # fmt: skip
        work[0] += states
        work[1] += transitions
        work[2] += 1
        if status == OK:
            path[:] = trial
            return best, OK
        if status == OVER_BUDGET:
            return 0, OVER_BUDGET
        if found:
            return low, OK
        if aim == max(low, 0):
            return 0, NOT_REACHED
        aim = 0
