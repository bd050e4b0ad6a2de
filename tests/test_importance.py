"""Feature importance: the macro-F1 scorer permutation importance uses is scikit-learn's
``"f1_macro"`` to the last bit, and so are the importances it gives."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import permutation_importance
from sklearn.metrics import f1_score
from sklearn.pipeline import Pipeline

from rumdiff import config
from rumdiff.learn.importance import importances, macro_f1


class Answers:
    """An estimator that predicts the labels it was given."""

    def __init__(self, labels):
        self.labels = labels

    def predict(self, X):
        return self.labels


@pytest.mark.parametrize(
    "true, predicted",
    [
        ([1, 2, 3, 4], [1, 2, 3, 4]),  # every one right
        ([1, 1, 1], [2, 2, 2]),  # every one wrong, the labels apart
        ([3], [3]),  # one label, one row
        ([1, 3, 4, 4], [4, 4, 4, 1]),  # a label only true, none only predicted
        ([2, 2, 4], [1, 2, 4]),  # a label only predicted
    ],
)
def test_macro_f1_is_scikit_learns_on_cases_by_hand(true, predicted):
    true, predicted = np.array(true), np.array(predicted)
    assert macro_f1(Answers(predicted), None, true) == f1_score(true, predicted, average="macro")


def test_macro_f1_is_scikit_learns_on_random_labels():
    rng = np.random.default_rng(7)
    for _ in range(250):
        rows = int(rng.integers(1, 400))
        labels = rng.choice(np.array([1, 2, 3, 4, 9]), size=int(rng.integers(1, 6)), replace=False)
        dtype = rng.choice([np.int8, np.int64])
        true = rng.choice(labels, rows).astype(dtype)
        predicted = np.where(rng.random(rows) < 0.6, true, rng.choice(labels, rows)).astype(dtype)
        want = f1_score(true, predicted, average="macro")
        assert macro_f1(Answers(predicted), None, true) == want


@pytest.mark.parametrize("seed", range(4))
def test_importances_equal_scikit_learns_permutation_importance(seed):
    rng = np.random.default_rng(seed)
    X = rng.random((240, 6))
    y = 1 + (X[:, 0] > 0.5) + (X[:, 1] > 0.7) * 2 + (rng.random(240) < 0.1)
    forest = RandomForestClassifier(n_estimators=8, max_leaf_nodes=16, random_state=seed)
    model = Pipeline([("forest", forest.fit(X[:160], y[:160]))])
    data = SimpleNamespace(X=X, y=y, feature_names=[f"f{i}" for i in range(6)])
    held_out = np.arange(160, 240)
    table = importances(data, model, model, held_out, seed=seed).set_index("feature")
    theirs = permutation_importance(
        model, X[held_out], y[held_out], scoring="f1_macro",
        n_repeats=config.PERMUTATION_REPEATS, random_state=seed, n_jobs=1,
    )  # fmt: skip
    assert config.TRAIN_SCORING == "f1_macro"
    np.testing.assert_array_equal(table.loc[data.feature_names, "permutation"],
                                  theirs.importances_mean)  # fmt: skip
    np.testing.assert_array_equal(table.loc[data.feature_names, "permutation_std"],
                                  theirs.importances_std)  # fmt: skip
    assert np.any(theirs.importances_mean != 0)
