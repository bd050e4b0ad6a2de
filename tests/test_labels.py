"""Tests for rumdiff.data.labels: every measure, its boundaries, thresholds and counts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rumdiff import config
from rumdiff.data.labels import (
    check_thresholds,
    class_counts,
    compute_labels,
    label_by_time,
    label_by_transitions,
    label_name,
    suggest_thresholds,
    tercile_thresholds,
)


def _slow_transitions_label(transitions, thresholds):
    """The rule as the docs state it, one puzzle at a time."""
    t1, t2 = thresholds
    if transitions == 0:
        return 1  # bounds settled it
    if transitions < t1:
        return 2
    if transitions < t2:
        return 3
    return 4


def _slow_time_label(seconds, thresholds):
    t0, t1, t2 = thresholds
    if seconds < t0:
        return 1
    if seconds < t1:
        return 2
    if seconds < t2:
        return 3
    return 4


def test_defaults_come_from_config():
    assert config.LABEL_BY == "search"
    for measure in config.LABEL_MEASURES:
        assert check_thresholds(measure) == tuple(config.LABEL_THRESHOLDS[measure])
    assert check_thresholds("time") == (0.0001, 0.1, 1.0)
    assert set(config.LABEL_EFFORT) == set(config.LABEL_MEASURES) == set(config.MEASURE_SOLVER)


def test_transition_boundaries():
    t1, t2 = config.LABEL_THRESHOLDS["search"]
    transitions = [0, 1, t1 - 1, t1, t1 + 1, t2 - 1, t2, t2 + 1, 10**12]
    labels = label_by_transitions(transitions, (t1, t2))
    assert labels.dtype == np.int8
    assert labels.tolist() == [1, 2, 2, 3, 3, 3, 4, 4, 4]


def test_time_boundaries_are_the_thesis_ones():
    seconds = [0.0, 0.0000999, 0.0001, 0.0999, 0.1, 0.999, 1.0, 100.0]
    assert label_by_time(seconds, check_thresholds("time")).tolist() == [1, 1, 2, 2, 3, 3, 4, 4]


def test_custom_thresholds_match_the_slow_rule():
    rng = np.random.default_rng(4)
    transitions = rng.integers(0, 3000, size=500) * (rng.random(500) < 0.8)
    seconds = rng.random(500) * 3
    work, time = (100, 1000), (0.5, 1.0, 2.0)
    expected = [_slow_transitions_label(t, work) for t in transitions]
    assert label_by_transitions(transitions, work).tolist() == expected
    assert label_by_time(seconds, time).tolist() == [_slow_time_label(s, time) for s in seconds]
    # Boundaries land in the upper class with custom thresholds too.
    assert label_by_transitions([100, 1000], work).tolist() == [3, 4]
    assert label_by_time([0.5, 1.0, 2.0], time).tolist() == [2, 3, 4]


@pytest.mark.parametrize(
    "measure, thresholds, message",
    [
        ("size", None, "unknown label measure"),
        ("work", None, "unknown label measure"),
        ("search", (1,), "need 2 thresholds"),
        ("time", (1, 2), "need 3 thresholds"),
        ("solver", (5, 5), "increase strictly"),
        ("time", (0.3, 0.2, 1), "increase strictly"),
        ("time", (0, 0.1, 1), "positive"),
        ("time", (float("nan"), 0.1, 1), "positive and finite"),
        ("search", (10, float("inf")), "finite"),
        ("search", (10.5, 20), "whole numbers, got 10.5 20.0"),
    ],
)
def test_bad_thresholds(measure, thresholds, message):
    with pytest.raises(ValueError, match=message):
        check_thresholds(measure, thresholds)


def test_bad_inputs():
    with pytest.raises(ValueError, match="non-negative"):
        label_by_transitions([1, -2], (1, 2))
    with pytest.raises(ValueError, match="non-negative"):
        label_by_time([-1.0], (1, 2, 3))
    with pytest.raises(ValueError, match="finite"):
        label_by_time([float("nan")], (1, 2, 3))


def test_compute_labels_from_a_frame():
    frame = pd.DataFrame(
        {
            "search_transitions": [0, 10, 8_000_000, 100_000],
            "solver_transitions": [0, 10, 2_000_000, 100_000],
            "solver_seconds": [0.00005, 0.02, 0.5, 3.0],
        }
    )
    assert compute_labels(frame).tolist() == [1, 2, 4, 3]
    assert compute_labels(frame, "solver").tolist() == [1, 2, 4, 3]
    assert compute_labels(frame, "solver", (5, 20)).tolist() == [1, 3, 4, 4]
    assert compute_labels(frame, "time").tolist() == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="lacks: build it with the solver among its solvers"):
        compute_labels(frame.drop(columns="solver_seconds"), "time")
    with pytest.raises(ValueError, match="'search_transitions'"):
        compute_labels({"solver_transitions": [1]})


def test_names_and_counts():
    assert [label_name(i) for i in (1, 2, 3, 4)] == ["easy", "moderate", "medium", "hard"]
    with pytest.raises(ValueError):
        label_name(5)
    assert class_counts([1, 1, 4]) == {"easy": 2, "moderate": 0, "medium": 0, "hard": 1}
    assert class_counts([]) == dict.fromkeys(config.LABEL_NAMES, 0)
    with pytest.raises(ValueError):
        class_counts([0, 1])


def test_terciles():
    transitions = np.r_[np.zeros(50), np.arange(1, 301) * 1000]
    assert tercile_thresholds(transitions) == (101000, 200000)  # 3 significant figures
    with pytest.raises(ValueError, match="at least 3"):
        tercile_thresholds([0, 0, 5])


def test_suggested_thresholds_fall_in_the_gaps():
    rng = np.random.default_rng(7)
    sizes = {1e3: 3000, 1e5: 3000, 1e7: 2000}
    clusters = [np.exp(rng.normal(np.log(c), 0.3, sizes[c])) for c in (1e3, 1e5, 1e7)]
    transitions = np.concatenate([np.zeros(2000), *clusters]).astype(np.int64)
    t1, t2 = suggest_thresholds(transitions)
    assert 5e3 <= t1 <= 2e4 and 5e5 <= t2 <= 2e6
    expected = np.repeat([1, 2, 3, 4], [2000, 3000, 3000, 2000])
    assert np.array_equal(label_by_transitions(transitions, (t1, t2)), expected)
    assert str(t1)[0] in "12357" and set(str(t1)[1:]) <= {"0", "5"}
    with pytest.raises(ValueError, match="every class 25%"):
        suggest_thresholds(transitions, min_share=0.25)


def test_suggested_thresholds_keep_every_class_big_enough():
    rng = np.random.default_rng(8)
    transitions = (10 ** rng.uniform(2, 7, 5000)).astype(np.int64)  # no gaps at all
    transitions[rng.random(5000) < 0.2] = 0
    labels = label_by_transitions(transitions, suggest_thresholds(transitions))
    assert min(class_counts(labels).values()) >= 0.12 * 5000


def test_class_ranges_cover_the_measure_without_gaps():
    from rumdiff.data.labels import class_ranges

    assert class_ranges("search") == [(0, 1), (1, 15_000), (15_000, 210_000), (210_000, None)]
    assert class_ranges("solver", (10, 20)) == [(0, 1), (1, 10), (10, 20), (20, None)]
    assert class_ranges("time", (0.5, 1, 2)) == [(0, 0.5), (0.5, 1.0), (1.0, 2.0), (2.0, None)]
    # Each range holds exactly the efforts its class is labelled with.
    for effort in (0, 1, 14_999, 15_000, 209_999, 210_000, 10**9):
        label = label_by_transitions([effort], (15_000, 210_000))[0]
        low, high = class_ranges("search")[label - 1]
        assert low <= effort and (high is None or effort < high)
    with pytest.raises(ValueError, match="increase strictly"):
        class_ranges("search", (20, 10))
