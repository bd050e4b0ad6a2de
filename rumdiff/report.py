"""Reports of a training run: tables, figures and ``report.md`` in one folder.

:func:`write_report` writes, into OUTDIR:

- ``classification_report.txt`` and ``.json``: accuracy, per-class precision, recall,
  F1 and support, macro and weighted averages, of the out-of-fold predictions;
- ``confusion_matrix.csv`` (counts), ``confusion_matrix_normalised.csv`` (rows sum to 1)
  and ``confusion_matrix.png`` (both, side by side);
- ``feature_importance.csv`` and ``.png``: impurity and permutation importance;
- ``label_distribution.csv`` and ``.png``: rows per class, beside the thesis's shares;
- ``cv_folds.csv`` (per-fold scores) and ``grid_search.csv`` (every candidate);
- ``compare.csv``, ``compare_folds.csv`` and ``compare.md`` when a feature-set comparison
  is given;
- ``report.md``, which ties them together with the dataset's metadata.

Figures are drawn with matplotlib's object-oriented API (no pyplot, no display needed).
Every file is written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from rumdiff.atomic import atomic_write_png, atomic_write_text
from rumdiff.dataset import beam_width_of
from rumdiff.error_analysis import (
    bound_markdown,
    effort_figure,
    effort_markdown,
    errors_by_bound,
    errors_by_effort,
    near_thresholds,
)

__all__ = [
    "write_report",
    "write_comparison",
    "comparison_markdown",
    "THESIS",
]

#: The thesis's results (Tables 3 and 4): 400,000 G(4, 2, 100) puzzles, labels from
#: solve time on its machine, 10-fold CV; per class (precision, recall, F1, share %).
THESIS = {
    "rows": 400_000,
    "accuracy": 0.82,
    "macro_f1": 0.84,
    "classes": {
        "easy": (0.97, 0.94, 0.95, 25.9),
        "moderate": (0.92, 0.93, 0.92, 17.4),
        "medium": (0.72, 0.74, 0.73, 28.0),
        "hard": (0.74, 0.74, 0.74, 28.7),
    },
}


def _csv(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False, lineterminator="\n", float_format="%.6g")


def _markdown(frame: pd.DataFrame, digits: int = 3) -> str:
    """A GitHub-flavoured Markdown table (pandas' to_markdown needs tabulate)."""

    def cell(value) -> str:
        if isinstance(value, (float, np.floating)):
            return "" if np.isnan(value) else f"{value:.{digits}f}"
        return str(value)

    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(False)]
    return "\n".join([head, rule, *body]) + "\n"


