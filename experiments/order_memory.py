"""What an order keeps in memory per candidate and per accepted puzzle.

Usage::

    python experiments/order_memory.py [--candidates 5000] [--kept 30]

For a few families, turns included, prints the bytes a candidate's key takes in the set
of keys :func:`rumdiff.data.order.make_to_order` keeps (the key beside its own size),
and the bytes an accepted puzzle takes with its solution and their text, per cell and
copy: the figures behind ``config.ORDER_KEY_BYTES`` and ``config.ORDER_TILE_BYTES``.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.solve import solve

FAMILIES = [  # k, m, n, mode, jokers
    (3, 1, 13, "simplex", 0),
    (4, 2, 13, "simplex", 0),
    (4, 2, 13, "turn", 2),
    (4, 2, 100, "simplex", 0),
    (6, 3, 200, "turn", 4),
    (6, 3, 1000, "simplex", 0),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=5000)
    parser.add_argument("--kept", type=int, default=30)
    args = parser.parse_args(argv)
    for k, m, n, mode, jokers in FAMILIES:
        family = Family(Game(k, m, n), mode, jokers=jokers)
        seen: set = set()
        generate(args.candidates, family, seed=1, seen=seen)
        keys = sum(len(key) for key in seen)
        held = sys.getsizeof(seen) + sum(sys.getsizeof(key) for key in seen)
        puzzles = list(generate(args.kept, family, seed=2).puzzles)
        for puzzle in puzzles[:3]:  # the solver's own caches, before measuring
            solve(puzzle)
        tracemalloc.start()
        kept = list(generate(args.kept, family, seed=2).puzzles)
        solutions = [solve(puzzle) for puzzle in kept]
        texts = [str(solution.arrangement) for solution in solutions]
        taken = tracemalloc.get_traced_memory()[0] / len(kept)
        tracemalloc.stop()
        del solutions, texts
        print(
            f"G({k}, {m}, {n}) {mode} j={jokers}: key {keys / len(seen):,.0f} bytes + "
            f"{(held - keys) / len(seen):,.0f} to keep it; accepted puzzle {taken:,.0f} bytes, "
            f"{taken / (n * k * m):.1f} a cell and copy"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
