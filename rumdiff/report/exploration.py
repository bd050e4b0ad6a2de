"""Where are the hard puzzles? Mean solve time and work over a grid of p0 and p1.

Reproduces the thesis's exploration (Section 7.1, Figures 11 and 12): puzzles drawn
in fixed mode with ``p0`` percent of cells holding 0 copies and ``p1`` percent 1 copy,
the rest 2 copies (for m = 3 the rest is split equally between 2 and 3 copies, as in
mixed mode), averaged per grid cell. Figure 11 covers p0, p1 in 0-100% (cells with
p0 + p1 > 100 do not exist); Figure 12 zooms in on 0-10%, where the expensive puzzles
are. Each puzzle is solved by the reference search (docs/search-effort.md), which, like
the thesis's solver, has no beam search: beside its mean solve time we show its mean
search effort (transitions), which is the same on every machine.

Every cell uses the same seed: common random numbers, so neighbouring cells differ by
their percentages, not by the luck of their draw. A cell whose percentages allow fewer
distinct puzzles than asked for (p2 = 100%, say) averages all of them.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Game
from rumdiff.validation import jobs_count, whole

__all__ = ["GRIDS", "explore", "explore_files", "grid_cells", "write_explore"]

#: The two grids, in the order of the thesis's figures.
GRIDS = ("full", "zoom")
_FIGURE = {"full": 11, "zoom": 12}


def grid_cells(step: float, maximum: float) -> list[tuple[float, float]]:
    """``(p0, p1)`` pairs on a grid of ``step`` percent up to ``maximum``, p0 + p1 <= 100."""
    step, maximum = float(step), float(maximum)
    if not (np.isfinite(step) and step > 0):
        raise ValueError(f"grid step must be positive, got {step:g}")
    if not (np.isfinite(maximum) and 0 < maximum <= 100):
        raise ValueError(f"grid extent must lie in (0, 100], got {maximum:g}")
    if step > maximum:
        raise ValueError(f"grid step {step:g} exceeds the grid extent {maximum:g}")
    values = np.round(np.arange(0, maximum + step / 2, step), 9)
    values = values[values <= maximum + 1e-9]
    return [(float(a), float(b)) for a in values for b in values if a + b <= 100 + 1e-9]


def planned_bytes(game, *, step, zoom_step, zoom_max, samples) -> int:
    """An upper bound of the memory :func:`explore` plans for ``game``, before it builds
    anything: the puzzles of every grid cell (:func:`rumdiff.data.generator.planned_bytes`)."""
    cells = 0
    for grid_step, extent in ((step, 100.0), (zoom_step, zoom_max)):
        if np.isfinite(grid_step) and grid_step > 0:
            cells += (int(extent / grid_step + 1e-9) + 1) ** 2
    from rumdiff.data.generator import planned_bytes as puzzle_bytes

    return puzzle_bytes(cells * samples, game)


def _percentages(p0: float, p1: float, m: int) -> list[float]:
    if m == 2:
        return [p0, p1]
    rest = max(0.0, 100 - p0 - p1)
    return [p0, p1] + [rest / (m - 1)] * (m - 2)


def _cell_count(family, samples: int) -> int:
    """``samples``, or fewer when the cell's family holds fewer distinct puzzles."""
    distinct = family.distinct
    return samples if distinct is None else min(samples, distinct)


def _cell(copies, m: int, repeats: int, max_states: int) -> dict:
    from rumdiff.data.batch import solve_batch

    solved = solve_batch(copies, m=m, solvers=("search",), repeats=repeats, max_states=max_states)
    seconds, transitions = solved["search_seconds"], solved["search_transitions"]
    return {
        "puzzles": len(copies),
        "mean_seconds": float(seconds.mean()),
        "median_seconds": float(np.median(seconds)),
        "max_seconds": float(seconds.max()),
        "mean_transitions": float(transitions.mean()),
        "max_transitions": int(transitions.max()),
        "mean_states": float(solved["search_states"].mean()),
        "dp_share": float(np.mean(solved["method"] == "dp")),
        "mean_score": float(solved["score"].mean()),
    }


