"""Options and helpers that several commands share."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import stat
import sys
import tempfile

from rumdiff import config
from rumdiff.cli import UserError

__all__ = [
    "check_memory",
    "check_outputs",
    "generation_options",
    "integer",
    "jobs_option",
    "name_list",
    "number_list",
    "output_stream",
    "puzzle_options",
    "shape_options",
    "budget_error",
    "write_error",
    "puzzle_blocks",
    "scheduler_option",
]


def number_list(text: str) -> list[float]:
    """An option's list of numbers, separated by commas (``2500000,5700000``)."""
    try:
        return [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas, got {text!r}"
        ) from None


def positive(text: str) -> float:
    """An argparse type: a finite number above 0 (``--max-memory``), else a one-line
    usage error. (As a plain float, ``nan`` would silently switch the check off.)"""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return value


def integer(low: int | None = None, high: int | None = None, *, zero: bool = True):
    """An argparse type: a whole number in low..high (not 0 unless ``zero``), else a
    one-line usage error."""

    def parse(text: str) -> int:
        from rumdiff.validation import whole

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        try:
            value = whole("value", value, low=low, high=high)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix("value ")) from None
        if value == 0 and not zero:
            raise argparse.ArgumentTypeError("must not be 0 (-1 means every core)")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def name_list(text: str) -> tuple[str, ...]:
    """An option's list of names, separated by commas (``search,solver``)."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def shape_options(
    parser: argparse.ArgumentParser,
    *,
    k=config.K,
    m=config.M,
    n=config.N,
    k_help: str = "colours",
    m_help: str = "most copies of a tile",
    n_help: str = "largest value",
) -> None:
    """Add -k, -m and -n, the puzzles' shape, with these defaults; a default of None is
    worked out later, and its help text says how."""
    for flag, default, most, text in (
        ("-k", k, config.MAX_K, k_help),
        ("-m", m, config.MAX_M, m_help),
        ("-n", n, config.MAX_N, n_help),
    ):
        parser.add_argument(flag, type=integer(1, most), default=default, help=text)


def family_of(args):
    """The :class:`~rumdiff.data.family.Family` that ``args`` name: -k, -m, -n, --mode,
    --percentages, --regime-weights and --jokers.

    Raises
    ------
    UserError
        In one line, when the family is not valid.
    """
    from rumdiff.data.family import Family
    from rumdiff.puzzle import Game

    try:
        return Family(
            Game(args.k, args.m, args.n), args.mode, args.percentages, args.regime_weights,
            jokers=args.jokers,
        )  # fmt: skip
    except ValueError as error:
        raise UserError(str(error)) from None


def puzzle_options(parser: argparse.ArgumentParser, *, quiet: bool = True) -> None:
    """Add the puzzle file, the game's -k, -m and -n where it has no header, and (with
    ``quiet``) -q. Every command reads a file by one rule (``rumdiff.puzzle.files``): its
    header's game, else the default game with the -k, -m and -n given."""
    parser.add_argument(
        "file", help="puzzle file in the thesis format, with or without a header line naming "
        "its game ('# G(k, m, n)')",
    )  # fmt: skip
    default = config.K, config.M, config.N
    shape_options(
        parser, k=None, m=None, n=None,
        k_help=f"colours (default: the file's header, else {default[0]})",
        m_help=f"most copies of a tile (default: the file's header, else {default[1]})",
        n_help=f"largest value (default: the file's header, else {default[2]})",
    )  # fmt: skip
    if quiet:
        parser.add_argument(
            "-q", "--quiet", action="store_true",
            help="do not say on stderr which game the file is read as (default: off)",
        )  # fmt: skip


