"""``rumdiff generate``: a labelled dataset of random puzzles, or a plain puzzle file."""

from __future__ import annotations

import sys

from rumdiff import config
from rumdiff.cli import DescribedHelpFormatter, UserError, order
from rumdiff.cli.options import (
    budget_error,
    check_memory,
    check_outputs,
    family_of,
    generation_options,
    integer,
    name_list,
    number_list,
    scheduler_option,
    write_error,
)

DESCRIPTION = """\
Generate COUNT distinct random puzzles G(k, m, n), solve them exactly, compute their
features and label their difficulty: 1 easy, 2 moderate, 3 medium, 4 hard. OUT is
Parquet (.parquet, .pq) or CSV (.csv), with a JSON sidecar OUT.json that records the
command, seed, parameters, versions, class counts and wall time. Finished chunks are
kept in OUT.partial while the run goes on: after Ctrl-C or kill, the same command with
--resume goes on where it stopped. The same seed gives the same puzzles and the same
work labels whatever --jobs is.

Made to order: --difficulty CLASS or --effort LOW:HIGH keeps drawing candidates until
COUNT have a search effort in that class or range, each measured by the reference
search, and writes them to OUT (a puzzle file), their optimal arrangements to
OUT.solutions and a JSON sidecar OUT.json (counts, acceptance rate, efforts). For
puzzles in its scope the default model skips unlikely candidates unsearched
(--no-filter searches all); others run unfiltered. The classes measure the work of
the reference search, on one scale for every family, not what a player finds hard: a
hard random rack of G(4, 2, 13) holds some 90 tiles and places all or nearly all. For
the real game's puzzles draw turns: --mode turn.

Labels: --label-by search (the default) cuts the search effort, the transitions of the
reference exact search (docs/search-effort.md), which belongs to the puzzle: the same on
every machine and for every version of rumdiff's fast solver. Easy puzzles are settled
by bounds (no transition); the others are split by thresholds t1,t2: moderate < t1 <=
medium < t2 <= hard. --label-by solver cuts the transitions of the fast solver instead,
--label-by time its seconds (thresholds t0,t1,t2, the thesis's 0.0001,0.1,1), which vary
with the machine and its load. Each needs its solver among --solvers (by default the
one it needs runs). --relabel DATASET recomputes the labels of an existing dataset with
other thresholds or another measure its columns hold, without solving again.
"""


#: What to do after an interrupted or failed run.
RESUME = "run the same command with --resume to go on"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="generate, solve, featurise and label random puzzles",
        description=DESCRIPTION,
        formatter_class=DescribedHelpFormatter,
    )
    parser.add_argument(
        "out", nargs="?", default=None, metavar="OUT",
        help="dataset to write (.parquet, .pq or .csv); with --puzzles-only a puzzle file "
        "in the thesis format; with --relabel where to write the relabelled dataset "
        "(default: replace DATASET)",
    )  # fmt: skip
    parser.add_argument(
        "--count", type=integer(1, 2**40), default=None,
        help=f"number of puzzles (default: {config.DATASET_COUNT}; made to order: "
        f"{order.ORDER_COUNT})",
    )  # fmt: skip
    generation_options(
        parser, m_help="most copies of a tile",
        budget_note=" (the fast solver, with --solvers, falls back to the ILP)",
    )  # fmt: skip
    scheduler_option(parser)
    _mode_options(parser)
    _label_options(parser)
    _dataset_options(parser)
    order.add_options(parser)
    parser.set_defaults(run=run)


def _mode_options(parser) -> None:
    """How copy probabilities are drawn: --mode, --percentages, --regime-weights."""
    parser.add_argument(
        "--mode", choices=config.GENERATE_MODES, default=config.GENERATE_MODE,
        help="fixed: given percentages; mixed: the thesis's three training regimes; "
        "simplex: copy probabilities uniform on the simplex; turn: real-game turns, "
        f"{config.TURN_SETS[0]}-{config.TURN_SETS[1]} valid sets on the table and a rack of "
        f"{config.TURN_RACK} (default: {config.GENERATE_MODE})",
    )  # fmt: skip
    parser.add_argument(
        "--jokers", type=integer(0, config.MAX_JOKERS), default=0, metavar="J",
        help="jokers of every puzzle: on the rack, or in turn mode the game's jokers, "
        "some laid in the table's sets (default: 0)",
    )  # fmt: skip
    parser.add_argument(
        "--percentages", type=number_list, default=None, metavar="P0[,P1,..]",
        help="fixed mode: percentages of cells with 0, 1, .., m-1 copies (m numbers, "
        "separated by commas); the rest get m copies (default: none; fixed mode needs them)",
    )  # fmt: skip
    parser.add_argument(
        "--regime-weights", type=number_list, default=config.REGIME_WEIGHTS,
        metavar="W1,W2,W3",
        help="mixed mode: relative frequencies of regimes 1, 2, 3, separated by commas "
        f"(default: {','.join(map(str, config.REGIME_WEIGHTS))}, the thesis's 10k / 90k / 300k)",
    )  # fmt: skip


