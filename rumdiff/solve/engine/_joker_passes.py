"""The fast solver's passes of the joker DP (``_jokers.joker_pass``), in one kernel call:
beams for a lower bound, then exact passes that start small and grow, each that runs out
of room followed by a wider beam (docs/decisions/jokers.md, "The fast path of
``solve``")."""

import numpy as np
from numba import njit

from rumdiff.solve._tiles import row_upper_bounds
from rumdiff.solve.engine._joker_bound import joker_ahead
from rumdiff.solve.engine._jokers import joker_pass
from rumdiff.solve.engine._loop import NOT_REACHED, OK, OVER_BUDGET

#: How much wider each beam of :func:`joker_search` is than the one before, and how many
#: times more live states each exact pass may keep.
WIDER = 4


@njit(cache=True, inline="always")
def _counted_pass(rules, aim, budget, path, trial, unprofiled, work):
    """One :func:`joker_pass` (``rules``: its arguments up to ``pair``) aimed at ``aim``:
    ``(best, states, status)``; its states and transitions are added to ``work``, and the
    path it found, if any, copied to ``path``."""
    x, need, values, ahead, jokers, owed, meld, tables, groups, pair = rules
    best, states, transitions, status = joker_pass(
        x, need, values, ahead, jokers, owed, meld, tables, groups, pair, aim, budget,
        trial[0], trial[1], unprofiled,
    )  # fmt: skip
    work[0] += states
    work[1] += transitions
    if status == OK:
        path[:] = trial
    return best, states, status


@njit(cache=True)
def joker_search(
    x, need, values, jokers, owed, meld, tables, groups, pair, gv, m, lower, budget, path, work
):
    """The solver's passes of :func:`joker_pass`, all in one call: the best score, or 0
    with ``NOT_REACHED`` (no arrangement places the table) or ``OVER_BUDGET``.

    Passes prune by :func:`joker_ahead` (``gv`` the group values of
    ``rumdiff.solve.groups.group_value_table(k, m)`` for its row bounds) and drop
    dominated states. A beam pass (``budget = (max_states, max_live, beam, live)``),
    retried ``WIDER`` times wider when it places no arrangement, gives a lower bound, or
    ``lower`` (-1: none), a score known to be reachable, does; if it meets the bound, no
    exact pass is needed. Else an exact pass aims just above the lower bound (without
    one: at the bound, then at 0), keeping at most ``live`` states alive at once; when
    it runs out of room, a beam ``WIDER`` times wider aims above the lower bound too (a
    better lower bound prunes the next pass harder) and the exact pass runs again with
    ``WIDER`` times the room, up to ``max_live``. ``meld`` is :func:`joker_pass`'s.
    ``path`` receives the best path (as ``path, picks`` of :func:`joker_pass`), ``work``
    adds states, transitions and exact passes, and gets the bound in ``work[3]`` and, in
    ``work[4]``, 1 when the best is ``lower`` and no pass traced it (its arrangement is
    the caller's).
    """
    max_states, max_live, beam, live = budget
    rows = x.shape[0]
    bound = np.zeros(rows, np.int64)
    row_upper_bounds(x, gv, m, values, bound)
    ahead = np.zeros((rows + 2, jokers + 1), np.int64)
    joker_ahead(x, values, jokers, bound, ahead)
    high = ahead[0, 0]
    work[3] = high
    work[4] = 0
    trial = np.zeros((2, rows), np.int64)
    unprofiled = np.zeros((2, 0), np.int64)
    rules = (x, need, values, ahead, jokers, owed, meld, tables, groups, pair)
    low, status, width = -1, NOT_REACHED, beam
    for _ in range(2 if beam > 0 else 0):
        low, _, status = _counted_pass(
            rules, 0, (max_states, max_live, width, True), path, trial, unprofiled, work
        )
        if status != NOT_REACHED:
            break
        width *= WIDER  # a beam too narrow to place the table
    found = status == OK  # the lower bound's arrangement is on ``path``
    if not found:
        low = -1
    if lower > low:
        low, found = lower, False
    if low >= high and found:
        return low, OK
    # With a lower bound in hand, only a better arrangement is sought: the pass prunes
    # harder, and when it finds none, the lower bound was the best.
    aim = high if low < 0 else low + 1
    live = min(max(live, 1), max_live)
    while True:
        best, states, status = _counted_pass(
            rules, aim, (max_states, live, 0, True), path, trial, unprofiled, work
        )
        work[2] += 1
        if status == OK:
            return best, OK
        if status == NOT_REACHED:
            if low >= 0:
                work[4] = not found
                return low, OK
            if aim == 0:
                return 0, NOT_REACHED
            aim = 0  # nothing reaches the bound: seek any arrangement
            continue
        if states > max_states:
            return 0, OVER_BUDGET
        grown = live < max_live
        live = min(live * WIDER, max_live)
        # At full room the exact pass is only run again once a wider beam has raised the
        # lower bound: the beam widens until it does, or is as wide as the room.
        raised = False
        while beam > 0 and low >= 0 and width < max_live and not raised:
            width *= WIDER
            better, _, status = _counted_pass(
                rules, aim, (max_states, max_live, width, True), path, trial, unprofiled, work
            )
            if status == OK:
                low, found, raised = better, True, True
                if low >= high:
                    return low, OK
                aim = low + 1
            if grown or status == OVER_BUDGET:
                break
        if not grown and not raised:
            return 0, OVER_BUDGET
