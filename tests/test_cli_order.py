"""``rumdiff generate --difficulty/--effort``: outputs, seeds, the filter, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache

import pytest

from rumdiff import config
from rumdiff.cli import main
from rumdiff.learn import default_model_path
from rumdiff.puzzle import read_puzzles
from rumdiff.solve import search_effort

SMALL = ["-n", "13", "--seed", "3", "-q"]
#: A range G(4, 2, 13) reaches often.
RANGE = "10000:300000"


def _efforts(path) -> list[int]:
    return [search_effort(puzzle).transitions for puzzle in read_puzzles(path)]


def test_writes_puzzles_solutions_and_sidecar(tmp_path, capsys):
    out = tmp_path / "order.in"
    assert main(["generate", str(out), "--effort", RANGE, "--count", "3", *SMALL]) == 0
    assert out.read_text().startswith("# G(4, 2, 13)\n3\n")
    assert all(10_000 <= e < 300_000 for e in _efforts(out))
    shown = tmp_path / "shown.txt"  # the solutions are what rumdiff solve --show prints
    assert main(["solve", str(out), "--show", "-o", str(shown)]) == 0
    assert (tmp_path / "order.in.solutions").read_text() == shown.read_text()
    side = json.loads((tmp_path / "order.in.json").read_text())
    counts = side["counts"]
    assert counts["accepted"] == 3 and side["efforts"] == _efforts(out)
    assert counts["acceptance_rate"] == 3 / counts["candidates_needed"]
    # The default model spans G(4, 2, 13), but three puzzles need far less searching than
    # loading it costs: it is never loaded, and every candidate is searched (unless it
    # cannot be used here at all: saved with another scikit-learn, as under the oldest
    # versions allowed).
    assert counts["candidates_searched"] == counts["candidates_drawn"]
    assert side["filter"]["used"] is False
    reason = side["filter"]["reason"]
    assert reason.startswith(("the search still ahead never reached", "the default model cannot"))
    assert reason.startswith("the search still ahead") == _default_model_loads()
    assert side["order"]["effort"] == [10_000, 300_000] and side["seed"] == 3
    for key in ("versions", "git_commit", "wall_seconds", "command", "parameters"):
        assert key in side


def test_random_racks_of_the_game_say_what_hard_measures_and_point_to_turns(tmp_path, capsys):
    out = tmp_path / "racks.in"
    argv = ["generate", str(out), "--effort", RANGE, "--count", "1", "-n", "13", "--seed", "3"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "not turns of the game" in err and "draw turns (--mode turn)" in err
    measure = json.loads((tmp_path / "racks.in.json").read_text())["order"]["classes_measure"]
    assert "reference search" in measure and "one scale for every family" in measure
    assert "--mode turn" in measure
    turns = ["generate", str(tmp_path / "turns.in"), "--effort", "1:", "--count", "1",
             "--mode", "turn", "-n", "13", "--seed", "3"]  # fmt: skip
    assert main(turns) == 0
    assert "note" not in capsys.readouterr().err  # turns are the game's puzzles


@pytest.mark.parametrize("mode", ["turn", "simplex"])
def test_the_header_names_the_jokers_of_the_candidates(tmp_path, mode):
    out = tmp_path / "order.in"
    argv = ["generate", str(out), "--effort", "1:", "--count", "2", "--mode", mode,
            "--jokers", "2", "--no-filter", "--jobs", "1", *SMALL]  # fmt: skip
    assert main(argv) == 0
    assert out.read_text().startswith("# G(4, 2, 13) j=2\n2\n")
    read = read_puzzles(out)
    assert read.game.jokers == 2 and (read.jokers > 0).any()
    side = json.loads((tmp_path / "order.in.json").read_text())
    assert side["parameters"]["jokers"] == 2 and side["efforts"] == _efforts(out)


def test_difficulty_help_says_what_the_classes_measure(capsys):
    assert main(["generate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    low, high = config.LABEL_THRESHOLDS["search"]
    assert f"moderate < {low:,} <= medium < {high:,} <= hard transitions" in text
    assert "one scale for every family" in text and "--mode turn" in text
    assert f"({low:,},{high:,})" not in text  # a list of numbers with separators misreads


def test_same_file_with_one_or_two_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "SPAWN_SECONDS", 0.0)  # workers from the first block
    texts = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.in"
        argv = ["generate", str(out), "--effort", RANGE, "--count", "4", "--jobs", jobs]
        assert main([*argv, *SMALL]) == 0
        side = json.loads((tmp_path / f"jobs{jobs}.in.json").read_text())
        texts.append((out.read_text(), side["counts"], side["efforts"]))
    assert texts[0] == texts[1]


def test_unreachable_class_is_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "hard.in"
    argv = ["generate", str(out), "--difficulty", "hard", "--max-candidates", "100", *SMALL]
    assert main([*argv, "-k", "3", "-m", "1", "--no-filter"]) == 1  # needs a few thousand
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    t2 = config.LABEL_THRESHOLDS["search"][1]
    assert f"no puzzle of G(3, 1, 13) reached the hard class's {t2:,} transitions" in err
    assert "among 100 candidates" in err and "highest effort seen:" in err
    assert list(tmp_path.iterdir()) == []


@cache
def _default_model_loads() -> bool:
    # Asked when a test runs, not when the file is collected: every test process collects
    # every file, and loading the model takes seconds.
    from rumdiff.learn import ModelError
    from rumdiff.learn.model import load_model

    try:
        load_model(default_model_path())
    except ModelError:  # missing, or saved with another scikit-learn
        return False
    return True


@pytest.fixture
def loadable_default_model():
    """Skip unless the default model loads here (it is saved with one scikit-learn)."""
    if not _default_model_loads():
        pytest.skip("needs a default model this can load")


def test_a_small_order_never_imports_scikit_learn(tmp_path):
    # Importing scikit-learn and loading the model take seconds, more than the searches
    # the filter could save for a few puzzles: the order decides from its counts alone.
    out = tmp_path / "order.in"
    code = (
        "import sys\n"
        "from rumdiff.cli import main\n"
        f"argv = ['generate', {str(out)!r}, '--effort', {RANGE!r}, '--count', '3']\n"
        f"assert main([*argv, {', '.join(map(repr, SMALL))}]) == 0\n"
        "print('sklearn' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split()[-1:] == ["False"], done.stderr
    side = json.loads((tmp_path / "order.in.json").read_text())
    assert side["filter"]["used"] is False and side["counts"]["accepted"] == 3


@pytest.mark.parametrize("sidecar", [False, True])
def test_a_default_model_that_cannot_be_used_leaves_the_order_unfiltered(
    tmp_path, monkeypatch, capsys, sidecar
):
    # Without a sidecar the order knows before any search; with the shipped model's
    # sidecar beside a damaged file it finds out only when it loads the model, here
    # before the first block, and goes on unfiltered.
    broken = tmp_path / "broken.skops"
    broken.write_bytes(b"not a model")
    if sidecar:
        shipped = default_model_path()
        (tmp_path / "broken.skops.json").write_bytes(
            shipped.with_name(shipped.name + ".json").read_bytes()
        )
    monkeypatch.setattr(config, "DEFAULT_MODEL", str(broken))
    monkeypatch.setattr(config, "ORDER_SCREEN_WORK", 0)  # loaded before the first block
    out = tmp_path / "order.in"
    argv = ["generate", str(out), "--effort", RANGE, "--count", "2", "-n", "100", "-q"]
    assert main([*argv, "--seed", "3", "--max-candidates", "400"]) == 0
    side = json.loads((tmp_path / "order.in.json").read_text())
    assert side["filter"]["used"] is False
    assert side["filter"]["reason"].startswith("the default model cannot be used")
    assert all(10_000 <= e < 300_000 for e in _efforts(out))
    # A model the user names is theirs to see fail.
    capsys.readouterr()
    assert main([*argv, "--model", str(broken)]) == 1
    assert str(broken) in capsys.readouterr().err


@pytest.mark.usefixtures("loadable_default_model")
def test_the_filter_searches_fewer_and_never_changes_the_check(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "ORDER_SCREEN_WORK", 0)  # loaded before the first block
    sides = {}
    for name, extra in (("filtered", []), ("unfiltered", ["--no-filter"])):
        out = tmp_path / f"{name}.in"
        argv = ["generate", str(out), "--difficulty", "hard", "--count", "3", "--seed", "1"]
        assert main([*argv, "-q", "--jobs", "1", *extra]) == 0
        t2 = config.LABEL_THRESHOLDS["search"][1]
        assert all(e >= t2 for e in _efforts(out))
        sides[name] = json.loads((tmp_path / f"{name}.in.json").read_text())
    filtered, unfiltered = sides["filtered"], sides["unfiltered"]
    assert filtered["filter"]["used"] and filtered["filter"]["probability"] > 0
    assert filtered["filter"]["from_candidate"] == 0
    assert unfiltered["filter"] == {"used": False, "reason": "--no-filter"}
    assert filtered["counts"]["candidates_searched"] < unfiltered["counts"]["candidates_searched"]


@pytest.mark.usefixtures("loadable_default_model")
def test_a_default_model_of_another_measure_is_refused_from_its_sidecar(tmp_path, monkeypatch):
    # Its sidecar says what it predicts: an order never loads a model that cannot screen.
    shipped = default_model_path()
    side = json.loads(shipped.with_name(shipped.name + ".json").read_text())
    side["label_by"] = "solver"
    (tmp_path / "other.skops").write_bytes(b"never read")
    (tmp_path / "other.skops.json").write_text(json.dumps(side))
    monkeypatch.setattr(config, "DEFAULT_MODEL", str(tmp_path / "other.skops"))
    out = tmp_path / "order.in"
    argv = ["generate", str(out), "--effort", RANGE, "--count", "2", *SMALL]
    assert main(argv) == 0
    filtered = json.loads((tmp_path / "order.in.json").read_text())["filter"]
    assert filtered == {
        "used": False,
        "reason": f"the model {tmp_path / 'other.skops'} predicts the solver measure, not the "
        "search effort",
    }


@pytest.mark.usefixtures("loadable_default_model")
def test_the_default_model_is_loaded_mid_order_once_it_pays(tmp_path, monkeypatch):
    # A screen_work of one transition: the first block runs unfiltered (nothing is known
    # yet), the model screens from the second. The same order unfiltered finds the same
    # first puzzles in range up to where screening began.
    monkeypatch.setattr(config, "ORDER_SCREEN_WORK", 1)
    argv = ["--effort", "500000:", "--count", "5", "-n", "13", "--seed", "3", "-q"]
    assert main(["generate", str(tmp_path / "mid.in"), *argv]) == 0
    side = json.loads((tmp_path / "mid.in.json").read_text())
    assert side["filter"]["used"] and side["filter"]["from_candidate"] == 32
    counts = side["counts"]
    assert counts["candidates_searched"] < counts["candidates_drawn"]
    assert all(e >= 500_000 for e in _efforts(tmp_path / "mid.in"))
    assert main(["generate", str(tmp_path / "all.in"), *argv, "--no-filter"]) == 0
    unfiltered = json.loads((tmp_path / "all.in.json").read_text())["candidate_ids"]
    early = [i for i in side["candidate_ids"] if i < 32]
    assert early == [i for i in unfiltered if i < 32]


@pytest.mark.parametrize(
    "options, message",
    [
        (["--difficulty", "hard", "--effort", "1:2"], "not allowed with"),
        (["--difficulty", "hard", "--relabel", "x.parquet"], "--relabel"),
        (["--difficulty", "hard", "--resume"], "--resume"),
        (["--difficulty", "hard", "--thresholds", "1,2"], "--effort LOW:HIGH"),
        (["--difficulty", "hard", "--label-by", "time"], "--effort LOW:HIGH"),
        (["--difficulty", "hard", "--scheduler", "tcp://h:1"], "--scheduler"),
        (["--difficulty", "hard", "--features", "scaled"], "--features would be ignored"),
        (["--effort", "1:5", "--chunk-size", "7"], "--chunk-size would be ignored"),
        (
            ["--difficulty", "hard", "--solvers", "dp", "--beam-width", "8"],
            "--solvers and --beam-width would",
        ),  # fmt: skip
        (["--difficulty", "hard", "--count", "5", "--max-candidates", "4"], "--max-candidates"),
        (["--difficulty", "harder"], "invalid choice"),
        (["--effort", "5:3"], "empty"),
        (["--effort", "5"], "LOW:HIGH"),
        (["--effort", "a:b"], "LOW:HIGH"),
        (["--effort", "-1:5"], "effort"),
        (["--difficulty", "hard", "--max-candidates", "0"], "--max-candidates"),
        (["--model", "nosuch.skops"], "--model applies to puzzles made to order: give"),
        (["--no-filter", "--count", "3"], "--no-filter applies to puzzles made to order"),
    ],
)
def test_argument_errors_are_one_line(tmp_path, capsys, options, message):
    out = tmp_path / "x.in"
    code = main(["generate", str(out), *options, "-n", "13"])
    assert code in (1, 2)
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_model_filters_its_own_family_only(tmp_path, trained):
    model, _ = trained  # G(4, 2, 20), thresholds of its own (tests/helpers.py)
    for n, used in (("20", True), ("13", False)):
        out = tmp_path / f"n{n}.in"
        argv = ["generate", str(out), "--effort", "1000:100000", "--count", "3", "-n", n]
        assert main([*argv, "--seed", "2", "-q", "--model", model.path]) == 0
        assert all(1_000 <= e < 100_000 for e in _efforts(out))
        side = json.loads((tmp_path / f"n{n}.in.json").read_text())
        assert side["filter"]["used"] is used
        if used:  # a model given is used from the first block
            assert side["filter"]["margin"] == config.ORDER_MARGIN
            assert side["filter"]["model"] == model.path
            assert side["filter"]["from_candidate"] == 0
        else:
            assert "G(4, 2, 20)" in side["filter"]["reason"]
