"""``rumdiff generate --difficulty/--effort``: puzzles made to order.

The options are added to ``rumdiff generate`` (:func:`add_options`), which hands over
to :func:`run` when one of them is given. The work is
:func:`rumdiff.data.order.make_to_order`; this module checks the options, picks the
filter, and writes the puzzle file, its solutions and its sidecar together.
"""

from __future__ import annotations

import argparse
import sys
import time

from rumdiff import config
from rumdiff.cli import UserError
from rumdiff.cli.options import budget_error, check_outputs, family_of, integer, write_error

#: Puzzles made to order when --count is not given.
ORDER_COUNT = 10

#: What the classes measure, in words: for --help, the sidecar and the note on stderr.
MEASURES = (
    "the classes measure the work of the reference search (its transitions), on one scale "
    "for every family; hard for the search is not hard for a player"
)
#: Where a player of the real game is sent.
TURNS = "for the real game's puzzles, draw turns (--mode turn)"

_MODERATE, _HARD = config.LABEL_THRESHOLDS["search"]
HELP = (
    "made to order: keep drawing candidates until COUNT (default: "
    f"{ORDER_COUNT}) have a search effort, measured by the reference search, in this class: "
    f"easy (settled by bounds), or moderate < {_MODERATE:,} <= medium < {_HARD:,} <= hard "
    f"transitions; {MEASURES}: {TURNS}"
)


def effort_bounds(text: str) -> tuple[int, int | None]:
    """An argparse type: ``LOW:HIGH`` transitions, HIGH exclusive and optional (``LOW:``)."""
    low, colon, high = text.partition(":")
    try:
        if not colon:
            raise ValueError
        bounds = (int(low.replace(",", "")), int(high.replace(",", "")) if high.strip() else None)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected LOW:HIGH (whole numbers of transitions; HIGH may be left out), got {text!r}"
        ) from None
    from rumdiff.data.order import effort_range

    try:
        return effort_range(effort=bounds)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_options(parser) -> None:
    """Add --difficulty and --effort (one or the other), --max-candidates, --model and
    --no-filter to ``rumdiff generate``."""
    wanted = parser.add_mutually_exclusive_group()
    wanted.add_argument("--difficulty", choices=config.LABEL_NAMES, default=None, help=HELP)
    wanted.add_argument(
        "--effort", type=effort_bounds, default=None, metavar="LOW:HIGH",
        help="made to order, as --difficulty, in this range of search effort: LOW <= "
        "transitions < HIGH (LOW: for no upper end)",
    )  # fmt: skip
    parser.add_argument(
        "--max-candidates", type=integer(1, 2**40), default=config.ORDER_MAX_CANDIDATES,
        metavar="N",
        help="made to order: give up, writing nothing, after drawing this many candidates "
        f"(default: {config.ORDER_MAX_CANDIDATES:,})",
    )  # fmt: skip
    parser.add_argument(
        "--model", default=None, metavar="PATH",
        help="made to order: the model that filters candidates before the search, from the "
        "first (default: models/default.skops, loaded only once the search still ahead "
        f"reaches {config.ORDER_SCREEN_WORK:,} transitions; puzzles outside its scope run "
        "unfiltered)",
    )  # fmt: skip
    parser.add_argument(
        "--no-filter", action="store_true",
        help="made to order: search every candidate, with no model filtering (default: off)",
    )  # fmt: skip


def _check(args) -> None:
    """Refuse options that made-to-order puzzles cannot honour."""
    if args.relabel is not None:
        raise UserError("--difficulty and --effort cannot be combined with --relabel")
    if args.resume:
        raise UserError("--difficulty and --effort write in one go: --resume does not apply")
    if args.thresholds is not None or args.label_by != "search":
        raise UserError(
            "--difficulty follows the search labels' thresholds; for another range of search "
            "effort give --effort LOW:HIGH (not --thresholds or --label-by)"
        )
    if args.scheduler is not None:
        raise UserError("--difficulty and --effort run on local processes, not --scheduler")
    dataset_only = {
        "--features": args.features != config.DATASET_FEATURE_SET,
        "--chunk-size": args.chunk_size != config.DATASET_CHUNK,
        "--solvers": args.solvers is not None,
        "--beam-width": args.beam_width != config.BEAM_WIDTH,
    }
    given = [option for option, changed in dataset_only.items() if changed]
    if given:
        raise UserError(
            f"--difficulty and --effort write a puzzle file and its solutions, not a dataset: "
            f"{' and '.join(given)} would be ignored"
        )
    if args.out is None:
        raise UserError("OUT is required: the puzzle file to write")
    if args.count > args.max_candidates:
        raise UserError(
            f"--count {args.count:,} is more than --max-candidates {args.max_candidates:,}"
        )


