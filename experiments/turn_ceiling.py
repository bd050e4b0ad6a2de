"""How well could any pre-solve feature rank turns? A ceiling from the optimum itself.

The default model ranks the search effort of real-game turns at Spearman 0.73 within
their family (docs/decisions/cross-family.md). The joker search prunes by points: its
first pass aims at placing every tile, and how far the optimum falls short decides how
much it prunes. This script gives the forest that shortfall, taken from the solved
optimum (``upper - score``, which no pre-solve feature knows), beside the scaled
features, and prints the 5-fold Spearman per turn family: what a perfect estimate of the
optimum would buy.

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
    print("| family | rows | scaled | scaled + the optimum's shortfall |")
    print("|---|---:|---:|---:|")
    for name in TURNS:
        frame = read_dataset(args.folder / f"{name}.parquet")
        z = np.log10(frame["search_transitions"].to_numpy(float) + 1)
        X = frame[list(SCALED_FEATURES)].to_numpy(np.float32)
        upper = frame["upper"].to_numpy(float)
        short = upper - frame["score"].fillna(0).to_numpy(float)  # infeasible: no score
        oracle = np.column_stack([X, short, short / np.maximum(upper, 1)])
        print(f"| {name} | {len(z):,} | {spearman(X, z, args.seed):.3f} | "
              f"{spearman(oracle, z, args.seed):.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
