"""Dataset files: Parquet or CSV by extension, a JSON sidecar, durable atomic writes.

Every write goes through :func:`rumdiff.atomic.atomic_write`, so a file is either the
old one or the new one, whole, even after a crash.
"""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from rumdiff import __version__, config
from rumdiff.atomic import atomic_files, atomic_write, write_json

__all__ = [
    "DatasetError",
    "atomic_write_frame",
    "cast_columns",
    "dataset_format",
    "git_commit",
    "metadata_path",
    "now",
    "read_dataset",
    "read_frame",
    "read_metadata",
    "read_sidecar",
    "work_dir",
    "write_dataset",
]

#: File extensions and the format each selects.
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
#: dtypes of the columns every dataset has, used when a file has no sidecar.
BASE_DTYPES = {
    "id": "int64", "k": "int8", "m": "int8", "n": "int16", "puzzle": "str", "mode": "str",
    "regime": "int8", "score": "int64", "lower": "int64", "upper": "int64", "method": "str",
    "search_states": "int64", "search_transitions": "int64", "search_seconds": "float64",
    "solver_states": "int64", "solver_transitions": "int64", "solver_seconds": "float64",
    "label": "int8",
}  # fmt: skip
#: Effort columns of a format-1 dataset (rumdiff 0.1): one solver's, run with the beam
#: width its sidecar records (0: the reference search).
_FORMAT_1_EFFORT = ("states", "transitions", "seconds")


class DatasetError(ValueError):
    """A dataset problem to report in one line: a bad file, option or run folder."""


def dataset_format(path) -> str:
    """``"parquet"`` or ``"csv"``, from the file extension; check that it can be written."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise DatasetError(
            f"{path}: unknown dataset extension {suffix or '(none)'!r}; "
            f"use one of {', '.join(FORMATS)}"
        )
    fmt = FORMATS[suffix]
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise DatasetError(
                f"{path}: Parquet needs pyarrow (pip install pyarrow), or use a .csv file"
            ) from None
    return fmt


def metadata_path(path) -> Path:
    """The JSON sidecar of a dataset: ``<file>.json``."""
    path = Path(path)
    return path.with_name(path.name + ".json")


def work_dir(path) -> Path:
    """The folder that holds an unfinished run's parts: ``<file>.partial``."""
    path = Path(path)
    return path.with_name(path.name + ".partial")


