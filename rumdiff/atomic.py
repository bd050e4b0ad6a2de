"""Atomic, durable output: readers never see a half-written file or report folder.

Every file rumdiff writes (puzzle files, datasets, sidecars, models, reports, figures)
goes through :func:`atomic_write`: it is written to a temporary file beside its target,
flushed to disk, then renamed over the target, so an interrupted run leaves the old file
(or none), never a truncated one. :func:`atomic_files` does the same for files that belong
together (an output and its sidecar): all are written first and renamed only when every
one is ready; if a rename fails, those already made are undone, so the old files stay
whole together. :func:`staged` does the same for a whole folder of reports. Only regular
files are replaced: a symlink is followed and its target written,
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
    "atomic_files",
    "atomic_open",
    "atomic_write",
    "atomic_write_json",
    "atomic_write_png",
    "atomic_write_text",
    "commit_files",
    "json_text",
    "jsonable",
    "staged",
    "write_json",
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
    link; a FIFO or device gets the file's content appended, never replaced
    (:func:`resolve_output`).
    """
    with atomic_files([path]) as (temporary,):
        write(temporary)


@contextlib.contextmanager
def atomic_open(path, *, encoding: str = "utf-8"):
    """A text stream (``\\n`` line endings) whose content replaces ``path`` on success.

    For output written in pieces: memory holds a piece, not the file. If the block
    raises, ``path`` is left as it was. Symlinks and special files as in
    :func:`atomic_write`.
    """
    with atomic_files([path]) as (temporary,):
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


def json_text(data: dict) -> str:
    """:func:`jsonable` ``data`` as indented JSON text, as every sidecar is written."""
    return json.dumps(jsonable(data), indent=2) + "\n"


def write_json(path, data: dict) -> None:
    """Write :func:`json_text` to ``path`` directly (a temporary of :func:`atomic_files`)."""
    with open(path, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(json_text(data))


def atomic_write_json(path, data: dict) -> None:
    """Write :func:`json_text` ``data``, atomically."""
    atomic_write_text(path, json_text(data))


def atomic_write_png(path, figure) -> None:
    """Save a matplotlib figure as a PNG (110 dpi, every figure rumdiff draws), atomically."""
    atomic_write(path, lambda temporary: figure.savefig(temporary, format="png", dpi=110))


@contextlib.contextmanager
def atomic_files(paths):
    """Temporary files for ``paths``, renamed over them together if the block succeeds.

    Yields one temporary path per path, in order. Each target is resolved before the
    block runs (a folder raises :class:`IsADirectoryError` naming it), so nothing is
    computed for an output that cannot be written. On success the files are flushed and
    committed by :func:`commit_files`: the old files stay whole together unless every
    new one lands. If the block raises, no target changes and the temporaries go.
    """
    paths = list(paths)
    targets = [resolve_output(path) for path in paths]
    made = []
    try:
        with contextlib.ExitStack() as stack:
            for (target, replaceable), path in zip(targets, paths, strict=True):
                if replaceable:
                    made.append(_temporary_beside(target, path))
                else:  # a device or FIFO: written into at the end
                    folder = stack.enter_context(tempfile.TemporaryDirectory())
                    made.append(os.path.join(folder, "output"))
            yield list(made)
            commit_files(list(zip(made, paths, strict=True)))
    finally:
        for temporary in made:
            Path(temporary).unlink(missing_ok=True)


def _temporary_beside(target: Path, shown) -> str:
    """An empty temporary file beside ``target``, with an ordinary file's mode; an
    error names ``shown``, the path the user gave."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(shown)) from None
    os.close(handle)
    os.chmod(temporary, _file_mode())
    return temporary


def commit_files(pairs) -> None:
    """Put each ready file over its target, all or none: ``pairs`` of (ready file, target).

    A ready file beside its target is renamed over it; one elsewhere (a staging folder,
    another file system) is first copied beside it. Every target that exists is first
    linked (or copied) to a backup beside it; if a rename then fails, the targets
    already replaced get their backups back, so a failure leaves the old set whole, and
    the error names the target that failed. Targets that are devices or FIFOs are
    written into last (they cannot be taken back). The ready files are consumed.
    """
    plan = []  # (ready file beside the target, resolved target, the path as given)
    streams = []
    try:
        for ready, path in pairs:
            target, replaceable = resolve_output(path)
            if not replaceable:
                streams.append((ready, target))
            elif Path(ready).parent.resolve() == target.parent.resolve():
                plan.append((str(ready), target, path))
            else:  # moved beside the target, or copied there from another file system
                beside = _temporary_beside(target, path)
                plan.append((beside, target, path))
                try:
                    os.replace(ready, beside)
                except OSError:
                    shutil.copyfile(ready, beside)
        for ready, _, _ in plan:
            with open(ready, "rb+") as stream:
                os.fsync(stream.fileno())
        _replace_all(plan)
    finally:
        for ready, _, _ in plan:
            Path(ready).unlink(missing_ok=True)
    for ready, target in streams:
        with open(ready, "rb") as source, open(target, "ab") as sink:
            shutil.copyfileobj(source, sink)
    for folder in {target.parent for _, target, _ in plan}:
        _fsync_dir(folder)


def _replace_all(plan) -> None:
    """Rename every planned file over its target, undoing them all if one fails."""
    backups = []  # (backup or None, target), for the targets already replaced
    try:
        for ready, target, path in plan:
            backup = _backup(target, path)
            try:
                os.replace(ready, target)
            except OSError as error:
                if backup is not None:
                    Path(backup).unlink(missing_ok=True)
                raise OSError(error.errno, error.strerror, str(path)) from None
            backups.append((backup, target))
    except BaseException:
        for backup, target in reversed(backups):
            with contextlib.suppress(OSError):
                if backup is None:
                    target.unlink()
                else:
                    os.replace(backup, target)
        raise
    finally:
        for backup, _ in backups:
            if backup is not None:
                Path(backup).unlink(missing_ok=True)


def _backup(target: Path, shown) -> str | None:
    """A copy of ``target``'s current content beside it (a hard link when the file
    system allows), or None when there is no target yet."""
    if not target.exists():
        return None
    backup = _temporary_beside(target, shown)
    os.unlink(backup)  # only its unique name is wanted
    try:
        os.link(target, backup)
    except OSError:  # no hard links here, or an immutable target: copy it instead
        try:
            shutil.copyfile(target, backup)
        except OSError as error:
            Path(backup).unlink(missing_ok=True)
            raise OSError(error.errno, error.strerror, str(shown)) from None
    return backup


@contextlib.contextmanager
def staged(outdir, elsewhere=None):
    """Write into a hidden folder inside ``outdir``; on success put its files into
    ``outdir`` together (:func:`commit_files`).

    ``elsewhere`` maps a staged file's name to another target than ``outdir / name``.
    So a run that fails half-way leaves ``outdir`` (and the targets elsewhere) as it was,
    apart from the folder itself, created if missing.
    """
    outdir = Path(outdir)
    elsewhere = dict(elsewhere or {})
    outdir.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=outdir, prefix=".staging-"))
    try:
        yield stage
        pairs = [
            (made, elsewhere.get(made.name, outdir / made.name)) for made in sorted(stage.iterdir())
        ]
        commit_files(pairs)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
