"""The exact solver: maximum score, one optimal arrangement, and the work it took.

:func:`solve` wraps the numba kernel ``rumdiff.solve.engine._plain_passes.solve_kernel``. For
each puzzle the kernel

1. removes copies that no run or group can use (thesis 6.3, generalised to any k and m),
2. splits the values where no run can cross (thesis 6.4) and, per segment,
3. stops when max(runs only, groups only) meets min(runs only + groups only, the
   per-value upper bounds) (thesis 6.1),
4. otherwise runs beam searches (walking the values downwards and upwards) that may
   reach the upper bound, or give a strong lower bound, then the exact dynamic
   program over values (2015 paper, Section 4) with dominance between run slots and
   pruning of every state that cannot beat that bound. On large joint state spaces
   (k >= 5 with m = 3) it first sharpens that pruning by solving the segment's tails,
   shortest first, each with every run entering free (``_plain_passes._tail_bounds``).

Work is counted in DP states kept and transitions evaluated, which, unlike seconds,
are the same on every machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache, cached_property

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle
from rumdiff.solve.arrangement import Arrangement, Group, Run
from rumdiff.solve.display import Drawable
from rumdiff.solve.engine import STATUSES
from rumdiff.solve.groups import group_value_table, make_groups
from rumdiff.solve.jokers import OBJECTIVES, rebuild, run_joker_dp
from rumdiff.solve.meld import check_meld, join, meld_parts
from rumdiff.solve.runstates import dominance, run_states

__all__ = ["TRACE_KINDS", "Solution", "SolverBudgetError", "Traced", "Work", "solve"]

#: The kinds of pass a joker-free solve runs, in the order of the codes of
#: ``rumdiff.solve.engine._plain_passes``: a narrow beam aimed at the upper bound, a beam
#: for a lower bound, a beam as wide walking the values upwards aimed at the upper bound,
#: a tail's beam and exact pass (sharpening the bounds of large segments), the exact
#: pass aimed at the lower bound + 1, the narrow beam again, walking the values upwards,
#: and the exact pass walking them upwards. (A solve runs them in the order narrow beam,
#: narrow beam upwards, beam upwards, beam, tails, exact (either way), stopping where one
#: settles the segment, and skipping the beams aimed at the upper bound once one that
#: never filled proves it out of reach.)
TRACE_KINDS = (
    "narrow beam", "beam", "beam upwards", "tail beam", "tail exact", "exact at lower + 1",
    "narrow beam upwards", "exact at lower + 1 upwards",
)  # fmt: skip

_warm: list[bool] = []  # the joker search compiled or loaded


class SolverBudgetError(RuntimeError):
    """The puzzle needs more DP states than the budget allows."""


@dataclass(frozen=True)
class Traced:
    """One pass of the DP that a joker-free solve ran (``solve(..., trace=True)``).

    Attributes
    ----------
    segment : int
        The segment (0 the highest values: the solver walks them downwards).
    kind : str
        One of :data:`TRACE_KINDS`.
    aim : int
        The score it aimed at.
    best : int or None
        The best score it found (at least the aim), None unless ``status == "ok"``.
    states, transitions : int
        The states it kept and the transitions it tried.
    status : {"ok", "not reached", "over budget"}
    cut : bool
        Whether its beam dropped a state. An exact pass drops none, and nor does a beam
        that never filled: that pass was exact, so what it found is the optimum, and
        "not reached" proves nothing reaches its aim.
    """

    segment: int
    kind: str
    aim: int
    best: int | None
    states: int
    transitions: int
    status: str
    cut: bool


@dataclass(frozen=True)
class Work:
    """How much effort a solve took.

    Attributes
    ----------
    states : int
        DP states kept (summed over values, beam and exact passes).
    transitions : int
        Per-colour transitions evaluated by the DP.
    seconds : float
        Wall time of the solve.
    method : str
        ``"bounds"`` when preprocessing and bounds alone settled every segment (no DP
        work), ``"dp"`` when the DP solved it, ``"ilp"`` when the DP ran over its budget
        and the reference ILP solved it (the states and transitions are then the DP's
        before it gave up; the seconds include the ILP's).
    exact_passes : int
        Exact DP passes run after the beams, summed over segments: none for a segment a
        beam settled (it met the upper bound; or it never filled, so it was exact, and
        found the optimum or proved the bound out of reach, which the beam for a lower
        bound may then meet; or with ``beam_width=0`` the first pass was exact itself),
        else one, aimed just above the best the beams found, which finds a better
        arrangement or proves there is none. On joint state spaces of 2 million
        states or more (k >= 5 with m = 3), up to 8 passes that sharpen the bounds of the
        segment's tails come before it, count here too, and may make it needless.
    trace : tuple of Traced, or None
        Every pass of a joker-free solve, in order, when it was asked for.
    """

    states: int
    transitions: int
    seconds: float
    method: str
    exact_passes: int
    trace: tuple[Traced, ...] | None = None


@dataclass(frozen=True)
class Solution(Drawable):
    """The result of :func:`solve`.

    Attributes
    ----------
    score : int or None
        The maximum total value of placed tiles (for the ``tiles`` objective, the
        value of an arrangement that places the most rack tiles); None when no
        arrangement places the whole table, or, under an opening meld, when no move
        meets it (:attr:`feasible`).
    lower, upper : int or None
        The bounds the solver started from (summed over segments). With jokers or a
        table: the score known to be reachable (the joker-free optimum without a table;
        None with one, or under an opening meld) and the bound above every score the
        passes aimed at.
    removed : int or None
        Copies removed because no run or group can use them (None with jokers or a
        table, which no copy is removed from: a joker can make any tile placeable).
    segments, dp_segments : int or None
        Independent segments after splitting, and how many needed the DP (None with
        jokers or a table, which are never split: a joker bridges any gap).
    work : Work
        States, transitions, seconds and method.
    """

    puzzle: Puzzle
    score: int | None
    lower: int | None
    upper: int | None
    removed: int | None
    segments: int | None
    dp_segments: int | None
    work: Work
    _reduced: np.ndarray = field(repr=False)
    _path: np.ndarray = field(repr=False)
    _found: Arrangement | None = field(default=None, repr=False)
    _objective: str = field(default="", repr=False)  # set when the joker DP solved it
    _weight: int = field(default=0, repr=False)  # the joker DP's best weight
    _parts: tuple = field(default=(), repr=False)  # an opening move's: table, then rack

    @property
    def meld(self) -> Arrangement | None:
        """The new sets of an opening move, made of rack tiles alone (a puzzle of a game
        with an opening meld, :mod:`rumdiff.solve.meld`); None for other puzzles and
        when no move meets the meld."""
        return self._parts[-1].arrangement if self._parts and self.feasible else None

    @property
    def feasible(self) -> bool:
        """False when no arrangement places every table tile and table joker."""
        return self.score is not None

    @cached_property
    def arrangement(self) -> Arrangement | None:
        """One optimal arrangement (built on first access from the DP path); None for an
        infeasible puzzle. Jokers carry what they stand for."""
        if self._found is not None or not self.feasible:
            return self._found
        if self._parts:  # an opening move: the table's sets and the rack's new ones
            arrangement = join(*(part.arrangement for part in self._parts))
            check_meld(self.puzzle, arrangement, self.meld)
            return arrangement
        if self._objective:
            return _joker_arrangement(self.puzzle, self._path, self._objective, self._weight)
        arrangement = _rebuild(self._reduced, self._path, self.puzzle.m)
        if arrangement.score != self.score:
            raise RuntimeError(
                f"internal error: arrangement scores {arrangement.score}, solver {self.score}"
            )
        return arrangement


def solve(
    puzzle: Puzzle,
    *,
    beam_width: int = config.BEAM_WIDTH,
    max_states: int = config.MAX_STATES,
    ilp_fallback: bool = config.ILP_FALLBACK,
    objective: str = "value",
    trace: bool = False,
) -> Solution:
    """Solve a puzzle exactly, jokers and table included.

    Wraps the kernel ``rumdiff.solve.engine._plain_passes.solve_kernel``.

    Puzzles with jokers or a table, and the ``tiles`` objective, go to the DP with a
    joker dimension (:mod:`rumdiff.solve.jokers`), which runs none of the shortcuts
    above; the others take the path above, unchanged. A puzzle of a game with an
    opening meld (``puzzle.with_meld()``) is an opening move (:mod:`rumdiff.solve.meld`):
    its table and its rack are solved apart, the rack under the meld's rule.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle (s = 3, any k <= 6, m <= 3, up to 4 jokers, a table or none).
    beam_width : int, default config.BEAM_WIDTH
        States per value kept by the beam search that seeds the exact DP with a lower
        bound (``config.BEAM_WIDEN`` times as many for k >= 5), and by the beam walking
        upwards aimed at the upper bound; the narrow beams keep
        ``config.NARROW_BEAM_DIVISOR`` times fewer. It changes the work, never the
        score; 0 skips every beam.
    max_states : int, default config.MAX_STATES
        Budget: the most DP states kept in one pass before giving up.
    ilp_fallback : bool, default config.ILP_FALLBACK
        Over the budget, solve the puzzle with the reference ILP
        (:func:`rumdiff.solve.twins.ilp.solve_ilp`) instead of giving up: HiGHS with and
        without presolve, keeping the better checked arrangement, since HiGHS has
        claimed proven optima one point short (``tests/data/ilp_hard.csv.gz``).
    objective : {"value", "tiles"}, default "value"
        Maximise the value placed, or the rack tiles placed (every tile without a
        table) with ties broken by value, as game solvers do.
    trace : bool, default False
        Keep every pass of a joker-free solve in ``work.trace`` (:class:`Traced`).

    Returns
    -------
    Solution

    Raises
    ------
    SolverBudgetError
        If the puzzle needs more states than ``max_states`` and ``ilp_fallback`` is off.
    """
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"solve expects a Puzzle, got {type(puzzle).__name__}")
    if beam_width < 0 or max_states < 1:
        raise ValueError("beam_width must be >= 0 and max_states >= 1")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if puzzle.game.meld is not None:
        return _solve_meld(puzzle, objective, beam_width, max_states, ilp_fallback)
    if not puzzle.plain or objective != "value":
        return _solve_with_jokers(puzzle, objective, beam_width, max_states, ilp_fallback)
    solve_kernel = _plain_kernel()
    over_budget = _statuses()[1]
    if not solve_kernel.overloads:  # (not .signatures: that lists them, 8 us a call)
        # Compile (or load from numba's cache) outside the timing: a puzzle's seconds
        # are its own, never the compiler's.
        _solve_kernel(warm_up_puzzle(), beam_width, max_states, False)
    started = time.perf_counter()
    reduced, path, report, passes_run = _solve_kernel(puzzle, beam_width, max_states, trace)
    seconds = time.perf_counter() - started
    score, removed, lower, upper, states, transitions, segments, hard, status, passes, _ = (
        report.tolist()
    )
    found = None
    if status == over_budget:
        if not ilp_fallback:
            raise SolverBudgetError(
                f"the DP needed more than max_states={max_states} states, or more than "
                f"{config.MAX_LIVE_STATES} at one value, for {puzzle!r}"
            )
        found = _by_ilp(puzzle)
        score = found.score
        seconds = time.perf_counter() - started
    method = "ilp" if found is not None else "dp" if hard else "bounds"
    work = Work(states, transitions, seconds, method, passes, passes_run)
    return Solution(
        puzzle, score, lower, upper, removed, segments, hard, work, reduced, path, found
    )


def _by_ilp(puzzle: Puzzle, objective: str = "value") -> Arrangement | None:
    """The better of the reference ILP's arrangements with and without presolve (None:
    the table cannot be placed), found in a child process under the memory and time of
    ``config.ILP_MAX_MEMORY`` and ``config.ILP_SECONDS``.

    Raises
    ------
    SolverBudgetError
        If the ILP needs more memory or time than that.
    """
    from rumdiff.processes import run_capped

    source = puzzle.copies if puzzle.plain and puzzle.game.meld is None else puzzle
    try:
        found = run_capped(
            _ilp_twice, source, objective, config.ILP_SECONDS, memory=config.ILP_MAX_MEMORY,
            modules=("rumdiff.solve.twins.ilp",),
        )  # fmt: skip
    except MemoryError:
        raise SolverBudgetError(
            f"the DP ran over its budget and the reference ILP over its memory cap of "
            f"{config.ILP_MAX_MEMORY:,} bytes, for {puzzle!r}"
        ) from None
    except TimeoutError:
        raise SolverBudgetError(
            f"the DP ran over its budget and the reference ILP over its "
            f"{config.ILP_SECONDS:g} s, for {puzzle!r}"
        ) from None
    found = [arrangement for arrangement in found if arrangement is not None]
    for arrangement in found:
        arrangement.check(puzzle)
        if puzzle.game.meld is not None:  # (a rack alone: every set is new)
            check_meld(puzzle, arrangement, arrangement)
    return max(
        found, key=lambda a: (_tiles(a) if objective == "tiles" else 0, a.score), default=None
    )


def _ilp_twice(source, objective: str, seconds: float) -> list:
    """The reference ILP's arrangements with and without presolve, each within
    ``seconds`` (:func:`_by_ilp`'s child process runs it).

    Raises
    ------
    TimeoutError
        If HiGHS does not prove an optimum within them.
    """
    from rumdiff.solve.twins.ilp import solve_ilp

    return [
        solve_ilp(source, presolve=presolve, objective=objective, time_limit=seconds)
        for presolve in (True, False)
    ]


def _tiles(arrangement: Arrangement) -> int:
    """Regular tiles an arrangement places."""
    return sum(r.tiles for r in arrangement.runs) + sum(g.tiles for g in arrangement.groups)


def _solve_with_jokers(puzzle: Puzzle, objective: str, beam: int, max_states: int, fallback):
    """:func:`solve` for puzzles with jokers or a table, or the tiles objective."""
    not_reached, over_budget = _statuses()
    if not _warm:  # compile outside the timing, as in solve (a flag: asking numba is slow)
        run_joker_dp(Puzzle.from_tiles(["J"], k=3, m=1, n=3), "value", 1000, beam)
        _warm.append(True)
    started = time.perf_counter()
    lower = None
    meld = puzzle.game.meld
    tabled = puzzle.table is not None or puzzle.table_jokers > 0
    plain = None
    if objective == "value" and not tabled and meld is None:
        # Jokers may stay on the rack: the joker-free optimum is reachable (under a meld
        # it may fall short of the meld).
        plain = solve(Puzzle(puzzle.copies, m=puzzle.m), beam_width=beam,
                      max_states=max_states, ilp_fallback=fallback)  # fmt: skip
        lower = plain.score
    best, states, transitions, passes, status, path, upper = run_joker_dp(
        puzzle, objective, max_states, beam, -1 if lower is None else lower, meld=meld or 0
    )
    # No pass traced the best when it is the joker-free optimum: that arrangement is it.
    found, method, score = None if path is not None else plain.arrangement, "dp", None
    if status == over_budget:
        if not fallback:
            raise SolverBudgetError(
                f"the DP needed more than max_states={max_states} states, or more than "
                f"{config.MAX_LIVE_STATES} at one value, for {puzzle!r}"
            )
        found, method = _by_ilp(puzzle, objective), "ilp"
        score = None if found is None else found.score
    elif status != not_reached:
        # The weight is the value, plus (tiles) points + 1 per tile placed: the value is
        # the rest. The arrangement is rebuilt and checked on first access.
        score = best % (puzzle.points + 1) if objective == "tiles" else best
    work = Work(states, transitions, time.perf_counter() - started, method, passes)
    empty = np.zeros(0, dtype=np.int64)
    if found is not None:
        found.check(puzzle)
    solved = found is None and score is not None
    path = empty if path is None else path
    if objective == "tiles":  # the bound is on the weight: its value part
        upper %= puzzle.points + 1
    return Solution(
        puzzle, score, lower, upper, None, None, None, work, empty, path, found,
        objective if solved else "", best,
    )  # fmt: skip


def _joker_arrangement(puzzle: Puzzle, path: np.ndarray, objective: str, best: int):
    """The arrangement along a path of the joker DP, checked against its weight."""
    found = rebuild(puzzle, path)
    weight = found.score + (puzzle.points + 1 if objective == "tiles" else 0) * _tiles(found)
    if found.check(puzzle) is None or weight != best:
        raise RuntimeError(f"internal error: arrangement weighs {weight}, DP {best}")
    if puzzle.game.meld is not None:  # (a rack alone: every set is new)
        check_meld(puzzle, found, found)
    return found


def _solve_meld(puzzle: Puzzle, objective: str, beam: int, max_states: int, fallback):
    """:func:`solve` for an opening move: the table alone, every tile of it placed, and
    the rack alone under the meld's rule (:func:`rumdiff.solve.meld.meld_parts`)."""
    started = time.perf_counter()
    table, rack = meld_parts(puzzle)
    options = {"beam_width": beam, "max_states": max_states, "ilp_fallback": fallback}
    parts = [] if table is None else [solve(table, **options)]
    if not parts or parts[0].feasible:
        parts.append(_solve_with_jokers(rack, objective, beam, max_states, fallback))
    works = [part.work for part in parts]
    method = "ilp" if any(work.method == "ilp" for work in works) else "dp"
    work = Work(
        sum(w.states for w in works), sum(w.transitions for w in works),
        time.perf_counter() - started, method, sum(w.exact_passes for w in works),
    )  # fmt: skip
    empty = np.zeros(0, dtype=np.int64)
    if not all(part.feasible for part in parts):
        return Solution(puzzle, None, None, None, None, None, None, work, empty, empty)
    # The arrangement is joined from the parts' and checked on first access.
    score = sum(part.score for part in parts)
    upper = sum(part.upper for part in parts)
    return Solution(
        puzzle, score, None, upper, None, None, None, work, empty, empty, _parts=tuple(parts)
    )


def warm_up_puzzle() -> Puzzle:
    """A tiny puzzle whose solving compiles the kernels for every puzzle."""
    return Puzzle.from_tiles([(1, 0), (2, 0), (3, 0)], k=1, m=1, n=3)


@cache
def _plain_kernel():
    """``solve_kernel``, imported on first use: importing it starts numba, and an import
    statement costs every call a microsecond."""
    from rumdiff.solve.engine._plain_passes import solve_kernel

    return solve_kernel


@cache
def _statuses() -> tuple[int, int]:
    """The engine's statuses of a pass that reached no state and of one over its budget,
    imported on first use, as :func:`_plain_kernel` (a solve with jokers or a table
    imports no more of the engine than these)."""
    from rumdiff.solve.engine._loop import NOT_REACHED, OVER_BUDGET

    return NOT_REACHED, OVER_BUDGET


def _solve_kernel(puzzle: Puzzle, beam_width: int, max_states: int, trace: bool):
    """Run ``solve_kernel`` on a puzzle; return its reduced copies, path, report and (with
    ``trace``) its passes."""
    solve_kernel = _plain_kernel()
    tables = run_states(puzzle.m)
    # The kernel walks the values downwards (but for two beams, which walk upwards for
    # other choices, and the exact pass that proves the optimum where the beam's losses
    # lie near the low values): a pass prunes by points, and a tile lost at a high value
    # costs the most, so the lists stay short from the first row on (upwards, the first
    # rows' points are too few to prune anything, and dense G(6, 3, 200) puzzles ran out
    # of states there). The kernel removes isolated tiles from this fresh copy.
    reduced = np.array(puzzle.copies[::-1], dtype=np.int64, order="C")
    path = np.empty(puzzle.n, dtype=np.int64)
    report = np.zeros(11, dtype=np.int64)
    values = np.full(puzzle.n + 3, puzzle.n + 1, dtype=np.int64)
    values[: puzzle.n] = np.arange(puzzle.n, 0, -1)
    # Room for every pass: each segment (at most n) runs 5 and two a tail.
    traced = np.zeros((puzzle.n * (5 + 2 * config.TAIL_BLOCKS) if trace else 0, 8), np.int64)
    solve_kernel(
        reduced,
        values,
        puzzle.m,
        config.S,
        tables.kernel_tables,
        dominance(puzzle.m),
        group_value_table(puzzle.k, puzzle.m),
        beam_width * (config.BEAM_WIDEN if puzzle.k >= 5 else 1),
        max_states,
        config.MAX_LIVE_STATES,
        path,
        report,
        traced,
    )
    if not trace:
        return reduced, path, report, None
    return (
        reduced,
        path,
        report,
        tuple(
            Traced(
                segment,
                TRACE_KINDS[kind],
                aim,
                best if status == 0 else None,
                states,
                transitions,
                STATUSES[status],
                bool(cut),
            )  # fmt: skip
            for segment, kind, aim, best, states, transitions, status, cut in traced[
                : report[10]
            ].tolist()
        ),
    )


def _rebuild(reduced: np.ndarray, path: np.ndarray, m: int) -> Arrangement:
    """Replay the DP path: the moves between states give the runs, leftovers groups.

    ``reduced`` and ``path`` come from the kernel, rows in decreasing value (see
    :func:`_solve_kernel`); runs and groups are replayed in that order, then the values
    are turned back (row w holds value n - w)."""
    n = reduced.shape[0]
    forward = _replay(reduced, path, m)
    runs = [Run(r.colour, n + 1 - r.end, n + 1 - r.start) for r in forward.runs]
    groups = [Group(n + 1 - g.value, g.colours) for g in forward.groups]
    runs.sort(key=lambda r: (r.end, r.colour, r.start))  # as they end, value by value
    groups.sort(key=lambda g: g.value)
    return Arrangement(tuple(runs), tuple(groups))


def _replay(reduced: np.ndarray, path: np.ndarray, m: int) -> Arrangement:
    """Runs and groups along a DP path, as if row w held value w + 1."""
    tables = run_states(m)
    counts_of, used_by = tables.counts, tables.nonzero.tolist()
    n, k = reduced.shape
    rows, codes = reduced.tolist(), path.tolist()
    runs: list[Run] = []
    groups: list[Group] = []
    slots = [[[0, 0] for _ in range(m)] for _ in range(k)]  # [length, start] per slot
    states = [0] * k
    for w in range(n + 1):
        value = w + 1
        code = codes[w] if w < n else 0
        row = rows[w] if w < n else [0] * k
        if w < n and code == 0 and not any(row) and not any(states):
            continue  # no tile and no run: nothing happens at this value (most of them)
        leftover = []
        for c in range(k):
            state = (code >> (5 * c)) & 31
            if state or states[c]:  # state 0 to 0 keeps every slot empty
                moved = list(tables.extended(states[c], state))
                lengths = [0, 0, 0, 0]
                # The first moved[L] slots (in slot order) of each length class L go on.
                for pair in slots[c]:
                    length, start = pair
                    kind = min(length, 3)
                    if moved[kind]:
                        moved[kind] -= 1
                        pair[0], pair[1] = length + 1, start if length else value
                        lengths[min(length + 1, 3)] += 1
                    else:
                        if length >= 3:
                            runs.append(Run(c, start, value - 1))
                        pair[0] = pair[1] = 0
                        lengths[0] += 1
                if tuple(lengths) != counts_of[state]:
                    raise RuntimeError(f"internal error: path is not canonical at value {value}")
                states[c] = state
            leftover.append(row[c] - used_by[state])
        if min(leftover) < 0:
            raise RuntimeError(f"internal error: path uses missing tiles at value {value}")
        if w < n:
            groups.extend(Group(value, colours) for colours in _groups_of(tuple(leftover)))
    return Arrangement(tuple(runs), tuple(groups))


@cache
def _groups_of(leftover: tuple) -> tuple:
    """:func:`make_groups` of the copies a row leaves to groups, as sorted colour tuples.

    A row holds at most 3 copies in each of at most 6 colours, so at most 4 ** 6 rows of
    each length are remembered.
    """
    return tuple(tuple(sorted(group)) for group in make_groups(leftover))
