"""Rewrites of a finished dataset's labels or features, without solving its puzzles.

Both functions read a dataset written by :func:`rumdiff.data.dataset.build_dataset`, keep its
puzzles and solver columns as they are, and write the result (by default over the
input, atomically) with its sidecar updated to record the change.
"""

from __future__ import annotations

from rumdiff import config
from rumdiff.data.io import (
    DatasetError,
    dataset_format,
    now,
    read_dataset,
    read_sidecar,
    write_dataset,
)
from rumdiff.data.labels import check_thresholds, class_counts, compute_labels
from rumdiff.data.schema import dataset_columns, feature_columns, label_metadata, solvers_of

__all__ = ["refeaturise_dataset", "relabel_dataset"]


def relabel_dataset(
    path, *, label_by: str = config.LABEL_BY, thresholds=None, output=None, command=None
) -> dict:
    """Recompute the labels of a dataset with another scheme or thresholds, without solving.

    Parameters
    ----------
    path : str or Path
        An existing dataset (its sidecar is read if present).
    label_by, thresholds
        The new scheme and thresholds (:func:`rumdiff.data.labels.compute_labels`).
    output : str or Path, optional
        Where to write the relabelled dataset (default: ``path``, replaced atomically).
    command : list of str, optional
        The command line, recorded in the metadata.

    Returns
    -------
    dict
        The new metadata.
    """
    output = path if output is None else output
    dataset_format(output)
    frame = read_dataset(path)
    metadata = read_sidecar(path)
    thresholds = check_thresholds(label_by, thresholds)
    if "score" not in frame.columns:
        raise DatasetError(f"{path}: not a rumdiff dataset (no column 'score')")
    try:
        frame["label"] = compute_labels(frame, label_by, thresholds)
    except ValueError as error:
        raise DatasetError(f"{path}: {error}") from None
    history = metadata.get("relabelled", [])
    history.append(
        {"command": None if command is None else list(command), "at": now(),
         "previous": metadata.get("label")}
    )  # fmt: skip
    metadata.update(
        label=label_metadata(label_by, thresholds),
        class_counts=class_counts(frame["label"]),
        relabelled=history,
    )
    return write_dataset(frame, output, metadata)


def refeaturise_dataset(path, *, feature_set: str | None = None, output=None) -> dict:
    """Recompute a dataset's feature columns from its puzzles, without solving again.

    After a change to :mod:`rumdiff.features` a dataset's stored features no longer
    match what a model computes at prediction time (training refuses such a dataset);
    features cost far less than solving, so they are recomputed here.

    Parameters
    ----------
    path : str or Path
        An existing dataset with its sidecar.
    feature_set : str, optional
        Feature set to store (default: the one the sidecar records, else "all").
    output : str or Path, optional
        Where to write (default: ``path``, replaced atomically).

    Returns
    -------
    dict
        The new metadata.
    """
    from rumdiff.features import compute_features
    from rumdiff.puzzle import decode_games

    output = path if output is None else output
    frame = read_dataset(path)
    metadata = read_sidecar(path)
    if "puzzle" not in frame.columns:
        raise DatasetError(f"{path}: not a rumdiff dataset (no column 'puzzle')")
    k, m, n = (int(frame[name].iloc[0]) for name in ("k", "m", "n"))
    feature_set = feature_set or metadata.get("parameters", {}).get("feature_set") or "all"
    puzzles = decode_games(frame["puzzle"].tolist(), k, n, m=m)
    jokers = not puzzles.plain
    names = feature_columns(feature_set, k, m, jokers)
    features = None
    if names:
        features = compute_features(puzzles, m=m, feature_set=feature_set, jokers=jokers)
    head = [c for c in dataset_columns(m, [], solvers_of(metadata)) if c != "label"]
    columns = {name: frame[name] for name in head}
    for name in names:
        columns[name] = features[name].to_numpy()
    columns["label"] = frame["label"]
    import pandas as pd

    rebuilt = pd.DataFrame(columns)
    metadata["features"] = names
    metadata.setdefault("refeaturised", []).append({"at": now(), "feature_set": feature_set})
    return write_dataset(rebuilt, output, metadata)