def confusion(result) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Confusion matrices (counts, row-normalised) of the out-of-fold predictions."""
    from sklearn.metrics import confusion_matrix

    from rumdiff.train import CLASS_NAMES

    classes = list(CLASS_NAMES)
    counts = confusion_matrix(result.data.y, result.y_pred, labels=classes)
    totals = counts.sum(axis=1, keepdims=True)
    normalised = np.divide(counts, totals, out=np.zeros(counts.shape), where=totals > 0)
    names = list(CLASS_NAMES.values())
    index = pd.Index([f"true {name}" for name in names], name="")
    as_frame = [pd.DataFrame(matrix, index=index, columns=names) for matrix in (counts, normalised)]
    return as_frame[0], as_frame[1]


def _confusion_figure(counts: pd.DataFrame, normalised: pd.DataFrame, title: str):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(11, 4.6), layout="constrained")
    names = list(counts.columns)
    for axes, matrix, caption, text in (
        (figure.add_subplot(1, 2, 1), counts.to_numpy(), "counts", "{:,.0f}"),
        (figure.add_subplot(1, 2, 2), normalised.to_numpy(), "share of each true class", "{:.2f}"),
    ):
        shown = matrix / max(matrix.max(), 1e-12)
        axes.imshow(shown, cmap="Blues", vmin=0, vmax=1)
        for (row, column), value in np.ndenumerate(matrix):
            colour = "white" if shown[row, column] > 0.55 else "black"
            axes.text(column, row, text.format(value), ha="center", va="center", color=colour)
        axes.set_xticks(range(len(names)), names)
        axes.set_yticks(range(len(names)), names)
        axes.set_xlabel("predicted")
        axes.set_ylabel("true")
        axes.set_title(caption)
    figure.suptitle(title)
    return figure


def _importance_figure(table: pd.DataFrame, title: str):
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(11, 1.2 + 0.3 * len(table)), layout="constrained")
    order = table.sort_values("impurity", kind="stable")  # largest on top
    y = np.arange(len(order))
    left, right = figure.add_subplot(1, 2, 1), figure.add_subplot(1, 2, 2)
    # The spread over trees is wide and says little about the forest: no error bars here.
    left.barh(y, order["impurity"], color="tab:blue")
    left.set_yticks(y, order["feature"])
    left.set_title("impurity (mean decrease, final model)")
    right.barh(y, order["permutation"], xerr=order["permutation_std"], color="tab:orange",
               capsize=2)  # fmt: skip
    right.set_yticks(y, [""] * len(order))
    right.set_title("permutation (drop in macro-F1, held-out rows)")
    for axes in (left, right):
        axes.axvline(0, color="black", linewidth=0.6)
        axes.grid(axis="x", alpha=0.3)
        axes.xaxis.set_major_locator(MaxNLocator(5))
    figure.suptitle(title)
    return figure


def label_distribution(result) -> pd.DataFrame:
    """Rows and share per class, beside the thesis's shares (its time labels)."""
    from rumdiff.labels import class_counts

    rows = []
    for label, (name, count) in enumerate(class_counts(result.data.y).items(), start=1):
        share = 100 * count / len(result.data)
        rows.append((label, name, count, share, THESIS["classes"][name][3]))
    return pd.DataFrame(rows, columns=["label", "class", "rows", "percent", "thesis_percent"])


def _distribution_figure(table: pd.DataFrame, title: str):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.5, 3.8), layout="constrained")
    axes = figure.add_subplot(1, 1, 1)
    x = np.arange(len(table))
    axes.bar(x - 0.2, table["percent"], width=0.4, label="this dataset")
    axes.bar(x + 0.2, table["thesis_percent"], width=0.4, label="thesis (time labels)")
    axes.set_xticks(x, table["class"])
    axes.set_ylabel("% of puzzles")
    axes.legend()
    axes.set_title(title)
    return figure


def _report_text(result, metrics: dict) -> str:
    from sklearn.metrics import classification_report

    from rumdiff.train import CLASS_NAMES

    present = [c for c in CLASS_NAMES if c in set(result.data.y) | set(result.y_pred)]
    text = classification_report(
        result.data.y, result.y_pred, labels=present, digits=3, zero_division=0,
        target_names=[CLASS_NAMES[c] for c in present],
    )  # fmt: skip
    folds = result.fold_scores
    return (
        f"{result.folds}-fold stratified cross-validation (seed {result.seed}), "
        f"{len(result.data):,} puzzles, {result.data.label_by} labels, "
        f"{result.data.feature_set} features\n\n{text}\n"
        f"per fold: accuracy {folds['accuracy'].mean():.4f} +- {folds['accuracy'].std():.4f}, "
        f"macro-F1 {folds['macro_f1'].mean():.4f} +- {folds['macro_f1'].std():.4f}\n"
    )


def comparison_markdown(summary: pd.DataFrame, folds: int) -> str:
    """The feature-set comparison as a Markdown table: mean +- std over the same folds."""
    rows = []
    for row in summary.itertuples(False):
        rows.append(
            {
                "feature set": row.feature_set,
                "features": row.features,
                "accuracy": f"{row.accuracy_mean:.4f} ± {row.accuracy_std:.4f}",
                "macro-F1": f"{row.macro_f1_mean:.4f} ± {row.macro_f1_std:.4f}",
                "macro-F1 gain": f"{row.macro_f1_gain_mean:+.4f} ± {row.macro_f1_gain_std:.4f}",
                **{
                    name.removeprefix("f1_") + " F1": getattr(row, name)
                    for name in summary.columns
                    if name.startswith("f1_")
                },
            }
        )
    first = summary["feature_set"].iloc[0]
    return (
        f"Mean ± std over the same {folds} stratified folds; the gain is macro-F1 minus "
        f"{first}'s, fold by fold. Per-class F1 is of the pooled out-of-fold predictions.\n\n"
        + _markdown(pd.DataFrame(rows))
        + "\nParameters (each set searched on the same subsample): "
        + "; ".join(f"{r.feature_set}: {r.params}" for r in summary.itertuples(False))
        + "\n"
    )


