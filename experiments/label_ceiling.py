"""How well can any pre-solve feature predict the solver labels? An oracle experiment.

Usage::

    python experiments/label_ceiling.py data/generated/default.parquet
        [--rows 12000] [--widths 4 16] [--folds 5] [--jobs 2] [--seed 0] [--search]

The solver's work on a puzzle that bounds do not settle is decided by two events
(``rumdiff.solve.Work.exact_passes``): did the width-64 beam search meet the upper
bound (then no exact pass runs), and does the optimum reach the upper bound at all (if
not, a second exact pass must prove it, at many times the work). This script re-solves a
stratified sample of a labelled dataset, checks the scores against the dataset's, and
cross-validates the training forest (``rumdiff.learn.training``'s pipeline, the default grid's
larger trees) on the same folds with:

1. the dataset's features (what ``rumdiff train`` sees);
2. plus, per ``--widths``, whether a narrower beam alone meets the upper bound: a cheap
   search a feature could afford (a width-64 beam costs as much as the moderate solves);
3. plus an oracle column "the optimum lies below the upper bound" (known only after
   solving);
4. plus an oracle column "the width-64 beam met the upper bound" (known only after the
   solver's first phase);
5. plus both oracles.

It prints a table of accuracy, macro-F1 and per-class F1, and how the labels split over
the two events. If (3) and (4) are needed to reach a target, no feature cheaper than
solving can reach it.

With ``--search`` it also measures each puzzle's search effort (the reference search,
``rumdiff.solve.search_effort``: the exact DP pruned only by the bounds known before it
starts, like the thesis's solver; read from the dataset when it holds it) and compares,
on the same folds and features, labels cut from that count with labels cut from the
solver's, each by ``suggest_thresholds`` (the valleys, the rule behind the solver
thresholds) and by terciles of the puzzles that need a search (the rule behind the search
thresholds); and, for each, how well the best single feature alone does (a depth-4
tree), which says how close the labels are to a threshold on one pre-solve count.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from rumdiff import config
from rumdiff.data import metadata_path, read_dataset, read_metadata
from rumdiff.data.labels import label_by_transitions, suggest_thresholds, tercile_thresholds
from rumdiff.learn.training import class_metrics, fit_forest, folds_of, stratified_subsample
from rumdiff.puzzle import Puzzle, decode_puzzles
from rumdiff.solve import search_effort, solve

#: The default grid's larger trees, each drawing as many rows as ``rumdiff train``'s.
FOREST = {
    "n_estimators": 100,
    "max_leaf_nodes": 1024,
    "max_samples": config.TRAIN_MAX_SAMPLES["default"],
}


def _met_upper(solution) -> bool:
    """Whether the beams met the upper bound: no exact pass ran, and the score is the
    bound (a beam that never filled may settle a segment below it without one)."""
    return solution.work.exact_passes == 0 and solution.score == solution.upper


def solver_events(copies, m, scores, widths, searched) -> pd.DataFrame:
    """Re-solve each puzzle: the solver's work, the two events, whether each narrower
    beam meets the bound, and, if ``searched``, the search effort and its seconds."""
    rows = []
    for copy, expected in zip(copies, scores, strict=True):
        puzzle = Puzzle(copy, m=m)
        solution = solve(puzzle)
        if solution.score != expected:
            raise SystemExit(f"score {solution.score} differs from the dataset's {expected}")
        dp = solution.work.method == "dp"
        row = {
            "below_upper": int(solution.score < solution.upper),
            "beam_met_upper": int(dp and _met_upper(solution)),
        }
        for width in widths:
            narrow = solve(puzzle, beam_width=width)
            row[f"beam{width}_met_upper"] = int(dp and _met_upper(narrow))
        row["solver_transitions"] = solution.work.transitions
        row["seconds"] = solution.work.seconds
        if searched:
            effort = search_effort(puzzle)
            row["search_transitions"] = effort.transitions
            row["search_seconds"] = effort.seconds
        rows.append(row)
    return pd.DataFrame(rows)


def evaluate(X, y, splits, *, jobs, seed) -> dict:
    """Cross-validated predictions of the training forest on the given folds; metrics."""
    predicted = np.zeros_like(y)
    for train_rows, test_rows in splits:
        model = fit_forest(FOREST, X[train_rows], y[train_rows], jobs=jobs, seed=seed)
        predicted[test_rows] = model.predict(X[test_rows])
    return class_metrics(y, predicted)


def best_single_feature(X, y, names, splits, *, seed) -> tuple[str, float]:
    """The feature whose depth-4 tree alone predicts ``y`` best, and its accuracy: how
    close a label scheme is to a threshold on one pre-solve count."""
    from sklearn.tree import DecisionTreeClassifier

    best = ("", 0.0)
    for j, name in enumerate(names):
        right = 0
        for train_rows, test_rows in splits:
            tree = DecisionTreeClassifier(max_depth=4, random_state=seed)
            tree.fit(X[train_rows, j : j + 1], y[train_rows])
            right += int((tree.predict(X[test_rows, j : j + 1]) == y[test_rows]).sum())
        best = max(best, (name, right / len(y)), key=lambda pair: pair[1])
    return best


def label_tables(frame, events, features, *, folds, jobs, seed) -> None:
    """Labels from the solver's work against labels from the search effort, features only."""
    names = dict(enumerate(config.LABEL_NAMES, start=1))
    X = frame[features].to_numpy(float)
    print(
        f"\nmean seconds per puzzle: solver {events['seconds'].mean():.4f}, reference "
        f"search {events['search_seconds'].mean():.4f} (same process, one after the other)"
    )
    print(
        "\n| labels from | thresholds | shares % | accuracy | macro-F1 | F1 per class "
        "| one feature, depth-4 tree |"
    )
    print("|---|---|---|---|---|---|---|")
    measures = {
        "solver work": events["solver_transitions"].to_numpy(),
        "search effort": events["search_transitions"].to_numpy(),
    }
    for measure, work in measures.items():
        rules = {
            "valleys": suggest_thresholds(work),
            "terciles": tercile_thresholds(work),
        }
        for rule, thresholds in rules.items():
            y = label_by_transitions(work, thresholds)
            splits = folds_of(y, folds, seed)
            metrics = evaluate(X, y, splits, jobs=jobs, seed=seed)
            single, single_accuracy = best_single_feature(X, y, features, splits, seed=seed)
            shares = " / ".join(f"{100 * share:.0f}" for share in np.bincount(y)[1:] / len(y))
            f1 = " / ".join(f"{metrics[name]['f1-score']:.2f}" for name in names.values())
            print(
                f"| {measure} | {rule} {thresholds} | {shares} | {metrics['accuracy']:.3f} "
                f"| {metrics['macro avg']['f1-score']:.3f} | {f1} "
                f"| {single} {single_accuracy:.3f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("--rows", type=int, default=12_000)
    parser.add_argument("--widths", type=int, nargs="*", default=[4, 16])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=config.SEED)
    parser.add_argument("--search", action="store_true")
    args = parser.parse_args()

    metadata = read_metadata(metadata_path(args.dataset))
    frame = read_dataset(args.dataset)
    k, m, n = (int(frame[name].iloc[0]) for name in ("k", "m", "n"))
    features = list(metadata["features"])
    rows = stratified_subsample(frame["label"].to_numpy(), args.rows, args.seed)
    frame = frame.iloc[rows].reset_index(drop=True)
    print(f"{len(frame):,} puzzles of {args.dataset} (sampled by its {metadata['label']} labels)")

    started = time.perf_counter()
    copies = decode_puzzles(frame["puzzle"].tolist(), k, n, m=m)
    events = solver_events(copies, m, frame["score"].to_numpy(), args.widths, args.search)
    print(f"re-solved in {time.perf_counter() - started:.0f} s; every score matches\n")
    y = label_by_transitions(events["solver_transitions"], config.LABEL_THRESHOLDS["solver"])
    names = dict(enumerate(config.LABEL_NAMES, start=1))
    classes = pd.Series(y).map(names)
    split = pd.crosstab(classes, [events["beam_met_upper"], events["below_upper"]]).reindex(
        [name for name in names.values() if name in set(classes)]
    )
    print("solver labels by (width-64 beam met the upper bound, optimum below the bound):")
    print(split.to_string(), "\n")
    work = events.loc[y > 1, "solver_transitions"].groupby(
        [events["beam_met_upper"], events["below_upper"]]
    )
    print("median transitions of the puzzles bounds did not settle, by the same events:")
    print(work.median().astype(int).to_string(), "\n")

    narrow = [f"beam{width}_met_upper" for width in args.widths]
    columns = {
        "features": [],
        "features + narrow beams": narrow,
        "features + oracle: optimum below bound": ["below_upper"],
        "features + oracle: width-64 beam met bound": ["beam_met_upper"],
        "features + both oracles": ["below_upper", "beam_met_upper"],
    }
    splits = folds_of(y, args.folds, args.seed)
    table = []
    for name, extra in columns.items():
        if name == "features + narrow beams" and not extra:
            continue
        X = np.column_stack([frame[features].to_numpy(float), events[extra].to_numpy(float)])
        metrics = evaluate(X, y, splits, jobs=args.jobs, seed=args.seed)
        per_class = " / ".join(f"{metrics[label]['f1-score']:.2f}" for label in names.values())
        table.append((name, metrics["accuracy"], metrics["macro avg"]["f1-score"], per_class))
        print(f"{name:44s} accuracy {table[-1][1]:.3f}  macro-F1 {table[-1][2]:.3f}", flush=True)
    print(f"\n| columns | accuracy | macro-F1 | F1 {' / '.join(names.values())} |")
    print("|---|---|---|---|")
    for name, accuracy, macro, per_class in table:
        print(f"| {name} | {accuracy:.3f} | {macro:.3f} | {per_class} |")
    if args.search:
        label_tables(frame, events, features, folds=args.folds, jobs=args.jobs, seed=args.seed)


if __name__ == "__main__":
    main()
