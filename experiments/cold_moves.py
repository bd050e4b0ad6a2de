"""Experiment: what slows a move the solver solves just after other work.

Run ``python experiments/cold_moves.py``. ``bench_jokers.py --meld`` times each hidden
rack just after the ILP solved the one before, and there a move takes about twice as
long as one after another. This script times the same moves (seeded opening moves of
G(4, 2, 13), racks of 14-30 tiles, a meld of 30) after each of four kinds of work, in
rounds, so that each kind sees the machine's same hours:

- nothing (one move after another);
- writing 8 MB of memory, and ``--megabytes`` (64 by default): the first evicts a core's
  own caches (1 MB of L2 here), the second the shared last level too (32 MB of L3 here:
  ``lscpu``);
- parsing a JSON text of 3,000 entries, Python-heavy work that touches little memory;
- the reference ILP on the same move.

A write evicts data and code alike from the caches it passes through, so the rows
measure how much of the ILP's cost a cold cache of each size explains, not which of
data or code the move waits for. The figures are the mean over ``--count`` moves, the
least of ``--rounds`` rounds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np
from bench_jokers import ilp_score, opening_moves  # this folder's

from rumdiff.solve import solve


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="moves (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the moves' seed (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument(
        "--megabytes", type=int, default=64, help="the larger write, in MB (default 64)"
    )
    args = parser.parse_args(argv)
    moves = opening_moves(args.count, args.seed, 30, table=False)
    for move in moves[:3]:  # JIT warm-up
        solve(move)
    memory = np.zeros(max(8, args.megabytes) << 20, np.uint8)
    small = memory[: 8 << 20]
    text = json.dumps({str(i): [i, str(i) * 3, {"a": i}] for i in range(3000)})
    kinds = {
        "nothing": lambda move: None,
        "an 8 MB write": lambda move: small.fill(1),
        f"a {args.megabytes} MB write": lambda move: memory.fill(1),
        "a JSON parse": lambda move: json.loads(text),
        "an ILP solve": ilp_score,
    }
    best = dict.fromkeys(kinds, float("inf"))
    for _ in range(args.rounds):
        for name, before in kinds.items():
            seconds = []
            for move in moves:
                before(move)
                started = time.perf_counter()
                solve(move)
                seconds.append(time.perf_counter() - started)
            best[name] = min(best[name], statistics.fmean(seconds))
    print(f"{args.count} hidden racks, seed {args.seed}; mean solve, least of {args.rounds} rounds")
    for name, seconds in best.items():
        ratio = seconds / best["nothing"]
        print(f"after {name:15} {seconds * 1e3:7.3f} ms  {ratio:5.2f}x one after another")
    return 0


if __name__ == "__main__":
    sys.exit(main())
