"""The command line's shared parts: help, defaults shown, versions, usage errors."""

import io
import os
import stat
from pathlib import Path

import pytest

from rumdiff.cli import COMMANDS, build_parser, main

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def test_version_names_the_libraries(capsys):
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    for name in ("rumdiff", "numpy", "numba", "scikit-learn"):
        assert name in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_shows_its_default_in_help(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # one line an option, so blocks split cleanly
    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    text = subparsers.choices[command].format_help()
    blocks = []
    for line in text.split("options:", 1)[1].splitlines():
        if line.startswith("  -"):
            blocks.append(line)
        elif blocks and line.startswith("   "):
            blocks[-1] += line
    options = [block for block in blocks if not block.startswith("  -h, --help")]
    assert options, command
    for block in options:
        assert "(default" in block or "(required)" in block, (command, block)


def test_jobs_has_one_default_and_one_help_everywhere():
    from rumdiff import config

    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    jobs = [
        action
        for parser in subparsers.choices.values()
        for action in parser._actions
        if "--jobs" in action.option_strings
    ]
    assert len(jobs) == 5  # generate, solve, features, train, explore
    assert {action.default for action in jobs} == {config.JOBS}
    leads = {action.help.split(";")[0].rpartition(": ") for action in jobs}
    # what the workers are (features' are threads), then one rule for the number
    workers = sorted(what for what, _, _ in leads)
    assert len(workers) == 2 and workers[1] == "worker processes", workers
    assert workers[0].startswith("threads computing the features")
    assert len({rule for _, _, rule in leads}) == 1


def test_usage_error_is_one_line_with_exit_code_2(capsys):
    assert main(["solve"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "error:" in err


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["solve", "a.in", "--shwo"], "rumdiff solve: error: unrecognized arguments: --shwo; "
         "did you mean --show? (see rumdiff solve --help)"),
        (["predict", "a.in", "--modle=x"], "--modle=x; did you mean --model? "
         "(see rumdiff predict --help)"),
        (["train", "d.csv", "-o", "out", "--jbos", "2"], "did you mean --jobs? "
         "(see rumdiff train --help)"),
        (["show", "a.in", "-o", "a.png", "b.in"], "unrecognized arguments: b.in "
         "(see rumdiff show --help)"),
        (["--shwo"], "rumdiff: error: unrecognized arguments: --shwo (see rumdiff --help)"),
    ],
)  # fmt: skip
def test_an_unknown_option_names_its_commands_help_and_the_nearest_option(argv, expected, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and expected in err


def test_an_option_far_from_any_is_not_guessed(capsys):
    assert main(["solve", "a.in", "--zzzzzz"]) == 2
    assert "did you mean" not in capsys.readouterr().err


@pytest.fixture
def puzzle_file(tmp_path):
    path = tmp_path / "a.in"
    path.write_text("2\n3\n1b 2b 3b\n4\n5r 5g 5b 5y\n")
    return path


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["solve", "{a}", "-o", "{a}"], "is the input"),
        (["solve", "{a}", "-o", "{link}"], "is the input"),
        (["features", "{a}", "-o", "{a}"], "is the input"),
        (["predict", "{a}", "-o", "{a}"], "is the input"),
        (["solve", "{a}", "-o", "{out}", "--stats", "{out}"], "are the same file"),
        (["solve", "{a}", "-o", "{a}/x"], "is not a folder"),
    ],
)
def test_an_output_that_would_destroy_an_input_is_refused_before_any_work(
    arguments, message, puzzle_file, capsys
):
    link = puzzle_file.parent / "link"
    link.symlink_to(puzzle_file)
    before = puzzle_file.read_bytes()
    names = {"a": puzzle_file, "link": link, "out": puzzle_file.parent / "out.txt"}
    argv = [part.format(**names) for part in arguments]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert puzzle_file.read_bytes() == before
    assert not (puzzle_file.parent / "out.txt").exists()


