"""Group values: the thesis's Tables 1 and 2, eq. 3 and eq. 4 against exhaustive search."""

from itertools import combinations_with_replacement

import numpy as np
import pytest

from rumdiff.solve.groups import (
    clearable,
    group_value,
    group_value_exhaustive,
    group_value_s,
    group_value_table,
    make_groups,
    max_groups,
)

# (combination, tiles, group value, clearable) from thesis Table 1 (k = 4, m = 2).
TABLE_1 = """0000 0 0 T; 0001 1 0 F; 0002 2 0 F; 0011 2 0 F; 0012 3 0 F; 0022 4 0 F;
0111 3 3 T; 0112 4 3 F; 0122 5 3 F; 0222 6 6 T; 1111 4 4 T; 1112 5 4 F; 1122 6 6 T;
1222 7 7 T; 2222 8 8 T"""
# Thesis Table 2 (k = 4, m = 3).
TABLE_2 = """0000 0 0 T; 0001 1 0 F; 0002 2 0 F; 0003 3 0 F; 0011 2 0 F; 0012 3 0 F;
0013 4 0 F; 0022 4 0 F; 0023 5 0 F; 0033 6 0 F; 0111 3 3 T; 0112 4 3 F; 0113 5 3 F;
0122 5 3 F; 0123 6 3 F; 0133 7 3 F; 0222 6 6 T; 0223 7 6 F; 0233 8 6 F; 0333 9 9 T;
1111 4 4 T; 1112 5 4 F; 1113 6 4 F; 1122 6 6 T; 1123 7 6 F; 1133 8 6 F; 1222 7 7 T;
1223 8 7 F; 1233 9 9 T; 1333 10 10 T; 2222 8 8 T; 2223 9 9 T; 2233 10 10 T;
2333 11 11 T; 3333 12 12 T"""


def _rows(table):
    for entry in table.replace("\n", " ").split(";"):
        combination, tiles, value, flag = entry.split()
        yield [int(ch) for ch in combination], int(tiles), int(value), flag == "T"


@pytest.mark.parametrize("table, m", [(TABLE_1, 2), (TABLE_2, 3)])
def test_thesis_tables(table, m):
    rows = list(_rows(table))
    assert len(rows) == {2: 15, 3: 35}[m]  # eq. 1: C(m + k, k) combinations
    for copies, tiles, value, is_clearable in rows:
        assert sum(copies) == tiles
        assert group_value(copies) == value
        assert group_value_s(copies, 3) == value
        assert clearable(copies) is is_clearable


ALL_VECTORS = [
    (k, m, copies)
    for k in range(1, 7)
    for m in range(1, 4)
    for copies in combinations_with_replacement(range(m + 1), k)
]


def test_eq3_equals_exhaustive_search():
    for _, _, copies in ALL_VECTORS:
        assert group_value(copies) == group_value_exhaustive(copies, 3), copies


@pytest.mark.parametrize("s", [2, 3, 4, 5])
def test_eq4_equals_exhaustive_search(s):
    # The thesis leaves eq. 4 unproven; read with R_{j-1} in its sum (the printed R_j
    # is a typo: with it the formula disagrees with eq. 3 at s = 3), it matches
    # exhaustive search on every count vector with k <= 6, m <= 3, s <= 5.
    for _, _, copies in ALL_VECTORS:
        assert group_value_s(copies, s) == group_value_exhaustive(copies, s), (copies, s)


def test_group_value_ignores_order():
    rng = np.random.default_rng(3)
    for _ in range(200):
        copies = rng.integers(0, 4, size=rng.integers(1, 7))
        assert group_value(copies) == group_value(rng.permutation(copies))


def test_make_groups_places_the_group_value():
    for _, _, copies in ALL_VECTORS:
        for order in (copies, copies[::-1]):
            groups = make_groups(order)
            assert sum(len(g) for g in groups) == group_value(order)
            for g in groups:
                assert len(g) >= 3 and len(set(g)) == len(g)
            used = np.bincount([c for g in groups for c in g], minlength=len(order))
            assert np.all(used <= np.asarray(order))


def _max_groups_brute(copies, s):
    best = 0
    for g in range(sum(copies) // s + 1):
        # g groups of exactly s distinct colours each (any group can shrink to s).
        counts = sorted(copies, reverse=True)
        ok = True
        for _ in range(g):
            counts.sort(reverse=True)
            if sum(1 for x in counts if x > 0) < s:
                ok = False
                break
            for i in range(s):
                counts[i] -= 1
        if ok:
            best = g
    return best


def test_max_groups_against_greedy_dealing():
    for _, _, copies in ALL_VECTORS:
        assert max_groups(copies) == _max_groups_brute(list(copies), 3)


def test_group_value_table_matches_formula():
    for k in range(1, 7):
        for m in range(1, 4):
            table = group_value_table(k, m)
            rng = np.random.default_rng(k * 10 + m)
            for _ in range(50):
                copies = rng.integers(0, m + 1, size=k)
                index = sum(int(x) * (m + 1) ** c for c, x in enumerate(copies))
                assert table[index] == group_value(copies)


def test_small_k_has_no_groups():
    assert group_value([3, 3]) == 0
    assert make_groups([2, 2]) == []
    with pytest.raises(ValueError):
        group_value_s([1, 1, 1], s=1)
