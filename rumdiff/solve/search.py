"""A puzzle's search effort: the work of the reference exact DP, a fixed definition.

:func:`search_effort` wraps the numba kernel ``rumdiff.solve.engine._search.search_kernel``. Its
count does not change when rumdiff's fast solver (:func:`rumdiff.solve.solve`) gets
faster: it is the work of the 2015 paper's DP after the thesis's preprocessing,
splitting and bounds, with no beam search, exactly as docs/search-effort.md defines it.
It is the default measure of difficulty labels (``--label-by search``). The search is
exact, so it also gives the puzzle's maximum score.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle
from rumdiff.solve.groups import group_value_table
from rumdiff.solve.runstates import run_states
from rumdiff.solve.solver import SolverBudgetError, warm_up_puzzle
from rumdiff.validation import choice, whole

__all__ = ["LAYOUTS", "SearchEffort", "joker_passes", "search_effort"]

#: How the kernel stores the live states; the count is the same with each.
LAYOUTS = ("auto", "dense", "sparse")


@dataclass(frozen=True)
class SearchEffort:
    """The reference search of one puzzle.

    Attributes
    ----------
    score : int or None
        The puzzle's maximum score; None when no arrangement places the whole table.
    lower, upper : int
        The bounds the search starts from (summed over segments).
    removed : int
        Copies no run or group can use.
    segments, dp_segments : int
        Independent segments, and how many bounds do not settle.
    states : int
        DP states kept, summed over values and passes.
    transitions : int
        Moves tried from live states, summed over colours, values and passes: the
        search effort.
    passes : int
        Passes after the first, summed over segments: none when the optimum meets the
        upper bound, else two (aimed at the upper bound, then at the optimum plus one).
    seconds : float
        Wall time.
    method : str
        ``"bounds"`` when bounds settled every segment (no DP), ``"dp"`` otherwise.
    """

    score: int
    lower: int
    upper: int
    removed: int
    segments: int
    dp_segments: int
    states: int
    transitions: int
    passes: int
    seconds: float
    method: str


def search_effort(
    puzzle: Puzzle, *, max_states: int = config.MAX_STATES, layout: str = "auto"
) -> SearchEffort:
    """Run the reference search on a puzzle: its score and search effort.

    Wraps the kernel ``rumdiff.solve.engine._search.search_kernel``.

    Parameters
    ----------
    puzzle : Puzzle
    max_states : int, default config.MAX_STATES
        Budget: the most DP states kept in one pass before giving up.
    layout : {"auto", "dense", "sparse"}
        How the kernel stores the live states (for tests: the counts never differ).

    Raises
    ------
    SolverBudgetError
        If the search needs more states than the budget.
    ValueError
        For an opening move (a puzzle of a game with a meld).
    """
    from rumdiff.solve.engine import _search
    from rumdiff.solve.engine._loop import OVER_BUDGET

    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"search_effort expects a Puzzle, got {type(puzzle).__name__}")
    max_states = whole("max_states", max_states, low=1)
    if puzzle.game.meld is not None:
        raise ValueError(
            f"the reference search has no effort for an opening move ({puzzle.game}): its "
            "counts define the labels of puzzles without a meld"
        )
    if not puzzle.plain:
        return _joker_search(puzzle, max_states, layout)
    code = {"auto": _search.AUTO, "dense": _search.DENSE, "sparse": _search.SPARSE}
    choice("layout", layout, LAYOUTS)
    if not _search.search_kernel.overloads:  # (as in solver.solve)
        # Compile (or load from numba's cache) outside the timing.
        _search_kernel(warm_up_puzzle(), max_states, code[layout])
    started = time.perf_counter()
    report = _search_kernel(puzzle, max_states, code[layout])
    seconds = time.perf_counter() - started
    score, removed, lower, upper, states, transitions, segments, hard, status, passes = (
        report.tolist()
    )
    if status == OVER_BUDGET:
        raise SolverBudgetError(
            f"the reference search needed more than max_states={max_states} states, or "
            f"more than {config.MAX_LIVE_STATES} at one value, for {puzzle!r}"
        )
    method = "dp" if hard else "bounds"
    return SearchEffort(
        score, lower, upper, removed, segments, hard, states, transitions, passes, seconds, method
    )


def _search_kernel(puzzle: Puzzle, max_states: int, layout: int) -> np.ndarray:
    """Run ``search_kernel`` on a puzzle; return its report."""
    from rumdiff.solve.engine import _search

    tables = run_states(puzzle.m)
    report = np.zeros(10, dtype=np.int64)
    _search.search_kernel(
        puzzle.copies.astype(np.int64),
        puzzle.m,
        config.S,
        tables.kernel_tables,
        group_value_table(puzzle.k, puzzle.m),
        (max_states, config.MAX_LIVE_STATES),
        layout,
        report,
    )
    return report


def _joker_search(puzzle: Puzzle, max_states: int, layout: str) -> SearchEffort:
    """The reference search of a puzzle with jokers or a table (docs/search-effort.md,
    "Jokers and the table"): the joker-free search of its regular tiles when it has no
    table, then the joker DP without a beam, aimed at every tile placed and then at the
    lower bound. The joker DP's work is counted without any of the fast solver's
    shortcuts, so the effort stays fixed as the solver gets faster."""
    started = time.perf_counter()
    upper = puzzle.points
    states = transitions = passes = 0
    if puzzle.table is None and puzzle.table_jokers == 0:
        # Jokers may stay on the rack: the joker-free optimum is a reachable score.
        plain = search_effort(Puzzle(puzzle.copies, m=puzzle.m), max_states=max_states,
                              layout=layout)  # fmt: skip
        lower, states, transitions, passes = (
            plain.score, plain.states, plain.transitions, plain.passes
        )  # fmt: skip
    else:
        # Every arrangement places the table: no feasible score lies below its points.
        lower = int((puzzle.table_copies.sum(axis=1) * np.arange(1, puzzle.n + 1)).sum())
    score, method = lower, "bounds"
    if lower < upper or puzzle.table is not None or puzzle.table_jokers:
        best, dp_states, dp_transitions, dp_passes, status = joker_passes(
            puzzle, lower, max_states=max_states
        )
        if status == "over budget":
            raise SolverBudgetError(
                f"the reference search needed more than max_states={max_states} states, "
                f"or more than {config.MAX_LIVE_STATES} at one value, for {puzzle!r}"
            )
        score = None if status == "not reached" else best
        states, transitions = states + dp_states, transitions + dp_transitions
        passes, method = passes + dp_passes, "dp"
    seconds = time.perf_counter() - started
    return SearchEffort(score, lower, upper, 0, 1, int(method == "dp"), states, transitions,
                        passes, seconds, method)  # fmt: skip


def joker_passes(puzzle: Puzzle, lower: int = -1, *, max_states: int = config.MAX_STATES):
    """The reference search's passes of the jokers' rules over a puzzle, as
    :func:`search_effort` counts them: ``(best, states, transitions, passes, status)``.

    Exact passes of :func:`rumdiff.solve.engine.run_pass` with the jokers' rules and the
    reference pruning (a state goes when even every tile still ahead cannot lift it to
    the aim): first aimed at every tile placed, which settles most dense puzzles, then,
    when none reaches that, at ``lower``, a score known to be reachable (-1: none; the
    pass then aims at 0). Their counts are the labels' effort, pinned by
    ``tests/data/joker_work.csv.gz``.

    Returns
    -------
    best : int
        The best score, 0 unless ``status == "ok"``.
    states, transitions, passes : int
        Summed over the passes run.
    status : {"ok", "not reached", "over budget"}
        Of the last pass: ``"not reached"`` when no arrangement places the table.
    """
    from rumdiff.solve.engine import Rules, run_pass

    rules = Rules("jokers", "reference")
    budget = (whole("max_states", max_states, low=1), config.MAX_LIVE_STATES)
    floor = max(lower, 0)
    states = transitions = passes = 0
    for aim in (puzzle.points, floor):
        done = run_pass(puzzle, rules, aim=aim, budget=budget)
        states, transitions = states + done.states, transitions + done.transitions
        passes += 1
        if done.status != "not reached":
            return done.best or 0, states, transitions, passes, done.status
        if aim <= floor:  # nothing reaches even the lower bound
            break
    return 0, states, transitions, passes, "not reached"
