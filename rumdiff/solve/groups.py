"""Group values: how many tiles of one value can be placed in groups.

A group is at least s tiles of one value in distinct colours. The *group value* of a
row of copies (one count per colour) is the largest number of its tiles that can be
placed in groups; times the tile value it is the row's groups-only score. A row is
*clearable* when every tile can be placed.

Formulas from the thesis: eq. 3 (s = 3, proven there) and eq. 4 (any s, unproven in
the thesis; our tests compare it with exhaustive search, see ``tests/test_groups.py``).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from rumdiff import config

__all__ = [
    "group_value",
    "group_value_s",
    "clearable",
    "max_groups",
    "make_groups",
    "group_value_table",
    "group_value_exhaustive",
]


def group_value(copies) -> int:
    """Group value for s = 3 by the thesis's closed formula (eq. 3).

    Parameters
    ----------
    copies : sequence of int
        Copies of one value in each of the k colours, in any order.

    Returns
    -------
    int
        The most tiles that fit in groups of at least 3 distinct colours.
    """
    c = sorted(int(x) for x in copies)
    k = len(c)
    if k < 3:
        return 0
    small = sum(c[: k - 2])
    if small <= c[k - 2]:
        return 3 * small
    rest = small + c[k - 2]
    return rest + min(c[k - 1], rest // 2)


def group_value_s(copies, s: int = config.S) -> int:
    """Group value for any minimal set size s by the thesis's eq. 4.

    The thesis leaves the formula unproven; ``tests/test_groups.py`` compares it with
    :func:`group_value_exhaustive` for every count vector with k <= 6, m <= 3, s <= 5.
    """
    if s < 2:
        raise ValueError(f"s must be at least 2, got {s}")
    c = sorted(int(x) for x in copies)
    k = len(c)
    if k < s:
        return 0
    head = sum(c[: k - (s - 1)])
    if head <= c[k - (s - 1)]:
        return s * head
    # Grow the group size from 3 to s, one colour at a time, dropping the copies of
    # each newly added colour that exceed what the tiles before it can pair with.
    used = head + c[k - (s - 1)]
    total = used
    for j in range(2, s):
        extra = min(c[k - (s - j - 1) - 1], used // j)
        total += extra
        used += extra
    return total


def clearable(copies, s: int = config.S) -> bool:
    """True if every tile of the row fits in groups (group value == tile count)."""
    return group_value_s(copies, s) == sum(int(x) for x in copies)


def max_groups(copies, s: int = config.S) -> int:
    """The most disjoint groups (each >= s distinct colours) the row can form.

    g groups are possible exactly when ``sum(min(c, g)) >= s * g``: each colour gives
    at most one tile per group, and any such multiset can be dealt out round-robin.
    """
    c = [int(x) for x in copies]
    g = 0
    while sum(min(x, g + 1) for x in c) >= s * (g + 1):
        g += 1
    return g


def make_groups(copies) -> list[list[int]]:
    """Groups (lists of colour indices) placing :func:`group_value` tiles, s = 3.

    Follows the two cases of eq. 3: either every tile of the k - 2 smallest colours
    joins one tile of each of the two largest, or the k - 1 smallest colours are dealt
    round-robin over ``g`` groups that each hold one tile of the largest colour.
    """
    counts = [int(x) for x in copies]
    k = len(counts)
    if k < 3:
        return []
    order = sorted(range(k), key=lambda colour: counts[colour])
    c = [counts[colour] for colour in order]
    small = sum(c[: k - 2])
    if small <= c[k - 2]:
        heads = [order[i] for i in range(k - 2) for _ in range(c[i])]
        return [[head, order[k - 2], order[k - 1]] for head in heads]
    dealt = [order[i] for i in range(k - 1) for _ in range(c[i])]
    g = min(c[k - 1], len(dealt) // 2)
    groups: list[list[int]] = [[order[k - 1]] for _ in range(g)]
    for position, colour in enumerate(dealt):
        groups[position % g].append(colour)
    return groups


@cache
def group_value_table(k: int, m: int) -> np.ndarray:
    """Group values (s = 3) of every count vector, indexed in base ``m + 1``.

    Entry ``sum(copies[c] * (m + 1) ** c)`` holds ``group_value(copies)``; numba kernels
    look group values up here instead of sorting.
    """
    size = (m + 1) ** k
    table = np.empty(size, dtype=np.int64)
    for index in range(size):
        copies = [(index // (m + 1) ** c) % (m + 1) for c in range(k)]
        table[index] = group_value(copies)
    table.setflags(write=False)
    return table


def group_value_exhaustive(copies, s: int = config.S) -> int:
    """Group value by exhaustive search over all ways to form groups (slow, exact)."""
    return _exhaustive(tuple(sorted(int(x) for x in copies)), s)


@cache
def _exhaustive(c: tuple[int, ...], s: int) -> int:
    best = 0
    colours = [i for i, x in enumerate(c) if x > 0]
    for size in range(s, len(colours) + 1):
        for chosen in combinations(colours, size):
            rest = list(c)
            for i in chosen:
                rest[i] -= 1
            best = max(best, size + _exhaustive(tuple(sorted(rest)), s))
    return best


def pair_code(left: int, required: int) -> int:
    """Index of a colour's (tiles left for groups, of which the table needs) pair."""
    return left * (left + 1) // 2 + required


@cache
def joker_group_table(k: int, m: int, j: int) -> np.ndarray:
    """Most regular tiles that groups of one value place with exactly g jokers.

    Entry ``[sum(pair_code(left[c], required[c]) * P**c), g]`` (``P = (m + 1)(m + 2) / 2``)
    holds the most of the ``left`` tiles that groups take when they hold every one of
    the ``required`` tiles (the table's) and exactly ``g`` jokers; -1 when none do.

    q groups can place a[c] tiles of colour c and g jokers exactly when a[c] <= q (one
    tile of a colour per group) and 3q <= sum(a) + g <= kq: deal each colour's tiles to
    the emptiest groups, which keeps their sizes within one of each other, and give the
    jokers (each standing for a colour its group lacks) to the smallest. So for each q
    the best is ``min(sum(min(left, q)), kq - g)`` when that reaches
    ``max(sum(required), 3q - g)`` and no colour requires more than q tiles.
    ``tests/test_groups.py`` compares it with an exhaustive search.
    """
    pairs = [(left, required) for left in range(m + 1) for required in range(left + 1)]
    size = len(pairs) ** k
    digits = np.indices((len(pairs),) * k).reshape(k, -1)[::-1].T  # colour c: digit c
    lookup = np.asarray(pairs, dtype=np.int64)
    left = lookup[digits, 0]
    required = lookup[digits, 1]
    table = np.full((size, j + 1), -1, dtype=np.int64)
    for g in range(j + 1):
        for q in range(0, m + j + 1):
            top = np.minimum(np.minimum(left, q).sum(axis=1), k * q - g)
            low = np.maximum(required.sum(axis=1), 3 * q - g)
            ok = (top >= low) & (required.max(axis=1) <= q)
            if q == 0:
                ok &= (g == 0) & (required.sum(axis=1) == 0)
            table[ok, g] = np.maximum(table[ok, g], top[ok])
    table.setflags(write=False)
    return table
