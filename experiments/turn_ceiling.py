"""How well does a pre-solve feature rank turns, against the optimum itself?

Turns (a table, mostly with jokers) are where the default model ranks search effort
worst (docs/decisions/cross-family.md). The joker search's first pass aims at placing
every tile, and how far the optimum falls short decides how much the second prunes.
This script prints, per turn family, how many turns the bounded first pass
(``joker_bound_*``) decided, and the 5-fold Spearman of a forest on five column sets:
the scaled features without the bounded pass and the probe of the second
(``joker_probe_*``), the same with the solved optimum's shortfall (``upper - score``,
which no pre-solve feature knows), the scaled features without the probe, the scaled
features, and the scaled features with the shortfall: what a perfect estimate of the
optimum adds.

    python experiments/turn_ceiling.py                  # after make default-model built the mix
    python experiments/turn_ceiling.py --budget 1000    # the bound recomputed at 1,000 states
    python experiments/turn_ceiling.py --width 16       # the probe recomputed 16 states wide
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_predict

from rumdiff import config
from rumdiff.data import read_dataset
from rumdiff.features import joker_features
from rumdiff.features.scaled import SCALED_FEATURES
from rumdiff.puzzle import decode_games

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
    parser.add_argument("--budget", type=int, default=None, metavar="STATES",
                        help="recompute the joker_bound_* columns at this budget")  # fmt: skip
    parser.add_argument("--width", type=int, default=None, metavar="STATES",
                        help="recompute the joker_probe_* columns at this width")  # fmt: skip
    args = parser.parse_args(argv)
    if args.budget is not None:
        config.FEATURE_JOKER_BOUND_STATES = args.budget
    if args.width is not None:
        config.FEATURE_PROBE_WIDTH = args.width
    bound = ("joker_bound_met", "joker_bound_refuted", "joker_bound_transitions")
    probe = ("joker_probe_growth", "joker_probe_transitions")
    without = [name for name in SCALED_FEATURES if name not in bound + probe]
    no_probe = [name for name in SCALED_FEATURES if name not in probe]
    print("| family | rows | met / refuted / open | without joker_bound_*, joker_probe_* | "
          "without + the optimum's shortfall | without joker_probe_* | scaled | scaled + "
          "the shortfall |\n|---|---:|---:|---:|---:|---:|---:|---:|")  # fmt: skip
    for name in TURNS:
        frame = read_dataset(args.folder / f"{name}.parquet")
        if args.budget is not None or args.width is not None:
            k, m, n = (int(frame[column].iloc[0]) for column in ("k", "m", "n"))
            fresh = joker_features(decode_games(frame["puzzle"], k, n, m=m))
            for column in bound + probe:
                frame[column] = fresh[column]
        z = np.log10(frame["search_transitions"].to_numpy(float) + 1)
        upper = frame["upper"].to_numpy(float)
        short = upper - frame["score"].fillna(0).to_numpy(float)  # infeasible: no score
        oracle = np.column_stack([short, short / np.maximum(upper, 1)])
        cells = []
        for columns in (without, list(SCALED_FEATURES)):
            X = frame[columns].to_numpy(np.float32)
            for extra in (X, np.column_stack([X, oracle])):
                cells.append(spearman(extra, z, args.seed))
            if columns is without:
                cells.append(spearman(frame[no_probe].to_numpy(np.float32), z, args.seed))
        met, refuted = int(frame["joker_bound_met"].sum()), int(frame["joker_bound_refuted"].sum())
        print(f"| {name} | {len(z):,} | {met:,} / {refuted:,} / {len(z) - met - refuted:,} | "
              + " | ".join(f"{c:.3f}" for c in cells) + " |")  # fmt: skip


if __name__ == "__main__":
    main()
