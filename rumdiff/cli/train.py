"""``rumdiff train``: fit, cross-validate and report the difficulty classifier."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import shlex
import sys
import time
from pathlib import Path

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import (
    check_outputs,
    integer,
    jobs_option,
    number_list,
    positive,
    scheduler_option,
    write_error,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train the difficulty classifier and score on one dataset, or several across "
        "families; write reports and model",
        description="Train a random forest classifier of the four difficulty classes and "
        "a random forest regressor of log10 effort (the difficulty score) on a labelled "
        "dataset (rumdiff generate): grid search, stratified cross-validation on every "
        "row, final fits. Writes the classification report, confusion matrix, the score's "
        "predicted-against-true plot, feature importance, label distribution and "
        "report.md into OUTDIR, and the model (a skops file with a JSON sidecar). The "
        "default grid is searched on a stratified subsample; see rumdiff.learn.training.",
    )
    parser.add_argument(
        "dataset", nargs="+",
        help="dataset file (.parquet or .csv) with its .json sidecar; several datasets, of "
        "any families, train one model across them on the scaled features (--features "
        "scaled; each dataset made by rumdiff generate --features scaled), labelled on "
        "one scale",
    )  # fmt: skip
    parser.add_argument(
        "-o", "--outdir", required=True,
        help=f"folder for the reports and the model, {config.MODEL_NAME} with its sidecar "
        f"{config.MODEL_NAME}.json (a skops archive, which cannot run code when loaded)",
    )  # fmt: skip
    parser.add_argument(
        "--features", choices=config.FEATURE_SETS, default=config.TRAIN_FEATURE_SET,
        help="feature set to train on",
    )  # fmt: skip
    parser.add_argument(
        "--label-by", choices=tuple(config.LABEL_MEASURES), default=None,
        help="label measure: search (the reference search's transitions), solver (the fast "
        "solver's) or time (its seconds) (default: the dataset's own)",
    )  # fmt: skip
    parser.add_argument(
        "--thresholds", type=number_list, default=None, metavar="T1,T2[,T3]",
        help="the measure's thresholds, separated by commas (default: those recorded in "
        "the dataset; for several datasets "
        f"{','.join(map(str, config.LABEL_THRESHOLDS['search']))} search transitions)",
    )  # fmt: skip
    parser.add_argument(
        "--grid", choices=tuple(config.TRAIN_GRIDS), default=config.TRAIN_GRID,
        help="hyperparameter grid: 'default' (size-capped, searched on a subsample), 'mix' "
        "(the same, also trying half the features at each split: the default model's) or "
        "'thesis' (the thesis's 81 candidates, searched on every row: slow)",
    )  # fmt: skip
    parser.add_argument(
        "--search-rows", type=integer(0, 2**40), default=None, metavar="N",
        help="rows of the stratified subsample the grid is searched on, 0 for all "
        "(default: 40,000 for the default and mix grids, all for thesis)",
    )  # fmt: skip
    parser.add_argument(
        "--folds", type=integer(2, 1000), default=config.TRAIN_FOLDS, help="cross-validation folds"
    )
    jobs_option(parser)
    parser.add_argument(
        "--seed", type=integer(0, 2**63 - 1), default=config.SEED, help="random seed"
    )
    scheduler_option(parser)
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no progress lines, only the results"
    )
    parser.add_argument(
        "--max-memory", type=positive, default=config.MAX_MEMORY_GB, metavar="GB",
        help="refuse, before reading it, a dataset whose training could need more memory "
        "than this, in GiB (its header and size decide)",
    )  # fmt: skip
    parser.add_argument(
        "--compare", action="store_true",
        help="also cross-validate the thesis and extended feature sets on the same folds "
        "and write one table (compare.md, compare.csv)",
    )  # fmt: skip
    parser.add_argument("--model", nargs="?", action=_ModelIsAnInput, help=argparse.SUPPRESS)
    parser.set_defaults(run=run)


class _ModelIsAnInput(argparse.Action):
    """``--model`` names a model to read everywhere (predict, generate): train refuses it
    in one line that says where its model goes."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(
            f"train writes its model to OUTDIR/{config.MODEL_NAME} (and its sidecar beside "
            "it); --model names a model to read, in predict and generate"
        )


def _read(path: str, max_memory_gb: float):
    """The dataset and its sidecar; its header and size are checked first, and only the
    columns rumdiff knows are read."""
    from rumdiff.data import DatasetError, read_dataset, read_sidecar
    from rumdiff.data.sizing import check_dataset_memory, dataset_columns_known, header_columns

    if not Path(path).is_file():
        raise UserError(f"{path}: dataset file not found")
    try:
        metadata = read_sidecar(path)
        check_dataset_memory(path, max_memory_gb)
        known = dataset_columns_known(metadata)
        columns = [name for name in dict.fromkeys(header_columns(path)) if name in known]
        return read_dataset(path, columns=columns), metadata
    except (OSError, DatasetError) as error:
        raise UserError(str(error)) from None


