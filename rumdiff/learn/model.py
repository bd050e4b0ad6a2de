"""Saved difficulty models: a skops file plus a JSON sidecar, checked when loaded.

A model goes from raw puzzles (an int8 array ``(puzzles, n, k)``) to two predictions: a
fitted scikit-learn :class:`~sklearn.pipeline.Pipeline` whose step ``"features"`` is
:class:`rumdiff.features.PuzzleFeatures` and step ``"forest"`` the random forest
classifier, and a second pipeline whose ``"forest"`` is the regressor of log10 effort on
the same features (rumdiff.learn.regression). The file ``PATH`` (a skops archive,
compressed) holds both; the sidecar ``PATH.json`` records what they need and what they achieved:
the feature set and names, the label measure and its thresholds, k/m/n, the training
data's file and SHA-256, the versions, the parameters and the cross-validated metrics,
and the SHA-256 of the model file itself.

Model files cannot run code when loaded: skops rebuilds the objects from a description
of their types and arrays, never by unpickling, and :func:`load_model` lets it build
only the types skops trusts itself and ``config.MODEL_TRUSTED_TYPES``. We chose skops
over a format of our own because it is made for scikit-learn's estimators (trees
included) and keeps up with their internals. Which loader runs depends on the caller,
never on the files: a pickle (the layout of earlier releases) is opened only with
``trust_pickle=True`` (:func:`rumdiff.learn.archive.load_pickle`), whatever its sidecar claims, and
with a :class:`~rumdiff.learn.archive.PickleWarning`.

:func:`load_model` refuses, with a one-line :class:`ModelError`, everything
:func:`rumdiff.learn.sidecar.read_model_sidecar` refuses, a file that does not match its
sidecar, a file skops cannot read or that holds an untrusted type, content that is
not a rumdiff model, and features that rumdiff.features no
longer computes under the same names. :meth:`Model.check_puzzles` refuses puzzles of
other k, m or n than the model's.
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rumdiff import __version__, config
from rumdiff.data.labels import never_easy
from rumdiff.learn.sidecar import (
    PICKLE_HINT,
    ModelError,
    covers,
    family_text,
    features_fingerprint,
    file_sha256,
    read_model_sidecar,
    sidecar_path,
)

__all__ = ["Model", "ModelError", "build_model", "load_model", "save_model"]


@dataclass(frozen=True, eq=False)
class Model:
    """A fitted difficulty model and its metadata (the sidecar's content).

    Attributes
    ----------
    pipeline : Pipeline
        Steps ``"features"`` (PuzzleFeatures) and ``"forest"`` (the classifier).
    regressor : Pipeline
        Step ``"forest"``, the regressor of log10 effort, on the same features.
    metadata : dict
    path : str
        Where it was loaded from or saved to, or ``""``.
    """

    pipeline: object
    regressor: object
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
    def jokers(self) -> bool:
        """Whether the model was trained on puzzles with jokers or a table."""
        return bool(self.metadata.get("jokers", False))

    @property
    def scope(self) -> dict | None:
        """The families the model covers (a model trained across families), or None for
        a model of one family, :attr:`k`, :attr:`m`, :attr:`n`."""
        return self.metadata.get("scope")

    @property
    def family_text(self) -> str:
        """The puzzles the model knows, in words."""
        return family_text(self.metadata)

    def covers(self, game, jokers: int = 0, table: bool = False) -> bool:
        """Whether puzzles of ``game`` (a :class:`~rumdiff.puzzle.Game`) with up to
        ``jokers`` jokers, and a table if ``table``, lie in the model's scope (for a model
        of one family: are of its family)."""
        return covers(self.metadata, game, jokers, table)

    @property
    def classes(self) -> list:
        """Every difficulty class, in the order of :meth:`predict_proba`'s columns."""
        return [int(c) for c in self.metadata["classes"]]

    @property
    def class_names(self) -> list:
        """Names of :attr:`classes`: easy, moderate, medium, hard."""
        return list(self.metadata["class_names"])

    @property
    def label_by(self) -> str:
        """The label measure the model learned: search, solver or time."""
        return str(self.metadata["label_by"])

    def check_puzzles(self, puzzles) -> None:
        """Refuse puzzles (a :class:`~rumdiff.puzzle.Puzzles`) outside the model's scope:
        of other k, m or n, or with more jokers, or a table, than it was trained on, or
        opening moves (a game with a meld).

        Raises
        ------
        ModelError
        """
        have = (puzzles.k, puzzles.m, puzzles.n)
        jokers = 0 if puzzles.jokers is None else int(np.max(puzzles.jokers, initial=0))
        table = bool(puzzles.tabled.any())
        where = f"{puzzles.source}: " if getattr(puzzles, "source", "") else ""
        model = f"the model{' ' + self.path if self.path else ''}"
        refuse_meld(puzzles.game, where, model)
        if self.covers(puzzles.game, jokers, table):
            return
        family = "G({}, {}, {})".format(*have)
        many = (f" with up to {jokers} jokers" if jokers else "") + (
            " with a table" if table else ""
        )
        if self.scope is not None:
            raise ModelError(f"{where}puzzles are {family}{many}, outside the scope of {model}: "
                             f"{self.family_text}")  # fmt: skip
        if have != (self.k, self.m, self.n):
            raise ModelError(f"{where}puzzles are {family} but {model} was trained on "
                             f"G({self.k}, {self.m}, {self.n})")  # fmt: skip
        if not self.jokers:
            raise ModelError(
                f"{where}puzzles have jokers or a table, but {model} was trained without them; "
                "use a model trained on such puzzles (rumdiff generate --jokers J or --mode turn)"
            )
        seen = self.metadata["most_jokers"], self.metadata["table"]
        raise ModelError(
            f"{where}puzzles are {family}{many}, but {model} was trained on at most {seen[0]} "
            f"jokers{' with a table' if seen[1] else ' and no table'}; use a model trained on "
            "such puzzles (rumdiff generate --jokers J or --mode turn)"
        )

    def features(self, puzzles) -> np.ndarray:
        """The feature matrix of checked :class:`Puzzles`, as both forests take it."""
        self.check_puzzles(puzzles)
        if len(puzzles) == 0:
            return np.zeros((0, len(self.metadata["feature_names"])))
        return self.pipeline[:-1].transform(puzzles if self.jokers else puzzles.copies)

    def predict_proba(self, puzzles, X=None) -> np.ndarray:
        """Class probabilities ``(puzzles, len(classes))``; a class the training data
        lacked gets 0. ``X``: the puzzles' :meth:`features`, when already computed."""
        X = self.features(puzzles) if X is None else X
        out = np.zeros((len(X), len(self.classes)))
        if len(X) == 0:
            return out
        forest = self.pipeline.named_steps["forest"]
        columns = [self.classes.index(int(c)) for c in forest.classes_]
        out[:, columns] = forest.predict_proba(X)
        # A forest that saw few tiny tables may call one easy, which no table can be.
        never = never_easy(self.label_by, puzzles)
        if never.any() and 1 in self.classes and len(self.classes) > 1:
            out[never, self.classes.index(1)] = 0.0
            total = out[never].sum(axis=1, keepdims=True)
            out[never] = np.where(total > 0, out[never] / np.maximum(total, 1e-300), 0.0)
            # All it gave was easy: the lowest class above it.
            above = min(self.classes.index(c) for c in self.classes if c != 1)
            out[never & (out.sum(axis=1) == 0), above] = 1.0
        return out

    def predict_effort(self, puzzles, X=None) -> np.ndarray:
        """Predicted effort ``(puzzles, 3)``: the forest's prediction and the spread of its
        trees (``config.PREDICT_SPREAD`` quantiles), in the label measure's units."""
        from rumdiff.learn.regression import tree_quantiles

        X = self.features(puzzles) if X is None else X
        if len(X) == 0:
            return np.zeros((0, 3))
        z = np.column_stack([self.regressor.predict(X), tree_quantiles(self.regressor, X)])
        effort = np.maximum(10.0**z - config.EFFORT_FLOOR[self.label_by], 0.0)
        never = never_easy(self.label_by, puzzles)  # at least one transition
        effort[never] = np.maximum(effort[never], 1.0)
        return effort


