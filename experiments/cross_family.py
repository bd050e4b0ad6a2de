"""The default model across families: where the class cuts fall, and how well it does in
every family, seen in training and held out.

Reads the datasets of the training mix (models/default-mix.txt, built by
``make default-model`` into data/generated/mix/) and prints three Markdown tables, and
a fourth when asked:

1. **scale**: per family, the share of puzzles the bounds settle (easy), the quartiles of
   the search effort of the rest, and the share of each class under the thresholds;
2. **cv**: 10-fold stratified cross-validation on the whole mix (the folds
   ``rumdiff train`` uses), scored per family: accuracy, macro-F1, Spearman's rho and
   RMSE of the difficulty score (log10 effort) against the truth; then how close to a
   class cut the misclassified puzzles lie;
3. **held out**: leave one group of families out, train on the rest, score the group
   (:data:`HELD_OUT`): the real game's turns, k = 6, m = 1, then harder cuts: every
   G(4, 2, 13) dataset, m = 3, n = 200, every turn, every puzzle with jokers;
4. **families** (only when asked: a classifier and a regressor per family): leave each
   family out alone, train on the others, score it.

    python experiments/cross_family.py                # the first three
    python experiments/cross_family.py --only families  # each family left out alone
    python experiments/cross_family.py --only scale   # the cuts alone, in seconds
    python experiments/cross_family.py --drop NAME,NAME  # without some features, same forest
    python experiments/cross_family.py --set max_features=sqrt  # another forest parameter
    python experiments/cross_family.py --width 256      # the probe of the joker search wider

The forests take the default model's parameters (its sidecar's, or the default grid's
first candidate when it has none).
"""

from __future__ import annotations

import argparse
import json
import shlex
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from rumdiff import config
from rumdiff.data import read_dataset, read_sidecar
from rumdiff.features import joker_features
from rumdiff.learn import training
from rumdiff.learn.regression import fit_regressor
from rumdiff.learn.training_set import combine_training_data, training_data
from rumdiff.puzzle import decode_games

ROOT = Path(__file__).resolve().parents[1]

#: Groups of families held out together, by a test on (k, m, n, jokers, mode).
HELD_OUT = {
    "real game: turns of G(4, 2, 13), 2 jokers": lambda k, m, n, j, mode: (
        (k, m, n, j, mode) == (4, 2, 13, 2, "turn")
    ),
    "k = 6": lambda k, m, n, j, mode: k == 6,
    "m = 1": lambda k, m, n, j, mode: m == 1,
    "every G(4, 2, 13)": lambda k, m, n, j, mode: (k, m, n) == (4, 2, 13),
    "m = 3": lambda k, m, n, j, mode: m == 3,
    "n = 200": lambda k, m, n, j, mode: n == 200,
    "every turn (a table)": lambda k, m, n, j, mode: mode == "turn",
    "every joker": lambda k, m, n, j, mode: j > 0,
}


def mix_datasets(mix: Path, folder: Path) -> list:
    """The dataset files the mix lists, in its order."""
    names = []
    for line in mix.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            names.append(folder / f"{shlex.split(line)[0]}.parquet")
    return names


def load(paths, thresholds, fresh_probe=False) -> tuple:
    """The combined training data, and each row's (k, m, n, jokers, mode); with
    ``fresh_probe``, the ``joker_probe_*`` columns computed afresh (at
    ``config.FEATURE_PROBE_WIDTH``)."""
    parts, keys = [], []
    for path in paths:
        metadata = read_sidecar(path)
        frame = read_dataset(path)
        parameters = metadata.get("parameters") or {}
        key = (int(frame["k"].iloc[0]), int(frame["m"].iloc[0]), int(frame["n"].iloc[0]),
               int(parameters.get("jokers") or 0), parameters["mode"])  # fmt: skip
        if fresh_probe and (key[3] > 0 or key[4] == "turn"):
            fresh = joker_features(decode_games(frame["puzzle"], key[0], key[2], m=key[1]))
            for column in ("joker_probe_growth", "joker_probe_transitions"):
                frame[column] = fresh[column]
        part = training_data(frame, metadata, feature_set="scaled", label_by="search",
                             thresholds=thresholds, source=str(path), alone=False)  # fmt: skip
        parts.append(part)
        keys += [key] * len(part)
    return combine_training_data(parts), np.array(keys, dtype=object)


def scores(y, guess, z, z_guess) -> dict:
    """Accuracy, macro-F1 and Spearman's rho of one family's rows."""
    from sklearn.metrics import f1_score

    labels = np.unique(y)
    rho = spearmanr(z, z_guess).statistic if np.ptp(z) > 0 else np.nan
    return {
        "rows": len(y),
        "accuracy": float(np.mean(y == guess)),
        "macro_f1": float(f1_score(y, guess, average="macro", labels=labels, zero_division=0)),
        "spearman": float(rho),
        "rmse": float(np.sqrt(np.mean((z - z_guess) ** 2))),
    }