def _label_options(parser) -> None:
    """How puzzles are labelled: --label-by, --thresholds, --solvers, --beam-width, --relabel."""
    parser.add_argument(
        "--label-by", choices=tuple(config.LABEL_MEASURES), default=config.LABEL_BY,
        help=f"label measure (default: {config.LABEL_BY})",
    )  # fmt: skip
    defaults = "; ".join(
        f"{measure}: {','.join(map(str, values))}"
        for measure, values in config.LABEL_THRESHOLDS.items()
    )
    parser.add_argument(
        "--thresholds", type=number_list, default=None, metavar="T1,T2[,T3]",
        help=f"label thresholds, increasing, separated by commas (default: {defaults})",
    )  # fmt: skip
    parser.add_argument(
        "--solvers", type=name_list, default=None, metavar="S[,S]",
        help="which solvers solve every puzzle, their effort columns: search (the reference "
        "search), solver (the fast solver), or both (default: the one --label-by needs)",
    )  # fmt: skip
    parser.add_argument(
        "--beam-width", type=integer(0, config.MAX_BEAM_WIDTH), default=config.BEAM_WIDTH,
        help="the fast solver's beam width: never changes a score, only the fast solver's "
        f"work (default: {config.BEAM_WIDTH})",
    )  # fmt: skip
    parser.add_argument(
        "--relabel", default=None, metavar="DATASET",
        help="recompute the labels of DATASET with --label-by and --thresholds, without "
        "solving (default: off)",
    )  # fmt: skip


def _dataset_options(parser) -> None:
    """What the dataset holds and how the run goes: features, chunks, resume, puzzles only."""
    parser.add_argument(
        "--features", choices=config.DATASET_FEATURE_SETS, default=config.DATASET_FEATURE_SET,
        help="feature columns to store; 'scaled' for a dataset that trains a model across "
        f"families with others (default: {config.DATASET_FEATURE_SET})",
    )  # fmt: skip
    parser.add_argument(
        "--chunk-size", type=integer(1, 10**7), default=config.DATASET_CHUNK,
        help="puzzles per saved chunk: an interruption loses at most the chunks being "
        f"solved (default: {config.DATASET_CHUNK})",
    )  # fmt: skip
    parser.add_argument(
        "--resume", action="store_true",
        help="continue the unfinished run of OUT (same options); nothing to do if OUT is "
        "already complete with them (only relabel it if asked for other labels); otherwise "
        "start afresh, but never over an OUT that is no finished dataset (another "
        "command's file) (default: off)",
    )  # fmt: skip
    parser.add_argument(
        "--puzzles-only", action="store_true",
        help="only generate: write the puzzles to OUT in the thesis's file format, headed "
        "by their game, '# G(k, m, n)', with j=J when --jokers J is given; implied by "
        "--difficulty and --effort, which also write OUT.solutions and OUT.json (default: off)",
    )  # fmt: skip


def _command(args) -> list[str]:
    """The command line as typed, or, when called as a function, rebuilt from the options."""
    if sys.argv[1:2] == ["generate"]:
        return ["rumdiff", *sys.argv[1:]]
    command = ["rumdiff", "generate"] + ([args.out] if args.out else [])
    for name, value in vars(args).items():
        if name in ("out", "run", "command") or value is None or value is False:
            continue
        option = f"-{name}" if len(name) == 1 else "--" + name.replace("_", "-")
        if value is True:
            command.append(option)
        elif isinstance(value, (list, tuple)):
            command += [option, *map(str, value)]
        else:
            command += [option, str(value)]
    return command


def _summary(metadata: dict) -> str:
    counts = metadata["class_counts"]
    total = max(1, sum(counts.values()))
    shares = ", ".join(f"{name} {100 * c / total:.1f}%" for name, c in counts.items())
    return f"labels by {metadata['label']['measure']}: {shares}"


