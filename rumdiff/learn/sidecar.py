"""A saved model's JSON sidecar: read, checked field by field, before the pickle is opened.

:func:`read_model_sidecar` refuses, with a one-line :class:`ModelError`: a missing
sidecar, one that is not a rumdiff model's, another model format
(``config.MODEL_FORMAT``), another rumdiff or scikit-learn minor version, and any field
of the wrong type or out of range (k, m and n, the feature set and names, the classes,
the label measure and its thresholds), so that nothing downstream meets a value it
cannot use. :func:`features_fingerprint` lets the loader refuse a model whose features
rumdiff computes differently now.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from rumdiff import __version__, config

__all__ = [
    "MARKER",
    "PICKLE_HINT",
    "ModelError",
    "covers",
    "features_fingerprint",
    "file_sha256",
    "read_model_sidecar",
    "scope_text",
    "sidecar_path",
]

#: Marker in every sidecar: what kind of file this is.
MARKER = "rumdiff-model"


#: What to do with a model file saved as a pickle by an earlier release.
PICKLE_HINT = (
    "only if you trust its source, convert it (rumdiff.learn.convert_pickle_model) or "
    "load it with rumdiff predict --trust-pickle"
)


class ModelError(ValueError):
    """A model file that cannot or must not be used, or puzzles it cannot judge."""


def sidecar_path(path) -> Path:
    """The JSON sidecar of a model file: ``PATH.json``."""
    path = Path(path)
    return path.with_name(path.name + ".json")


def file_sha256(path) -> str:
    """SHA-256 (hex) of a file's bytes."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _minor(version: str) -> tuple:
    return tuple(version.split(".")[:2])


def read_model_sidecar(path, *, trust_pickle: bool = False) -> dict:
    """The sidecar of model file ``path``, checked (see the module docstring).

    The pickle layout of earlier releases (``config.MODEL_PICKLE_FORMAT``) passes only
    with ``trust_pickle``.

    Raises
    ------
    ModelError
    """
    path = Path(path)
    side = sidecar_path(path)
    if not side.is_file():
        raise ModelError(f"{path}: not a rumdiff model (no sidecar {side.name} beside it)")
    metadata = _read_json(side)
    if not isinstance(metadata, dict) or metadata.get("format") != MARKER:
        raise ModelError(f'{side}: not a rumdiff model sidecar (no "format": "{MARKER}")')
    _check_versions(path, metadata, trust_pickle)
    _check_fields(side, metadata)
    return metadata


