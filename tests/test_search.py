"""The reference search (rumdiff.solve.search): its counts against the stored definition
and against a slow, obvious twin written from docs/search-effort.md."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_copies
from make_golden import read_golden

from rumdiff.puzzle import Puzzle, decode_puzzle
from rumdiff.solve import SolverBudgetError, search_effort, solve
from rumdiff.solve._tiles import colour_runs, remove_isolated, row_upper_bounds, segments
from rumdiff.solve.groups import group_value, group_value_table
from rumdiff.solve.runstates import run_states


def search_twin(copies, m):
    """The search by its definition, in plain Python: (score, states, transitions, passes).

    Preprocessing and bounds come from the kernels the solver and features share (each
    has its own twin); the DP is written out state by state with dictionaries.
    """
    tables = run_states(m)
    x = np.asarray(copies, dtype=np.int64).copy()
    n, k = x.shape
    remove_isolated(x, 3)
    gv = group_value_table(k, m)
    row_bound = np.empty(n, np.int64)
    row_upper_bounds(x, gv, m, np.arange(1, n + 1), row_bound)
    bounds = np.empty((n, 2), np.int64)
    totals = {"score": 0, "states": 0, "transitions": 0, "passes": 0}
    for lo, hi in bounds[: segments(x, bounds)].tolist():
        rows = x[lo:hi]
        groups_only = sum((lo + i + 1) * group_value(rows[i]) for i in range(hi - lo))
        work = np.empty((4, tables.size), np.int64)
        reach = np.empty(n, np.int64)
        values = np.arange(1, n + 1)
        runs_only = sum(colour_runs(x, c, lo, hi, values, tables.kernel_tables, reach, work,
                                    np.empty((0, 0), np.int64))[0]
                        for c in range(k))  # fmt: skip
        later = [int(row_bound[lo + i : hi].sum()) for i in range(hi - lo)] + [0, 0]
        low = max(runs_only, groups_only)
        high = min(runs_only + groups_only, later[0])
        if low == high:
            totals["score"] += low
            continue
        best = _twin_pass(rows, lo + 1, m, tables, later, low, totals)
        low = max(low, best)
        for aim in (high, low + 1):
            if aim <= low:
                break
            totals["passes"] += 1
            found = _twin_pass(rows, lo + 1, m, tables, later, aim, totals)
            if found is not None:
                low = found
                break
        totals["score"] += low
    return totals["score"], totals["states"], totals["transitions"], totals["passes"]


def _twin_moves(tables, state, tiles):
    """(tiles used, next state, length-1 and length-2 slots ended) of each move allowed."""
    out = []
    for e in range(tables.first[state], tables.first[state + 1]):
        if tables.used[e] <= tiles:
            out.append((int(tables.used[e]), int(tables.next_state[e]),
                        int(tables.dropped1[e]), int(tables.dropped2[e])))  # fmt: skip
    return out


def _twin_pass(rows, first_value, m, tables, later, target, totals):
    n, k = rows.shape
    layer = {(0,) * k: 0}
    for i in range(n + 1):
        v = first_value + i
        row = [int(t) for t in rows[i]] if i < n else [0] * k
        threshold = target - later[i + 1]

        def drop(d1, d2, v=v):
            return d1 * (v - 1) + d2 * (2 * v - 3)

        def least(c, s, row=row, drop=drop):
            return min(drop(d1, d2) for _, _, d1, d2 in _twin_moves(tables, s, row[c]))

        def spare(c, s, row=row):
            return max(row[c] - int(tables.nonzero[s]), 0)

        for c in range(k):
            step = {}
            for state, value in layer.items():
                moves = _twin_moves(tables, state[c], row[c])
                totals["transitions"] += len(moves)
                for used, nxt, d1, d2 in moves:
                    t = (*state[:c], nxt, *state[c + 1 :])
                    gained = value + used * v - drop(d1, d2)
                    # What the state may still gain at this value: later colours all
                    # their tiles less their least drop; leftovers what groups take.
                    left = [spare(d, t[d]) for d in range(c + 1)] + row[c + 1 :]
                    groupable = min(sum(left[: c + 1]), group_value(left))
                    rest = sum(v * row[d] - least(d, t[d]) for d in range(c + 1, k))
                    if gained + rest + v * groupable >= threshold:
                        step[t] = max(step.get(t, gained), gained)
            layer = step
        layer = {
            state: value + v * group_value([spare(c, state[c]) for c in range(k)])
            for state, value in layer.items()
        }
        layer = {state: value for state, value in layer.items() if value >= threshold}
        if not layer:
            return None
        totals["states"] += len(layer)
    return layer[(0,) * k]


@pytest.mark.parametrize(
    "part", ["small", pytest.param("rest", marks=pytest.mark.slow),
             pytest.param("large", marks=pytest.mark.slow)]
)  # fmt: skip
def test_equals_the_stored_definition(part):
    # 1,240 puzzles with the counts of rumdiff 0.1.0's solver without beam search, the
    # definition's origin (tests/make_golden.py says how they were made). The 11 searches
    # of over a million states take more than half its time, and the small ones are many:
    # the fast suite checks every third small one, make test-all the others and the large.
    rows = read_golden("search_work.csv.gz")
    assert len(rows) == 1240
    large = [int(row["states"]) > 1_000_000 for row in rows]
    assert sum(large) == 11
    for i, (row, big) in enumerate(zip(rows, large, strict=True)):
        taken = "large" if big else "small" if i % 3 == 0 else "rest"
        if taken != part:
            continue
        k, m, n = int(row["k"]), int(row["m"]), int(row["n"])
        effort = search_effort(Puzzle(decode_puzzle(row["puzzle"], k, n, m=m), m=m))
        found = (effort.score, effort.states, effort.transitions, effort.passes, effort.method)
        stored = (row["score"], row["states"], row["transitions"], row["exact_passes"])
        assert found == (*map(int, stored), row["method"])


@pytest.mark.parametrize(
    "seed", [0, 1, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(2, 6))]
)  # the fast suite's two seeds, 50 puzzles; make test-all 150 in all
def test_equals_its_twin_in_either_layout(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        k, m = int(rng.integers(1, 7)), int(rng.integers(1, 4))
        n = int(rng.integers(3, 16 if k * m <= 6 else 10 if k * m <= 10 else 7))
        copies = random_copies(rng, k=k, m=m, n=n)
        expected = search_twin(copies, m)
        for layout in ("auto", "dense", "sparse"):
            effort = search_effort(Puzzle(copies, m=m), layout=layout)
            found = (effort.score, effort.states, effort.transitions, effort.passes)
            assert found == expected, (layout, copies.tolist())


def test_score_is_the_solvers_and_the_layouts_agree_on_larger_puzzles():
    rng = np.random.default_rng(31)
    for k, m, n in [(4, 2, 100), (5, 2, 60), (4, 3, 40), (6, 2, 30), (3, 3, 60)]:
        for _ in range(4):
            puzzle = Puzzle(random_copies(rng, k=k, m=m, n=n), m=m)
            dense = search_effort(puzzle, layout="dense")
            sparse = search_effort(puzzle, layout="sparse")
            assert (dense.states, dense.transitions) == (sparse.states, sparse.transitions)
            assert dense.score == sparse.score == solve(puzzle).score


def test_bounds_and_budget():
    empty = search_effort(Puzzle(np.zeros((5, 4), dtype=int), m=2))
    assert (empty.score, empty.transitions, empty.method) == (0, 0, "bounds")
    full = search_effort(Puzzle(np.full((13, 4), 2), m=2))
    assert full.score == 2 * 4 * sum(range(1, 14)) and full.method == "bounds"
    rng = np.random.default_rng(4)
    needed = 0
    while needed < 1000:  # a puzzle that needs the DP
        copies = random_copies(rng, k=4, m=2, n=100, probabilities=[0.04, 0.04, 0.92])
        needed = search_effort(Puzzle(copies, m=2)).states
    with pytest.raises(SolverBudgetError, match="max_states"):
        search_effort(Puzzle(copies, m=2), max_states=needed // 10)
    with pytest.raises(TypeError):
        search_effort(copies)
    with pytest.raises(ValueError, match="layout"):
        search_effort(Puzzle(copies, m=2), layout="tree")
