"""Tests for rumdiff.learn.model: save/load round trip, the sidecar, and every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rumdiff import __version__, config
from rumdiff.learn.model import (
    ModelError,
    load_model,
    save_model,
    sidecar_path,
)
from rumdiff.puzzle import Game


@pytest.fixture
def copy(trained, tmp_path):
    """A fresh copy of the saved model and sidecar, to tamper with."""
    model, _ = trained
    target = tmp_path / "copy.skops"
    target.write_bytes(Path(model.path).read_bytes())
    sidecar_path(target).write_text(sidecar_path(model.path).read_text())
    return target


def _edit_sidecar(path, **changes):
    side = sidecar_path(path)
    metadata = json.loads(side.read_text())
    metadata.update(changes)
    side.write_text(json.dumps(metadata))


def _puzzles(n=20, count=50, seed=11, k=4, m=2):
    from rumdiff.data import Family, generate
    from rumdiff.puzzle import Game

    return generate(count, Family(Game(k, m, n)), seed=seed).puzzles


def test_round_trip(trained):
    model, dataset = trained
    loaded = load_model(model.path)
    assert loaded.metadata == model.metadata
    puzzles = _puzzles()
    np.testing.assert_array_equal(loaded.predict_proba(puzzles), model.predict_proba(puzzles))
    assert (loaded.k, loaded.m, loaded.n) == (4, 2, 20)
    assert loaded.classes == [1, 2, 3, 4] and loaded.class_names == list(config.LABEL_NAMES)


def test_sidecar_records_what_prediction_needs(trained):
    import sklearn

    from rumdiff.features import feature_names
    from rumdiff.learn.model import features_fingerprint, file_sha256

    model, dataset = trained
    metadata = json.loads(sidecar_path(model.path).read_text())
    assert metadata["format"] == "rumdiff-model"
    assert metadata["format_version"] == config.MODEL_FORMAT
    assert metadata["rumdiff_version"] == __version__
    assert metadata["sklearn_version"] == sklearn.__version__
    assert metadata["feature_set"] == "all"
    assert metadata["feature_names"] == feature_names("all", k=4, m=2)
    assert metadata["features_sha256"] == features_fingerprint("all", Game(4, 2, 20))
    assert metadata["label_by"] == "search" and metadata["thresholds"] == [44_000, 280_000]
    assert metadata["effort"] == "search_transitions" and "beam_width" not in metadata
    assert (metadata["k"], metadata["m"], metadata["n"]) == (4, 2, 20)
    assert metadata["training_data"]["sha256"] == file_sha256(dataset)
    assert metadata["training_data"]["rows"] == 300
    assert metadata["model_sha256"] == file_sha256(model.path)
    assert metadata["model_bytes"] == model.metadata["model_bytes"] > 0
    for key in ("accuracy", "accuracy_std", "macro_f1", "macro_f1_std", "per_class_f1"):
        assert key in metadata["cv"]
    assert metadata["params"]["n_estimators"] == 10
    assert dataset.name in metadata["training_data"]["file"]


def test_pipeline_goes_from_puzzles_to_probabilities(trained):
    model, _ = trained
    assert list(model.pipeline.named_steps) == ["features", "forest"]
    puzzles = _puzzles()
    proba = model.predict_proba(puzzles)
    assert proba.shape == (50, 4)
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    flat = puzzles.copies.reshape(len(puzzles), -1)  # what a Pipeline passes around
    np.testing.assert_allclose(model.pipeline.predict_proba(flat), proba)


@pytest.mark.parametrize(
    "options, wrong",
    [({"n": 21}, "G\\(4, 2, 21\\)"), ({"k": 5}, "G\\(5, 2, 20\\)"), ({"m": 3}, "G\\(4, 3, 20\\)")],
)
def test_refuses_puzzles_of_other_shape(trained, options, wrong):
    model, _ = trained
    parameters = {"n": 20, **options}
    puzzles = _puzzles(**parameters)
    with pytest.raises(ModelError, match=f"{wrong}.*trained on G\\(4, 2, 20\\)"):
        model.predict_proba(puzzles)


def test_refuses_missing_file_and_sidecar(copy, tmp_path):
    with pytest.raises(ModelError, match="model file not found"):
        load_model(tmp_path / "none.skops")
    sidecar_path(copy).unlink()
    with pytest.raises(ModelError, match="not a rumdiff model \\(no sidecar copy.skops.json"):
        load_model(copy)


@pytest.mark.parametrize(
    "sidecar, message",
    [
        ("{not json", "not a rumdiff model sidecar"),
        ("[1, 2]", "not a rumdiff model sidecar"),
        ('{"format": "something-else"}', "not a rumdiff model sidecar"),
    ],
)
def test_refuses_foreign_sidecars(copy, sidecar, message):
    sidecar_path(copy).write_text(sidecar)
    with pytest.raises(ModelError, match=message):
        load_model(copy)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"format_version": 99}, "model format 99, but this rumdiff reads format 3"),
        ({"format_version": 1}, "model format 1, but this rumdiff reads format 3; train"),
        ({"format_version": 2}, "model format 2, .* it is a pickle, which can run code"),
        ({"rumdiff_version": "9.9.0"}, "saved with rumdiff 9.9.0, incompatible"),
        ({"sklearn_version": "0.24.2"}, "saved with scikit-learn 0.24.2, incompatible"),
        ({"sklearn_version": None}, "saved with scikit-learn None, incompatible"),
        ({"feature_names": ["a", "b"]}, "features differ"),
        ({"feature_set": "thesis"}, "its features read feature_set = 'all', its sidecar says"),
        ({"features_sha256": "0" * 64}, "features differ"),
        ({"most_jokers": 9, "table": False}, "most_jokers must be 0..4 and table true or"),
        ({"most_jokers": 1}, "most_jokers must be 0..4 and table true or false"),
    ],
)
def test_refuses_incompatible_models(copy, changes, message):
    _edit_sidecar(copy, **changes)
    with pytest.raises(ModelError, match=message):
        load_model(copy)


def test_refuses_a_file_that_does_not_match_its_sidecar(copy):
    with open(copy, "ab") as stream:
        stream.write(b"\0")
    with pytest.raises(ModelError, match="does not match its sidecar"):
        load_model(copy)


def _archive(content, path):
    """Save ``content`` as a model archive at ``path`` and point its sidecar at it."""
    from rumdiff.learn.archive import dump_archive
    from rumdiff.learn.model import file_sha256

    dump_archive(content, path)
    _edit_sidecar(path, model_sha256=file_sha256(path))


def test_refuses_an_archive_that_is_not_a_rumdiff_pipeline(copy):
    _archive({"not": "a model"}, copy)
    with pytest.raises(ModelError, match="not a rumdiff model \\(no classifier and regressor"):
        load_model(copy)
    _archive({"classifier": "no", "regressor": "no"}, copy)
    with pytest.raises(ModelError, match="not a rumdiff model \\(no features -> forest"):
        load_model(copy)
    copy.write_bytes(b"PK\x03\x04 garbage that is no archive")
    _edit_sidecar(copy, model_sha256=__import__("rumdiff").learn.model.file_sha256(copy))
    with pytest.raises(ModelError, match="a damaged skops model file .*; save or fetch it"):
        load_model(copy)


def test_save_is_atomic_and_leaves_no_temporary_files(trained, tmp_path):
    model, _ = trained
    target = tmp_path / "deep" / "er" / "m.skops"
    again = save_model(model, target)
    assert again.path == str(target)
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.skops", "m.skops.json"]
    assert load_model(target).metadata["model_sha256"] == again.metadata["model_sha256"]


class _Forest:
    """A stand-in forest that gives every row the same class probabilities."""

    def __init__(self, classes, proba):
        self.classes_ = np.asarray(classes)
        self.proba = np.asarray(proba, dtype=float)

    def predict_proba(self, X):
        return np.tile(self.proba, (len(X), 1))


@pytest.mark.parametrize(
    ("classes", "proba", "label_by", "expected"),
    [
        ([1, 2, 3, 4], [0.6, 0.2, 0.2, 0.0], "search", [0.0, 0.5, 0.5, 0.0]),
        ([1, 2, 3, 4], [1.0, 0.0, 0.0, 0.0], "search", [0.0, 1.0, 0.0, 0.0]),
        ([1, 3, 4], [1.0, 0.0, 0.0], "search", [0.0, 1.0, 0.0]),  # no moderate: medium
        ([1, 2, 3, 4], [0.6, 0.2, 0.2, 0.0], "time", [0.6, 0.2, 0.2, 0.0]),  # no promise
        ([2, 3, 4], [0.5, 0.5, 0.0], "search", [0.5, 0.5, 0.0]),
    ],
)
def test_a_table_is_never_easy_under_search_labels(classes, proba, label_by, expected):
    from sklearn.pipeline import Pipeline

    from rumdiff.learn.model import Model
    from rumdiff.puzzle import Puzzle, Puzzles

    names = [config.CLASS_NAMES[c] for c in classes]
    model = Model(
        pipeline=Pipeline([("forest", _Forest(classes, proba))]),
        regressor=None,
        metadata={"classes": classes, "class_names": names, "label_by": label_by},
    )
    table = Puzzle.from_tiles([(1, 0)], k=4, m=2, n=5, table=[(2, 0), (3, 0), (4, 0)])
    rack = Puzzle.from_tiles([(2, 0), (3, 0), (4, 0)], k=4, m=2, n=5)
    got = model.predict_proba(Puzzles.from_list([table, rack]), X=np.zeros((2, 1)))
    assert np.allclose(got[0], expected) and np.allclose(got[1], proba)
    assert np.allclose(got.sum(axis=1), 1.0)