def _screen(args, family, low: int, high: int | None):
    """The filter of an order of ``family``, the work from which the order uses it
    (``make_to_order``'s ``screen_work``) and, unless it is deferred, its sidecar entry.

    The model's sidecar says whether it can screen these candidates. A model the user
    names is loaded now, whether or not it can (its failure is the user's to see), and
    screens from the first block; the default one is loaded only when an order calls it
    (:class:`_ModelScreen`), and never when its sidecar refuses.
    """
    from rumdiff.learn import ModelError, screen_refusal
    from rumdiff.learn.prediction import missing_shipped_model, model_path
    from rumdiff.learn.sidecar import read_model_sidecar

    if args.no_filter:
        return None, 0, {"used": False, "reason": "--no-filter"}
    path = model_path(args.model)
    missing = missing_shipped_model(args.model)
    if missing:
        return None, 0, {"used": False, "reason": missing}
    try:
        side = read_model_sidecar(path)
    except ModelError as error:
        if args.model is not None:
            raise UserError(str(error)) from None
        # The default filter only saves searches; one this installation cannot load
        # (another scikit-learn) does not stop the order.
        return None, 0, {"used": False, "reason": f"the default model cannot be used: {error}"}
    screen = _ModelScreen(path, low, high, named=args.model is not None)
    if args.model is not None:
        screen.load()  # a model the user names is checked whole: a failure is theirs to see
    reason = screen_refusal(side, family, str(path))
    if reason is not None:
        return None, 0, {"used": False, "reason": reason}
    if args.model is None:
        return screen, config.ORDER_SCREEN_WORK, None
    return screen, 0, screen.entry


class _ModelScreen:
    """A model's filter, loaded the first time an order calls it: until then, an order
    that never needs it pays neither scikit-learn's import nor the model's loading."""

    def __init__(self, path, low: int, high: int | None, *, named: bool):
        self.path, self.low, self.high, self.named = path, low, high, named
        self.screen = None
        self.entry = None  # the sidecar's, once loaded

    def load(self) -> None:
        from rumdiff.learn import EffortScreen, ModelError
        from rumdiff.learn.model import load_model

        try:
            model = load_model(self.path)
        except ModelError as error:
            if self.named:  # asked for: its failure is the user's to see
                raise UserError(str(error)) from None
            reason = f"the default model cannot be used: {error}"
            self.entry = {"used": False, "reason": reason}
            return
        self.screen = EffortScreen(model, self.low, self.high)
        self.entry = {"used": True, **self.screen.describe()}

    def __call__(self, puzzles):
        if self.entry is None:
            self.load()
        if self.screen is None:  # the model cannot be loaded: search every candidate
            import numpy as np

            return np.ones(len(puzzles), dtype=bool)
        return self.screen(puzzles)


def _filter_entry(screen, entry, screened_from) -> dict:
    """The sidecar's account of the filter: ``entry``, or the deferred screen's."""
    if entry is None and screen is not None:
        entry = screen.entry
    if entry is None:
        return {
            "used": False,
            "reason": "the search still ahead never reached "
            f"{config.ORDER_SCREEN_WORK:,} transitions, cheaper than loading the model",
        }  # fmt: skip
    if entry["used"]:
        return {**entry, "from_candidate": screened_from}
    return entry


def _models(name) -> list:
    """Every model file an order may read, and their sidecars: the one ``--model`` names
    (the default without it) and the shipped ones, none of which an output may replace."""
    from rumdiff.learn.prediction import model_path
    from rumdiff.learn.sidecar import sidecar_path

    paths = dict.fromkeys(
        [model_path(name), model_path(None), *map(model_path, config.NAMED_MODELS)]
    )
    return [file for path in paths for file in (path, sidecar_path(path))]


def _solutions_text(result) -> str:
    """Each puzzle's score and optimal arrangement, as ``rumdiff solve --show`` prints them."""
    from rumdiff.solve.display import solution_text

    lines = []
    for number, solution in enumerate(result.solutions, start=1):
        shown = solution_text(solution.puzzle, solution.arrangement)
        lines += [str(solution.score), f"# puzzle {number}", *([shown] if shown else []), "#"]
    return "".join(line + "\n" for line in lines)


