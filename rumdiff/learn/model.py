"""Saved difficulty models: a joblib file plus a JSON sidecar, checked when loaded.

A model is a fitted scikit-learn :class:`~sklearn.pipeline.Pipeline` that goes from raw
puzzles (an int8 array ``(puzzles, n, k)``) to class probabilities: step ``"features"``
is :class:`rumdiff.features.PuzzleFeatures`, step ``"forest"`` the random forest that
rumdiff.learn.training fitted on the same features. It is saved as ``PATH`` (joblib, compressed)
with a sidecar ``PATH.json`` that records what it needs and what it achieved: the
feature set and names, the label scheme and its thresholds, k/m/n, the training data's
file and SHA-256, the scikit-learn and rumdiff versions, the parameters and the
cross-validated metrics, and the SHA-256 of the model file itself.

.. warning::
   Model files are pickles: loading one can run arbitrary code. Load only model files
   from sources you trust. :func:`load_model` reads the sidecar and compares the file's
   SHA-256 with it *before* unpickling, which refuses stray and damaged files, but is no
   defence against a crafted pair of files.

:func:`load_model` refuses, with a one-line :class:`ModelError`: a missing file or
sidecar, a sidecar that is not a rumdiff model's, another model format
(``config.MODEL_FORMAT``), a model saved by another rumdiff or scikit-learn minor
version, a file that does not match its sidecar, a pickle that is not a rumdiff
pipeline, and features that rumdiff.features no longer computes under the same names.
:meth:`Model.check_puzzles` refuses puzzles of other k, m or n than the model's.
"""

from __future__ import annotations

import json
import os
import platform
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rumdiff import __version__, config

__all__ = [
    "Model",
    "ModelError",
    "build_model",
    "save_model",
    "load_model",
    "sidecar_path",
    "file_sha256",
    "features_fingerprint",
]

#: Marker in every sidecar: what kind of file this is.
MARKER = "rumdiff-model"


class ModelError(ValueError):
    """A model file that cannot or must not be used, or puzzles it cannot judge."""


