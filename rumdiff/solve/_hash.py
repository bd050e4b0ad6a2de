"""An open-addressing hash table of int64 keys, and lists that grow, for the joker DP.

``rumdiff.solve._jokers`` files the states of a step by their codes here: ``keys``
holds -1 in an empty slot, its size is a power of two and it is kept at most half
full, so a probe always ends.
"""

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def slot(keys, code, mask):
    """The hash slot of ``code``: its own, or the empty one where it belongs."""
    h = (code * 0x9E3779B97F4A7C15) >> 20
    h &= mask
    while keys[h] != -1 and keys[h] != code:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def copied(array, size, count):
    """The first ``count`` entries of ``array`` in a new array of ``size``."""
    bigger = np.empty(size, array.dtype)
    for s in range(count):
        bigger[s] = array[s]
    return bigger


@njit(cache=True)
def rehashed(keys, old, built):
    """A hash table twice the size holding the keys of list entries 0..built - 1 (entry
    t's at ``keys[old[t]]``)."""
    size = 2 * keys.shape[0]
    bigger = np.full(size, -1, np.int64)
    places = np.empty(size, np.int64)
    hashed = np.empty(size, np.int64)
    for t in range(built):
        key = keys[old[t]]
        h = slot(bigger, key, size - 1)
        bigger[h] = key
        places[h] = t
        hashed[t] = h
    return bigger, places, hashed
