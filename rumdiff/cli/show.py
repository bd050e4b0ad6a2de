"""``rumdiff show``: a picture of puzzles and their optimal arrangements, as tiles."""

from __future__ import annotations

import argparse
import os
import stat

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import (
    check_outputs,
    meld_option,
    puzzle_blocks,
    puzzle_options,
    write_error,
)

DESCRIPTION = (
    "Solve puzzles of FILE and draw each with its optimal arrangement as the tiles players "
    "see: one run or group per row, coloured numbers on cards, the rack tiles left unplaced "
    "apart, a joker as J with what it stands for (=5r). Table tiles are grey with a dashed "
    "edge, rack tiles cream; a puzzle whose table cannot all be placed is drawn as its table "
    f"and rack, marked infeasible. A picture holds at most {config.SHOW_MAX_PUZZLES} puzzles "
    f"and is at most {config.SHOW_MAX_INCHES} inches tall: the first puzzles that fit (a note "
    "on stderr says so), or those --puzzles picks. The output is required, so nothing is "
    "overwritten by surprise."
)

#: Picture formats, by the output's extension.
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "show",
        help="draw puzzles and their optimal arrangements as tiles (PNG, SVG or PDF)",
        description=DESCRIPTION,
    )
    puzzle_options(parser)
    meld_option(parser)
    parser.add_argument(
        "-o", "--output", required=True, metavar="PICTURE",
        help="the picture to write, its format from its extension: .png, .svg or .pdf",
    )  # fmt: skip
    parser.add_argument(
        "--puzzles", type=puzzle_numbers, default=None, metavar="LIST",
        help="the puzzles to draw, by their place in FILE: 1,3,5-8 (default: the first "
        f"{config.SHOW_MAX_PUZZLES})",
    )  # fmt: skip
    parser.add_argument(
        "--objective", choices=("value", "tiles"), default="value",
        help="the arrangement to draw: the most value placed, or the most rack tiles "
        "placed with ties broken by value (as in rumdiff solve)",
    )  # fmt: skip
    parser.set_defaults(run=run)


def puzzle_numbers(text: str) -> tuple[int, ...]:
    """An argparse type: puzzle numbers from 1, separated by commas, with ranges
    (``1,3,5-8``), at most config.SHOW_MAX_PUZZLES of them, in the order given."""
    numbers = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last if dash else first)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected puzzle numbers and ranges such as 1,3,5-8, got {text!r}"
            ) from None
        if low < 1:
            raise argparse.ArgumentTypeError(f"puzzles are numbered from 1 up, got {part!r}")
        if low > high:
            raise argparse.ArgumentTypeError(
                f"a range goes up, got {part.strip()!r}; write {high}-{low}"
            )
        if len(numbers) + high - low + 1 > config.SHOW_MAX_PUZZLES:
            raise argparse.ArgumentTypeError(
                f"at most {config.SHOW_MAX_PUZZLES} puzzles fit one picture, got more in "
                f"{text!r}; draw the others into another picture"
            )
        numbers.extend(range(low, high + 1))
    return tuple(dict.fromkeys(numbers))  # each drawn once


