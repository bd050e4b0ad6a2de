"""Models saved as pickles by earlier releases: loaded only when trusted, and converted.

Before model format 3, rumdiff saved models with joblib, a pickle: loading one runs
whatever code the file names. :func:`load_pickle` opens such a file only because the
caller said it trusts it (``load_model(..., trust_pickle=True)``, ``rumdiff predict
--trust-pickle``), and warns with :class:`PickleWarning` each time.
:func:`convert_pickle_model` turns a trusted pickle into a skops model file, with the
same forests and so the same predictions, and its sidecar.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from rumdiff.learn.sidecar import ModelError, file_sha256

__all__ = ["PickleWarning", "convert_pickle_model", "load_pickle"]


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


def convert_pickle_model(source, target):
    """Save the trusted pickle model ``source`` as a skops model file ``target``.

    The forests are the same objects, so predictions do not change; the sidecar keeps
    every field of the old one (training data, metrics, versions) and records the file
    it came from. Warns with :class:`PickleWarning` (``source`` is unpickled).

    Returns
    -------
    rumdiff.learn.model.Model
        The model as saved.
    """
    from rumdiff.learn.model import Model, load_model, save_model

    old = load_model(source, trust_pickle=True)
    metadata = {
        **old.metadata,
        "converted_from": {"file": Path(source).name, "sha256": file_sha256(source)},
    }
    model = Model(pipeline=old.pipeline, regressor=old.regressor, metadata=metadata)
    return save_model(model, target)
