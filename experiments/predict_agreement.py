"""Does ``rumdiff predict`` agree with itself, and what does making it agree cost?

Usage: ``python experiments/predict_agreement.py [--count N] [--seed S] [--model thesis]``.

Draws N fresh puzzles (default 200) of every family of the default model's training mix
(models/default-mix.txt), family i with seed S + i (default S = 3600; the mix used
2301-2324), so that no puzzle is one the model was trained on; with ``--model thesis``,
10 N mixed G(4, 2, 100) puzzles with seed S for the thesis model (trained on seed 400).
Each puzzle's search effort is measured by the reference search, and the shipped model
predicts it. Three ways to print a class and an effort, per family and pooled:

- ``raw``: the class from the classifier, the effort from the regressor, the interval
  from its trees (what ``rumdiff predict`` printed before): ``outside`` counts the rows
  whose estimate lies outside its own interval, ``disagree`` those whose estimate lies
  outside its class's range of effort, ``out of reach`` those whose whole interval does;
- ``from estimate``: the class cut from the regressor's estimate (agrees by construction);
- ``in class`` (what ``rumdiff predict`` prints now, rumdiff.learn.prediction.
  effort_in_class): the classifier's class, the estimate moved into its class's range,
  the interval widened to hold it.

Scores: accuracy and macro-F1 of the class against the measured label; Spearman's rho
and RMSE of log10(effort + 1) against the measured one; ``covered``, the share of
measured efforts inside the printed interval.
"""

from __future__ import annotations

import argparse
import shlex
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.metrics import f1_score

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.data.labels import class_ranges, label_by_transitions
from rumdiff.learn import load_model
from rumdiff.learn.prediction import effort_in_class, model_path
from rumdiff.puzzle import Game
from rumdiff.report.tables import markdown_table
from rumdiff.solve import search_effort

ROOT = Path(__file__).resolve().parents[1]


def families(count: int, seed: int, thesis: bool) -> list:
    """(name, generate's arguments) per family to draw."""
    if thesis:
        return [
            ("G(4, 2, 100) mixed", dict(count=10 * count, family=Family(mode="mixed"), seed=seed))
        ]
    options = argparse.ArgumentParser(add_help=False)
    for flag in ("-k", "-m", "-n", "--jokers", "--seed"):
        options.add_argument(flag, type=int, default=0)
    options.add_argument("--mode")
    out = []
    lines = (ROOT / "models" / "default-mix.txt").read_text().splitlines()
    for i, line in enumerate(line for line in lines if line.strip() and line[0] != "#"):
        name, _, *rest = shlex.split(line)
        given = options.parse_args(rest)
        family = Family(Game(given.k, given.m, given.n), given.mode, jokers=given.jokers)
        out.append((name, dict(count=count, family=family, seed=seed + i)))
    return out


def measure(model, draw: dict) -> dict:
    """Puzzles of one family: measured efforts and labels, and the three ways' outputs."""
    puzzles = generate(**draw).puzzles
    truth = np.array([search_effort(puzzle).transitions for puzzle in puzzles], dtype=float)
    thresholds = model.metadata["thresholds"]
    X = model.features(puzzles)
    proba = model.predict_proba(puzzles, X)
    raw = model.predict_effort(puzzles, X)
    classes = np.asarray(model.classes)[proba.argmax(axis=1)]
    cuts = np.array([low for low, _ in class_ranges(model.label_by, thresholds)][1:], float)
    from_estimate = 1 + np.searchsorted(cuts, raw[:, 0], side="right")
    return {
        "truth": truth,
        "y": label_by_transitions(truth, thresholds),
        "raw": (classes, raw),
        "from estimate": (from_estimate, raw),
        "in class": (classes, effort_in_class(raw, classes, model.label_by, thresholds)),
        "ranges": class_ranges(model.label_by, thresholds),
    }


def scores(parts: list, way: str) -> dict:
    """One way's scores over the measured parts (one family, or all pooled)."""
    y = np.concatenate([part["y"] for part in parts])
    truth = np.log10(np.concatenate([part["truth"] for part in parts]) + 1)
    classes = np.concatenate([part[way][0] for part in parts])
    effort = np.concatenate([part[way][1] for part in parts])
    guess = np.log10(effort[:, 0] + 1)
    ranges = parts[0]["ranges"]
    low = np.array([bottom for bottom, _ in ranges], float)[classes - 1]
    high = np.array([np.inf if top is None else top for _, top in ranges])[classes - 1]
    inside = (effort[:, 1] <= effort[:, 0]) & (effort[:, 0] <= effort[:, 2])
    agrees = (low <= effort[:, 0]) & (effort[:, 0] < high)
    reach = (effort[:, 1] < high) & (effort[:, 2] >= low)
    measured = 10**truth - 1
    covered = (effort[:, 1] <= measured) & (measured <= effort[:, 2])
    return {
        "rows": len(y),
        "accuracy": float(np.mean(classes == y)),
        "macro-F1": float(f1_score(y, classes, average="macro", labels=np.unique(y))),
        "Spearman": float(spearmanr(truth, guess).statistic) if np.ptp(truth) else np.nan,
        "RMSE": float(np.sqrt(np.mean((truth - guess) ** 2))),
        "covered": float(np.mean(covered)),
        "outside": int(np.sum(~inside)),
        "disagree": int(np.sum(~agrees)),
        "out of reach": int(np.sum(~reach)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="puzzles a family")
    parser.add_argument("--seed", type=int, default=3600)
    parser.add_argument("--model", choices=("default", "thesis"), default="default")
    args = parser.parse_args()
    thesis = args.model == "thesis"
    model = load_model(model_path("thesis" if thesis else None))
    began = time.perf_counter()
    measured = {}
    for name, draw in families(args.count, args.seed, thesis):
        measured[name] = measure(model, draw)
    print(f"{args.model} model, {sum(len(p['y']) for p in measured.values()):,} fresh puzzles "
          f"(seed {args.seed}), thresholds {model.metadata['thresholds']}; "
          f"{time.perf_counter() - began:.0f} s\n")  # fmt: skip
    ways = ("raw", "from estimate", "in class")
    pooled = pd.DataFrame([{"way": way, **scores(list(measured.values()), way)} for way in ways])
    print("## Pooled\n")
    print(markdown_table(pooled))
    if len(measured) > 1:
        rows = []
        for name, part in measured.items():
            row = {"family": name}
            for way in ways:
                got = scores([part], way)
                row[f"accuracy {way}"] = got["accuracy"]
                row[f"RMSE {way}"] = got["RMSE"]
            row["disagree raw"] = scores([part], "raw")["disagree"]
            rows.append(row)
        print("## Per family\n")
        print(markdown_table(pd.DataFrame(rows)))


if __name__ == "__main__":
    main()