def file_sha256(path) -> str:
    """SHA-256 (hex) of a file's bytes."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sidecar_path(path) -> Path:
    """The JSON sidecar of a model file: ``PATH.json``."""
    path = Path(path)
    return path.with_name(path.name + ".json")


def _minor(version: str) -> tuple:
    return tuple(version.split(".")[:2])


@dataclass(frozen=True, eq=False)
class Model:
    """A fitted difficulty model and its metadata (the sidecar's content).

    Attributes
    ----------
    pipeline : Pipeline
        Steps ``"features"`` (PuzzleFeatures) and ``"forest"``.
    metadata : dict
    path : str
        Where it was loaded from or saved to, or ``""``.
    """

    pipeline: object
    metadata: dict
    path: str = ""

    @property
    def k(self) -> int:
        return int(self.metadata["k"])

    @property
    def m(self) -> int:
        return int(self.metadata["m"])

    @property
    def n(self) -> int:
        return int(self.metadata["n"])

    @property
    def classes(self) -> list:
        """Every difficulty class, in the order of :meth:`predict_proba`'s columns."""
        return [int(c) for c in self.metadata["classes"]]

    @property
    def class_names(self) -> list:
        """Names of :attr:`classes`: easy, moderate, medium, hard."""
        return list(self.metadata["class_names"])

    def check_puzzles(self, puzzles) -> None:
        """Refuse puzzles (a :class:`~rumdiff.puzzle.Puzzles`) of other k, m or n.

        Raises
        ------
        ModelError
        """
        have = (puzzles.k, puzzles.m, puzzles.n)
        if have != (self.k, self.m, self.n):
            where = f"{puzzles.source}: " if getattr(puzzles, "source", "") else ""
            raise ModelError(
                f"{where}puzzles are G(k={have[0]}, m={have[1]}, n={have[2]}) but the model"
                f"{' ' + self.path if self.path else ''} was trained on "
                f"G(k={self.k}, m={self.m}, n={self.n})"
            )

    def predict_proba(self, puzzles) -> np.ndarray:
        """Class probabilities ``(puzzles, len(classes))`` of checked :class:`Puzzles`.

        A class the training data lacked gets probability 0.
        """
        self.check_puzzles(puzzles)
        out = np.zeros((len(puzzles), len(self.classes)))
        if len(puzzles) == 0:
            return out
        forest = self.pipeline.named_steps["forest"]
        columns = [self.classes.index(int(c)) for c in forest.classes_]
        out[:, columns] = self.pipeline.predict_proba(puzzles.copies)
        return out


def build_model(result) -> Model:
    """The savable model of a :class:`rumdiff.learn.training.TrainResult`.

    Puts :class:`rumdiff.features.PuzzleFeatures` in front of the final forest and
    checks that it yields the forest's features, in order.
    """
    import sklearn
    from sklearn.pipeline import Pipeline

    from rumdiff.atomic import jsonable
    from rumdiff.data.labels import class_counts
    from rumdiff.data.schema import beam_width_of
    from rumdiff.features import PuzzleFeatures

    data = result.data
    features = PuzzleFeatures(feature_set=data.feature_set, m=data.m).fit(data.puzzles)
    names = [str(name) for name in features.get_feature_names_out()]
    if names != list(data.feature_names):
        raise ValueError(
            f"PuzzleFeatures yields {names}, the forest was fit on {data.feature_names}"
        )
    pipeline = Pipeline([("features", features), ("forest", result.pipeline.named_steps["forest"])])
    metrics = result.metrics
    folds = result.fold_scores
    metadata = {
        "format": MARKER,
        "format_version": config.MODEL_FORMAT,
        "rumdiff_version": __version__,
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "k": data.k,
        "m": data.m,
        "n": data.n,
        "feature_set": data.feature_set,
        "feature_names": list(data.feature_names),
        "features_sha256": features_fingerprint(data.feature_set, k=data.k, m=data.m, n=data.n),
        "label_by": data.label_by,
        "thresholds": data.thresholds,
        "beam_width": beam_width_of(data.metadata),
        "classes": list(config.CLASS_NAMES),
        "class_names": list(config.LABEL_NAMES),
        "grid": result.grid,
        "params": result.best_params,
        "search_rows": result.search_rows,
        "seed": result.seed,
        "training_data": {
            "file": data.source,
            "sha256": data.sha256,
            "rows": len(data),
            "label_counts": class_counts(data.y),
        },
        "cv": {
            "folds": result.folds,
            "accuracy": metrics["accuracy"],
            "accuracy_std": folds["accuracy"].std(ddof=1),
            "macro_f1": metrics["macro avg"]["f1-score"],
            "macro_f1_std": folds["macro_f1"].std(ddof=1),
            "weighted_f1": metrics["weighted avg"]["f1-score"],
            "per_class_f1": {
                name: metrics[name]["f1-score"] for name in config.LABEL_NAMES if name in metrics
            },
        },
    }
    return Model(pipeline=pipeline, metadata=jsonable(metadata))


def save_model(model: Model, path) -> Model:
    """Write ``model`` to ``path`` (joblib, compressed) and its sidecar, atomically.

    Returns the model with ``path`` set and the file's SHA-256 and size in its metadata.
    """
    import joblib

    from rumdiff.atomic import atomic_write, atomic_write_json

    path = Path(path)
    metadata = dict(model.metadata)

    def dump(temporary: str) -> None:
        joblib.dump(model.pipeline, temporary, compress=config.MODEL_COMPRESS)
        metadata["model_sha256"] = file_sha256(temporary)
        metadata["model_bytes"] = os.path.getsize(temporary)
        atomic_write_json(sidecar_path(path), metadata)

    atomic_write(path, dump)
    return Model(pipeline=model.pipeline, metadata=metadata, path=str(path))


def _read_sidecar(path: Path) -> dict:
    side = sidecar_path(path)
    if not side.is_file():
        raise ModelError(f"{path}: not a rumdiff model (no sidecar {side.name} beside it)")
    try:
        metadata = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelError(f"{side}: not a rumdiff model sidecar ({error})") from None
    if not isinstance(metadata, dict) or metadata.get("format") != MARKER:
        raise ModelError(f'{side}: not a rumdiff model sidecar (no "format": "{MARKER}")')
    return metadata


def _check_versions(path: Path, metadata: dict) -> None:
    import sklearn

    if metadata.get("format_version") != config.MODEL_FORMAT:
        raise ModelError(
            f"{path}: model format {metadata.get('format_version')!r}, but this rumdiff reads "
            f"format {config.MODEL_FORMAT}; train the model again"
        )
    for what, saved, have in (
        ("rumdiff", metadata.get("rumdiff_version"), __version__),
        ("scikit-learn", metadata.get("sklearn_version"), sklearn.__version__),
    ):
        if not isinstance(saved, str) or _minor(saved) != _minor(have):
            raise ModelError(
                f"{path}: saved with {what} {saved}, incompatible with the installed {have}; "
                "train the model again or install that version"
            )


def features_fingerprint(feature_set: str, *, k: int, m: int, n: int) -> str:
    """SHA-256 of the features rumdiff.features computes now for fixed random puzzles.

    Saved in the sidecar and compared when loading, so that a model is refused when
    the features it was trained on are computed differently now, even under the same
    names. The puzzles come from ``Generator.random``, whose stream numpy keeps stable.
    """
    import hashlib

    from rumdiff.features import compute_features

    rng = np.random.Generator(np.random.PCG64(config.SEED))
    copies = (rng.random((config.FINGERPRINT_PUZZLES, n, k)) * (m + 1)).astype(np.int8)
    values = compute_features(copies, m=m, feature_set=feature_set).to_numpy(np.float64)
    return hashlib.sha256(np.round(values, 6).tobytes()).hexdigest()


def _check_pipeline(path: Path, pipeline, metadata: dict) -> None:
    from sklearn.pipeline import Pipeline

    from rumdiff.features import feature_names

    if not isinstance(pipeline, Pipeline) or list(pipeline.named_steps) != ["features", "forest"]:
        raise ModelError(f"{path}: not a rumdiff model (no features -> forest pipeline inside)")
    names = [str(name) for name in pipeline.named_steps["features"].get_feature_names_out()]
    now = list(feature_names(metadata["feature_set"], k=metadata["k"], m=metadata["m"]))
    shape = {key: metadata[key] for key in ("k", "m", "n")}
    if (
        names != metadata["feature_names"]
        or now != names
        or features_fingerprint(metadata["feature_set"], **shape) != metadata.get("features_sha256")
    ):
        raise ModelError(
            f"{path}: its features differ from those rumdiff.features computes now; "
            "train the model again"
        )


def load_model(path) -> Model:
    """Load a model saved by :func:`save_model`, after checking it (see the module docstring).

    Only load model files from trusted sources: they are pickles.

    Raises
    ------
    ModelError
        With a one-line reason, when the file is missing or must not be used.
    """
    import joblib

    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: model file not found")
    metadata = _read_sidecar(path)
    _check_versions(path, metadata)
    for key in ("k", "m", "n", "feature_set", "feature_names", "classes", "class_names"):
        if key not in metadata:
            raise ModelError(f"{sidecar_path(path)}: sidecar lacks {key!r}")
    if file_sha256(path) != metadata.get("model_sha256"):
        raise ModelError(f"{path}: file does not match its sidecar (SHA-256 differs)")
    try:
        with warnings.catch_warnings():
            # Same minor version (checked above): patch releases keep the tree format.
            warnings.filterwarnings("ignore", message=".*Trying to unpickle estimator")
            pipeline = joblib.load(path)
    except Exception as error:  # a damaged pickle raises almost anything
        raise ModelError(f"{path}: cannot load ({type(error).__name__}: {error})") from None
    _check_pipeline(path, pipeline, metadata)
    return Model(pipeline=pipeline, metadata=metadata, path=str(path))
