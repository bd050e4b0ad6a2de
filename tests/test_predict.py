"""Tests for rumdiff.learn.prediction and ``rumdiff predict``."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rumdiff import config
from rumdiff.cli import main
from rumdiff.data import Family
from rumdiff.learn.prediction import default_model_path, format_table, predict
from rumdiff.puzzle import Game


@pytest.fixture
def model(trained):
    return trained[0]


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory):
    """A puzzle file of 40 G(4, 2, 20) puzzles (largest value 20 in each)."""
    from rumdiff.data.generator import generate
    from rumdiff.puzzle import write_puzzles

    path = tmp_path_factory.mktemp("puzzles") / "p.in"
    puzzles = generate(40, Family(Game(n=20), "fixed", percentages=(20, 20)), seed=5).puzzles
    write_puzzles(path, puzzles, header=True)
    return path


def _columns():
    probabilities = [f"p_{name}" for name in config.LABEL_NAMES]
    return ["puzzle", "difficulty", *probabilities, "effort", "effort_low", "effort_high"]


def test_predict_rows_and_probabilities(model, puzzle_file):
    from rumdiff.puzzle import read_puzzles

    puzzles = read_puzzles(puzzle_file, n=20)
    frame = predict(model, puzzles)
    assert list(frame.columns) == _columns()
    assert len(frame) == 40 and list(frame["puzzle"]) == list(range(1, 41))
    proba = frame[[f"p_{name}" for name in config.LABEL_NAMES]].to_numpy()
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    assert (proba >= 0).all()
    names = np.array(config.LABEL_NAMES, dtype=object)
    np.testing.assert_array_equal(frame["difficulty"], names[proba.argmax(axis=1)])
    np.testing.assert_allclose(proba, model.predict_proba(puzzles))
    _assert_agrees(frame, model)
    # The estimate is the forest's (its mean in log space) wherever that lies in the class.
    raw = 10 ** model.regressor.predict(model.features(puzzles)) - 1
    kept = frame["effort"].to_numpy() == raw
    assert kept.sum() >= 30
    np.testing.assert_allclose(frame["effort"], np.where(kept, raw, frame["effort"]))


def _assert_agrees(frame, model):
    """Every row agrees with itself: its estimate inside its interval and in its class's
    range of the model's label measure."""
    from rumdiff.data.labels import class_ranges

    ranges = class_ranges(model.label_by, model.metadata["thresholds"])
    effort = frame[["effort_low", "effort", "effort_high"]].to_numpy()
    assert (effort >= 0).all()
    assert (effort[:, 0] <= effort[:, 1]).all() and (effort[:, 1] <= effort[:, 2]).all()
    for name, estimate in zip(frame["difficulty"], effort[:, 1], strict=True):
        low, high = ranges[config.LABEL_NAMES.index(name)]
        assert low <= estimate and (high is None or estimate < high), (name, estimate)


@pytest.mark.parametrize(
    "label, raw, expected",
    [
        (1, (3.97e-05, 0, 0), (0, 0, 0)),  # easy: settled by bounds, no transition
        (2, (5.7e3, 2e3, 1.6e4), (5.7e3, 2e3, 1.6e4)),  # inside its class: kept
        (3, (5.7e3, 2e3, 1.2e4), (15_000, 2e3, 15_000)),  # below medium: its lowest
        (2, (3e4, 2e4, 4e4), (14_999, 14_999, 4e4)),  # above moderate: its highest
        (4, (2e5, 1.5e5, 2.5e5), (210_000, 1.5e5, 2.5e5)),
        (4, (9e9, 8e9, 9.5e9), (9e9, 8e9, 9.5e9)),  # hard has no upper end
    ],
)
def test_the_estimate_moves_into_its_class_and_the_interval_holds_it(label, raw, expected):
    from rumdiff.learn.prediction import effort_in_class

    got = effort_in_class(np.array([raw]), np.array([label]), "search", (15_000, 210_000))
    np.testing.assert_allclose(got, [expected])


def test_time_classes_end_just_below_their_cut():
    from rumdiff.learn.prediction import effort_in_class

    raw = np.array([[0.5, 0.2, 0.6], [0.5, 0.2, 0.6]])
    got = effort_in_class(raw, np.array([2, 4]), "time", (0.0001, 0.1, 1.0))
    below = np.nextafter(0.1, 0)  # moderate is [0.0001, 0.1) seconds
    np.testing.assert_array_equal(got, [[below, below, 0.6], [1.0, 0.2, 1.0]])