def explore(
    game: Game | None = None,
    *,
    step: float = config.EXPLORE_STEP,
    zoom_step: float = config.EXPLORE_ZOOM_STEP,
    zoom_max: float = config.EXPLORE_ZOOM_MAX,
    samples: int = config.EXPLORE_SAMPLES,
    seed: int = config.SEED,
    jobs: int = config.JOBS,
    repeats: int = config.DATASET_REPEATS,
    max_states: int = config.MAX_STATES,
    max_memory_gb: float = config.MAX_MEMORY_GB,
    progress=None,
):
    """Solve ``samples`` puzzles per grid cell; one row of means per cell.

    Parameters
    ----------
    game : Game, optional
        The game G(k, m, n), m >= 2; default ``Game()``. The puzzles hold no jokers,
        whatever the game allows.
    step : float
        Grid step of the full 0-100% grid (Figure 11), in percent.
    zoom_step, zoom_max : float
        Step and extent of the zoomed grid (Figure 12), in percent.
    samples : int
        Puzzles per cell (the thesis used 100).
    seed : int
        Seed of every cell's puzzles (:func:`rumdiff.data.generator.generate`).
    jobs : int
        Worker processes (joblib's convention: -1 every core, -2 all but one; not 0).
        The cells run in the workers of :func:`rumdiff.processes.run_unordered`, fresh
        processes that die with this one: a script that asks for more than one needs
        the ``if __name__ == "__main__":`` guard that spawned processes need.
    repeats : int
        Solves per puzzle; its seconds are the fastest.
    max_states : int
        The reference search's state budget; a puzzle over it is a
        :class:`~rumdiff.solve.SolverBudgetError`.
    max_memory_gb : float
        Refuse (ValueError) a grid whose puzzles could need more (:func:`planned_bytes`),
        in GiB; a finite number above 0.
    progress : callable, optional
        Called as ``progress(done, total)`` in puzzles.

    Returns
    -------
    pandas.DataFrame
        One row per cell: ``grid`` ("full" or "zoom"); ``p0``, ``p1`` and ``p2`` in
        percent (``p2`` is the rest, all 2 copies when m = 2); ``puzzles``;
        ``mean_seconds``, ``median_seconds``, ``max_seconds``; ``mean_transitions``,
        ``max_transitions``, ``mean_states``; ``dp_share`` (share solved by the DP,
        not by bounds alone) and ``mean_score``.
    """
    import pandas as pd

    from rumdiff.data.family import Family
    from rumdiff.data.generator import generate
    from rumdiff.processes import run_unordered

    game = Game() if game is None else game
    game = Game(game.k, game.m, game.n)  # puzzles without jokers, whatever it allows
    m = game.m
    if m < 2:
        raise ValueError("exploring p0 and p1 needs m >= 2")
    samples = whole("samples", samples, low=1)
    repeats = whole("repeats", repeats, low=1)
    jobs_count(jobs)
    if not (np.isfinite(max_memory_gb) and max_memory_gb > 0):
        raise ValueError(f"max_memory_gb must be a finite number above 0, got {max_memory_gb!r}")
    sizes = {"step": step, "zoom_step": zoom_step, "zoom_max": zoom_max, "samples": samples}
    need = planned_bytes(game, **sizes)
    if need > max_memory_gb * 2**30:
        raise ValueError(
            f"a grid of step {step:g}% (zoom {zoom_step:g}%) with {samples} puzzles a cell "
            f"needs up to {need / 2**30:,.1f} GiB, over the limit of {max_memory_gb:g} GiB; "
            "use a coarser --step or --zoom-step, fewer --samples, or raise --max-memory"
        )
    cells = [("full", *cell) for cell in grid_cells(step, 100.0)]
    cells += [("zoom", *cell) for cell in grid_cells(zoom_step, zoom_max)]
    batches = []
    for _, p0, p1 in cells:
        family = Family(game, "fixed", _percentages(p0, p1, m))
        generated = generate(_cell_count(family, samples), family, seed=seed)
        batches.append(generated.puzzles.copies)
    total, done = sum(len(b) for b in batches), 0
    if progress is not None:
        progress(0, total)
    rows = []
    tasks = [(batch, m, repeats, max_states) for batch in batches]
    results = run_unordered(_cell, tasks, jobs=jobs, ordered=True)
    for (grid, p0, p1), row in zip(cells, results, strict=True):
        rows.append({"grid": grid, "p0": p0, "p1": p1, "p2": max(0.0, 100 - p0 - p1), **row})
        done += row["puzzles"]
        if progress is not None:
            progress(done, total)
    return pd.DataFrame(rows)


def explore_files(folder) -> list:
    """The files :func:`write_explore` may write into ``folder``: ``explore.csv``, then a
    PNG per grid (a grid with no cell is left out)."""
    from pathlib import Path

    folder = Path(folder)
    return [folder / "explore.csv", *(folder / f"explore_{grid}.png" for grid in GRIDS)]


def write_explore(frame, folder, game: Game) -> list:
    """Write ``explore.csv`` and one PNG per grid (Figures 11 and 12) of ``game`` into
    ``folder``.

    Returns
    -------
    list of Path
        The files written.
    """
    from pathlib import Path

    from rumdiff.atomic import atomic_write_png
    from rumdiff.data.io import atomic_write_frame
    from rumdiff.report.figures import explore_figure

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    table, *figures = explore_files(folder)
    atomic_write_frame(frame, table, "csv")
    written = [table]
    for grid, figure in zip(GRIDS, figures, strict=True):
        cells = frame[frame["grid"] == grid]
        if cells.empty:
            continue
        samples = int(cells["puzzles"].max())
        extent = "0-100%" if grid == "full" else f"0-{cells[['p0', 'p1']].max().max():g}%"
        title = (
            f"Figure {_FIGURE[grid]}: G({game.k}, {game.m}, {game.n}), {samples} puzzles per "
            f"cell, p0 and p1 in {extent}, the rest "
            f"{'2 copies' if game.m == 2 else 'split over 2..m copies'}"
        )
        written.append(figure)
        atomic_write_png(figure, explore_figure(frame, grid, title=title))
    return written