def meld_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--initial-meld [POINTS]``: read every puzzle as an opening move."""
    parser.add_argument(
        "--initial-meld", nargs="?", const=config.MELD_POINTS, default=None, metavar="POINTS",
        type=integer(1, config.MAX_MELD),
        help="solve each puzzle as an opening move: rack tiles and rack jokers alone, in new "
        "sets worth at least POINTS at face value (a joker as the tile it stands for; "
        f"default {config.MELD_POINTS}, the real game's), the table's sets left as they are; "
        "no such move: 'infeasible' (default: the file's header, else no meld)",
    )  # fmt: skip


def jobs_option(
    parser: argparse.ArgumentParser, note: str = "", *, workers: str = "worker processes"
) -> None:
    """Add ``--jobs``, with the one default and the one rule of every command
    (``workers``: what runs the work, for a command whose workers are not only processes)."""
    parser.add_argument(
        "--jobs", type=integer(-config.MAX_JOBS, config.MAX_JOBS, zero=False), default=config.JOBS,
        help=f"{workers}: -1 uses every core, -2 all but one; results never depend on "
        f"it{note} (default: {config.JOBS})",
    )  # fmt: skip


def generation_options(
    parser: argparse.ArgumentParser, *, m_help: str, budget_note: str = ""
) -> None:
    """Add the options of the commands that generate and solve puzzles themselves.

    -k, -m, -n (the puzzles' shape), --seed, --jobs, --max-states (``budget_note``
    added to its help), --repeats, -q and --max-memory.
    """
    shape_options(parser, m_help=m_help, n_help="values")
    parser.add_argument(
        "--seed",
        type=integer(0, 2**63 - 1),
        default=config.SEED,
        help=f"random seed (default: {config.SEED})",
    )
    jobs_option(parser)
    parser.add_argument(
        "--max-states", type=integer(1, config.MAX_STATES_LIMIT), default=config.MAX_STATES,
        help="budget: the most DP states a pass may keep; a puzzle whose reference search "
        f"needs more stops the run{budget_note} (default: {config.MAX_STATES:,})",
    )  # fmt: skip
    parser.add_argument(
        "--repeats", type=integer(1, 1000), default=config.DATASET_REPEATS,
        help="solves per puzzle, the fastest time is kept; multiplies the solving time "
        f"(default: {config.DATASET_REPEATS})",
    )  # fmt: skip
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="no progress bar or summary on stderr (default: off)",
    )  # fmt: skip
    parser.add_argument(
        "--max-memory", type=positive, default=config.MAX_MEMORY_GB, metavar="GB",
        help="refuse, before any work, a run that could need more memory than this, in GiB",
    )  # fmt: skip


def scheduler_option(parser: argparse.ArgumentParser, *, local: str = "local processes") -> None:
    """Add ``--scheduler``: run on a Dask cluster instead of ``local`` workers."""
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="address of a Dask scheduler (tcp://host:8786): run the work on its workers, "
        "with the same results as locally; needs pip install 'rumdiff[dask]' "
        f"(default: none, {local})",
    )  # fmt: skip


def puzzle_blocks(args):
    """The puzzle file of :func:`puzzle_options`' arguments in bounded blocks
    (:func:`rumdiff.puzzle.iter_puzzles`), its header read; unless ``args.quiet``, the
    command says on stderr which game it read the file as, once it has done its work
    (``args.game_note``: an error stays one line).

    ``args.k``, ``args.m``, ``args.n`` and ``args.game`` are set to the game the blocks
    settle on: the file's header's, else the default game with the ones given.
    """
    from rumdiff.puzzle import iter_puzzles

    name = getattr(args, "name", None)
    given = any(value is not None for value in (args.k, args.m, args.n))
    meld = getattr(args, "initial_meld", None)
    blocks = iter_puzzles(args.file, k=args.k, m=args.m, n=args.n, meld=meld, name=name)
    args.k, args.m, args.n, args.game = blocks.k, blocks.m, blocks.n, blocks.game
    if not getattr(args, "quiet", False):
        how = "its header" if blocks.header else "no header: the default game"
        if not blocks.header and given:
            how += ", with the -k, -m or -n given"
        if meld is not None:
            how += ", with --initial-meld"
        args.game_note = f"{blocks.name}: read as {blocks.game} ({how})"
    return blocks


@contextlib.contextmanager
def output_stream(path: str | None):
    """A text stream for a command's output, committed only if the block succeeds.

    A file is written atomically (:func:`rumdiff.atomic.atomic_open`); standard output
    (no path, or ``-``) is spooled to a temporary file and copied out at the end, so
    that an error part-way leaves no partial output there either.
    """
    if path is not None and path != "-":
        from rumdiff.atomic import atomic_open

        try:
            with atomic_open(path) as stream:
                yield stream
        except OSError as error:
            raise write_error(error, path) from None
        return
    from rumdiff.cli.streams import CLOSED, ClosedOutput, silence

    if isinstance(sys.stdout, ClosedOutput):  # before any work, not after it
        raise UserError(CLOSED)
    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n") as spool:
        try:
            yield spool
        except OSError as error:  # the spool's folder is full or capped
            where = tempfile.gettempdir()
            raise UserError(
                f"cannot spool standard output in {where}: {error.strerror or error}; "
                "write to a file with -o, or set TMPDIR"
            ) from None
        spool.seek(0)
        try:
            shutil.copyfileobj(spool, sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            silence(sys.stdout)
            raise UserError(f"cannot write to standard output: {error.strerror or error}") from None


def write_error(error: OSError, default) -> UserError:
    """A one-line error for an output that could not be written, naming the file that
    failed (the error's own, else ``default``)."""
    return UserError(f"cannot write {error.filename or default}: {error.strerror or error}")


def budget_error(error, *, labels: bool) -> UserError:
    """A one-line error for a puzzle over the reference search's state budget: the search
    effort is defined by that search, so only smaller puzzles (or, for labels, another
    measure) can go on."""
    advice = "use a smaller n or k, fewer copies (-m), or a larger --max-states"
    if labels:
        advice += "; or label by the fast solver (--label-by solver), which falls back to the ILP"
    return UserError(f"{error}; {advice}")


def check_memory(count: int, game, max_memory_gb: float) -> None:
    """Refuse, before any work, ``count`` puzzles of ``game`` that could need more memory
    than ``max_memory_gb`` GiB (:func:`rumdiff.data.generator.planned_bytes`)."""
    from rumdiff.data.generator import planned_bytes

    need = planned_bytes(count, game)
    if need > max_memory_gb * 2**30:
        raise UserError(
            f"{count:,} puzzles of {game.n} values and {game.k} colours need up to "
            f"{need / 2**30:,.1f} GiB, over the limit of {max_memory_gb:g} GiB; generate "
            "fewer (--count) or raise --max-memory"
        )


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
    links too), unless it is a device or FIFO such as ``/dev/null``; it may not be a
    folder; its folder must be a folder (or creatable) and writable.

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
        if os.path.isdir(path):
            raise UserError(f"cannot write {path}: it is a folder; choose a file name")
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
