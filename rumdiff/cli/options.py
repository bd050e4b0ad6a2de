"""Options and helpers that several commands share."""

from __future__ import annotations

import argparse
import sys

from rumdiff import config
from rumdiff.cli import UserError

__all__ = [
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