def write_comparison(outdir, summary: pd.DataFrame, per_fold: pd.DataFrame, folds: int) -> list:
    """Write ``compare.csv``, ``compare_folds.csv`` and ``compare.md``; return the paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = [outdir / name for name in ("compare.csv", "compare_folds.csv", "compare.md")]
    atomic_write_text(paths[0], _csv(summary))
    atomic_write_text(paths[1], _csv(per_fold))
    heading = "# Feature sets side by side\n\n"
    atomic_write_text(paths[2], heading + comparison_markdown(summary, folds))
    return paths


#: Sidecar entries report.md leaves out: long lists that the dataset file itself shows.
_UNSHOWN = ("columns", "features")


def _metadata_lines(metadata: dict) -> list:
    lines = []
    for key, value in metadata.items():
        if key in _UNSHOWN:
            continue
        if isinstance(value, (dict, list)):
            value = json.dumps(value, separators=(", ", ": "))
        text = str(value)
        if len(text) > 160:
            text = text[:157] + "..."
        lines.append(f"| {key} | {text.replace('|', '/')} |")
    return ["| key | value |", "|---|---|", *lines] if lines else ["(no sidecar)"]


def write_report(result, outdir, *, model=None, command: str = "", comparison=None) -> list:
    """Write every report file of a :class:`rumdiff.train.TrainResult` into ``outdir``.

    Parameters
    ----------
    result : TrainResult
    outdir : path
    model : rumdiff.model.Model, optional
        The saved model, whose path, size and metrics report.md names.
    command : str
        The command line, recorded in report.md.
    comparison : (summary, per_fold), optional
        From :func:`rumdiff.compare.compare_feature_sets`.

    Returns
    -------
    list of Path
        The files written.
    """
    from rumdiff.train import CLASS_NAMES

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    data, metrics = result.data, result.metrics
    plain = data.label_by == "work" and beam_width_of(data.metadata) == 0
    labels = "plain-DP work" if plain else data.label_by
    title = f"{len(data):,} puzzles G({data.k}, {data.m}, {data.n}), {labels} labels"
    written = []

    def text(name: str, content: str) -> None:
        atomic_write_text(outdir / name, content)
        written.append(outdir / name)

    def figure(name: str, drawn) -> None:
        atomic_write_png(outdir / name, drawn)
        written.append(outdir / name)

    text("classification_report.txt", _report_text(result, metrics))
    text("classification_report.json", json.dumps(metrics, indent=2) + "\n")
    counts, normalised = confusion(result)
    text("confusion_matrix.csv", counts.to_csv(lineterminator="\n"))
    text(
        "confusion_matrix_normalised.csv",
        normalised.to_csv(lineterminator="\n", float_format="%.4f"),
    )
    figure("confusion_matrix.png", _confusion_figure(counts, normalised, title))
    text("feature_importance.csv", _csv(result.importance))
    figure("feature_importance.png", _importance_figure(result.importance, title))
    distribution = label_distribution(result)
    text("label_distribution.csv", _csv(distribution))
    figure("label_distribution.png", _distribution_figure(distribution, title))
    effort = errors_by_effort(result)
    text("errors_by_effort.csv", _csv(effort))
    figure("errors_by_effort.png", effort_figure(effort, result, title))
    near = near_thresholds(result)
    by_bound = errors_by_bound(result)
    if by_bound is not None:
        text("errors_by_bound.csv", _csv(by_bound))
    text("cv_folds.csv", _csv(result.fold_scores))
    text("grid_search.csv", _csv(result.search))
    if comparison is not None:
        written += write_comparison(outdir, *comparison, folds=result.folds)

    folds = result.fold_scores
    versus = [("accuracy", metrics["accuracy"], THESIS["accuracy"])]
    versus.append(("macro-F1", metrics["macro avg"]["f1-score"], THESIS["macro_f1"]))
    for name in CLASS_NAMES.values():
        if name in metrics:
            versus.append((f"{name} F1", metrics[name]["f1-score"], THESIS["classes"][name][2]))
    versus_table = pd.DataFrame(versus, columns=["metric", "rumdiff", "thesis"])
    per_class = pd.DataFrame(
        [
            (name, metrics[name]["precision"], metrics[name]["recall"], metrics[name]["f1-score"],
             int(metrics[name]["support"]))
            for name in CLASS_NAMES.values() if name in metrics
        ],
        columns=["class", "precision", "recall", "F1", "support"],
    )  # fmt: skip
    timings = ", ".join(f"{key} {seconds:.1f} s" for key, seconds in result.timings.items())
    parts = [
        f"# Difficulty classifier: {title}\n",
        f"Command: `{command}`\n" if command else "",
        "## Dataset\n",
        f"File `{data.source}` (SHA-256 `{data.sha256[:16]}...`), {len(data):,} rows, "
        f"k={data.k}, m={data.m}, n={data.n}. Its sidecar:\n",
        "\n".join(_metadata_lines(data.metadata)) + "\n",
        "## Labels\n",
        f"Scheme `{data.label_by}`, thresholds `{json.dumps(data.thresholds)}`, solver beam "
        f"width {beam_width_of(data.metadata)} (0: the plain exact DP). The thesis's "
        "shares come from its time labels on its machine, shown for reference.\n",
        _markdown(distribution, 1),
        "![label distribution](label_distribution.png)\n",
        "## Model\n",
        f"Random forest on the `{data.feature_set}` feature set ({len(data.feature_names)} "
        f"features). Grid `{result.grid}` searched by macro-F1 on "
        f"{result.search_rows:,} rows (stratified subsample, {len(result.search)} candidates); "
        f"best: `{result.best_params}` (all candidates in grid_search.csv).\n",
    ]
    if model is not None:
        size = model.metadata.get("model_bytes", 0) / 2**20
        parts.append(f"Saved as `{model.path}` ({size:.1f} MB) with its sidecar.\n")
    parts += [
        "## Results\n",
        f"Stratified {result.folds}-fold cross-validation on all rows (seed {result.seed}): "
        f"accuracy {folds['accuracy'].mean():.4f} ± {folds['accuracy'].std():.4f}, macro-F1 "
        f"{folds['macro_f1'].mean():.4f} ± {folds['macro_f1'].std():.4f} (mean ± std over "
        "folds; per fold in cv_folds.csv).\n",
        _markdown(per_class),
        f"Beside the thesis (its {THESIS['rows']:,} puzzles, time labels on its machine, "
        f"10-fold CV); ours: {len(data):,} puzzles, {labels} labels:\n",
        _markdown(versus_table),
        "![confusion matrix](confusion_matrix.png)\n",
        "## Feature importance\n",
        "Impurity importance of the final model (mean ± std over trees) and permutation "
        "importance (drop in macro-F1 when the feature is shuffled, on held-out rows of "
        "the first fold, mean ± std over repeats). Impurity importance favours features "
        "with many distinct values and splits credit between correlated features; "
        "permutation importance of one of two correlated features can be near zero.\n",
        _markdown(result.importance, 4),
        "![feature importance](feature_importance.png)\n",
    ]
    parts += [
        "## Where the errors are\n",
        effort_markdown(result, near),
        "![errors by effort](errors_by_effort.png)\n",
    ]
    if by_bound is not None:
        parts += [
            "## What no pre-solve feature sees\n",
            bound_markdown(by_bound),
            _markdown(by_bound),
        ]
    if comparison is not None:
        parts += [
            "## Feature sets side by side\n",
            comparison_markdown(comparison[0], result.folds),
        ]
    parts.append(f"## Timings\n\n{timings}.\n")
    text("report.md", "\n".join(part for part in parts if part))
    return written
