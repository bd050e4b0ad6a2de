"""Pre-solve features: cheap numbers that say how hard a puzzle is before solving it.

- ``compute``: :func:`compute_features` of a stack of puzzles, by feature set
  (``config.FEATURE_SETS``), as a DataFrame (:func:`feature_columns`: as arrays), and
  :func:`feature_names`;
- ``thesis``: the thesis's six, as its published solver computes them (kernels in
  ``_thesis``);
- ``extended``: our extended set, on the solver's own reduction and bounds (kernels in
  ``_extended`` and ``_search``);
- ``jokers``: the joker features, which see jokers and the table (kernels in
  ``_jokers``);
- ``transformer``: :class:`PuzzleFeatures`, the same as a scikit-learn transformer;
- ``flat``: :func:`flatten_puzzles`, puzzles (jokers and table included) as the 2-D
  rows that transformer reads.
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from rumdiff.features.compute import (
    check_feature_set,
    compute_features,
    describe_features,
    feature_columns,
    feature_names,
)
from rumdiff.features.extended import EXTENDED_FEATURES, extended_features
from rumdiff.features.flat import JOKERS_REFUSED, flatten_puzzles
from rumdiff.features.jokers import JOKER_FEATURES, joker_features
from rumdiff.features.thesis import THESIS_FEATURES, thesis_feature_names, thesis_features
from rumdiff.lazy import lazy_names as _lazy_names

if _TYPE_CHECKING:
    from rumdiff.features.transformer import PuzzleFeatures

__all__ = [
    "EXTENDED_FEATURES",
    "JOKERS_REFUSED",
    "JOKER_FEATURES",
    "THESIS_FEATURES",
    "PuzzleFeatures",
    "check_feature_set",
    "compute_features",
    "describe_features",
    "extended_features",
    "feature_columns",
    "feature_names",
    "flatten_puzzles",
    "joker_features",
    "thesis_feature_names",
    "thesis_features",
]


# The transformer needs scikit-learn, whose import costs more than a second on 2 cores;
# ``rumdiff features`` and ``solve`` never use it, so it loads on first use.
__getattr__, __dir__ = _lazy_names(__name__, {"PuzzleFeatures": "transformer"}, globals())
