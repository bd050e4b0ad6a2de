"""Learning: the difficulty classifier, from a labelled dataset to predictions.

- ``training_set``: a dataset's feature matrix and labels, checked (:func:`training_data`);
- ``training``: grid search, stratified cross-validation, final fit (:func:`train`);
- ``regression``: the difficulty score, a regressor of log10 effort;
- ``importance``: impurity and permutation importance of the classifier;
- ``compare``: feature sets side by side on the same folds;
- ``model``: saved models (a skops file plus a JSON sidecar), checked when loaded;
- ``content``: what a model file holds, checked against its sidecar;
- ``archive``: the skops file, built from trusted types only, and checks of its trees;
  pickles of earlier releases, loaded only when trusted;
- ``legacy``: those pickles converted to skops files;
- ``prediction``: the difficulty of new puzzles with a saved model (:func:`predict`);
- ``screen``: a model as the cheap filter of puzzles made to order (:class:`EffortScreen`).
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from rumdiff.lazy import lazy_names as _lazy_names

if _TYPE_CHECKING:
    from rumdiff.learn.archive import PickleWarning
    from rumdiff.learn.compare import compare_feature_sets
    from rumdiff.learn.legacy import convert_pickle_model
    from rumdiff.learn.model import Model, ModelError, build_model, load_model, save_model
    from rumdiff.learn.prediction import default_model_path, predict
    from rumdiff.learn.screen import EffortScreen, screen_refusal
    from rumdiff.learn.training import TrainResult, train
    from rumdiff.learn.training_set import TrainingData, check_features, training_data

#: Where each public name lives. They load on first use: most of them import
#: scikit-learn, which costs more than a second on 2 cores, and a command that only asks
#: the default model's sidecar whether it fits (made to order) never needs it.
_HOMES = {
    "PickleWarning": "archive",
    "compare_feature_sets": "compare",
    "convert_pickle_model": "legacy",
    **dict.fromkeys(["Model", "ModelError", "build_model", "load_model", "save_model"], "model"),
    **dict.fromkeys(["default_model_path", "predict"], "prediction"),
    **dict.fromkeys(["EffortScreen", "screen_refusal"], "screen"),
    **dict.fromkeys(["TrainResult", "train"], "training"),
    **dict.fromkeys(["TrainingData", "check_features", "training_data"], "training_set"),
}

__all__ = [
    "EffortScreen",
    "Model",
    "ModelError",
    "PickleWarning",
    "TrainResult",
    "TrainingData",
    "build_model",
    "check_features",
    "compare_feature_sets",
    "convert_pickle_model",
    "default_model_path",
    "load_model",
    "predict",
    "save_model",
    "screen_refusal",
    "train",
    "training_data",
]


__getattr__, __dir__ = _lazy_names(__name__, _HOMES, globals())
