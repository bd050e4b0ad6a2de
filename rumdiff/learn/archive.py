"""Model archives: the skops file that holds a model's forests, and checks of its trees.

(And the pickles of earlier releases, which :func:`load_pickle` opens only for a caller
that trusts them: unpickling runs whatever code the file names.)

skops saves objects as a zip of JSON and arrays and rebuilds them from that description,
never by unpickling, so loading cannot run code. :func:`load_archive` lets it build only
the types skops trusts itself and ``config.MODEL_TRUSTED_TYPES``. One of those,
scikit-learn's ``Tree``, holds node indices that prediction follows without bounds
checks (skops leaves it untrusted for that reason): :func:`check_forest` verifies every
tree's structure before a model is used, so a crafted file cannot make prediction read
outside its arrays or loop for ever.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from rumdiff import config
from rumdiff.learn.sidecar import ModelError

__all__ = ["PickleWarning", "check_forest", "dump_archive", "load_archive", "load_pickle"]

#: What a quoted error from skops may add to a message, at most.
_QUOTE = 200


def dump_archive(content, path) -> None:
    """Write ``content`` to ``path`` as a compressed skops archive."""
    import zipfile

    import skops.io

    skops.io.dump(
        content, path, compression=zipfile.ZIP_DEFLATED, compresslevel=config.MODEL_COMPRESS
    )


def load_archive(path: Path):
    """The content of a skops archive, built from trusted types only.

    Raises
    ------
    zipfile.BadZipFile
        If the file is no zip archive (a pickle, say).
    ModelError
        If it holds a type outside the trusted ones, or cannot be read as skops.
    """
    import zipfile

    import skops.io
    from skops.io.exceptions import UntrustedTypesFoundException

    try:
        return skops.io.load(path, trusted=list(config.MODEL_TRUSTED_TYPES))
    except zipfile.BadZipFile:
        raise
    except UntrustedTypesFoundException as error:  # its message lists them
        raise ModelError(
            f"{path}: refused, it holds types rumdiff does not trust ({str(error)[:_QUOTE]})"
        ) from None
    except Exception as error:  # a damaged archive raises almost anything
        first = (str(error).splitlines() or [""])[0][:_QUOTE]
        raise ModelError(f"{path}: cannot load ({type(error).__name__}: {first})") from None


def check_forest(path: Path, forest, n_features: int, n_classes: int | None) -> None:
    """Refuse a fitted forest whose trees prediction could not walk safely.

    Every tree must read ``n_features`` features and, for a classifier, give
    ``n_classes`` values per node; each split node must point at two later nodes (so
    walking down always ends) and split on a feature that exists.

    Raises
    ------
    ModelError
    """
    for number, estimator in enumerate(getattr(forest, "estimators_", ())):
        problem = _tree_problem(getattr(estimator, "tree_", None), n_features, n_classes)
        if problem is not None:
            raise ModelError(f"{path}: not a valid rumdiff model (tree {number}: {problem})")


def _tree_problem(tree, n_features: int, n_classes: int | None) -> str | None:
    """What is wrong with a tree's structure, or None."""
    if tree is None or not hasattr(tree, "children_left"):
        return "no tree structure"
    count = int(tree.node_count)
    left, right = np.asarray(tree.children_left), np.asarray(tree.children_right)
    feature, value = np.asarray(tree.feature), np.asarray(tree.value)
    if count < 1 or not len(left) == len(right) == len(feature) == len(value) == count:
        return "node arrays of unequal length"
    if int(tree.n_features) != n_features or int(tree.n_outputs) != 1:
        return f"reads {tree.n_features} features, the model {n_features}"
    if n_classes is not None and value.shape[1:] != (1, n_classes):
        return f"values of shape {value.shape[1:]}, expected (1, {n_classes})"
    split = left != -1
    if not np.array_equal(split, right != -1):
        return "a node with one child"
    index = np.arange(count)[split]
    for children in (left[split], right[split]):
        if np.any(children <= index) or np.any(children >= count):
            return "a child index out of order or out of range"
    if np.any(feature[split] < 0) or np.any(feature[split] >= n_features):
        return "a split on a feature that does not exist"
    return None


class PickleWarning(UserWarning):
    """A model file was loaded as a pickle, which can run arbitrary code."""


def load_pickle(path: Path):
    """Unpickle a model file the caller trusts, with a :class:`PickleWarning`.

    Raises
    ------
    ModelError
        If it cannot be unpickled.
    """
    import joblib

    warnings.warn(
        f"{path}: loading a pickle, which can run arbitrary code; convert it to a skops "
        "model file (rumdiff.learn.convert_pickle_model)",
        PickleWarning,
        stacklevel=3,
    )
    try:
        with warnings.catch_warnings():
            # Same minor version (the sidecar says so): patch releases keep the tree format.
            warnings.filterwarnings("ignore", message=".*Trying to unpickle estimator")
            return joblib.load(path)
    except Exception as error:  # a damaged pickle raises almost anything
        first = (str(error).splitlines() or [""])[0][:200]
        raise ModelError(f"{path}: cannot load ({type(error).__name__}: {first})") from None
