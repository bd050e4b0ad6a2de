"""The pre-solve features as a scikit-learn transformer: puzzles in, feature matrix out."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from rumdiff import config
from rumdiff.features.compute import check_feature_set, compute_features, feature_names
from rumdiff.puzzle import Puzzles, as_stack
from rumdiff.validation import whole

__all__ = ["PuzzleFeatures"]


class PuzzleFeatures(TransformerMixin, BaseEstimator):
    """scikit-learn transformer: puzzles in, feature matrix out.

    Parameters
    ----------
    feature_set : {"thesis", "extended", "all"}, default "all"
        Which features; see :func:`feature_names`.
    m : int, default 2
        Most copies of a tile.
    k : int or None, default None
        Colours, needed to unflatten 2-D input. None means the stack's own k for 3-D
        input, and 4 (``config.K``) for 2-D input.

    Attributes
    ----------
    n_features_in_ : int
        n * k, the length of a flattened puzzle.
    n_values_, n_colours_ : int
        n and k of the puzzles seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when ``fit`` was given a DataFrame of flattened puzzles.

    Notes
    -----
    ``X`` is a ``(puzzles, n, k)`` array (or a :class:`~rumdiff.puzzle.Puzzles`), or a
    2-D array of flattened puzzles ``(puzzles, n * k)`` in C order (value-major:
    column ``(v - 1) * k + c`` holds value v, colour c), which is what a Pipeline or
    scikit-learn's estimator checks pass around. Entries must be whole numbers in
    0..m: arbitrary real data is refused, which is why some generic estimator checks
    do not apply. ``fit`` learns nothing from the values; it records the shape.
    """

    def __init__(self, *, feature_set: str = config.FEATURE_SET, m: int = config.M, k=None):
        self.feature_set = feature_set
        self.m = m
        self.k = k

    def _stack(self, X, *, reset: bool) -> np.ndarray:
        if isinstance(X, Puzzles):
            if X.m != self.m:
                raise ValueError(f"the puzzles have m={X.m}, but m={self.m} was set")
            X = X.copies
        if not hasattr(X, "shape") and not hasattr(X, "__array__"):
            X = np.asarray(X)  # nested lists
        if len(getattr(X, "shape", ())) == 3:
            array = check_array(X, allow_nd=True, dtype="numeric")
            n, k = array.shape[1], array.shape[2]
            if self.k is not None and k != self.k:
                raise ValueError(f"puzzles have k={k} colours, but k={self.k} was set")
            if reset:
                self.n_features_in_ = n * k
                if hasattr(self, "feature_names_in_"):
                    del self.feature_names_in_
            elif (n, k) != (self.n_values_, self.n_colours_):
                raise ValueError(
                    f"puzzles have n={n}, k={k}; {type(self).__name__} was fitted with "
                    f"n={self.n_values_}, k={self.n_colours_}"
                )
        else:
            flat = validate_data(self, X, reset=reset, dtype="numeric")
            k = (self.k or config.K) if reset else self.n_colours_
            if flat.shape[1] % k:
                raise ValueError(
                    f"X has {flat.shape[1]} columns, not a multiple of k={k}: expected "
                    "flattened puzzles of n * k columns"
                )
            array = flat.reshape(flat.shape[0], flat.shape[1] // k, k)
        if reset:
            self.n_values_, self.n_colours_ = array.shape[1], array.shape[2]
        if array.size and array.min() < 0:
            # scikit-learn's wording, which its estimator checks look for.
            raise ValueError(f"Negative values in data passed to {type(self).__name__}")
        return as_stack(array, m=self.m)

    def fit(self, X, y=None):
        """Check the parameters and record the puzzles' shape; returns self."""
        check_feature_set(self.feature_set)
        whole("m", self.m, low=1, high=config.MAX_M)
        if self.k is not None:
            whole("k", self.k, low=1, high=config.MAX_K)
        self._stack(X, reset=True)
        return self

    def transform(self, X):
        """Feature matrix (float64, one row per puzzle) of the puzzles X."""
        check_is_fitted(self)
        stack = self._stack(X, reset=False)
        frame = compute_features(stack, m=self.m, feature_set=self.feature_set)
        return frame.to_numpy(dtype=np.float64)

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns: :func:`feature_names` of the feature set."""
        check_is_fitted(self)
        names = feature_names(self.feature_set, k=self.n_colours_, m=self.m)
        return np.asarray(names, dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.input_tags.three_d_array = True
        tags.transformer_tags.preserves_dtype = []
        return tags
