"""One model across families: several datasets, the scaled features, a scope (issue #23)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import TINY_GRID

from rumdiff import config
from rumdiff.cli import main
from rumdiff.data import Family
from rumdiff.puzzle import Game

#: Search thresholds that give every class some puzzles of the two tiny families.
THRESHOLDS = "300,3000"


@pytest.fixture(scope="module")
def families(tmp_path_factory):
    """Two tiny datasets of other families, G(3, 1, 13) and G(4, 2, 20) with a joker,
    and a model trained across them on the default model's grid."""
    from rumdiff.data import DatasetSpec, build_dataset

    folder = tmp_path_factory.mktemp("families")
    paths = [folder / "g3-1-13.parquet", folder / "g4-2-20-j1.parquet"]
    specs = [
        DatasetSpec(
            family=Family(Game(3, 1, 13), "simplex"), count=120, seed=5, feature_set="scaled"
        ),
        DatasetSpec(
            family=Family(Game(4, 2, 20), "simplex", jokers=1),
            count=120,
            seed=6,
            feature_set="scaled",
        ),  # fmt: skip
    ]
    for path, spec in zip(paths, specs, strict=True):
        build_dataset(path, spec, jobs=1)
    model = folder / "report" / "model.skops"
    argv = ["train", *map(str, paths), "--features", "scaled", "-o", str(folder / "report"),
            "--folds", "3", "--grid", "mix", "--jobs", "1", "-q",
            "--thresholds", THRESHOLDS]  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:  # the mix grid's choices, on tiny forests
        patch.setitem(config.TRAIN_GRIDS, "mix", {**TINY_GRID, "max_features": ("sqrt", 0.5)})
        assert main(argv) == 0
    return folder, paths, model


def test_the_model_records_its_scope_and_every_dataset(families):
    folder, paths, model = families
    side = json.loads(model.with_name(model.name + ".json").read_text())
    scope = side["scope"]
    assert (scope["k"], scope["m"], scope["n"], scope["jokers"]) == (
        [3, 4],
        [1, 2],
        [13, 20],
        [0, 1],
    )
    assert scope["copies_per_value"] == 8 and scope["table"] is False
    assert scope["families"] == {"G(3, 1, 13) simplex": 120, "G(4, 2, 20) j=1 simplex": 120}
    assert side["feature_set"] == "scaled" and side["thresholds"] == [300, 3000]
    # The mix grid searches how many features a split tries, and the sidecar says which won.
    assert side["grid"] == "mix" and side["params"]["max_features"] in ("sqrt", 0.5)
    report = (folder / "report" / "report.md").read_text()
    assert "| G(4, 2, 20) j=1 simplex | 120 | `" in report and "g4-2-20-j1.parquet" in report


