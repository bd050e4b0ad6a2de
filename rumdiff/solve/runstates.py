"""Per-colour run states of the dynamic program (2015 paper, Section 4.2).

After value v, each of a colour's m copies is a *slot* holding the length of the run
it is building: 0, 1, 2 or "3 or more" (written 3). A colour's state is the multiset
of its m slot lengths, coded by an integer 0..F-1 with F = C(m + 3, 3) (4, 10, 20 for
m = 1, 2, 3); code 0 is "no runs", code F - 1 "every slot at length >= 3".

At value v a colour with x tiles extends u <= min(x, m) of its slots; the others end
(a run of length 1 or 2 that ends is wasted, one of length >= 3 is complete). Not
every choice of slots needs trying. Compare the points a slot can still earn under
the same future choices: a slot of length 2 earns at least what one of length 1 or
3 earns (its two pending tiles count when it reaches 3), 1 beats 0 and 3 beats 0; but
1 and 3 are incomparable (3 has banked its points, 1 may still complete with its
tile). So with u tiles: extend every 2 first, then split the rest between 3s and 1s
in every possible way, and only then start new runs from 0s. The tests compare the
solver built on this with an ILP on thousands of puzzles.

Scores are kept *optimistically*: a tile earns its value when it joins a run, and the
values of a run's tiles are taken back if it ends before reaching length 3. The DP
value of a state is then its score plus its pending partial runs, and the loss
(points not yet placed) only grows along a path, which is what the bound pruning uses.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

__all__ = ["RunStates", "complete_run_states", "run_states"]


@dataclass(frozen=True)
class RunStates:
    """Transition tables of one colour's run states for a given m.

    Attributes
    ----------
    m : int
        Slots per colour.
    slots : ndarray of shape (F, 4)
        ``slots[code, L]`` is how many slots have length L (3 meaning >= 3).
    nonzero : ndarray of shape (F,)
        Slots in use: the tiles of this colour that the state puts in runs.
    first : ndarray of shape (F + 1,)
        The undominated moves from state ``code`` are ``first[code]`` to
        ``first[code + 1] - 1`` in the move arrays below, in increasing ``used``.
    used : ndarray
        Tiles the move puts in runs (slots extended).
    next_state : ndarray
        State after the move.
    dropped1, dropped2 : ndarray
        Slots of length 1 (resp. 2) the move ends: their pending points are lost.
    """

    m: int
    slots: np.ndarray
    nonzero: np.ndarray
    first: np.ndarray
    used: np.ndarray
    next_state: np.ndarray
    dropped1: np.ndarray
    dropped2: np.ndarray

    @property
    def kernel_tables(self) -> tuple:
        """``(first, used, next_state, dropped1, dropped2, nonzero)``, as the kernels take them."""
        return (self.first, self.used, self.next_state, self.dropped1, self.dropped2, self.nonzero)

    @property
    def size(self) -> int:
        """Number of states F."""
        return self.slots.shape[0]

    @cached_property
    def counts(self) -> tuple[tuple[int, int, int, int], ...]:
        """``slots`` as tuples of ints, for Python that reads one state at a time (the
        replays that rebuild arrangements): numpy's indexing would cost more than the work."""
        return tuple(tuple(row) for row in self.slots.tolist())

    def extended(self, old: int, new: int) -> tuple[int, int, int, int]:
        """Slots of length 0, 1, 2, 3 that the move from ``old`` to ``new`` extends."""
        before, after = self.counts[old], self.counts[new]
        u = after[1] + after[2] + after[3]  # the slots in use after the move
        e2 = min(before[2], u)
        e0, e1, e3 = after[1], after[2], after[3] - e2
        if e3 < 0 or e0 + e1 + e2 + e3 != u or e1 > before[1] or e3 > before[3]:
            raise ValueError(f"no move leads from state {old} to state {new}")
        return e0, e1, e2, e3


def _moves(counts, m):
    """Undominated (e0, e1, e2, e3) extension counts, for every u."""
    n0, n1, n2, n3 = counts
    for u in range(m + 1):
        e2 = min(n2, u)
        rest = u - e2
        middle = min(rest, n1 + n3)
        e0 = rest - middle
        for e3 in range(max(0, middle - n1), min(n3, middle) + 1):
            yield e0, middle - e3, e2, e3


@cache
def run_states(m: int) -> RunStates:
    """Build the run-state tables for m copies (cached)."""
    states = [
        (m - a - b - c, a, b, c)
        for c in range(m + 1)
        for b in range(m + 1 - c)
        for a in range(m + 1 - b - c)
    ]
    states.sort(key=lambda s: (m - s[0], s[3], s[2], s[1]))  # 0: all empty; F - 1: all 3
    index = {state: code for code, state in enumerate(states)}
    first = [0]
    used, next_state, dropped1, dropped2 = [], [], [], []
    for counts in states:
        for e0, e1, e2, e3 in _moves(counts, m):
            new = (m - (e0 + e1 + e2 + e3), e0, e1, e2 + e3)
            used.append(e0 + e1 + e2 + e3)
            next_state.append(index[new])
            dropped1.append(counts[1] - e1)
            dropped2.append(counts[2] - e2)
        first.append(len(used))
    slots = np.asarray(states, dtype=np.int64)
    arrays = [np.asarray(a, dtype=np.int64) for a in (first, used, next_state, dropped1, dropped2)]
    tables = RunStates(m, slots, m - slots[:, 0], *arrays)
    for array in (tables.slots, tables.nonzero, *arrays):
        array.setflags(write=False)
    return tables


