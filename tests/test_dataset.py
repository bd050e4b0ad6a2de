"""Tests for rumdiff.data, rumdiff.data.io, rumdiff.cli.progress and ``rumdiff generate``."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from helpers import assert_fresh_features

from rumdiff import __version__, config
from rumdiff.cli import main
from rumdiff.cli.progress import ProgressBar, format_duration
from rumdiff.data import (
    DatasetError,
    DatasetSpec,
    Family,
    build_dataset,
    dataset_columns,
    metadata_path,
    read_dataset,
    read_metadata,
    read_sidecar,
    work_dir,
    write_dataset,
)
from rumdiff.data.batch import solve_batch
from rumdiff.data.generator import generate
from rumdiff.data.labels import class_counts, compute_labels
from rumdiff.puzzle import Game, Puzzle, decode_puzzles, read_puzzles
from rumdiff.solve import search_effort, solve

COUNT, CHUNK, SEED = 60, 20, 3
SPEC = DatasetSpec(count=COUNT, chunk_size=CHUNK, seed=SEED, feature_set="none")
CLI_PARAMS = ["--count", str(COUNT), "--chunk-size", str(CHUNK), "--seed", str(SEED)]
CLI_PARAMS += ["--features", "none", "--quiet"]


def _rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Everything but the seconds, which vary from run to run."""
    return frame.drop(columns=[c for c in frame.columns if c.endswith("seconds")])


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def one_go(tmp_path_factory):
    """A dataset made in one go, in one process: (path, metadata, frame)."""
    path = tmp_path_factory.mktemp("one") / "data.parquet"
    metadata = build_dataset(path, SPEC, jobs=1, command=["rumdiff", "generate", "x"])
    return path, metadata, read_dataset(path)


def test_rows_hold_the_generated_puzzles_and_their_solutions(one_go):
    path, _, frame = one_go
    assert list(frame.columns) == dataset_columns(config.M, [])
    assert "search_transitions" in frame.columns and "solver_transitions" not in frame.columns
    assert frame["id"].tolist() == list(range(COUNT))
    generated = generate(COUNT, seed=SEED)
    copies = decode_puzzles(frame["puzzle"], config.K, config.N)
    assert np.array_equal(copies, generated.puzzles.copies)
    assert np.array_equal(frame["regime"], generated.regime)
    assert np.array_equal(frame[["p0", "p1", "p2"]].to_numpy(), generated.probabilities)
    assert (frame["k"] == 4).all() and (frame["m"] == 2).all() and (frame["n"] == 100).all()
    assert (frame["mode"] == "mixed").all()
    for i in (0, 7, 33):
        effort = search_effort(Puzzle(copies[i], m=2))
        row = frame.iloc[i]
        assert (row["score"], row["lower"], row["upper"]) == (
            effort.score, effort.lower, effort.upper
        )  # fmt: skip
        assert (row["search_states"], row["search_transitions"], row["method"]) == (
            effort.states, effort.transitions, effort.method
        )  # fmt: skip
    assert (frame["search_seconds"] > 0).all()
    assert (frame["lower"] <= frame["score"]).all() and (frame["score"] <= frame["upper"]).all()
    assert np.array_equal(frame["label"], compute_labels(frame))
    assert not work_dir(path).exists()
    assert _leftovers(path.parent) == []


