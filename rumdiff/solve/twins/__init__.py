"""Slow, obvious solvers: the exact solver's twins in the tests.

Two independent ways to find the maximum score of a puzzle G(k, m, n), written for
clarity rather than speed, so that the fast DP (:mod:`rumdiff.solve.solver`) can be
compared with them on seeded random puzzles:

- ``ilp``: :func:`solve_ilp`, the integer linear program of den Hertog and Hulshof
  (2006), which is also the solver's fallback when the DP runs out of budget (and
  :func:`lp_bound`, its linear relaxation: an upper bound on the score);
- ``brute_force``: :func:`solve_brute_force`, a memoised exhaustive search for tiny
  puzzles.
"""

from rumdiff.solve.twins.brute_force import INFEASIBLE, MAX_BRUTE_FORCE_TILES, solve_brute_force
from rumdiff.solve.twins.ilp import lp_bound, solve_ilp

__all__ = [
    "INFEASIBLE", "MAX_BRUTE_FORCE_TILES", "lp_bound", "solve_brute_force", "solve_ilp",
]  # fmt: skip