def test_predict_no_puzzles(model):
    from rumdiff.puzzle import Game, Puzzles

    frame = predict(model, Puzzles.empty(Game(4, 2, 20)))
    assert list(frame.columns) == _columns() and len(frame) == 0
    assert format_table(frame).split() == _columns()


def test_default_model_lives_in_the_repository():
    import rumdiff

    path = default_model_path()
    assert path.parent.parent / "rumdiff" / "__init__.py" == Path(rumdiff.__file__).resolve()
    assert path.name == "default.skops" and path.parent.name == "models"


def test_the_committed_default_model_loads_and_predicts():
    # A feature or format change that breaks the shipped model must fail here, not for users.
    import json
    import zipfile

    import sklearn

    from rumdiff.learn.model import ModelError, load_model, sidecar_path
    from rumdiff.puzzle import read_puzzles

    # Shipped as a skops archive, which loads without unpickling anything.
    assert zipfile.is_zipfile(default_model_path())
    saved_with = json.loads(sidecar_path(default_model_path()).read_text())["sklearn_version"]
    if saved_with.split(".")[:2] != sklearn.__version__.split(".")[:2]:
        # Another scikit-learn minor version (the oldest allowed, say): refused, clearly.
        with pytest.raises(ModelError, match=f"saved with scikit-learn {saved_with}"):
            load_model(default_model_path())
        return
    model = load_model(default_model_path())
    puzzles = read_puzzles(Path(__file__).parents[1] / "data" / "examples" / "mixed-20.in")
    frame = predict(model, puzzles)
    assert len(frame) == 20 and set(frame["difficulty"]) <= set(config.LABEL_NAMES)
    np.testing.assert_allclose(frame.filter(like="p_").sum(axis=1), 1)


