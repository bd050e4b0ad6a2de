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

Figures come from :mod:`rumdiff.report.figures`. Every file is written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from rumdiff import config
from rumdiff.atomic import atomic_write_png, atomic_write_text
from rumdiff.data.schema import beam_width_of
from rumdiff.report import figures
from rumdiff.report.errors import (
    bound_markdown,
    effort_markdown,
    errors_by_bound,
    errors_by_effort,
    near_thresholds,
)

__all__ = [
    "THESIS",
    "comparison_markdown",
    "confusion",
    "label_distribution",
    "write_comparison",
    "write_report",
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

    classes = list(config.CLASS_NAMES)
    counts = confusion_matrix(result.data.y, result.y_pred, labels=classes)
    totals = counts.sum(axis=1, keepdims=True)
    normalised = np.divide(counts, totals, out=np.zeros(counts.shape), where=totals > 0)
    names = list(config.LABEL_NAMES)
    index = pd.Index([f"true {name}" for name in names], name="")
    as_frame = [pd.DataFrame(matrix, index=index, columns=names) for matrix in (counts, normalised)]
    return as_frame[0], as_frame[1]


def label_distribution(result) -> pd.DataFrame:
    """Rows and share per class, beside the thesis's shares (its time labels)."""
    from rumdiff.data.labels import class_counts

    rows = []
    for label, (name, count) in enumerate(class_counts(result.data.y).items(), start=1):
        share = 100 * count / len(result.data)
        rows.append((label, name, count, share, THESIS["classes"][name][3]))
    return pd.DataFrame(rows, columns=["label", "class", "rows", "percent", "thesis_percent"])


def _report_text(result, metrics: dict) -> str:
    from sklearn.metrics import classification_report

    names = config.CLASS_NAMES
    present = [c for c in names if c in set(result.data.y) | set(result.y_pred)]
    text = classification_report(
        result.data.y, result.y_pred, labels=present, digits=3, zero_division=0,
        target_names=[names[c] for c in present],
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


def _labels_name(data) -> str:
    """What the labels measure, in the report's words."""
    plain = data.label_by == "work" and beam_width_of(data.metadata) == 0
    return "plain-DP work" if plain else data.label_by


def write_report(result, outdir, *, model=None, command: str = "", comparison=None) -> list:
    """Write every report file of a :class:`rumdiff.learn.training.TrainResult` into ``outdir``.

    Parameters
    ----------
    result : TrainResult
    outdir : path
    model : rumdiff.learn.model.Model, optional
        The saved model, whose path, size and metrics report.md names.
    command : str
        The command line, recorded in report.md.
    comparison : (summary, per_fold), optional
        From :func:`rumdiff.learn.compare.compare_feature_sets`.

    Returns
    -------
    list of Path
        The files written.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    data = result.data
    title = f"{len(data):,} puzzles G({data.k}, {data.m}, {data.n}), {_labels_name(data)} labels"
    tables = _tables(result)
    written = _write_tables(outdir, tables)
    written += _write_figures(outdir, result, tables, title)
    if comparison is not None:
        written += write_comparison(outdir, *comparison, folds=result.folds)
    sections = [
        f"# Difficulty classifier: {title}\n",
        f"Command: `{command}`\n" if command else "",
        *_dataset_section(data),
        *_labels_section(data, tables["label_distribution.csv"]),
        *_model_section(result, model),
        *_results_section(result),
        *_importance_section(result),
        *_errors_section(result, tables.get("errors_by_bound.csv")),
    ]
    if comparison is not None:
        sections += [
            "## Feature sets side by side\n",
            comparison_markdown(comparison[0], result.folds),
        ]
    timings = ", ".join(f"{key} {seconds:.1f} s" for key, seconds in result.timings.items())
    sections.append(f"## Timings\n\n{timings}.\n")
    atomic_write_text(outdir / "report.md", "\n".join(part for part in sections if part))
    return [*written, outdir / "report.md"]


def _tables(result) -> dict:
    """The report's tables, by file name (DataFrames, or text already formatted)."""
    counts, normalised = confusion(result)
    tables = {
        "classification_report.txt": _report_text(result, result.metrics),
        "classification_report.json": json.dumps(result.metrics, indent=2) + "\n",
        "confusion_matrix.csv": counts,
        "confusion_matrix_normalised.csv": normalised,
        "feature_importance.csv": result.importance,
        "label_distribution.csv": label_distribution(result),
        "errors_by_effort.csv": errors_by_effort(result),
    }
    by_bound = errors_by_bound(result)
    if by_bound is not None:
        tables["errors_by_bound.csv"] = by_bound
    tables["cv_folds.csv"] = result.fold_scores
    tables["grid_search.csv"] = result.search
    return tables


def _write_tables(outdir: Path, tables: dict) -> list:
    written = []
    for name, table in tables.items():
        if isinstance(table, str):
            text = table
        elif name.startswith("confusion_matrix_normalised"):
            text = table.to_csv(lineterminator="\n", float_format="%.4f")
        elif name.startswith("confusion_matrix"):
            text = table.to_csv(lineterminator="\n")
        else:
            text = _csv(table)
        atomic_write_text(outdir / name, text)
        written.append(outdir / name)
    return written


def _write_figures(outdir: Path, result, tables: dict, title: str) -> list:
    drawn = {
        "confusion_matrix.png": figures.confusion_figure(
            tables["confusion_matrix.csv"], tables["confusion_matrix_normalised.csv"], title
        ),
        "feature_importance.png": figures.importance_figure(result.importance, title),
        "label_distribution.png": figures.distribution_figure(
            tables["label_distribution.csv"], title
        ),
        "errors_by_effort.png": figures.effort_figure(
            tables["errors_by_effort.csv"], result, title
        ),
    }
    for name, figure in drawn.items():
        atomic_write_png(outdir / name, figure)
    return [outdir / name for name in drawn]


def _dataset_section(data) -> list:
    return [
        "## Dataset\n",
        f"File `{data.source}` (SHA-256 `{data.sha256[:16]}...`), {len(data):,} rows, "
        f"k={data.k}, m={data.m}, n={data.n}. Its sidecar:\n",
        "\n".join(_metadata_lines(data.metadata)) + "\n",
    ]


def _labels_section(data, distribution: pd.DataFrame) -> list:
    return [
        "## Labels\n",
        f"Scheme `{data.label_by}`, thresholds `{json.dumps(data.thresholds)}`, solver beam "
        f"width {beam_width_of(data.metadata)} (0: the plain exact DP). The thesis's "
        "shares come from its time labels on its machine, shown for reference.\n",
        _markdown(distribution, 1),
        "![label distribution](label_distribution.png)\n",
    ]


def _model_section(result, model) -> list:
    data = result.data
    parts = [
        "## Model\n",
        f"Random forest on the `{data.feature_set}` feature set ({len(data.feature_names)} "
        f"features). Grid `{result.grid}` searched by macro-F1 on "
        f"{result.search_rows:,} rows (stratified subsample, {len(result.search)} candidates); "
        f"best: `{result.best_params}` (all candidates in grid_search.csv).\n",
    ]
    if model is not None:
        size = model.metadata.get("model_bytes", 0) / 2**20
        parts.append(f"Saved as `{model.path}` ({size:.1f} MB) with its sidecar.\n")
    return parts


def _results_section(result) -> list:
    data, metrics, folds = result.data, result.metrics, result.fold_scores
    present = [name for name in config.LABEL_NAMES if name in metrics]
    versus = [("accuracy", metrics["accuracy"], THESIS["accuracy"])]
    versus.append(("macro-F1", metrics["macro avg"]["f1-score"], THESIS["macro_f1"]))
    versus += [(f"{n} F1", metrics[n]["f1-score"], THESIS["classes"][n][2]) for n in present]
    per_class = pd.DataFrame(
        [
            (name, metrics[name]["precision"], metrics[name]["recall"], metrics[name]["f1-score"],
             int(metrics[name]["support"]))
            for name in present
        ],
        columns=["class", "precision", "recall", "F1", "support"],
    )  # fmt: skip
    return [
        "## Results\n",
        f"Stratified {result.folds}-fold cross-validation on all rows (seed {result.seed}): "
        f"accuracy {folds['accuracy'].mean():.4f} ± {folds['accuracy'].std():.4f}, macro-F1 "
        f"{folds['macro_f1'].mean():.4f} ± {folds['macro_f1'].std():.4f} (mean ± std over "
        "folds; per fold in cv_folds.csv).\n",
        _markdown(per_class),
        f"Beside the thesis (its {THESIS['rows']:,} puzzles, time labels on its machine, "
        f"10-fold CV); ours: {len(data):,} puzzles, {_labels_name(data)} labels:\n",
        _markdown(pd.DataFrame(versus, columns=["metric", "rumdiff", "thesis"])),
        "![confusion matrix](confusion_matrix.png)\n",
    ]


def _importance_section(result) -> list:
    return [
        "## Feature importance\n",
        "Impurity importance of the final model (mean ± std over trees) and permutation "
        "importance (drop in macro-F1 when the feature is shuffled, on held-out rows of "
        "the first fold, mean ± std over repeats). Impurity importance favours features "
        "with many distinct values and splits credit between correlated features; "
        "permutation importance of one of two correlated features can be near zero.\n",
        _markdown(result.importance, 4),
        "![feature importance](feature_importance.png)\n",
    ]


def _errors_section(result, by_bound) -> list:
    parts = [
        "## Where the errors are\n",
        effort_markdown(result, near_thresholds(result)),
        "![errors by effort](errors_by_effort.png)\n",
    ]
    if by_bound is not None:
        parts += [
            "## What no pre-solve feature sees\n",
            bound_markdown(by_bound),
            _markdown(by_bound),
        ]
    return parts
