"""Labelled datasets: puzzles generated, solved, featurised and labelled, one row each.

A row holds ``id`` (the puzzle's index in the run); ``k``, ``m``, ``n``; ``puzzle``
(:func:`rumdiff.puzzle.encode_puzzle`: one digit per cell, lossless); ``mode``,
``regime`` (1..3 in mixed mode, else 0) and ``p0`` .. ``p{m}`` (the copy probabilities
the puzzle was drawn with, as fractions); ``score``, the ``lower`` and ``upper`` bounds
and ``method`` (``"bounds"`` or ``"dp"``); per solver run (``search``, the reference
search, and ``solver``, the fast solver; :mod:`rumdiff.data.batch`) its ``_states``,
``_transitions`` and ``_seconds`` (the fastest of ``repeats`` solves, after JIT warm-up);
the feature columns of :func:`rumdiff.features.compute_features`; and ``label`` (1..4,
see :mod:`rumdiff.data.labels`). The file is Parquet (``.parquet``, ``.pq``) or CSV (``.csv``),
by extension, with a JSON sidecar ``<file>.json`` (:func:`~rumdiff.data.io.metadata_path`)
that records how it was made: ``command``, ``seed``, ``parameters`` (everything that decides the
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
so :mod:`rumdiff.data.edit` rewrites either in a finished dataset (``rumdiff
generate --relabel DATASET`` for labels) without solving again.

Reproducibility: every puzzle is generated up front in this process (cheap, see
:mod:`rumdiff.data.generator`) and only solving and featurising are spread over worker
processes, so the same seed gives the same rows, apart from ``seconds``, whatever
``jobs`` is.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np

from rumdiff import config
from rumdiff.atomic import atomic_write_json
from rumdiff.cluster import connect
from rumdiff.data.batch import solve_batch
from rumdiff.data.edit import relabel_dataset
from rumdiff.data.family import Family
from rumdiff.data.io import (
    DatasetError,
    atomic_write_frame,
    dataset_format,
    git_commit,
    now,
    read_sidecar,
    work_dir,
    write_dataset,
)
from rumdiff.data.labels import check_thresholds, class_counts, compute_labels
from rumdiff.data.runfolder import RUN_FILE, joined_parts, part_name, start_run
from rumdiff.data.schema import dataset_columns, feature_columns, label_metadata
from rumdiff.processes import LockedError, RunLock, run_unordered
from rumdiff.validation import choice, jobs_count, whole

__all__ = ["DatasetSpec", "build_dataset"]


@dataclass(frozen=True)
class DatasetSpec:
    """Everything that decides a dataset's rows (labels are applied at the end).

    Parameters
    ----------
    count : int
        Puzzles, at least 1.
    family : Family, default Family()
        The puzzles' game, the mode that draws their copy shares, and their jokers
        (:class:`~rumdiff.data.family.Family`); with jokers or a table the ``puzzle``
        column holds :func:`rumdiff.puzzle.encode_games` text.
    seed : int
        The run's seed (:func:`rumdiff.data.generator.generate`).
    repeats : int
        Solves per puzzle; ``seconds`` is the fastest.
    feature_set : str
        Feature columns to store, one of ``config.DATASET_FEATURE_SETS``.
    chunk_size : int
        Puzzles per part file; an interruption loses at most the chunks in progress.
    beam_width : int
        The fast solver's beam width (:func:`rumdiff.solve.solve`): it never changes a
        score, only the fast solver's work.
    solvers : tuple of str, optional
        Which of ``config.DATASET_SOLVERS`` solve every puzzle (their effort columns);
        None: the one the label measure needs (:func:`build_dataset` fills it in).

    Raises
    ------
    DatasetError
        On a value of the wrong type or range (the family checks its own).
    """

    count: int = config.DATASET_COUNT
    family: Family = field(default_factory=Family)
    seed: int = config.SEED
    repeats: int = config.DATASET_REPEATS
    feature_set: str = config.DATASET_FEATURE_SET
    chunk_size: int = config.DATASET_CHUNK
    beam_width: int = config.BEAM_WIDTH
    solvers: tuple | None = None

    def __post_init__(self):
        if not isinstance(self.family, Family):
            raise DatasetError(f"family must be a Family, got {type(self.family).__name__}")
        object.__setattr__(self, "seed", whole("seed", self.seed, low=0, error=DatasetError))
        for name, low in (("count", 1), ("repeats", 1), ("chunk_size", 1), ("beam_width", 0)):
            object.__setattr__(
                self, name, whole(name, getattr(self, name), low=low, error=DatasetError)
            )
        choice("feature set", self.feature_set, config.DATASET_FEATURE_SETS, error=DatasetError)
        if self.solvers is not None:
            solvers = tuple(self.solvers)
            for solver in solvers:
                choice("solver", solver, config.DATASET_SOLVERS, error=DatasetError)
            if not solvers or len(set(solvers)) < len(solvers):
                raise DatasetError(f"solvers must be distinct and at least one, got {solvers}")
            ordered = tuple(s for s in config.DATASET_SOLVERS if s in solvers)
            object.__setattr__(self, "solvers", ordered)

    @property
    def chunks(self) -> int:
        """Number of part files: chunks of ``chunk_size`` puzzles."""
        return -(-self.count // self.chunk_size)

    def as_json(self) -> dict:
        """The spec as the sidecar records it."""
        data = {"count": self.count, **self.family.as_json()}
        rest = (f.name for f in fields(self) if f.name not in data and f.name != "family")
        data.update((name, getattr(self, name)) for name in rest)
        data["solvers"] = None if self.solvers is None else list(self.solvers)
        return data

    def matches(self, recorded) -> str | None:
        """The first parameter in which ``recorded`` (a spec as JSON) differs, or None."""
        recorded = recorded or {}
        defaults = {"jokers": 0}  # parameters added since the first datasets
        for key, value in self.as_json().items():
            if recorded.get(key, defaults.get(key)) != value:
                return key
        return None


def build_dataset(
    path,
    spec: DatasetSpec | None = None,
    *,
    label_by: str = config.LABEL_BY,
    thresholds=None,
    jobs: int = config.JOBS,
    scheduler: str | None = None,
    max_states: int = config.MAX_STATES,
    resume: bool = False,
    command=None,
    progress=None,
) -> dict:
    """Generate, solve, featurise and label ``spec.count`` puzzles into ``path``.

    Parameters
    ----------
    path : str or Path
        The dataset: ``.parquet``/``.pq`` (needs pyarrow) or ``.csv``.
    spec : DatasetSpec, optional
        What decides the rows; default ``DatasetSpec()``.
    label_by, thresholds
        Label scheme and thresholds (:func:`rumdiff.data.labels.compute_labels`).
    jobs : int
        Worker processes (joblib's convention: -1 every core, 1 none). They are fresh
        (spawned) processes: a script that asks for more than one needs the
        ``if __name__ == "__main__":`` guard that spawned processes need.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``): solve the chunks on its
        workers instead of local processes (:mod:`rumdiff.cluster`); the rows are the same.
    max_states : int
        The state budget of both solvers (:func:`rumdiff.data.batch.solve_batch`): a
        puzzle whose reference search needs more stops the run, whose finished chunks
        a session with a larger budget may resume. Each session records its own.
    resume : bool
        Continue the unfinished run of ``path`` (same spec, else an error). When there
        is none, start afresh, unless ``path`` is already complete with this spec: then
        only relabel it if the labels differ.
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
    from rumdiff.data.generator import generate

    began, started = time.perf_counter(), now()
    spec = DatasetSpec() if spec is None else spec
    path = Path(path)
    fmt = dataset_format(path)
    thresholds = check_thresholds(label_by, thresholds)
    needed = config.MEASURE_SOLVER[label_by]
    if spec.solvers is None:
        spec = replace(spec, solvers=(needed,))
    elif needed not in spec.solvers:
        raise DatasetError(f"{label_by} labels need the {needed} among the solvers {spec.solvers}")
    max_states = whole("max_states", max_states, low=1, high=config.MAX_STATES_LIMIT,
                       error=DatasetError)  # fmt: skip
    jobs_count(jobs, error=DatasetError)
    family = spec.family
    features = feature_columns(spec.feature_set, family.game.k, family.game.m, family.has_jokers)
    generated = generate(spec.count, family, seed=spec.seed)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # the lock lives beside the output
        with RunLock(f"{path}.lock", what=str(path)):
            return _build(path, fmt, spec, generated, features, label_by, thresholds,
                          (jobs, scheduler, max_states), resume, command, progress, began,
                          started)  # fmt: skip
    except LockedError as error:
        raise DatasetError(str(error)) from None


