"""Atomic output: a failed write leaves the old file, a failed report run the old folder."""

import os
import stat

import pytest

from rumdiff.atomic import atomic_write, atomic_write_text, staged


def test_text_is_written_whole_with_unix_line_endings(tmp_path):
    path = tmp_path / "new" / "out.txt"
    atomic_write_text(path, "a\nb\n")
    assert path.read_bytes() == b"a\nb\n"
    assert os.listdir(path.parent) == ["out.txt"]


def test_files_get_ordinary_permissions(tmp_path):
    path = tmp_path / "out.txt"
    atomic_write_text(path, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def fail(temporary):
        with open(temporary, "w") as stream:
            stream.write("half")
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError, match="interrupted"):
        atomic_write(path, fail)
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_text_that_does_not_encode_leaves_nothing(tmp_path):
    path = tmp_path / "out.txt"
    with pytest.raises(UnicodeEncodeError):
        atomic_write_text(path, "caf\u00e9", encoding="ascii")
    assert os.listdir(tmp_path) == []


def test_staged_moves_files_in_only_on_success(tmp_path):
    outdir = tmp_path / "report"
    with staged(outdir) as stage:
        (stage / "a.txt").write_text("a")
    assert sorted(os.listdir(outdir)) == ["a.txt"]

    with pytest.raises(RuntimeError), staged(outdir) as stage:
        (stage / "a.txt").write_text("new")
        (stage / "b.txt").write_text("b")
        raise RuntimeError("failed half-way")
    assert sorted(os.listdir(outdir)) == ["a.txt"]
    assert (outdir / "a.txt").read_text() == "a"
