"""What reading a dataset will cost, found before reading it: its header and its size.

A table of a million columns, or one far larger than memory, must be refused before
pandas builds it (each column costs a few kB however few its rows).
:func:`check_dataset_memory` reads only a CSV's header line (at most
``config.DATASET_HEADER_BYTES``) or a Parquet file's footer, and
:func:`dataset_columns_known` lists the columns rumdiff reads at all, so that stray
columns are never loaded.
"""

from __future__ import annotations

import os

from rumdiff import config
from rumdiff.data.io import BASE_DTYPES, DatasetError, dataset_format

__all__ = ["check_dataset_memory", "dataset_columns_known", "header_columns"]


def header_columns(path) -> list[str]:
    """The column names of a dataset file, read from its header alone.

    Raises
    ------
    DatasetError
        If the CSV header line is longer than ``config.DATASET_HEADER_BYTES``, the file
        cannot be read, or it names more than ``config.DATASET_MAX_COLUMNS`` columns.
    """
    fmt = dataset_format(path)
    try:
        names = _parquet_columns(path) if fmt == "parquet" else _csv_columns(path)
    except OSError as error:
        raise DatasetError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(names) > config.DATASET_MAX_COLUMNS:
        raise DatasetError(
            f"{path}: {len(names):,} columns, more than a rumdiff dataset has "
            f"(at most {config.DATASET_MAX_COLUMNS:,})"
        )
    return names


def _csv_columns(path) -> list[str]:
    import csv

    with open(path, "rb") as stream:
        line = stream.readline(config.DATASET_HEADER_BYTES + 1)
    if len(line) > config.DATASET_HEADER_BYTES:
        raise DatasetError(
            f"{path}: header line longer than {config.DATASET_HEADER_BYTES:,} bytes; "
            "not a rumdiff dataset"
        )
    text = line.decode("utf-8", errors="replace").rstrip("\r\n")
    return next(csv.reader([text]), [])


def _parquet_columns(path) -> list[str]:
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(path).names)
    except OSError:
        raise
    except Exception as error:  # pyarrow's own errors do not derive from ValueError
        raise DatasetError(f"{path}: cannot read as parquet: {type(error).__name__}") from None


def dataset_columns_known(metadata: dict) -> set[str]:
    """Every column rumdiff reads from a dataset: the standard ones, the probabilities,
    the features of every set and shape, and those its sidecar lists."""
    from rumdiff.features import feature_names

    known = set(BASE_DTYPES) | {"states", "transitions", "seconds"}  # format 1's efforts
    known |= {f"p{j}" for j in range(config.MAX_M + 1)}
    for m in range(1, config.MAX_M + 1):
        known |= set(feature_names("all", k=config.K, m=m))
    columns = metadata.get("columns")
    if isinstance(columns, dict):
        known |= {name for name in columns if isinstance(name, str)}
    return known


def check_dataset_memory(path, max_memory_gb: float) -> None:
    """Refuse, before reading it, a dataset whose training could need more than
    ``max_memory_gb`` GiB: ``config.TRAIN_BYTES_PER_BYTE`` times its data (a CSV's
    size, a Parquet file's uncompressed size), beside a few kB per column.

    Raises
    ------
    DatasetError
    """
    columns = header_columns(path)
    data = _data_bytes(path)
    need = config.TRAIN_BYTES_PER_BYTE * data + config.COLUMN_BYTES * len(columns)
    if need > max_memory_gb * 2**30:
        raise DatasetError(
            f"{path}: training on {data / 2**20:,.0f} MB of data in {len(columns):,} columns "
            f"could need {need / 2**30:,.1f} GiB, over the limit of {max_memory_gb:g} GiB; "
            "raise --max-memory or train on fewer rows"
        )


def _data_bytes(path) -> int:
    """A CSV's size, or the uncompressed size of a Parquet file's row groups."""
    if dataset_format(path) == "csv":
        return os.path.getsize(path)
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path)
    except Exception as error:  # pyarrow's own errors do not derive from ValueError
        raise DatasetError(f"{path}: cannot read as parquet: {type(error).__name__}") from None
    return sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
