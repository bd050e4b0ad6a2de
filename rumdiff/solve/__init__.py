"""Solving: the exact solver, its one DP engine, its building blocks and its slow twins.

- ``solver``: :func:`solve`, rumdiff's fast exact solver, and what it returns
  (:class:`Solution`, :class:`Work`);
- ``engine``: the one DP engine, its rule sets and their schedules of passes (numba
  kernels), the jokers' rule set from Python (``engine.joker_rules``: its tables, bound
  and dominance), and :func:`~rumdiff.solve.engine.run_pass`, the public way to run one
  pass;
- ``jokers``: the passes of the jokers' rules that solve a puzzle (the solver's and the
  reference search's), and the arrangement along their path;
- ``meld``: the opening meld, a first move from the rack alone;
- ``search``: :func:`search_effort`, the reference exact DP whose work defines a
  puzzle's search effort, a fixed definition;
- ``groups``: group values (thesis eq. 3 and 4) and groups that reach them;
- ``runstates``: the per-colour run states of the DP and their moves;
- ``arrangement``: runs, groups and the check of an arrangement against a puzzle;
- ``display``: solutions as players see them, as text (``solve --show``) or drawn
  (``rumdiff show``, ``Solution._repr_svg_``);
- ``twins``: the ILP and the brute force, slow and obvious, for the tests (the ILP is
  also the solver's fallback over its budget);
- ``_tiles``: numba kernels on a puzzle's count matrix (isolated tiles, segments,
  bounds), which the engine and the features share.
"""

from rumdiff.solve.arrangement import Arrangement, Group, InvalidArrangement, Run
from rumdiff.solve.groups import (
    clearable,
    group_value,
    group_value_exhaustive,
    group_value_s,
    group_value_table,
    make_groups,
    max_groups,
)
from rumdiff.solve.runstates import RunStates, run_states
from rumdiff.solve.search import SearchEffort, search_effort
from rumdiff.solve.solver import Solution, SolverBudgetError, Work, solve

__all__ = [
    "Arrangement",
    "Group",
    "InvalidArrangement",
    "Run",
    "RunStates",
    "SearchEffort",
    "Solution",
    "SolverBudgetError",
    "Work",
    "clearable",
    "group_value",
    "group_value_exhaustive",
    "group_value_s",
    "group_value_table",
    "make_groups",
    "max_groups",
    "run_states",
    "search_effort",
    "solve",
]
