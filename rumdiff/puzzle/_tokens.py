"""Kernel of the tile-line reader: the tiles of a line of bytes, in one pass."""

from numba import njit

_SPACE = 32
_TAB = 9
_ZERO = 48
_NINE = 57


@njit(cache=True)
def read_tiles(raw, colour_of, n, values, colours):
    """Read a line of tiles (``7b 12r``) into ``values`` and ``colours``; return how many.

    Tiles are 1 to 9 digits and then a colour letter (``colour_of[byte] >= 0``), with a
    value in 1..n, separated by spaces or tabs. Anything else (a joker, the table mark, a
    bad tile) returns -1, for the token-by-token reader to name. ``values`` and
    ``colours`` hold at least ``len(raw) // 2 + 1`` entries.
    """
    size = raw.shape[0]
    count = 0
    i = 0
    while i < size:
        if raw[i] == _SPACE or raw[i] == _TAB:
            i += 1
            continue
        value = 0
        digits = 0
        while i < size and _ZERO <= raw[i] <= _NINE:
            value = value * 10 + (raw[i] - _ZERO)
            digits += 1
            i += 1
        if digits == 0 or digits > 9 or i == size:
            return -1
        colour = colour_of[raw[i]]
        i += 1
        if colour < 0 or value < 1 or value > n:
            return -1
        if i < size and raw[i] != _SPACE and raw[i] != _TAB:
            return -1
        values[count] = value
        colours[count] = colour
        count += 1
    return count
