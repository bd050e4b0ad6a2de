"""Helpers shared by the tests: paths to examples, seeded random puzzles, groups with
jokers by exhaustive search, a command run under a memory cap, worker processes."""

import subprocess
import sys
import textwrap
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from rumdiff import config
from rumdiff.data import Family
from rumdiff.puzzle import Game

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
THESIS_EXAMPLES = SHARED / "data" / "thesis-examples"

#: The two puzzles of thesis Section 4.1 (k = 4, m = 2, n = 5), scoring 93 and 65.
SECTION_4_1 = (REPO / "data" / "examples" / "thesis-4.1.in").read_text()


def random_copies(rng, *, k, m, n, probabilities=None):
    """A random (n, k) copies matrix; copy probabilities drawn from the simplex if not given."""
    if probabilities is None:
        probabilities = rng.dirichlet(np.ones(m + 1))
    return rng.choice(m + 1, size=(n, k), p=probabilities)


def tiny_joker_puzzle(rng, kind):
    """A tiny seeded puzzle with jokers: a ``"random table"``, a table of ``"valid sets"``,
    or ``"jokers alone"``."""
    from rumdiff.data.turns import draw_turn
    from rumdiff.puzzle import Puzzle

    k, m, n = int(rng.integers(3, 6)), int(rng.integers(1, 4)), int(rng.integers(3, 8))
    copies = (rng.random((n, k)) < 0.3) * rng.integers(1, m + 1, (n, k))
    jokers = int(rng.integers(0, 5))
    if kind == "random table":
        table = (rng.random((n, k)) < rng.random() * 0.5) * copies
        return Puzzle(copies, m=m, jokers=jokers, table=table,
                      table_jokers=int(rng.integers(0, jokers + 1)))  # fmt: skip
    if kind == "valid sets":
        return draw_turn(rng, Game(k, m, n), jokers=jokers, sets=2, rack=int(rng.integers(0, 6)))
    return Puzzle(np.zeros((n, k), dtype=int), m=m, jokers=jokers,
                  table_jokers=int(rng.integers(0, jokers + 1)))  # fmt: skip


@cache
def joker_groups_exhaustive(left, required, jokers):
    """Most of the ``left`` tiles (a count per colour) that groups of one value hold when
    they hold every ``required`` tile and exactly ``jokers`` jokers, by trying every way
    to form them; -1 when no groups do."""
    k = len(left)
    if sum(required) == 0 and jokers == 0:
        done = 0
    else:
        done = -1
    for size in range(0, k + 1):
        for chosen in combinations([c for c in range(k) if left[c]], size):
            for wild in range(0, min(jokers, k - size) + 1):
                if size + wild < 3:
                    continue
                rest_left, rest_required = list(left), list(required)
                for c in chosen:
                    rest_left[c] -= 1
                    rest_required[c] = max(0, rest_required[c] - 1)
                rest = joker_groups_exhaustive(
                    tuple(rest_left), tuple(rest_required), jokers - wild
                )
                if rest >= 0:
                    done = max(done, size + rest)
    return done


def shared_examples():
    """Paths of small.in and small.out, or skip when shared/ is not beside the repo."""
    puzzles, scores = THESIS_EXAMPLES / "small.in", THESIS_EXAMPLES / "small.out"
    if not puzzles.exists():
        pytest.skip(f"{puzzles} not found (shared/ lies beside the repo in CI)")
    return puzzles, scores


def assert_fresh_features(frame, metadata, feature_set="all", *, k=4, m=2, n=100):
    """The dataset's feature columns are what rumdiff.features computes from its puzzles."""
    import pandas as pd

    from rumdiff.data import dataset_columns
    from rumdiff.features import compute_features, feature_names
    from rumdiff.puzzle import decode_puzzles

    names = feature_names(feature_set, k=k, m=m)
    assert metadata["features"] == names
    solvers = metadata["parameters"]["solvers"]
    assert list(frame.columns) == dataset_columns(m, names, solvers)
    expected = compute_features(decode_puzzles(frame["puzzle"], k, n), m=m, feature_set=feature_set)
    pd.testing.assert_frame_equal(frame[names], expected.reset_index(drop=True))
    return names


#: A forest grid small enough for tests: two candidates of ten tiny trees.
TINY_GRID = {"n_estimators": (10,), "max_leaf_nodes": (8, 32), "class_weight": ("balanced",)}
#: The regressor as trained, with ten trees instead of a hundred.
TINY_REGRESSOR = {**config.REGRESSOR, "n_estimators": 10}
#: Search thresholds that give every class some of the tiny dataset's G(4, 2, 20) puzzles.
TINY_THRESHOLDS = (44_000, 280_000)


def tiny_dataset(folder, *, count=300, seed=3, name="tiny.parquet"):
    """Build a real dataset (generated, solved by both solvers, featurised, labelled by
    search effort) of small puzzles."""
    from rumdiff.data import DatasetSpec, build_dataset

    path = folder / name
    spec = DatasetSpec(
        family=Family(Game(n=20)), count=count, seed=seed, solvers=("search", "solver")
    )
    build_dataset(path, spec, jobs=1, thresholds=TINY_THRESHOLDS)
    return path