def _read_json(side: Path):
    """The JSON of a sidecar no larger than ``config.MODEL_SIDECAR_BYTES``, or ModelError."""
    try:
        with open(side, "rb") as stream:
            raw = stream.read(config.MODEL_SIDECAR_BYTES + 1)
        if len(raw) > config.MODEL_SIDECAR_BYTES:
            raise ModelError(
                f"{side}: not a rumdiff model sidecar (over {config.MODEL_SIDECAR_BYTES:,} bytes)"
            )
        return json.loads(raw.decode("utf-8"))
    except RecursionError:  # nested deeper than the parser's stack
        raise ModelError(f"{side}: not a rumdiff model sidecar (nested too deeply)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ModelError(f"{side}: not a rumdiff model sidecar ({first})") from None


def _check_versions(path: Path, metadata: dict, trust_pickle: bool) -> None:
    # The installed version from its metadata: importing scikit-learn costs more than a
    # second, and a sidecar is read, without the model, to ask whether it fits.
    from importlib.metadata import version

    formats = (config.MODEL_FORMAT, config.MODEL_PICKLE_FORMAT)
    saved = metadata.get("format_version")
    if saved not in formats[: 1 + trust_pickle]:
        hint = "train the model again (rumdiff train)"
        if saved == config.MODEL_PICKLE_FORMAT:
            hint = "it is a pickle, which can run code: " + PICKLE_HINT
        raise ModelError(
            f"{path}: model format {saved!r}, but this rumdiff reads format "
            f"{config.MODEL_FORMAT}; {hint}"
        )
    for what, saved, have in (
        ("rumdiff", metadata.get("rumdiff_version"), __version__),
        ("scikit-learn", metadata.get("sklearn_version"), version("scikit-learn")),
    ):
        if not isinstance(saved, str) or _minor(saved) != _minor(have):
            raise ModelError(
                f"{path}: saved with {what} {saved}, incompatible with the installed {have}; "
                "train the model again or install that version"
            )


def _check_fields(side: Path, metadata: dict) -> None:
    """Every field prediction uses, checked for type and range."""
    from rumdiff.data.labels import check_thresholds
    from rumdiff.validation import check_kmn, choice

    def need(condition: bool, what: str) -> None:
        if not condition:
            raise ModelError(f"{side}: {what}")

    for key in ("k", "m", "n", "feature_set", "feature_names", "classes", "class_names",
                "label_by", "thresholds", "model_sha256"):  # fmt: skip
        need(key in metadata, f"sidecar lacks {key!r}")
    try:
        check_kmn(metadata["k"], metadata["m"], metadata["n"])
        choice("feature set", metadata["feature_set"], config.FEATURE_SETS)
        choice("label measure", metadata["label_by"], config.LABEL_MEASURES)
        check_thresholds(metadata["label_by"], metadata["thresholds"])
    except (ValueError, TypeError) as error:
        raise ModelError(f"{side}: {error}") from None
    names = metadata["feature_names"]
    need(isinstance(names, list) and all(isinstance(n, str) for n in names),
         "feature_names must be a list of names")  # fmt: skip
    need(
        metadata["classes"] == list(config.CLASS_NAMES),
        f"classes must be {list(config.CLASS_NAMES)}",
    )
    need(metadata["class_names"] == list(config.LABEL_NAMES),
         f"class_names must be {list(config.LABEL_NAMES)}")  # fmt: skip
    need(isinstance(metadata["model_sha256"], str), "model_sha256 must be text")
    if "scope" in metadata:
        need(_valid_scope(metadata["scope"]), "scope must give k, m, n and jokers as "
             "[lowest, highest] and copies_per_value as a whole number")  # fmt: skip
    if "most_jokers" in metadata or "table" in metadata:
        most = metadata.get("most_jokers")
        need(isinstance(most, int) and not isinstance(most, bool)
             and 0 <= most <= config.MAX_JOKERS and isinstance(metadata.get("table"), bool),
             f"most_jokers must be 0..{config.MAX_JOKERS} and table true or false")  # fmt: skip


def _valid_scope(scope) -> bool:
    """Whether a sidecar's ``scope`` (a model trained across families) is well formed."""

    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not isinstance(scope, dict):
        return False
    spans = [scope.get(key) for key in ("k", "m", "n", "jokers")]
    return (
        all(
            isinstance(span, list)
            and len(span) == 2
            and all(map(whole, span))
            and span[0] <= span[1]
            for span in spans
        )
        and whole(scope.get("copies_per_value"))
        and isinstance(scope.get("table", False), bool)
    )


def features_fingerprint(feature_set: str, game, *, jokers: bool = False) -> str:
    """SHA-256 of the features rumdiff.features computes now for fixed random puzzles of
    ``game`` (a :class:`~rumdiff.puzzle.Game`: its k, m and n).

    Saved in the sidecar and compared when loading, so that a model is refused when
    the features it was trained on are computed differently now, even under the same
    names. The puzzles come from ``Generator.random``, whose stream numpy keeps stable;
    with ``jokers``, they also get 0..2 jokers and a random part of them on a table.
    """
    import hashlib

    from rumdiff.features import compute_features

    k, m, n = game.k, game.m, game.n
    rng = np.random.Generator(np.random.PCG64(config.SEED))
    copies = (rng.random((config.FINGERPRINT_PUZZLES, n, k)) * (m + 1)).astype(np.int8)
    puzzles = copies
    if jokers:
        from rumdiff.puzzle import Puzzles

        count = config.FINGERPRINT_PUZZLES
        table = np.minimum(copies, (rng.random(copies.shape) < 0.3).astype(np.int8))
        puzzles = Puzzles(copies, m=m, jokers=(rng.random(count) * 3).astype(np.int8),
                          table=table)  # fmt: skip
    values = compute_features(puzzles, m=m, feature_set=feature_set, jokers=jokers)
    values = values.to_numpy(np.float64)
    return hashlib.sha256(np.round(values, 6).tobytes()).hexdigest()


def covers(metadata: dict, game, jokers: int = 0, table: bool = False) -> bool:
    """Whether the model a sidecar describes covers puzzles of ``game`` (a
    :class:`~rumdiff.puzzle.Game`: its k, m and n) with up to ``jokers`` jokers, and a
    table if ``table``."""
    from rumdiff.puzzle import Game

    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, got {type(game).__name__}")
    k, m, n = game.k, game.m, game.n
    scope = metadata.get("scope")
    if scope is None:  # one family: jokers and a table only if it saw them (if it says)
        family = tuple(int(metadata[key]) for key in ("k", "m", "n"))
        if not metadata.get("jokers"):
            return family == (k, m, n) and jokers == 0 and not table
        most = metadata.get("most_jokers", config.MAX_JOKERS)
        return family == (k, m, n) and jokers <= most and (not table or metadata.get("table", True))
    if table and not scope.get("table", False):
        return False
    inside = all(
        scope[key][0] <= value <= scope[key][1] for key, value in (("k", k), ("m", m), ("n", n))
    )
    return inside and k * m <= scope["copies_per_value"] and jokers <= scope["jokers"][1]


def family_text(metadata: dict) -> str:
    """The puzzles a model of this sidecar knows, in words: its scope, or its family."""
    scope = metadata.get("scope")
    if scope is None:
        return "G({}, {}, {})".format(*(int(metadata[key]) for key in ("k", "m", "n")))
    return scope_text(scope)


def scope_text(scope: dict) -> str:
    """A scope (:attr:`TrainingData.scope`, a model sidecar's) in words."""
    (k0, k1), (m0, m1), (n0, n1), (j0, j1) = (scope[key] for key in ("k", "m", "n", "jokers"))
    return (
        f"k {k0}-{k1}, m {m0}-{m1}, k * m <= {scope['copies_per_value']}, n {n0}-{n1}, "
        f"{j0}-{j1} jokers, " + ("with or without a table" if scope.get("table") else "no table")
    )
