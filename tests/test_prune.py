"""The DP's pruning helpers against their slow, obvious twins."""

import numpy as np

from rumdiff.solve.engine._loop import AUX, CODE, FIELDS, ORG, VAL
from rumdiff.solve.engine._prune import (
    dominance_costs,
    kth_smallest,
    mark_dominated,
    sibling_dominated,
    thin,
)
from rumdiff.solve.runstates import dominance, run_states


def test_kth_smallest_is_partition():
    # The beam's cut: a hand-written quickselect in place of np.partition (which costs
    # seconds of compile), checked against it on seeded arrays full of ties.
    rng = np.random.default_rng(11)
    for _ in range(2000):
        size = int(rng.integers(1, 60))
        a = rng.integers(-5, int(rng.integers(1, 40)), size=size).astype(np.int64)
        kth = int(rng.integers(0, size))
        expected = np.partition(a.copy(), kth)[kth]
        work = a.copy()
        assert kth_smallest(work, kth) == expected
        assert sorted(work) == sorted(a)  # reordered, nothing lost


def _dominated_by_pairs(colours, same_used, cost, nonzero, states, val):
    """Which states another dominates, pair by pair (the slow twin of mark_dominated)."""
    dead = np.zeros(len(states), bool)
    for j, b in enumerate(states):
        for i, a in enumerate(states):
            differ = [c for c in range(len(a)) if a[c] != b[c]]
            if len(differ) != 1 or differ[0] not in colours:
                continue
            c = differ[0]
            if same_used and nonzero[a[c]] != nonzero[b[c]]:
                continue
            if val[i] >= val[j] + cost[a[c], b[c]]:
                dead[j] = True
    return dead


def test_dominance_costs_are_the_multiples_of_the_row_values():
    # The matrix the DP reads at a row, against the multiples times the row's values.
    rng = np.random.default_rng(8)
    for m in (1, 2, 3):
        multiples = dominance(m)[0]
        size = run_states(m).size
        out = np.empty((size, size), np.int64)
        for _ in range(20):
            values = rng.integers(1, 1000, size=4)
            out.fill(-1)  # every cell must be written (64 of m = 3's costs are 0)
            dominance_costs(dominance(m), *(int(value) for value in values), out)
            for a in range(size):
                for b in range(size):
                    expected = 1 << 62 if a == b else int(values @ multiples[:, a, b])
                    assert out[a, b] == expected, (m, a, b)


def test_mark_dominated_matches_every_pair():
    # States drawn from few components per colour, so that many differ in one colour
    # only; costs from the real dominance tables at random values.
    rng = np.random.default_rng(12)
    for trial in range(300):
        m = int(rng.integers(1, 4))
        k = int(rng.integers(1, 6))
        tables = dominance(m)
        size = run_states(m).size
        cost = np.empty((size, size), np.int64)
        values = rng.integers(1, 60, size=4)
        dominance_costs(tables, *(int(value) for value in values), cost)
        choices = [rng.choice(size, size=min(size, 3), replace=False) for _ in range(k)]
        states = sorted({tuple(int(rng.choice(options)) for options in choices) for _ in range(40)})
        val = rng.integers(0, 150, size=len(states)).astype(np.int64)
        bits = np.array([sum(s << (5 * c) for c, s in enumerate(state)) for state in states])
        colours = np.sort(rng.choice(k, size=int(rng.integers(1, k + 1)), replace=False))
        same_used = bool(trial % 2)
        nonzero = run_states(m).nonzero
        found = mark_dominated(
            len(states), colours, np.bool_(same_used), cost, nonzero, bits.astype(np.int64), val
        )
        expected = _dominated_by_pairs(set(colours), same_used, cost, nonzero, states, val)
        assert found.tolist() == expected.tolist()


def test_sibling_dominated_is_the_pairwise_rule():
    # One colour's states (the others equal), values with this row's groups.
    rng = np.random.default_rng(5)
    for _ in range(200):
        m = int(rng.integers(1, 4))
        size = run_states(m).size
        cost = np.empty((size, size), np.int64)
        dominance_costs(dominance(m), *(int(v) for v in rng.integers(1, 60, size=4)), cost)
        count = int(rng.integers(1, min(7, size + 1)))
        state = rng.choice(size, size=count, replace=False).astype(np.int64)
        worth = rng.integers(0, 200, size=count).astype(np.int64)
        for b in range(count):
            expected = any(
                a != b and worth[a] >= worth[b] + cost[state[a], state[b]] for a in range(count)
            )
            table = np.stack([state, worth])
            assert sibling_dominated(b, count, table, 0, 1, cost) == expected


def test_thin_moves_every_field_with_the_lists():
    # The engine's lists are one array, a state per column: thinning drops whole columns.
    m, k = 2, 3
    size = run_states(m).size
    cost = np.empty((size, size), np.int64)
    dominance_costs(dominance(m), 5, 6, 7, 8, cost)
    rng = np.random.default_rng(3)
    states = sorted({tuple(int(s) for s in rng.integers(0, 3, size=k)) for _ in range(30)})
    live = len(states)
    bits = np.array([sum(s << (5 * c) for c, s in enumerate(st)) for st in states], np.int64)
    val = rng.integers(0, 100, size=live).astype(np.int64)
    lists = np.zeros((live, FIELDS), np.int64)
    lists[:, CODE] = bits
    lists[:, VAL] = val
    lists[:, ORG] = np.arange(live)
    lists[:, AUX] = 3 * np.arange(live)
    dead = mark_dominated(
        live, np.arange(k), np.bool_(False), cost, run_states(m).nonzero, bits, val
    )
    kept = thin(live, np.arange(k), np.bool_(False), cost, run_states(m).nonzero, lists)
    assert kept == live - dead.sum() and 0 < kept < live
    assert (lists[:kept, AUX] == 3 * lists[:kept, ORG]).all()
    assert lists[:kept, ORG].tolist() == np.flatnonzero(~dead).tolist()
    assert (lists[:kept, CODE] == bits[~dead]).all()
