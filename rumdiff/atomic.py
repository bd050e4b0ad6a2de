"""Atomic, durable output: readers never see a half-written file or report folder.

Every file rumdiff writes (puzzle files, datasets, sidecars, models, reports, figures)
goes through :func:`atomic_write`: it is written to a temporary file beside its target,
flushed to disk, then renamed over the target, so an interrupted run leaves the old file
(or none), never a truncated one. :func:`staged` does the same for a whole folder of
reports. Only regular files are replaced: a symlink is followed and its target written,
and a FIFO, device or socket (``/dev/null``, ``/dev/stdout``) is written straight through,
never replaced.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import stat
import tempfile
from functools import lru_cache
from pathlib import Path

__all__ = [
    "atomic_copy",
    "atomic_open",
    "atomic_write",
    "atomic_write_json",
    "atomic_write_png",
    "atomic_write_text",
    "jsonable",
    "staged",
]


#: Paths that stand for an open stream of this process, not for a file to replace.
_STREAMS = ("/dev/", "/proc/")


@lru_cache(maxsize=1)
def _file_mode() -> int:
    # mkstemp makes files private (0600); ours get the mode of an ordinary new file.
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_dir(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(handle)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(handle)


def resolve_output(path) -> tuple[Path, bool]:
    """Where writing to ``path`` really goes, and whether it may be replaced atomically.

    A symlink (or a chain of them) leads to its target. The target may be replaced when
    it is a regular file or does not exist yet; a FIFO, device or socket may only be
    written into.

    Raises
    ------
    IsADirectoryError
        If the target is a folder.
    """
    try:
        mode = os.stat(path).st_mode  # follows links, through /proc's fd links too
    except FileNotFoundError:
        return Path(os.path.realpath(path)), True
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if not stat.S_ISREG(mode) or str(path).startswith(_STREAMS):
        # A device, FIFO or socket, or /dev/stdout and its kin (even when they lead to a
        # regular file, the caller's redirection decides how it is written): write into.
        return Path(path), False
    return Path(os.path.realpath(path)), True


def atomic_write(path, write) -> None:
    """Call ``write(temporary_path)``, flush the file to disk, rename it to ``path``.

    The parent folder is created if missing. If ``write`` fails, ``path`` is left as it
    was and the temporary file is removed. A symlink's target is written instead of the
    link; a FIFO or device is written straight through (``write(path)``), never replaced
    (:func:`resolve_output`).
    """
    path, replaceable = resolve_output(path)
    if not replaceable:
        # Written in one piece, appended: /dev/stdout led to a file by >> must keep what
        # the file held, and a FIFO's reader sees nothing of a write that fails.
        with tempfile.TemporaryDirectory() as folder:
            temporary = os.path.join(folder, "output")
            write(temporary)
            with open(temporary, "rb") as source, open(path, "ab") as sink:
                shutil.copyfileobj(source, sink)
        return
    with _replacing(path) as temporary:
        write(temporary)


@contextlib.contextmanager
def _replacing(target: Path):
    """A temporary file beside ``target``, flushed to disk and renamed over it if the
    block succeeds, removed if it fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    os.close(handle)
    try:
        os.chmod(temporary, _file_mode())
        yield temporary
        with open(temporary, "rb+") as stream:
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_open(path, *, encoding: str = "utf-8"):
    """A text stream (``\\n`` line endings) whose content replaces ``path`` on success.

    For output written in pieces: memory holds a piece, not the file. If the block
    raises, ``path`` is left as it was. Symlinks and special files as in
    :func:`atomic_write`.
    """
    target, replaceable = resolve_output(path)
    if not replaceable:  # appended, as in atomic_write
        with open(target, "a", encoding=encoding, newline="\n") as stream:
            yield stream
        return
    with _replacing(target) as temporary:
        with open(temporary, "w", encoding=encoding, newline="\n") as stream:
            yield stream


def atomic_copy(source, path) -> None:
    """Copy the file ``source`` to ``path`` as :func:`atomic_write` writes (a symlink's
    target replaced, a device or FIFO written into), never moving or re-moding ``path``."""

    def write(temporary):
        with open(source, "rb") as reader, open(temporary, "wb") as writer:
            shutil.copyfileobj(reader, writer)

    atomic_write(path, write)


def atomic_write_text(path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` with ``\\n`` line endings to ``path``, atomically."""

    def write(temporary):
        with open(temporary, "w", encoding=encoding, newline="\n") as stream:
            stream.write(text)

    atomic_write(path, write)


def jsonable(value):
    """``value`` with JSON's types only: numpy scalars as numbers, tuples as lists, keys as
    text, and non-finite floats (which JSON lacks) as None."""
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if hasattr(value, "item") and not hasattr(value, "__len__"):  # a numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def atomic_write_json(path, data: dict) -> None:
    """Write :func:`jsonable` ``data`` as indented JSON, atomically."""
    atomic_write_text(path, json.dumps(jsonable(data), indent=2) + "\n")


def atomic_write_png(path, figure) -> None:
    """Save a matplotlib figure as a PNG (110 dpi, every figure rumdiff draws), atomically."""
    atomic_write(path, lambda temporary: figure.savefig(temporary, format="png", dpi=110))


@contextlib.contextmanager
def staged(outdir):
    """Write into a hidden folder inside ``outdir``; move its files into ``outdir`` on success.

    So a run that fails half-way leaves ``outdir`` as it was (apart from the folder
    itself, created if missing).
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=outdir, prefix=".staging-"))
    try:
        yield stage
        for path in sorted(stage.iterdir()):
            target, replaceable = resolve_output(outdir / path.name)
            if replaceable:
                os.replace(path, target)
            else:
                with open(path, "rb") as source, open(target, "wb") as sink:
                    shutil.copyfileobj(source, sink)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
