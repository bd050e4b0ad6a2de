"""Difficulty labels: four classes, 1 easy, 2 moderate, 3 medium, 4 hard.

A label cuts one measure of a puzzle's effort by thresholds (``config.LABEL_MEASURES``,
defaults ``config.LABEL_THRESHOLDS``):

- ``search`` (the default): the transitions of the reference search
  (:func:`rumdiff.solve.search_effort`, docs/search-effort.md). Easy when bounds settle
  the puzzle (no transition); otherwise moderate, medium or hard by two thresholds
  ``(t1, t2)``: ``transitions < t1`` moderate, ``t1 <= transitions < t2`` medium,
  ``t2 <=`` hard. The count belongs to the puzzle: it is the same on every machine and
  whatever rumdiff's fast solver becomes.
- ``solver``: the same rule on the transitions of rumdiff's fast solver
  (:func:`rumdiff.solve.solve`, with its beam search), which move when it gets faster.
- ``time`` (the thesis's, Section 7.4): three thresholds ``(t0, t1, t2)`` on the fast
  solver's seconds: ``seconds < t0`` easy, ``< t1`` moderate, ``< t2`` medium, else
  hard. Seconds depend on the machine and its load.

Labels are a pure function of a dataset's effort columns (``config.LABEL_EFFORT``), so
:func:`compute_labels` relabels a dataset without solving again.
"""

from __future__ import annotations

import math

import numpy as np

from rumdiff import config
from rumdiff.validation import choice, plain

__all__ = [
    "check_thresholds",
    "class_counts",
    "class_ranges",
    "compute_labels",
    "label_by_time",
    "label_by_transitions",
    "label_name",
    "never_easy",
    "suggest_thresholds",
    "tercile_thresholds",
]


def check_thresholds(measure: str, thresholds=None) -> tuple:
    """Validate a label measure and its thresholds; ``None`` gives its defaults.

    Returns
    -------
    tuple
        The thresholds: ints for transitions, floats for seconds.

    Raises
    ------
    ValueError
        On an unknown measure, a wrong number of thresholds, or thresholds that are not
        positive, finite and strictly increasing.
    """
    choice("label measure", measure, config.LABEL_MEASURES)
    if thresholds is None:
        return tuple(config.LABEL_THRESHOLDS[measure])
    values = [float(v) for v in np.asarray(thresholds, dtype=np.float64).ravel()]
    what = config.LABEL_EFFORT[measure]
    wanted = config.LABEL_MEASURES[measure]
    shown = " ".join(plain(v) for v in values)
    if len(values) != wanted:
        raise ValueError(f"{measure} labels need {wanted} thresholds on {what}, got {len(values)}")
    if not all(math.isfinite(v) and v > 0 for v in values):
        raise ValueError(f"thresholds must be positive and finite, got {shown}")
    if any(b <= a for a, b in zip(values, values[1:], strict=False)):
        raise ValueError(f"thresholds must increase strictly, got {shown}")
    if measure == "time":
        return tuple(values)
    if not all(v == int(v) for v in values):
        raise ValueError(f"thresholds on transitions are whole numbers, got {shown}")
    return tuple(int(v) for v in values)


def _classes(values: np.ndarray, thresholds) -> np.ndarray:
    """``1 + number of thresholds <= value``, for each value."""
    return 1 + (values[:, None] >= np.asarray(thresholds)[None, :]).sum(axis=1)


def _measured(values, name: str) -> np.ndarray:
    """``values`` as a flat float array, checked finite and non-negative."""
    values = np.asarray(values, dtype=np.float64).ravel()
    if not np.all(np.isfinite(values)) or (values.size and values.min() < 0):
        raise ValueError(f"{name} must be finite and non-negative")
    return values


def label_by_transitions(transitions, thresholds) -> np.ndarray:
    """Labels from transitions: easy when none (bounds settled the puzzle), else by
    thresholds ``(t1, t2)``: ``< t1`` moderate, ``< t2`` medium, else hard.

    Returns
    -------
    ndarray of int8
        Classes 1..4.
    """
    transitions = _measured(transitions, "transitions")
    labels = 1 + _classes(transitions, thresholds)
    labels[transitions == 0] = 1
    return labels.astype(np.int8)


def label_by_time(seconds, thresholds) -> np.ndarray:
    """Time labels (the thesis's): ``seconds < t0`` easy, ``< t1`` moderate, ``< t2`` medium.

    Returns
    -------
    ndarray of int8
        Classes 1..4.
    """
    seconds = _measured(seconds, "seconds")
    return _classes(seconds, thresholds).astype(np.int8)


