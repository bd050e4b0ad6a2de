"""The integer linear program of den Hertog and Hulshof (2006), solved by HiGHS through
:func:`scipy.optimize.milp`: the exact solver's twin on puzzles too large for the brute
force, and its fallback when the DP runs out of budget.

It takes the ``(n, k)`` count matrix ``copies`` (row ``v - 1`` holds the copies of value
``v`` per colour) or a :class:`~rumdiff.puzzle.Puzzle`, which may hold jokers and a
table (README, "Jokers and the table"). Sets use the papers' minimal set size s = 3.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, milp

from rumdiff import config
from rumdiff.puzzle import Puzzle, as_copies
from rumdiff.solve.arrangement import Arrangement, Group, Run
from rumdiff.solve.meld import join, meld_parts
from rumdiff.solve.twins.brute_force import INFEASIBLE
from rumdiff.validation import check_kmn

__all__ = ["lp_bound", "solve_ilp"]

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


def _joker_candidates(copies: np.ndarray, jokers: int):
    """List the ILP's sets when the puzzle has jokers: :func:`_candidate_sets`' sets with
    each choice of jokers among their tiles (a joker may stand where a tile is present or
    absent), and one set of only jokers of each size that fits.

    Returns ``(sets, cells, upper, joker_counts)`` as :func:`_candidate_sets`, plus the
    jokers each set holds.
    """
    n, k = copies.shape
    sets: list[Run | Group] = []
    cells: list[list[int]] = []
    upper: list[int] = []
    counts: list[int] = []

    def add(candidate, tiles, held):
        real = [(v - 1) * k + c for v, c in tiles]
        if not real and candidate != _joker_only(k, n, len(held)):
            return  # which tiles jokers alone stand for does not matter: one set a size
        most = min((int(copies.flat[cell]) for cell in real), default=jokers)
        if held:
            most = min(most, jokers // len(held))
        if most > 0:
            sets.append(candidate)
            cells.append(real)
            upper.append(most)
            counts.append(len(held))

    for colour in range(k):
        for start in range(1, n + 1):
            for length in range(_S, min(_LONGEST, n - start + 1) + 1):
                span = list(range(start, start + length))
                for size in range(0, min(jokers, length) + 1):
                    for held in combinations(span, size):
                        tiles = [(v, colour) for v in span if v not in held]
                        add(Run(colour, start, start + length - 1, held), tiles, held)
    for value in range(1, n + 1):
        present = np.flatnonzero(copies[value - 1] > 0).tolist()
        for real in range(0, min(len(present), _LONGEST) + 1):
            for chosen in combinations(present, real):
                free = [c for c in range(k) if c not in chosen]
                for size in range(max(0, _S - real), min(jokers, _LONGEST - real, len(free)) + 1):
                    held = tuple(free[:size])
                    add(Group(value, chosen, held), [(value, c) for c in chosen], held)
    return sets, cells, upper, counts


def _joker_only(k: int, n: int, size: int):
    """The one set of ``size`` jokers alone the ILP offers: a group at value n when k
    allows it, else a run of colour 0 up to value n (the most an opening meld counts for
    such a set; it scores 0 either way)."""
    if size <= k:
        return Group(n, (), tuple(range(size)))
    return Run(0, n - size + 1, n, tuple(range(n - size + 1, n + 1)))


def _incidence(cells, tiles: int):
    """The program's matrix, one column per set and one row per (value, colour) (a set
    uses each tile once), and the rows of the tiles some set uses: the others constrain
    nothing and only slow HiGHS down."""
    columns = np.repeat(np.arange(len(cells)), [len(c) for c in cells])
    rows = np.concatenate([np.asarray(c, dtype=np.int64) for c in cells])
    matrix = sparse.csr_array((np.ones(len(rows)), (rows, columns)), shape=(tiles, len(cells)))
    return matrix, np.unique(rows)


def lp_bound(copies) -> float:
    """The optimum of the program's linear relaxation: an upper bound on the score.

    The program of :func:`solve_ilp` for a puzzle without jokers, a table or a meld, with
    each set taken any non-negative number of times, fractions too; HiGHS solves it
    through :func:`scipy.optimize.linprog`. ``docs/decisions/limits.md`` ("The
    solver") compares it with the solver's bounds.

    Parameters
    ----------
    copies : array_like of shape (n, k) or Puzzle
        As for :func:`solve_ilp`.

    Returns
    -------
    float
        The relaxation's optimum, at least the puzzle's maximum score.

    Raises
    ------
    ValueError
        If ``copies`` is malformed, or a puzzle with jokers, a table or a meld.
    RuntimeError
        If HiGHS fails.
    """
    from scipy.optimize import linprog

    if isinstance(copies, Puzzle) and (not copies.plain or copies.game.meld is not None):
        raise ValueError("lp_bound takes puzzles without jokers, a table or a meld")
    copies = _validate(copies)
    n, k = copies.shape
    sets, cells, upper = _candidate_sets(copies)
    if not sets:
        return 0.0
    matrix, used = _incidence(cells, n * k)
    points = np.array([candidate.points for candidate in sets], dtype=float)
    bounds = np.stack([np.zeros(len(upper)), np.asarray(upper, dtype=float)], axis=1)
    result = linprog(
        -points, A_ub=matrix[used], b_ub=copies.ravel()[used], bounds=bounds, method="highs"
    )
    if result.status != 0:
        raise RuntimeError(
            f"HiGHS did not solve the relaxation (status {result.status}): {result.message}"
        )
    return float(-result.fun)


def solve_ilp(
    copies, *, time_limit: float | None = None, presolve: bool = True, objective: str = "value"
) -> Arrangement | None:
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

    objective : {"value", "tiles"}
        Maximise the value placed, or the tiles placed with ties broken by value.

    With jokers (a :class:`~rumdiff.puzzle.Puzzle` that has them), every set also comes
    with each choice of its tiles taken by jokers, and one more row bounds the jokers
    placed by the puzzle's jokers from above and its table jokers from below; a table
    makes its tiles' rows lower bounds too. A puzzle of a game with an opening meld
    (``rumdiff.solve.meld``) is two programs: the table alone, all of it placed, then the
    rack alone with one more row, the sets' face values (a joker at the tile's) at least
    the meld's points.

    Returns
    -------
    Arrangement or None
        An optimal arrangement; ``.score`` is the puzzle's maximum score. Runs longer
        than 5 appear as adjacent pieces of length 3..5. ``INFEASIBLE`` (None) when no
        arrangement places the whole table.

    Raises
    ------
    ValueError
        If ``copies`` has the wrong shape or entries outside ``0..config.MAX_M``.
    TimeoutError
        If HiGHS reaches ``time_limit`` before it proves optimality.
    RuntimeError
        If HiGHS fails otherwise.
    """
    puzzle = copies if isinstance(copies, Puzzle) else None
    copies = _validate(copies)
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be positive seconds, got {time_limit}")
    if objective not in ("value", "tiles"):
        raise ValueError(f"objective must be 'value' or 'tiles', got {objective!r}")
    table_sets, meld = Arrangement(), None if puzzle is None else puzzle.game.meld
    if meld is not None:
        table, puzzle = meld_parts(puzzle)
        copies = puzzle.copies.astype(np.int64)
        if table is not None:
            table_sets = solve_ilp(table, time_limit=time_limit, presolve=presolve)
            if table_sets is INFEASIBLE:
                return INFEASIBLE
    n, k = copies.shape
    if puzzle is None or puzzle.plain:
        sets, cells, upper = _candidate_sets(copies)
        held, table, jokers, table_jokers = None, None, 0, 0
    else:
        sets, cells, upper, held = _joker_candidates(copies, puzzle.jokers)
        table, jokers, table_jokers = puzzle.table_copies, puzzle.jokers, puzzle.table_jokers
    if not sets:
        # milp rejects a problem without variables; nothing can be placed anyway.
        owed = table_jokers or (table is not None and table.any()) or meld is not None
        return INFEASIBLE if owed else Arrangement()
    matrix, used = _incidence(cells, n * k)
    least = -np.inf if table is None else table.ravel()
    if table is not None and (table.ravel()[np.setdiff1d(np.arange(n * k), used)] > 0).any():
        return INFEASIBLE  # a table tile that no set can hold
    constraints = [
        LinearConstraint(matrix[used], np.broadcast_to(least, n * k)[used], copies.ravel()[used])
    ]
    if held is not None:
        constraints.append(LinearConstraint(np.asarray([held], dtype=float), table_jokers, jokers))
    if meld is not None:
        faces = np.array([[candidate.face for candidate in sets]], dtype=float)
        constraints.append(LinearConstraint(faces, meld, np.inf))
    tiles = np.array([len(c) for c in cells], dtype=float)
    points = np.array([candidate.points for candidate in sets], dtype=float)
    big = float(copies.sum(axis=1) @ np.arange(1, n + 1) + 1) if objective == "tiles" else 0.0
    weights = points + big * tiles
    options = {"mip_rel_gap": 0.0, "presolve": presolve}  # the default gap can stop short
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    result = milp(
        -weights,  # milp minimises
        constraints=constraints,
        integrality=np.ones(len(sets)),
        bounds=Bounds(0, np.asarray(upper, dtype=float)),
        options=options,
    )
    if result.status == 2:
        return INFEASIBLE
    if result.status == 1:
        raise TimeoutError(f"HiGHS reached its time limit of {time_limit:g} s: {result.message}")
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
    placed = sum(r.tiles for r in runs) + sum(g.tiles for g in groups)
    if arrangement.score + big * placed != round(-result.fun):
        raise RuntimeError(
            f"ILP solution rounds to score {arrangement.score}, but HiGHS reported {-result.fun}"
        )
    return join(table_sets, arrangement)