def run(args) -> int:
    import sys

    from rumdiff.solve.display import draw_puzzles, figure_inches

    suffix = os.path.splitext(args.output)[1].lower()
    if suffix not in FORMATS:
        raise UserError(
            f"cannot tell the format of {args.output} from its name: end it in .png, .svg or .pdf"
        )
    check_outputs([args.file], [args.output])
    numbers, puzzles, count = _read(args)
    pairs = zip(numbers, puzzles, strict=True)
    solutions = [_solve(args, number, puzzle) for number, puzzle in pairs]
    arrangements = [solution.arrangement for solution in solutions]
    height = figure_inches(puzzles, arrangements)[1]
    # By default, as many of the first puzzles as fit: large ones take many inches each.
    why = f"a picture holds at most {config.SHOW_MAX_PUZZLES} puzzles"
    while args.puzzles is None and height > config.SHOW_MAX_INCHES and len(puzzles) > 1:
        del numbers[-1], puzzles[-1], arrangements[-1], solutions[-1]
        height = figure_inches(puzzles, arrangements)[1]
        why = (
            f"puzzle {numbers[-1] + 1} would make the picture taller than "
            f"{config.SHOW_MAX_INCHES} inches"
        )
    if height > config.SHOW_MAX_INCHES:
        what, advice = "these puzzles", "draw fewer with --puzzles"
        if len(puzzles) == 1:  # fewer is none: its arrangement as text instead
            what = f"puzzle {numbers[0]}"
            advice = "see its arrangement with rumdiff solve --show instead"
            if args.puzzles is None and count != 1:
                advice += ", or draw others with --puzzles"
        raise UserError(
            f"a picture of {what} would be {height:,.0f} inches tall, over the limit of "
            f"{config.SHOW_MAX_INCHES}; {advice}"
        )
    new = [solution.meld for solution in solutions]
    figure = draw_puzzles(puzzles, arrangements, numbers=numbers, new=new)
    _save(figure, args.output, FORMATS[suffix])
    if args.puzzles is None and (count < 0 or count > len(puzzles)):
        more = f"{count:,}" if count > 0 else "more"
        print(f"rumdiff show: drew puzzles 1-{len(puzzles)} of {more} in {args.file}: {why}; "
              "pick others with --puzzles", file=sys.stderr)  # fmt: skip
    return 0


def _read(args):
    """The puzzles to draw: their numbers, the puzzles, and how many FILE holds (-1: more
    than were read, from a stream).

    A regular file is checked whole first, as rumdiff solve does; standard input or a
    pipe is read once, as it comes, and only up to the last puzzle drawn. Either is read
    as one game, by the rule of every command.
    """
    from rumdiff.puzzle import scan_puzzles

    wanted = args.puzzles or tuple(range(1, config.SHOW_MAX_PUZZLES + 1))
    last = max(wanted)
    count = None
    if _regular(args.file):
        count = scan_puzzles(args.file, k=args.k, m=args.m, n=args.n, meld=args.initial_meld).count
    blocks = puzzle_blocks(args)
    found, seen = {}, 0
    for block in blocks:
        for puzzle in block:
            seen += 1
            if seen in wanted:
                found[seen] = puzzle
            if seen > last:  # one past the last drawn: there are more
                break
        else:
            continue
        break
    if count is None:
        count = seen if seen <= last else -1
    missing = [number for number in wanted if number not in found]
    if not seen:
        raise UserError(f"{args.file} holds no puzzle to draw")
    if args.puzzles is not None and missing:
        raise UserError(
            f"{args.file} holds {count:,} puzzles; there is no puzzle {missing[0]} to draw"
        )
    numbers = [number for number in wanted if number in found]
    return numbers, [found[number] for number in numbers], count


def _solve(args, number: int, puzzle):
    """The solution to draw for one puzzle, or a one-line error naming it."""
    from rumdiff.solve import SolverBudgetError, solve

    try:
        return solve(puzzle, objective=args.objective)
    except (SolverBudgetError, ValueError) as error:
        raise UserError(f"{args.file}: puzzle {number}: {error}") from None


def _save(figure, path: str, form: str) -> None:
    """Write the figure atomically, without the date (the same puzzles give the same
    SVG and PDF) and with SVG text kept as text."""
    from matplotlib import rc_context

    from rumdiff.atomic import atomic_write
    from rumdiff.puzzle.cards import SVG_SETTINGS

    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(form)
    try:
        with rc_context(SVG_SETTINGS):
            atomic_write(
                path,
                lambda temporary: figure.savefig(
                    temporary, format=form, dpi=110, metadata=metadata
                ),
            )
    except OSError as error:
        raise write_error(error, path) from None


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file, which can be read twice."""
    try:
        return path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # let the reader report it, naming the file