def _build(path, fmt, spec, generated, features, label_by, thresholds, workers, resume,
           command, progress, began, started) -> dict:  # fmt: skip
    """:func:`build_dataset`'s work once the output is locked: solve, join, label, write."""
    work = work_dir(path)
    if resume and not work.exists() and path.exists():
        done = _complete(path, spec, label_by, thresholds, command)
        if done is not None:
            return done
    jobs, scheduler, max_states = workers
    with connect(scheduler) if scheduler else contextlib.nullcontext() as client:
        run = start_run(work, spec, resume, jobs, started, scheduler=scheduler,
                        max_states=max_states)  # fmt: skip
        _solve_chunks(work, fmt, spec, generated, run, (jobs, client), began, progress)
    frame = joined_parts(work, fmt, spec, generated, run)
    frame["label"] = compute_labels(frame, label_by, thresholds)
    frame = frame[dataset_columns(spec.family.game.m, features, spec.solvers)]
    run["sessions"][-1]["wall_seconds"] = time.perf_counter() - began
    metadata = {
        "format": config.DATASET_FORMAT,
        "command": None if command is None else list(command),
        "created": now(),
        "seed": spec.seed,
        "parameters": spec.as_json(),
        "duplicates_redrawn": generated.duplicates_redrawn,
        "rows": len(frame),
        "label": label_metadata(label_by, thresholds),
        "class_counts": class_counts(frame["label"]),
        "wall_seconds": sum(s["wall_seconds"] for s in run["sessions"]),
        "solve_seconds": {s: float(frame[f"{s}_seconds"].sum()) for s in spec.solvers},
        "sessions": run["sessions"],
        **git_commit(),
        "features": features,
    }
    metadata = write_dataset(frame, path, metadata)
    shutil.rmtree(work, ignore_errors=True)
    return metadata