def read(path):
    """A dataset and its sidecar."""
    from rumdiff.data import metadata_path, read_dataset, read_metadata

    return read_dataset(path), read_metadata(metadata_path(path))


def train_tiny(data, **options):
    """:func:`rumdiff.learn.train` with the tiny forests, 3 folds, one job, seed 0 and every
    row searched, unless ``options`` say otherwise."""
    from rumdiff.learn import train

    settings = {"grid": TINY_GRID, "regressor_params": TINY_REGRESSOR, "folds": 3, "jobs": 1,
                "seed": 0, "search_rows": None}  # fmt: skip
    return train(data, **{**settings, **options})


def train_model(dataset, folder, *, feature_set="all"):
    """Train a tiny model on a dataset and save it in ``folder``; return the saved Model."""
    from rumdiff.learn import build_model, save_model, training_data
    from rumdiff.learn.model import file_sha256

    frame, metadata = read(dataset)
    data = training_data(
        frame, metadata, feature_set=feature_set, source=str(dataset),
        sha256=file_sha256(dataset),
    )  # fmt: skip
    result = train_tiny(data)
    return save_model(build_model(result), folder / "model.skops")


#: Address space a command under test may reserve (numba and numpy reserve far more than
#: they touch), and the resident peak it must stay under.
ADDRESS_SPACE_MB = 1_200
PEAK_MB = 500

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS")


def run_capped(argv: list[str], *, python: bool = False) -> tuple[int, int, str]:
    """Run ``rumdiff ARGV`` (``python ARGV`` if ``python``) under the address-space cap:
    exit code, peak MB, stderr."""
    wrapper = textwrap.dedent(
        f"""
        import resource, subprocess, sys
        limit = {ADDRESS_SPACE_MB} * 2**20
        cap = lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        command = sys.argv[2:] if sys.argv[1] == "python" else ["-m", "rumdiff", *sys.argv[2:]]
        done = subprocess.run([sys.executable, *command],
                              preexec_fn=cap, capture_output=True, text=True)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        print(done.returncode, peak)
        sys.stderr.write(done.stderr)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, "python" if python else "rumdiff", *argv],
        capture_output=True,
        text=True,
        timeout=300,
    )
    code, peak = map(int, done.stdout.split())
    return code, peak, done.stderr


def worker_process(pid: int) -> bool:
    """Whether process ``pid`` runs a pool's worker code (multiprocessing's spawned
    workers, or loky's): not a resource tracker, nor a fork not yet running it."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # gone meanwhile
        return False
    return b"spawn_main" in command or b"popen_loky" in command


def clipped_texts(figure) -> list[str]:
    """The texts of ``figure``, drawn, that stick out of its canvas, run into another axes
    (a colour bar over a title) or overlap another text (a legend over a bar's label);
    empty when nothing is clipped."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    canvas_box = figure.bbox
    areas = [(axes, axes.get_window_extent(renderer)) for axes in figure.axes]
    hidden = {  # the labels of ticks outside the view, which are never drawn
        id(label)
        for axes in figure.axes
        for axis in axes._axis_map.values()
        for tick in axis.get_major_ticks() + axis.get_minor_ticks()
        if not _in_view(tick.get_loc(), axis.get_view_interval())
        for label in (tick.label1, tick.label2)
    }
    texts = [
        (text, text.get_window_extent(renderer))
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text().strip() and id(text) not in hidden
    ]
    problems = []
    for text, box in texts:
        name = repr(text.get_text())
        if (
            box.x0 < canvas_box.x0 - 0.5 or box.y0 < canvas_box.y0 - 0.5
            or box.x1 > canvas_box.x1 + 0.5 or box.y1 > canvas_box.y1 + 0.5
        ):  # fmt: skip
            problems.append(f"{name} sticks out of the canvas: {box.bounds}")
        for axes, area in areas:
            if axes is not text.axes and box.overlaps(area):
                problems.append(f"{name} runs into another axes")
        for other, other_box in texts:
            if id(other) < id(text) and box.overlaps(other_box):
                problems.append(f"{name} overlaps {other.get_text()!r}")
    return problems


def _in_view(location, interval) -> bool:
    """Whether a tick at ``location`` lies in an axis's view ``interval`` (either order)."""
    low, high = sorted(interval)
    slack = 1e-9 * max(abs(low), abs(high), 1)
    return location is not None and low - slack <= location <= high + slack


def applicable_checks(estimator, not_applicable):
    """Parameters for ``pytest.mark.parametrize("estimator, check", ...)``: scikit-learn's
    estimator checks for ESTIMATOR, leaving out those named in NOT_APPLICABLE (a check's
    name, to why), which are not run at all rather than run as expected failures."""
    from sklearn.utils.estimator_checks import estimator_checks_generator

    pairs = []
    for each, check in estimator_checks_generator(estimator, legacy=True):
        name = getattr(check, "func", check).__name__
        if name in not_applicable:
            continue
        options = getattr(check, "keywords", {})
        label = name + "".join(f"({key}={value})" for key, value in sorted(options.items()))
        pairs.append(pytest.param(each, check, id=label))
    return pairs
