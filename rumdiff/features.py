"""Pre-solve features of Rummikub puzzles: the thesis's six and an extended set.

:func:`compute_features` turns a ``(puzzles, n, k)`` stack into a DataFrame, one row
per puzzle, columns in the order of :func:`feature_names`:

- ``"thesis"``: the thesis's six (Section 7.2) exactly as its published solver
  computes them, generalised to any k and m; see :mod:`rumdiff.features_thesis`.
- ``"extended"``: :data:`EXTENDED_FEATURES`, computed on the puzzle left by the
  solver's own provably safe isolated-tile removal and splitting, with the solver's
  own bounds (the exact runs-only optimum per segment), so they describe what the DP
  will actually face.
- ``"all"``: thesis columns, then extended.

:class:`PuzzleFeatures` is the same as a scikit-learn transformer. Everything is
computed by numba kernels over the whole stack (``rumdiff._kernels.features``): about
100 microseconds a G(4, 2, 100) puzzle for "all" on one core, 0.96 s for 10,000 when
measured (``experiments/bench_features.py``).

What predicts the solver's work. On dense puzzles the solver's bounds rarely meet. Its
exact pass aims at the upper bound first and succeeds fast when the optimum reaches it;
when the optimum lies below, a second pass must prove that, at many times the work (of
1,675 hard puzzles among 12,000 solved mixed G(4, 2, 100) ones, 1,661 had an optimum
below the upper bound). Counting features (copies, states, gaps) cannot see this; two
cheap searches for an arrangement that meets the upper bound, ``greedy_*`` and
``ascent_*``, can, when they find one. Random forests, 5-fold CV on those 12,000
puzzles labelled by the solver's work (``config.LABEL_THRESHOLDS["work"]``, solver of
commit 4d1fd8a; one-off runs): 74.0% with the thesis's six, 76.1% with the extended
counts alone, 83.0% with the whole extended set (84.5% against 75.7% with easy plus
terciles of work). ``rumdiff train --compare`` and ``experiments/label_ceiling.py``
measure the like on any dataset.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from rumdiff import config
from rumdiff.features_thesis import (
    THESIS_FEATURES,
    as_stack,
    thesis_feature_names,
    thesis_features,
)

__all__ = [
    "EXTENDED_FEATURES",
    "THESIS_FEATURES",
    "PuzzleFeatures",
    "compute_features",
    "describe_features",
    "extended_features",
    "feature_names",
]

#: The extended features, in column order: what each measures and why it should predict
#: solver effort. "After removal" means after ``rumdiff._kernels.tiles.remove_isolated``,
#: the solver's removal; "segments" are the solver's (``tiles.segments``).
EXTENDED_FEATURES = {
    "tiles": "tiles in the puzzle as given: the raw size of the problem.",
    "points": "sum of the tile values as given: the scale of scores and gaps.",
    "removed": "copies no run or group can use (our removal; the solver's Solution.removed)"
    ": removed tiles are work the DP never sees.",
    "segments": "independent segments after removal and splitting (Solution.segments): "
    "many short segments mean many small, cheap DPs.",
    "largest_segment": "values in the largest segment: the DP's cost grows with the "
    "length it must run through.",
    "nonclearable_values": "values whose tiles cannot all go into groups (after removal): "
    "only these leave the solver choices.",
    "contested_values": "values that are not clearable but can form a group: tiles there "
    "may go to a group or to runs, the interplay the DP has to explore.",
    "full_values": "values where every colour has m copies: always clearable, so they "
    "simplify the puzzle.",
    "longest_full_streak": "most consecutive full values: long full stretches solve by "
    "groups alone.",
    "groups_only": "groups-only score (value x group value, after removal).",
    "groups_only_tiles": "tiles placed by groups only.",
    "runs_only": "exact runs-only optimum (per-colour DP over run states, after removal); "
    "the thesis's rules only bound it from below.",
    "runs_only_tiles": "most tiles that runs alone can place (the same DP counting tiles).",
    "solver_lower": "the solver's lower bound: per segment, max(runs only, groups only), "
    "summed (Solution.lower).",
    "solver_upper": "the solver's upper bound: per segment, min(runs only + groups only, "
    "per-value bounds), summed (Solution.upper).",
    "solver_gap": "solver_upper - solver_lower: zero means the solver does no DP work; "
    "the gap is what the beam search and the pruned DP must close.",
    "solver_gap_tiles": "the same gap counted in tiles (each tile weighs 1): the gap free of "
    "the bias of tile values.",
    "solver_gap_ratio": "solver_gap / points (0 without points): the gap relative to "
    "the puzzle's scale, as pruning works relative to it.",
    "dp_segments": "segments whose bounds do not meet, so the DP runs on them "
    "(Solution.dp_segments): zero means no DP work at all.",
    "dp_values": "values in those segments: the length the DP runs over.",
    "dp_tiles": "tiles in those segments.",
    "colour_run_states": "reachable per-colour run states summed over values and colours "
    "(thesis 5.1's state counting, on the DP's own encoding, any m).",
    "run_states": "per value, the product over colours of the reachable run states, summed "
    "over values: a cheap estimate of the DP's joint state space.",
    "dp_run_states": "run_states restricted to the segments that need the DP: the state "
    "space the solver actually explores before pruning.",
    "greedy_gap": "solver_upper minus the score of a beam search of width 1 in the solver's "
    "DP (the best joint state kept after each value; kept only where it beats "
    "solver_lower): where so cheap a search already reaches the upper bound, the solver's "
    "own passes close the gap fast; where it does not, the optimum may lie below the bound "
    "and the exact DP must prove it, at many times the work. The best single separator of "
    "medium from hard puzzles.",
    "greedy_gain": "what that greedy search adds to solver_lower.",
    "ascent_gap": "solver_upper minus the score after one round of colour-by-colour best "
    "responses from the greedy's arrangement (each colour's exact best runs given the "
    "others', groups on the leftovers): it closes gaps the greedy leaves; a gap neither "
    "closes hints at an optimum below the upper bound.",
    "ascent_gain": "what that ascent adds to solver_lower.",
}

# Dropped as useless. Evidence (one-off runs, not scripted): random forests, 5-fold CV, two forest
# seeds, on 12,000 solved mixed G(4, 2, 100) puzzles labelled by work; accuracy without -> with
# them: 83.0 / 82.7% -> 82.9 / 82.9% (work thresholds), 84.5 / 84.6% -> 84.6 / 84.8% (easy plus
# terciles); on 3,000 others 81.8 / 81.7% -> 81.6 / 81.4%. Both had also shown no effect with the
# solver before commit 0e65e73.
# - run_states_max, the largest per-value product of reachable run states: it sits at its
#   cap F**k = 10,000 in most dense puzzles, so it says nothing run_states does not;
# - heavy_values, values with at least k - 1 colours at m copies: full_values and the
#   copy percentages carry the same.
# Every other feature, dropped alone, moved accuracy by less than the noise (0.3 points),
# but no larger group could go without loss (full_values, dp_values and
# longest_full_streak with the two above cost 0.15-0.33 points).


def _check_set(feature_set: str) -> None:
    if feature_set not in config.FEATURE_SETS:
        raise ValueError(
            f"unknown feature set {feature_set!r}; expected one of {config.FEATURE_SETS}"
        )


def feature_names(feature_set: str = config.FEATURE_SET, *, k: int, m: int) -> list[str]:
    """Names of a feature set's columns, in order.

    Parameters
    ----------
    feature_set : {"thesis", "extended", "all"}
        Which features.
    k, m : int
        Colours and copies of the puzzles. Only the thesis's ``pct_*`` columns depend
        on m (one per copy count); no name depends on k today.
    """
    _check_set(feature_set)
    names = []
    if feature_set in ("thesis", "all"):
        names += thesis_feature_names(m=m)
    if feature_set in ("extended", "all"):
        names += list(EXTENDED_FEATURES)
    return names


def describe_features(feature_set: str = config.FEATURE_SET, *, k: int, m: int) -> dict:
    """What each feature of :func:`feature_names` measures, by name, in column order."""
    docs = {**THESIS_FEATURES, **EXTENDED_FEATURES}
    return {name: docs[name] for name in feature_names(feature_set, k=k, m=m)}


def extended_features(copies, *, m: int) -> dict[str, np.ndarray]:
    """The extended features of a stack of puzzles, column by column.

    Wraps the kernel ``rumdiff._kernels.features.extended_stack``.

    Parameters
    ----------
    copies : Puzzles or array_like of shape (puzzles, n, k)
        The puzzles; see :func:`rumdiff.features_thesis.as_stack`.
    m : int
        Most copies of a tile.

    Returns
    -------
    dict of str to ndarray
        One array per name of :data:`EXTENDED_FEATURES`, in order: int64, except
        ``solver_gap_ratio`` (float64).
    """
    from rumdiff._kernels import features as kernels
    from rumdiff.groups import group_value_table
    from rumdiff.runstates import run_states

    stack = as_stack(copies, m=m)
    count, n, k = stack.shape
    tables = run_states(m)
    source = np.repeat(np.arange(tables.size), np.diff(tables.first))
    out = np.zeros((count, len(kernels.EXTENDED_COLUMNS)), dtype=np.int64)
    kernels.extended_stack(
        stack, m, config.S, group_value_table(k, m), tables.first, tables.used,
        tables.next_state, tables.dropped1, tables.dropped2, source, out,
    )  # fmt: skip
    columns = dict(zip(kernels.EXTENDED_COLUMNS, out.T, strict=True))
    upper, lower = columns["solver_upper"], columns["solver_lower"]
    columns["solver_gap_ratio"] = columns["solver_gap"] / np.maximum(columns["points"], 1)
    for name in ("greedy", "ascent"):
        columns[f"{name}_gap"] = upper - columns[f"{name}_lower"]
        columns[f"{name}_gain"] = columns[f"{name}_lower"] - lower
    return {name: columns[name] for name in EXTENDED_FEATURES}


def compute_features(copies, *, m: int, feature_set: str = config.FEATURE_SET) -> pd.DataFrame:
    """Pre-solve features of every puzzle in a stack, one row per puzzle.

    Parameters
    ----------
    copies : Puzzles, Puzzle or array_like of shape (puzzles, n, k)
        Whole numbers 0..m: ``copies[p, v - 1, c]`` is the number of tiles of value v
        and colour c in puzzle p. A single :class:`~rumdiff.puzzle.Puzzle` gives one row.
    m : int
        Most copies of a tile (must match a :class:`~rumdiff.puzzle.Puzzles`' own m).
    feature_set : {"thesis", "extended", "all"}, default config.FEATURE_SET
        Which columns; see :func:`feature_names` and :func:`describe_features`.

    Returns
    -------
    pandas.DataFrame
        Columns :func:`feature_names` in order (int64 counts, float64 ``pct_*`` and
        ratios), index 0..puzzles-1.

    Raises
    ------
    ValueError
        On an unknown feature set or malformed puzzles.
    """
    _check_set(feature_set)
    stack = as_stack(copies, m=m)
    columns = {}
    if feature_set in ("thesis", "all"):
        columns.update(thesis_features(stack, m=m))
    if feature_set in ("extended", "all"):
        columns.update(extended_features(stack, m=m))
    names = feature_names(feature_set, k=stack.shape[2], m=m)
    return pd.DataFrame({name: columns[name] for name in names}, columns=names)


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
        from rumdiff.puzzle import Puzzles

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
        _check_set(self.feature_set)
        if not isinstance(self.m, (int, np.integer)) or not 1 <= self.m <= config.MAX_M:
            raise ValueError(f"m must be an integer in 1..{config.MAX_M}, got {self.m!r}")
        if self.k is not None and (
            not isinstance(self.k, (int, np.integer)) or not 1 <= self.k <= config.MAX_K
        ):
            raise ValueError(f"k must be None or an integer in 1..{config.MAX_K}, got {self.k!r}")
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
