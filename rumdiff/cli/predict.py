"""``rumdiff predict``: how hard is each puzzle of a file, before solving it."""

from __future__ import annotations

import sys
import warnings

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import check_outputs, output_stream, puzzle_blocks, puzzle_options


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "predict",
        help="predict the difficulty class of each puzzle (easy/moderate/medium/hard)",
        description="Predict the difficulty of every puzzle in FILE with a trained model: "
        "one row per puzzle with its index, its class (difficulty: the most probable), the "
        "class probabilities, and its predicted effort in the units the classes cut: for "
        "both shipped models the search effort, in transitions of the reference search "
        "(docs/search-effort.md; easy means 0, settled by bounds). The estimate lies in "
        "its class's range of effort, between effort_low and effort_high: the spread of the "
        f"regressor's trees (their {config.PREDICT_SPREAD[0]:.0%} and "
        f"{config.PREDICT_SPREAD[1]:.0%} quantiles), widened to hold it "
        "(docs/decisions/predict-agreement.md). "
        "The file's game is its header's, else the default game "
        f"G({config.K}, {config.M}, {config.N}) (-k, -m and -n change it); puzzles outside "
        "the model's scope are refused in one line that names it. Model files are skops "
        "archives, which cannot run code when loaded; a pickle saved by an earlier release "
        "loads only with --trust-pickle.",
    )
    puzzle_options(parser)
    parser.add_argument(
        "--model", default=None, metavar="PATH",
        help="model file with its PATH.json sidecar, or 'thesis' for the shipped model of "
        "G(4, 2, 100) at its own terciles (default: models/default.skops, which spans "
        "families)",
    )  # fmt: skip
    parser.add_argument(
        "--trust-pickle", action="store_true",
        help="also load a model saved as a pickle by an earlier release: a pickle can run "
        "arbitrary code, so only for a file whose source you trust",
    )  # fmt: skip
    parser.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
    parser.add_argument(
        "--format", choices=config.PREDICT_FORMATS, default=None,
        help="output format (default: csv when OUTPUT ends in .csv, else table)",
    )  # fmt: skip
    parser.set_defaults(run=run)


def run(args) -> int:
    from rumdiff.learn.archive import PickleWarning
    from rumdiff.learn.model import ModelError, load_model, refuse_meld
    from rumdiff.learn.prediction import (
        format_table,
        missing_shipped_model,
        model_path,
        predict,
        to_csv,
    )
    from rumdiff.learn.sidecar import sidecar_path
    from rumdiff.puzzle import Puzzles

    path = model_path(args.model)
    check_outputs([args.file, path, sidecar_path(path)], [args.output])
    missing = missing_shipped_model(args.model)
    if missing:
        raise UserError(
            f"{missing}, or give --model DIR/{config.MODEL_NAME} (rumdiff train DATASET -o DIR)"
        )
    blocks = puzzle_blocks(args)  # memory follows a block, not the file
    try:  # whatever the model file holds
        refuse_meld(blocks.game, f"{args.file}: ")
    except ModelError as error:
        raise UserError(str(error)) from None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PickleWarning)
            model = load_model(path, trust_pickle=args.trust_pickle)
    except ModelError as error:
        raise UserError(str(error)) from None
    finally:  # a pickle was trusted even when what it held is then refused
        for warning in caught:  # one line each, as every message of the command line
            if issubclass(warning.category, PickleWarning):
                print(f"rumdiff predict: warning: {warning.message}", file=sys.stderr)
            else:
                warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                       warning.lineno)  # fmt: skip
    try:  # a family outside the model's is refused before any output, puzzles or none
        model.check_puzzles(Puzzles.empty(blocks.game, source=args.file))
    except ModelError as error:
        raise UserError(str(error)) from None
    form = args.format or ("csv" if str(args.output or "").endswith(".csv") else "table")
    with output_stream(args.output) as out:
        done = 0
        for block in blocks:
            try:
                frame = predict(model, block)
            except ModelError as error:
                raise UserError(str(error)) from None
            frame["puzzle"] += done
            if form == "csv":  # a CSV travels alone: it says which puzzles it is about
                frame.insert(1, "k", block.k)
                frame.insert(2, "m", block.m)
                frame.insert(3, "n", block.n)
                out.write(to_csv(frame, header=done == 0))
            else:
                out.write(format_table(frame, header=done == 0))
            done += len(frame)
        if done == 0:
            out.write(_empty(model, form))
    return 0


def _empty(model, form: str) -> str:
    """The header alone, for a file of no puzzles."""
    from rumdiff.learn.prediction import format_table, predict, to_csv
    from rumdiff.puzzle import Game, Puzzles

    frame = predict(model, Puzzles.empty(Game(model.k, model.m, model.n)))
    if form == "csv":
        for position, column in enumerate("kmn", start=1):
            frame.insert(position, column, [])
        return to_csv(frame)
    return format_table(frame)