def test_outputs_to_a_device_are_written_through(puzzle_file, capsys):
    assert main(["solve", str(puzzle_file), "-o", os.devnull, "--stats", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_solve_reports_a_failing_puzzle_and_solves_the_others(puzzle_file, tmp_path, capsys):
    # Puzzle 2 of the examples needs a DP; a tiny state budget makes the solver give up.
    example = (EXAMPLES / "mixed-20.in").read_text().splitlines()
    puzzle_file.write_text("\n".join(["3", "3", "1b 2b 3b", *example[3:5], "4", "5r 5g 5b 5y"]))
    stats = tmp_path / "stats.csv"
    argv = ["solve", str(puzzle_file), "--max-states", "5", "--no-ilp-fallback"]
    argv += ["--stats", str(stats), "-n", "100"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["6", "unsolved", "20"]
    errors = captured.err.strip().splitlines()
    assert "puzzle 2" in errors[0] and "max_states=5" in errors[0]
    assert errors[-1].endswith("1 of 3 puzzles unsolved")
    rows = stats.read_text().splitlines()
    assert rows[0].startswith("puzzle,k,m,n,score")
    assert rows[1].startswith("1,4,2,100,6,") and rows[2].startswith("2,4,2,100,,")
    assert rows[2].endswith(",failed")


def test_a_puzzle_file_can_come_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"1\n3\n1b 2b 3b\n")))
    assert main(["solve", "-"]) == 0
    assert capsys.readouterr().out == "6\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "x.in", "--max-states", "100000000000000000000"],
        ["solve", "x.in", "--max-states", "1e20"],
        ["solve", "x.in", "--beam-width", "-1"],
        ["solve", "x.in", "-k", "9"],
        ["generate", "out.parquet", "--count", "0"],
        ["train", "d.parquet", "-o", "out", "--folds", "1"],
    ],
)
def test_numbers_are_range_checked_before_they_reach_a_kernel(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "must be a whole number" in err or "expected a whole number" in err


@pytest.mark.parametrize("limit", ["-1", "0", "nan", "inf", "lots"])
@pytest.mark.parametrize("command", ["generate", "explore"])
def test_max_memory_must_be_a_positive_number(command, limit, tmp_path, capsys):
    # nan once passed as a float and switched the memory check off.
    assert main([command, str(tmp_path / "out"), "--max-memory", limit]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--max-memory" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "{out}", "--count", "1000000000"], "over the limit of 4 GiB"),
        (["explore", "{dir}", "--step", "0.001"], "over the limit of 4 GiB"),
        (["explore", "{dir}", "--step", "1e-7"], "raise --max-memory"),
    ],
)
def test_work_that_would_not_fit_is_refused_up_front(argv, message, tmp_path, capsys):
    names = {"out": tmp_path / "d.parquet", "dir": tmp_path / "explore"}
    assert main([part.format(**names) for part in argv]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert list(tmp_path.iterdir()) == []


def test_solve_reads_a_pipe_and_names_stdin_in_its_messages(monkeypatch, capsys):
    text = b"2\n3\n1b 2b 3b\n3\n1b 2b x\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert main(["solve", "-"]) == 1
    assert capsys.readouterr().err.startswith("rumdiff solve: error: -:5: 'x' is not a tile")


def test_solve_checks_the_whole_file_against_n_before_solving(tmp_path, capsys):
    file = tmp_path / "late.in"
    file.write_text("2\n3\n1b 2b 3b\n3\n99b 100b 101b\n")
    out = tmp_path / "scores.txt"
    assert main(["solve", str(file), "-n", "100", "-o", str(out)]) == 1
    assert "late.in:5: tile '101b': value outside 1..100" in capsys.readouterr().err
    assert not out.exists()


# --- the header line '# G(k, m, n)' of puzzle files ------------------------------------

#: A table only five colours place whole (a group of five, the joker as 5o): read as the
#: letters used say, G(4, 2, 5), it is infeasible.
FIVE = "1\n5\n| 5b 5g 5r 5y J\n"


@pytest.fixture
def stdin(monkeypatch):
    def give(text: str):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    return give


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_solve_takes_k_m_n_from_the_header(source, tmp_path, stdin, capsys):
    path = tmp_path / "five.in"
    stats = tmp_path / "stats.csv"
    results = []
    for text in (FIVE, "# G(5, 3, 13)\n" + FIVE):
        path.write_text(text)
        stdin(text)
        argv = ["solve", str(path) if source == "file" else "-", "--stats", str(stats)]
        assert main(argv) == 0
        row = stats.read_text().splitlines()[1].split(",")
        results.append((capsys.readouterr().out, row[1:4]))
    assert results == [("infeasible\n", ["4", "2", "100"]), ("20\n", ["5", "3", "13"])]


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_solve_refuses_an_option_against_the_header_and_writes_nothing(
    source, tmp_path, stdin, capsys
):
    path = tmp_path / "five.in"
    path.write_text("# G(5, 2, 13)\n" + FIVE)
    stdin(path.read_text())
    name = str(path) if source == "file" else "-"
    out = tmp_path / "scores.txt"
    assert main(["solve", name, "-k", "4", "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"rumdiff solve: error: {name}:1: header says k = 5 but k = 4 was given\n"
    )
    assert not out.exists()
    stdin(path.read_text())  # (the first run read it: a process reads its input once)
    assert main(["solve", name, "-k", "5", "-m", "2", "-n", "13", "-o", str(out)]) == 0
    assert out.read_text() == "20\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("# G(5, 2)\n" + FIVE, ":1: malformed header '# G(5, 2)'"),
        ("# G(x, 2, 13)\n" + FIVE, ":1: header '# G(x, 2, 13)': k must be a whole number"),
        ("# G(9, 2, 13)\n" + FIVE, ":1: header '# G(9, 2, 13)': k must be a whole number"),
        ("# G(5, 2, 4)\n" + FIVE, ":4: tile '5b': value outside 1..4"),
        ("# G(5, 2, 13)\n2\n" + FIVE[2:], ":5: file ends early"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "features"])
def test_a_bad_header_is_one_line_with_no_output(command, text, message, tmp_path, capsys):
    path = tmp_path / "bad.in"
    path.write_text(text)
    out = tmp_path / "out.txt"
    assert main([command, str(path), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"rumdiff {command}: error: {path}{message}"), captured.err
    assert not out.exists()
