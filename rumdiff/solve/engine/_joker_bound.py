"""Bounds on what the rows ahead of a joker DP state may still add
(``_jokers.joker_pass``'s ``ahead``), tighter than all their tiles' points."""

import numpy as np
from numba import njit


@njit(cache=True)
def reference_ahead(x, values, ahead):
    """Fill ``ahead`` (rows + 2 by jokers + 1) with the reference search's bound, the
    points of every tile in rows i.. whatever the jokers placed, the last two rows 0;
    return the points of every tile (the first pass's target)."""
    rows, k = x.shape
    ahead[rows:, :] = 0
    total = 0
    for i in range(rows - 1, -1, -1):
        for c in range(k):
            total += values[i] * x[i, c]
        ahead[i, :] = total
    return total


@njit(cache=True)
def joker_ahead(x, values, jokers, rows_bound, ahead):
    """Fill ``ahead[i, s]`` (rows + 2 by jokers + 1) with a bound on what rows i.. may
    add to a state that has placed s jokers, tighter than all their tiles' points.

    Take the jokers out of an arrangement: a run falls into stretches of real tiles, and
    those of 3 or more stay valid runs; a group with 3 real tiles or more stays valid.
    What is lost lies beside each joker, in its *window*: tiles of its colour 1 or 2
    values away (one copy each; a run's stretches beside a joker are at most 2 long),
    or at most 2 tiles at its value (a group). So rows i.. hold at most a joker-free
    arrangement's points, ``rows_bound`` per row (``_tiles.row_upper_bounds``), plus a
    window per joker. Likewise, an *isolated* tile (fewer than 3 colours at its value,
    no 3 consecutive values of its colour around it present) is placed only through a
    joker's window, the others counting in full. A joker not yet placed may stand
    anywhere; one placed at row i - 1 or before reaches rows i.. only from rows i - 2
    and i - 1, through a run. The lesser of the two bounds is kept.
    """
    rows, k = x.shape
    alone = np.zeros((rows, k), np.bool_)
    free = np.zeros(rows + 2, np.int64)  # points of the tiles not isolated, rows i..
    plain = np.zeros(rows + 2, np.int64)  # a joker-free arrangement's most, rows i..
    for i in range(rows - 1, -1, -1):
        colours = 0
        for c in range(k):
            colours += x[i, c] > 0
        points = 0
        plain[i] = plain[i + 1] + rows_bound[i]
        ahead[i, :] = ahead[i + 1, 0] + values[i] * x[i].sum()  # all tiles, rows i..
        for c in range(k):
            if x[i, c] == 0:
                continue
            near = 0  # present neighbours in a row, the tile's own row among them
            run = False
            for d in range(-2, 3):
                j = i + d
                if d != 0 and (j < 0 or j >= rows or x[j, c] == 0):
                    near = 0
                else:
                    near += 1
                    run = run or near >= 3
            alone[i, c] = colours < 3 and not run
            if not alone[i, c]:
                points += values[i] * x[i, c]
        free[i] = free[i + 1] + points
    # A joker's window adds to a row no more than the row's tiles beyond its bound.
    excess = np.empty(rows, np.int64)
    for i in range(rows):
        excess[i] = max(0, ahead[i, 0] - ahead[i + 1, 0] - rows_bound[i])
    _lower_to(x * alone, values, free, ahead, ahead[:rows, 0] - ahead[1 : rows + 1, 0])
    _lower_to(x, values, plain, ahead, excess)


@njit(cache=True)
def _lower_to(copies, values, base, ahead, cap):
    """Lower ``ahead[i, s]`` to ``base[i]`` plus what the jokers' windows hold of
    ``copies`` (:func:`joker_ahead`), at most ``cap[row]`` each at a row, if that is less.

    A joker placed at row i - 1 or before adds at most the best window it can reach; the
    ``jokers - s`` others at most the largest ``jokers - s`` of all windows' *layers*
    (layer t: the tiles of which a window holds at least t copies), since a window used
    t times places at most its first t layers."""
    rows = copies.shape[0]
    jokers = ahead.shape[1] - 1
    layers = np.zeros(3 * (copies.shape[1] + 1), np.int64)
    # top[q]: the largest layers of windows wholly within rows q - 2.. (centres >= q).
    top = np.zeros((rows + 3, jokers + 1), np.int64)
    for q in range(rows - 1, -1, -1):
        top[q] = top[q + 1]
        for t in range(_layers(copies, values, cap, q, 0, layers)):
            _insert(top[q], layers[t])
    for i in range(rows + 2):
        best = top[i + 2].copy() if i + 2 <= rows else np.zeros(jokers + 1, np.int64)
        near = 0
        for q in range(max(0, i - 2), min(rows, i + 2)):
            for t in range(_layers(copies, values, cap, q, i, layers)):
                _insert(best, layers[t])
                if q < i:
                    near = max(near, layers[t])
        for s in range(jokers + 1):
            bound = base[i] + s * near + best[: jokers - s].sum()
            ahead[i, s] = min(ahead[i, s], bound)


@njit(cache=True, inline="always")
def _insert(top, value):
    """Put ``value`` into ``top``, kept in decreasing order (its last entry is spare)."""
    for t in range(top.shape[0] - 1):
        if value > top[t]:
            value, top[t] = top[t], value


@njit(cache=True)
def _layers(copies, values, cap, q, low, out):
    """Write the layers of the windows of a joker at row ``q`` within rows ``low``.. to
    ``out``; return how many. A run's window: the tiles of one colour at rows q - 2..q + 2
    but q; a group's: at most 2 tiles at row q. Layer t counts tiles with >= t copies,
    at most ``cap[row]`` at a row."""
    rows, k = copies.shape
    count = 0
    for t in range(1, 4):
        group = 0
        for c in range(k):
            run = 0
            for d in (-2, -1, 1, 2):
                j = q + d
                if low <= j < rows and copies[j, c] >= t:
                    run += min(values[j], cap[j])
            if run > 0:
                out[count] = run
                count += 1
            if q >= low and copies[q, c] >= t:
                group += 1
        if group > 0 and cap[q] > 0:
            out[count] = min(values[q] * min(group, 2), cap[q])
            count += 1
    return count
