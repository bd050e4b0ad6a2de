"""Tests for rumdiff.data.edit and ``rumdiff generate --relabel``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import assert_fresh_features

from rumdiff.cli import main
from rumdiff.data import (
    DatasetError,
    DatasetSpec,
    build_dataset,
    metadata_path,
    read_dataset,
    read_metadata,
)
from rumdiff.data.edit import refeaturise_dataset, relabel_dataset
from rumdiff.data.labels import class_counts, compute_labels

SEED = 3


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A dataset without feature columns, to be rewritten: (path, metadata, frame)."""
    path = tmp_path_factory.mktemp("built") / "data.parquet"
    spec = DatasetSpec(count=60, chunk_size=20, seed=SEED, feature_set="none",
                       solvers=("search", "solver"))  # fmt: skip
    metadata = build_dataset(path, spec, jobs=1)
    return path, metadata, read_dataset(path)


def _no_solving(*args, **kwargs):
    raise AssertionError("rewriting a dataset must not solve")


def test_relabel_without_solving(built, tmp_path, monkeypatch):
    import rumdiff.solve

    path, _, frame = built

    def no_solving(*args, **kwargs):
        raise AssertionError("relabelling must not solve")

    monkeypatch.setattr(rumdiff.solve, "solve", no_solving)
    monkeypatch.setattr(rumdiff.solve, "search_effort", no_solving)
    out = tmp_path / "relabelled.csv"
    metadata = relabel_dataset(path, label_by="time", thresholds=(0.001, 0.01, 0.02), output=out)
    relabelled = read_dataset(out)
    expected = compute_labels(frame, "time", (0.001, 0.01, 0.02))
    assert np.array_equal(relabelled["label"], expected)
    pd.testing.assert_frame_equal(relabelled.drop(columns="label"), frame.drop(columns="label"))
    assert metadata["label"]["measure"] == "time"
    assert metadata["label"]["thresholds"] == [0.001, 0.01, 0.02]
    assert metadata["class_counts"] == class_counts(expected)
    assert metadata["relabelled"][0]["previous"]["measure"] == "search"
    assert metadata["seed"] == SEED  # the rest of the metadata is kept
    # In place, through the command line, by the fast solver's transitions.
    code = main(["generate", "--relabel", str(out), "--label-by", "solver", "--thresholds",
                 "1000,2000", "--quiet"])  # fmt: skip
    assert code == 0
    again = read_dataset(out)
    assert np.array_equal(again["label"], compute_labels(frame, "solver", (1000, 2000)))
    assert len(read_metadata(metadata_path(out))["relabelled"]) == 2


def test_relabel_refuses_a_measure_the_dataset_does_not_hold(tmp_path):
    path = tmp_path / "search.csv"
    build_dataset(path, DatasetSpec(count=20, seed=1, feature_set="none"), jobs=1)
    with pytest.raises(DatasetError, match="lacks: build it with the solver"):
        relabel_dataset(path, label_by="time")


def test_refeaturise_without_solving(built, tmp_path, monkeypatch):
    import rumdiff.solve

    path, _, frame = built
    monkeypatch.setattr(rumdiff.solve, "solve", _no_solving)
    monkeypatch.setattr(rumdiff.solve, "search_effort", _no_solving)
    out = tmp_path / "refeaturised.csv"
    metadata = refeaturise_dataset(path, feature_set="all", output=out)
    rebuilt = read_dataset(out)
    names = assert_fresh_features(rebuilt, metadata)
    pd.testing.assert_frame_equal(rebuilt.drop(columns=names), frame)
    assert metadata["refeaturised"][0]["feature_set"] == "all"
    assert metadata["seed"] == SEED  # the rest of the metadata is kept
    # Without a feature set, the one the sidecar's parameters record ("none") is used.
    again = refeaturise_dataset(out)
    assert again["features"] == [] and len(again["refeaturised"]) == 2
    pd.testing.assert_frame_equal(read_dataset(out), frame)


def test_a_file_that_is_not_a_dataset_is_refused(tmp_path):
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(DatasetError, match="not a rumdiff dataset"):
        relabel_dataset(tmp_path / "other.csv")
    with pytest.raises(DatasetError, match="not a rumdiff dataset"):
        refeaturise_dataset(tmp_path / "other.csv")
