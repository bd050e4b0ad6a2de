"""Slow, obvious solvers: the exact solver's twins in the tests.

Two independent ways to find the maximum score of a puzzle G(k, m, n), written for
clarity rather than speed, so that the fast DP in :mod:`rumdiff.solve.solver` can be
compared with them on seeded random puzzles:

- :func:`solve_ilp`, the integer linear program of den Hertog and Hulshof (2006),
  solved by HiGHS through :func:`scipy.optimize.milp`;
- :func:`solve_brute_force`, a memoised exhaustive search for tiny puzzles.

Both take the ``(n, k)`` count matrix ``copies`` (row ``v - 1`` holds the copies of
value ``v`` per colour) or a :class:`~rumdiff.puzzle.Puzzle`. Sets use the papers'
minimal set size s = 3; there are no jokers.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, milp

from rumdiff import config
from rumdiff.puzzle import Puzzle, as_copies
from rumdiff.solve.arrangement import Arrangement, Group, Run
from rumdiff.validation import check_kmn

__all__ = ["solve_ilp", "solve_brute_force", "MAX_BRUTE_FORCE_TILES"]

#: Most tiles :func:`solve_brute_force` accepts by default; its memo grows
#: exponentially with the tile count, so larger puzzles belong to the ILP.
MAX_BRUTE_FORCE_TILES = 30

# The ILP and the brute force both assume the papers' minimal set size.
_S = config.S
# Runs of length 2s or more split into runs of length s..2s-1, and groups of 2s or more
# colours split likewise, so the ILP needs only set sizes s..2s-1.
_LONGEST = 2 * _S - 1


def _validate(copies) -> np.ndarray:
    """Return ``copies`` as a checked ``(n, k)`` int64 matrix, or raise ``ValueError``."""
    if isinstance(copies, Puzzle):
        copies = copies.copies
    array = as_copies(copies, config.MAX_M)
    if array.ndim != 2:
        raise ValueError(f"copies must have shape (n, k), got shape {array.shape}")
    check_kmn(array.shape[1], 1, array.shape[0])
    return array.astype(np.int64)


def _candidate_sets(copies: np.ndarray):
    """List the ILP's sets whose tiles are all present.

    Returns
    -------
    sets : list of Run or Group
        Runs of length s..2s-1 and groups of s..min(k, 2s-1) colours.
    cells : list of list of int
        For each set, the flat indices ``(value - 1) * k + colour`` of its tiles.
    upper : list of int
        For each set, how often it can be taken at most (its scarcest tile's copies).
    """
    n, k = copies.shape
    present = copies > 0
    sets: list[Run | Group] = []
    cells: list[list[int]] = []
    upper: list[int] = []
    for colour in range(k):
        for start in range(1, n + 1):
            for length in range(_S, _LONGEST + 1):
                end = start + length - 1
                if end > n or not present[start - 1 : end, colour].all():
                    # A longer run from this start would need the same missing tile.
                    break
                sets.append(Run(colour, start, end))
                cells.append([(v - 1) * k + colour for v in range(start, end + 1)])
                upper.append(int(copies[start - 1 : end, colour].min()))
    for value in range(1, n + 1):
        colours = np.flatnonzero(present[value - 1]).tolist()
        for size in range(_S, min(len(colours), _LONGEST) + 1):
            for chosen in combinations(colours, size):
                sets.append(Group(value, chosen))
                cells.append([(value - 1) * k + c for c in chosen])
                upper.append(int(copies[value - 1, list(chosen)].min()))
    return sets, cells, upper


def solve_ilp(copies, *, time_limit: float | None = None, presolve: bool = True) -> Arrangement:
    """Solve a puzzle exactly by integer linear programming (den Hertog and Hulshof).

    One non-negative integer variable counts how often each set is taken: each run of
    length 3, 4 or 5 (longer runs split into these) at every start value and colour,
    and each group of 3..min(k, 5) distinct colours at every value. Sets that need an
    absent tile are left out. For every (value, colour) the sets using that tile may
    take at most its copies. The objective maximises the total value of placed tiles.
    HiGHS solves it through :func:`scipy.optimize.milp` with a relative gap of 0.

    Parameters
    ----------
    copies : array_like of shape (n, k) or Puzzle
        ``copies[v - 1, c]`` is the number of tiles of value ``v`` and colour ``c``,
        each in ``0..config.MAX_M``.
    time_limit : float, optional
        Seconds HiGHS may spend; no limit by default.
    presolve : bool, default True
        Let HiGHS presolve the model. HiGHS (scipy 1.17.1) has claimed a proven optimum
        one point short with presolve on some puzzles and off on others (a G(6, 3, 100)
        and a G(6, 1, 100) puzzle, kept in ``tests/data/ilp_hard.csv.gz``), so the
        golden optima take the better of both runs; each is a checked arrangement.

    Returns
    -------
    Arrangement
        An optimal arrangement; ``.score`` is the puzzle's maximum score. Runs longer
        than 5 appear as adjacent pieces of length 3..5.

    Raises
    ------
    ValueError
        If ``copies`` has the wrong shape or entries outside ``0..config.MAX_M``.
    RuntimeError
        If HiGHS does not prove optimality (time limit reached or solver failure).
    """
    copies = _validate(copies)
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be positive seconds, got {time_limit}")
    sets, cells, upper = _candidate_sets(copies)
    if not sets:
        # milp rejects a problem without variables; nothing can be placed anyway.
        return Arrangement()
    n, k = copies.shape
    # One column per set, one row per (value, colour); a set uses each tile once.
    columns = np.repeat(np.arange(len(sets)), [len(c) for c in cells])
    rows = np.concatenate([np.asarray(c, dtype=np.int64) for c in cells])
    matrix = sparse.csr_array((np.ones(len(rows)), (rows, columns)), shape=(n * k, len(sets)))
    # Drop rows of tiles no set uses: they constrain nothing and only slow HiGHS down.
    used = np.unique(rows)
    constraint = LinearConstraint(matrix[used], -np.inf, copies.ravel()[used])
    points = np.array([candidate.points for candidate in sets], dtype=float)
    options = {"mip_rel_gap": 0.0, "presolve": presolve}  # the default gap can stop short
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    result = milp(
        -points,  # milp minimises
        constraints=constraint,
        integrality=np.ones(len(sets)),
        bounds=Bounds(0, np.asarray(upper, dtype=float)),
        options=options,
    )
    if result.status != 0:
        raise RuntimeError(
            f"HiGHS did not reach optimality (status {result.status}): {result.message}"
        )
    taken = np.rint(result.x).astype(np.int64)
    runs: list[Run] = []
    groups: list[Group] = []
    for chosen, count in zip(sets, taken, strict=True):
        (runs if isinstance(chosen, Run) else groups).extend([chosen] * int(count))
    arrangement = Arrangement(tuple(sorted(runs)), tuple(sorted(groups)))
    # Guard against rounding of a fractional incumbent: the objective must match.
    if arrangement.score != round(-result.fun):
        raise RuntimeError(
            f"ILP solution rounds to score {arrangement.score}, but HiGHS reported {-result.fun}"
        )
    return arrangement


def solve_brute_force(copies, *, max_tiles: int = MAX_BRUTE_FORCE_TILES) -> int:
    """Maximum score of a tiny puzzle by exhaustive, memoised search.

    Take the first present tile (lowest value, then lowest colour). Every tile before
    it is gone, so any set holding it is a run *starting* at it, or a group at its
    value with other colours present there. Try each: leave one copy unused, put it in
    a run of every reachable length >= 3, or in a group with every subset of at least
    two other present colours at its value; recurse on what remains and keep the best.
    Results are memoised on the remaining count matrix.

    Parameters
    ----------
    copies : array_like of shape (n, k) or Puzzle
        ``copies[v - 1, c]`` is the number of tiles of value ``v`` and colour ``c``,
        each in ``0..config.MAX_M``.
    max_tiles : int, optional
        Refuse puzzles with more tiles than this (the search is exponential).

    Returns
    -------
    int
        The maximum total value of tiles placed in runs and groups.

    Raises
    ------
    ValueError
        If ``copies`` is malformed or holds more than ``max_tiles`` tiles.
    """
    copies = _validate(copies)
    tiles = int(copies.sum())
    if tiles > max_tiles:
        raise ValueError(
            f"puzzle has {tiles} tiles; brute force accepts at most {max_tiles} "
            "(use solve_ilp for larger puzzles)"
        )
    n, k = copies.shape
    return _search(tuple(copies.ravel().tolist()), n, k)


def _search(state: tuple[int, ...], n: int, k: int) -> int:
    """Best score of the flat count vector ``state`` (index ``(value - 1) * k + colour``)."""

    @cache
    def best(state: tuple[int, ...]) -> int:
        first = next((i for i, x in enumerate(state) if x), None)
        if first is None:
            return 0
        value, colour = first // k + 1, first % k
        rest = list(state)
        rest[first] -= 1
        result = best(tuple(rest))  # leave one copy of this tile unused
        # Runs starting at this tile: extend while the next value of its colour exists.
        run = list(rest)
        points = value
        end = value
        while end < n and run[end * k + colour] > 0:
            run[end * k + colour] -= 1
            end += 1
            points += end
            if end - value + 1 >= _S:
                result = max(result, points + best(tuple(run)))
        # Groups at this value: this tile plus >= s - 1 other present colours. Colours
        # below ``colour`` at this value are already exhausted, so look only above.
        others = [c for c in range(colour + 1, k) if rest[(value - 1) * k + c] > 0]
        for size in range(_S - 1, len(others) + 1):
            for chosen in combinations(others, size):
                group = list(rest)
                for c in chosen:
                    group[(value - 1) * k + c] -= 1
                result = max(result, value * (size + 1) + best(tuple(group)))
        return result

    return best(state)