def _relabel(args) -> int:
    from rumdiff.data.edit import relabel_dataset

    if args.puzzles_only or args.resume:
        raise UserError("--relabel cannot be combined with --puzzles-only or --resume")
    try:
        metadata = relabel_dataset(
            args.relabel, label_by=args.label_by, thresholds=args.thresholds,
            output=args.out, command=_command(args),
        )  # fmt: skip
    except ValueError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise write_error(error, args.out or args.relabel) from None
    if not args.quiet:
        print(f"relabelled {args.out or args.relabel}: {_summary(metadata)}", file=sys.stderr)
    return 0


def _puzzles_only(args, family) -> int:
    from rumdiff.data.generator import generate
    from rumdiff.puzzle import write_puzzles

    try:
        generated = generate(args.count, family, seed=args.seed)
        write_puzzles(args.out, generated.puzzles, header=True)
    except ValueError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise write_error(error, args.out) from None
    if not args.quiet:
        print(
            f"wrote {len(generated):,} puzzles to {args.out} "
            f"(duplicates redrawn: {generated.duplicates_redrawn})",
            file=sys.stderr,
        )
    return 0


def run(args) -> int:
    if args.difficulty is not None or args.effort is not None:
        return order.run(args, _command(args))
    if args.model is not None or args.no_filter:
        given = "--model" if args.model is not None else "--no-filter"
        raise UserError(f"{given} applies to puzzles made to order: give --difficulty or --effort")
    if args.count is None:
        args.count = config.DATASET_COUNT
    if args.relabel is not None:
        return _relabel(args)
    if args.out is None:
        raise UserError("OUT is required: the dataset or puzzle file to write")
    from rumdiff.data.io import metadata_path

    check_outputs([], [args.out, metadata_path(args.out)])
    family = family_of(args)
    check_memory(args.count, family.game, args.max_memory)
    if args.puzzles_only:
        return _puzzles_only(args, family)

    from rumdiff.cli.progress import ProgressCallback, format_duration
    from rumdiff.cluster import ClusterError
    from rumdiff.data import DatasetSpec, build_dataset, work_dir
    from rumdiff.solve import SolverBudgetError

    progress = ProgressCallback()
    try:  # kill (SIGTERM) lands here as KeyboardInterrupt too (rumdiff.cli.main)
        spec = DatasetSpec(
            count=args.count, family=family, seed=args.seed, repeats=args.repeats,
            feature_set=args.features, chunk_size=args.chunk_size, beam_width=args.beam_width,
            solvers=args.solvers,
        )  # fmt: skip
        metadata = build_dataset(
            args.out, spec, label_by=args.label_by, thresholds=args.thresholds, jobs=args.jobs,
            scheduler=args.scheduler, max_states=args.max_states, resume=args.resume,
            command=_command(args),
            progress=None if args.quiet else progress,
        )  # fmt: skip
    except KeyboardInterrupt:
        progress.close()
        if work_dir(args.out).exists():
            print(f"finished chunks are kept in {work_dir(args.out)}; {RESUME}", file=sys.stderr)
        raise
    except ClusterError as error:
        progress.close()
        kept = f"; finished chunks are kept in {work_dir(args.out)}; {RESUME}"
        raise UserError(f"{error}{kept if work_dir(args.out).exists() else ''}") from None
    except ValueError as error:
        raise UserError(str(error)) from None
    except SolverBudgetError as error:
        progress.close()
        refused = budget_error(error, labels=args.label_by == "search")
        if work_dir(args.out).exists():  # a larger budget may resume the chunks done
            refused = UserError(f"{refused}; finished chunks are kept in "
                                f"{work_dir(args.out)}: --resume goes on from them")  # fmt: skip
        raise refused from None
    except OSError as error:
        raise write_error(error, args.out) from None
    progress.close()
    if not args.quiet:
        if metadata.get("relabelled"):
            print(f"{args.out} was complete; relabelled it: {_summary(metadata)}", file=sys.stderr)
        elif metadata.get("already_complete"):
            print(f"{args.out} is already complete; {_summary(metadata)}", file=sys.stderr)
        else:
            print(
                f"wrote {metadata['rows']:,} puzzles to {args.out} (+ .json) in "
                f"{format_duration(metadata['sessions'][-1]['wall_seconds'])}; "
                f"{_summary(metadata)}; duplicates redrawn: {metadata['duplicates_redrawn']}",
                file=sys.stderr,
            )
    return 0
