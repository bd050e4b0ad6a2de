"""Training and prediction on puzzles with jokers and a table (issue #22)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import read, train_tiny

from rumdiff.cli import main
from rumdiff.data import Family
from rumdiff.puzzle import Game

TURN = Path(__file__).resolve().parents[1] / "data" / "examples" / "turn.in"


@pytest.fixture(scope="module")
def joker_model(tmp_path_factory):
    """A tiny model trained on 150 real-game turns of G(4, 2, 13) with two jokers."""
    from rumdiff.data import DatasetSpec, build_dataset
    from rumdiff.data.labels import tercile_thresholds
    from rumdiff.learn import build_model, save_model, training_data

    folder = tmp_path_factory.mktemp("jokers")
    path = folder / "turns.parquet"
    spec = DatasetSpec(family=Family(Game(n=13), "turn", jokers=2), count=150, seed=4)
    build_dataset(path, spec, jobs=1)
    frame, metadata = read(path)
    thresholds = tercile_thresholds(frame["search_transitions"])
    data = training_data(frame, metadata, feature_set="all", thresholds=thresholds)
    result = train_tiny(data)
    return save_model(build_model(result), folder / "model.skops"), data


def test_a_joker_dataset_trains_on_the_joker_features(joker_model):
    from rumdiff.features import JOKER_FEATURES

    model, data = joker_model
    assert data.jokers and model.jokers and model.metadata["jokers"] is True
    assert set(JOKER_FEATURES) <= set(data.feature_names)
    assert data.feature_names == model.metadata["feature_names"]


def test_the_joker_model_loads_and_predicts_turns_and_plain_puzzles(joker_model, capsys):
    from rumdiff.learn import load_model
    from rumdiff.learn.prediction import predict
    from rumdiff.puzzle import read_puzzles

    model, _ = joker_model
    loaded = load_model(model.path)  # the features' fingerprint includes the joker columns
    frame = predict(loaded, read_puzzles(TURN, n=13))
    assert len(frame) == 1
    np.testing.assert_allclose(frame.filter(like="p_").sum(axis=1), 1)
    assert main(["predict", str(TURN), "--model", model.path, "--format", "csv"]) == 0
    assert capsys.readouterr().out.count("\n") == 2  # header and one row


def test_the_joker_model_takes_puzzles_without_jokers_too(joker_model, tmp_path, capsys):
    model, _ = joker_model
    plain = tmp_path / "plain.in"
    plain.write_text("# G(4, 2, 13)\n1\n4\n1b 1g 1r 2b\n")
    assert main(["predict", str(plain), "--model", model.path, "--format", "csv"]) == 0
    assert capsys.readouterr().out.count("\n") == 2


@pytest.fixture(scope="module")
def rack_joker_model(tmp_path_factory):
    """A tiny model of G(4, 2, 13) puzzles with one rack joker each, and no table."""
    from rumdiff.data import DatasetSpec, build_dataset
    from rumdiff.data.labels import tercile_thresholds
    from rumdiff.learn import build_model, save_model, training_data

    folder = tmp_path_factory.mktemp("rack-jokers")
    path = folder / "rack.parquet"
    build_dataset(
        path, DatasetSpec(family=Family(Game(n=13), "simplex", jokers=1), count=150, seed=5), jobs=1
    )
    frame, metadata = read(path)
    thresholds = tercile_thresholds(frame["search_transitions"])
    data = training_data(frame, metadata, feature_set="all", thresholds=thresholds)
    result = train_tiny(data)
    return save_model(build_model(result), folder / "model.skops")


@pytest.mark.parametrize(
    "puzzle, problem",
    [
        ("1b 2b 3b J J", "with up to 2 jokers, but the model .* was trained on at most 1 "
                         "jokers and no table"),
        ("1b 2b | 3b J", "with up to 1 jokers with a table, but the model .* at most 1 jokers "
                         "and no table"),
    ],
)  # fmt: skip
def test_a_one_family_joker_model_refuses_jokers_and_tables_it_never_saw(
    rack_joker_model, tmp_path, capsys, puzzle, problem
):
    import re

    from rumdiff.learn import load_model

    model = load_model(rack_joker_model.path)
    assert (model.metadata["most_jokers"], model.metadata["table"]) == (1, False)
    seen, unseen = tmp_path / "seen.in", tmp_path / "unseen.in"
    seen.write_text("# G(4, 2, 13)\n1\n4\n1b 2b 3b J\n")  # what it was trained on
    assert main(["predict", str(seen), "--model", model.path]) == 0
    count = len(puzzle.replace("|", "").split())
    unseen.write_text(f"# G(4, 2, 13)\n1\n{count}\n{puzzle}\n")
    capsys.readouterr()
    assert main(["predict", str(unseen), "--model", model.path]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(problem, err), err


def test_a_turn_model_refuses_more_jokers_than_its_game_had(joker_model, tmp_path, capsys):
    model, _ = joker_model
    assert (model.metadata["most_jokers"], model.metadata["table"]) == (2, True)
    file = tmp_path / "p.in"
    file.write_text("# G(4, 2, 13)\n1\n7\n1b 2b | 3b J J J J\n")
    assert main(["predict", str(file), "--model", model.path]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "with up to 4 jokers with a table" in err
    assert "trained on at most 2 jokers with a table" in err
