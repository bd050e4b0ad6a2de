"""Fingerprint of the solver's output, to check that a refactor changes nothing.

Usage::

    python experiments/solver_fingerprint.py [--count 40] [--seed 5] [--scores-only]

Solves ``--count`` seeded puzzles of six shapes (G(4,2,100) mixed, G(4,3,100) dense,
simplex G(5,3,60), G(6,3,40), G(6,2,100) and G(3,1,50)) and prints a hash of every
puzzle's score, DP states, transitions, exact passes, bounds and arrangement (with
``--scores-only``, of the scores alone). Run it before and after a change: equal hashes
mean the same answers and the same work (or the same scores).
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.solve import solve

SHAPES = [
    (4, 2, 100, {"mode": "mixed"}),
    (4, 3, 100, {"mode": "fixed", "percentages": (20, 20, 20)}),
    (5, 3, 60, {"mode": "simplex"}),
    (6, 3, 40, {"mode": "simplex"}),
    (6, 2, 100, {"mode": "simplex"}),
    (3, 1, 50, {"mode": "simplex"}),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="puzzles a shape")
    parser.add_argument("--seed", type=int, default=5, help="generator seed")
    parser.add_argument(
        "--scores-only", action="store_true",
        help="hash the scores alone: for a change that alters the work or the arrangement "
        "found, but must keep every score",
    )  # fmt: skip
    args = parser.parse_args(argv)
    digest = hashlib.sha256()
    for k, m, n, options in SHAPES:
        for puzzle in generate(
            args.count, Family(Game(k, m, n), **options), seed=args.seed
        ).puzzles:
            s = solve(puzzle)
            if args.scores_only:
                digest.update(repr(s.score).encode())
                continue
            work = (s.work.states, s.work.transitions, s.work.exact_passes)
            digest.update(repr((s.score, *work, s.lower, s.upper, s.arrangement)).encode())
    print(f"{args.count * len(SHAPES)} puzzles, seed {args.seed}: {digest.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
