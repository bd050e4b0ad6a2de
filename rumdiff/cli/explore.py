"""``rumdiff explore``: mean solve time and work over p0 and p1 (thesis Figures 11 and 12)."""

from __future__ import annotations

import sys

from rumdiff import config
from rumdiff.cli import DescribedHelpFormatter, UserError
from rumdiff.cli.options import (
    budget_error,
    check_outputs,
    generation_options,
    integer,
    write_error,
)

DESCRIPTION = """\
Solve SAMPLES random puzzles per cell of a grid of p0 (percent of cells with 0 copies)
and p1 (percent with 1 copy), the rest 2 copies, and write into OUTDIR: explore.csv
(one row of means per cell), explore_full.png (thesis Figure 11, p0 and p1 in 0-100%)
and explore_zoom.png (Figure 12, zoomed on 0-10%), each a heatmap of the reference
search's mean solve time and one of its mean search effort (transitions, the same on
every machine). The defaults run in about a minute on 2 cores; a finer --step or more
--samples (the thesis used 100) take proportionally longer.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "explore",
        help="heatmaps of mean solve time and work over p0 and p1 (thesis Figures 11, 12)",
        description=DESCRIPTION,
        formatter_class=DescribedHelpFormatter,
    )
    parser.add_argument("outdir", metavar="OUTDIR", help="folder for the CSV and the PNGs")
    parser.add_argument(
        "--step", type=float, default=config.EXPLORE_STEP,
        help=f"grid step of the 0-100%% grid, in percent (default: {config.EXPLORE_STEP:g})",
    )  # fmt: skip
    parser.add_argument(
        "--zoom-step", type=float, default=config.EXPLORE_ZOOM_STEP,
        help="grid step of the zoomed grid, in percent "
        f"(default: {config.EXPLORE_ZOOM_STEP:g})",
    )  # fmt: skip
    parser.add_argument(
        "--zoom-max", type=float, default=config.EXPLORE_ZOOM_MAX,
        help=f"extent of the zoomed grid, in percent (default: {config.EXPLORE_ZOOM_MAX:g})",
    )  # fmt: skip
    parser.add_argument(
        "--samples", type=integer(1, 10**9), default=config.EXPLORE_SAMPLES,
        help=f"puzzles per grid cell (default: {config.EXPLORE_SAMPLES}; the thesis used 100)",
    )  # fmt: skip
    generation_options(parser, m_help="most copies of a tile, at least 2")
    parser.set_defaults(run=run)


def run(args) -> int:
    from rumdiff.cli.progress import ProgressCallback
    from rumdiff.puzzle import Game
    from rumdiff.report.exploration import explore, explore_files, write_explore
    from rumdiff.solve import SolverBudgetError

    progress = ProgressCallback()
    check_outputs([], explore_files(args.outdir))  # refused before any work
    try:
        game = Game(args.k, args.m, args.n)
        frame = explore(
            game, step=args.step, zoom_step=args.zoom_step, zoom_max=args.zoom_max,
            samples=args.samples, seed=args.seed, jobs=args.jobs, repeats=args.repeats,
            max_states=args.max_states,
            max_memory_gb=args.max_memory, progress=None if args.quiet else progress,
        )  # fmt: skip
        progress.close()
        written = write_explore(frame, args.outdir, game)
    except ValueError as error:
        raise UserError(str(error)) from None
    except SolverBudgetError as error:
        progress.close()
        raise budget_error(error, labels=False) from None
    except OSError as error:
        raise write_error(error, args.outdir) from None
    if not args.quiet:
        worst = frame.loc[frame["mean_transitions"].idxmax()]
        print(
            f"wrote {', '.join(str(path) for path in written)}; most work at p0 = "
            f"{worst['p0']:g}%, p1 = {worst['p1']:g}% ({worst['grid']} grid): "
            f"{worst['mean_transitions']:,.0f} transitions, {worst['mean_seconds']:.4f} s",
            file=sys.stderr,
        )
    return 0
