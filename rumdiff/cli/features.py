"""``rumdiff features``: pre-solve features of each puzzle in a file, as CSV."""

from __future__ import annotations

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import (
    check_outputs,
    jobs_option,
    output_stream,
    puzzle_blocks,
    puzzle_options,
    scheduler_option,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "features",
        help="pre-solve features of each puzzle, as CSV",
        description="Compute the pre-solve features of every puzzle in FILE and write one "
        "CSV row per puzzle: a 1-based 'puzzle' column, k, m and n, then the features. "
        "'thesis' is the thesis's six (as its published solver computes them), 'extended' "
        "our set, 'all' both. Features depend on k, m and n (pct_0_copies counts the empty "
        "cells of n values): the file's game, from its header, else the default game "
        f"G({config.K}, {config.M}, {config.N}), never from its largest value: a puzzle's "
        "features do not depend on the other puzzles in its file.",
    )
    puzzle_options(parser)
    parser.add_argument("-o", "--output", default=None, help="write the CSV here (default: stdout)")
    parser.add_argument(
        "--features", dest="feature_set", choices=config.FEATURE_SETS, default=config.FEATURE_SET,
        help=f"which features (default: {config.FEATURE_SET})",
    )  # fmt: skip
    parser.add_argument(
        "--joker-features", action="store_true",
        help="add the joker and table features (default: when the file's first puzzles "
        "have jokers or a table)",
    )  # fmt: skip
    jobs_option(
        parser, ", nor the output's order; with --scheduler, the cluster's workers compute "
        "instead",
        workers=f"threads computing the features (for puzzles with jokers or a table, "
        f"processes, started once the work has taken {config.SPAWN_SECONDS:g} s here)",
    )  # fmt: skip
    scheduler_option(parser, local="local threads or processes, as --jobs says")
    parser.set_defaults(run=run)


def run(args) -> int:
    import contextlib
    import itertools

    from rumdiff.cluster import connect
    from rumdiff.features import feature_names
    from rumdiff.processes import run_unordered
    from rumdiff.puzzle import PuzzleFileError

    check_outputs([args.file], [args.output])
    blocks = puzzle_blocks(args)  # memory follows a block, not the file
    shape = {"k": args.k, "m": args.m, "n": args.n}
    jokers = args.joker_features  # else decided by the first block

    def tasks(first):
        done = 0
        for block in itertools.chain([first] if first is not None else [], blocks):
            if not jokers and not block.plain:
                raise UserError(
                    f"{args.file}: puzzles with jokers or a table follow {done:,} without "
                    "them; rerun with --joker-features, so every row has the same columns"
                )
            for start in range(0, len(block), config.FEATURES_TASK_PUZZLES):
                piece = block[start : start + config.FEATURES_TASK_PUZZLES]
                yield piece, done, (shape, args.feature_set, jokers)
                done += len(piece)

    with contextlib.ExitStack() as stack:
        client = stack.enter_context(connect(args.scheduler)) if args.scheduler else None
        out = stack.enter_context(output_stream(args.output))
        written = False
        try:
            first = next(blocks, None)
            jokers = jokers or (first is not None and not first.plain)
            # The kernels of the features of plain puzzles release the GIL, so threads
            # share the cores; the joker features' passes of the engine hold it, so
            # those go to processes once the work has lasted long enough to pay for them.
            for text in run_unordered(
                features_piece, tasks(first), jobs=args.jobs, client=client, ordered=True,
                threads=not jokers,
                local_seconds=config.SPAWN_SECONDS,
            ):  # fmt: skip
                out.write(text)
                written = True
        except PuzzleFileError:
            raise  # it names the file and line already
        except ValueError as error:
            raise UserError(f"{args.file}: {error}") from None
        if not written:
            names = feature_names(args.feature_set, k=args.k, m=args.m, jokers=jokers)
            out.write(",".join(["puzzle", *shape, *names]) + "\n")
    return 0


def features_piece(puzzles, done: int, options: tuple) -> str:
    """The CSV rows of a few puzzles (a task of a worker), numbered from ``done + 1``;
    with the header line when ``done`` is 0. ``options`` is ``(shape, feature_set,
    jokers)``: the k, m and n columns' values, and what to compute.

    The text is what pandas' ``to_csv`` writes of the same columns (numbers as Python
    prints them: ``str`` of an int or a float), without importing pandas, which would
    take a good part of the command's time (``tests/test_features.py`` compares them).
    """
    from rumdiff.features import feature_columns

    shape, feature_set, jokers = options
    columns = feature_columns(puzzles, m=puzzles.m, feature_set=feature_set, jokers=jokers)
    count = len(puzzles)
    cells = [
        map(str, range(done + 1, done + count + 1)),
        *([str(value)] * count for value in shape.values()),
        *(map(str, column.tolist()) for column in columns.values()),
    ]
    lines = [",".join(["puzzle", *shape, *columns])] if done == 0 else []
    lines += map(",".join, zip(*cells, strict=True))
    return "\n".join(lines) + "\n" if lines else ""
