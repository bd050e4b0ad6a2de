"""Model files from elsewhere cannot run code: skops archives, trusted types, pickles only
when trusted, and trees checked before they are walked."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import joblib
import numpy as np
import pytest
from helpers import PEAK_MB, linux, run_capped

from rumdiff.cli import main
from rumdiff.data import Family
from rumdiff.learn import load_model
from rumdiff.learn.model import ModelError, file_sha256, sidecar_path
from rumdiff.puzzle import Game


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
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
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

    puzzles = generate(200, Family(Game(n=20)), seed=3).puzzles
    assert np.array_equal(old.predict_proba(puzzles), new.predict_proba(puzzles))
    assert np.array_equal(old.predict_effort(puzzles), new.predict_effort(puzzles))


def test_predict_trust_pickle_warns_in_one_line(trained, tmp_path, capsys):
    model, _ = trained
    legacy = _pair(trained, tmp_path, "legacy.joblib")
    joblib.dump({"classifier": model.pipeline, "regressor": model.regressor}, legacy)
    _forge(legacy, format_version=2)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(legacy), "--trust-pickle", "-q"]) == 0
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
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err


def _crafted(trained, tmp_path, change, **sidecar):
    """A model file whose forests ``change(classifier, regressor)`` edited (on copies),
    with a sidecar that vouches for it."""
    import copy

    from rumdiff.learn.archive import dump_archive

    model, _ = trained
    path = _pair(trained, tmp_path)
    classifier, regressor = copy.deepcopy(model.pipeline), copy.deepcopy(model.regressor)
    change(classifier.named_steps["forest"], regressor.named_steps["forest"])
    dump_archive({"classifier": classifier, "regressor": regressor}, path)
    _forge(path, **sidecar)
    return path


def _set(forest: str, **values):
    """A change that sets attributes of one forest."""

    def change(classifier, regressor):
        for name, value in values.items():
            setattr(classifier if forest == "classifier" else regressor, name, value)

    return change


@pytest.mark.parametrize(
    "change, sidecar, problem",
    [
        (_set("classifier", classes_=np.array([1, 5, 7, 9])), {},
         r"classes \[1, 5, 7, 9\], not some of the sidecar's \[1, 2, 3, 4\]"),
        (_set("classifier", classes_=np.array([], dtype=int), n_classes_=0), {},
         r"classes \[\], not some of the sidecar's"),
        (_set("classifier", estimators_=[]), {}, "a forest without trees"),
        (_set("regressor", estimators_=[]), {}, "a forest without trees"),
        (_set("classifier", n_features_in_=99), {}, "n_features_in_ is 99, not"),
        (_set("regressor", n_features_in_=99), {}, "n_features_in_ is 99, not"),
        (_set("classifier", n_estimators=10**6, n_jobs=10**6), {}, "says it has 1000000"),
        (_set("classifier"), {"n": 13}, "its features read n = 20, its sidecar says 13"),
        (_set("classifier"), {"m": 3}, "its features read m = 2, its sidecar says 3"),
        (_set("classifier"), {"jokers": True}, "its features read jokers = False"),
    ],
)  # fmt: skip
def test_a_crafted_model_is_refused_at_load_in_one_line(
    trained, tmp_path, capsys, change, sidecar, problem
):
    path = _crafted(trained, tmp_path, change, **sidecar)
    with pytest.raises(ModelError, match=problem):
        load_model(path)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(path), "-k", "4", "-n", "20"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"rumdiff predict: error: {path}: ")


def test_a_trees_own_class_count_must_be_the_forests(trained, tmp_path):
    def change(classifier, regressor):
        classifier.estimators_[3].n_classes_ = 2

    with pytest.raises(ModelError, match="tree 3: its n_classes_ is 2, not 4"):
        load_model(_crafted(trained, tmp_path, change))


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "not a model file (neither a skops archive nor a pickle)"),
        (b"\x00\x01 junk", "not a model file (neither a skops archive nor a pickle)"),
        ("truncated", "a damaged skops model file"),
    ],
)
@pytest.mark.parametrize("command", ["predict", "generate"])
def test_a_damaged_model_file_is_never_answered_with_trust_pickle(
    trained, tmp_path, capsys, content, message, command
):
    path = _pair(trained, tmp_path)
    if content == "truncated":
        content = path.read_bytes()[: path.stat().st_size // 2]
    path.write_bytes(content)
    _forge(path)
    with pytest.raises(ModelError, match=re.escape(message)):
        load_model(path)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
    argv = {
        "predict": ["predict", str(puzzles)],
        "generate": ["generate", str(tmp_path / "o.in"), "--difficulty", "easy", "-n", "20"],
    }[command]
    assert main([*argv, "--model", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "--trust-pickle" not in err


def test_an_archive_the_check_refuses_never_loads_scikit_learn(trained, tmp_path):
    # skops imports every scikit-learn estimator, seconds of a refusal's time.
    path = _pair(trained, tmp_path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    _forge(path)
    script = textwrap.dedent("""
        import sys
        from rumdiff.learn.model import load_model
        from rumdiff.learn.sidecar import ModelError
        try:
            load_model(sys.argv[1])
        except ModelError as error:
            print(error)
        print("sklearn" in sys.modules, "skops" in sys.modules)
    """)  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.stdout.splitlines()[1:] == ["False False"], done.stdout + done.stderr
    assert "a damaged skops model file" in done.stdout


def test_generate_names_the_command_that_trusts_a_pickle(trained, tmp_path, capsys):
    path = _pair(trained, tmp_path)
    joblib.dump({"classifier": None, "regressor": None}, path)
    _forge(path)
    argv = ["generate", str(tmp_path / "o.in"), "--difficulty", "easy", "--model", str(path)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rumdiff predict --trust-pickle" in err


def test_the_pickle_warning_comes_even_when_the_pickle_is_then_refused(trained, tmp_path, capsys):
    path = _pair(trained, tmp_path, "legacy.joblib")
    joblib.dump({"classifier": "not a pipeline", "regressor": None}, path)
    _forge(path, format_version=2)
    puzzles = tmp_path / "p.in"
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(path), "--trust-pickle"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("rumdiff predict: warning: ") and "loading a pickle" in lines[0]
    assert lines[1].startswith("rumdiff predict: error: ") and "not a rumdiff model" in lines[1]


def _bomb(trained, tmp_path, unpacked: int, *, lie: bool = False):
    """The trained model with its largest array replaced by an array of zeros that
    unpacks to ``unpacked`` bytes; with ``lie``, the zip's list of members declares
    the old array's size for it. Its sidecar vouches for it."""
    import zipfile

    model, _ = trained
    path = tmp_path / "bomb.skops"
    with zipfile.ZipFile(model.path) as source:
        members = source.infolist()
        big = max(members, key=lambda info: (info.filename.endswith(".npy"), info.file_size))
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target:
            for info in members:
                if info is not big:
                    target.writestr(info, source.read(info))
            header = b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, "
            header += f"'shape': ({(unpacked - 128) // 8},), }}".encode()
            header = header.ljust(127) + b"\n"
            with target.open(big.filename, "w") as member:
                member.write(header)
                block = bytes(1 << 24)
                left = unpacked - len(header)
                while left > 0:
                    member.write(block[: min(left, len(block))])
                    left -= len(block)
    if lie:
        _declare(path, big.filename, big.file_size)
    sidecar_path(path).write_text(sidecar_path(model.path).read_text())
    _forge(path)
    return path