def test_metadata_records_how_the_dataset_was_made(one_go):
    path, metadata, frame = one_go
    assert read_metadata(metadata_path(path)) == json.loads(json.dumps(metadata))
    assert metadata["command"] == ["rumdiff", "generate", "x"]
    assert metadata["seed"] == SEED
    assert metadata["parameters"] == {
        "count": COUNT, "k": 4, "m": 2, "n": 100, "mode": "mixed", "seed": SEED,
        "percentages": None, "regime_weights": list(config.REGIME_WEIGHTS), "repeats": 1,
        "feature_set": "none", "chunk_size": CHUNK, "beam_width": config.BEAM_WIDTH,
        "solvers": ["search"], "jokers": 0,
    }  # fmt: skip
    assert metadata["rumdiff_version"] == __version__
    commit = metadata["git_commit"]
    assert commit is None or re.fullmatch(r"[0-9a-f]{40}", commit)
    assert metadata["rows"] == COUNT == sum(metadata["class_counts"].values())
    assert metadata["class_counts"] == class_counts(frame["label"])
    assert metadata["label"] == {
        "measure": "search",
        "thresholds": list(config.LABEL_THRESHOLDS["search"]),
        "names": list(config.LABEL_NAMES),
    }
    assert metadata["wall_seconds"] > 0 and metadata["solve_seconds"]["search"] > 0
    assert metadata["duplicates_redrawn"] == 0
    assert metadata["file"] == "data.parquet" and metadata["file_format"] == "parquet"
    assert list(metadata["columns"]) == list(frame.columns)
    assert [s["puzzles_solved"] for s in metadata["sessions"]] == [COUNT]
    assert metadata["sessions"][0]["jobs"] == 1


def test_csv_and_parquet_read_back_alike(one_go, tmp_path):
    _, _, frame = one_go
    path = tmp_path / "data.csv"
    build_dataset(path, SPEC, jobs=1)
    pd.testing.assert_frame_equal(_rows(read_dataset(path)), _rows(frame))
    # Exact round trips, floats bit for bit, in both formats.
    for name in ("copy.csv", "copy.parquet", "copy.pq"):
        write_dataset(frame, tmp_path / name, {"note": 1})
        pd.testing.assert_frame_equal(read_dataset(tmp_path / name), frame)
        assert read_metadata(metadata_path(tmp_path / name))["note"] == 1
    # Without its sidecar a dataset still reads with the standard dtypes.
    metadata_path(tmp_path / "copy.csv").unlink()
    pd.testing.assert_frame_equal(read_dataset(tmp_path / "copy.csv"), frame)


def test_jobs_do_not_change_the_rows(one_go, tmp_path):
    _, _, frame = one_go
    path = tmp_path / "two.parquet"
    metadata = build_dataset(path, SPEC, jobs=2)
    pd.testing.assert_frame_equal(_rows(read_dataset(path)), _rows(frame))
    assert metadata["sessions"][0]["jobs"] == 2


def test_other_shapes_and_modes(tmp_path):
    path = tmp_path / "small.csv"
    spec = DatasetSpec(
        family=Family(Game(3, 3, 20), "simplex"), count=12, seed=1, feature_set="none", chunk_size=5
    )
    build_dataset(path, spec, jobs=1)
    frame = read_dataset(path)
    assert list(frame.columns) == dataset_columns(3, [])
    assert np.allclose(frame[["p0", "p1", "p2", "p3"]].sum(axis=1), 1)
    assert (frame["regime"] == 0).all() and (frame["mode"] == "simplex").all()
    drawn = generate(12, Family(Game(3, 3, 20), "simplex"), seed=1).puzzles.copies
    assert np.array_equal(decode_puzzles(frame["puzzle"], 3, 20), drawn)
    fixed = tmp_path / "fixed.csv"
    spec = DatasetSpec(
        family=Family(mode="fixed", percentages=(10, 20)), count=5, feature_set="none"
    )
    build_dataset(fixed, spec, jobs=1)
    assert np.allclose(read_dataset(fixed)[["p0", "p1", "p2"]], [0.1, 0.2, 0.7])


def test_joker_and_turn_datasets_keep_their_jokers_and_table(tmp_path):
    from rumdiff.puzzle import decode_games
    from rumdiff.solve import search_effort

    for mode, jokers, n in (("turn", 2, 13), ("simplex", 1, 20)):
        path = tmp_path / f"{mode}.csv"
        spec = DatasetSpec(
            family=Family(Game(n=n), mode, jokers=jokers), count=8, seed=2, chunk_size=3
        )
        build_dataset(path, spec, jobs=1)
        frame = read_dataset(path)
        puzzles = decode_games(frame["puzzle"], 4, n, m=2)
        expected = generate(8, Family(Game(n=n), mode, jokers=jokers), seed=2).puzzles
        # The column holds each puzzle's tiles, jokers and table; the game's jokers are
        # the sidecar's parameters.
        assert [p.key() for p in puzzles] == [p.key() for p in expected]
        for puzzle, row in zip(puzzles, frame.itertuples(), strict=True):
            effort = search_effort(puzzle)
            assert (row.score, row.search_transitions) == (effort.score, effort.transitions)
        assert read_metadata(metadata_path(path))["parameters"]["jokers"] == jokers


