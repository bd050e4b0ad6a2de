"""Every figure of a report and of an exploration, with matplotlib's object-oriented API
(no pyplot, no display); pictures of puzzles are drawn by rumdiff.puzzle.cards.

Each function returns a :class:`matplotlib.figure.Figure`; callers save it with
:func:`rumdiff.atomic.atomic_write_png`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "confusion_figure",
    "distribution_figure",
    "effort_figure",
    "explore_figure",
    "importance_figure",
    "scatter_figure",
]

#: The two metrics of an exploration heatmap: column and label.
EXPLORE_METRICS = (
    ("mean_seconds", "mean solve time (s)"),
    ("mean_transitions", "mean search effort (transitions)"),
)


def confusion_figure(counts: pd.DataFrame, normalised: pd.DataFrame, title: str):
    """Counts and row-normalised confusion matrices, side by side."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(11, 4.6), layout="constrained")
    names = list(counts.columns)
    for axes, matrix, caption, text in (
        (figure.add_subplot(1, 2, 1), counts.to_numpy(), "counts", "{:,.0f}"),
        (figure.add_subplot(1, 2, 2), normalised.to_numpy(), "share of each true class", "{:.2f}"),
    ):
        shown = matrix / max(matrix.max(), 1e-12)
        axes.imshow(shown, cmap="Blues", vmin=0, vmax=1)
        for (row, column), value in np.ndenumerate(matrix):
            colour = "white" if shown[row, column] > 0.55 else "black"
            axes.text(column, row, text.format(value), ha="center", va="center", color=colour)
        axes.set_xticks(range(len(names)), names)
        axes.set_yticks(range(len(names)), names)
        axes.set_xlabel("predicted")
        axes.set_ylabel("true")
        axes.set_title(caption)
    _suptitle(figure, title)
    return figure


def importance_figure(table: pd.DataFrame, title: str):
    """Impurity and permutation importance, one bar per feature."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(11, 1.2 + 0.3 * len(table)), layout="constrained")
    order = table.sort_values("impurity", kind="stable")  # largest on top
    y = np.arange(len(order))
    left, right = figure.add_subplot(1, 2, 1), figure.add_subplot(1, 2, 2)
    left.barh(y, order["impurity"], xerr=order["impurity_std"], color="tab:blue", capsize=2,
              error_kw={"alpha": 0.5})  # fmt: skip
    left.set_yticks(y, order["feature"])
    left.set_title("impurity (mean decrease, final model; bars: std over trees)")
    right.barh(y, order["permutation"], xerr=order["permutation_std"], color="tab:orange",
               capsize=2)  # fmt: skip
    right.set_yticks(y, [""] * len(order))
    right.set_title("permutation (drop in macro-F1, held-out rows)")
    for axes in (left, right):
        axes.axvline(0, color="black", linewidth=0.6)
        axes.grid(axis="x", alpha=0.3)
        axes.xaxis.set_major_locator(MaxNLocator(5))
    _suptitle(figure, title)
    return figure


def distribution_figure(table: pd.DataFrame, cuts, unit: str, title: str):
    """Share of puzzles per class, each class under its range of the label measure
    (``cuts``, in ``unit``); beside the thesis's shares only when the table has them (its
    figures compare, :func:`rumdiff.report.tables.thesis_comparable`)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.5, 4.2), layout="constrained")
    axes = figure.add_subplot(1, 1, 1)
    x = np.arange(len(table))
    thesis = "thesis_percent" in table
    width = 0.4 if thesis else 0.6
    bars = axes.bar(x - (0.2 if thesis else 0), table["percent"], width=width,
                    label="this dataset")  # fmt: skip
    axes.bar_label(bars, fmt="%.1f%%", fontsize=8)
    if thesis:
        axes.bar(x + 0.2, table["thesis_percent"], width=0.4, label="thesis (time labels)")
        figure.legend(loc="outside lower center", ncols=2)  # off the bars and their labels
    axes.set_xticks(x, [f"{name}\n{cut}" for name, cut in zip(table["class"], cuts, strict=True)])
    axes.set_xlabel(f"class: its range of {unit}")
    axes.set_ylabel("% of puzzles")
    top = max(table["percent"].max(), table["thesis_percent"].max() if thesis else 0)
    axes.set_ylim(0, max(top, 1) * 1.15)  # room for the labels over the bars
    _suptitle(figure, title)
    return figure


def effort_figure(table: pd.DataFrame, result, title: str):
    """Puzzles and errors along the labelled effort, and the error rate."""
    from matplotlib.figure import Figure

    from rumdiff import config

    bins = table.iloc[1:]
    figure = Figure(figsize=(8, 6), layout="constrained")
    top, bottom = figure.add_subplot(2, 1, 1), figure.add_subplot(2, 1, 2)
    widths = bins["effort_to"] - bins["effort_from"]
    top.bar(bins["effort_from"], bins["rows"], width=widths, align="edge", label="all",
            color="tab:blue", alpha=0.5)  # fmt: skip
    top.bar(bins["effort_from"], bins["errors"], width=widths, align="edge",
            label="misclassified", color="tab:red")  # fmt: skip
    top.set_ylabel("puzzles")
    top.legend()
    bottom.stairs(bins["error_rate"], [*bins["effort_from"], bins["effort_to"].iloc[-1]],
                  color="tab:red", linewidth=2)  # fmt: skip
    bottom.set_ylabel("error rate")
    bottom.set_ylim(0, 1)
    for axes in (top, bottom):
        axes.set_xscale("log")
        for threshold in result.data.thresholds:
            axes.axvline(threshold, color="black", linestyle="--", linewidth=1)
        axes.grid(alpha=0.3)
    effort = config.LABEL_EFFORT[result.data.label_by]
    bottom.set_xlabel(f"{effort} (log scale); dashed: label thresholds")
    first = table.iloc[0]
    _suptitle(
        figure, title, f"zero effort (no DP): {int(first['rows']):,} puzzles, error rate "
        f"{first['error_rate']:.3f}",
    )  # fmt: skip
    return figure


