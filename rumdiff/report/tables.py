"""The tables of a training report, as DataFrames or text: one function each."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from rumdiff import config

__all__ = [
    "THESIS",
    "class_cuts",
    "comparison_markdown",
    "confusion",
    "csv_text",
    "label_distribution",
    "markdown_table",
    "metadata_lines",
    "report_text",
    "thesis_comparable",
    "without_easy",
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
#: Sidecar entries report.md leaves out: long lists that the dataset file itself shows.
_UNSHOWN = ("columns", "features")


def csv_text(frame: pd.DataFrame) -> str:
    """A table as CSV text, six significant figures."""
    return frame.to_csv(index=False, lineterminator="\n", float_format="%.6g")


def markdown_table(frame: pd.DataFrame, digits: int = 3) -> str:
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


def thesis_comparable(data) -> bool:
    """Whether the thesis's figures compare with those of training data ``data``: one
    family, G(4, 2, 100) without jokers or a table, drawn in the thesis's mix, its classes
    of the thesis's kind (``config.THESIS_LABELS``)."""
    parameters = (data.metadata or {}).get("parameters") or {}
    mix = parameters.get("mode") == "mixed" and list(
        parameters.get("regime_weights") or ()
    ) == list(config.REGIME_WEIGHTS)
    labels = config.THESIS_LABELS.get(data.label_by)
    return (
        data.scope is None
        and (data.k, data.m, data.n) == (config.K, config.M, config.N)
        and not data.jokers
        and mix
        and labels is not None
        and list(data.thresholds) == list(labels)
    )


def class_cuts(label_by: str, thresholds) -> list[str]:
    """Each class's range of the label measure, in words (``1 - 14,999``)."""
    from rumdiff.data.labels import class_ranges

    texts = []
    for low, high in class_ranges(label_by, thresholds):
        if label_by == "time":
            texts.append(f">= {low:g} s" if high is None else f"{low:g} s to < {high:g} s")
        elif high == 1:
            texts.append("0: bounds settle it")
        else:
            texts.append(f">= {low:,}" if high is None else f"{low:,} - {high - 1:,}")
    return texts


def label_distribution(result) -> pd.DataFrame:
    """Rows and share per class, with the class's range of the label measure (``from``,
    ``below``; empty: no upper end); beside the thesis's shares when its figures compare
    (:func:`thesis_comparable`)."""
    from rumdiff.data.labels import class_counts, class_ranges

    data = result.data
    ranges = class_ranges(data.label_by, data.thresholds)
    rows = []
    for label, (name, count) in enumerate(class_counts(data.y).items(), start=1):
        low, high = ranges[label - 1]
        rows.append((label, name, count, 100 * count / len(data), low, high))
    frame = pd.DataFrame(rows, columns=["label", "class", "rows", "percent", "from", "below"])
    if data.label_by != "time":  # whole transitions, the last class without an end
        frame[["from", "below"]] = frame[["from", "below"]].astype("Int64")
    if thesis_comparable(data):
        frame["thesis_percent"] = [THESIS["classes"][name][3] for name in frame["class"]]
    return frame


def without_easy(result) -> dict:
    """Accuracy and macro-F1 of the out-of-fold predictions on the puzzles that are not
    easy (the bounds do not settle them): the classes a search decides."""
    from sklearn.metrics import accuracy_score, f1_score

    keep = result.data.y != 1
    truth, guess = result.data.y[keep], result.y_pred[keep]
    if not keep.any():
        return {"rows": 0, "accuracy": np.nan, "macro_f1": np.nan}
    return {
        "rows": int(keep.sum()),
        "accuracy": float(accuracy_score(truth, guess)),
        "macro_f1": float(f1_score(truth, guess, labels=[2, 3, 4], average="macro",
                                   zero_division=0)),
    }  # fmt: skip


def report_text(result) -> str:
    """``classification_report.txt``: scikit-learn's report of the out-of-fold predictions."""
    from sklearn.metrics import classification_report

    names = config.CLASS_NAMES
    present = [c for c in names if c in set(result.data.y) | set(result.y_pred)]
    text = classification_report(
        result.data.y, result.y_pred, labels=present, digits=3, zero_division=0,
        target_names=[names[c] for c in present],
    )  # fmt: skip
    folds = result.fold_scores
    return (
        f"Out-of-fold predictions of {result.folds}-fold stratified cross-validation (seed "
        f"{result.seed}), {len(result.data):,} puzzles, {result.data.label_by} labels, "
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
        + markdown_table(pd.DataFrame(rows))
        + "\nParameters (each set searched on the same subsample): "
        + "; ".join(f"{r.feature_set}: {r.params}" for r in summary.itertuples(False))
        + "\n"
    )


def metadata_lines(metadata: dict) -> list:
    """A dataset sidecar as the lines of a two-column Markdown table."""
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
