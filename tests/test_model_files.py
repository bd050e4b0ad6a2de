"""Model files from elsewhere cannot run code: skops archives, trusted types, pickles only
when trusted, and trees checked before they are walked."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import joblib
import numpy as np
import pytest

from rumdiff.cli import main
from rumdiff.learn import load_model
from rumdiff.learn.model import ModelError, file_sha256, sidecar_path


class _Payload:
    """Unpickling this creates the file it names: the proof that code ran."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _pair(trained, tmp_path, name="evil.skops"):
    """A copy of the trained model's sidecar beside a file ``name`` (content to follow)."""
    model, _ = trained
    path = tmp_path / name
    path.write_bytes(Path(model.path).read_bytes())
    sidecar_path(path).write_text(sidecar_path(model.path).read_text())
    return path


def _forge(path, **changes):
    """Make the sidecar claim whatever a forger likes, with the file's true SHA-256."""
    side = sidecar_path(path)
    metadata = json.loads(side.read_text())
    metadata.update(model_sha256=file_sha256(path), **changes)
    side.write_text(json.dumps(metadata))


@pytest.mark.parametrize("claimed_format", [3, 2])
def test_a_pickle_with_a_forged_sidecar_runs_no_code(trained, tmp_path, claimed_format):
    path = _pair(trained, tmp_path)
    marker = tmp_path / "code-ran"
    joblib.dump({"classifier": _Payload(str(marker)), "regressor": None}, path)
    _forge(path, format_version=claimed_format)
    with pytest.raises(ModelError, match="pickle"):
        load_model(path)
    assert not marker.exists()


def test_predict_refuses_a_pickle_in_one_line_and_runs_nothing(trained, tmp_path, capsys):
    path = _pair(trained, tmp_path)
    marker = tmp_path / "code-ran"
    joblib.dump({"classifier": _Payload(str(marker)), "regressor": None}, path)
    _forge(path)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--trust-pickle" in err
    assert not marker.exists()


def test_a_trusted_legacy_pickle_loads_with_a_warning_and_converts_exactly(trained, tmp_path):
    from rumdiff.learn import PickleWarning, convert_pickle_model

    model, _ = trained
    legacy = _pair(trained, tmp_path, "legacy.joblib")
    joblib.dump({"classifier": model.pipeline, "regressor": model.regressor}, legacy)
    _forge(legacy, format_version=2)
    with pytest.raises(ModelError, match="--trust-pickle"):
        load_model(legacy)
    with pytest.warns(PickleWarning, match="can run arbitrary code"):
        old = load_model(legacy, trust_pickle=True)
    with pytest.warns(PickleWarning):
        convert_pickle_model(legacy, tmp_path / "new.skops")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the converted file loads without a pickle
        new = load_model(tmp_path / "new.skops")
    assert new.metadata["format_version"] == 3
    assert new.metadata["converted_from"]["sha256"] == file_sha256(legacy)
    for loaded in (old, new):  # one thread: the forests sum their trees in a fixed order
        loaded.pipeline.named_steps["forest"].n_jobs = 1
        loaded.regressor.named_steps["forest"].n_jobs = 1
    from rumdiff.data.generator import generate

    puzzles = generate(200, n=20, seed=3).puzzles
    assert np.array_equal(old.predict_proba(puzzles), new.predict_proba(puzzles))
    assert np.array_equal(old.predict_effort(puzzles), new.predict_effort(puzzles))


def test_predict_trust_pickle_warns_in_one_line(trained, tmp_path, capsys):
    model, _ = trained
    legacy = _pair(trained, tmp_path, "legacy.joblib")
    joblib.dump({"classifier": model.pipeline, "regressor": model.regressor}, legacy)
    _forge(legacy, format_version=2)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(legacy), "--trust-pickle"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rumdiff predict: warning: ")


def test_an_archive_with_an_untrusted_type_is_refused(trained, tmp_path):
    from fractions import Fraction

    from rumdiff.learn.archive import dump_archive

    path = _pair(trained, tmp_path)
    dump_archive({"classifier": Fraction(1, 3), "regressor": None}, path)
    _forge(path)
    with pytest.raises(ModelError, match="does not trust .*fractions.Fraction"):
        load_model(path)


@pytest.mark.parametrize(
    "field, value, problem",
    [
        ("left_child", 10**6, "out of order or out of range"),
        ("right_child", 0, "out of order or out of range"),  # a loop back to the root
        ("feature", 999, "a feature that does not exist"),
    ],
)
def test_a_tree_that_prediction_cannot_walk_safely_is_refused(
    trained, tmp_path, field, value, problem
):
    from rumdiff.learn.archive import dump_archive

    model, _ = trained
    path = _pair(trained, tmp_path)
    tree = model.pipeline.named_steps["forest"].estimators_[0].tree_
    state = tree.__getstate__()
    saved = state["nodes"].copy()
    state["nodes"] = saved.copy()
    state["nodes"][field][0] = value
    tree.__setstate__(state)
    try:
        dump_archive({"classifier": model.pipeline, "regressor": model.regressor}, path)
    finally:
        state["nodes"] = saved
        tree.__setstate__(state)
    _forge(path)
    with pytest.raises(ModelError, match=f"tree 0: .*{problem}"):
        load_model(path)


def test_a_sidecar_nested_200000_deep_is_one_error(trained, tmp_path, capsys):
    path = _pair(trained, tmp_path)
    sidecar_path(path).write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ModelError, match="nested too deeply"):
        load_model(path)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err