class Stop(Exception):
    pass


def _stop_after(chunks: int):
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) > chunks:  # the first call reports the state before any chunk
            raise Stop

    return progress


@pytest.mark.parametrize("jobs", [1, 2])
def test_resume_after_an_interruption_gives_the_one_go_rows(one_go, tmp_path, jobs):
    _, _, frame = one_go
    path = tmp_path / "data.parquet"
    with pytest.raises(Stop):
        build_dataset(path, SPEC, jobs=jobs, progress=_stop_after(1))
    assert not path.exists() and not metadata_path(path).exists()
    parts = sorted(p.name for p in work_dir(path).glob("part-*"))
    assert len(parts) == 1
    with pytest.raises(DatasetError, match="unfinished run .* resume it"):
        build_dataset(path, SPEC, jobs=jobs)
    with pytest.raises(DatasetError, match="cannot resume: .* has seed=3, not 4"):
        build_dataset(path, replace(SPEC, seed=4), jobs=jobs, resume=True)
    seen = []
    metadata = build_dataset(
        path, SPEC, jobs=jobs, resume=True, progress=lambda d, t: seen.append(d)
    )
    assert seen == [CHUNK, 2 * CHUNK, 3 * CHUNK]
    pd.testing.assert_frame_equal(_rows(read_dataset(path)), _rows(frame))
    assert [s["puzzles_solved"] for s in metadata["sessions"]] == [CHUNK, COUNT - CHUNK]
    assert not work_dir(path).exists() and _leftovers(tmp_path) == []
    # Resuming a finished dataset does nothing.
    stamp = path.stat().st_mtime_ns
    again = build_dataset(path, SPEC, jobs=jobs, resume=True)
    assert again["already_complete"] and path.stat().st_mtime_ns == stamp
    # ... or only relabels it, when asked for other labels.
    again = build_dataset(path, SPEC, jobs=jobs, resume=True, thresholds=(1000, 2000))
    assert again["already_complete"] and again["label"]["thresholds"] == [1000, 2000]
    relabelled = read_dataset(path)
    assert np.array_equal(relabelled["label"], compute_labels(frame, "search", (1000, 2000)))
    pd.testing.assert_frame_equal(_rows(relabelled.drop(columns="label")),
                                  _rows(frame.drop(columns="label")))  # fmt: skip


def test_a_failing_worker_leaves_no_output(tmp_path, monkeypatch):
    import rumdiff.data.dataset

    calls = []

    def failing(copies, **options):
        calls.append(len(copies))
        if len(calls) == 2:
            raise RuntimeError("solver exploded")
        return solve_batch(copies, **options)

    monkeypatch.setattr(rumdiff.data.dataset, "solve_batch", failing)
    path = tmp_path / "data.csv"
    with pytest.raises(RuntimeError, match="solver exploded"):
        build_dataset(path, SPEC, jobs=1)
    assert not path.exists() and not metadata_path(path).exists()
    assert [p.name for p in work_dir(path).glob("part-*")] == ["part-000000.csv"]
    assert _leftovers(tmp_path) == [] and _leftovers(work_dir(path)) == []


