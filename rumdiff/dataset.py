"""Labelled datasets: puzzles generated, solved, featurised and labelled, one row each.

A row holds ``id`` (the puzzle's index in the run); ``k``, ``m``, ``n``; ``puzzle``
(:func:`rumdiff.puzzle_codec.encode_puzzle`: one digit per cell, lossless); ``mode``,
``regime`` (1..3 in mixed mode, else 0) and ``p0`` .. ``p{m}`` (the copy probabilities
the puzzle was drawn with, as fractions); the solver's ``score``, ``lower`` and
``upper`` bounds, ``states``, ``transitions`` and ``method`` (``"bounds"`` or
``"dp"``); ``seconds`` (the fastest of ``repeats`` solves, after JIT warm-up); the
feature columns of :func:`rumdiff.features.compute_features`; and ``label`` (1..4, see
:mod:`rumdiff.labels`). The file is Parquet (``.parquet``, ``.pq``) or CSV (``.csv``),
by extension, with a JSON sidecar ``<file>.json`` (:func:`metadata_path`) that records
how it was made: ``command``, ``seed``, ``parameters`` (everything that decides the
rows), ``rumdiff_version``, ``git_commit`` and ``git_dirty``, ``label`` (scheme,
thresholds, class names), ``class_counts``, ``duplicates_redrawn``, ``wall_seconds``
(over all sessions of a resumed run), ``solve_seconds``, ``sessions`` (per run or
resumed run: start, wall and worker CPU seconds, puzzles solved, jobs, commit),
``features`` and ``columns`` (each column's dtype, restored on reading).

Safety: while it runs, :func:`build_dataset` keeps a work folder ``<file>.partial``
holding ``run.json`` (the run's parameters) and one part file per finished chunk,
each written to a temporary name, flushed to disk and renamed, so a part is either
whole or absent. After the last chunk the parts are checked, joined and labelled,
the dataset and its sidecar are written the same way, and the folder is removed. A
run stopped by Ctrl-C, ``kill`` or a crash loses only the chunks being solved; the
same call with ``resume=True`` solves only what is missing. No reader ever sees a
half-written dataset.

Labels are a function of the solver columns and features a function of the puzzles,
so :mod:`rumdiff.dataset_edit` rewrites either in a finished dataset (``rumdiff
generate --relabel DATASET`` for labels) without solving again.

Reproducibility: every puzzle is generated up front in this process (cheap, see
:mod:`rumdiff.generate`) and only solving and featurising are spread over worker
processes, so the same seed gives the same rows, apart from ``seconds``, whatever
``jobs`` is.
"""

from __future__ import annotations

import shutil
import time
import warnings
from dataclasses import asdict, dataclass

import numpy as np

from rumdiff import config
from rumdiff.atomic import atomic_write_json
from rumdiff.batch import SOLVER_COLUMNS, solve_batch
from rumdiff.dataset_io import (
    DatasetError,
    atomic_write_frame,
    cast_columns,
    dataset_format,
    git_commit,
    metadata_path,
    now,
    read_dataset,
    read_frame,
    read_metadata,
    work_dir,
    write_dataset,
)
from rumdiff.labels import check_thresholds, class_counts, compute_labels

__all__ = [
    "BASE_COLUMNS",
    "DatasetError",
    "build_dataset",
    "dataset_columns",
    "feature_columns",
    "beam_width_of",
    "label_metadata",
    "metadata_path",
    "read_dataset",
    "read_metadata",
    "work_dir",
    "write_dataset",
]

#: Columns before the copy probabilities, and between them and the features.
_HEAD = ("id", "k", "m", "n", "puzzle", "mode", "regime")
#: Every dataset column that is not a feature or a probability.
BASE_COLUMNS = (*_HEAD, *SOLVER_COLUMNS, "label")
#: Feature sets a dataset can hold; "none" stores no feature column.
FEATURE_SETS = (*config.FEATURE_SETS, "none")
_RUN_FILE = "run.json"


@dataclass(frozen=True)
class _Spec:
    """Everything that decides a dataset's rows (labels are applied at the end)."""

    count: int
    k: int
    m: int
    n: int
    mode: str
    seed: int
    percentages: tuple | None
    regime_weights: tuple
    repeats: int
    feature_set: str
    chunk_size: int
    beam_width: int

    def as_json(self) -> dict:
        data = asdict(self)
        data["percentages"] = None if self.percentages is None else list(self.percentages)
        data["regime_weights"] = list(self.regime_weights)
        return data

    def matches(self, recorded) -> str | None:
        """The first parameter in which ``recorded`` (a spec as JSON) differs, or None.

        Runs and datasets from before ``beam_width`` was recorded used the default.
        """
        recorded = {"beam_width": config.BEAM_WIDTH, **(recorded or {})}
        for key, value in self.as_json().items():
            if recorded.get(key) != value:
                return key
        return None