def near_cut(data, guess, thresholds) -> str:
    """How far from the nearest class cut the misclassified searched puzzles lie (log10).

    A class error within the score's own error of a cut is one no ranking can avoid.
    """
    wrong = (guess != data.y) & (data.effort > 0)
    distance = np.min(np.abs(np.log10(data.effort[wrong, None] + 1) - np.log10(thresholds)),
                      axis=1)  # fmt: skip
    shares = ", ".join(f"{np.mean(distance < d):.0%} within {d}" for d in (0.1, 0.2, 0.3))
    return (f"misclassified: {wrong.sum():,} searched puzzles; their distance to the "
            f"nearest cut in log10: {shares}")  # fmt: skip


def score_classes(data, z_guess, thresholds) -> str:
    """Accuracy and macro-F1 of classes cut from the out-of-fold score at the thresholds.

    Easy is below one transition: the classifier's figures, had the class come from the
    score.
    """
    from sklearn.metrics import f1_score

    cuts = np.log10(np.array([1.0, *thresholds]) + 1)
    guess = 1 + np.searchsorted(cuts, z_guess, side="right")  # classes 1..4
    return (f"classes cut from the score: accuracy {np.mean(guess == data.y):.4f}, macro-F1 "
            f"{f1_score(data.y, guess, average='macro'):.4f}")  # fmt: skip


def scale_table(data) -> pd.DataFrame:
    """Per family: easy share, effort quartiles of the rest, class shares."""
    rows = []
    for name in data.scope["families"]:
        here = data.family == name
        effort = data.effort[here]
        searched = effort[effort > 0]
        quartiles = np.percentile(searched, [25, 50, 75]) if len(searched) else [np.nan] * 3
        shares = [np.mean(data.y[here] == c) for c in config.CLASS_NAMES]
        rows.append([name, here.sum(), *quartiles, np.max(effort), *shares])
    columns = ["family", "rows", "q25", "median", "q75", "max", *config.LABEL_NAMES]
    return pd.DataFrame(rows, columns=columns)


def family_terciles(data) -> tuple:
    """The terciles of the search effort of the puzzles that need a search, each family
    weighing the same whatever its rows: the cuts of the default classes."""
    searched = data.effort > 0
    weight = np.zeros(len(data))
    for name in data.scope["families"]:
        here = (data.family == name) & searched
        weight[here] = 1.0 / max(here.sum(), 1)
    effort, weight = data.effort[searched], weight[searched]
    order = np.argsort(effort, kind="stable")
    share = np.cumsum(weight[order]) / weight.sum()
    return tuple(float(effort[order][np.searchsorted(share, q)]) for q in (1 / 3, 2 / 3))


def cv_table(data, params, folds, seed, jobs) -> tuple:
    """Out-of-fold scores per family and pooled, with the out-of-fold classes and scores."""
    splits = training.folds_of(data.y, folds, seed)
    guess, *_ = training.cross_validate(data, params, splits, jobs=jobs, seed=seed)
    z_guess = np.zeros(len(data))
    for fit_rows, test_rows in splits:
        model = fit_regressor(data.X[fit_rows], data.target[fit_rows], jobs=jobs, seed=seed)
        z_guess[test_rows] = model.predict(data.X[test_rows])
    rows = [{"family": "all", **scores(data.y, guess, data.target, z_guess)}]
    for name in data.scope["families"]:
        here = data.family == name
        rows.append({"family": name, **scores(data.y[here], guess[here], data.target[here],
                                               z_guess[here])})  # fmt: skip
    return pd.DataFrame(rows), guess, z_guess


def held_out_table(data, groups: dict, params, seed, jobs) -> pd.DataFrame:
    """Train without each group (a name and its rows' mask) and score it, as a whole and,
    when it holds several, per family."""
    rows = []
    for group, out in groups.items():
        if not out.any() or out.all():
            continue
        forest = training.fit_forest(params, data.X[~out], data.y[~out], jobs=jobs, seed=seed)
        regressor = fit_regressor(data.X[~out], data.target[~out], jobs=jobs, seed=seed)
        guess = forest.predict(data.X[out])
        z_guess = regressor.predict(data.X[out])
        y, z, family = data.y[out], data.target[out], data.family[out]
        names = list(dict.fromkeys(family))
        rows.append({"held out": group, "family": "all of them" if len(names) > 1 else names[0],
                     **scores(y, guess, z, z_guess)})  # fmt: skip
        for name in names if len(names) > 1 else ():
            here = family == name
            rows.append({"held out": group, "family": name,
                         **scores(y[here], guess[here], z[here], z_guess[here])})  # fmt: skip
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame, digits: int = 3) -> str:
    """A DataFrame as a Markdown table: floats to ``digits`` decimals, or 3 significant
    figures when they are large."""

    def cell(value) -> str:
        if isinstance(value, (float, np.floating)):
            return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.{digits}f}"
        return f"{value:,}" if isinstance(value, (int, np.integer)) else str(value)

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * frame.shape[1]]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(False)]
    return "\n".join(lines) + "\n"


