"""Solving: the exact solver, its building blocks and its slow twins.

- ``solver``: :func:`solve`, the exact dynamic program (kernel in ``_dp``), and what it
  returns (:class:`Solution`, :class:`Work`);
- ``groups``: group values (thesis eq. 3 and 4) and groups that reach them;
- ``runstates``: the per-colour run states of the DP and their moves;
- ``arrangement``: runs, groups and the check of an arrangement against a puzzle;
- ``reference``: the ILP and the brute force, slow and obvious, for the tests;
- ``_dp``, ``_tiles``: numba kernels (the DP; removal, splitting and bounds).
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
from rumdiff.solve.solver import Solution, SolverBudgetError, Work, solve

__all__ = [
    "Arrangement",
    "Group",
    "InvalidArrangement",
    "Run",
    "RunStates",
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
    "solve",
]
