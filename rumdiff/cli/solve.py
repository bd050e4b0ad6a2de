"""``rumdiff solve``: maximum score of each puzzle in a file."""

from __future__ import annotations

import contextlib
import os
import stat
import sys

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import (
    check_outputs,
    integer,
    jobs_option,
    meld_option,
    output_stream,
    puzzle_blocks,
    puzzle_options,
    scheduler_option,
)
from rumdiff.validation import one_line

STATS_COLUMNS = (
    "puzzle", "k", "m", "n", "score", "lower", "upper", "removed", "segments", "dp_segments",
    "states", "transitions", "seconds", "method",
)  # fmt: skip

#: The line a puzzle the solver gave up on gets in place of its score.
UNSOLVED = "unsolved"
#: The line of a puzzle whose table no arrangement places whole.
INFEASIBLE = "infeasible"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve puzzles exactly: one maximum score per line",
        description="Solve every puzzle in FILE exactly and print one maximum score per "
        "line (the thesis's output format). A puzzle may hold jokers (J) and a table after "
        "'|' (README, 'Jokers and the table'); one whose table cannot all be placed gets "
        "the line 'infeasible'. A puzzle the solver cannot solve (over its "
        "state budget with --no-ilp-fallback) is reported on stderr and gets the line "
        "'unsolved'; the others are solved, and the exit code is 1. With --initial-meld, "
        "each puzzle is an opening move (README, 'The opening meld').",
    )
    puzzle_options(parser, quiet=False)
    meld_option(parser)
    parser.add_argument("-o", "--output", default=None, help="write scores here (default: stdout)")
    parser.add_argument(
        "--stats", default=None, metavar="CSV", help="write time and work per puzzle as CSV"
    )
    parser.add_argument(
        "--show", action="store_true",
        help="print each optimal arrangement after its score, a line per run and group (a "
        "joker as J=5r: what it stands for); with a table, + marks a tile from the rack, "
        "and '# new' or '# changed' a set of rack tiles alone or of rack and table tiles",
    )  # fmt: skip
    parser.add_argument(
        "--objective", choices=("value", "tiles"), default="value",
        help="maximise the value placed (default), or the rack tiles placed with ties "
        "broken by value, as game solvers do; the line is the value either way",
    )  # fmt: skip
    parser.add_argument(
        "--beam-width", type=integer(0, config.MAX_BEAM_WIDTH), default=config.BEAM_WIDTH,
        help=f"states per value in the beam search that seeds the exact DP ({config.BEAM_WIDEN}x "
        "as many for k >= 5)",
    )  # fmt: skip
    parser.add_argument(
        "--max-states", type=integer(1, config.MAX_STATES_LIMIT), default=config.MAX_STATES,
        help="budget: the most DP states a pass may keep; over it, the reference ILP solves "
        "the puzzle (method 'ilp' in --stats)",
    )  # fmt: skip
    parser.add_argument(
        "--no-ilp-fallback", action="store_true",
        help="give up on a puzzle over the budget (line 'unsolved') instead of using the ILP",
    )  # fmt: skip
    jobs_option(
        parser, f", nor the output's order; they start only once the solving has taken "
        f"{config.SPAWN_SECONDS:g} s here",
    )  # fmt: skip
    scheduler_option(parser)
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help=f"do not say on stderr which game the file is read as, and show no progress "
        f"bar (shown for files of at least {config.SOLVE_PROGRESS_PUZZLES:,} puzzles)",
    )  # fmt: skip
    parser.set_defaults(run=run)


