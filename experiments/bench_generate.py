"""How long generating mixed G(4, 2, 100) puzzles takes (the thesis's training setting).

Usage: ``python experiments/bench_generate.py [--repeats R] [--seed S]``. Prints, for
10,000 and 400,000 puzzles, the best and the worst of R runs, the duplicates redrawn and
the regime shares, then how long encoding the 400,000 puzzles as text takes.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rumdiff import config
from rumdiff.data.generator import generate
from rumdiff.puzzle import decode_puzzles, encode_puzzles


def _timed(function, repeats: int):
    times, result = [], None
    for _ in range(repeats):
        began = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - began)
    return result, min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=config.SEED)
    args = parser.parse_args()
    print(f"mixed G(4, 2, 100), seed {args.seed}, best / worst of {args.repeats} runs")
    for count in (10_000, 400_000):
        result, best, worst = _timed(lambda c=count: generate(c, seed=args.seed), args.repeats)
        shares = np.bincount(result.regime, minlength=4)[1:] / count
        print(
            f"{count:>8,} puzzles: {best:6.3f} s / {worst:6.3f} s "
            f"({count / best:,.0f} puzzles/s), duplicates redrawn {result.duplicates_redrawn}, "
            f"regimes {' / '.join(f'{100 * s:.2f}%' for s in shares)}"
        )
    texts, best, _ = _timed(lambda: encode_puzzles(result.puzzles.copies), 1)
    print(f"encode 400,000 as text: {best:6.3f} s")
    _, best, _ = _timed(lambda: decode_puzzles(texts, 4, 100), 1)
    print(f"decode 400,000 from text: {best:6.3f} s")


if __name__ == "__main__":
    main()
