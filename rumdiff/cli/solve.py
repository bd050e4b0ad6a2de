"""``rumdiff solve``: maximum score of each puzzle in a file."""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import (
    check_outputs,
    integer,
    output_stream,
    puzzle_blocks,
    puzzle_options,
)

STATS_COLUMNS = (
    "puzzle", "k", "m", "n", "score", "lower", "upper", "removed", "segments", "dp_segments",
    "states", "transitions", "seconds", "method",
)  # fmt: skip

#: The line a puzzle the solver gave up on gets in place of its score.
UNSOLVED = "unsolved"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve puzzles exactly: one maximum score per line",
        description="Solve every puzzle in FILE exactly and print one maximum score per "
        "line (the thesis's output format). A puzzle the solver gives up on (over its "
        "state budget) is reported on stderr and gets the line 'unsolved'; the others are "
        "solved, and the exit code is 1.",
    )
    puzzle_options(parser)
    parser.add_argument("-o", "--output", default=None, help="write scores here (default: stdout)")
    parser.add_argument(
        "--stats", default=None, metavar="CSV", help="write time and work per puzzle as CSV"
    )
    parser.add_argument(
        "--show", action="store_true", help="print each optimal arrangement after its score"
    )
    parser.add_argument(
        "--beam-width", type=integer(0, config.MAX_BEAM_WIDTH), default=config.BEAM_WIDTH,
        help="states per value in the beam search that seeds the exact DP",
    )  # fmt: skip
    parser.add_argument(
        "--max-states", type=integer(1, config.MAX_STATES_LIMIT), default=config.MAX_STATES,
        help="budget: give up on a puzzle that needs more DP states",
    )  # fmt: skip
    parser.set_defaults(run=run)


def run(args) -> int:
    from rumdiff.puzzle import scan_puzzles

    check_outputs([args.file], [args.output, args.stats])
    with contextlib.ExitStack() as stack:
        if args.file == "-":  # read twice below: keep standard input in a temporary file
            args.file = _spool_stdin(stack)
        if args.k is None or args.n is None:  # the whole file's defaults, without holding it
            k, n, _ = scan_puzzles(args.file, m=args.m)
            args.k, args.n = args.k or k, args.n or n
        scores = stack.enter_context(output_stream(args.output))
        stats = stack.enter_context(output_stream(args.stats)) if args.stats else None
        if stats is not None:
            stats.write(",".join(STATS_COLUMNS) + "\n")
        number = failed = 0
        for block in puzzle_blocks(args):  # memory follows a block, not the file
            for puzzle in block:
                number += 1
                score, row = _solve_one(args, number, puzzle)
                failed += score == UNSOLVED
                scores.write(score + "\n")
                if stats is not None:
                    stats.write(",".join(map(str, row)) + "\n")
    if failed:
        raise UserError(f"{args.file}: {failed} of {number} puzzles {UNSOLVED}")
    return 0


def _spool_stdin(stack: contextlib.ExitStack) -> str:
    spool = stack.enter_context(tempfile.NamedTemporaryFile(prefix="rumdiff-stdin-"))
    shutil.copyfileobj(sys.stdin.buffer, spool)
    spool.flush()
    return spool.name


def _solve_one(args, number: int, puzzle) -> tuple[str, tuple]:
    """The score line and the stats row of one puzzle; a puzzle the solver gives up on
    is reported on stderr and marked, so that it never hides the others."""
    from rumdiff.solve import SolverBudgetError, solve

    shape = (number, puzzle.k, puzzle.m, puzzle.n)
    try:
        solution = solve(puzzle, beam_width=args.beam_width, max_states=args.max_states)
    except (SolverBudgetError, ValueError) as error:
        print(f"rumdiff solve: error: {args.file}: puzzle {number}: {error}", file=sys.stderr)
        return UNSOLVED, shape + ("",) * (len(STATS_COLUMNS) - 5) + ("failed",)
    line = str(solution.score)
    if args.show:
        shown = str(solution.arrangement)
        line += f"\n# puzzle {number}\n" + (shown + "\n" if shown else "") + "#"
    work = solution.work
    row = shape + (
        solution.score, solution.lower, solution.upper, solution.removed, solution.segments,
        solution.dp_segments, work.states, work.transitions, f"{work.seconds:.6f}", work.method,
    )  # fmt: skip
    return line, row
