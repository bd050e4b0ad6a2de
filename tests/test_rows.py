import numpy as np

from rumdiff.solve.engine._moves import colour_moves
from rumdiff.solve.engine._rows import leftovers, move_ends, step_order
from rumdiff.solve.runstates import run_states


def test_move_ends_are_the_moves_a_colour_allows():
    # Brute force, and the reference search's per-row move table.
    for m in (1, 2, 3):
        tables = run_states(m)
        ends = move_ends(tables.kernel_tables, m)
        moves = tables.used.shape[0]
        delta, gain, end = (
            np.empty(moves, np.int64),
            np.empty(moves, np.int64),
            np.empty(tables.size, np.int64),
        )
        for xc in range(m + 1):
            colour_moves(xc, 9, 8, 15, tables.kernel_tables, delta, gain, end)
            assert (ends[:, xc] == end).all()
            for cc in range(tables.size):
                allowed = [
                    e for e in range(tables.first[cc], tables.first[cc + 1]) if tables.used[e] <= xc
                ]
                assert list(range(tables.first[cc], ends[cc, xc])) == allowed


def test_leftovers_count_and_index():
    rng = np.random.default_rng(4)
    m, k = 3, 4
    tables = run_states(m)
    x = rng.integers(0, m + 1, size=(6, k)).astype(np.int64)
    count = np.empty((k, tables.size), np.int64)
    index = np.empty((k, tables.size), np.int64)
    for i in range(7):  # row 6 is the closing row: no tiles
        leftovers(x, i, m, tables.nonzero, count, index)
        for c in range(k):
            tiles = x[i, c] if i < 6 else 0
            expected = np.maximum(tiles - tables.nonzero, 0)
            assert (count[c] == expected).all()
            assert (index[c] == expected * (m + 1) ** c).all()


def test_step_order_by_tiles_then_colour():
    x = np.array([[2, 0, 3, 0, 1]], np.int64)
    k, m = 5, 3
    order, rank = np.empty(k, np.int64), np.empty(k, np.int64)
    after_index, after_tiles = np.empty(k, np.int64), np.empty(k, np.int64)
    step_order(x, 0, m, order, rank, after_index, after_tiles)
    assert order.tolist() == [1, 3, 4, 0, 2]
    assert (rank[order] == np.arange(k)).all()
    assert after_tiles.tolist() == [3, 6, 0, 6, 5]  # tiles of the colours stepped later
    assert after_index[0] == 3 * 4**2
