"""Model archives: the skops file that holds a model's forests, and checks of its trees.

(And the pickles of earlier releases, which :func:`load_pickle` opens only for a caller
that trusts them: unpickling runs whatever code the file names.)

skops saves objects as a zip of JSON and arrays and rebuilds them from that description,
never by unpickling, so loading cannot run code. :func:`load_archive` lets it build only
the types skops trusts itself and ``config.MODEL_TRUSTED_TYPES``. One of those,
scikit-learn's ``Tree``, holds node indices that prediction follows without bounds
checks (skops leaves it untrusted for that reason): :func:`check_forest` verifies every
tree's structure before a model is used, so a crafted file cannot make prediction read
outside its arrays or loop for ever, and that each forest has the trees, classes and
features that prediction assumes.

Nor can a file make loading take more memory than ``config.MODEL_MAX_UNPACKED_BYTES``:
before skops reads a member, :func:`check_archive` sums the sizes the zip's headers
declare and unpacks each member once, a block at a time, to see that it holds no more
than its header says (zipfile unpacks a member whole when skops reads it, and only
then cuts it to that size).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from rumdiff import config
from rumdiff.learn.sidecar import ModelError

__all__ = [
    "PickleWarning",
    "check_archive",
    "check_forest",
    "dump_archive",
    "file_kind",
    "load_archive",
    "load_pickle",
    "whole_number",
]

#: What a quoted error from skops may add to a message, at most.
_QUOTE = 200
#: A zip archive's first bytes (a member, or none), and its end record's signature.
_ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")
_END = b"PK\x05\x06"
#: The record that points zipfile at a ZIP64 end record (archives over 4 GB or 65,535
#: members, which no model is), and the sizes of the two records.
_ZIP64_LOCATOR = b"PK\x06\x07"
_END_BYTES, _LOCATOR_BYTES = 22, 20
#: Longest comment after the end record, and bytes unpacked at a time when checking.
_COMMENT_BYTES, _BLOCK = 0xFFFF, 1 << 20


def dump_archive(content, path) -> None:
    """Write ``content`` to ``path`` as a compressed skops archive."""
    import zipfile

    import skops.io

    skops.io.dump(
        content, path, compression=zipfile.ZIP_DEFLATED, compresslevel=config.MODEL_COMPRESS
    )


def file_kind(path: Path) -> str:
    """What a model file's first bytes say it is: ``"skops"`` (a zip archive),
    ``"pickle"`` (a pickle, or the zlib-compressed one earlier releases saved),
    ``"empty"``, or ``"other"``."""
    with open(path, "rb") as stream:
        head = stream.read(4)
    if not head:
        return "empty"
    if head in _ZIP_STARTS:
        return "skops"
    zlib = len(head) > 1 and head[0] == 0x78 and int.from_bytes(head[:2], "big") % 31 == 0
    return "pickle" if head[:1] == b"\x80" or zlib else "other"


def _damaged(path: Path, problem: str) -> ModelError:
    return ModelError(f"{path}: a damaged skops model file ({problem}); save or fetch it again")


def _directory_bytes(path: Path) -> int:
    """The size of a zip's central directory, from its end record, found as zipfile
    finds it (right at the end, else the last one in the comment's reach).

    Raises
    ------
    ModelError
        If there is no end record, or a ZIP64 one, which no model file needs.
    """
    import struct

    size = path.stat().st_size
    reach = min(size, _END_BYTES + _COMMENT_BYTES + _LOCATOR_BYTES)
    with open(path, "rb") as stream:
        stream.seek(size - reach)
        tail = stream.read(reach)
    at = len(tail) - _END_BYTES
    if at < 0 or tail[at : at + 4] != _END or tail[-2:] != b"\0\0":
        at = tail.rfind(_END, max(0, len(tail) - _END_BYTES - _COMMENT_BYTES))
    if at < 0 or len(tail) - at < _END_BYTES:
        raise _damaged(path, "no end of its list of members")
    if tail[max(0, at - _LOCATOR_BYTES) : at].startswith(_ZIP64_LOCATOR):
        raise ModelError(f"{path}: refused, a ZIP64 archive, larger than any model file")
    return struct.unpack("<L", tail[at + 12 : at + 16])[0]


def over_cap(unpacked: int) -> str:
    """Why a model that unpacks to ``unpacked`` bytes is refused, in words."""
    cap = config.MODEL_MAX_UNPACKED_BYTES
    return f"it would unpack to {unpacked:,} bytes, over the {cap:,} a model file may hold"


def unpacked_bytes(path: Path) -> int:
    """What a zip archive's members unpack to, as its list of members declares."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        return sum(info.file_size for info in archive.infolist())


def check_archive(path: Path) -> None:
    """Refuse a skops archive that would unpack to more than
    ``config.MODEL_MAX_UNPACKED_BYTES``, before skops unpacks anything.

    The list of members (which zipfile reads whole) must be at most
    ``config.MODEL_MAX_DIRECTORY_BYTES``; the sizes it declares must sum to at most the
    cap; and each member, unpacked a block at a time, must hold exactly its declared size,
    so that skops, which unpacks a member whole, cannot meet more.

    Raises
    ------
    ModelError
    """
    import copy
    import zipfile

    directory = _directory_bytes(path)
    if directory > config.MODEL_MAX_DIRECTORY_BYTES:
        raise ModelError(
            f"{path}: refused, its list of members takes {directory:,} bytes, over the "
            f"{config.MODEL_MAX_DIRECTORY_BYTES:,} a model file may have"
        )
    try:
        total = unpacked_bytes(path)
        if total > config.MODEL_MAX_UNPACKED_BYTES:
            raise ModelError(f"{path}: refused, {over_cap(total)}")
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise _damaged(path, f"member {info.filename!r} compressed otherwise")
                probe = copy.copy(info)
                probe.file_size += 1  # one byte more than declared shows a lie
                with archive.open(probe) as member:
                    unpacked = sum(iter(lambda: len(member.read(_BLOCK)), 0))
                if unpacked != info.file_size:
                    raise _damaged(path, f"member {info.filename!r} is not the size it declares")
    except ModelError:
        raise
    except Exception as error:  # a damaged archive raises almost anything
        first = (str(error).splitlines() or [""])[0][:_QUOTE]
        raise _damaged(path, f"{type(error).__name__}: {first}") from None


def load_archive(path: Path):
    """The content of a skops archive, built from trusted types only, after
    :func:`check_archive`.

    Raises
    ------
    ModelError
        If it is damaged or too large, holds a type outside the trusted ones, or cannot
        be read as skops.
    """
    check_archive(path)
    # Imported after the check: skops imports every scikit-learn estimator (seconds), and
    # a file the check refuses needs none of them.
    import skops.io
    from skops.io.exceptions import UntrustedTypesFoundException

    try:
        return skops.io.load(path, trusted=list(config.MODEL_TRUSTED_TYPES))
    except UntrustedTypesFoundException as error:  # its message lists them
        raise ModelError(
            f"{path}: refused, it holds types rumdiff does not trust ({str(error)[:_QUOTE]})"
        ) from None
    except Exception as error:  # a damaged archive raises almost anything
        first = (str(error).splitlines() or [""])[0][:_QUOTE]
        raise ModelError(f"{path}: cannot load ({type(error).__name__}: {first})") from None


def check_forest(path: Path, forest, n_features: int, classes=None) -> None:
    """Refuse a fitted forest that prediction could not use safely.

    The forest must hold at least one tree, as many as it says, each a decision tree of
    its kind, and read ``n_features`` features with one output. A classifier's
    ``classes_`` must be some of ``classes`` (the sidecar's), in order, and every tree
    give as many values per node. Each split node must point at two later nodes (so
    walking down always ends) and split on a feature that exists.

    Parameters
    ----------
    path : Path
        The model file, for messages.
    forest : RandomForestClassifier or RandomForestRegressor
    n_features : int
    classes : list of int, optional
        The classes a classifier may have; None for a regressor.

    Raises
    ------
    ModelError
    """
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    def refuse(problem: str):
        raise ModelError(f"{path}: not a valid rumdiff model ({problem})")

    trees = getattr(forest, "estimators_", None)
    if not isinstance(trees, list) or not trees:
        refuse("a forest without trees")
    if not _count(getattr(forest, "n_estimators", None), len(trees)):
        refuse(f"a forest of {len(trees)} trees that says it has {_shown(forest.n_estimators)}")
    jobs = getattr(forest, "n_jobs", None)
    if jobs is not None and not (whole_number(jobs) and abs(int(jobs)) <= config.MAX_JOBS):
        refuse(f"a forest that asks for {_shown(jobs)} threads")
    for name, want in (("n_features_in_", n_features), ("n_outputs_", 1)):
        if not _count(getattr(forest, name, None), want):
            refuse(f"a forest whose {name} is {_shown(getattr(forest, name, None))}, not {want}")
    n_classes = None
    if classes is not None:
        own = np.asarray(getattr(forest, "classes_", None))
        if (
            own.ndim != 1
            or own.size == 0
            or own.dtype.kind not in "iu"
            or not set(own.tolist()) <= set(classes)
            or np.any(np.diff(own) <= 0)
            or not _count(getattr(forest, "n_classes_", None), len(own))
        ):
            refuse(f"classes {_shown(own)}, not some of the sidecar's {classes} in order")
        n_classes = len(own)
    kind = DecisionTreeRegressor if classes is None else DecisionTreeClassifier
    for number, tree in enumerate(trees):
        problem = _estimator_problem(tree, kind, n_features, n_classes)
        if problem is None:
            problem = _tree_problem(getattr(tree, "tree_", None), n_features, n_classes)
        if problem is not None:
            refuse(f"tree {number}: {problem}")


def whole_number(value) -> bool:
    """Whether ``value`` is a whole number (numpy's too), never a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _count(value, want: int) -> bool:
    """Whether ``value`` is the whole number ``want``."""
    return whole_number(value) and int(value) == want


def _shown(value) -> str:
    """A crafted value in a message, cut short."""
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)[:_QUOTE]


def _estimator_problem(tree, kind, n_features: int, n_classes: int | None) -> str | None:
    """What is wrong with a forest's tree as an estimator, or None."""
    if type(tree) is not kind:
        return f"a {type(tree).__name__}, not a {kind.__name__}"
    wanted = {"n_features_in_": n_features, "n_outputs_": 1}
    if n_classes is not None:
        wanted["n_classes_"] = n_classes
    for name, want in wanted.items():
        if not _count(getattr(tree, name, None), want):
            return f"its {name} is {_shown(getattr(tree, name, None))}, not {want}"
    return None


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
