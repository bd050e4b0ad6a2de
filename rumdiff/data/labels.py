"""Difficulty labels: four classes, 1 easy, 2 moderate, 3 medium, 4 hard.

Two schemes (``config.LABEL_SCHEMES``), each a set of thresholds (defaults in
``config.LABEL_THRESHOLDS``):

- ``work`` (the default, the same on every machine): easy when the solver settled the
  puzzle by preprocessing and bounds alone (method ``"bounds"``, no DP work); otherwise
  moderate, medium or hard by two thresholds ``(t1, t2)`` on the solver's transitions:
  ``transitions < t1`` moderate, ``t1 <= transitions < t2`` medium, ``t2 <=`` hard.
  A dataset solved with the beam search off (``beam_width=0``) counts the plain exact
  DP's transitions and has its own defaults (:func:`default_thresholds`).
- ``time`` (the thesis's, Section 7.4): three thresholds ``(t0, t1, t2)`` on solve
  seconds: ``seconds < t0`` easy, ``< t1`` moderate, ``< t2`` medium, else hard. Seconds
  depend on the machine and its load, so the same puzzle may change class.

Labels are a pure function of a dataset's ``method``, ``transitions`` and ``seconds``
columns, so :func:`compute_labels` relabels a dataset with other thresholds without
solving again.
"""

from __future__ import annotations

import math

import numpy as np

from rumdiff import config
from rumdiff.validation import choice, plain

__all__ = [
    "class_counts",
    "compute_labels",
    "default_thresholds",
    "label_by_time",
    "label_by_work",
    "label_name",
    "check_thresholds",
    "suggest_work_thresholds",
]


def default_thresholds(scheme: str, *, beam_width: int = config.BEAM_WIDTH) -> tuple:
    """A scheme's default thresholds for a dataset solved with ``beam_width``.

    Work depends on the solver's beam search: without it (``beam_width=0``) the exact
    DP does several times the work, so work labels need other thresholds
    (``config.PLAIN_DP_WORK_THRESHOLDS``).
    """
    choice("label scheme", scheme, config.LABEL_SCHEMES)
    if scheme == "work" and beam_width == 0:
        return tuple(config.PLAIN_DP_WORK_THRESHOLDS)
    return tuple(config.LABEL_THRESHOLDS[scheme])


def check_thresholds(scheme: str, thresholds=None, *, beam_width: int = config.BEAM_WIDTH) -> tuple:
    """Validate a scheme and its thresholds; ``None`` gives the scheme's defaults for a
    dataset solved with ``beam_width`` (:func:`default_thresholds`).

    Returns
    -------
    tuple
        The thresholds: ints for ``work``, floats for ``time``.

    Raises
    ------
    ValueError
        On an unknown scheme, a wrong number of thresholds, or thresholds that are not
        positive, finite and strictly increasing.
    """
    choice("label scheme", scheme, config.LABEL_SCHEMES)
    if thresholds is None:
        return default_thresholds(scheme, beam_width=beam_width)
    values = [float(v) for v in np.asarray(thresholds, dtype=np.float64).ravel()]
    what = config.LABEL_EFFORT[scheme]
    wanted = config.LABEL_SCHEMES[scheme]
    shown = " ".join(plain(v) for v in values)
    if len(values) != wanted:
        raise ValueError(
            f"the {scheme} scheme needs {wanted} thresholds on {what}, got {len(values)}"
        )
    if not all(math.isfinite(v) and v > 0 for v in values):
        raise ValueError(f"thresholds must be positive and finite, got {shown}")
    if any(b <= a for a, b in zip(values, values[1:], strict=False)):
        raise ValueError(f"thresholds must increase strictly, got {shown}")
    if scheme == "work":
        if not all(v == int(v) for v in values):
            raise ValueError(f"work thresholds count transitions: whole numbers, got {shown}")
        return tuple(int(v) for v in values)
    return tuple(float(v) for v in values)


def _classes(values: np.ndarray, thresholds) -> np.ndarray:
    """``1 + number of thresholds <= value``, for each value."""
    return 1 + (values[:, None] >= np.asarray(thresholds)[None, :]).sum(axis=1)


def label_by_work(method, transitions, thresholds=None) -> np.ndarray:
    """Work labels: easy when ``method == "bounds"``, else by thresholds on transitions.

    Parameters
    ----------
    method : array_like of str
        ``"bounds"`` or ``"dp"`` per puzzle (:attr:`rumdiff.solve.Work.method`).
    transitions : array_like of int
        DP transitions per puzzle.
    thresholds : (t1, t2), optional
        ``transitions < t1`` moderate, ``< t2`` medium, else hard; default
        ``config.LABEL_THRESHOLDS["work"]``.

    Returns
    -------
    ndarray of int8
        Classes 1..4.
    """
    thresholds = check_thresholds("work", thresholds)
    method = np.asarray(method, dtype=object).ravel()
    transitions = np.asarray(transitions, dtype=np.int64).ravel()
    if method.shape != transitions.shape:
        raise ValueError(f"{method.size} methods but {transitions.size} transitions")
    unknown = set(method.tolist()) - {"bounds", "dp"}
    if unknown:
        raise ValueError(f"unknown solve method {sorted(map(str, unknown))[0]!r}")
    labels = 1 + _classes(transitions, thresholds)
    labels[method == "bounds"] = 1
    return labels.astype(np.int8)