def _positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise DatasetError(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _beam_width(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise DatasetError(f"beam_width must be a whole number of at least 0, got {value!r}")
    return int(value)


def feature_columns(feature_set: str, k: int, m: int) -> list[str]:
    """Names of the feature columns a G(k, m, .) dataset stores for ``feature_set``.

    Raises
    ------
    DatasetError
        If ``feature_set`` is not one of :data:`FEATURE_SETS`, or holds a feature whose
        name clashes with a dataset column.
    """
    if feature_set not in FEATURE_SETS:
        raise DatasetError(f"unknown feature set {feature_set!r}; expected one of {FEATURE_SETS}")
    if feature_set == "none":
        return []
    from rumdiff.features import feature_names

    names = list(feature_names(feature_set, k=k, m=m))
    clash = sorted(set(names) & set(dataset_columns(m, [])))
    if clash:
        raise DatasetError(f"feature {clash[0]!r} clashes with a dataset column")
    return names


def dataset_columns(m: int, features) -> list[str]:
    """Column names of a dataset with copies up to ``m`` and the given feature names."""
    probabilities = [f"p{j}" for j in range(m + 1)]
    return [*_HEAD, *probabilities, *SOLVER_COLUMNS, *features, "label"]


def _chunk_rows(spec: _Spec, start: int, copies, regime, probabilities):
    """The rows (without labels) of puzzles ``start ..`` and the CPU seconds they took."""
    import pandas as pd

    from rumdiff.puzzle_codec import encode_puzzles

    cpu = time.process_time()
    count = len(copies)
    columns = {
        "id": np.arange(start, start + count, dtype=np.int64),
        "k": np.full(count, spec.k, dtype=np.int8),
        "m": np.full(count, spec.m, dtype=np.int8),
        "n": np.full(count, spec.n, dtype=np.int16),
        "puzzle": encode_puzzles(copies),
        "mode": [spec.mode] * count,
        "regime": np.asarray(regime, dtype=np.int8),
    }
    for j in range(spec.m + 1):
        columns[f"p{j}"] = probabilities[:, j]
    columns.update(solve_batch(copies, m=spec.m, repeats=spec.repeats, beam_width=spec.beam_width))
    frame = pd.DataFrame(columns)
    for name in ("puzzle", "mode", "method"):
        frame[name] = frame[name].astype("str")
    if spec.feature_set != "none":
        from rumdiff.features import compute_features

        features = compute_features(copies, m=spec.m, feature_set=spec.feature_set)
        frame = pd.concat([frame, features.reset_index(drop=True)], axis=1)
    return frame, time.process_time() - cpu


def _part_name(chunk: int, fmt: str) -> str:
    return f"part-{chunk:06d}.{'parquet' if fmt == 'parquet' else 'csv'}"


def _start_run(work, spec: _Spec, resume: bool) -> dict:
    """Open the work folder: a new run, or the unfinished one when resuming."""
    manifest = work / _RUN_FILE
    if work.exists():
        if not resume:
            raise DatasetError(
                f"an unfinished run of this dataset is in {work}; resume it (--resume) or delete it"
            )
        try:
            run = read_metadata(manifest)
        except DatasetError:
            raise DatasetError(f"{work} holds no readable {_RUN_FILE}; delete the folder") from None
        key = spec.matches(run.get("spec"))
        if key is not None:
            raise DatasetError(
                f"cannot resume: the unfinished run in {work} has {key}="
                f"{run.get('spec', {}).get(key)!r}, not {spec.as_json()[key]!r}"
            )
        for stray in work.glob(".*"):  # temporaries of chunks being written when stopped
            stray.unlink(missing_ok=True)
        return run
    work.mkdir(parents=True)
    run = {"format": config.DATASET_FORMAT, "spec": spec.as_json(), "sessions": []}
    atomic_write_json(manifest, run)
    return run


def build_dataset(
    path,
    *,
    count: int = config.DATASET_COUNT,
    k: int = config.K,
    m: int = config.M,
    n: int = config.N,
    mode: str = config.GENERATE_MODE,
    seed: int = config.SEED,
    percentages=None,
    regime_weights=config.REGIME_WEIGHTS,
    jobs: int = config.DATASET_JOBS,
    repeats: int = config.DATASET_REPEATS,
    label_by: str = config.LABEL_BY,
    thresholds=None,
    feature_set: str = config.DATASET_FEATURE_SET,
    chunk_size: int = config.DATASET_CHUNK,
    beam_width: int = config.BEAM_WIDTH,
    resume: bool = False,
    command=None,
    progress=None,
) -> dict:
    """Generate, solve, featurise and label ``count`` puzzles into ``path``.

    Parameters
    ----------
    path : str or Path
        The dataset: ``.parquet``/``.pq`` (needs pyarrow) or ``.csv``.
    count, k, m, n, mode, seed, percentages, regime_weights
        As for :func:`rumdiff.generate.generate`.
    jobs : int
        Worker processes (joblib's convention: -1 every core, 1 none).
    repeats : int
        Solves per puzzle; ``seconds`` is the fastest.
    label_by, thresholds
        Label scheme and thresholds (:func:`rumdiff.labels.compute_labels`).
    feature_set : {"thesis", "extended", "all", "none"}
        Feature columns to store.
    chunk_size : int
        Puzzles per part file; an interrupted run loses at most the chunks in progress.
    beam_width : int
        The solver's beam width (:func:`rumdiff.solver.solve`). It never changes a
        score, but it decides the work columns and so the work labels: 0 labels by the
        work of the plain exact DP, pruned only by the bounds known before it starts,
        which follows the size of the puzzle's search space (see
        ``config.LABEL_THRESHOLDS``); the default labels by the work of rumdiff's solver.
    resume : bool
        Continue the unfinished run of ``path`` (same parameters, else an error). When
        there is none, start afresh, unless ``path`` is already complete with these
        parameters: then only relabel it if the labels differ.
    command : list of str, optional
        The command line, for the metadata.
    progress : callable, optional
        Called as ``progress(done, total)`` after generation and after every chunk.

    Returns
    -------
    dict
        The metadata written to the sidecar; ``"already_complete": True`` when a resumed
        run found nothing to do.

    Raises
    ------
    DatasetError
        On bad parameters or files. ``ValueError`` from the generator passes through.
    """
    from pathlib import Path

    import joblib
    import pandas as pd

    from rumdiff.generate import generate

    began, started = time.perf_counter(), now()
    path = Path(path)
    fmt = dataset_format(path)
    spec = _Spec(
        _positive("count", count), k, m, n, mode, seed,
        None if percentages is None else tuple(float(p) for p in percentages),
        tuple(float(w) for w in regime_weights), _positive("repeats", repeats),
        feature_set, _positive("chunk_size", chunk_size), _beam_width(beam_width),
    )  # fmt: skip
    thresholds = check_thresholds(label_by, thresholds, beam_width=spec.beam_width)
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs == 0:
        raise DatasetError(f"jobs must be a non-zero whole number, got {jobs!r}")
    features = feature_columns(feature_set, k, m)
    generated = generate(
        count, k=k, m=m, n=n, mode=mode, seed=seed, percentages=percentages,
        regime_weights=regime_weights,
    )  # fmt: skip
    work = work_dir(path)
    if resume and not work.exists() and path.exists():
        done = _complete(path, spec, label_by, thresholds, command)
        if done is not None:
            return done
    run = _start_run(work, spec, resume)
    session = {"started": started, "wall_seconds": 0.0, "cpu_seconds": 0.0, "puzzles_solved": 0}
    session.update(jobs=int(joblib.effective_n_jobs(jobs)), **git_commit())
    run["sessions"].append(session)
    atomic_write_json(work / _RUN_FILE, run)  # a killed session is on record too
    _solve_chunks(work, fmt, spec, generated, run, jobs, began, progress)
    parts = [read_frame(work / _part_name(c, fmt), fmt) for c in range(_chunks(spec))]
    frame = cast_columns(pd.concat(parts, ignore_index=True), run.get("columns", {}))
    _check_rows(frame, generated, work)
    frame["label"] = compute_labels(frame, label_by, thresholds)
    frame = frame[dataset_columns(m, features)]
    session["wall_seconds"] = time.perf_counter() - began
    metadata = {
        "format": config.DATASET_FORMAT,
        "command": None if command is None else list(command),
        "created": now(),
        "seed": seed,
        "parameters": spec.as_json(),
        "duplicates_redrawn": generated.duplicates_redrawn,
        "rows": len(frame),
        "label": label_metadata(label_by, thresholds),
        "class_counts": class_counts(frame["label"]),
        "wall_seconds": sum(s["wall_seconds"] for s in run["sessions"]),
        "solve_seconds": float(frame["seconds"].sum()),
        "sessions": run["sessions"],
        **git_commit(),
        "features": features,
    }
    metadata = write_dataset(frame, path, metadata)
    shutil.rmtree(work, ignore_errors=True)
    return metadata


def _chunks(spec: _Spec) -> int:
    return -(-spec.count // spec.chunk_size)


def _solve_chunks(work, fmt: str, spec: _Spec, generated, run: dict, jobs, began, progress):
    """Solve the chunks that have no part file yet, in parallel; save each as it ends."""
    import joblib

    size, count, session = spec.chunk_size, spec.count, run["sessions"][-1]
    pending = [c for c in range(_chunks(spec)) if not (work / _part_name(c, fmt)).exists()]
    done = count - sum(min(size, count - c * size) for c in pending)
    if progress is not None:
        progress(done, count)
    copies, regime = generated.puzzles.copies, generated.regime
    probabilities = generated.probabilities
    tasks = (
        joblib.delayed(_chunk_rows)(
            spec, c * size, copies[c * size : (c + 1) * size],
            regime[c * size : (c + 1) * size], probabilities[c * size : (c + 1) * size],
        )
        for c in pending
    )  # fmt: skip
    results = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)
    try:
        for frame, cpu in results:
            if "columns" not in run:  # the workers' dtypes, which CSV parts do not keep
                run["columns"] = {name: str(dtype) for name, dtype in frame.dtypes.items()}
                atomic_write_json(work / _RUN_FILE, run)
            chunk = int(frame["id"].iloc[0]) // size
            atomic_write_frame(frame, work / _part_name(chunk, fmt), fmt)
            done += len(frame)
            session["puzzles_solved"] += len(frame)
            session["cpu_seconds"] += cpu
            session["wall_seconds"] = time.perf_counter() - began
            atomic_write_json(work / _RUN_FILE, run)
            if progress is not None:
                progress(done, count)
    finally:
        with warnings.catch_warnings():  # joblib warns that it cancelled the other chunks
            warnings.simplefilter("ignore", UserWarning)
            results.close()


def beam_width_of(metadata: dict) -> int:
    """The solver beam width a dataset was solved with (the default before it was recorded)."""
    return int((metadata.get("parameters") or {}).get("beam_width", config.BEAM_WIDTH))


def label_metadata(scheme: str, thresholds) -> dict:
    """The ``label`` entry of a dataset's sidecar: scheme, thresholds and class names."""
    return {"scheme": scheme, "thresholds": list(thresholds), "names": list(config.LABEL_NAMES)}


def _complete(path, spec: _Spec, label_by: str, thresholds, command) -> dict | None:
    """The metadata of ``path`` if it is a finished dataset of this spec, relabelled if
    its labels differ; None if it is not."""
    try:
        metadata = read_metadata(metadata_path(path))
    except DatasetError:
        return None
    if spec.matches(metadata.get("parameters")) is not None or metadata.get("rows") != spec.count:
        return None
    if metadata.get("label") != label_metadata(label_by, thresholds):
        # Imported here: rumdiff.dataset_edit imports this module when it loads.
        from rumdiff.dataset_edit import relabel_dataset

        metadata = relabel_dataset(path, label_by=label_by, thresholds=thresholds, command=command)
    return {**metadata, "already_complete": True}


def _check_rows(frame, generated, work) -> None:
    """Check that the parts hold exactly the generated puzzles, in order."""
    from rumdiff.puzzle_codec import encode_puzzles

    ids = frame["id"].to_numpy()
    if len(frame) != len(generated) or not np.array_equal(ids, np.arange(len(generated))):
        raise DatasetError(f"the parts in {work} do not hold puzzles 0..{len(generated) - 1}")
    expected = encode_puzzles(generated.puzzles.copies)
    if not np.array_equal(np.asarray(frame["puzzle"], dtype=object), np.asarray(expected, object)):
        raise DatasetError(f"the parts in {work} hold other puzzles than this run's; delete it")