def _chunk_rows(spec: DatasetSpec, max_states: int, start: int, puzzles, regime,
                probabilities):  # fmt: skip
    """The rows (without labels) of puzzles ``start ..``, the CPU seconds they took, and
    the seconds of those spent on features."""
    import pandas as pd

    from rumdiff.puzzle import encode_games

    cpu, family = time.process_time(), spec.family
    count = len(puzzles)
    columns = {
        "id": np.arange(start, start + count, dtype=np.int64),
        "k": np.full(count, family.game.k, dtype=np.int8),
        "m": np.full(count, family.game.m, dtype=np.int8),
        "n": np.full(count, family.game.n, dtype=np.int16),
        "puzzle": encode_games(puzzles),
        "mode": [family.mode] * count,
        "regime": np.asarray(regime, dtype=np.int8),
    }
    for j in range(family.game.m + 1):
        columns[f"p{j}"] = probabilities[:, j]
    columns.update(
        solve_batch(
            puzzles, m=family.game.m, solvers=spec.solvers, repeats=spec.repeats,
            beam_width=spec.beam_width, max_states=max_states,
        )
    )  # fmt: skip
    frame = pd.DataFrame(columns)
    for name in ("puzzle", "mode", "method"):
        frame[name] = frame[name].astype("str")
    featuring = time.process_time()
    if spec.feature_set != "none":
        from rumdiff.features import compute_features

        features = compute_features(
            puzzles, m=family.game.m, feature_set=spec.feature_set, jokers=family.has_jokers
        )
        frame = pd.concat([frame, features.reset_index(drop=True)], axis=1)
    done = time.process_time()
    return frame, done - cpu, done - featuring


