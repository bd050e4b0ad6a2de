"""Where the classifier errs: along the labelled effort, and by what solving reveals.

Two views of a training run's out-of-fold errors, for ``report.md``:

- :func:`errors_by_effort`: the error rate along the effort the labels cut (transitions
  or seconds). Errors that only blur the thresholds are unavoidable; errors far from
  them mean the features miss something.
- :func:`errors_by_bound`: per class, the puzzles whose optimum reaches the upper bound
  and those whose optimum lies below it. The second need more exact passes to prove
  optimality, which moves them up a class; whether the bound is reachable is the
  puzzle's own decision problem.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "NEAR_FACTOR",
    "bound_markdown",
    "effort_markdown",
    "errors_by_bound",
    "errors_by_effort",
    "near_thresholds",
]

#: Bins per decade of effort in the error analysis.
_BINS_PER_DECADE = 4
#: "Near a threshold" means within this factor of it.
NEAR_FACTOR = 2.0


def errors_by_effort(result) -> pd.DataFrame:
    """Error rate of the out-of-fold predictions along the labelled effort.

    The labels cut a continuous effort (transitions or seconds) by thresholds; a puzzle
    near a threshold can fall on either side with a little more or less work, which no
    pre-solve feature can tell. One row per bin of ``log10(effort)``
    (``_BINS_PER_DECADE`` a decade) and, first, the puzzles of zero effort (no DP).
    """
    data = result.data
    wrong = result.y_pred != data.y
    effort = data.effort
    rows = [(0.0, 0.0, int((effort <= 0).sum()), int(wrong[effort <= 0].sum()))]
    positive = effort > 0
    if positive.any():
        logs = np.log10(effort[positive])
        low = np.floor(logs.min() * _BINS_PER_DECADE) / _BINS_PER_DECADE
        high = np.ceil(logs.max() * _BINS_PER_DECADE + 1e-9) / _BINS_PER_DECADE
        edges = np.arange(low, high + 0.5 / _BINS_PER_DECADE, 1 / _BINS_PER_DECADE)
        index = np.clip(np.searchsorted(edges, logs, side="right") - 1, 0, len(edges) - 2)
        counts = np.bincount(index, minlength=len(edges) - 1)
        errors = np.bincount(index, weights=wrong[positive], minlength=len(edges) - 1)
        for b in range(len(edges) - 1):
            rows.append((10 ** edges[b], 10 ** edges[b + 1], int(counts[b]), int(errors[b])))
    table = pd.DataFrame(rows, columns=["effort_from", "effort_to", "rows", "errors"])
    table["error_rate"] = table["errors"] / table["rows"].clip(lower=1)
    return table


def near_thresholds(result) -> dict:
    """How the errors concentrate within ``NEAR_FACTOR`` of a label threshold."""
    data = result.data
    wrong = result.y_pred != data.y
    effort = data.effort
    near = np.zeros(len(effort), dtype=bool)
    for threshold in data.thresholds:
        with np.errstate(divide="ignore"):
            near |= (effort > 0) & (np.abs(np.log10(effort / threshold)) < np.log10(NEAR_FACTOR))
    far = ~near
    return {
        "factor": NEAR_FACTOR,
        "share_of_rows_near": float(near.mean()),
        "share_of_errors_near": float(wrong[near].sum() / max(wrong.sum(), 1)),
        "error_rate_near": float(wrong[near].mean()) if near.any() else float("nan"),
        "error_rate_far": float(wrong[far].mean()) if far.any() else float("nan"),
    }


def effort_markdown(result, near: dict) -> str:
    """The report's paragraph on :func:`near_thresholds`."""
    from rumdiff import config

    effort = config.LABEL_EFFORT[result.data.label_by]
    return (
        f"The labels cut {effort} by thresholds. Within "
        f"a factor {near['factor']:g} of a threshold lie {100 * near['share_of_rows_near']:.1f}% "
        f"of the puzzles but {100 * near['share_of_errors_near']:.1f}% of the errors (error "
        f"rate {near['error_rate_near']:.3f} there, {near['error_rate_far']:.3f} elsewhere). "
        "Were the errors only the blur of hard cuts through a continuous effort (a puzzle "
        "near a threshold falls on either side with a little more or less search, which "
        "no pre-solve feature can see), the error rate would peak at the dashed lines and "
        "vanish between them; where it does not, the features miss something the effort "
        "depends on. Per bin in errors_by_effort.csv.\n"
    )


def errors_by_bound(result) -> pd.DataFrame | None:
    """Per class, rows whose optimum reaches the upper bound or lies below it.

    Returns None when the training data does not say (``TrainingData.below_upper``).
    Columns: ``class``, ``optimum`` ("at the bound" or "below it"), ``rows``,
    ``share_of_class`` and ``recall`` (the share of those rows predicted right).
    """
    from rumdiff import config

    data = result.data
    if data.below_upper is None:
        return None
    right = result.y_pred == data.y
    rows = []
    for label, name in config.CLASS_NAMES.items():
        members = data.y == label
        if not members.any():
            continue
        for below, where in ((False, "at the bound"), (True, "below it")):
            chosen = members & (data.below_upper == below)
            recall = float(right[chosen].mean()) if chosen.any() else float("nan")
            rows.append((name, where, int(chosen.sum()), chosen.sum() / members.sum(), recall))
    return pd.DataFrame(rows, columns=["class", "optimum", "rows", "share_of_class", "recall"])


def bound_markdown(table: pd.DataFrame) -> str:
    """The report's paragraph on :func:`errors_by_bound` (its table follows it)."""
    below = table[table["optimum"] == "below it"].set_index("class")
    shares = ", ".join(
        f"{100 * row.share_of_class:.1f}% of {name}" for name, row in below.iterrows()
    )
    return (
        "Where the optimum lies below the upper bound, the search needs two more passes "
        "to prove it, which can double its work. Below the bound: "
        f"{shares}. Whether the bound is reachable is the puzzle's own decision problem; "
        "the features bound_met, bound_refuted and bound_open decide it for most puzzles "
        "with a small depth-first search. Recall per class and side in "
        "errors_by_bound.csv.\n"
    )
