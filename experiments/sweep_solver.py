"""Regime sweep: rumdiff's solver against the reference ILP for k 4-6, m 1-3, n 100.

Usage::

    python experiments/sweep_solver.py [--count 10] [--seed 1] [--n 100]

Per cell (k, m, and how copies are drawn: ``fixed``, 20% of the cells at each of 0 ..
m-1 copies and the rest at m, or ``simplex``, shares uniform on the simplex), both
solvers run on the same puzzles in this one process, one after the other, so the ratio
is fair on a noisy machine. Before a cell, one small puzzle of its k and m is solved
untimed: the solver allocates its index of all joint run states (256 MB for k = 6,
m = 3) once per process, on first use. Prints a Markdown table: rumdiff's mean and max
seconds, DP states and transitions, the ILP's mean and max seconds, the ratio of the
means, and how many puzzles the DP gave up on (over its state budget; the ILP fallback
is off here, so the times are the DP's alone). Scores must agree, except where the
solver's arrangement, checked against the puzzle, scores higher: then HiGHS stopped
short of the optimum it claimed (it does, rarely; see
``rumdiff.solve.twins.ilp.solve_ilp``), and the last column counts it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.solve import SolverBudgetError, solve
from rumdiff.solve.twins.ilp import solve_ilp


def _cell(k: int, m: int, mode: str, n: int, count: int, seed: int) -> dict:
    options = {"mode": "simplex"} if mode == "simplex" else {
        "mode": "fixed", "percentages": (20,) * m
    }  # fmt: skip
    puzzles = generate(count, Family(Game(k, m, n), **options), seed=seed).puzzles
    solve(generate(1, Family(Game(k, m, 20)), seed=0).puzzles[0])  # allocates this k, m's index
    ours, states, transitions, ilp, failed, short = [], [], [], [], 0, 0
    for puzzle in puzzles:
        started = time.perf_counter()
        try:
            solution = solve(puzzle, ilp_fallback=False)  # time the DP alone
        except SolverBudgetError:
            failed += 1
            solution = None
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        reference = solve_ilp(puzzle.copies).score
        ilp.append(time.perf_counter() - started)
        if solution is not None:
            if solution.score != reference:
                checked = solution.arrangement.check(puzzle)
                if solution.score < reference or checked != solution.score:
                    raise SystemExit(
                        f"G({k},{m},{n}) {mode}: rumdiff {solution.score} != ILP {reference}"
                    )
                short += 1
            states.append(solution.work.states)
            transitions.append(solution.work.transitions)
    return {
        "ours": ours, "ilp": ilp, "failed": failed, "short": short,
        "states": states or [0], "transitions": transitions or [0],
    }  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--k", default="4,5,6", help="colours to sweep, comma-separated")
    parser.add_argument("--m", default="1,2,3", help="copies to sweep, comma-separated")
    args = parser.parse_args(argv)
    solve(generate(1, Family(Game(4, 2, 20)), seed=0).puzzles[0])  # load the kernels first
    print(f"{args.count} puzzles a cell, n = {args.n}, seed {args.seed}\n")
    print("| k | m | copies | rumdiff mean / max ms | states mean / max | transitions mean / "
          "max | ILP mean / max ms | ILP / rumdiff | gave up | ILP short |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in (int(text) for text in args.k.split(",")):
        for m in (int(text) for text in args.m.split(",")):
            for mode in ("fixed", "simplex"):
                cell = _cell(k, m, mode, args.n, args.count, args.seed)
                ours, ilp = cell["ours"], cell["ilp"]
                ratio = statistics.fmean(ilp) / statistics.fmean(ours)
                print(
                    f"| {k} | {m} | {mode} | {1e3 * statistics.fmean(ours):.1f} / "
                    f"{1e3 * max(ours):.1f} | {statistics.fmean(cell['states']):,.0f} / "
                    f"{max(cell['states']):,} | {statistics.fmean(cell['transitions']):,.0f} / "
                    f"{max(cell['transitions']):,} | {1e3 * statistics.fmean(ilp):.1f} / "
                    f"{1e3 * max(ilp):.1f} | {ratio:.1f}x | {cell['failed']} | {cell['short']} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