def explore_figure(frame, grid: str, *, title: str = ""):
    """One grid of :func:`rumdiff.report.exploration.explore` as two heatmaps (time, work)."""
    from matplotlib import colormaps
    from matplotlib.colors import LogNorm
    from matplotlib.figure import Figure

    cells = frame[frame["grid"] == grid]
    if cells.empty:
        raise ValueError(f"no cells of grid {grid!r}")
    values = np.unique(np.concatenate([cells["p0"], cells["p1"]]))
    step = float(np.min(np.diff(values))) if len(values) > 1 else 1.0
    edges = np.append(values - step / 2, values[-1] + step / 2)
    index = {v: i for i, v in enumerate(values)}
    figure = Figure(figsize=(12, 5.2), layout="constrained")
    # Equal-aspect axes leave constrained layout little slack: matplotlib 3.7 set the
    # x-labels half a pixel below the canvas with its default padding of 3 points.
    figure.get_layout_engine().set(h_pad=6 / 72)
    axes = figure.subplots(1, 2)
    for axis, (column, label) in zip(axes, EXPLORE_METRICS, strict=True):
        image = np.full((len(values), len(values)), np.nan)
        for p0, p1, value in zip(cells["p0"], cells["p1"], cells[column], strict=True):
            image[index[p1], index[p0]] = value
        positive = image[np.isfinite(image) & (image > 0)]
        low = positive.min() if positive.size else 1.0
        high = max(positive.max(), low * 10) if positive.size else 10.0
        # Cells with p0 + p1 > 100 do not exist: masked, drawn white.
        colours = colormaps["viridis"].with_extremes(bad="white")
        mesh = axis.pcolormesh(
            edges, edges, np.ma.masked_invalid(np.clip(image, low, None)),
            norm=LogNorm(vmin=low, vmax=high), cmap=colours,
        )  # fmt: skip
        colourbar = figure.colorbar(mesh, ax=axis)
        colourbar.set_label(
            label + (" (0 shown as the lowest)" if column != "mean_seconds" else "")
        )
        axis.set_xlabel("cells with 0 copies, p0 (%)")
        axis.set_ylabel("cells with 1 copy, p1 (%)")
        axis.set_title(label)
        axis.set_aspect("equal")
    _suptitle(figure, title)
    return figure


def scatter_figure(result, title: str):
    """The difficulty score: out-of-fold predicted against true log10 effort."""
    from matplotlib.colors import LogNorm
    from matplotlib.figure import Figure

    from rumdiff import config

    data = result.data
    truth, guess = data.target, result.regression.z_pred
    scores = result.regression_metrics
    figure = Figure(figsize=(6.5, 6), layout="constrained")
    axes = figure.add_subplot(1, 1, 1)
    low, high = min(truth.min(), guess.min()), max(truth.max(), guess.max())
    # Many points: a 2-D histogram shows where they lie better than dots.
    counts = axes.hist2d(truth, guess, bins=120, range=[[low, high], [low, high]],
                         norm=LogNorm(), cmap="viridis")  # fmt: skip
    figure.colorbar(counts[3], ax=axes, label="puzzles")
    axes.plot([low, high], [low, high], color="black", linewidth=0.8)
    effort = f"log10({config.LABEL_EFFORT[data.label_by]} + {config.EFFORT_FLOOR[data.label_by]:g})"
    axes.set_xlabel(f"true {effort}")
    axes.set_ylabel("predicted, out of fold")
    _suptitle(
        figure, title, f"Spearman {scores['spearman']:.4f} (needing a search: "
        f"{scores['spearman_dp']:.4f}), RMSE {scores['rmse']:.4f}, R^2 {scores['r2']:.4f}",
    )  # fmt: skip
    axes.set_aspect("equal")
    return figure


#: Font size of a figure's title, in points, and the share of its width a line may take.
TITLE_SIZE, TITLE_WIDTH = 12, 0.9


def _suptitle(figure, *lines: str) -> None:
    """Title ``figure`` with ``lines``, each wrapped to the figure's width.

    The title is the figure's, not an axes': constrained layout then keeps it above
    every axes, colour bars included, where an axes title wider than its axes runs over
    its neighbours and past the canvas (tests/test_figures.py checks every figure).
    """
    import textwrap

    # DejaVu Sans averages under 0.6 em a character: a line of this many stays inside.
    width = int(TITLE_WIDTH * figure.get_figwidth() * 72 / (0.6 * TITLE_SIZE))
    text = "\n".join(textwrap.fill(line, width) for line in "\n".join(lines).splitlines())
    figure.suptitle(text, fontsize=TITLE_SIZE)
