"""``rumdiff features``: pre-solve features of each puzzle in a file, as CSV."""

from __future__ import annotations

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import puzzle_options, read_puzzle_file, write_output


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "features",
        help="pre-solve features of each puzzle, as CSV",
        description="Compute the pre-solve features of every puzzle in FILE and write one "
        "CSV row per puzzle, with a 1-based 'puzzle' column first. 'thesis' is the "
        "thesis's six (as its published solver computes them), 'extended' our set, 'all' "
        "both.",
    )
    puzzle_options(parser)
    parser.add_argument("-o", "--output", default=None, help="write the CSV here (default: stdout)")
    parser.add_argument(
        "--set", dest="feature_set", choices=config.FEATURE_SETS, default=config.FEATURE_SET,
        help=f"which features (default: {config.FEATURE_SET})",
    )  # fmt: skip
    parser.set_defaults(run=run)


def run(args) -> int:
    import numpy as np

    from rumdiff.features import compute_features

    puzzles = read_puzzle_file(args)
    try:
        frame = compute_features(puzzles, m=puzzles.m, feature_set=args.feature_set)
    except ValueError as error:
        raise UserError(f"{args.file}: {error}") from None
    frame.insert(0, "puzzle", np.arange(1, len(frame) + 1))
    write_output(args.output, frame.to_csv(index=False, lineterminator="\n"))
    return 0
