"""The DP's pruning helpers against their slow, obvious twins."""

import numpy as np

from rumdiff.solve._prune import kth_smallest


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
