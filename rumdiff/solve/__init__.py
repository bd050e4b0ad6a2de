"""Solving: the exact solver, its one DP engine, its building blocks and its slow twins.

- ``solver``: :func:`solve`, rumdiff's fast exact solver (kernel in ``_kernel``), and what
  it returns (:class:`Solution`, :class:`Work`);
- ``engine``: one pass of the DP engine (:func:`~rumdiff.solve.engine.run_pass`), the
  public way to run it: every DP of rumdiff is its one loop (``_engine``) with a rule
  set's steps (``_plain``, ``_jokers``, ``_search``);
- ``jokers``: the jokers' rules around the engine (their tables, bound, dominance, passes,
  traceback);
- ``meld``: the opening meld, a first move from the rack alone;
- ``search``: :func:`search_effort`, the reference exact DP whose work defines a
  puzzle's search effort, a fixed definition (kernel in ``_search``);
- ``groups``: group values (thesis eq. 3 and 4) and groups that reach them;
- ``runstates``: the per-colour run states of the DP and their moves;
- ``arrangement``: runs, groups and the check of an arrangement against a puzzle;
- ``display``: solutions as players see them, as text (``solve --show``) or drawn
  (``rumdiff show``, ``Solution._repr_svg_``);
- ``reference``, ``brute_force``: the ILP and the brute force, slow and obvious, for the
  tests;
- ``_engine``, ``_plain``, ``_jokers``, ``_search``, ``_kernel``, ``_joker_passes``,
  ``_joker_bound``, ``_prune``, ``_rows``, ``_moves``, ``_tiles``: numba kernels (the
  engine's loop and its rule sets; the solver's and the jokers' schedules of passes and
  what they prune with; move tables; removal, splitting and bounds).
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