def build_model(result) -> Model:
    """The savable model of a :class:`rumdiff.learn.training.TrainResult`.

    Puts :class:`rumdiff.features.PuzzleFeatures` in front of the final classifier and
    checks that it yields the forests' features, in order.
    """
    from sklearn.pipeline import Pipeline

    from rumdiff.atomic import jsonable
    from rumdiff.features import PuzzleFeatures

    data = result.data
    features = PuzzleFeatures(feature_set=data.feature_set, m=data.m, jokers=data.jokers)
    features.fit(data.puzzles)
    names = [str(name) for name in features.get_feature_names_out()]
    if names != list(data.feature_names):
        raise ValueError(
            f"PuzzleFeatures yields {names}, the forest was fit on {data.feature_names}"
        )
    pipeline = Pipeline([("features", features), ("forest", result.pipeline.named_steps["forest"])])
    metadata = jsonable(_metadata(result))
    return Model(pipeline=pipeline, regressor=result.regression.pipeline, metadata=metadata)


def _metadata(result) -> dict:
    from importlib.metadata import version  # as the sidecar's check reads it

    from rumdiff.data.io import git_commit
    from rumdiff.data.labels import class_counts
    from rumdiff.data.schema import beam_width_of
    from rumdiff.puzzle import Game

    data, metrics, folds = result.data, result.metrics, result.fold_scores
    regression = result.regression_metrics
    return {
        "format": "rumdiff-model",
        "format_version": config.MODEL_FORMAT,
        "rumdiff_version": __version__,
        "sklearn_version": version("scikit-learn"),
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        **git_commit(),
        "k": data.k,
        "m": data.m,
        "n": data.n,
        "feature_set": data.feature_set,
        "feature_names": list(data.feature_names),
        "jokers": data.jokers,
        **({"scope": data.scope} if data.scope is not None else _reach(data)),
        "features_sha256": features_fingerprint(
            data.feature_set, Game(data.k, data.m, data.n), jokers=data.jokers
        ),
        "label_by": data.label_by,
        "effort": config.LABEL_EFFORT[data.label_by],
        "thresholds": data.thresholds,
        **({"beam_width": beam_width_of(data.metadata)} if data.label_by != "search" else {}),
        "classes": list(config.CLASS_NAMES),
        "class_names": list(config.LABEL_NAMES),
        "grid": result.grid,
        "params": result.best_params,
        "regressor_params": result.regression.params,
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
            "effort": regression,
        },
    }


