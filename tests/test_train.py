"""Tests for rumdiff.learn.training, rumdiff.report and ``rumdiff train``, on a tiny dataset."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from helpers import TINY_GRID, TINY_THRESHOLDS, read, train_tiny

from rumdiff import config
from rumdiff.cli import main

REPORT_FILES = (
    "classification_report.txt", "classification_report.json", "confusion_matrix.csv",
    "confusion_matrix_normalised.csv", "confusion_matrix.png", "feature_importance.csv",
    "feature_importance.png", "label_distribution.csv", "label_distribution.png",
    "cv_folds.csv", "grid_search.csv", "report.md", "model.skops", "model.skops.json",
    "errors_by_effort.csv", "errors_by_effort.png", "errors_by_bound.csv",
    "regression_folds.csv", "effort_scatter.png",
)  # fmt: skip


def _data(dataset, **options):
    from rumdiff.learn import training_data

    frame, metadata = read(dataset)
    return training_data(frame, metadata, source=str(dataset), **options)


def test_training_data_selects_features_and_labels(dataset):
    from rumdiff.features import feature_names

    frame, _ = read(dataset)
    data = _data(dataset, feature_set="thesis")
    assert data.feature_names == feature_names("thesis", k=4, m=2)
    assert data.X.shape == (len(frame), len(data.feature_names))
    assert (data.k, data.m, data.n) == (4, 2, 20)
    assert data.thresholds == list(TINY_THRESHOLDS)  # from the sidecar
    np.testing.assert_array_equal(data.y, frame["label"])
    other = _data(dataset, thresholds=(1_000, 2_000))
    assert other.thresholds == [1_000, 2_000]
    assert (other.y >= data.y).all() and (other.y != data.y).any()


def test_training_data_refuses_bad_input(dataset):
    from rumdiff.learn import training_data

    frame, metadata = read(dataset)
    with pytest.raises(ValueError, match="unknown feature set"):
        training_data(frame, metadata, feature_set="best")
    with pytest.raises(ValueError, match="lacks feature columns"):
        training_data(frame.drop(columns="bound_gap"), metadata)
    mixed = frame.copy()
    mixed.loc[0, "n"] = 21
    with pytest.raises(ValueError, match="differ in n"):
        training_data(mixed, metadata)
    with pytest.raises(ValueError, match="same search label"):
        training_data(frame[frame["label"] == 1], metadata)
    garbage = frame.copy()
    garbage.loc[len(frame) - 1, "tiles"] = np.nan  # the last row: every row is checked
    with pytest.raises(ValueError, match=f"'tiles' of row {len(frame) - 1} is nan"):
        training_data(garbage, metadata)
    for column, value in (("tiles", -3), ("pct_0_copies", 250)):  # finite, but no puzzle's
        garbage = frame.copy()
        garbage.loc[len(frame) - 2, column] = value
        with pytest.raises(ValueError, match=f"'{column}' of row {len(frame) - 2} is {value}"):
            training_data(garbage, metadata)


def test_fresh_features_are_checked_on_rows_from_the_whole_file(dataset, monkeypatch):
    from rumdiff import config
    from rumdiff.learn import check_features, training_data

    monkeypatch.setattr(config, "FEATURE_CHECK_ROWS", 5)
    frame, metadata = read(dataset)
    frame.loc[len(frame) - 1, "tiles"] += 1  # the last row is always among those checked
    with pytest.raises(ValueError, match=f"'tiles' of row {len(frame) - 1} .* rebuild"):
        check_features(training_data(frame, metadata))


def test_stale_feature_columns_are_refused(dataset):
    from rumdiff.learn import check_features, training_data

    frame, metadata = read(dataset)
    frame["tiles"] += 1
    with pytest.raises(ValueError, match="'tiles' of row 0 .* rebuild the dataset"):
        check_features(training_data(frame, metadata))


def test_folds_are_stratified_and_seeded(dataset):
    from rumdiff.learn.training import folds_of

    y = _data(dataset).y
    first, again, other = folds_of(y, 3, 5), folds_of(y, 3, 5), folds_of(y, 3, 6)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a[1], b[1]) for a, b in zip(first, other, strict=True))
    tests = np.sort(np.concatenate([test for _, test in first]))
    np.testing.assert_array_equal(tests, np.arange(len(y)))
    for _, test in first:  # each class split evenly
        share = np.bincount(y[test], minlength=5) / np.bincount(y, minlength=5).clip(1)
        assert np.all(np.abs(share[np.bincount(y, minlength=5) > 0] - 1 / 3) < 0.1)
    counts = np.bincount(y, minlength=5)[1:]
    rare = config.LABEL_NAMES[int(np.argmin(counts))]
    with pytest.raises(ValueError, match=f"class '{rare}' has only {counts.min()} rows"):
        folds_of(y, int(counts.min()) + 1, 0)


def test_train_is_reproducible_and_searches_a_stratified_subsample(dataset):

    data = _data(dataset)
    one = train_tiny(data, seed=1, search_rows=150)
    two = train_tiny(data, jobs=2, seed=1, search_rows=150)
    assert one.search_rows == 150
    assert one.best_params == two.best_params
    np.testing.assert_array_equal(one.y_pred, two.y_pred)
    # Threads may add the trees' votes in another order: equal to the last bit or two.
    np.testing.assert_allclose(one.proba, two.proba, rtol=0, atol=1e-12)
    assert len(one.search) == 2 and list(one.search["rank"]) == sorted(one.search["rank"])
    assert np.allclose(one.proba.sum(axis=1), 1)
    assert set(one.timings) >= {"search", "cross_validation", "final_fit", "importance"}
    np.testing.assert_allclose(one.regression.z_pred, two.regression.z_pred, rtol=0, atol=1e-12)
    scores = one.regression_metrics
    assert scores["spearman"] > 0.8 and 0 < scores["rmse"] < 1 and scores["r2"] > 0.5
    assert len(one.regression.fold_scores) == 3
    assert len(one.regression.pipeline.named_steps["forest"].estimators_) == 10
    assert list(one.importance.columns) == [
        "feature", "impurity", "impurity_std", "permutation", "permutation_std",
    ]  # fmt: skip
    assert one.importance["impurity"].sum() == pytest.approx(1)
    report = one.metrics
    assert set(report) >= {"accuracy", "easy", "moderate", "medium", "hard", "macro avg"}


def test_cli_train_writes_every_report_file(dataset, tmp_path, tiny_forests, capsys):
    out = tmp_path / "run"
    code = main(["train", str(dataset), "-o", str(out), "--folds", "3", "--jobs", "1"])
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES)
    printed = capsys.readouterr().out
    assert "3-fold CV, 39 all features: accuracy" in printed and "model:" in printed
    assert "difficulty score: Spearman" in printed and "regressor, 3-fold" in printed

    report = json.loads((out / "classification_report.json").read_text())
    assert 0 <= report["accuracy"] <= 1
    for name in ("easy", "moderate", "medium", "hard", "macro avg", "weighted avg"):
        assert set(report[name]) == {"precision", "recall", "f1-score", "support"}
    assert sum(report[name]["support"] for name in config.LABEL_NAMES) == 300
    counts = pd.read_csv(out / "confusion_matrix.csv", index_col=0)
    assert counts.shape == (4, 4) and counts.to_numpy().sum() == 300
    shares = pd.read_csv(out / "confusion_matrix_normalised.csv", index_col=0)
    np.testing.assert_allclose(shares.sum(axis=1), 1, atol=1e-3)
    importance = pd.read_csv(out / "feature_importance.csv")
    assert len(importance) == len(_data(dataset).feature_names)
    labels = pd.read_csv(out / "label_distribution.csv")
    assert labels["rows"].sum() == 300 and list(labels["class"]) == list(config.LABEL_NAMES)
    assert len(pd.read_csv(out / "cv_folds.csv")) == 3
    text = (out / "report.md").read_text(encoding="utf-8")
    for png in ("confusion_matrix.png", "feature_importance.png", "label_distribution.png",
                "effort_scatter.png"):  # fmt: skip
        assert f"]({png})" in text
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "tiny.parquet" in text and "thesis" in text
    # G(4, 2, 20) at the tiny dataset's cuts: nothing of the thesis's sits beside it.
    assert "No figure of the thesis compares with these" in text and "| thesis |" not in text
    assert "thesis_percent" not in labels and "make thesis-model" in text
    low, high = TINY_THRESHOLDS
    assert list(labels["from"]) == [0, 1, low, high]
    assert list(labels["below"].fillna(-1)) == [1, low, high, -1]
    assert "easy means settled by bounds" in text and "Without the easy class" in text
    assert "Out-of-fold predictions" in text and "Spearman's rho" in text
    assert len(pd.read_csv(out / "regression_folds.csv")) == 3
    sidecar = json.loads((out / "model.skops.json").read_text())
    assert sidecar["cv"]["folds"] == 3 and sidecar["cv"]["accuracy"] == report["accuracy"]
    assert sidecar["regressor_params"]["n_estimators"] == 10  # tiny_forests reached it
    assert set(sidecar["cv"]["effort"]) == {"spearman", "spearman_dp", "rmse", "rmse_dp", "r2"}
    from rumdiff.learn.model import file_sha256

    assert sidecar["training_data"]["sha256"] == file_sha256(dataset)


def test_cli_train_saves_the_model_in_its_outdir(dataset, tmp_path, tiny_forests):
    out = tmp_path / "run"
    args = ["train", str(dataset), "-o", str(out), "--folds", "3", "--jobs", "1"]
    assert main([*args, "--features", "thesis"]) == 0
    assert (out / "model.skops").is_file() and (out / "model.skops.json").is_file()
    assert (out / "report.md").is_file()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no staging left


@pytest.mark.parametrize("model", [["--model", "m.skops"], ["--model"]])
def test_cli_train_says_where_its_model_goes_instead_of_taking_model(
    model, dataset, tmp_path, capsys
):
    out = tmp_path / "run"
    assert main(["train", str(dataset), "-o", str(out), *model]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "writes its model to OUTDIR/model.skops" in err
    assert "(see rumdiff train --help)" in err and not out.exists()


def test_cli_train_compare_writes_one_table(dataset, tmp_path, tiny_forests, monkeypatch):
    import rumdiff.learn.compare
    import rumdiff.learn.training

    searched, tested = [], []
    search, cross_validate = rumdiff.learn.training.search, rumdiff.learn.compare.cross_validate

    def recording_search(data, grid, *, rows, **options):
        searched.append(rows)
        return search(data, grid, rows=rows, **options)

    def recording_cross_validate(data, params, splits, **options):
        tested.append([test.tolist() for _, test in splits])
        return cross_validate(data, params, splits, **options)

    monkeypatch.setattr(rumdiff.learn.training, "search", recording_search)
    monkeypatch.setattr(rumdiff.learn.compare, "cross_validate", recording_cross_validate)
    out = tmp_path / "run"
    args = ["train", str(dataset), "-o", str(out), "--folds", "3", "--jobs", "1", "--compare"]
    assert main([*args, "--search-rows", "120"]) == 0
    assert searched == [120, 120, 120]  # the run, then each compared set
    assert len(tested) == 2 and tested[0] == tested[1]  # the same folds
    table = pd.read_csv(out / "compare.csv")
    assert list(table["feature_set"]) == list(config.COMPARE_FEATURE_SETS)
    for column in ("accuracy_mean", "accuracy_std", "macro_f1_mean", "macro_f1_std"):
        assert table[column].between(0, 1).all()
    folds = pd.read_csv(out / "compare_folds.csv")
    gain = folds.pivot(index="fold", columns="feature_set", values="macro_f1")
    gain = gain["extended"] - gain["thesis"]
    assert table["macro_f1_gain_mean"].iloc[1] == pytest.approx(gain.mean(), abs=1e-5)
    assert "± " in (out / "compare.md").read_text(encoding="utf-8")
    assert "Feature sets side by side" in (out / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--folds", "200"], "rows, fewer than the 200 folds"),
        (["--thresholds", "5,1"], "increase strictly"),
    ],
)
def test_cli_train_bad_options(dataset, tmp_path, tiny_forests, capsys, args, message):
    out = tmp_path / "run"
    assert main(["train", str(dataset), "-o", str(out), "--jobs", "1", *args]) == 1
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1 and "Traceback" not in error
    assert not out.exists()


def test_cli_train_usage_errors_are_one_line(dataset, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", str(dataset), "-o", str(out), "--thresholds", "a,b"]) == 2
    error = capsys.readouterr().err
    assert error == (
        "rumdiff train: error: argument --thresholds: expected numbers separated by commas, "
        "got 'a,b' (see rumdiff train --help)\n"
    )


def test_cli_train_folds_below_2_are_a_usage_error(dataset, tmp_path, capsys):
    assert main(["train", str(dataset), "-o", str(tmp_path / "run"), "--folds", "1"]) == 2
    error = capsys.readouterr().err
    assert "--folds: must be a whole number in 2..1000, got 1" in error
    assert error.count("\n") == 1


def test_cli_train_bad_dataset(tmp_path, capsys, dataset):
    out = tmp_path / "run"
    missing = tmp_path / "missing.parquet"
    assert main(["train", str(missing), "-o", str(out)]) == 1
    assert f"{missing}: dataset file not found" in capsys.readouterr().err
    broken = tmp_path / "broken.parquet"
    frame, _ = read(dataset)
    frame.drop(columns=["runs_only"]).to_parquet(broken)
    assert main(["train", str(broken), "-o", str(out)]) == 1
    error = capsys.readouterr().err
    assert str(broken) in error and "runs_only" in error and error.count("\n") == 1
    assert not out.exists()


def test_per_tree_sample_cap(dataset, monkeypatch):
    from rumdiff.learn.training import fit_forest, with_sample_cap

    monkeypatch.setitem(config.TRAIN_MAX_SAMPLES, "default", 100)
    assert with_sample_cap({"n_estimators": 5}, "default") == {
        "n_estimators": 5,
        "max_samples": 100,
    }
    assert with_sample_cap({"n_estimators": 5}, TINY_GRID) == {"n_estimators": 5}
    data = _data(dataset)
    capped = fit_forest({"n_estimators": 3, "max_samples": 100}, data.X, data.y)
    assert capped.named_steps["forest"].max_samples == 100
    everything = fit_forest({"n_estimators": 3, "max_samples": 1000}, data.X, data.y)
    assert everything.named_steps["forest"].max_samples is None  # more than the rows


def test_errors_by_effort_cover_every_row(dataset):
    from rumdiff.report.errors import errors_by_bound, errors_by_effort, near_thresholds

    result = train_tiny(_data(dataset), seed=config.SEED)
    table = errors_by_effort(result)
    assert table["rows"].sum() == 300
    assert table["errors"].sum() == (result.y_pred != result.data.y).sum()
    near = near_thresholds(result)
    assert 0 <= near["share_of_rows_near"] <= 1 and 0 <= near["share_of_errors_near"] <= 1
    frame, _ = read(dataset)
    below = (frame["score"] < frame["upper"]).to_numpy()
    np.testing.assert_array_equal(result.data.below_upper, below)
    by_bound = errors_by_bound(result)
    assert by_bound["rows"].sum() == 300
    right = result.y_pred == result.data.y
    hard_below = by_bound.set_index(["class", "optimum"]).loc[("hard", "below it")]
    chosen = (result.data.y == 4) & below
    assert hard_below["rows"] == chosen.sum() > 0
    assert hard_below["recall"] == pytest.approx(right[chosen].mean())


def test_cli_train_by_time_with_absent_classes(dataset, tmp_path, tiny_forests):
    frame, _ = read(dataset)
    # Thresholds that leave 'hard' empty: the model knows three classes, predicts four.
    low, high = (float(q) for q in np.quantile(frame["solver_seconds"], [0.3, 0.6]))
    top = float(frame["solver_seconds"].max() * 10)
    out = tmp_path / "run"
    args = ["train", str(dataset), "-o", str(out), "--folds", "3", "--jobs", "1"]
    assert main([*args, "--label-by", "time", "--thresholds", f"{low!r},{high!r},{top!r}"]) == 0
    sidecar = json.loads((out / "model.skops.json").read_text())
    assert sidecar["label_by"] == "time" and sidecar["thresholds"][2] == top
    assert sidecar["training_data"]["label_counts"]["hard"] == 0
    counts = pd.read_csv(out / "confusion_matrix.csv", index_col=0)
    assert counts.loc["true hard"].sum() == 0 and counts.to_numpy().sum() == 300
    from rumdiff.learn.model import load_model

    model = load_model(out / "model.skops")
    proba = model.predict_proba(_puzzles_like(frame))
    assert proba.shape[1] == 4 and (proba[:, 3] == 0).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1)


def _puzzles_like(frame):
    from rumdiff.puzzle import Puzzles, decode_puzzles

    return Puzzles(decode_puzzles(frame["puzzle"].iloc[:20].tolist(), 4, 20, m=2), m=2)


def test_solver_labels_are_named_in_the_report_and_the_model(dataset, tmp_path, tiny_forests):
    frame, _ = read(dataset)
    dp = frame.loc[frame["method"] == "dp", "solver_transitions"]
    low, high = (int(q) for q in dp.quantile([1 / 3, 2 / 3]))
    out = tmp_path / "run"
    args = ["train", str(dataset), "-o", str(out), "--folds", "3", "--jobs", "1"]
    assert main([*args, "--label-by", "solver", "--thresholds", f"{low},{high}"]) == 0
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "300 puzzles G(4, 2, 20), solver labels" in text
    assert "transitions of rumdiff's fast solver" in text
    sidecar = json.loads((out / "model.skops.json").read_text())
    assert sidecar["label_by"] == "solver" and sidecar["thresholds"] == [low, high]
    assert sidecar["beam_width"] == config.BEAM_WIDTH
    assert sidecar["effort"] == "solver_transitions"


@pytest.fixture(scope="module")
def tiny_result(dataset):

    return train_tiny(_data(dataset), seed=config.SEED)


def _as_thesis(result, **changes):
    """``result`` as if its data were the thesis's kind: G(4, 2, 100) in the thesis's mix,
    search labels at that family's terciles (then ``changes``)."""
    import dataclasses

    changes = {"n": 100, "thresholds": list(config.THESIS_LABELS["search"]), **changes}
    data = dataclasses.replace(result.data, **changes)
    return dataclasses.replace(result, data=data)


