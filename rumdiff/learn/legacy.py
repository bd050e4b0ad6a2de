"""Models saved as pickles by earlier releases, converted to skops model files.

Before model format 3, rumdiff saved models with joblib, a pickle: loading one runs
whatever code the file names, so it loads only when the caller trusts it
(:func:`rumdiff.learn.archive.load_pickle`). :func:`convert_pickle_model` turns a trusted
pickle into a skops model file, with the same forests and so the same predictions, and
its sidecar.
"""

from __future__ import annotations

from pathlib import Path

from rumdiff.learn.sidecar import file_sha256

__all__ = ["convert_pickle_model"]


def convert_pickle_model(source, target):
    """Save the trusted pickle model ``source`` as a skops model file ``target``.

    The forests are the same objects, so predictions do not change; the sidecar keeps
    every field of the old one (training data, metrics, versions) and records the file
    it came from. Warns with :class:`~rumdiff.learn.archive.PickleWarning` (``source``
    is unpickled).

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