#: What a slot of length a may end up behind one of length b (see :func:`slot_cost`), as
#: multiples of the values (previous, current, next, after next).
_SLOT_COST = {
    (0, 1): (0, 0, 1, 1), (0, 2): (0, 0, 1, 1), (0, 3): (0, 0, 1, 1),
    (1, 0): (0, 1, 0, 0), (1, 2): (0, 1, 1, 0), (1, 3): (0, 1, 1, 0),
    (2, 0): (1, 1, 0, 0), (2, 1): (1, 0, 0, 0), (2, 3): (1, 1, 0, 0),
}  # fmt: skip
_FREE = (0, 0, 0, 0)


def slot_cost(a: int, b: int, values) -> int:
    """The most a slot of length ``a`` can end up behind one of length ``b``.

    ``values`` are the tile values of the previous, the current, the next and the
    following row (the DP may walk the values up or down). Both slots follow the same
    future: extended at the next t rows, then ended, for every t. With the optimistic
    scores of the DP a slot holds its pending tiles (none for length 0 or 3, the
    current one for 1, the previous and current ones for 2); continued t more rows it
    earns the t new tiles if it reaches length 3, else it loses its pending tiles. The
    cost is the largest difference over t = 0..3 (beyond, both have completed); a slot
    of length 3 never falls behind.
    """
    if a == b or a == 3:
        return 0
    return sum(c * value for c, value in zip(_SLOT_COST[a, b], values, strict=True))


@cache
def dominance(m: int) -> tuple[np.ndarray, ...]:
    """Which run states of a colour dominate which, and at what cost; and each state's
    pending slots (the solver's DP takes these beside :attr:`RunStates.kernel_tables`).

    State a dominates state b with a cost: pair a's slots with b's, each slot of a at
    most :func:`slot_cost` behind its partner, and take the cheapest pairing. A joint
    state whose score is at least that cost above another's, the two differing in one
    colour only, ends at least as high under every future (the same tiles go to runs,
    hence the same to groups).

    Returns ``(cost, ones, twos)``: ``cost[:, a, b]`` is the cost of a dominating b, the
    multiples of the four values of :func:`slot_cost` (every pair a != b has one; the
    diagonal is 0 and never read); ``ones`` and ``twos`` count each state's slots of
    length 1 and 2. For every m <= 3 one pairing is cheapest whatever the (positive)
    values: its multiples are each the least of all pairings'. That is checked here, so
    the DP never takes a minimum over pairings (it once did, over 662 pairings for m = 3
    at every value, where 380 pairs suffice).
    """
    tables = run_states(m)
    size = tables.size
    lengths = [
        [length for length in range(4) for _ in range(int(tables.slots[code, length]))]
        for code in range(size)
    ]
    cost = np.zeros((4, size, size), dtype=np.int64)
    for b in range(size):
        for a in range(size):
            if a == b:
                continue
            pairings = set()
            for order in itertools.permutations(lengths[a]):
                pairs = [(x, y) for x, y in zip(order, lengths[b], strict=True) if x not in (3, y)]
                pairings.add(
                    tuple(map(sum, zip(_FREE, *(_SLOT_COST[p] for p in pairs), strict=True)))
                )
            cheapest = tuple(map(min, zip(*pairings, strict=True)))
            if cheapest not in pairings:
                raise AssertionError(f"m = {m}: no pairing of {a} with {b} is always cheapest")
            cost[:, a, b] = cheapest
    arrays = (cost, tables.slots[:, 1].copy(), tables.slots[:, 2].copy())
    for array in arrays:
        array.setflags(write=False)
    return arrays


@cache
def complete_run_states(slots: int) -> RunStates:
    """Run-state tables whose runs never end short, for ``slots`` slots a colour.

    The DP with jokers and the table (``rumdiff.solve.engine._jokers``) needs every run it
    starts to be placed: a table tile in a run that ends at length 1 or 2 would be left
    unplaced, and a joker there would count as placed. So a slot of length 1 or 2 must be
    extended; the other tiles first continue runs of length >= 3 (which may end at any
    value, so continuing one is never worse than starting a new one) and then start new
    runs. That leaves one move per number of tiles put in runs. ``slots`` may exceed m:
    a joker may stand for a tile whose m copies are all in runs already.
    """
    states = [
        (slots - a - b - c, a, b, c)
        for c in range(slots + 1)
        for b in range(slots + 1 - c)
        for a in range(slots + 1 - b - c)
    ]
    states.sort(key=lambda s: (slots - s[0], s[3], s[2], s[1]))  # 0: all empty
    index = {state: code for code, state in enumerate(states)}
    first = [0]
    used, next_state = [], []
    for _, n1, n2, n3 in states:
        for u in range(n1 + n2, slots + 1):
            e3 = min(n3, u - n1 - n2)
            e0 = u - n1 - n2 - e3
            used.append(u)
            next_state.append(index[(slots - u, e0, n1, n2 + e3)])
        first.append(len(used))
    slot_counts = np.asarray(states, dtype=np.int64)
    arrays = [np.asarray(a, dtype=np.int64) for a in (first, used, next_state)]
    zeros = np.zeros(len(used), dtype=np.int64)
    tables = RunStates(slots, slot_counts, slots - slot_counts[:, 0], *arrays, zeros, zeros.copy())
    for array in (tables.slots, tables.nonzero, *arrays, tables.dropped1, tables.dropped2):
        array.setflags(write=False)
    return tables
