"""Options and helpers that several commands share."""

from __future__ import annotations

import argparse
import os
import stat
import sys

from rumdiff import config
from rumdiff.cli import UserError

__all__ = [
    "check_outputs",
    "generation_options",
    "name_list",
    "number_list",
    "puzzle_options",
    "read_puzzle_file",
    "write_output",
]


def number_list(text: str) -> list[float]:
    """An option's list of numbers, separated by commas (``2500000,5700000``)."""
    try:
        return [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas, got {text!r}"
        ) from None


def name_list(text: str) -> tuple[str, ...]:
    """An option's list of names, separated by commas (``search,solver``)."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def puzzle_options(parser: argparse.ArgumentParser) -> None:
    """Add the options every command that reads a puzzle file shares."""
    parser.add_argument("file", help="puzzle file in the thesis format")
    parser.add_argument(
        "-k", type=int, default=None,
        help="colours (default: from the letters used, at least 4)",
    )  # fmt: skip
    parser.add_argument(
        "-m", type=int, default=config.M, help=f"most copies of a tile (default: {config.M})"
    )
    parser.add_argument(
        "-n", type=int, default=None, help="largest value (default: the largest in the file)"
    )


def generation_options(parser: argparse.ArgumentParser, *, m_help: str, jobs_help: str) -> None:
    """Add the options of the commands that generate and solve puzzles themselves.

    -k, -m, -n (the puzzles' shape), --seed, --jobs, --repeats and -q.
    """
    parser.add_argument("-k", type=int, default=config.K, help=f"colours (default: {config.K})")
    parser.add_argument("-m", type=int, default=config.M, help=f"{m_help} (default: {config.M})")
    parser.add_argument("-n", type=int, default=config.N, help=f"values (default: {config.N})")
    parser.add_argument(
        "--seed", type=int, default=config.SEED, help=f"random seed (default: {config.SEED})"
    )
    parser.add_argument(
        "--jobs", type=int, default=config.DATASET_JOBS,
        help=f"worker processes; {jobs_help} (default: {config.DATASET_JOBS})",
    )  # fmt: skip
    parser.add_argument(
        "--repeats", type=int, default=config.DATASET_REPEATS,
        help="solves per puzzle, the fastest time is kept; multiplies the solving time "
        f"(default: {config.DATASET_REPEATS})",
    )  # fmt: skip
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="no progress bar or summary on stderr (default: off)",
    )  # fmt: skip


def read_puzzle_file(args):
    """Read the puzzle file named by :func:`puzzle_options`' arguments."""
    from rumdiff.puzzle import read_puzzles

    return read_puzzles(args.file, k=args.k, m=args.m, n=args.n)


def write_output(path: str | None, text: str) -> None:
    """Write command output to a file atomically, or to stdout when no path is given."""
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    from rumdiff.atomic import atomic_write_text

    try:
        atomic_write_text(path, text)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def _identity(path: str):
    """What a path really names: (device, inode) if it exists, else its resolved path."""
    resolved = os.path.realpath(path)
    try:
        info = os.stat(resolved)
    except OSError:
        return resolved, False
    special = not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode))
    return (info.st_dev, info.st_ino), special


def check_outputs(inputs, outputs) -> None:
    """Refuse, before any work, outputs that would destroy an input or each other.

    ``inputs`` and ``outputs`` are paths (``None`` and ``-`` are skipped). An output may
    not be the same file as an input or as another output (through symlinks and hard
    links too), unless it is a device or FIFO such as ``/dev/null``; its folder must be
    a folder (or creatable) and writable.

    Raises
    ------
    UserError
        Naming the output and the clash.
    """
    inputs_by_identity, outputs_by_identity = {}, {}
    for path in inputs:
        if path is not None and str(path) != "-":
            identity, special = _identity(str(path))
            if not special:
                inputs_by_identity[identity] = path
    for path in outputs:
        if path is None or str(path) == "-":
            continue
        identity, special = _identity(str(path))
        if special:
            continue
        if identity in inputs_by_identity:
            clash = inputs_by_identity[identity]
            raise UserError(f"output {path} is the input {clash}; choose another output")
        if identity in outputs_by_identity:
            clash = outputs_by_identity[identity]
            raise UserError(f"outputs {clash} and {path} are the same file; choose two")
        outputs_by_identity[identity] = path
        _check_creatable(str(path))


def _check_creatable(path: str) -> None:
    folder = os.path.dirname(os.path.realpath(path)) or "."
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise UserError(f"cannot write {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write {path}: {folder} is not writable")
