"""The ``rumdiff`` command line: a thin layer over the library, one module per command.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``run`` (taking the parsed arguments, returning an exit code) as the handler. Heavy
modules are imported inside ``run`` so that ``rumdiff --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rumdiff import __version__

#: Command modules, in the order ``rumdiff --help`` lists them.
COMMANDS = ("generate", "solve", "features", "train", "predict", "explore")

#: Exit code for bad input or a failed job (argparse uses 2 for bad options).
EXIT_ERROR = 1


class UserError(Exception):
    """An error to report in one line, without a traceback."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available command registered."""
    parser = argparse.ArgumentParser(
        prog="rumdiff",
        description="How hard is a Rummikub puzzle? Generate, solve, featurise, train, predict.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"rumdiff {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"rumdiff.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"rumdiff.cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv=None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    from rumdiff.puzzle_file import PuzzleFileError

    try:
        return int(args.run(args) or 0)
    except (UserError, PuzzleFileError) as error:
        print(f"rumdiff {args.command}: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"rumdiff {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def puzzle_options(parser: argparse.ArgumentParser) -> None:
    """Add the options every command that reads a puzzle file shares."""
    parser.add_argument("file", help="puzzle file in the thesis format")
    parser.add_argument(
        "-k", type=int, default=None,
        help="colours (default: from the letters used, at least 4)",
    )  # fmt: skip
    parser.add_argument("-m", type=int, default=2, help="most copies of a tile")
    parser.add_argument(
        "-n", type=int, default=None, help="largest value (default: the largest in the file)"
    )


def generation_options(parser: argparse.ArgumentParser, *, m_help: str, jobs_help: str) -> None:
    """Add the options of the commands that generate and solve puzzles themselves.

    -k, -m, -n (the puzzles' shape), --seed, --jobs, --repeats and -q.
    """
    from rumdiff import config

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
    from rumdiff.puzzle_file import read_puzzles

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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