def run(args) -> int:
    from rumdiff.atomic import staged
    from rumdiff.cli.progress import format_duration
    from rumdiff.cluster import joblib_on_cluster
    from rumdiff.data.io import metadata_path
    from rumdiff.learn import model as models
    from rumdiff.report import report

    search_rows = "grid" if args.search_rows is None else (args.search_rows or None)
    outdir = Path(args.outdir)
    path = outdir / config.MODEL_NAME
    reports = report.report_files(outdir, comparison=args.compare)
    # Every file this run may write, reports included, against its inputs and each other.
    inputs = [name for dataset in args.dataset for name in (dataset, metadata_path(dataset))]
    check_outputs(inputs, [path, models.sidecar_path(path), *reports])
    began = time.perf_counter()

    def say(step: str) -> None:
        if not args.quiet:
            at = format_duration(time.perf_counter() - began)
            print(f"  {step} (at {at})", flush=True)

    where = joblib_on_cluster(args.scheduler) if args.scheduler else contextlib.nullcontext()
    if len(args.dataset) > 1:
        data = _several(args, say)
        try:
            with where:
                result, comparison = _fit(args, data, None, search_rows, say)
        except ValueError as error:
            raise UserError(f"{args.dataset[0]}, ...: {error}") from None
    else:
        frame, metadata = _read(args.dataset[0], args.max_memory)
        try:
            with where:
                result, comparison = _fit(args, frame, metadata, search_rows, say)
        except ValueError as error:
            raise UserError(f"{args.dataset[0]}: {error}") from None
    command = "rumdiff " + " ".join(shlex.quote(arg) for arg in sys.argv[1:])
    say("writing the report, figures and model")
    try:  # the reports, the model and its sidecar land together, or none does
        with staged(outdir) as stage:
            saved = models.save_model(models.build_model(result), stage / path.name)
            saved = dataclasses.replace(saved, path=str(path))
            report.write_report(result, stage, model=saved, command=command, comparison=comparison)
    except OSError as error:
        raise write_error(error, outdir) from None
    except models.ModelError as error:
        raise UserError(f"{path}: {error}") from None
    cv = saved.metadata["cv"]
    effort = cv["effort"]
    print(
        f"{args.folds}-fold CV, {len(result.data.feature_names)} {result.data.feature_set} "
        f"features: accuracy {cv['accuracy']:.4f}, macro-F1 {cv['macro_f1']:.4f} "
        f"(best {result.best_params})"
    )
    print(
        f"difficulty score: Spearman {effort['spearman']:.4f} (needing a search "
        f"{effort['spearman_dp']:.4f}), RMSE {effort['rmse']:.4f} log10 units, "
        f"R^2 {effort['r2']:.4f}"
    )
    if comparison is not None:
        for row in comparison[0].itertuples(False):
            print(
                f"  {row.feature_set:>9} ({row.features} features): accuracy "
                f"{row.accuracy_mean:.4f} ± {row.accuracy_std:.4f}"
                f", macro-F1 {row.macro_f1_mean:.4f} ± {row.macro_f1_std:.4f}"
            )
    size = saved.metadata["model_bytes"]
    print(f"model: {path} ({size / 2**20:.1f} MB); report: {Path(args.outdir) / 'report.md'}")
    print(f"done in {format_duration(time.perf_counter() - began)}")
    if size > config.MODEL_MAX_BYTES:
        print(
            f"note: the model exceeds {config.MODEL_MAX_BYTES / 2**20:.0f} MB, the limit for "
            "the default model in models/",
            file=sys.stderr,
        )
    return 0


def _several(args, say):
    """The training data of several datasets, each read, checked and freed in turn."""
    from rumdiff.learn import model as models
    from rumdiff.learn import training_set

    if args.features != "scaled":
        raise UserError(
            "several datasets train one model across families, on the scaled features: "
            "give --features scaled"
        )
    if args.compare:
        raise UserError("--compare takes one dataset")
    label_by = args.label_by or config.LABEL_BY
    thresholds = args.thresholds or config.LABEL_THRESHOLDS[label_by]
    parts = []
    for dataset in args.dataset:
        say(f"reading {dataset}")
        frame, metadata = _read(dataset, args.max_memory)
        try:
            part = training_set.training_data(
                frame, metadata, feature_set="scaled", label_by=label_by,
                thresholds=thresholds, source=dataset, sha256=models.file_sha256(dataset),
                alone=False,
            )  # fmt: skip
            if parts:  # train() checks the first: the combined data carries its sample
                training_set.check_features(part)
        except ValueError as error:
            raise UserError(f"{dataset}: {error}") from None
        parts.append(part)
    return training_set.combine_training_data(parts)


def _fit(args, frame, metadata, search_rows, say):
    """Cross-validate and fit the models (and compare feature sets if asked); ``frame``
    is a dataset, or the :class:`TrainingData` of several."""
    from rumdiff.learn import compare, training, training_set
    from rumdiff.learn import model as models

    common = {"label_by": args.label_by, "thresholds": args.thresholds}
    if isinstance(frame, training_set.TrainingData):
        data = frame
    else:
        data = training_set.training_data(
            frame, metadata, feature_set=args.features, source=args.dataset[0],
            sha256=models.file_sha256(args.dataset[0]), **common,
        )  # fmt: skip
    print(
        f"training on {len(data):,} puzzles of {data.puzzles_text}, "
        f"{len(data.feature_names)} {data.feature_set} features, {data.label_by} labels",
        flush=True,
    )
    result = training.train(
        data, grid=args.grid, folds=args.folds, jobs=args.jobs, seed=args.seed,
        search_rows=search_rows, regressor_params=config.REGRESSOR, progress=say,
    )  # fmt: skip
    comparison = None
    if args.compare:
        say("comparing feature sets on the same folds")
        comparison = compare.compare_feature_sets(
            frame, metadata, grid=args.grid, search_rows=search_rows, folds=args.folds,
            jobs=args.jobs, seed=args.seed, progress=lambda step: say(f"  {step}"),
            **common,
        )  # fmt: skip
    return result, comparison
