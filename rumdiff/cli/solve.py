"""``rumdiff solve``: maximum score of each puzzle in a file."""

from __future__ import annotations

import sys

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import check_outputs, puzzle_options, read_puzzle_file, write_output

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
        "--beam-width", type=int, default=config.BEAM_WIDTH,
        help="states per value in the beam search that seeds the exact DP",
    )  # fmt: skip
    parser.add_argument(
        "--max-states", type=int, default=config.MAX_STATES,
        help="budget: give up on a puzzle that needs more DP states",
    )  # fmt: skip
    parser.set_defaults(run=run)


def run(args) -> int:
    from rumdiff.solve import SolverBudgetError, solve

    check_outputs([args.file], [args.output, args.stats])
    puzzles = read_puzzle_file(args)
    scores, stats = [], []
    failed = 0
    for number, puzzle in enumerate(puzzles, start=1):
        try:
            solution = solve(puzzle, beam_width=args.beam_width, max_states=args.max_states)
        except (SolverBudgetError, ValueError) as error:
            # One puzzle the solver gives up on must not hide the others' scores.
            failed += 1
            print(f"rumdiff solve: error: {args.file}: puzzle {number}: {error}", file=sys.stderr)
            scores.append(UNSOLVED)
            blank = ("",) * (len(STATS_COLUMNS) - 5)
            stats.append((number, puzzles.k, puzzles.m, puzzles.n) + blank + ("failed",))
            continue
        line = str(solution.score)
        if args.show:
            shown = str(solution.arrangement)
            line += f"\n# puzzle {number}\n" + (shown + "\n" if shown else "") + "#"
        scores.append(line)
        work = solution.work
        stats.append(
            (number, puzzles.k, puzzles.m, puzzles.n, solution.score, solution.lower,
             solution.upper, solution.removed, solution.segments, solution.dp_segments,
             work.states, work.transitions, f"{work.seconds:.6f}", work.method)
        )  # fmt: skip
    if args.stats:
        table = [",".join(STATS_COLUMNS)] + [",".join(map(str, row)) for row in stats]
        write_output(args.stats, "\n".join(table) + "\n")
    write_output(args.output, "".join(f"{line}\n" for line in scores))
    if failed:
        raise UserError(f"{args.file}: {failed} of {len(puzzles)} puzzles {UNSOLVED}")
    return 0
