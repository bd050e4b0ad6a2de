"""Per-value move tables of the reference search (``_search``): what each colour's
run-slot moves earn at a value, and what a state may still gain (the pruning bound).

Part of the fixed definition of the search effort (docs/search-effort.md).
"""

import numpy as np
from numba import njit


@njit(cache=True)
def value_tables(x, i, v, m, tables, left_index, least_loss, after_index, after_tiles):
    """Per colour and run state at value v (row i, the closing row when i == rows): the
    group index of the tiles left for groups, and the least points any move must drop;
    per colour, the group index and tile count of the later colours."""
    first, used, _, dropped1, dropped2, nonzero = tables
    rows, k = x.shape
    base = m + 1
    power = 1
    for c in range(k):
        xc = x[i, c] if i < rows else 0
        for cc in range(nonzero.shape[0]):
            left_index[c, cc] = max(xc - nonzero[cc], 0) * power
            least = 1 << 62
            e = first[cc]
            while e < first[cc + 1] and used[e] <= xc:
                least = min(least, dropped1[e] * (v - 1) + dropped2[e] * (2 * v - 3))
                e += 1
            least_loss[c, cc] = least
        power *= base
    later_index = 0
    later_tiles = 0
    for c in range(k - 1, -1, -1):
        after_index[c] = later_index
        after_tiles[c] = later_tiles
        xc = x[i, c] if i < rows else 0
        later_index += xc * base**c
        later_tiles += xc


@njit(cache=True)
def colour_moves(xc, v, lost1, lost2, tables, move_delta, move_gain, move_end):
    """The moves a colour with ``xc`` tiles at a row of value v allows: from state cc,
    moves ``first[cc]`` to ``move_end[cc] - 1``, each a state step and the points it
    earns (its tiles) less the pending points of the runs it ends short (``lost1`` for
    a run of length 1, ``lost2`` for one of length 2: v - 1 and 2v - 3 when the values
    go up one by one, as in the reference search)."""
    first, used, next_state, dropped1, dropped2, _ = tables
    for cc in range(first.shape[0] - 1):
        e = first[cc]
        while e < first[cc + 1] and used[e] <= xc:
            move_delta[e] = next_state[e] - cc
            move_gain[e] = used[e] * v - dropped1[e] * lost1 - dropped2[e] * lost2
            e += 1
        move_end[cc] = e


@njit(cache=True)
def hope_by_group(c, v, base, after_index, after_tiles, digits, gv, hope):
    """What a state may still gain at value v after colour c's step, by the group index
    g of the done colours' leftovers: the later colours' tiles, and at most what groups
    of those leftovers (with the later colours' tiles) can take."""
    for g in range(base ** (c + 1)):
        hope[g] = v * (after_tiles[c] + min(digits[g], gv[after_index[c] + g]))


@njit(cache=True)
def digit_sums(base, groups):
    """Tiles in each group index (the digit sum in base ``base``)."""
    digits = np.zeros(groups, np.int64)
    for g in range(1, groups):
        digits[g] = digits[g // base] + g % base
    return digits


@njit(cache=True)
def move_scratch(k, m, tables):
    """The arrays :func:`value_tables`, :func:`colour_moves` and :func:`hope_by_group`
    fill, for k colours: move steps, gains and ends; leftovers' group indices and least
    losses per colour and state; the later colours' group index and tiles; digit sums
    and hope per group index."""
    first, nonzero = tables[0], tables[5]
    size = nonzero.shape[0]
    base = m + 1
    return (
        np.empty(first[size], np.int64),
        np.empty(first[size], np.int64),
        np.empty(size, np.int64),
        np.empty((k, size), np.int64),
        np.empty((k, size), np.int64),
        np.empty(k, np.int64),
        np.empty(k, np.int64),
        digit_sums(base, base**k),
        np.empty(base**k, np.int64),
    )
