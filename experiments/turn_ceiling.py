"""How well does a pre-solve feature rank turns, against the optimum itself?

Turns (a table, mostly with jokers) are where the default model ranks search effort
worst (docs/decisions/cross-family.md). The joker search's first pass aims at placing
every tile, and how far the optimum falls short decides how much the second prunes.
This script prints the 5-fold Spearman of a forest per turn family on three column sets:
the scaled features without the bounded first pass (``joker_bound_*``), the scaled
features, and the scaled features with the solved optimum's shortfall (``upper -
score``, which no pre-solve feature knows): what a perfect estimate of the optimum adds.

    python experiments/turn_ceiling.py      # after make default-model built the mix
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_predict

from rumdiff.data import read_dataset
from rumdiff.features.scaled import SCALED_FEATURES

ROOT = Path(__file__).resolve().parents[1]
TURNS = ("turns", "turns-j0", "turns-3-2-30", "turns-4-1-40", "turns-4-3-13", "turns-5-2-20",
         "turns-6-2-13")  # fmt: skip


def spearman(X, z, seed: int) -> float:
    """Out-of-fold Spearman's rho of a forest of log10 effort on ``X`` (5 folds)."""
    forest = RandomForestRegressor(100, max_features=0.5, n_jobs=-1, random_state=seed)
    folds = KFold(5, shuffle=True, random_state=seed)
    return float(spearmanr(z, cross_val_predict(forest, X, z, cv=folds)).statistic)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=ROOT / "data" / "generated" / "mix")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    without = [name for name in SCALED_FEATURES if not name.startswith("joker_bound_")]
    print("| family | rows | scaled without joker_bound_* | scaled | scaled + the optimum's "
          "shortfall |\n|---|---:|---:|---:|---:|")  # fmt: skip
    for name in TURNS:
        frame = read_dataset(args.folder / f"{name}.parquet")
        z = np.log10(frame["search_transitions"].to_numpy(float) + 1)
        X = frame[list(SCALED_FEATURES)].to_numpy(np.float32)
        upper = frame["upper"].to_numpy(float)
        short = upper - frame["score"].fillna(0).to_numpy(float)  # infeasible: no score
        oracle = np.column_stack([X, short, short / np.maximum(upper, 1)])
        cells = [spearman(frame[without].to_numpy(np.float32), z, args.seed),
                 spearman(X, z, args.seed), spearman(oracle, z, args.seed)]  # fmt: skip
        print(f"| {name} | {len(z):,} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
