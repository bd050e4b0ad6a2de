"""What a dataset holds: its columns, in order, and the label entry of its sidecar.

Shared by :mod:`rumdiff.data.dataset` (which builds datasets) and
:mod:`rumdiff.data.edit` (which rewrites their labels or features), so neither imports
the other.
"""

from __future__ import annotations

from rumdiff import config
from rumdiff.data.batch import solver_columns
from rumdiff.data.io import DatasetError
from rumdiff.validation import choice

__all__ = [
    "HEAD_COLUMNS",
    "beam_width_of",
    "dataset_columns",
    "feature_columns",
    "label_metadata",
    "solvers_of",
]

#: Columns before the copy probabilities.
HEAD_COLUMNS = ("id", "k", "m", "n", "puzzle", "mode", "regime")


def dataset_columns(m: int, features, solvers=("search",)) -> list[str]:
    """Column names of a dataset with copies up to ``m``, the given feature names and the
    columns of the solvers it ran, in order."""
    probabilities = [f"p{j}" for j in range(m + 1)]
    return [*HEAD_COLUMNS, *probabilities, *solver_columns(solvers), *features, "label"]


def feature_columns(feature_set: str, k: int, m: int, jokers: bool = False) -> list[str]:
    """Names of the feature columns a G(k, m, .) dataset stores for ``feature_set``
    (with the joker features when its puzzles have jokers or a table).

    Raises
    ------
    DatasetError
        If ``feature_set`` is not one of ``config.DATASET_FEATURE_SETS``, or holds a
        feature whose name clashes with a dataset column.
    """
    choice("feature set", feature_set, config.DATASET_FEATURE_SETS, error=DatasetError)
    if feature_set == "none":
        return []
    from rumdiff.features import feature_names

    names = list(feature_names(feature_set, k=k, m=m, jokers=jokers))
    clash = sorted(set(names) & set(dataset_columns(m, [], config.DATASET_SOLVERS)))
    if clash:
        raise DatasetError(f"feature {clash[0]!r} clashes with a dataset column")
    return names


def beam_width_of(metadata: dict) -> int:
    """The fast solver's beam width a dataset was solved with (its sidecar's)."""
    return int((metadata.get("parameters") or {}).get("beam_width", config.BEAM_WIDTH))


def solvers_of(metadata: dict) -> tuple:
    """The solvers whose columns a dataset holds (its sidecar's)."""
    return tuple((metadata.get("parameters") or {}).get("solvers", ("search",)))


def label_metadata(measure: str, thresholds) -> dict:
    """The ``label`` entry of a dataset's sidecar: measure, thresholds and class names."""
    return {"measure": measure, "thresholds": list(thresholds), "names": list(config.LABEL_NAMES)}