def test_cli_table_and_csv(model, puzzle_file, tmp_path, capsys):
    assert main(["predict", str(puzzle_file), "--model", model.path]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == _columns() and len(table) == 41
    out = tmp_path / "out.csv"
    assert main(["predict", str(puzzle_file), "--model", model.path, "-o", str(out)]) == 0
    frame = pd.read_csv(out)
    columns = _columns()
    assert list(frame.columns) == columns[:1] + ["k", "m", "n"] + columns[1:]
    assert len(frame) == 40
    assert (frame[["k", "m", "n"]] == [model.k, model.m, model.n]).all(axis=None)
    np.testing.assert_allclose(frame.filter(like="p_").sum(axis=1), 1, atol=1e-5)
    assert main(["predict", str(puzzle_file), "--model", model.path, "--format", "csv"]) == 0
    assert pd.read_csv(io.StringIO(capsys.readouterr().out)).equals(frame)


def test_cli_reads_a_file_without_header_as_every_command_does(model, tmp_path, capsys):
    # The default game, whatever the model: a model of another family refuses it in one
    # line, and -n says the file's game (as a header would).
    small = tmp_path / "small.in"
    small.write_text("1\n3\n1b 1g 1r\n")
    assert main(["predict", str(small), "--model", model.path]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "G(4, 2, 100)" in err and "G(4, 2, 20)" in err
    assert main(["predict", str(small), "--model", model.path, "--format", "csv", "-n", "20"]) == 0
    captured = capsys.readouterr()
    frame = pd.read_csv(io.StringIO(captured.out))
    assert len(frame) == 1 and frame["n"].tolist() == [20]
    assert (
        captured.err == f"rumdiff predict: {small}: read as G(4, 2, 20) (no header: the "
        "default game, with the -k, -m or -n given)\n"
    )


BAD_FILES = {  # behind the model's header: line numbers count it
    "count": ("# G(4, 2, 20)\n2\n3\n1b 1g 1r\n", ":5: "),
    "tiles": ("# G(4, 2, 20)\n1\n4\n1b 1g 1r\n", ":4: "),
    "colour": ("# G(4, 2, 20)\n1\n3\n1b 1g 1x\n", ":4: "),
    "value": ("# G(4, 2, 20)\n1\n3\n1b 1g 21r\n", ":4: "),
    "copies": ("# G(4, 2, 20)\n1\n3\n1b 1b 1b\n", ":4: "),
    "number": ("# G(4, 2, 20)\none\n", ":2: "),
    "empty": ("", ""),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_cli_bad_input_is_one_line_and_writes_nothing(model, tmp_path, capsys, case):
    text, where = BAD_FILES[case]
    bad, out = tmp_path / "bad.in", tmp_path / "out.csv"
    bad.write_text(text)
    assert main(["predict", str(bad), "--model", model.path, "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"rumdiff predict: error: {bad}{where}")
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]


def test_cli_refuses_other_parameters_and_bad_models(model, puzzle_file, tmp_path, capsys):
    out = tmp_path / "out.csv"
    args = ["predict", str(puzzle_file), "--model", model.path, "-o", str(out)]
    assert main([*args, "-n", "25"]) == 1
    assert "n = 25 was given" in capsys.readouterr().err
    assert main(["predict", str(puzzle_file), "--model", str(tmp_path / "x.joblib")]) == 1
    assert "model file not found" in capsys.readouterr().err
    assert not out.exists()


def test_cli_missing_default_model_says_how_to_build_it(puzzle_file, monkeypatch, capsys):
    monkeypatch.setattr(config, "DEFAULT_MODEL", "models/no-such-model.joblib")
    assert main(["predict", str(puzzle_file)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no-such-model.joblib is missing" in error
    assert "rumdiff train" in error and "`make default-model`" in error
    monkeypatch.setitem(config.NAMED_MODELS, "thesis", "models/no-such-thesis.skops")
    assert main(["predict", str(puzzle_file), "--model", "thesis"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no-such-thesis.skops is missing" in error
    assert "`make thesis-model`" in error


def test_a_model_without_jokers_refuses_joker_puzzles_in_one_line(model, tmp_path, capsys):
    rack = tmp_path / "rack.in"  # jokers on the rack alone, in the model's family
    rack.write_text("# G(4, 2, 20)\n1\n4\n5b 6b 7b J\n")
    table = tmp_path / "table.in"
    table.write_text("# G(4, 2, 20)\n1\n4\n5b | 6b 7b 8b\n")
    for path in (rack, table):
        out = tmp_path / "out.csv"
        assert main(["predict", str(path), "--model", model.path, "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "jokers or a table" in err and "trained without" in err
        assert not out.exists()


def test_cli_takes_k_m_n_from_the_header_before_the_model(model, tmp_path, capsys):
    small = tmp_path / "small.in"
    small.write_text("#G(4,2,20)\n1\n3\n1b 1g 1r\n")
    assert main(["predict", str(small), "--model", model.path, "--format", "csv"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert len(frame) == 1 and frame[["k", "m", "n"]].values.tolist() == [[4, 2, 20]]
    assert main(["predict", str(small), "--model", model.path, "-n", "25"]) == 1
    assert capsys.readouterr().err == (
        f"rumdiff predict: error: {small}:1: header says n = 20 but n = 25 was given\n"
    )


@pytest.mark.parametrize("puzzles", ["1\n3\n1b 1g 1r\n", "0\n"])
@pytest.mark.parametrize("header", ["# G(4, 2, 13)", "# G(5, 2, 20)", "# G(4, 3, 20)"])
def test_cli_refuses_a_header_outside_the_model_in_one_line(
    model, tmp_path, capsys, header, puzzles
):
    path, out = tmp_path / "other.in", tmp_path / "out.csv"
    path.write_text(f"{header}\n{puzzles}")
    assert main(["predict", str(path), "--model", model.path, "-o", str(out)]) == 1
    captured = capsys.readouterr()
    k, m, n = header[4:-1].split(", ")
    assert captured.out == "" and captured.err == (
        f"rumdiff predict: error: {path}: puzzles are G({k}, {m}, {n}) but the model "
        f"{model.path} was trained on G(4, 2, 20)\n"
    )
    assert not out.exists()


def _shipped_model_usable(path) -> bool:
    """Whether a shipped model was saved with this scikit-learn (the oldest versions
    allowed cannot load it: the test above checks that they say so)."""
    import json

    import sklearn

    from rumdiff.learn.model import sidecar_path

    saved_with = json.loads(sidecar_path(path).read_text())["sklearn_version"]
    return saved_with.split(".")[:2] == sklearn.__version__.split(".")[:2]


def test_the_default_model_answers_for_every_family_the_issue_names(tmp_path, capsys):
    if not _shipped_model_usable(default_model_path()):
        pytest.skip("the shipped model was saved with another scikit-learn")
    from rumdiff.data.generator import generate
    from rumdiff.puzzle import write_puzzles

    examples = Path(__file__).parents[1] / "data" / "examples"
    g5360 = tmp_path / "g5-3-60.in"
    write_puzzles(g5360, generate(3, Family(Game(5, 3, 60), "simplex"), seed=1).puzzles,
                  header=True)  # fmt: skip
    cases = [
        ([str(examples / "turn.in"), "-n", "13"], (4, 2, 13), 1),  # a real-game turn
        ([str(g5360)], (5, 3, 60), 3),
        ([str(examples / "mixed-20.in")], (4, 2, 100), 20),
    ]
    for argv, family, count in cases:
        assert main(["predict", *argv, "--format", "csv"]) == 0
        frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
        assert len(frame) == count and (frame[["k", "m", "n"]] == list(family)).all(axis=None)
    outside = tmp_path / "g6-3-13.in"
    outside.write_text("# G(6, 3, 13)\n1\n3\n1b 2b 3b\n")
    assert main(["predict", str(outside)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "outside the scope" in error and "k * m <= 15" in error


@pytest.fixture(scope="module")
def shipped_model():
    """The default model, loaded once (skipped where another scikit-learn saved it)."""
    if not _shipped_model_usable(default_model_path()):
        pytest.skip("the shipped model was saved with another scikit-learn")
    from rumdiff.learn.model import load_model

    return load_model(default_model_path())


@pytest.mark.parametrize(
    "family",
    [
        Family(Game(4, 2, 100), "mixed"),
        Family(Game(4, 2, 13), "turn", jokers=2),
        Family(Game(3, 2, 50), "simplex"),
        Family(Game(5, 2, 50), "simplex", jokers=1),
    ],
)
def test_the_shipped_model_agrees_with_itself_on_puzzles_it_never_saw(family, shipped_model):
    # Seed 77: none of the training mix's (2301-2324; the thesis model's 400).
    from rumdiff.data.generator import generate

    frame = predict(shipped_model, generate(60, family, seed=77).puzzles)
    assert len(frame) == 60
    _assert_agrees(frame, shipped_model)


def test_a_table_is_never_easy(shipped_model):
    """The reference search runs its DP on every table, so no table puzzle is easy; the
    default model, which once gave a 5-tile table 0.66 easy, must not say so."""
    from rumdiff.puzzle import Puzzle, Puzzles

    model = shipped_model
    tiles = [(5, 0), (5, 1), (5, 2), (5, 3)]
    table = Puzzles.from_list([
        Puzzle.from_tiles([], k=5, m=2, n=13, table=[*tiles, "J"]),
        Puzzle.from_tiles([(1, 0)], k=5, m=2, n=13, table=tiles),
    ])  # fmt: skip
    plain = Puzzles.from_list([Puzzle.from_tiles(tiles, k=5, m=2, n=13)])
    for puzzles in (table, plain):
        frame = predict(model, puzzles)
        proba = frame[[f"p_{name}" for name in model.class_names]].to_numpy()
        assert np.allclose(proba.sum(axis=1), 1.0)
        if puzzles is table:
            assert (frame["p_easy"] == 0).all() and (frame["difficulty"] != "easy").all()
    # The same tiles as a rack alone are settled by the bounds: easy stays possible.
    assert frame["p_easy"].iloc[0] > 0.5


def test_model_thesis_names_the_shipped_model_of_the_thesis_family(capsys):
    from rumdiff.learn.prediction import model_path

    assert model_path("thesis") == default_model_path().with_name("thesis.skops")
    assert model_path("./thesis") == Path("./thesis")
    if not _shipped_model_usable(model_path("thesis")):
        pytest.skip("the shipped model was saved with another scikit-learn")
    examples = Path(__file__).parents[1] / "data" / "examples"
    assert main(["predict", str(examples / "mixed-20.in"), "--model", "thesis"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 21
    assert main(["predict", str(examples / "turn.in"), "-n", "13", "--model", "thesis"]) == 1
    assert "G(4, 2, 100)" in capsys.readouterr().err
