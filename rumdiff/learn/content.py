"""What a model file holds, checked against its sidecar before it is used.

Loading (rumdiff.learn.model.load_model) builds the content of a model file from trusted
types only, but any trusted object can stand where a forest or the feature step should:
:func:`check_content` refuses, each in one line, content that is not two pipelines of
rumdiff's feature step and a fitted forest, a feature step that reads another family or
feature set than the sidecar names, features that rumdiff.features computes differently
now, and forests whose trees, classes or features prediction could not use.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rumdiff.learn.sidecar import ModelError, features_fingerprint
from rumdiff.puzzle import Game

__all__ = ["check_content"]


def check_content(path: Path, content, metadata: dict) -> None:
    """Refuse what a model file holds unless it is what its sidecar describes: a
    classifier and a regressor, each a pipeline of rumdiff's feature step and a fitted
    forest, reading the features and the family the sidecar names
    (:func:`rumdiff.learn.archive.check_forest` checks the forests themselves).

    Raises
    ------
    ModelError
    """
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
    from sklearn.pipeline import Pipeline

    from rumdiff.features import PuzzleFeatures, feature_names
    from rumdiff.learn.archive import check_forest

    if not isinstance(content, dict) or set(content) != {"classifier", "regressor"}:
        raise ModelError(f"{path}: not a rumdiff model (no classifier and regressor inside)")
    classifier, regressor = content["classifier"], content["regressor"]
    steps = (
        isinstance(classifier, Pipeline)
        and list(classifier.named_steps) == ["features", "forest"]
        and isinstance(classifier.named_steps["features"], PuzzleFeatures)
        and isinstance(classifier.named_steps["forest"], RandomForestClassifier)
        and isinstance(regressor, Pipeline)
        and list(regressor.named_steps) == ["forest"]
        and isinstance(regressor.named_steps["forest"], RandomForestRegressor)
    )
    if not steps:
        raise ModelError(f"{path}: not a rumdiff model (no features -> forest pipelines inside)")
    forests = (classifier.named_steps["forest"], regressor.named_steps["forest"])
    for forest in forests:
        if not hasattr(forest, "estimators_"):
            raise ModelError(f"{path}: not a fitted rumdiff model (a forest was never fitted)")
    features = classifier.named_steps["features"]
    _check_family(path, features, metadata)
    names = [str(name) for name in features.get_feature_names_out()]
    jokers = bool(metadata.get("jokers", False))
    now = list(
        feature_names(metadata["feature_set"], k=metadata["k"], m=metadata["m"], jokers=jokers)
    )
    game = Game(*(metadata[key] for key in ("k", "m", "n")))
    if (
        names != metadata["feature_names"]
        or now != names
        or features_fingerprint(metadata["feature_set"], game, jokers=jokers)
        != metadata.get("features_sha256")
    ):
        raise ModelError(
            f"{path}: its features differ from those rumdiff.features computes now; "
            "train the model again"
        )
    # Each tree reads exactly these features; the classifier's classes are the sidecar's.
    check_forest(path, forests[0], len(names), [int(c) for c in metadata["classes"]])
    check_forest(path, forests[1], len(names))


def _check_family(path: Path, features, metadata: dict) -> None:
    """Refuse a feature step that reads other puzzles than the sidecar says: another
    feature set, m, jokers or not, or (for a model of one family) another k or n.

    Raises
    ------
    ModelError
    """
    from rumdiff.learn.archive import whole_number

    across = metadata.get("scope") is not None  # then k and n are any puzzles'
    wanted = {"feature_set": metadata["feature_set"], "jokers": bool(metadata.get("jokers")),
              "m": metadata["m"], "k": metadata["k"], "n": metadata["n"]}  # fmt: skip
    for field, want in wanted.items():
        have = getattr(features, {"k": "n_colours_", "n": "n_values_"}.get(field, field), None)
        if field in ("k", "m", "n"):
            fine = whole_number(have) and (int(have) == want or (across and field != "m"))
        elif field == "jokers":
            fine = isinstance(have, (bool, np.bool_)) and bool(have) == want
        else:
            fine = isinstance(have, str) and have == want
        if not fine:
            raise ModelError(
                f"{path}: not a valid rumdiff model (its features read {field} = "
                f"{repr(have)[:80]}, its sidecar says {want!r})"
            )
    if getattr(features, "k", None) is not None:
        raise ModelError(f"{path}: not a valid rumdiff model (its features fix k)")
