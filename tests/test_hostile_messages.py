"""Messages of hostile and clumsy input: one line, quoted input cut short and escaped,
the right file named, and the right thing said about it."""

from __future__ import annotations

import os

import pytest

from rumdiff.cli import main

#: A small generate run, for the cases about its files.
SMALL = ["--count", "20", "-n", "20", "--jobs", "1", "-q"]


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_a_huge_bad_token_is_quoted_short(tmp_path, capsys):
    file = tmp_path / "big.in"
    file.write_text("1\n1\n" + "x" * 1_900_000 + "\n")
    assert main(["solve", str(file)]) == 1
    err = _error(capsys)
    assert len(err) < 400 + len(str(file))
    assert f"{file}:3: 'xxxx" in err and "... (1,900,000 characters) is not a tile" in err


def test_a_file_name_with_a_newline_stays_on_one_line(tmp_path, capsys):
    file = tmp_path / "bad\nname.in"
    file.write_text("1\n3\n1b 2b 9z\n")
    assert main(["solve", str(file)]) == 1
    shown = str(file).replace("\n", "\\n")
    assert _error(capsys).startswith(f"rumdiff solve: error: {shown}:3: tile '9z'")


def test_resume_refuses_a_file_another_command_wrote(tmp_path, capsys):
    puzzles, out = tmp_path / "p.in", tmp_path / "f.csv"
    puzzles.write_text("1\n3\n1b 2b 3b\n")
    assert main(["features", str(puzzles), "-o", str(out), "-q"]) == 0
    before = out.read_bytes()
    assert main(["generate", str(out), "--resume", *SMALL]) == 1
    err = _error(capsys)
    assert f"{out} exists but has no sidecar f.csv.json" in err and "without --resume" in err
    assert out.read_bytes() == before


def test_resume_refuses_a_file_beside_another_files_sidecar(tmp_path, capsys):
    data, other = tmp_path / "d.csv", tmp_path / "x.csv"
    assert main(["generate", str(data), *SMALL]) == 0
    assert main(["generate", str(other), "--puzzles-only", *SMALL]) == 0
    (tmp_path / "x.csv.json").write_bytes((tmp_path / "d.csv.json").read_bytes())
    before = other.read_bytes()
    assert main(["generate", str(other), "--resume", *SMALL[:-1]]) == 1
    assert "its sidecar describes another file ('d.csv')" in _error(capsys)
    assert other.read_bytes() == before


def test_resume_says_when_it_relabelled(tmp_path, capsys):
    data = tmp_path / "d.csv"
    assert main(["generate", str(data), *SMALL]) == 0
    argv = ["generate", str(data), "--resume", "--thresholds", "1,2", *SMALL[:-1]]
    assert main(argv) == 0
    assert f"{data} was complete; relabelled it: labels by search" in _error(capsys)


def test_a_lock_that_is_a_folder_or_a_link_is_named_as_such(tmp_path, capsys):
    data = tmp_path / "d.csv"
    (tmp_path / "d.csv.lock").mkdir()
    assert main(["generate", str(data), *SMALL]) == 1
    assert f"{data}.lock is a folder, not the lock file of {data}" in _error(capsys)
    (tmp_path / "d.csv.lock").rmdir()
    (tmp_path / "d.csv.lock").symlink_to(tmp_path / "elsewhere")
    assert main(["generate", str(data), *SMALL]) == 1
    assert f"{data}.lock is a symbolic link, not the lock file" in _error(capsys)
    assert not (tmp_path / "elsewhere").exists()  # never created through the link


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_a_partial_that_is_a_file_is_named_as_such(tmp_path, capsys, resume):
    data = tmp_path / "d.csv"
    (tmp_path / "d.csv.partial").write_text("not a run folder\n")
    assert main(["generate", str(data), *SMALL, *resume]) == 1
    assert f"{data}.partial is not a folder of an unfinished run" in _error(capsys)
    assert (tmp_path / "d.csv.partial").read_text() == "not a run folder\n"


def test_a_run_manifest_of_the_wrong_shape_is_one_line(tmp_path, capsys):
    data = tmp_path / "d.csv"
    (tmp_path / "d.csv.partial").mkdir()
    (tmp_path / "d.csv.partial" / "run.json").write_text('{"spec": 1}')
    assert main(["generate", str(data), "--resume", *SMALL]) == 1
    assert "run.json is not the manifest of a rumdiff run" in _error(capsys)
    assert os.listdir(tmp_path / "d.csv.partial") == ["run.json"]