def label_by_time(seconds, thresholds=None) -> np.ndarray:
    """Time labels (the thesis's): ``seconds < t0`` easy, ``< t1`` moderate, ``< t2`` medium.

    Parameters
    ----------
    seconds : array_like of float
        Solve seconds per puzzle.
    thresholds : (t0, t1, t2), optional
        Default ``config.LABEL_THRESHOLDS["time"]`` (0.0001, 0.1, 1).

    Returns
    -------
    ndarray of int8
        Classes 1..4.
    """
    thresholds = check_thresholds("time", thresholds)
    seconds = np.asarray(seconds, dtype=np.float64).ravel()
    if not np.all(np.isfinite(seconds)) or (seconds.size and seconds.min() < 0):
        raise ValueError("seconds must be finite and non-negative")
    return _classes(seconds, thresholds).astype(np.int8)


def compute_labels(frame, scheme: str = config.LABEL_BY, thresholds=None) -> np.ndarray:
    """Labels of a dataset's rows from its solver columns, without solving.

    Parameters
    ----------
    frame : pandas.DataFrame or mapping of arrays
        Needs ``method`` and ``transitions`` (``work``) or ``seconds`` (``time``).
    scheme : {"work", "time"}
    thresholds : sequence, optional
        The scheme's thresholds; default ``config.LABEL_THRESHOLDS[scheme]``.

    Returns
    -------
    ndarray of int8
        Classes 1..4, one per row.
    """
    thresholds = check_thresholds(scheme, thresholds)
    needed = ("method", "transitions") if scheme == "work" else ("seconds",)
    missing = [name for name in needed if name not in frame]
    if missing:
        raise ValueError(f"the {scheme} scheme needs column {missing[0]!r}, which is missing")
    if scheme == "work":
        return label_by_work(np.asarray(frame["method"]), frame["transitions"], thresholds)
    return label_by_time(frame["seconds"], thresholds)


def label_name(label: int) -> str:
    """Name of class ``label`` (1..4): easy, moderate, medium or hard."""
    if not 1 <= int(label) <= len(config.LABEL_NAMES):
        raise ValueError(f"labels are 1..{len(config.LABEL_NAMES)}, got {label}")
    return config.LABEL_NAMES[int(label) - 1]


def class_counts(labels) -> dict[str, int]:
    """Puzzles per class, by name, every class present (zero if empty)."""
    labels = np.asarray(labels, dtype=np.int64).ravel()
    if labels.size and (labels.min() < 1 or labels.max() > len(config.LABEL_NAMES)):
        raise ValueError(f"labels are 1..{len(config.LABEL_NAMES)}")
    counts = np.bincount(labels, minlength=len(config.LABEL_NAMES) + 1)[1:]
    return {name: int(c) for name, c in zip(config.LABEL_NAMES, counts, strict=True)}


def suggest_work_thresholds(
    method, transitions, *, min_share: float = 0.12, spread: float = 10**0.1
) -> tuple[int, int]:
    """Round work thresholds where the DP puzzles' transitions are sparsest.

    How ``config.LABEL_THRESHOLDS["work"]`` is chosen, so that it can be chosen again
    when the solver's pruning changes. Candidates are round numbers 1, 1.5, 2, 3, 5
    and 7 times a power of ten. A candidate's density is the share of puzzles whose
    transitions lie within a factor ``spread`` of it: a threshold in a sparse stretch
    moves few puzzles to another class when the work changes by a few percent. Of the
    pairs ``t1 < t2`` that leave every class at least ``min_share`` of the puzzles, the
    one with the smallest summed density wins; ties go to the pair whose smallest
    class is largest. The default ``min_share`` is the 10% the labels promise plus a
    margin for sampling noise.

    Returns
    -------
    (t1, t2) : tuple of int

    Raises
    ------
    ValueError
        When no pair gives every class ``min_share``.
    """
    method = np.asarray(method, dtype=object).ravel()
    transitions = np.asarray(transitions, dtype=np.int64).ravel()
    label_by_work(method, transitions, (1, 2))  # validates the inputs
    total = transitions.size
    work = np.sort(transitions[method == "dp"])
    easy = total - work.size
    high = max(int(work.max()) if work.size else 1, 10)
    candidates = sorted(
        {int(f * 10**j) for j in range(len(str(high)) + 1) for f in (1, 1.5, 2, 3, 5, 7)} - {0}
    )
    below = np.searchsorted(work, candidates, side="left")  # DP puzzles under each
    near = np.searchsorted(work, [c * spread for c in candidates], side="left")
    near -= np.searchsorted(work, [c / spread for c in candidates], side="left")
    best, best_key = None, None
    for i in range(len(candidates)):
        for j in range(i + 1, len(candidates)):
            shares = np.array([easy, below[i], below[j] - below[i], work.size - below[j]])
            if shares.min() < min_share * total:
                continue
            key = (near[i] + near[j], -shares.min())
            if best_key is None or key < best_key:
                best, best_key = (candidates[i], candidates[j]), key
    if best is None:
        raise ValueError(f"no pair of thresholds gives every class {100 * min_share:g}% of puzzles")
    return best