def test_only_the_thesis_kind_of_labels_sits_beside_the_thesis(tiny_result):
    from rumdiff.report import sections
    from rumdiff.report.tables import label_distribution, thesis_comparable

    assert not thesis_comparable(tiny_result.data)  # n = 20, its own cuts
    like = _as_thesis(tiny_result)
    assert thesis_comparable(like.data)
    text = "".join(sections.results_section(like))
    assert "| accuracy |" in text and "Beside the thesis" in text
    table = label_distribution(like)
    assert list(table["thesis_percent"]) == [25.9, 17.4, 28.0, 28.7]
    assert "come from its time labels" in "".join(sections.labels_section(like.data, table))
    time_labels = _as_thesis(tiny_result, label_by="time", thresholds=[0.0001, 0.1, 1.0])
    assert thesis_comparable(time_labels.data)
    metadata = {**like.data.metadata, "parameters": {"mode": "simplex"}}
    for unlike in (
        _as_thesis(tiny_result, thresholds=list(config.LABEL_THRESHOLDS["search"])),
        _as_thesis(tiny_result, jokers=True),
        _as_thesis(tiny_result, metadata=metadata),
        _as_thesis(tiny_result, label_by="solver"),
    ):
        assert not thesis_comparable(unlike.data)
        assert "No figure of the thesis compares" in "".join(sections.results_section(unlike))
        assert "thesis_percent" not in label_distribution(unlike)


def test_the_class_chart_names_each_class_and_its_cut(tiny_result):
    from rumdiff.report import figures
    from rumdiff.report.tables import class_cuts, label_distribution

    low, high = TINY_THRESHOLDS
    cuts = class_cuts("search", (low, high))
    assert cuts == ["0: bounds settle it", f"1 - {low - 1:,}", f"{low:,} - {high - 1:,}",
                    f">= {high:,}"]  # fmt: skip
    assert class_cuts("time", (0.0001, 0.1, 1)) == [
        "0 s to < 0.0001 s", "0.0001 s to < 0.1 s", "0.1 s to < 1 s", ">= 1 s"
    ]  # fmt: skip
    table = label_distribution(tiny_result)
    figure = figures.distribution_figure(table, cuts, "search_transitions", "tiny")
    ticks = [tick.get_text() for tick in figure.axes[0].get_xticklabels()]
    names = config.LABEL_NAMES
    assert ticks == [f"{name}\n{cut}" for name, cut in zip(names, cuts, strict=True)]
    assert len(figure.axes[0].containers) == 1  # this dataset's bars alone