def test_predict_answers_for_any_family_in_scope(families, tmp_path, capsys):
    _, _, model = families
    puzzles = tmp_path / "g4-1-15.in"  # a family the model never saw, inside its scope
    puzzles.write_text("# G(4, 1, 15)\n2\n6\n1b 2b 3b 4g 4r 4y\n3\n7b 8b 9b\n")
    assert main(["predict", str(puzzles), "--model", str(model), "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("puzzle,k,m,n,difficulty,")
    assert [line.split(",")[1:4] for line in lines[1:]] == [["4", "1", "15"]] * 2


@pytest.mark.parametrize(
    "header, why",
    [("# G(5, 2, 15)", "k 3-4"), ("# G(4, 2, 30)", "n 13-20"), ("# G(3, 3, 15)", "m 1-2")],
)
def test_predict_refuses_a_family_outside_the_scope_in_one_line(families, tmp_path, capsys,
                                                                 header, why):  # fmt: skip
    _, _, model = families
    puzzles = tmp_path / "outside.in"
    puzzles.write_text(f"{header}\n1\n3\n1b 2b 3b\n")
    assert main(["predict", str(puzzles), "--model", str(model)]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "outside the scope" in err and why in err


def test_two_jokers_or_a_table_are_outside_a_scope_of_one_rack_joker(families, tmp_path,
                                                                     capsys):  # fmt: skip
    _, _, model = families
    puzzles = tmp_path / "jokers.in"
    puzzles.write_text("# G(4, 2, 20)\n1\n5\n1b 2b 3b J J\n")
    assert main(["predict", str(puzzles), "--model", str(model)]) != 0
    assert "up to 2 jokers, outside the scope" in capsys.readouterr().err
    puzzles.write_text("# G(4, 2, 20)\n1\n4\n1b | 2b 3b 4b\n")  # no family had a table
    assert main(["predict", str(puzzles), "--model", str(model)]) != 0
    err = capsys.readouterr().err
    assert "with a table, outside the scope" in err and "no table" in err
    puzzles.write_text("# G(4, 2, 20)\n1\n3\n1b 2b | J\n")  # a joker alone on the table
    assert main(["predict", str(puzzles), "--model", str(model)]) != 0
    assert "with a table, outside the scope" in capsys.readouterr().err


def test_several_datasets_need_the_scaled_features(families, tmp_path, capsys):
    _, paths, _ = families
    argv = ["train", *map(str, paths), "-o", str(tmp_path / "out"), "-q"]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "--features scaled" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_the_model_loads_and_its_features_compare_across_families(families):
    from rumdiff.learn import load_model
    from rumdiff.puzzle import Puzzles

    _, _, model = families
    loaded = load_model(model)
    assert (
        loaded.covers(Game(4, 1, 15))
        and not loaded.covers(Game(5, 2, 15))
        and not loaded.covers(Game(4, 2, 20), 2)
    )
    rng = np.random.default_rng(0)
    for k, m, n in [(3, 2, 13), (4, 1, 20)]:
        puzzles = Puzzles(rng.integers(0, m + 1, size=(3, n, k)).astype(np.int8), m=m)
        assert loaded.predict_proba(puzzles).shape == (3, 4)


def test_a_dataset_without_scaled_columns_is_named_with_the_way_out(
    families, tmp_path, capsys, tiny_forests
):
    from rumdiff.data import DatasetSpec, build_dataset, refeaturise_dataset

    _, paths, _ = families
    plain = tmp_path / "g3-2-13.parquet"
    build_dataset(
        plain, DatasetSpec(family=Family(Game(3, 2, 13), "simplex"), count=60, seed=7), jobs=1
    )
    argv = ["train", str(paths[0]), str(plain), "--features", "scaled", "-o",
            str(tmp_path / "out"), "-q", "--folds", "3", "--thresholds", THRESHOLDS]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{plain}: the dataset lacks the scaled feature" in err
    assert "rumdiff generate --features scaled" in err
    refeaturise_dataset(plain, feature_set="scaled")  # features only, no solving
    assert main([*argv, "--jobs", "1"]) == 0


@pytest.mark.parametrize("tampered", [0, 1])
def test_tampered_features_are_refused_in_any_dataset(families, tmp_path, capsys, tampered):
    import shutil

    import pandas as pd

    _, paths, _ = families
    copies = []
    for index, path in enumerate(paths):
        copy = tmp_path / path.name
        shutil.copy(path, copy)
        shutil.copy(path.with_name(path.name + ".json"), copy.with_name(copy.name + ".json"))
        if index == tampered:  # features no longer those rumdiff computes for its puzzles
            frame = pd.read_parquet(copy)
            frame["run_states"] += 7
            frame.to_parquet(copy, index=False)
        copies.append(copy)
    argv = ["train", *map(str, copies), "--features", "scaled", "-o", str(tmp_path / "out"),
            "-q", "--folds", "3", "--jobs", "1", "--thresholds", THRESHOLDS]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(copies[tampered]) in err
    assert "feature 'run_states' of row 0" in err