def forest_value(text: str):
    """A forest parameter's value as ``--set`` gives it: an int, a float, None, a truth
    value or a name."""
    if text in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[text]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def model_params(path: Path) -> dict:
    """The classifier parameters of the default model's sidecar, else the default grid's."""
    side = path.with_name(path.name + ".json")
    if side.is_file():
        metadata = json.loads(side.read_text())
        if metadata.get("params") and metadata.get("feature_set") == "scaled":
            return metadata["params"]
    grid = config.TRAIN_GRIDS["default"]
    return training.with_sample_cap({key: values[0] for key, values in grid.items()}, "default")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mix", type=Path, default=ROOT / "models" / "default-mix.txt")
    parser.add_argument("--folder", type=Path, default=ROOT / "data" / "generated" / "mix")
    parser.add_argument("--model", type=Path, default=ROOT / config.DEFAULT_MODEL)
    parser.add_argument("--only", choices=("scale", "cv", "held-out", "families"), default=None,
                        help="one part (families, each family left out alone, runs only "
                        "when asked: two forests per family)")  # fmt: skip
    parser.add_argument("--folds", type=int, default=config.TRAIN_FOLDS)
    parser.add_argument("--seed", type=int, default=config.SEED)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--drop", default="", metavar="NAME[,NAME]",
                        help="feature columns to leave out (say, what a feature adds)")  # fmt: skip
    parser.add_argument("--width", type=int, default=None, metavar="STATES",
                        help="recompute the joker_probe_* columns at this width")  # fmt: skip
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a classifier parameter unlike the model's (repeatable)")  # fmt: skip
    args = parser.parse_args(argv)
    thresholds = config.LABEL_THRESHOLDS["search"]
    if args.width is not None:
        config.FEATURE_PROBE_WIDTH = args.width  # (load's joker_features reads it)
    data, keys = load(mix_datasets(args.mix, args.folder), thresholds, args.width is not None)
    if args.drop:
        drop = args.drop.split(",")
        unknown = sorted(set(drop) - set(data.feature_names))
        if unknown:
            parser.error(f"--drop: no feature named {', '.join(unknown)}")
        keep = [i for i, name in enumerate(data.feature_names) if name not in drop]
        data = replace(data, X=data.X[:, keep],
                       feature_names=[data.feature_names[i] for i in keep])  # fmt: skip
    params = model_params(args.model)
    for setting in args.set:
        name, sep, value = setting.partition("=")
        # The seed and the threads are the script's own options.
        known = set(training.make_pipeline()["forest"].get_params()) - {"random_state", "n_jobs"}
        if not sep or name not in known:
            parser.error(f"--set {setting!r}: expected NAME=VALUE, NAME a forest parameter")
        params[name] = forest_value(value)
    print(f"{len(data):,} puzzles, {len(data.scope['families'])} families; thresholds "
          f"{thresholds}; forest {params}; probe width {config.FEATURE_PROBE_WIDTH}"
          f"{' (recomputed)' if args.width is not None else ''}\n")  # fmt: skip
    if args.only in (None, "scale"):
        print("## Scale: easy share, effort quartiles of the rest, class shares\n")
        table = scale_table(data)
        print(markdown(table))
        low, high = family_terciles(data)
        print(f"terciles of the searched puzzles, every family weighing the same: {low:,.0f}, "
              f"{high:,.0f} (config.LABEL_THRESHOLDS['search'] rounds them)\n")  # fmt: skip
    if args.only in (None, "cv"):
        print(f"## {args.folds}-fold cross-validation on the mix, per family\n")
        table, guess, z_guess = cv_table(data, params, args.folds, args.seed, args.jobs)
        print(markdown(table))
        print(near_cut(data, guess, thresholds) + "\n")
        print(score_classes(data, z_guess, thresholds) + "\n")
    if args.only in (None, "held-out"):
        print("## Held out: trained without the group, scored on it\n")
        groups = {group: np.array([test(*key) for key in keys], dtype=bool)
                  for group, test in HELD_OUT.items()}  # fmt: skip
        print(markdown(held_out_table(data, groups, params, args.seed, args.jobs)))
    if args.only == "families":
        print("## Each family left out alone: trained on the others, scored on it\n")
        groups = {name: data.family == name for name in data.scope["families"]}
        print(markdown(held_out_table(data, groups, params, args.seed, args.jobs)))


if __name__ == "__main__":
    main()
