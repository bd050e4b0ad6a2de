"""How the filter of puzzles made to order trades searches saved against puzzles missed.

Usage: ``python experiments/order_filter.py [--count N] [--seed S]``.
Draws N mixed G(4, 2, 100) puzzles (default 3,000, seed 2024: not the default model's
training seed, 400), measures each one's search effort and search seconds with the
reference search, and asks the default model for its predicted log10 effort and class
probabilities. Then, per class and per rule, prints what a filter that searches only the
candidates it keeps would do: ``recall``, the share of the class's puzzles it keeps (a
puzzle skipped is a puzzle the order never sees); ``searched``, the share of candidates
searched; and the search seconds spent per puzzle found, against no filter. Rules:
``margin D``, search unless log10(predicted effort + 1) lies more than D outside
[log10(low + 1), log10(high + 1)) (rumdiff.learn.screen); ``p >= P``, search when the
classifier's probability of the class is at least P.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.data.order import effort_range
from rumdiff.learn import default_model_path, load_model
from rumdiff.puzzle import Game
from rumdiff.solve import search_effort

MARGINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)
PROBABILITIES = (0.01, 0.05, 0.1, 0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    puzzles = generate(args.count, Family(Game(4, 2, 100), "mixed"), seed=args.seed).puzzles
    model = load_model(default_model_path())
    X = model.features(puzzles)
    z = np.asarray(model.regressor.predict(X))
    proba = model.predict_proba(puzzles, X)
    efforts = [search_effort(puzzle) for puzzle in puzzles]
    effort = np.array([e.transitions for e in efforts])
    seconds = np.array([e.seconds for e in efforts])
    print(
        f"{args.count:,} mixed G(4, 2, 100) puzzles, seed {args.seed}; default model; "
        f"search {seconds.sum():.1f} s in all"
    )
    print(f"{'class':9} {'rule':12} {'recall':>7} {'searched':>9} {'s/found':>8} {'vs none':>8}")
    for position, name in enumerate(config.LABEL_NAMES):
        low, high = effort_range(name)
        inside = (effort >= low) & (effort < (math.inf if high is None else high))
        if not inside.any():
            continue
        none = seconds.sum() / inside.sum()
        print(f"{name:9} {'none':12} {1:7.3f} {1:9.3f} {none:8.4f} {1:8.3f}")
        bottom = math.log10(low + 1)
        top = math.inf if high is None else math.log10(high + 1)
        rules = [(f"margin {d:g}", (z >= bottom - d) & (z < top + d)) for d in MARGINS]
        rules += [(f"p >= {p:g}", proba[:, position] >= p) for p in PROBABILITIES]
        for rule, kept in rules:
            found = (kept & inside).sum()
            cost = seconds[kept].sum() / found if found else math.inf
            print(
                f"{name:9} {rule:12} {found / inside.sum():7.3f} {kept.mean():9.3f} "
                f"{cost:8.4f} {cost / none:8.3f}"
            )


if __name__ == "__main__":
    main()
