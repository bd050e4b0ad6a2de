"""Data: random puzzles, their solutions, labels and labelled datasets.

- ``family``: a family of random puzzles as one value (:class:`Family`): the game, the
  mode that draws copy shares, and the jokers;
- ``generator``: seeded random puzzles G(k, m, n), all distinct (:func:`generate`);
- ``distinct``: compact puzzle keys, and redrawing duplicates in index order;
- ``batch``: a stack of puzzles solved into a dataset's solver columns;
- ``labels``: difficulty classes from a measure of effort (search, solver or time);
- ``schema``: a dataset's columns and the label entry of its sidecar;
- ``io``: dataset files (Parquet or CSV) with a JSON sidecar, written atomically;
- ``dataset``: :func:`build_dataset`, resumable, in parallel, one run per output;
- ``runfolder``: the unfinished run's work folder (``run.json``, part files);
- ``edit``: relabel or refeaturise a finished dataset without solving again;
- ``order``: puzzles made to order, whose measured search effort lies in a class or range.
"""

from rumdiff.data.dataset import DatasetSpec, build_dataset
from rumdiff.data.edit import refeaturise_dataset, relabel_dataset
from rumdiff.data.family import Family
from rumdiff.data.generator import GeneratedPuzzles, generate
from rumdiff.data.io import (
    DatasetError,
    metadata_path,
    read_dataset,
    read_metadata,
    read_sidecar,
    work_dir,
    write_dataset,
)
from rumdiff.data.labels import check_thresholds, class_counts, compute_labels
from rumdiff.data.order import OrderError, OrderResult, effort_range, make_to_order
from rumdiff.data.schema import dataset_columns, feature_columns

__all__ = [
    "DatasetError",
    "DatasetSpec",
    "Family",
    "GeneratedPuzzles",
    "OrderError",
    "OrderResult",
    "build_dataset",
    "check_thresholds",
    "class_counts",
    "compute_labels",
    "dataset_columns",
    "effort_range",
    "feature_columns",
    "generate",
    "make_to_order",
    "metadata_path",
    "read_dataset",
    "read_metadata",
    "read_sidecar",
    "refeaturise_dataset",
    "relabel_dataset",
    "work_dir",
    "write_dataset",
]
