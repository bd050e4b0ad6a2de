"""Where the solver's work goes: its passes over each segment, and how loose the bounds are.

Usage::

    python experiments/solver_passes.py [--k 4] [--m 3] [--n 100] [--count 10]
        [--mode fixed] [--seed 1] [--beam-width 64]

Solves each puzzle with ``rumdiff.solve.solve(puzzle, trace=True)``, which keeps every
pass the solver ran: beams aimed at the upper bound (a narrow one walking the values
downwards, then upwards, then a wide one upwards), the beam pass that finds a lower
bound, on joint state spaces of ``config.TAIL_STATES`` or more the passes that sharpen
the bounds of the segment's tails, and the exact pass aimed at the lower bound + 1 that
proves the optimum (walking the values downwards, or upwards where the beam's
arrangement loses its points near the low values). A beam that never filled was exact,
and is labelled so ("never filled"). Prints per kind of pass the calls,
DP states and transitions a puzzle (and the solve's whole time), then how far the upper
bound lies above the optimum, and whether a sharper bound per row could close that gap
(the best any arrangement can place in one row alone, given each colour's run capacity
there: every split of the row's tiles between runs and groups tried).
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.solve import solve
from rumdiff.solve._tiles import colour_runs, group_index, prepare, run_capacity, segment_bounds
from rumdiff.solve.groups import group_value_table
from rumdiff.solve.runstates import run_states


def _row_best(x, w, gv, m) -> int:
    """Most tiles one row can place on its own: runs up to each colour's run capacity,
    groups from what the runs leave."""
    k = x.shape[1]
    caps = [min(int(x[w, c]), run_capacity(x, w, c)) for c in range(k)]
    best = 0
    for runs in itertools.product(*(range(cap + 1) for cap in caps)):
        left = x[w] - np.asarray(runs)
        best = max(best, sum(runs) + int(gv[group_index(left, m + 1)]))
    return best


def family_parser(description: str, count: int) -> argparse.ArgumentParser:
    """The options that pick a family of puzzles (also experiments/bound_gap.py's)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--k", type=int, default=4, help="colours")
    parser.add_argument("--m", type=int, default=3, help="copies")
    parser.add_argument("--n", type=int, default=100, help="values")
    parser.add_argument("--count", type=int, default=count, help="puzzles")
    parser.add_argument(
        "--mode", default="fixed", choices=["fixed", "simplex", "regime3"],
        help="copy shares: fixed 20%% at each of 0..m-1 copies, simplex, or the thesis's "
        "regime 3 (mixed mode, regime 3 alone)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    return parser


def family_puzzles(args) -> list:
    """The seeded puzzles of the family :func:`family_parser`'s options pick."""
    options = {
        "simplex": {"mode": "simplex"},
        "regime3": {"mode": "mixed", "regime_weights": (0, 0, 1)},
    }.get(args.mode, {"mode": "fixed", "percentages": (20,) * args.m})  # fmt: skip
    family = Family(Game(args.k, args.m, args.n), **options)
    return list(generate(args.count, family, seed=args.seed).puzzles)


def main(argv=None) -> int:
    parser = family_parser(__doc__.splitlines()[0], 10)
    parser.add_argument(
        "--beam-width", type=int, default=config.BEAM_WIDTH, help="the solver's beam width"
    )
    args = parser.parse_args(argv)
    k, m, n = args.k, args.m, args.n
    puzzles = family_puzzles(args)
    solve(puzzles[0])  # load the kernels first
    tables = run_states(m).kernel_tables
    gv = group_value_table(k, m)
    values = np.full(n + 3, n + 1, dtype=np.int64)
    values[:n] = np.arange(n, 0, -1)
    passes: dict[str, list[int]] = {}
    gaps = {"points": 0, "upper - optimum": 0, "row best - optimum": 0, "segments": 0}
    seconds = 0.0
    for puzzle in puzzles:
        started = time.perf_counter()
        solution = solve(puzzle, beam_width=args.beam_width, trace=True)
        seconds += time.perf_counter() - started
        best = {}  # per segment the best score its passes found
        for traced in solution.work.trace:
            found = traced.status == "ok"
            whole = not traced.cut and "exact" not in traced.kind  # (so it was exact)
            label = f"{traced.kind} ({'found' if found else 'none'}{', never filled' * whole})"
            totals = passes.setdefault(label, [0, 0, 0])
            for j, amount in enumerate((1, traced.states, traced.transitions)):
                totals[j] += amount
            if found and not traced.kind.startswith("tail"):
                best[traced.segment] = max(best.get(traced.segment, 0), traced.best)
        reduced = np.ascontiguousarray(puzzle.copies[::-1], dtype=np.int64)
        _, row_bound, bounds, count = prepare(reduced, m, config.S, gv, values)
        reach = np.empty(n, np.int64)
        scratch = np.empty((4, tables[5].shape[0]), np.int64)
        no_parent = np.empty((0, 0), np.int64)  # (no path wanted)
        for segment, (lo, hi) in enumerate(bounds[:count]):
            x, worth = reduced[lo:hi], values[lo : hi + 3]
            runs_only = sum(
                colour_runs(reduced, c, lo, hi, values, tables, reach, scratch, no_parent)[0]
                for c in range(k)
            )
            _, _, low, high = segment_bounds(x, worth, m, gv, row_bound[lo:hi], runs_only)
            if low == high:
                continue
            optimum = max(int(low), best.get(segment, 0))
            gaps["segments"] += 1
            gaps["points"] += int((x.sum(axis=1) * worth[: hi - lo]).sum())
            gaps["upper - optimum"] += int(high) - optimum
            row_best = sum(int(worth[w]) * _row_best(x, w, gv, m) for w in range(hi - lo))
            gaps["row best - optimum"] += row_best - optimum
    count = args.count
    print(f"G({k},{m},{n}) {args.mode}, {count} puzzles, seed {args.seed}; per puzzle:\n")
    print("| pass | calls | states | transitions |")
    print("|---|---|---|---|")
    for label, (calls, states, transitions) in passes.items():
        print(f"| {label} | {calls / count:.1f} | {states / count:,.0f} | "
              f"{transitions / count:,.0f} |")  # fmt: skip
    print(f"\nThe whole solve: {1e3 * seconds / count:.2f} ms a puzzle.")
    points = gaps["points"] or 1
    print(
        f"\n{gaps['segments']} segments need the DP. Upper bound above the optimum: "
        f"{gaps['upper - optimum']:,} of {gaps['points']:,} points "
        f"({100 * gaps['upper - optimum'] / points:.1f}%); the best each row can place on "
        f"its own lies {gaps['row best - optimum']:,} above it "
        f"({100 * gaps['row best - optimum'] / points:.1f}%)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