def test_a_failed_final_write_keeps_the_old_file_and_the_parts(one_go, tmp_path, monkeypatch):
    _, _, frame = one_go
    path = tmp_path / "data.parquet"
    path.write_bytes(b"old dataset")
    original = pd.DataFrame.to_parquet

    def half_written(self, target, *args, **kwargs):
        if os.path.basename(target).startswith(".data.parquet."):
            with open(target, "wb") as stream:
                stream.write(b"PAR1 half a file")
            raise OSError(28, "No space left on device")
        return original(self, target, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", half_written)
    with pytest.raises(OSError, match="No space left"):
        build_dataset(path, SPEC, jobs=1)
    assert path.read_bytes() == b"old dataset" and not metadata_path(path).exists()
    assert _leftovers(tmp_path) == []
    assert len(list(work_dir(path).glob("part-*"))) == COUNT // CHUNK
    monkeypatch.undo()
    metadata = build_dataset(path, SPEC, jobs=1, resume=True)
    assert metadata["sessions"][-1]["puzzles_solved"] == 0
    pd.testing.assert_frame_equal(_rows(read_dataset(path)), _rows(frame))


def test_resume_after_kill(one_go, tmp_path):
    """A real SIGKILL in the middle of a run, then ``--resume`` from the command line."""
    _, _, frame = one_go
    path = tmp_path / "data.parquet"
    command = [sys.executable, "-m", "rumdiff", "generate", str(path), *CLI_PARAMS]
    # Small chunks, the last --chunk-size winning: the run is still writing them when
    # the test, however slow, sees the first.
    chunk = 2
    command += ["--jobs", "1", "--chunk-size", str(chunk)]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list(work_dir(path).glob("part-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL
    assert not path.exists() and work_dir(path).exists()
    done = len(list(work_dir(path).glob("part-*")))
    assert 1 <= done < COUNT // chunk
    assert main(["generate", str(path), *CLI_PARAMS, "--jobs", "1", "--chunk-size", str(chunk),
                 "--resume"]) == 0  # fmt: skip
    pd.testing.assert_frame_equal(_rows(read_dataset(path)), _rows(frame))
    sessions = read_metadata(metadata_path(path))["sessions"]
    assert len(sessions) == 2 and sessions[1]["puzzles_solved"] == COUNT - chunk * done
    # The killed session's record is as of its last chunk but one or its last chunk.
    assert sessions[0]["puzzles_solved"] in (chunk * done - chunk, chunk * done)
    assert not work_dir(path).exists() and _leftovers(tmp_path) == []


def test_feature_columns(tmp_path):
    path = tmp_path / "data.parquet"
    metadata = build_dataset(path, DatasetSpec(count=25, chunk_size=10, seed=5), jobs=1)
    assert_fresh_features(read_dataset(path), metadata)


def test_both_solvers_and_the_beam_width(one_go, tmp_path):
    _, _, frame = one_go
    path = tmp_path / "both.csv"
    spec = replace(SPEC, beam_width=0, solvers=("solver", "search"))
    metadata = build_dataset(path, spec, label_by="solver", jobs=1)
    both = read_dataset(path)
    assert metadata["parameters"]["beam_width"] == 0
    assert metadata["parameters"]["solvers"] == ["search", "solver"]
    assert metadata["label"]["measure"] == "solver"
    assert list(both.columns) == dataset_columns(2, [], ("search", "solver"))
    for column in ("puzzle", "score", "lower", "upper", "method", "search_transitions"):
        assert both[column].tolist() == frame[column].tolist()
    copies = decode_puzzles(both["puzzle"], config.K, config.N)
    for i in np.flatnonzero((frame["method"] == "dp").to_numpy())[:5]:
        work = solve(Puzzle(copies[i], m=2), beam_width=0).work
        assert (both["solver_states"][i], both["solver_transitions"][i]) == (
            work.states, work.transitions
        )  # fmt: skip
    # A finished dataset is reused only when solved with the same solvers and beam width.
    assert build_dataset(path, spec, label_by="solver", jobs=1, resume=True)["already_complete"]
    again = build_dataset(path, replace(spec, beam_width=3), label_by="solver", jobs=1, resume=True)
    assert not again.get("already_complete")
    # Labels need their solver's columns.
    with pytest.raises(DatasetError, match="time labels need the solver among"):
        build_dataset(tmp_path / "x.csv", replace(SPEC, solvers=("search",)), label_by="time")

    # An unfinished run resumes only with the same beam width.
    def stop(done, total):
        raise KeyboardInterrupt

    unfinished = tmp_path / "unfinished.csv"
    with pytest.raises(KeyboardInterrupt):
        build_dataset(unfinished, replace(SPEC, beam_width=0), jobs=1, progress=stop)
    with pytest.raises(DatasetError, match="cannot resume: .* has beam_width=0, not 64"):
        build_dataset(unfinished, SPEC, jobs=1, resume=True)


def test_format_1_datasets_read_as_today(one_go, tmp_path):
    """A dataset of rumdiff 0.1: one set of effort columns, the beam width in its sidecar;
    beam width 0 counted exactly the search effort."""
    path, metadata, frame = one_go
    for beam_width, solver in ((0, "search"), (64, "solver")):
        old = frame.rename(columns={f"search_{c}": c for c in ("states", "transitions", "seconds")})
        copy = tmp_path / f"old{beam_width}.csv"
        old.to_csv(copy, index=False)
        sidecar = {"format": 1, "parameters": {"beam_width": beam_width},
                   "label": {"scheme": "work", "thresholds": [1, 2], "names": []}}  # fmt: skip
        metadata_path(copy).write_text(json.dumps(sidecar))
        read = read_dataset(copy)
        assert read[f"{solver}_transitions"].tolist() == frame["search_transitions"].tolist()
        upgraded = read_sidecar(copy)
        assert upgraded["parameters"]["solvers"] == [solver]
        assert upgraded["label"]["measure"] == solver
        assert (
            compute_labels(read, solver, (1, 2)).tolist()
            == compute_labels(frame, "search", (1, 2)).tolist()
        )


def test_bad_arguments(tmp_path):
    cases = [
        ({"count": 0}, "count must be"),
        ({"repeats": 0}, "repeats must be"),
        ({"chunk_size": -1}, "chunk_size must be"),
        ({"jobs": 0}, "jobs must be"),
        ({"beam_width": -1}, "beam_width must be"),
        ({"beam_width": True}, "beam_width must be"),
        ({"feature_set": "most"}, "unknown feature set"),
        ({"label_by": "size"}, "unknown label measure"),
        ({"solvers": ("ilp",)}, "unknown solver"),
        ({"thresholds": (1, 2, 3)}, "need 2 thresholds"),
        ({"seed": -1}, "seed must be"),
        ({"family": (4, 2, 100)}, "family must be a Family"),
    ]
    spec_fields = {"count", "repeats", "chunk_size", "beam_width", "feature_set", "solvers",
                   "seed", "family"}  # fmt: skip
    for change, message in cases:
        with pytest.raises(ValueError, match=message):
            spec = {key: value for key, value in change.items() if key in spec_fields}
            other = {key: value for key, value in change.items() if key not in spec_fields}
            build_dataset(tmp_path / "d.csv", replace(SPEC, **spec), **other)
    with pytest.raises(ValueError, match="fixed mode needs percentages"):
        Family(mode="fixed")
    with pytest.raises(DatasetError, match="unknown dataset extension '.txt'"):
        build_dataset(tmp_path / "d.txt", SPEC)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match="cannot read as parquet"):
        read_dataset(tmp_path / "bad.parquet")
    with pytest.raises(DatasetError, match="no such file"):
        read_dataset(tmp_path / "missing.csv")


def _one_line_error(capsys, argv, message, code=1):
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rumdiff generate: error: "), err
    assert message in err


def test_cli_errors_are_one_line(capsys, tmp_path):
    out = str(tmp_path / "d.parquet")
    _one_line_error(capsys, ["generate"], "OUT is required")
    _one_line_error(capsys, ["generate", str(tmp_path / "d.txt")], "unknown dataset extension")
    _one_line_error(capsys, ["generate", out, "--count", "0"], "--count: must be", code=2)
    _one_line_error(capsys, ["generate", out, "--jobs", "0"], "--jobs: must not be 0", code=2)
    _one_line_error(capsys, ["generate", out, "--mode", "fixed"], "fixed mode needs percentages")
    _one_line_error(capsys, ["generate", out, "--thresholds", "3,2"], "increase strictly")
    _one_line_error(capsys, ["generate", out, "--label-by", "time", "--thresholds", "1",
                             "--solvers", "solver"],
                    "need 3 thresholds")  # fmt: skip
    _one_line_error(capsys, ["generate", "--relabel", str(tmp_path / "no.csv")], "no such file")
    _one_line_error(capsys, ["generate", "--relabel", out, "--resume"], "cannot be combined")
    pd.DataFrame({"id": [0]}).to_csv(tmp_path / "s.csv", index=False)
    (tmp_path / "s.csv.json").write_text('{"columns": "x"}')
    _one_line_error(capsys, ["generate", "--relabel", str(tmp_path / "s.csv")], "'columns' must be")
    (tmp_path / "s.csv").unlink()
    (tmp_path / "s.csv.json").unlink()
    work_dir(out).mkdir()
    _one_line_error(capsys, ["generate", out, *CLI_PARAMS], "unfinished run")
    (work_dir(out) / "run.json").write_text("{")
    _one_line_error(capsys, ["generate", out, *CLI_PARAMS, "--resume"], "no readable run.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.parquet.partial"]


def test_cli_generates_a_dataset_and_a_puzzle_file(one_go, capsys, tmp_path):
    _, _, frame = one_go
    out = tmp_path / "d.csv"
    assert main(["generate", str(out), *CLI_PARAMS[:-1], "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert f"wrote {COUNT} puzzles to {out}" in err and "labels by search: easy" in err
    pd.testing.assert_frame_equal(_rows(read_dataset(out)), _rows(frame))
    command = read_metadata(metadata_path(out))["command"]
    assert command[:3] == ["rumdiff", "generate", str(out)]
    assert " ".join(command[3:]).startswith(
        "--count 60 -k 4 -m 2 -n 100 --seed 3 --jobs 1 --max-states 50000000 --repeats 1 "
        "--max-memory 4.0 --mode mixed"
    )
    puzzles = tmp_path / "p.txt"
    assert main(["generate", str(puzzles), "--puzzles-only", "--count", "7", "--seed", "2"]) == 0
    assert "wrote 7 puzzles" in capsys.readouterr().err
    read = read_puzzles(puzzles, k=4, m=2, n=100)
    assert np.array_equal(read.copies, generate(7, seed=2).puzzles.copies)


def test_cli_puzzles_only_writes_the_header_readers_take_the_shape_from(tmp_path, capsys):
    path = tmp_path / "p.in"
    argv = ["generate", str(path), "--puzzles-only", "--count", "5", "--seed", "4", "-q",
            "-k", "5", "-m", "3", "-n", "30", "--mode", "simplex", "--jokers", "1"]  # fmt: skip
    assert main(argv) == 0
    assert path.read_text().startswith("# G(5, 3, 30) j=1\n5\n")
    read = read_puzzles(path)  # no shape given: the header's
    expected = generate(5, Family(Game(5, 3, 30), "simplex", jokers=1), seed=4).puzzles
    assert (read.k, read.m, read.n, read.game.jokers) == (5, 3, 30, 1)
    assert list(read) == list(expected)
    assert main(["features", str(path), "--joker-features", "--features", "thesis"]) == 0
    rows = [line.split(",")[1:4] for line in capsys.readouterr().out.splitlines()[1:]]
    assert rows == [["5", "3", "30"]] * 5


@pytest.mark.parametrize(
    "mode, jokers, header",
    [("turn", 2, "# G(4, 2, 13) j=2"), ("turn", 0, "# G(4, 2, 13)"),
     ("mixed", 2, "# G(4, 2, 13) j=2"), ("mixed", 0, "# G(4, 2, 13)")],
)  # fmt: skip
def test_cli_puzzles_only_header_names_the_jokers_they_were_generated_with(
    tmp_path, mode, jokers, header
):
    path = tmp_path / "p.in"
    argv = ["generate", str(path), "--puzzles-only", "--count", "6", "--seed", "8", "-q",
            "-n", "13", "--mode", mode, "--jokers", str(jokers)]  # fmt: skip
    assert main(argv) == 0
    assert path.read_text().splitlines()[0] == header
    read = read_puzzles(path)
    assert read.game.jokers == (jokers or config.MAX_JOKERS)  # none: the plain game's
    expected = generate(6, Family(Game(4, 2, 13), mode, jokers=jokers), seed=8).puzzles
    assert read.game == expected.game and list(read) == list(expected)


def test_cli_help_lists_every_option_with_a_default(capsys):
    assert main(["generate", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--count", "--mode", "--percentages", "--regime-weights", "--seed", "--jobs",
                   "--repeats", "--label-by", "--thresholds", "--resume", "--puzzles-only",
                   "--relabel", "--features", "--chunk-size", "--solvers", "--beam-width", "-k",
                   "-m", "-n"):  # fmt: skip
        assert re.search(rf"\s{option}\b", text), option
    assert text.count("(default:") >= 19


def test_progress_bar():
    assert [format_duration(s) for s in (0, 59.6, 61, 3725, None, float("inf"))] == [
        "0:00", "1:00", "1:01", "1:02:05", "--:--", "--:--"
    ]  # fmt: skip
    now = [0.0]
    stream = io.StringIO()
    bar = ProgressBar(400, initial=100, stream=stream, clock=lambda: now[0], log_interval=5)
    now[0] = 10.0  # the first chunk pays for start-up
    bar.update(150)
    now[0] = 20.0  # as long again: the rate counts from the first chunk
    bar.update(200)
    now[0] = 40.0
    bar.update(400)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    # Right after the first chunk only the rate since the start is known.
    assert "150/400" in lines[0] and "5.0 puzzles/s" in lines[0] and "ETA 0:50" in lines[0]
    assert "200/400" in lines[1] and "5.0 puzzles/s" in lines[1] and "ETA 0:40" in lines[1]
    assert "elapsed 0:20" in lines[1]
    lines = lines[1:]
    # In the first wave (parallel workers finishing together) the rate is since the start.
    now[0] = 0.0
    wave = ProgressBar(400, stream=io.StringIO(), clock=lambda: now[0])
    now[0] = 60.0
    wave.update(100)
    now[0] = 60.5
    assert wave.rate() == pytest.approx(100 / 60.5)
    assert "400/400 100.0%" in lines[1] and "ETA 0:00" in lines[1]


def test_a_second_run_on_the_same_output_is_refused_at_once(tmp_path):
    from rumdiff.processes import RunLock

    path = tmp_path / "data.parquet"
    with RunLock(f"{path}.lock", what=str(path)):
        with pytest.raises(DatasetError, match=r"another process \(pid \d+\) is writing"):
            build_dataset(path, SPEC, jobs=1)
    assert not path.exists() and not work_dir(path).exists()


def test_a_damaged_part_is_named_before_any_solving(tmp_path):
    path = tmp_path / "data.parquet"
    with pytest.raises(Stop):
        build_dataset(path, SPEC, jobs=1, progress=_stop_after(1))
    part = next(work_dir(path).glob("part-*"))
    part.write_bytes(part.read_bytes()[:100])  # truncated, as by a full disk
    seen = []
    with pytest.raises(DatasetError, match=f"{part.name} is damaged .* delete it and resume"):
        build_dataset(path, SPEC, jobs=1, resume=True, progress=lambda d, t: seen.append(d))
    assert seen == []


def test_a_run_over_the_state_budget_resumes_with_a_larger_one(tmp_path):
    from rumdiff.solve import SolverBudgetError

    path = tmp_path / "d.csv"
    spec = replace(SPEC, family=Family(Game(n=20), "simplex"))
    with pytest.raises(SolverBudgetError, match="max_states=1 "):
        build_dataset(path, spec, jobs=1, max_states=1)
    assert work_dir(path).exists() and not path.exists()
    metadata = build_dataset(path, spec, jobs=1, resume=True)  # the default budget
    assert [s["max_states"] for s in metadata["sessions"]] == [1, config.MAX_STATES]
    once = build_dataset(tmp_path / "once.csv", spec, jobs=1)
    pd.testing.assert_frame_equal(
        _rows(read_dataset(path)), _rows(read_dataset(tmp_path / "once.csv"))
    )
    assert once["parameters"] == metadata["parameters"]
    with pytest.raises(DatasetError, match="max_states must be"):
        build_dataset(tmp_path / "zero.csv", spec, jobs=1, max_states=0)