def now() -> str:
    """The current UTC time, ISO 8601, to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@lru_cache(maxsize=1)
def _git() -> tuple:
    root = Path(__file__).resolve().parents[2]
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel", "HEAD"],
            cwd=root, capture_output=True, text=True, timeout=10, check=True,
        )  # fmt: skip
        top, commit = done.stdout.split()
        if Path(top).resolve() != root:
            return None, None  # installed inside some other repository
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root, capture_output=True, text=True, timeout=10, check=True,
        )  # fmt: skip
        return commit, bool(status.stdout.strip())
    except (OSError, ValueError, subprocess.SubprocessError):
        return None, None


def git_commit() -> dict:
    """``git_commit`` (HEAD of the checkout rumdiff runs from, or None) and ``git_dirty``."""
    commit, dirty = _git()
    return {"git_commit": commit, "git_dirty": dirty}


def atomic_write_frame(frame, path, fmt: str) -> None:
    """Write a DataFrame as Parquet or CSV (no index), atomically and durably."""
    atomic_write(path, lambda temporary: _write_frame(frame, temporary, fmt))


def _write_frame(frame, path, fmt: str) -> None:
    if fmt == "parquet":
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, index=False)


def read_frame(path, fmt: str, columns=None):
    """Read a Parquet or CSV table written by :func:`atomic_write_frame`: every column,
    or only those named in ``columns``."""
    import pandas as pd

    try:
        if fmt == "parquet":
            return pd.read_parquet(path, columns=None if columns is None else list(columns))
        # Puzzle texts are digits: read them as text. Floats must come back bit for bit:
        # pandas 3 parses them exactly by default and deprecates asking for it.
        exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
        text = {"puzzle": "str", "mode": "str", "method": "str"}
        if columns is not None:
            exact["usecols"] = list(columns)
        return pd.read_csv(path, dtype=text, **exact)
    except FileNotFoundError:
        raise DatasetError(f"{path}: no such file") from None
    except (OSError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DatasetError(f"{path}: cannot read as {fmt}: {first}") from None
    except Exception as error:  # pyarrow's own errors do not derive from ValueError
        raise DatasetError(f"{path}: cannot read as {fmt}: {type(error).__name__}") from None


def read_metadata(path) -> dict:
    """Read a JSON sidecar (or a run folder's ``run.json``)."""
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except FileNotFoundError:
        raise DatasetError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DatasetError(f"{path}: not readable JSON: {error}") from None
    if not isinstance(data, dict):
        raise DatasetError(f"{path}: not a metadata object")
    return data


def cast_columns(frame, dtypes: dict):
    """Give the named columns of ``frame`` these dtypes (name to dtype string), in place."""
    for name, dtype in dtypes.items():
        if name in frame.columns and str(frame[name].dtype) != dtype:
            try:
                frame[name] = frame[name].astype(dtype)
            except (TypeError, ValueError):
                raise DatasetError(f"column {name!r} cannot be read as {dtype}") from None
    return frame


def read_dataset(path, columns=None):
    """Read a dataset (every column, or those named in ``columns``); columns get the dtypes
    its sidecar records (or the standard ones).

    A format-1 dataset (rumdiff 0.1) comes back in today's layout: its effort columns
    are the reference search's when its sidecar records beam width 0 (that solver counted
    exactly the search effort, docs/search-effort.md), else the fast solver's.

    Returns
    -------
    pandas.DataFrame
    """
    fmt = dataset_format(path)
    frame = read_frame(path, fmt, columns)
    sidecar = metadata_path(path)
    metadata = read_metadata(sidecar) if sidecar.exists() else {}
    _check_sidecar(sidecar, metadata)
    dtypes = {**BASE_DTYPES, **metadata.get("columns", {})}
    try:
        frame = cast_columns(frame, dtypes)
    except DatasetError as error:
        raise DatasetError(f"{path}: {error}") from None
    if "transitions" in frame.columns:
        solver = _format_1_solver(metadata)
        frame = frame.rename(columns={c: f"{solver}_{c}" for c in _FORMAT_1_EFFORT})
    return frame


def read_sidecar(path) -> dict:
    """The sidecar of dataset ``path`` (``{}`` if it has none), in today's layout: a
    format-1 sidecar (see :func:`read_dataset`) gains ``parameters.solvers`` and its
    label's scheme becomes a measure."""
    sidecar = metadata_path(path)
    metadata = read_metadata(sidecar) if sidecar.exists() else {}
    _check_sidecar(sidecar, metadata)
    if metadata.get("format", config.DATASET_FORMAT) != 1:
        return metadata
    solver = _format_1_solver(metadata)
    metadata = {**metadata, "parameters": {**metadata.get("parameters", {}), "solvers": [solver]}}
    label = metadata.get("label")
    if isinstance(label, dict) and "scheme" in label:
        measure = solver if label["scheme"] == "work" else label["scheme"]
        label = {"measure": measure, **{k: v for k, v in label.items() if k != "scheme"}}
        metadata["label"] = label
    return metadata


def _is_names(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


#: Sidecar fields that reading and training use: a check and what it expects.
_SIDECAR_FIELDS = {
    "format": (lambda v: v in (1, config.DATASET_FORMAT), f"1 or {config.DATASET_FORMAT}"),
    "columns": (
        lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in (*v, *v.values())),
        "an object of column names to dtype names",
    ),
    "parameters": (lambda v: isinstance(v, dict), "an object"),
    "label": (lambda v: isinstance(v, dict), "an object"),
    "features": (_is_names, "a list of feature names"),
    "rows": (_is_count, "a whole number of at least 0"),
    "seed": (_is_count, "a whole number of at least 0"),
    "class_counts": (
        lambda v: isinstance(v, dict) and all(_is_count(x) for x in v.values()),
        "an object of class names to counts",
    ),
}


def _check_sidecar(sidecar, metadata: dict) -> None:
    """Refuse a sidecar whose fields have the wrong type, before anything uses them."""
    for key, (valid, expected) in _SIDECAR_FIELDS.items():
        if key in metadata and not valid(metadata[key]):
            raise DatasetError(f"{sidecar}: {key!r} must be {expected}, got {metadata[key]!r}")


def _format_1_solver(metadata: dict) -> str:
    beam_width = (metadata.get("parameters") or {}).get("beam_width", config.BEAM_WIDTH)
    return "search" if beam_width == 0 else "solver"


def write_dataset(frame, path, metadata: dict | None = None) -> dict:
    """Write a dataset and its sidecar atomically, together; return the metadata written.

    The metadata gains ``file``, ``file_format``, ``rumdiff_version`` and ``columns``
    (name to dtype, which :func:`read_dataset` restores, so CSV and Parquet read back
    alike).
    """
    fmt = dataset_format(path)
    metadata = dict(metadata or {})
    metadata.update(
        file=Path(path).name,
        file_format=fmt,
        rumdiff_version=__version__,
        rows=len(frame),
        columns={name: str(dtype) for name, dtype in frame.dtypes.items()},
    )
    # Staged together: a sidecar that cannot be written leaves the old pair whole.
    with atomic_files([path, metadata_path(path)]) as (table, sidecar):
        _write_frame(frame, table, fmt)
        write_json(sidecar, metadata)
    return metadata