def compute_labels(frame, measure: str = config.LABEL_BY, thresholds=None) -> np.ndarray:
    """Labels of a dataset's rows from its effort columns, without solving.

    Parameters
    ----------
    frame : pandas.DataFrame or mapping of arrays
        Needs the measure's column ``config.LABEL_EFFORT[measure]``.
    measure : {"search", "solver", "time"}
    thresholds : sequence, optional
        The measure's thresholds; default ``config.LABEL_THRESHOLDS[measure]``.

    Returns
    -------
    ndarray of int8
        Classes 1..4, one per row.
    """
    thresholds = check_thresholds(measure, thresholds)
    column = config.LABEL_EFFORT[measure]
    if column not in frame:
        solver = config.MEASURE_SOLVER[measure]
        raise ValueError(
            f"{measure} labels need the column {column!r}, which this dataset lacks: build "
            f"it with the {solver} among its solvers (rumdiff generate --solvers {solver})"
        )
    if measure == "time":
        return label_by_time(frame[column], thresholds)
    return label_by_transitions(frame[column], thresholds)


def class_ranges(measure: str, thresholds=None) -> list[tuple]:
    """The range ``[low, high)`` of the measure that each class 1..4 covers.

    For transitions (``search``, ``solver``): easy ``[0, 1)`` (settled by bounds),
    moderate ``[1, t1)``, medium ``[t1, t2)``, hard ``[t2, None)``; for seconds (``time``):
    ``[0, t0)``, ``[t0, t1)``, ``[t1, t2)``, ``[t2, None)``. ``high`` None: no upper end.
    ``thresholds`` default to ``config.LABEL_THRESHOLDS[measure]`` (checked).
    """
    cuts = list(check_thresholds(measure, thresholds))
    if measure != "time":
        cuts = [1, *cuts]
    edges = [0, *cuts, None]
    return list(zip(edges[:-1], edges[1:], strict=True))


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


def tercile_thresholds(transitions) -> tuple[int, int]:
    """The terciles of the puzzles that need a search (transitions > 0), rounded to three
    significant figures: how ``config.LABEL_THRESHOLDS["search"]`` is chosen."""
    work = np.asarray(transitions, dtype=np.float64).ravel()
    work = work[work > 0]
    if work.size < 3:
        raise ValueError("terciles need at least 3 puzzles that need a search")
    cuts = np.quantile(work, [1 / 3, 2 / 3])
    return tuple(int(float(f"{c:.3g}")) for c in cuts)


def suggest_thresholds(
    transitions, *, min_share: float = 0.12, spread: float = 10**0.1
) -> tuple[int, int]:
    """Round thresholds where the puzzles' transitions are sparsest (the valleys).

    How ``config.LABEL_THRESHOLDS["solver"]`` is chosen, so that it can be chosen again
    when the fast solver's pruning changes. Candidates are round numbers 1, 1.5, 2, 3, 5
    and 7 times a power of ten. A candidate's density is the share of puzzles whose
    transitions lie within a factor ``spread`` of it: a threshold in a sparse stretch
    moves few puzzles to another class when the work changes by a few percent. Of the
    pairs ``t1 < t2`` that leave every class at least ``min_share`` of the puzzles, the
    one with the smallest summed density wins; ties go to the pair whose smallest
    class is largest.

    Raises
    ------
    ValueError
        When no pair gives every class ``min_share``.
    """
    transitions = np.asarray(transitions, dtype=np.int64).ravel()
    label_by_transitions(transitions, (1, 2))  # validates the input
    total = transitions.size
    work = np.sort(transitions[transitions > 0])
    easy = total - work.size
    high = max(int(work.max()) if work.size else 1, 10)
    candidates = sorted(
        {int(f * 10**j) for j in range(len(str(high)) + 1) for f in (1, 1.5, 2, 3, 5, 7)} - {0}
    )
    below = np.searchsorted(work, candidates, side="left")  # puzzles under each
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


def never_easy(label_by: str, puzzles) -> np.ndarray:
    """Per puzzle, whether the label measure can never call it easy.

    Under search labels, easy means the bounds settle the puzzle, and the reference
    search runs its DP on every table (docs/search-effort.md): a puzzle with a table
    needs at least one transition. The other measures promise nothing of the kind.

    Parameters
    ----------
    label_by : str
        One of ``config.LABEL_MEASURES``.
    puzzles : rumdiff.puzzle.Puzzles
    """
    if label_by != "search":
        return np.zeros(len(puzzles), dtype=bool)
    return puzzles.tabled
