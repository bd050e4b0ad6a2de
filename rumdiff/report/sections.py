"""The sections of ``report.md``, each a list of Markdown parts."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from rumdiff import config
from rumdiff.report.errors import bound_markdown, effort_markdown, near_thresholds
from rumdiff.report.tables import (
    THESIS,
    comparison_markdown,
    markdown_table,
    metadata_lines,
    thesis_comparable,
    without_easy,
)

__all__ = [
    "comparison_section",
    "dataset_section",
    "errors_section",
    "importance_section",
    "labels_section",
    "model_section",
    "regression_section",
    "results_section",
]


def dataset_section(data) -> list:
    if data.scope is not None:
        rows = [
            f"| {p['family']} | {p['rows']:,} | `{p['file']}` | `{p['sha256'][:16]}...` |"
            for p in data.metadata["datasets"]
        ]
        return [
            "## Datasets\n",
            f"{len(data):,} rows of {data.puzzles_text}:\n",
            "| family | rows | file | SHA-256 |\n|---|---:|---|---|\n" + "\n".join(rows) + "\n",
        ]
    return [
        "## Dataset\n",
        f"File `{data.source}` (SHA-256 `{data.sha256[:16]}...`), {len(data):,} rows, "
        f"k={data.k}, m={data.m}, n={data.n}. Its sidecar:\n",
        "\n".join(metadata_lines(data.metadata)) + "\n",
    ]


def labels_section(data, distribution: pd.DataFrame) -> list:
    measure = data.label_by
    if measure == "time":
        rule = (
            f"easy < {data.thresholds[0]:g} s <= moderate < {data.thresholds[1]:g} s <= "
            f"medium < {data.thresholds[2]:g} s <= hard"
        )
    else:
        rule = (
            f"**easy means settled by bounds**: the search needs no transition, because "
            f"max(runs only, groups only) meets the upper bound in every segment (the "
            f"feature `solver_gap` is 0 exactly then); then moderate < {data.thresholds[0]:,} "
            f"<= medium < {data.thresholds[1]:,} <= hard transitions"
        )
    beside = (
        "The thesis's shares, beside them, come from its time labels on its machine."
        if "thesis_percent" in distribution
        else "The thesis's class shares are not shown: its classes are cut otherwise "
        f"({THESIS_CLASSES})."
    )
    return [
        "## Labels\n",
        f"Measure `{measure}`: {config.LABEL_MEASURE_TEXT[measure]}. Thresholds "
        f"`{json.dumps(data.thresholds)}`: {rule}. {beside}\n",
        markdown_table(distribution, 1),
        "![label distribution](label_distribution.png)\n",
    ]


#: How the thesis's classes were cut, for a report whose figures do not compare with it.
THESIS_CLASSES = (
    f"G(4, 2, 100) in its mix, {THESIS['rows']:,} puzzles labelled by its solver's time on "
    "its machine, so that easy / moderate / medium / hard hold "
    + " / ".join(f"{share[3]:g}" for share in THESIS["classes"].values())
    + "% of them"
)


def model_section(result, model) -> list:
    data = result.data
    cap = result.best_params.get("max_samples")
    fit_rows = len(data) - len(data) // result.folds
    applied = "every row it is fit on" if cap is None or cap >= fit_rows else f"{cap:,} rows"
    if len(result.search) <= 1:
        searched = "a single candidate, so no search"
    else:
        rows = result.search_rows
        where = (
            f"all {len(data):,} rows"
            if rows >= len(data)
            else f"a stratified subsample of {rows:,} of the {len(data):,} rows"
        )
        searched = (
            f"{len(result.search)} candidates searched by macro-F1 with "
            f"{config.TRAIN_SEARCH_FOLDS}-fold CV on {where}"
        )
    parts = [
        "## Model\n",
        f"Random forest classifier on the `{data.feature_set}` feature set "
        f"({len(data.feature_names)} features). Grid `{result.grid}`: {searched}; best: "
        f"`{result.best_params}` (all candidates in grid_search.csv). Each tree draws "
        f"{applied} (max_samples). The regressor: `{result.regression.params}`.\n",
    ]
    if model is not None:
        size = model.metadata.get("model_bytes", 0) / 2**20
        parts.append(f"Saved as `{model.path}` ({size:.1f} MB) with its sidecar.\n")
    return parts


def results_section(result) -> list:
    data, metrics, folds = result.data, result.metrics, result.fold_scores
    present = [name for name in config.LABEL_NAMES if name in metrics]
    per_class = pd.DataFrame(
        [
            (name, metrics[name]["precision"], metrics[name]["recall"], metrics[name]["f1-score"],
             int(metrics[name]["support"]))
            for name in present
        ],
        columns=["class", "precision", "recall", "F1", "support"],
    )  # fmt: skip
    hard = without_easy(result)
    if thesis_comparable(data):
        versus = [("accuracy", metrics["accuracy"], THESIS["accuracy"])]
        versus.append(("macro-F1", metrics["macro avg"]["f1-score"], THESIS["macro_f1"]))
        versus += [(f"{n} F1", metrics[n]["f1-score"], THESIS["classes"][n][2]) for n in present]
        beside = [
            f"Beside the thesis (its {THESIS['rows']:,} puzzles, time labels on its machine, "
            f"10-fold CV); ours: {len(data):,} puzzles, {data.label_by} labels:\n",
            markdown_table(pd.DataFrame(versus, columns=["metric", "rumdiff", "thesis"])),
        ]
    else:
        beside = [
            "No figure of the thesis compares with these: its classes are "
            f"{THESIS_CLASSES}, these are {data.puzzles_text} cut at "
            f"{' and '.join(f'{t:,}' for t in data.thresholds)} "
            f"({config.LABEL_EFFORT[data.label_by]}). Figures on the thesis's kind of labels "
            "are the thesis model's (`make thesis-model`: G(4, 2, 100) in the thesis's mix, "
            "search labels at that family's terciles "
            f"{' and '.join(f'{t:,}' for t in config.THESIS_LABELS['search'])}), in the "
            "README's section on the thesis's family.\n"
        ]
    return [
        "## Results\n",
        f"Out-of-fold predictions of stratified {result.folds}-fold cross-validation on all "
        f"rows (seed {result.seed}): every puzzle is predicted by the forest that did not "
        f"see it. Accuracy {metrics['accuracy']:.4f}, macro-F1 "
        f"{metrics['macro avg']['f1-score']:.4f} (pooled); per fold accuracy "
        f"{folds['accuracy'].mean():.4f} ± {folds['accuracy'].std():.4f}, macro-F1 "
        f"{folds['macro_f1'].mean():.4f} ± {folds['macro_f1'].std():.4f} (mean ± std; "
        f"cv_folds.csv). Without the easy class ({hard['rows']:,} puzzles that bounds do "
        f"not settle, classes moderate, medium, hard): accuracy {hard['accuracy']:.4f}, "
        f"macro-F1 {hard['macro_f1']:.4f}.\n",
        markdown_table(per_class),
        *beside,
        "![confusion matrix](confusion_matrix.png)\n",
    ]


def regression_section(result) -> list:
    scores = result.regression_metrics
    folds = result.regression.fold_scores
    data = result.data
    return [
        "## Difficulty score\n",
        f"A random forest regressor of log10({config.LABEL_EFFORT[data.label_by]} + "
        f"{config.EFFORT_FLOOR[data.label_by]:g}) on the same features (the empirical "
        "performance model of Hutter, Xu, Hoos and Leyton-Brown, AIJ 2014), out of fold on "
        f"the same {result.folds} folds: Spearman's rho {scores['spearman']:.4f} over all "
        f"puzzles and {scores['spearman_dp']:.4f} among the {int(data.needs_dp.sum()):,} "
        f"that need a search; RMSE {scores['rmse']:.4f} log10 units (among those, "
        f"{scores['rmse_dp']:.4f}); R^2 {scores['r2']:.4f}. Per fold: rho "
        f"{folds['spearman'].mean():.4f} ± {folds['spearman'].std():.4f}, RMSE "
        f"{folds['rmse'].mean():.4f} ± {folds['rmse'].std():.4f} (regression_folds.csv).\n",
        "![predicted against true effort](effort_scatter.png)\n",
    ]


def importance_section(result) -> list:
    return [
        "## Feature importance\n",
        "Impurity importance of the final classifier (mean over trees, with its spread: "
        "the std over trees, drawn as error bars) and permutation importance (drop in "
        "macro-F1 when the feature is shuffled, on held-out rows of the first fold, mean ± "
        "std over repeats). Impurity importance favours features with many distinct values "
        "and splits credit between correlated features; permutation importance of one of "
        "two correlated features can be near zero.\n",
        markdown_table(result.importance, 4),
        "![feature importance](feature_importance.png)\n",
    ]


def errors_section(result, by_bound) -> list:
    parts = [
        "## Where the errors are\n",
        effort_markdown(result, near_thresholds(result)),
        "![errors by effort](errors_by_effort.png)\n",
    ]
    if by_bound is not None and not np.all(by_bound["rows"] == 0):
        parts += [
            "## The optimum and the upper bound\n",
            bound_markdown(by_bound),
            markdown_table(by_bound),
        ]
    return parts


def comparison_section(comparison, folds: int) -> list:
    if comparison is None:
        return []
    return ["## Feature sets side by side\n", comparison_markdown(comparison[0], folds)]
