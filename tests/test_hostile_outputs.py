"""Outputs that would eat an input, and output pairs that must land together or not at all.

Every path a command writes (train's report files included) is checked against every
input before any work; an output and its sidecar are renamed into place only when both
are ready, and a failed rename puts the old pair back.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rumdiff.cli import main


def _csv_dataset(dataset, path: Path) -> bytes:
    """The tiny dataset, saved as CSV at ``path`` with its sidecar; returns its bytes."""
    from rumdiff.data import read_dataset, read_sidecar, write_dataset

    write_dataset(read_dataset(dataset), path, read_sidecar(dataset))
    return path.read_bytes()


@pytest.mark.parametrize("name", ["feature_importance.csv", "cv_folds.csv", "compare.csv"])
def test_train_refuses_a_report_file_that_is_its_dataset(
    dataset, tmp_path, tiny_forests, name, capsys
):
    out = tmp_path / "run"
    out.mkdir()
    data = out / name
    before = _csv_dataset(dataset, data)
    sidecar = Path(f"{data}.json").read_bytes()
    argv = ["train", str(data), "-o", str(out), "--folds", "3", "--jobs", "1", "--compare"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"output {data} is the input {data}" in err
    assert data.read_bytes() == before and Path(f"{data}.json").read_bytes() == sidecar
    assert sorted(os.listdir(out)) == [name, f"{name}.json"]


def test_train_refuses_a_report_file_linked_to_its_dataset(dataset, tmp_path, tiny_forests, capsys):
    data = tmp_path / "d.csv"
    before = _csv_dataset(dataset, data)
    out = tmp_path / "run"
    out.mkdir()
    (out / "feature_importance.png").symlink_to(data)
    assert main(["train", str(data), "-o", str(out), "--folds", "3", "--jobs", "1"]) == 1
    assert "is the input" in capsys.readouterr().err
    assert data.read_bytes() == before


def test_a_failed_rename_puts_the_old_pair_back(tmp_path, monkeypatch):
    from rumdiff.atomic import atomic_files

    first, second = tmp_path / "d.csv", tmp_path / "d.csv.json"
    first.write_text("old data")
    second.write_text("old sidecar")
    real = os.replace

    def refuse_the_sidecar(source, target):
        if Path(target) == second:
            raise PermissionError(1, "Operation not permitted")
        return real(source, target)

    monkeypatch.setattr(os, "replace", refuse_the_sidecar)
    with pytest.raises(OSError) as caught, atomic_files([first, second]) as (a, b):
        Path(a).write_text("new data")
        Path(b).write_text("new sidecar")
    assert caught.value.filename == str(second)  # the file that failed, not a temporary
    assert first.read_text() == "old data" and second.read_text() == "old sidecar"
    assert sorted(os.listdir(tmp_path)) == ["d.csv", "d.csv.json"]


def test_a_failed_rename_removes_a_new_file_that_had_no_old_one(tmp_path, monkeypatch):
    from rumdiff.atomic import atomic_files

    first, second = tmp_path / "m.skops", tmp_path / "m.skops.json"
    second.write_text("old sidecar")
    real = os.replace
    monkeypatch.setattr(
        os, "replace",
        lambda s, t: (_ for _ in ()).throw(OSError(5, "I/O error")) if Path(t) == second
        else real(s, t),
    )  # fmt: skip
    with pytest.raises(OSError), atomic_files([first, second]) as (a, b):
        Path(a).write_text("new")
        Path(b).write_text("new")
    assert sorted(os.listdir(tmp_path)) == ["m.skops.json"]


def test_generate_refuses_a_sidecar_that_is_a_folder_before_any_work(tmp_path, capsys):
    out = tmp_path / "d.csv"
    out.write_text("old dataset\n")
    (tmp_path / "d.csv.json").mkdir()
    argv = ["generate", str(out), "--count", "20", "-n", "20", "--jobs", "1", "-q"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot write {out}.json: it is a folder" in err
    assert out.read_text() == "old dataset\n"
    assert sorted(os.listdir(tmp_path)) == ["d.csv", "d.csv.json"]


def test_train_refuses_a_model_sidecar_that_is_a_folder_before_any_work(
    dataset, tmp_path, tiny_forests, capsys
):
    out = tmp_path / "run"
    (out / "model.skops.json").mkdir(parents=True)
    (out / "model.skops").write_text("old model")
    assert main(["train", str(dataset), "-o", str(out), "--folds", "3", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "model.skops.json: it is a folder" in err
    assert (out / "model.skops").read_text() == "old model"
    assert sorted(os.listdir(out)) == ["model.skops", "model.skops.json"]


@contextlib.contextmanager
def _old_pair_frozen(first: Path, second: Path, texts=("old data", "old sidecar")):
    """Write an old pair and make its second file immutable (chattr +i) for the block;
    skip when this machine does not let us (root on ext4 and kin)."""
    first.write_text(texts[0])
    second.write_text(texts[1])
    if (
        shutil.which("chattr") is None
        or subprocess.run(["chattr", "+i", str(second)], capture_output=True).returncode
    ):
        pytest.skip("chattr +i is not available here")
    try:
        yield
        assert (first.read_text(), second.read_text()) == texts  # the old pair, whole
        assert not [name for name in os.listdir(first.parent) if name.endswith(".tmp")]
    finally:
        subprocess.run(["chattr", "-i", str(second)], check=True)


def test_generate_with_an_immutable_sidecar_keeps_the_old_pair(tmp_path, capsys):
    out, sidecar = tmp_path / "d.csv", tmp_path / "d.csv.json"
    with _old_pair_frozen(out, sidecar):
        argv = ["generate", str(out), "--count", "20", "-n", "20", "--jobs", "1", "-q"]
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"cannot write {sidecar}:" in err


def test_save_model_with_an_immutable_sidecar_keeps_the_old_pair(trained, tmp_path):
    from rumdiff.learn import save_model

    target, sidecar = tmp_path / "m.skops", tmp_path / "m.skops.json"
    with _old_pair_frozen(target, sidecar), pytest.raises(OSError) as caught:
        save_model(trained[0], target)
    assert caught.value.filename == str(sidecar)


def _model_pair(trained, folder: Path, name: str) -> dict:
    """A copy of the trained model and its sidecar as ``folder/name``; their bytes."""
    model, _ = trained
    folder.mkdir(parents=True, exist_ok=True)
    pair = {folder / name: Path(model.path), folder / f"{name}.json": Path(f"{model.path}.json")}
    for copy, source in pair.items():
        copy.write_bytes(source.read_bytes())
    return {copy: copy.read_bytes() for copy in pair}


def test_made_to_order_never_writes_over_its_models_sidecar(trained, tmp_path, capsys):
    before = _model_pair(trained, tmp_path, "m.skops")
    argv = ["generate", str(tmp_path / "m.skops.json"), "--difficulty", "easy", "--count", "1",
            "--model", str(tmp_path / "m.skops"), "-n", "20", "--jobs", "1", "-q"]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"is the input {tmp_path / 'm.skops.json'}" in err
    assert {path: path.read_bytes() for path in before} == before
    assert sorted(os.listdir(tmp_path)) == ["m.skops", "m.skops.json"]


@pytest.mark.parametrize(
    "out, options",
    [
        ("default.skops", []),
        ("default.skops.json", ["--no-filter"]),
        ("thesis.skops.json", []),
        ("default.skops", ["--model", "thesis"]),
    ],
)
def test_made_to_order_never_writes_over_a_shipped_model(
    trained, tmp_path, monkeypatch, out, options, capsys
):
    import rumdiff.learn.prediction

    # The shipped models, as copies in a repository of the test's own.
    monkeypatch.setattr(rumdiff.learn.prediction, "_ROOT", tmp_path)
    models = tmp_path / "models"
    before = {**_model_pair(trained, models, "default.skops"),
              **_model_pair(trained, models, "thesis.skops")}  # fmt: skip
    argv = ["generate", str(models / out), "--effort", "0:", "--count", "1", *options,
            "-n", "20", "--jobs", "1", "-q"]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the input" in err
    assert {path: path.read_bytes() for path in before} == before
    assert len(os.listdir(models)) == 4