def _solve_chunks(work, fmt: str, spec: DatasetSpec, generated, run: dict, workers, began,
                  progress):  # fmt: skip
    """Solve the chunks that have no part file yet, in parallel (``workers``: jobs and a
    Dask client or None); save each as it ends."""
    jobs, client = workers
    size, count, session = spec.chunk_size, spec.count, run["sessions"][-1]
    pending = [c for c in range(spec.chunks) if not (work / part_name(c, fmt)).exists()]
    done = count - sum(min(size, count - c * size) for c in pending)
    if progress is not None:
        progress(done, count)
    puzzles, regime = generated.puzzles, generated.regime
    probabilities = generated.probabilities
    tasks = [
        (spec, run["sessions"][-1]["max_states"], c * size, puzzles[c * size : (c + 1) * size],
         regime[c * size : (c + 1) * size], probabilities[c * size : (c + 1) * size])
        for c in pending
    ]  # fmt: skip
    results = run_unordered(_chunk_rows, tasks, jobs=jobs, client=client)
    try:
        for frame, cpu, featuring in results:
            if "columns" not in run:  # the workers' dtypes, which CSV parts do not keep
                run["columns"] = {name: str(dtype) for name, dtype in frame.dtypes.items()}
                atomic_write_json(work / RUN_FILE, run)
            chunk = int(frame["id"].iloc[0]) // size
            atomic_write_frame(frame, work / part_name(chunk, fmt), fmt)
            done += len(frame)
            session["puzzles_solved"] += len(frame)
            session["cpu_seconds"] += cpu
            session["feature_cpu_seconds"] += featuring
            session["wall_seconds"] = time.perf_counter() - began
            atomic_write_json(work / RUN_FILE, run)
            if progress is not None:
                progress(done, count)
    finally:
        results.close()


def _complete(path, spec: DatasetSpec, label_by: str, thresholds, command) -> dict | None:
    """The metadata of ``path`` if it is a finished dataset of this spec, relabelled if
    its labels differ (``"relabelled": True``); None if it is a dataset of other options.

    Raises
    ------
    DatasetError
        If ``path`` is not a finished rumdiff dataset at all (another command's file, or
        a file beside a sidecar that describes another): resuming must not replace it.
    """
    metadata, problem = _finished_metadata(path)
    if problem is not None:
        raise DatasetError(
            f"{path} exists but {problem}, so it is no finished dataset to resume; run "
            "without --resume to replace it, or choose another OUT"
        )
    if spec.matches(metadata.get("parameters")) is not None or metadata.get("rows") != spec.count:
        return None
    relabelled = metadata.get("label") != label_metadata(label_by, thresholds)
    if relabelled:
        metadata = relabel_dataset(path, label_by=label_by, thresholds=thresholds, command=command)
    return {**metadata, "already_complete": True, "relabelled": relabelled}


def _finished_metadata(path: Path) -> tuple[dict, str | None]:
    """The sidecar of ``path`` and, if ``path`` is not the dataset it describes, why."""
    from rumdiff.data.io import metadata_path
    from rumdiff.data.sizing import header_columns

    if not metadata_path(path).is_file():
        return {}, f"has no sidecar {metadata_path(path).name} (another command wrote it?)"
    try:
        metadata = read_sidecar(path)
        columns = header_columns(path)
    except DatasetError as error:
        return {}, f"cannot be read as a dataset ({error})"
    if metadata.get("file") != path.name or not isinstance(metadata.get("parameters"), dict):
        return metadata, f"its sidecar describes another file ({metadata.get('file')!r})"
    if list(metadata.get("columns") or {}) != columns:
        return metadata, "its columns are not those its sidecar lists"
    return metadata, None
