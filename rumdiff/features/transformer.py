"""The pre-solve features as a scikit-learn transformer: puzzles in, feature matrix out."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from rumdiff import config
from rumdiff.features.compute import check_feature_set, compute_features, feature_names
from rumdiff.features.flat import check_plain, flat_width, unflatten
from rumdiff.puzzle import Puzzle, Puzzles
from rumdiff.validation import whole

__all__ = ["PuzzleFeatures"]


class PuzzleFeatures(TransformerMixin, BaseEstimator):
    """scikit-learn transformer: puzzles in, feature matrix out.

    Parameters
    ----------
    feature_set : {"thesis", "extended", "all"}, default "all"
        Which features; see :func:`feature_names`.
    m : int, default 2
        Most copies of a tile. With ``feature_set="scaled"``, puzzles (a
        :class:`~rumdiff.puzzle.Puzzles` or a 3-D stack) of any k, m and n are taken:
        those features compare across families.
    k : int or None, default None
        Colours, needed to unflatten 2-D input. None means the stack's own k for 3-D
        input, and 4 (``config.K``) for 2-D input.
    jokers : bool, default False
        Read puzzles with jokers and a table, and append the joker features
        (:data:`~rumdiff.features.jokers.JOKER_FEATURES`). False refuses puzzles that
        have jokers or a table (``ValueError``, "this model was trained without jokers
        or a table; ...").

    Attributes
    ----------
    n_features_in_ : int
        The length of a flattened puzzle: n * k, or 2 * n * k + 2 with jokers.
    n_values_, n_colours_ : int
        n and k of the puzzles seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when ``fit`` was given a DataFrame of flattened puzzles.

    Notes
    -----
    ``X`` is a :class:`~rumdiff.puzzle.Puzzles` (or one
    :class:`~rumdiff.puzzle.Puzzle`), a ``(puzzles, n, k)`` array of copies (no jokers,
    no table), or a 2-D array of flattened puzzles, which is what a Pipeline or
    scikit-learn's estimator checks pass around: ``(puzzles, n * k)`` in C order
    (value-major: column ``(v - 1) * k + c`` holds value v, colour c), or with
    ``jokers=True`` ``(puzzles, 2 * n * k + 2)``: the copies, the table counts in the
    same order, then the jokers and the table jokers (:func:`flatten_puzzles` writes
    it). Entries must be whole numbers in range (copies 0..m): arbitrary real data is
    refused, which is why some generic estimator checks do not apply. ``fit`` learns
    nothing from the values; it records the shape.
    """

    def __init__(
        self, *, feature_set: str = config.FEATURE_SET, m: int = config.M, k=None, jokers=False
    ):
        self.feature_set = feature_set
        self.m = m
        self.k = k
        self.jokers = jokers

    def __setstate__(self, state):
        # Transformers saved before the jokers parameter existed read joker-free puzzles.
        state.setdefault("jokers", False)
        super().__setstate__(state)

    def _shape(self, n: int, k: int, *, reset: bool) -> None:
        """Check or record the puzzles' n and k (any, for the scaled features of puzzles
        or stacks, which compare across families)."""
        if self.feature_set == "scaled" and not reset:
            return
        if self.k is not None and k != self.k:
            raise ValueError(f"puzzles have k={k} colours, but k={self.k} was set")
        if reset:
            self.n_features_in_ = flat_width(n, k, jokers=self.jokers)
            if hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
            self.n_values_, self.n_colours_ = n, k
        elif (n, k) != (self.n_values_, self.n_colours_):
            raise ValueError(
                f"puzzles have n={n}, k={k}; {type(self).__name__} was fitted with "
                f"n={self.n_values_}, k={self.n_colours_}"
            )

    def _puzzles(self, X, *, reset: bool) -> Puzzles:
        if isinstance(X, Puzzle):
            X = Puzzles.from_list([X])
        if isinstance(X, Puzzles):
            if X.m != self.m and self.feature_set != "scaled":
                raise ValueError(f"the puzzles have m={X.m}, but m={self.m} was set")
            if not self.jokers:
                check_plain(X)
            self._shape(X.n, X.k, reset=reset)
            return X
        if not hasattr(X, "shape") and not hasattr(X, "__array__"):
            X = np.asarray(X)  # nested lists
        three_d = len(getattr(X, "shape", ())) == 3
        if three_d:
            array = check_array(X, allow_nd=True, dtype="numeric")
        else:
            array = validate_data(self, X, reset=reset, dtype="numeric")
        if array.size and array.min() < 0:
            # scikit-learn's wording, which its estimator checks look for.
            raise ValueError(f"Negative values in data passed to {type(self).__name__}")
        if three_d:
            self._shape(array.shape[1], array.shape[2], reset=reset)
            return Puzzles(array, m=self.m)
        k = (self.k or config.K) if reset else self.n_colours_
        puzzles = unflatten(array, k=k, m=self.m, jokers=self.jokers)
        if reset:
            self.n_values_, self.n_colours_ = puzzles.n, puzzles.k
        return puzzles

    def fit(self, X, y=None):
        """Check the parameters and record the puzzles' shape; returns self."""
        check_feature_set(self.feature_set)
        whole("m", self.m, low=1, high=config.MAX_M)
        if self.k is not None:
            whole("k", self.k, low=1, high=config.MAX_K)
        if not isinstance(self.jokers, (bool, np.bool_)):
            raise ValueError(f"jokers must be True or False, got {self.jokers!r}")
        self._puzzles(X, reset=True)
        return self

    def transform(self, X):
        """Feature matrix (float64, one row per puzzle) of the puzzles X."""
        check_is_fitted(self)
        puzzles = self._puzzles(X, reset=False)
        jokers = bool(self.jokers)
        frame = compute_features(puzzles, m=puzzles.m, feature_set=self.feature_set, jokers=jokers)
        return frame.to_numpy(dtype=np.float64)

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns: :func:`feature_names`, with ``jokers`` as set."""
        check_is_fitted(self)
        names = feature_names(
            self.feature_set, k=self.n_colours_, m=self.m, jokers=bool(self.jokers)
        )
        return np.asarray(names, dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.input_tags.three_d_array = True
        tags.transformer_tags.preserves_dtype = []
        return tags
