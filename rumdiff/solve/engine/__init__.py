"""The DP engine: one loop over values that every rule set runs in, and the public way to
run one pass of it (:func:`run_pass`).

The loop (``_loop``) keeps the live states of a pass, merges them, cuts them to a beam,
drops those others dominate, counts them against a budget and traces the best path
back. A *rule set* says what a state is and what its moves are, and its *pruning* what
a pass may drop: the reference search's, a fixed definition (docs/search-effort.md), or
the fast solver's. Features, experiments and tests run passes through :func:`run_pass`:
a puzzle, the rules, an aim, a beam and a budget go in; the states, transitions, status,
path and profile come out.

The package's private modules are numba kernels, by rule set (``joker_rules`` is the
Python around the jokers' ones):

- no jokers and no table, as the fast solver prunes them: ``_plain`` (the steps),
  ``_prune`` (dominance and the beam), ``_rows`` and ``_moves`` (the order of a row's
  steps, and the moves of a colour), and ``_plain_passes``, the solver's schedule of
  passes over a puzzle's segments (:func:`rumdiff.solve.solve`);
- jokers and the table, and the opening meld as their option: ``_jokers`` (the steps),
  ``_joker_bound`` (what the rows ahead can still add) and ``_joker_passes``, the fast
  solver's schedule of passes; ``joker_rules`` sets their passes up from Python
  (:mod:`rumdiff.solve.jokers` runs them to solve a puzzle);
- the reference search without jokers, whose work defines a puzzle's search effort:
  ``_search`` (its steps, its dense layout and its schedule;
  :func:`rumdiff.solve.search_effort` wraps it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle
from rumdiff.validation import choice, whole

__all__ = ["PRUNINGS", "RULE_SETS", "STATUSES", "Pass", "Rules", "run_pass"]

#: The rule sets a pass can run: jokers and the table (every puzzle), or none of them.
RULE_SETS = ("jokers", "plain")
#: What a pass may drop: what the reference search drops (the counts that define the
#: search effort), or what the fast solver drops too.
PRUNINGS = ("reference", "fast")
#: How a pass ends: it reached its aim, no state did, or the budget ran out.
STATUSES = ("ok", "not reached", "over budget")


@dataclass(frozen=True)
class Rules:
    """The rules a pass runs by.

    Parameters
    ----------
    name : {"jokers", "plain"}
        The rule set: ``"jokers"`` knows jokers and the table (runs never end short, so
        scores are exact), ``"plain"`` neither (scores are optimistic, a run that ends
        short giving its tiles back).
    pruning : {"reference", "fast"}
        What the pass may drop: what the reference search drops (docs/search-effort.md:
        the jokers' rules, a state that cannot reach the aim even with every tile still
        ahead; the plain rules, one below the per-value bounds, walking the values
        upwards, with no beam and no path), or also what the fast solver drops by its
        tighter bounds and dominance (``"fast"``).
    meld : int or None, default None
        The jokers' rules only: score only arrangements worth at least ``meld`` points at
        face value, a joker counted as the tile it stands for (the rack of an opening
        move, :mod:`rumdiff.solve.meld`; the puzzle has no table then).
    """

    name: str = "jokers"
    pruning: str = "reference"
    meld: int | None = None

    def __post_init__(self):
        choice("rules", self.name, RULE_SETS)
        choice("pruning", self.pruning, PRUNINGS)
        if self.meld is not None:
            whole("meld", self.meld, low=1)
            if self.name != "jokers":
                raise ValueError("the opening meld is an option of the jokers' rules")


@dataclass(frozen=True)
class Pass:
    """What one pass of the engine found and what it cost.

    Attributes
    ----------
    best : int or None
        The best score it reached (at least the aim), None unless ``status == "ok"``.
    states, transitions : int
        States kept after each value, and moves tried, summed over the pass.
    status : {"ok", "not reached", "over budget"}
    path : ndarray of shape (n,)
        The state code after each row of the best path (rows walk the values downwards:
        row w holds value n - w); zeros unless ``status == "ok"``.
    extra : ndarray of shape (n,)
        What the rules keep beside each code of the path (jokers: the jokers placed at
        the row; plain: the path's value there).
    profile : ndarray of shape (2, steps) or None
        Per step (k + 1 a row for the jokers' rules, k for the plain ones), the states
        made and those the beam kept; with ``profile=True`` only.
    cut : bool or None
        The plain rules: whether the beam dropped a state. A pass whose beam dropped
        none was exact: its ``best`` is the optimum, and "not reached" proves that no
        arrangement reaches the aim. None for the jokers' rules, which do not tell.
    """

    best: int | None
    states: int
    transitions: int
    status: str
    path: np.ndarray
    extra: np.ndarray
    profile: np.ndarray | None
    cut: bool | None = None


def run_pass(
    puzzle: Puzzle,
    rules: Rules = Rules(),
    *,
    aim: int,
    beam: int = 0,
    budget: tuple[int, int] = (config.MAX_STATES, config.MAX_LIVE_STATES),
    profile: bool = False,
) -> Pass:
    """Run one pass of the engine over a puzzle's values, walked downwards.

    Parameters
    ----------
    puzzle : Puzzle
    rules : Rules
    aim : int
        The score the pass aims at: states that cannot reach it are dropped.
    beam : int, default 0
        With ``beam > 0`` only the best ``beam`` states survive each step (a heuristic:
        what it finds is a lower bound); 0 runs the exact pass.
    budget : (int, int)
        The most states kept, summed over the values, and alive at once.
    profile : bool
        Record the states made and kept at each step (:attr:`Pass.profile`).

    Returns
    -------
    Pass
    """
    from rumdiff.solve.engine import _loop

    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"run_pass expects a Puzzle, got {type(puzzle).__name__}")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    aim = whole("aim", aim)
    beam = whole("beam", beam, low=0)
    budget = tuple(whole("budget", value, low=1) for value in budget)
    if rules.name == "plain" and not puzzle.plain:
        raise ValueError("the plain rules know no jokers and no table; use Rules('jokers')")
    if rules.meld is not None and (puzzle.table is not None or puzzle.table_jokers):
        raise ValueError("a meld's pass runs over a rack alone: split the table off first "
                         "(rumdiff.solve.meld.meld_parts)")  # fmt: skip
    cut = None
    if rules.name == "jokers":
        best, states, transitions, status, path, extra, steps = _joker_pass(
            puzzle, rules.pruning == "fast", aim, beam, budget, profile, rules.meld or 0
        )
    else:
        best, states, transitions, status, path, extra, steps, cut = _plain_pass(
            puzzle, rules.pruning == "fast", aim, beam, budget
        )
    found = status == _loop.OK
    return Pass(
        int(best) if found else None, int(states), int(transitions), STATUSES[status],
        path if found else np.zeros_like(path), extra, steps if profile else None, cut,
    )  # fmt: skip


def _joker_pass(puzzle: Puzzle, fast: bool, aim: int, beam: int, budget, profile, meld: int):
    """One pass of the jokers' rules (a meld of ``meld`` points, 0 for none), bounded as
    the reference search or the solver bounds (``_joker_bound``)."""
    from rumdiff.solve.engine._joker_bound import reference_ahead
    from rumdiff.solve.engine._jokers import joker_pass
    from rumdiff.solve.engine.joker_rules import joker_bound, kernel_rules

    x, need, values, *rest = kernel_rules(puzzle, "value", meld)
    if fast:
        ahead = joker_bound(puzzle)
    else:
        ahead = np.zeros((puzzle.n + 2, puzzle.jokers + 1), dtype=np.int64)
        reference_ahead(x, values, ahead)
    path = np.zeros((2, puzzle.n), dtype=np.int64)
    steps = np.zeros((2, (puzzle.n + 1) * (puzzle.k + 1) if profile else 0), dtype=np.int64)
    best, states, transitions, status = joker_pass(
        x, need, values, ahead, *rest, np.int64(aim),
        (np.int64(budget[0]), np.int64(budget[1]), np.int64(beam), fast), path[0], path[1], steps,
    )  # fmt: skip
    return best, states, transitions, status, path[0], path[1], steps


def _plain_pass(puzzle: Puzzle, fast: bool, aim: int, beam: int, budget):
    """One pass of the plain rules over every row, pruned by the per-value bounds: the
    fast solver's (values walked downwards), or the reference search's (upwards); the
    last of its results is whether the beam dropped a state."""
    from rumdiff.solve._tiles import joint_radix, row_upper_bounds
    from rumdiff.solve.engine._plain import plain_pass
    from rumdiff.solve.engine._search import search_pass
    from rumdiff.solve.groups import group_value_table
    from rumdiff.solve.runstates import dominance, run_states

    n, k, m = puzzle.n, puzzle.k, puzzle.m
    tables = run_states(m)
    gv = group_value_table(k, m)
    rows = puzzle.copies[::-1] if fast else puzzle.copies
    x = np.ascontiguousarray(rows, dtype=np.int64)
    values = np.full(n + 3, n + 1, dtype=np.int64)
    values[:n] = np.arange(n, 0, -1) if fast else np.arange(1, n + 1)
    bound = np.zeros(n, dtype=np.int64)
    row_upper_bounds(x, gv, m, values, bound)
    suffix = np.zeros(n + 2, dtype=np.int64)
    suffix[:n] = np.cumsum(bound[::-1])[::-1]
    path = np.zeros(n, dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    profile = np.zeros((2, 0), dtype=np.int64)
    if not fast:
        if beam:
            raise ValueError("the reference search keeps every state: beam must be 0")
        radix = joint_radix(k, tables.size)
        best, states, transitions, status = search_pass(
            x, 1, m, radix, tables.kernel_tables, gv, suffix, np.int64(aim),
            (np.int64(budget[0]), np.int64(budget[1])), False,
        )  # fmt: skip
        return best, states, transitions, status, path, scores, profile, False
    limits = (np.int64(beam), np.int64(budget[0]), np.int64(budget[1]))
    best, states, transitions, status, cut = plain_pass(
        x, values, m, tables.kernel_tables, dominance(m), gv, suffix, np.int64(aim), limits,
        np.int64(0), path, scores,
    )  # fmt: skip
    return best, states, transitions, status, path, scores, profile, bool(cut)
