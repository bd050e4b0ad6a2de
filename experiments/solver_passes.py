"""Where the solver's work goes: its passes over each segment, and how loose the bounds are.

Usage::

    python experiments/solver_passes.py [--k 4] [--m 3] [--n 100] [--count 10]
        [--mode fixed] [--seed 1]

Replays ``rumdiff.solve._kernel.solve_kernel`` pass by pass on each segment that needs the
DP (the same kernels, called one at a time from Python, so each call also pays
Python's dispatch): the beam pass that finds a lower bound, a second beam aimed at the
upper bound, the exact pass aimed at the upper bound, on joint state spaces of
``_kernel.TAIL_STATES`` or more the passes that sharpen the bounds of the segment's
tails (``_kernel._tail_bounds``), and the exact pass aimed at the lower bound + 1 that
proves the optimum.
Prints per pass the calls, DP states, transitions and milliseconds a puzzle, then how far
the upper bound lies above the optimum, whether a sharper bound per row could close that
gap (the best any arrangement can place in one row alone, given each colour's run
capacity there: every split of the row's tiles between runs and groups tried), and how
far the bound sharpened on the segments' tails lies above it.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
from rumdiff.solve._dp import dp_core

from rumdiff import config
from rumdiff.data.generator import generate
from rumdiff.solve import solve
from rumdiff.solve._kernel import TAIL_BUDGET, TAIL_STATES, _runs_only, _tail_bounds
from rumdiff.solve._tiles import (
    OK,
    group_index,
    joint_radix,
    prepare,
    run_capacity,
    segment_bounds,
)
from rumdiff.solve.groups import group_value_table
from rumdiff.solve.runstates import dominance, run_states
from rumdiff.solve.solver import dense_index


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=4, help="colours")
    parser.add_argument("--m", type=int, default=3, help="copies")
    parser.add_argument("--n", type=int, default=100, help="values")
    parser.add_argument("--count", type=int, default=10, help="puzzles")
    parser.add_argument("--mode", default="fixed", choices=["fixed", "simplex"])
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    args = parser.parse_args(argv)
    k, m, n = args.k, args.m, args.n
    options = {"mode": "simplex"} if args.mode == "simplex" else {
        "mode": "fixed", "percentages": (20,) * m
    }  # fmt: skip
    puzzles = generate(args.count, k=k, m=m, n=n, seed=args.seed, **options).puzzles
    solve(puzzles[0])  # load the kernels first
    tables = run_states(m)
    kernel_tables, dominated = tables.kernel_tables, dominance(m)
    gv, gv_none = group_value_table(k, m), group_value_table(1, m)
    radix = joint_radix(k, tables.size)
    dense = dense_index(tables.size**k)
    beam = config.BEAM_WIDTH * (config.BEAM_WIDEN if k >= 5 else 1)
    values = np.full(n + 3, n + 1, dtype=np.int64)
    values[:n] = np.arange(n, 0, -1)
    passes: dict[str, list[float]] = {}
    gaps = {"points": 0, "upper - optimum": 0, "row best - optimum": 0, "segments": 0}
    gaps |= {"sharpened": 0, "sharp - optimum": 0}

    def run(name, x, worth, suffix, target, limits, path, scores):
        started = time.perf_counter()
        best, states, transitions, status = dp_core(
            x, worth, m, radix, kernel_tables, dominated, gv, suffix, target, limits, 0, dense,
            path, scores,
        )  # fmt: skip
        seconds = time.perf_counter() - started
        label = f"{name} ({'found' if status == OK else 'none'})"
        totals = passes.setdefault(label, [0, 0, 0, 0.0])
        for j, amount in enumerate((1, states, transitions, seconds)):
            totals[j] += amount
        return best, status, states

    def sharpen(x, worth, suffix, beam_pass, tail_pass, lower_tail):
        started = time.perf_counter()
        work = np.zeros(3, np.int64)
        sharp = _tail_bounds(
            x, worth, m, radix, kernel_tables, dominated, gv, suffix, beam_pass, tail_pass,
            dense, lower_tail, work,
        )  # fmt: skip
        totals = passes.setdefault("tail bounds (beam and exact passes)", [0, 0, 0, 0.0])
        for j, amount in enumerate((1, work[0], work[1], time.perf_counter() - started)):
            totals[j] += amount
        return sharp

    for sweep, puzzle in enumerate([puzzles[0], *puzzles]):
        if sweep == 1:  # the first round loaded the kernels called from Python
            passes.clear()
            gaps = dict.fromkeys(gaps, 0)
        reduced = np.ascontiguousarray(puzzle.copies[::-1], dtype=np.int64)
        _, row_bound, bounds, count = prepare(reduced, m, config.S, gv, values)
        for lo, hi in bounds[:count]:
            x, worth = reduced[lo:hi], values[lo : hi + 3]
            runs_path = np.zeros(hi - lo, np.int64)
            runs_only = _runs_only(
                x, worth, m, kernel_tables, dominated, gv_none, dense, radix, runs_path
            )
            _, suffix, low, high = segment_bounds(x, worth, m, gv, row_bound[lo:hi], runs_only)
            if low == high:
                continue
            path, scores = np.empty(hi - lo, np.int64), np.empty(hi - lo, np.int64)
            first = (beam, config.MAX_STATES, config.MAX_LIVE_STATES, True)
            best, status, beam_states = run("beam", x, worth, suffix, low, first, path, scores)
            lower_tail = np.zeros(hi - lo, np.int64)
            sharpen_tails = status == OK and tables.size**k >= TAIL_STATES
            if status == OK:
                lower_tail[1:] = best - scores[:-1]
                low = max(low, best)
            if high > low:
                other = (beam, config.MAX_STATES, config.MAX_LIVE_STATES, False)
                name = "beam in colour order, aimed at upper"
                best, status, _ = run(name, x, worth, suffix, high, other, path, scores)
                if status == OK:
                    low = best
            exact = (0, config.MAX_STATES, config.MAX_LIVE_STATES, True)  # no beam
            for name, aim in (
                ("exact, aimed at upper", high),
                ("exact, aimed at lower + 1", low + 1),
            ):
                if aim <= low or (name.endswith("lower + 1") and aim >= high):
                    break
                if aim == low + 1 and sharpen_tails:
                    budget = min(config.MAX_STATES, TAIL_BUDGET * beam_states)
                    tail_pass = (0, budget, config.MAX_LIVE_STATES, True)
                    suffix = sharpen(x, worth, suffix, first, tail_pass, lower_tail)
                    if suffix[0] <= low:
                        break
                best, status, _ = run(name, x, worth, suffix, aim, exact, path, scores)
                if status == OK:
                    low = best
                    break
            gaps["segments"] += 1
            gaps["points"] += int((x.sum(axis=1) * worth[: hi - lo]).sum())
            gaps["upper - optimum"] += int(high - low)
            if sharpen_tails and high > low:
                gaps["sharpened"] += 1
                gaps["sharp - optimum"] += int(min(high, suffix[0]) - low)
            row_best = sum(int(worth[w]) * _row_best(x, w, gv, m) for w in range(hi - lo))
            gaps["row best - optimum"] += row_best - int(low)

    count = args.count
    print(f"G({k},{m},{n}) {args.mode}, {count} puzzles, seed {args.seed}; per puzzle:\n")
    print("| pass | calls | states | transitions | ms |")
    print("|---|---|---|---|---|")
    for label, (calls, states, transitions, seconds) in passes.items():
        print(
            f"| {label} | {calls / count:.1f} | {states / count:,.0f} | "
            f"{transitions / count:,.0f} | {1e3 * seconds / count:.2f} |"
        )
    points = gaps["points"] or 1
    print(
        f"\n{gaps['segments']} segments need the DP. Upper bound above the optimum: "
        f"{gaps['upper - optimum']:,} of {gaps['points']:,} points "
        f"({100 * gaps['upper - optimum'] / points:.1f}%); the best each row can place on "
        f"its own lies {gaps['row best - optimum']:,} above it "
        f"({100 * gaps['row best - optimum'] / points:.1f}%)."
    )
    if gaps["sharpened"]:
        print(
            f"On the {gaps['sharpened']} segments whose tails' bounds were sharpened, the "
            f"sharper bound lies {gaps['sharp - optimum']:,} points above the optimum."
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