def _sidecar(args, family, command, result, filtered: dict, seconds: float) -> dict:
    from rumdiff.cluster import versions
    from rumdiff.data.io import git_commit, now
    from rumdiff.data.order import range_text

    accepted = len(result.puzzles)
    return {
        "format": "rumdiff-order",
        "command": list(command),
        "created": now(),
        "seed": args.seed,
        "parameters": {
            "count": args.count,
            **family.as_json(),
            "max_candidates": args.max_candidates,
            "max_states": args.max_states,
        },
        "order": {
            "difficulty": args.difficulty,
            "effort": [result.low, result.high],
            "range": range_text(result.low, result.high),
            "measure": "search",
            "thresholds": list(config.LABEL_THRESHOLDS["search"]),
            "classes_measure": f"{MEASURES} (docs/search-effort.md); {TURNS}",
        },
        "filter": filtered,
        "counts": {
            "candidates_drawn": result.drawn,
            "candidates_needed": result.needed,
            "candidates_searched": result.searched,
            "candidates_skipped": result.drawn - result.searched,
            "accepted": accepted,
            "acceptance_rate": result.acceptance_rate,
            "accepted_per_search": accepted / result.searched if result.searched else 0.0,
        },
        "candidate_ids": result.ids.tolist(),
        "efforts": result.efforts.tolist(),
        "lowest_effort_seen": result.lowest,
        "highest_effort_seen": result.highest,
        "wall_seconds": seconds,
        "versions": versions(),
        **git_commit(),
    }


def solutions_path(out) -> str:
    """Where the solutions of OUT go: ``OUT.solutions``."""
    return f"{out}.solutions"


def run(args, command) -> int:
    """Write COUNT puzzles made to order to OUT, OUT.solutions and OUT.json, together."""
    from rumdiff.atomic import atomic_files, write_json
    from rumdiff.data.io import metadata_path
    from rumdiff.data.order import OrderError, check_order, effort_range, make_to_order
    from rumdiff.puzzle import format_puzzles
    from rumdiff.solve import SolverBudgetError

    began = time.perf_counter()
    if args.count is None:
        args.count = ORDER_COUNT
    _check(args)
    low, high = effort_range(args.difficulty) if args.difficulty else args.effort
    outputs = [args.out, solutions_path(args.out), str(metadata_path(args.out))]
    check_outputs(_models(args.model), outputs)
    family = family_of(args)
    limits = dict(max_candidates=args.max_candidates, max_memory_gb=args.max_memory)
    try:  # an order that cannot be met, or not within --max-memory, before any work
        check_order(args.count, low, high, family, **limits)
    except ValueError as error:
        raise UserError(str(error)) from None
    screen, screen_work, entry = _screen(args, family, low, high)
    try:
        result = make_to_order(
            args.count, low, high, family, **limits, seed=args.seed, screen=screen,
            screen_work=screen_work, jobs=args.jobs, max_states=args.max_states,
        )  # fmt: skip
    except OrderError as error:
        advice = "ask for another class or --effort range"
        if not error.exhausted:
            advice = "raise --max-candidates, or " + advice
        if _filter_entry(screen, entry, None)["used"]:
            advice += " (--no-filter searches every candidate)"
        raise UserError(f"{error}; {advice}") from None
    except SolverBudgetError as error:
        raise budget_error(error, labels=False) from None
    except ValueError as error:
        raise UserError(str(error)) from None
    seconds = time.perf_counter() - began
    filtered = _filter_entry(screen, entry, result.screened_from)
    try:
        with atomic_files(outputs) as (puzzles, solutions, sidecar):
            with open(puzzles, "w", encoding="ascii", newline="\n") as stream:
                stream.write(format_puzzles(result.puzzles, header=True))
            with open(solutions, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(_solutions_text(result))
            write_json(sidecar, _sidecar(args, family, command, result, filtered, seconds))
    except OSError as error:
        raise write_error(error, args.out) from None
    if not args.quiet:
        if args.mode != "turn" and (args.k, args.m, args.n) == (config.K, config.M, 13):
            print("note: these are random racks, not turns of the game: hard for the "
                  f"reference search, which need not be hard for a player; {TURNS}",
                  file=sys.stderr)  # fmt: skip
        what = args.difficulty or f"effort {low:,}:{'' if high is None else f'{high:,}'}"
        how = "filtered by the model" if filtered["used"] else f"unfiltered: {filtered['reason']}"
        print(
            f"wrote {len(result.puzzles):,} {what} puzzles to {args.out} (+ .solutions, .json) "
            f"in {seconds:.1f} s: {result.drawn:,} candidates drawn, {result.searched:,} "
            f"searched ({how}), acceptance {100 * result.acceptance_rate:.1f}%",
            file=sys.stderr,
        )
    return 0
