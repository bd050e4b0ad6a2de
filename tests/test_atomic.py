"""Atomic output: a failed write leaves the old file, a failed report run the old folder."""

import os
import stat
import threading

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


def test_a_symlink_is_followed_not_replaced(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic_write_text(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n"


def test_a_fifo_is_written_through_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    atomic_write_text(fifo, "through\n")
    reader.join(timeout=10)
    assert received == ["through\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_device_is_written_through_not_replaced(tmp_path):
    before = os.stat(os.devnull)
    atomic_write_text(os.devnull, "nothing\n")
    after = os.stat(os.devnull)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(IsADirectoryError):
        atomic_write_text(tmp_path, "x")


def test_staged_follows_a_symlink_in_the_folder(tmp_path):
    target = tmp_path / "elsewhere.md"
    target.write_text("old")
    outdir = tmp_path / "out"
    outdir.mkdir()
    (outdir / "report.md").symlink_to(target)
    with staged(outdir) as stage:
        (stage / "report.md").write_text("new")
    assert (outdir / "report.md").is_symlink() and target.read_text() == "new"


def test_atomic_copy_follows_a_symlink_and_keeps_a_device(tmp_path):
    from rumdiff.atomic import atomic_copy

    source = tmp_path / "model.bin"
    source.write_bytes(b"model")
    target = tmp_path / "elsewhere.bin"
    target.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to(target)
    atomic_copy(source, link)
    assert link.is_symlink() and target.read_bytes() == b"model"
    before = os.stat(os.devnull)
    atomic_copy(source, os.devnull)
    after = os.stat(os.devnull)
    assert after.st_ino == before.st_ino and after.st_mode == before.st_mode