@linux
@pytest.mark.parametrize(
    "lie, problem",
    [
        (False, r"refused, it would unpack to UNPACKED bytes, over the 536,870,912 "),
        (True, r"a damaged skops model file \(BadZipFile: Bad CRC-32 for file '\d+\.npy'\)"),
    ],
)
def test_a_member_that_unpacks_to_gigabytes_is_refused_unpacked(trained, tmp_path, lie, problem):
    # 600 MiB of zeros in a file of 3 MB; with lie, its header says it holds a few kB.
    import zipfile

    path = _bomb(trained, tmp_path, 600 * 2**20, lie=lie)
    assert path.stat().st_size < 5 * 2**20
    with zipfile.ZipFile(path) as archive:  # what its list of members declares
        unpacked = sum(info.file_size for info in archive.infolist())
    # Told truly: the zeros and the rest of a tiny model; a lie: a few MB.
    assert 600 * 2**20 < unpacked < 610 * 2**20 if not lie else unpacked < 10 * 2**20
    problem = problem.replace("UNPACKED", f"{unpacked:,}")
    puzzles = tmp_path / "p.in"
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b 3b\n")
    code, peak, err = run_capped(["predict", str(puzzles), "--model", str(path), "-n", "20"])
    assert code == 1 and err.count("\n") == 1, err
    assert re.match(f"rumdiff predict: error: {re.escape(str(path))}: {problem}", err)
    assert peak < PEAK_MB


def test_a_list_of_members_over_its_cap_is_refused_before_zipfile_reads_it(
    trained, tmp_path, monkeypatch
):
    from rumdiff import config

    path = _pair(trained, tmp_path)
    _forge(path)
    monkeypatch.setattr(config, "MODEL_MAX_DIRECTORY_BYTES", 1000)
    with pytest.raises(ModelError, match="its list of members takes .* over the 1,000"):
        load_model(path)


def _declare(path, name: str, size: int) -> None:
    """Make a zip's list of members declare ``size`` unpacked bytes for member ``name``."""
    import struct
    import zipfile

    with zipfile.ZipFile(path) as archive:
        at = archive.start_dir  # where the list of members begins
    data = bytearray(path.read_bytes())
    while True:  # entries: 46 bytes, then name, extra field and comment
        named, extra, comment = struct.unpack("<3H", data[at + 28 : at + 34])
        if data[at + 46 : at + 46 + named] == name.encode():
            data[at + 24 : at + 28] = struct.pack("<L", size)
            break
        at += 46 + named + extra + comment
    path.write_bytes(bytes(data))


def test_train_refuses_to_save_a_model_it_could_not_load(
    dataset, tmp_path, tiny_forests, monkeypatch, capsys
):
    from rumdiff import config

    monkeypatch.setattr(config, "MODEL_MAX_UNPACKED_BYTES", 100_000)
    out = tmp_path / "run"
    model = out / "model.skops"
    argv = ["train", str(dataset), "-o", str(out), "--folds", "3",
            "--jobs", "1", "-q"]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{model}: not saved: it would unpack to " in err and "over the 100,000" in err
    assert not model.exists() and not (out.exists() and os.listdir(out))