def run(args) -> int:
    from rumdiff.cli.progress import ProgressBar
    from rumdiff.cluster import connect
    from rumdiff.processes import run_unordered

    check_outputs([args.file], [args.output, args.stats])
    args.name = args.file  # what messages call the input
    with contextlib.ExitStack() as stack:
        blocks, count = _blocks(args)
        client = stack.enter_context(connect(args.scheduler)) if args.scheduler else None
        scores = stack.enter_context(output_stream(args.output))
        stats = stack.enter_context(output_stream(args.stats)) if args.stats else None
        if stats is not None:
            stats.write(",".join(STATS_COLUMNS) + "\n")
        bar = None
        if not args.quiet and count >= config.SOLVE_PROGRESS_PUZZLES:
            bar = ProgressBar(count)
        options = (
            args.beam_width, args.max_states, not args.no_ilp_fallback, args.show,
            args.objective,
        )  # fmt: skip
        tasks = (
            (_piece(block, start, start + config.SOLVE_TASK_PUZZLES), block.game, options)
            for block in blocks  # memory follows a block, not the file
            for start in range(0, len(block), config.SOLVE_TASK_PUZZLES)
        )
        number = failed = 0
        for results in run_unordered(
            solve_piece, tasks, jobs=args.jobs, client=client, ordered=True,
            local_seconds=config.SPAWN_SECONDS,
        ):  # fmt: skip
            for line, shown, row, error in results:
                number += 1
                if shown is not None:
                    line += f"\n# puzzle {number}\n" + (shown + "\n" if shown else "") + "#"
                if error is not None:
                    failed += 1
                    print(one_line(f"rumdiff solve: error: {args.name}: puzzle {number}: {error}"),
                          file=sys.stderr)  # fmt: skip
                scores.write(line + "\n")
                if stats is not None:
                    shape = (number, args.k, args.m, args.n, *row)
                    stats.write(",".join(map(str, shape)) + "\n")
            if bar is not None:
                bar.update(number)
        if bar is not None:
            bar.close()
    if failed:
        raise UserError(f"{args.name}: {failed} of {number} puzzles {UNSOLVED}")
    return 0


def _blocks(args):
    """The puzzles of ``args.file`` in blocks and their number (0 if unknown), read as one
    game (``args.k``, ``args.m``, ``args.n`` set to it).

    A regular file is checked whole first: a bad line at the end fails before hours of
    solving. Standard input, a pipe or a device can be read once only: it is read as it
    is solved, never copied, by the same rule.
    """
    from rumdiff.puzzle import scan_puzzles

    count = 0
    if _regular(args.file):
        count = scan_puzzles(
            args.file, k=args.k, m=args.m, n=args.n, meld=args.initial_meld, name=args.name
        ).count
    return puzzle_blocks(args), count


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file, which can be read twice."""
    try:
        return path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # let the reader report it, naming the file


def _piece(block, start: int, stop: int) -> tuple:
    """A slice of a block of puzzles: copies, then jokers, table and table jokers (each
    None when no puzzle of the block has them)."""
    return tuple(
        None if array is None else array[start:stop]
        for array in (block.copies, block.jokers, block.table, block.table_jokers)
    )


def solve_piece(piece, game, options: tuple) -> list:
    """Solve a few puzzles (a task of a worker): per puzzle its score line, its
    arrangement as text (if ``show``, else None), its stats (without the puzzle's number
    and shape) and the reason it failed, or None.

    A puzzle the solver gives up on gets the line 'unsolved', so it never hides the others.
    """
    from rumdiff.puzzle import Puzzle
    from rumdiff.solve import SolverBudgetError, solve
    from rumdiff.solve.display import solution_text

    beam_width, max_states, ilp_fallback, show, objective = options
    copies, jokers, table, table_jokers = piece
    out = []
    for i, one in enumerate(copies):
        try:
            puzzle = Puzzle(
                one,
                game=game,
                jokers=0 if jokers is None else int(jokers[i]),
                table=None if table is None else table[i],
                table_jokers=0 if table_jokers is None else int(table_jokers[i]),
            )
            solution = solve(
                puzzle,
                beam_width=beam_width,
                max_states=max_states,
                ilp_fallback=ilp_fallback,
                objective=objective,
            )
        except (SolverBudgetError, ValueError) as error:
            row = ("",) * (len(STATS_COLUMNS) - 5) + ("failed",)
            out.append((UNSOLVED, None, row, str(error)))
            continue
        work = solution.work
        row = (
            solution.score, solution.lower, solution.upper, solution.removed, solution.segments,
            solution.dp_segments, work.states, work.transitions, f"{work.seconds:.6f}",
            work.method,
        )  # fmt: skip
        row = tuple("" if value is None else value for value in row)  # infeasible: no score
        if not solution.feasible:
            out.append((INFEASIBLE, "" if show else None, row, None))
            continue
        shown = solution_text(puzzle, solution.arrangement, solution.meld) if show else None
        out.append((str(solution.score), shown, row, None))
    return out
