"""Run-state tables and the dominance between run states (rumdiff.solve.runstates)."""

import itertools
from collections import Counter

import numpy as np
import pytest

from rumdiff.solve.runstates import dominance, run_states, slot_cost

#: Values of the rows around the current one: two before, the current, five after.
#: The DP walks the values downwards; upwards and uneven steps must hold as well.
ORIENTATIONS = [
    (48, 49, 50, 51, 52, 53, 54, 55),
    (52, 51, 50, 49, 48, 47, 46, 45),
    (3, 2, 1, 8, 9, 9, 9, 9),
    (1, 2, 3, 4, 5, 6, 7, 8),
]


def _outcome(length: int, t: int, values) -> int:
    """Points a slot of ``length`` gains from now on, extended at the next t rows and
    then ended, with the DP's optimistic scores: pending tiles already count and are
    taken back if the run ends short. Written out tile by tile."""
    current = 2
    pending = {0: [], 1: [values[current]], 2: values[current - 1 : current + 1], 3: []}[length]
    added = list(values[current + 1 : current + 1 + t])
    if length == 0:
        return sum(added) if t >= 3 else 0
    if length == 3 or length + t >= 3:
        return sum(added)
    return -sum(pending)


@pytest.mark.parametrize("values", ORIENTATIONS)
def test_slot_cost_is_the_worst_difference_over_every_future(values):
    around = values[1:5]  # previous, current, next, after next
    for a, b in itertools.product(range(4), repeat=2):
        worst = max(_outcome(b, t, values) - _outcome(a, t, values) for t in range(6))
        assert slot_cost(a, b, around) == worst, (a, b)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_dominance_is_the_cheapest_pairing_of_slots(m):
    tables = run_states(m)
    cost, ones, twos = dominance(m)
    slots = [
        [length for length in range(4) for _ in range(int(tables.slots[code, length]))]
        for code in range(tables.size)
    ]
    assert ones.tolist() == tables.slots[:, 1].tolist()
    assert twos.tolist() == tables.slots[:, 2].tolist()
    assert cost.shape == (4, tables.size, tables.size)
    for values in ORIENTATIONS:
        around = values[1:5]
        for a, b in itertools.product(range(tables.size), repeat=2):
            if a == b:
                continue
            listed = int(np.asarray(around) @ cost[:, a, b])
            cheapest = min(
                sum(slot_cost(x, y, around) for x, y in zip(order, slots[b], strict=True))
                for order in itertools.permutations(slots[a])
            )
            assert listed == cheapest, (m, values, a, b)
            # Free only when a is b with some slots grown to length 3.
            short = Counter(x for x in slots[a] if x != 3)
            assert (listed == 0) == (not short - Counter(slots[b])), (m, values, a, b)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_first_and_last_codes(m):
    # The solver's tails enter at the last code (every run complete, free to go on).
    slots = run_states(m).slots
    assert slots[0].tolist() == [m, 0, 0, 0]
    assert slots[-1].tolist() == [0, 0, 0, m]