def _reach(data) -> dict:
    """For a model of one family with jokers: the most jokers its puzzles have and whether
    they have a table, as its dataset's parameters say (nothing when they do not)."""
    parameters = data.metadata.get("parameters") or {}
    if not data.jokers or "jokers" not in parameters:
        return {}
    return {
        "most_jokers": int(parameters["jokers"] or 0),
        "table": parameters.get("mode") == "turn",
    }


def save_model(model: Model, path) -> Model:
    """Write ``model`` to ``path`` (a compressed skops archive) and its sidecar, atomically
    and together: if either cannot be written, the old pair stays whole.

    Returns the model with ``path`` set and the file's SHA-256 and size in its metadata.

    Raises
    ------
    ModelError
        If the model would unpack to more than ``config.MODEL_MAX_UNPACKED_BYTES``, which
        :func:`load_model` refuses (forests of unbounded trees on many rows can).
    """
    from rumdiff.atomic import atomic_files, write_json
    from rumdiff.learn.archive import dump_archive, over_cap, unpacked_bytes

    path = Path(path)
    metadata = {**model.metadata, "format_version": config.MODEL_FORMAT}
    content = {"classifier": model.pipeline, "regressor": model.regressor}
    with atomic_files([path, sidecar_path(path)]) as (temporary, side):
        dump_archive(content, temporary)
        unpacked = unpacked_bytes(temporary)
        if unpacked > config.MODEL_MAX_UNPACKED_BYTES:  # load_model would refuse it
            raise ModelError(f"not saved: {over_cap(unpacked)}; bound its trees (max_leaf_nodes)")
        metadata["model_sha256"] = file_sha256(temporary)
        metadata["model_bytes"] = os.path.getsize(temporary)
        write_json(side, metadata)
    return Model(pipeline=model.pipeline, regressor=model.regressor, metadata=metadata,
                 path=str(path))  # fmt: skip


def load_model(path, *, trust_pickle: bool = False) -> Model:
    """Load a model saved by :func:`save_model`, after checking it (see the module docstring).

    Parameters
    ----------
    path : str or Path
    trust_pickle : bool
        Also load a pickle saved by an earlier release, which can run arbitrary code:
        only for a file from a source you trust. Warns
        (:class:`~rumdiff.learn.archive.PickleWarning`) when it does.

    Raises
    ------
    ModelError
        With a one-line reason, when the file is missing or must not be used.
    """
    from rumdiff.learn.archive import file_kind, load_archive, load_pickle
    from rumdiff.learn.content import check_content

    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: model file not found")
    size, cap = path.stat().st_size, config.MODEL_MAX_UNPACKED_BYTES
    if size > cap:
        raise ModelError(f"{path}: refused, {size:,} bytes, over the {cap:,} a model may hold")
    metadata = read_model_sidecar(path, trust_pickle=trust_pickle)
    if file_sha256(path) != metadata["model_sha256"]:
        raise ModelError(f"{path}: file does not match its sidecar (SHA-256 differs)")
    kind = file_kind(path)
    if kind == "skops":
        content = load_archive(path)
    elif trust_pickle:
        content = load_pickle(path)
    elif kind == "pickle":
        raise ModelError(f"{path}: a pickle, which can run code when loaded: {PICKLE_HINT}")
    else:  # empty, or neither: damaged, never a pickle to trust
        raise ModelError(f"{path}: not a model file (neither a skops archive nor a pickle)")
    check_content(path, content, metadata)
    return Model(pipeline=content["classifier"], regressor=content["regressor"],
                 metadata=metadata, path=str(path))  # fmt: skip


def refuse_meld(game, where: str = "", model: str = "the model") -> None:
    """Refuse a game with an opening meld, which no model is trained on.

    Called before a model is loaded too, so that an opening move is refused for what it
    is whatever the model file holds.

    Raises
    ------
    ModelError
    """
    if game.meld is not None:
        raise ModelError(
            f"{where}puzzles are opening moves ({game}), outside the scope of "
            f"{model}: no model is trained on the opening meld"
        )
