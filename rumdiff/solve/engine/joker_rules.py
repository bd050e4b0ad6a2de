"""The jokers' rule set of the engine, from Python: the tables and rows its passes take,
the bound on what the rows ahead may add, and its dominance.

The steps themselves are the numba kernels of ``_jokers`` (and the bound's of
``_joker_bound``); :func:`rumdiff.solve.engine.run_pass` and the solver's joker path
(:mod:`rumdiff.solve.jokers`) set their passes up with the functions here, and the tests
hold :func:`joker_bound` and :func:`undominated` against slow twins.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from rumdiff.puzzle import Puzzle
from rumdiff.solve.groups import group_value_table, joker_group_table, pair_code
from rumdiff.solve.runstates import complete_run_states
from rumdiff.validation import whole

__all__ = [
    "big_weight",
    "check_codes",
    "joker_bound",
    "joker_rows",
    "joker_tables",
    "kernel_rules",
    "run_bits",
    "undominated",
]


@cache
def _pair_codes(m: int) -> np.ndarray:
    codes = np.zeros((m + 1, m + 1), dtype=np.int64)
    for left in range(m + 1):
        for required in range(left + 1):
            codes[left, required] = pair_code(left, required)
    codes.setflags(write=False)
    return codes


@cache
def _upgrades(slots: int) -> np.ndarray:
    """Per run state of :func:`complete_run_states`, the states one step better (-1:
    none): a run of length 1 made 2 or >= 3 long, one of length 2 made >= 3, an empty
    slot holding a run of length >= 3 (in this order, the kernel relies on it)."""
    tables = complete_run_states(slots)
    index = {tuple(int(v) for v in counts): code for code, counts in enumerate(tables.slots)}
    better = np.full((tables.size, 4), -1, dtype=np.int64)
    for code, counts in enumerate(tables.slots):
        for column, (low, high) in enumerate(((1, 2), (1, 3), (2, 3), (0, 3))):
            if counts[low] > 0:
                step = [int(v) for v in counts]
                step[low] -= 1
                step[high] += 1
                better[code, column] = index[tuple(step)]
    better.setflags(write=False)
    return better


@cache
def _short_runs(slots: int) -> np.ndarray:
    """Per run state, the tiles its short runs need at the next value (runs of length 1
    and 2) and at the one after (runs of length 1)."""
    counts = complete_run_states(slots).slots
    short = np.stack([counts[:, 1] + counts[:, 2], counts[:, 1]], axis=1).astype(np.int64)
    short.setflags(write=False)
    return short


def big_weight(puzzle: Puzzle, objective: str) -> int:
    """The weight of one tile beyond its value: 0, or (tiles) more than all points."""
    return 0 if objective == "value" else puzzle.points + 1


def joker_tables(k: int, m: int, jokers: int) -> tuple:
    """The tables :func:`~rumdiff.solve.engine._jokers.joker_pass` takes for G(k, m, .), j jokers.

    Returns ``(tables, groups, pair)``: its ``tables``, ``groups`` and ``pair`` arguments
    (cached, read-only).
    """
    tables = complete_run_states(m + jokers)
    arrays = (
        tables.first, tables.used, tables.next_state, tables.nonzero, _upgrades(tables.m),
        _short_runs(tables.m),
    )  # fmt: skip
    return arrays, joker_group_table(k, m, jokers), _pair_codes(m)


def run_bits(puzzle: Puzzle) -> int:
    """The bits of a colour's run state in a state's code, as the kernel packs them."""
    return max(1, (complete_run_states(puzzle.m + puzzle.jokers).size - 1).bit_length())


def check_codes(puzzle: Puzzle, meld: int = 0) -> None:
    """Refuse a puzzle whose states would not fit the jokers' rules' 63-bit keys: each
    colour's run state, the jokers placed, the meld's points so far and, within a row,
    the jokers each colour's runs hold (``_jokers``). Without a meld every puzzle of
    G(k <= 6, m <= 3) with up to 4 jokers fits; a meld of many points beside many
    jokers in G(6, 3, n) may not.

    Raises
    ------
    ValueError
    """
    bits = puzzle.k * run_bits(puzzle) + 3 + int(meld).bit_length()
    bits += ((puzzle.jokers + 1) ** puzzle.k - 1).bit_length()
    if bits > 63:
        raise ValueError(
            f"the DP's states of {puzzle.game} with {puzzle.jokers} jokers and a meld of "
            f"{meld} points take {bits} bits, more than the 63 a state holds"
        )


def joker_rows(puzzle: Puzzle, objective: str) -> tuple:
    """The rows the jokers' rules walk, values downwards (a tile lost at a high value
    prunes early): ``(x, need, values)``, the copies, the table's copies and each row's
    weight (its value, plus, for the ``tiles`` objective, more than all points), with
    one more weight, 0, for the closing row."""
    # Each call costs a solve of a small move (a turn, a rack) a few microseconds, so
    # each array is made in one step where it can be.
    x = puzzle.copies[::-1].astype(np.int64)
    need = puzzle.table_copies[::-1].astype(np.int64)
    values = np.arange(puzzle.n, -1, -1, dtype=np.int64)  # n..1, then 0 for the closing row
    big = big_weight(puzzle, objective)
    if big:
        values[: puzzle.n] += big
    return x, need, values


def kernel_rules(puzzle: Puzzle, objective: str = "value", meld: int = 0) -> tuple:
    """The arguments of the jokers' rules that their kernels take first (``_jokers.
    joker_pass`` with its ``ahead`` after ``values``, ``_joker_passes.joker_search`` as
    they come): ``(x, need, values, jokers, owed, meld, tables, groups, pair)``, for the
    rows of :func:`joker_rows` and a meld of ``meld`` points (0: none), checked by
    :func:`check_codes`."""
    check_codes(puzzle, meld)
    tables, groups, pair = joker_tables(puzzle.k, puzzle.m, puzzle.jokers)
    melding = (np.int64(meld), np.int64(big_weight(puzzle, objective)))
    return (
        *joker_rows(puzzle, objective), puzzle.jokers, puzzle.table_jokers, melding, tables,
        groups, pair,
    )  # fmt: skip


def joker_bound(puzzle: Puzzle) -> np.ndarray:
    """The fast solver's bound on what the rows ahead of a state may still add.

    Parameters
    ----------
    puzzle : Puzzle
        Its table is not read: the bound holds for every arrangement of its tiles.

    Returns
    -------
    ndarray of shape (n + 2, jokers + 1)
        ``ahead[i, s]`` bounds from above the points that any arrangement of the
        puzzle's tiles with at most ``jokers`` jokers, at most ``jokers - s`` of them at
        rows i.., places at rows i.. (values n - i down to 1, the rows of
        :func:`joker_rows`): what a state that has placed s jokers may still add. Its
        jokers before row i reach rows i.. only through runs from the two rows before
        (``rumdiff.solve.engine._joker_bound.joker_ahead`` says why). It never exceeds the
        points of every tile at rows i..; rows n and n + 1 are 0. The passes of the
        ``"fast"`` pruning drop a state that cannot reach their aim even with
        ``ahead[i, s]`` more.
    """
    from rumdiff.solve._tiles import row_upper_bounds
    from rumdiff.solve.engine._joker_bound import joker_ahead

    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"joker_bound expects a Puzzle, got {type(puzzle).__name__}")
    x, _, values = joker_rows(puzzle, "value")
    bound = np.zeros(puzzle.n, dtype=np.int64)
    row_upper_bounds(x, group_value_table(puzzle.k, puzzle.m), puzzle.m, values, bound)
    ahead = np.zeros((puzzle.n + 2, puzzle.jokers + 1), dtype=np.int64)
    joker_ahead(x, values, puzzle.jokers, bound, ahead)
    return ahead


def undominated(puzzle: Puzzle, codes, values, *, meld: int = 0) -> np.ndarray:
    """Which states of a finished row the fast passes keep: those no other dominates.

    State A dominates state B when A's value is no less, A has placed as many jokers as
    B, or fewer but at least the table's, A's runs are B's or one step better in one
    colour (a run of length 1 made 2 or >= 3 long, one of length 2 made >= 3, an empty
    slot holding a run of length >= 3), and, under a meld, A has B's points of the meld
    or has met it: whatever B does next, A can do too (``rumdiff.solve.engine._jokers``'s
    ``_undominated``). A state that another dominates goes, even when a third dominates
    that other in turn; no two distinct states dominate each other, so a row keeps one
    state at least.

    Parameters
    ----------
    puzzle : Puzzle
        Its colours, copies, jokers and table jokers shape the states.
    codes : array_like of int, shape (states,)
        The states' codes, distinct, as :attr:`rumdiff.solve.engine.Pass.path` holds
        them: each colour's run state (a code of
        ``rumdiff.solve.runstates.complete_run_states(m + jokers)``) in ``b`` bits, the
        fewest that hold them all, colour 0 lowest; then the jokers placed, in 3 bits;
        then the meld's points so far (at most ``meld``).
    values : array_like of int, shape (states,)
        The states' values.
    meld : int, default 0
        The meld's points (0: no meld).

    Returns
    -------
    ndarray of bool, shape (states,)
        True for each state kept.

    Raises
    ------
    ValueError
        If the codes are not distinct or not codes of the puzzle's states.
    """
    from rumdiff.solve.engine._jokers import undominated_states

    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"undominated expects a Puzzle, got {type(puzzle).__name__}")
    meld = whole("meld", meld, low=0)
    check_codes(puzzle, meld)
    codes, values = (np.asarray(a) for a in (codes, values))
    for name, array in (("codes", codes), ("values", values)):
        if array.ndim != 1 or not (array.size == 0 or np.issubdtype(array.dtype, np.integer)):
            raise ValueError(f"{name} must be a 1-D array of whole numbers, got {array.dtype} "
                             f"of shape {array.shape}")  # fmt: skip
    if codes.shape != values.shape:
        raise ValueError(f"{codes.size} codes but {values.size} values")
    codes, values = codes.astype(np.int64), values.astype(np.int64)
    if len(np.unique(codes)) != codes.size:
        raise ValueError("the codes are not distinct: a row holds each state once")
    bits, k = run_bits(puzzle), puzzle.k
    top = bits * k
    size = complete_run_states(puzzle.m + puzzle.jokers).size
    digits = (codes[:, None] >> (bits * np.arange(k))) & ((1 << bits) - 1)
    bad = (codes < 0) | (digits >= size).any(axis=1) | (codes >> (top + 3) > meld)
    bad |= (codes >> top) & 7 > puzzle.jokers
    if bad.any():
        raise ValueError(f"{int(codes[bad][0])} is not the code of a state of this puzzle "
                         f"with a meld of {meld} points")  # fmt: skip
    kept = np.zeros(codes.size, dtype=np.bool_)
    undominated_states(codes, values, np.int64(puzzle.table_jokers), np.int64(bits),
                       np.int64(k), np.int64(meld), _upgrades(puzzle.m + puzzle.jokers),
                       kept)  # fmt: skip
    return kept
