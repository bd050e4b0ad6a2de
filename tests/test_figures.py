"""Every figure rumdiff draws keeps its titles, labels and legends inside the canvas,
clear of the other axes (rumdiff.report.figures; the tiles of rumdiff show are checked
in test_show.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import clipped_texts, read, train_tiny

from rumdiff.report import figures
from rumdiff.report.errors import errors_by_effort
from rumdiff.report.tables import class_cuts, confusion, label_distribution

#: The longest titles a report gives: a model across every family of the default mix,
#: and a short one.
TITLES = (
    "52,200 puzzles 24 families (k 3-6, m 1-3 with k * m <= 15, n 13-200, 0-2 jokers, "
    "with or without a table), search labels",
    "400,000 puzzles G(4, 2, 100), search labels",
)


@pytest.fixture(scope="module")
def result(dataset):
    from rumdiff.learn import training_data

    frame, metadata = read(dataset)
    data = training_data(frame, metadata, source=str(dataset))
    return train_tiny(data)


def _report_figures(result, title):
    counts, normalised = confusion(result)
    table = label_distribution(result)
    cuts = class_cuts(result.data.label_by, result.data.thresholds)
    return {
        "confusion": figures.confusion_figure(counts, normalised, f"{title}\nout of fold"),
        "importance": figures.importance_figure(result.importance, title),
        "distribution": figures.distribution_figure(table, cuts, "search_transitions", title),
        "effort": figures.effort_figure(errors_by_effort(result), result, title),
        "scatter": figures.scatter_figure(result, title),
    }


@pytest.mark.parametrize("title", TITLES)
def test_no_report_figure_clips_its_text(result, title):
    for name, figure in _report_figures(result, title).items():
        assert clipped_texts(figure) == [], name


def test_the_scatter_keeps_its_scores_clear_of_the_colour_bar(result):
    figure = figures.scatter_figure(result, TITLES[1])
    texts = " ".join(t.get_text() for t in figure.findobj(lambda a: hasattr(a, "get_text")))
    assert "R^2" in texts and "Spearman" in texts
    assert clipped_texts(figure) == []


@pytest.mark.parametrize("grid, top", [("full", 100), ("zoom", 10)])
def test_the_exploration_heatmaps_clip_nothing(grid, top):
    rng = np.random.default_rng(0)
    cells = [(p0, p1) for p0 in range(0, top + 1, top // 10) for p1 in range(0, top + 1 - p0,
             top // 10)]  # fmt: skip
    frame = pd.DataFrame(cells, columns=["p0", "p1"]).assign(
        grid=grid,
        mean_seconds=rng.uniform(1e-4, 1, len(cells)),
        mean_transitions=rng.uniform(0, 1e7, len(cells)),
    )
    title = (
        "Figure 11: G(6, 3, 10000), 1,000 puzzles per cell, p0 and p1 in 0-100%, the rest "
        "split over 2..m copies"
    )
    assert clipped_texts(figures.explore_figure(frame, grid, title=title)) == []


def test_a_clipped_title_is_found():
    # The check itself: a title wider than its figure, and one under other axes.
    from matplotlib.figure import Figure

    wide = Figure(figsize=(2, 2))
    wide.add_subplot(1, 1, 1).set_title("a title far wider than a figure two inches across")
    assert any("sticks out of the canvas" in p for p in clipped_texts(wide))
    # Axes placed by hand, so that the overlap does not hang on a matplotlib version's layout.
    covered = Figure(figsize=(4, 4))
    covered.add_axes((0.1, 0.1, 0.8, 0.6)).set_title("a title under the axes above it")
    covered.add_axes((0.1, 0.72, 0.8, 0.2))
    assert any("runs into another axes" in p for p in clipped_texts(covered))


def test_the_class_chart_beside_the_thesis_keeps_its_legend_off_the_bars():
    from rumdiff import config

    # The thesis model's shares beside the thesis's: the legend once hid "27.7%".
    table = pd.DataFrame({
        "label": [1, 2, 3, 4], "class": list(config.LABEL_NAMES),
        "rows": [67_695, 110_621, 109_122, 112_562],
        "percent": [16.9237, 27.6552, 27.2805, 28.1405],
        "thesis_percent": [25.9, 17.4, 28.0, 28.7],
    })  # fmt: skip
    cuts = class_cuts("search", config.THESIS_LABELS["search"])
    figure = figures.distribution_figure(table, cuts, "search_transitions", TITLES[1])
    assert len(figure.axes[0].containers) == 2 and clipped_texts(figure) == []
