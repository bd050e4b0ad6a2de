"""Reports of a training run: tables, figures and ``report.md`` in one folder.

:func:`write_report` writes, into OUTDIR:

- ``classification_report.txt`` and ``.json``: accuracy, per-class precision, recall,
  F1 and support, macro and weighted averages, of the out-of-fold predictions;
- ``confusion_matrix.csv`` (counts), ``confusion_matrix_normalised.csv`` (rows sum to 1)
  and ``confusion_matrix.png`` (both, side by side);
- ``regression_folds.csv`` and ``effort_scatter.png``: the difficulty score's per-fold
  scores, and its out-of-fold predictions against the true effort;
- ``feature_importance.csv`` and ``.png``: impurity and permutation importance;
- ``label_distribution.csv`` and ``.png``: rows per class and how the classes were cut,
  beside the thesis's shares only when its figures compare (same family, mix and kind
  of labels);
- ``errors_by_effort.csv`` and ``.png``, ``errors_by_bound.csv``: where the errors are;
- ``cv_folds.csv`` (per-fold scores) and ``grid_search.csv`` (every candidate);
- ``compare.csv``, ``compare_folds.csv`` and ``compare.md`` when a feature-set comparison
  is given;
- ``report.md``, which ties them together with the dataset's metadata.

Tables come from :mod:`rumdiff.report.tables`, the sections of report.md from
:mod:`rumdiff.report.sections`, figures from :mod:`rumdiff.report.figures`. Every file is
written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from rumdiff import config
from rumdiff.atomic import atomic_write_png, atomic_write_text
from rumdiff.report import figures, sections
from rumdiff.report.errors import errors_by_bound, errors_by_effort
from rumdiff.report.tables import (
    class_cuts,
    comparison_markdown,
    confusion,
    csv_text,
    label_distribution,
    report_text,
)

__all__ = ["COMPARE_FILES", "REPORT_FILES", "report_files", "write_comparison", "write_report"]

#: Every file :func:`write_report` may write (``errors_by_bound.csv`` only when the
#: dataset has bound columns), so that a command can check them before any work.
REPORT_FILES = (
    "classification_report.txt", "classification_report.json", "confusion_matrix.csv",
    "confusion_matrix_normalised.csv", "feature_importance.csv", "label_distribution.csv",
    "errors_by_effort.csv", "errors_by_bound.csv", "cv_folds.csv", "regression_folds.csv",
    "grid_search.csv", "confusion_matrix.png", "feature_importance.png",
    "label_distribution.png", "errors_by_effort.png", "effort_scatter.png", "report.md",
)  # fmt: skip
#: The files :func:`write_comparison` writes.
COMPARE_FILES = ("compare.csv", "compare_folds.csv", "compare.md")


def report_files(outdir, *, comparison: bool = False) -> list:
    """The paths :func:`write_report` may write into ``outdir`` (with a comparison if asked)."""
    return [Path(outdir) / name for name in REPORT_FILES + (COMPARE_FILES if comparison else ())]


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
    title = f"{len(data):,} puzzles {data.puzzles_text}, {data.label_by} labels"
    tables = _tables(result)
    written = _write_tables(outdir, tables)
    written += _write_figures(outdir, result, tables, title)
    if comparison is not None:
        written += write_comparison(outdir, *comparison, folds=result.folds)
    parts = [
        f"# Difficulty classifier and score: {title}\n",
        f"Command: `{command}`\n" if command else "",
        *sections.dataset_section(data),
        *sections.labels_section(data, tables["label_distribution.csv"]),
        *sections.model_section(result, model),
        *sections.results_section(result),
        *sections.regression_section(result),
        *sections.importance_section(result),
        *sections.errors_section(result, tables.get("errors_by_bound.csv")),
        *sections.comparison_section(comparison, result.folds),
    ]
    timings = ", ".join(f"{key} {seconds:.1f} s" for key, seconds in result.timings.items())
    parts.append(f"## Timings\n\n{timings}.\n")
    atomic_write_text(outdir / "report.md", "\n".join(part for part in parts if part))
    return [*written, outdir / "report.md"]


def _tables(result) -> dict:
    """The report's tables, by file name (DataFrames, or text already formatted)."""
    counts, normalised = confusion(result)
    tables = {
        "classification_report.txt": report_text(result),
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
    tables["regression_folds.csv"] = result.regression.fold_scores
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
            text = csv_text(table)
        atomic_write_text(outdir / name, text)
        written.append(outdir / name)
    return written


def _write_figures(outdir: Path, result, tables: dict, title: str) -> list:
    drawn = {
        "confusion_matrix.png": figures.confusion_figure(
            tables["confusion_matrix.csv"], tables["confusion_matrix_normalised.csv"],
            f"{title}\nout-of-fold predictions of {result.folds}-fold cross-validation",
        ),
        "feature_importance.png": figures.importance_figure(result.importance, title),
        "label_distribution.png": figures.distribution_figure(
            tables["label_distribution.csv"], class_cuts(result.data.label_by,
            result.data.thresholds), config.LABEL_EFFORT[result.data.label_by], title,
        ),
        "errors_by_effort.png": figures.effort_figure(
            tables["errors_by_effort.csv"], result, title
        ),
        "effort_scatter.png": figures.scatter_figure(result, title),
    }  # fmt: skip
    for name, figure in drawn.items():
        atomic_write_png(outdir / name, figure)
    return [outdir / name for name in drawn]


def write_comparison(outdir, summary: pd.DataFrame, per_fold: pd.DataFrame, folds: int) -> list:
    """Write ``compare.csv``, ``compare_folds.csv`` and ``compare.md``; return the paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = [outdir / name for name in COMPARE_FILES]
    atomic_write_text(paths[0], csv_text(summary))
    atomic_write_text(paths[1], csv_text(per_fold))
    heading = "# Feature sets side by side\n\n"
    atomic_write_text(paths[2], heading + comparison_markdown(summary, folds))
    return paths
