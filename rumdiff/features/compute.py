"""Pre-solve features of a stack of puzzles, as one DataFrame: the feature sets.

:func:`compute_features` turns a ``(puzzles, n, k)`` stack into a DataFrame, one row per
puzzle, columns in the order of :func:`feature_names` (:func:`feature_columns`: the same
columns as arrays):

- ``"thesis"``: the thesis's six (Section 7.2) exactly as its published solver computes
  them, generalised to any k and m (:mod:`rumdiff.features.thesis`);
- ``"extended"``: :data:`~rumdiff.features.extended.EXTENDED_FEATURES`
  (:mod:`rumdiff.features.extended`);
- ``"all"``: thesis columns, then extended;
- ``"scaled"``: the ``"all"`` and joker features in units that compare across families,
  with k, m, n and j (:mod:`rumdiff.features.scaled`): the same columns for every family
  and whatever the jokers.

With ``jokers=True`` the joker features follow the set's columns
(:data:`~rumdiff.features.jokers.JOKER_FEATURES`, :mod:`rumdiff.features.jokers`); the
set's own columns are computed on the regular tiles (rack and table together) whatever
the jokers, so a joker-free puzzle's columns do not change.

Numba kernels do the work over the whole stack (``experiments/bench_features.py``
measures it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rumdiff import config
from rumdiff.features.extended import EXTENDED_FEATURES, extended_features
from rumdiff.features.jokers import JOKER_FEATURES, as_puzzles, joker_features
from rumdiff.features.scaled import SCALED_FEATURES, scaled_features
from rumdiff.features.thesis import THESIS_FEATURES, thesis_feature_names, thesis_features
from rumdiff.validation import choice

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

__all__ = [
    "check_feature_set",
    "compute_features",
    "describe_features",
    "feature_columns",
    "feature_names",
]


def check_feature_set(feature_set: str) -> str:
    """``feature_set`` if it is one of ``config.FEATURE_SETS``, else ``ValueError``."""
    return choice("feature set", feature_set, config.FEATURE_SETS)


def feature_names(
    feature_set: str = config.FEATURE_SET, *, k: int, m: int, jokers: bool = False
) -> list[str]:
    """Names of a feature set's columns, in order.

    Parameters
    ----------
    feature_set : {"thesis", "extended", "all", "scaled"}
        Which features.
    k, m : int
        Colours and copies of the puzzles. Only the thesis's ``pct_*`` columns depend
        on m (one per copy count); no name depends on k today.
    jokers : bool, default False
        Append the joker features (:data:`~rumdiff.features.jokers.JOKER_FEATURES`).
    """
    check_feature_set(feature_set)
    if feature_set == "scaled":
        return list(SCALED_FEATURES)
    names = []
    if feature_set in ("thesis", "all"):
        names += thesis_feature_names(m=m)
    if feature_set in ("extended", "all"):
        names += list(EXTENDED_FEATURES)
    if jokers:
        names += list(JOKER_FEATURES)
    return names


def describe_features(
    feature_set: str = config.FEATURE_SET, *, k: int, m: int, jokers: bool = False
) -> dict:
    """What each feature of :func:`feature_names` measures, by name, in column order."""
    docs = {**THESIS_FEATURES, **EXTENDED_FEATURES, **JOKER_FEATURES, **SCALED_FEATURES}
    return {name: docs[name] for name in feature_names(feature_set, k=k, m=m, jokers=jokers)}


def compute_features(
    copies, *, m: int, feature_set: str = config.FEATURE_SET, jokers: bool | None = None
) -> pd.DataFrame:
    """Pre-solve features of every puzzle in a stack, one row per puzzle.

    Parameters
    ----------
    copies : Puzzles, Puzzle or array_like of shape (puzzles, n, k)
        Whole numbers 0..m: ``copies[p, v - 1, c]`` is the number of regular tiles of
        value v and colour c in puzzle p, rack and table together. A single
        :class:`~rumdiff.puzzle.Puzzle` gives one row; :class:`~rumdiff.puzzle.Puzzles`
        and :class:`~rumdiff.puzzle.Puzzle` may hold jokers and a table.
    m : int
        Most copies of a tile (must match a :class:`~rumdiff.puzzle.Puzzles`' own m).
    feature_set : {"thesis", "extended", "all", "scaled"}, default config.FEATURE_SET
        Which columns; see :func:`feature_names` and :func:`describe_features`.
    jokers : bool or None, default None
        Append the joker features. None: append them when the puzzles hold jokers or a
        table (a plain array never does). The set's own columns are the same either way.

    Returns
    -------
    pandas.DataFrame
        Columns :func:`feature_names` in order (int64 counts, float64 ``pct_*`` and
        ratios), index 0..puzzles-1.

    Raises
    ------
    ValueError
        On an unknown feature set or malformed puzzles, or on opening moves (puzzles of
        a game with a meld), which no feature describes.

    See Also
    --------
    feature_columns : The same columns as arrays, without pandas.
    """
    import pandas as pd

    if check_feature_set(feature_set) == "scaled":
        puzzles = _puzzles(copies, m=m)
        base = compute_features(puzzles, m=m, feature_set="all", jokers=True)
        return scaled_features(base, puzzles.game)
    columns = feature_columns(copies, m=m, feature_set=feature_set, jokers=jokers)
    return pd.DataFrame(columns, columns=list(columns))


def feature_columns(
    copies, *, m: int, feature_set: str = config.FEATURE_SET, jokers: bool | None = None
) -> dict[str, np.ndarray]:
    """Pre-solve features of every puzzle in a stack, column by column.

    The columns of :func:`compute_features` for a caller that needs no DataFrame: only
    ``"scaled"``, computed from a DataFrame of the other sets, imports pandas.

    Parameters
    ----------
    copies : Puzzles, Puzzle or array_like of shape (puzzles, n, k)
        The puzzles, as for :func:`compute_features`.
    m : int
        Most copies of a tile.
    feature_set : {"thesis", "extended", "all", "scaled"}, default config.FEATURE_SET
        Which columns; see :func:`feature_names`.
    jokers : bool or None, default None
        Append the joker features; None: when the puzzles hold jokers or a table.

    Returns
    -------
    dict of str to ndarray
        One array per name of :func:`feature_names`, in order, one value per puzzle:
        the dtypes of :func:`compute_features`' columns.

    Raises
    ------
    ValueError
        As :func:`compute_features`.
    """
    if check_feature_set(feature_set) == "scaled":
        frame = compute_features(copies, m=m, feature_set=feature_set)
        return {name: frame[name].to_numpy() for name in frame.columns}
    puzzles = _puzzles(copies, m=m)
    stack = puzzles.copies
    if jokers is None:
        jokers = not puzzles.plain
    columns = {}
    if feature_set in ("thesis", "all"):
        columns.update(thesis_features(stack, m=m))
    if feature_set in ("extended", "all"):
        columns.update(extended_features(stack, m=m))
    if jokers:
        columns.update(joker_features(puzzles))
    names = feature_names(feature_set, k=stack.shape[2], m=m, jokers=jokers)
    return {name: columns[name] for name in names}


def _puzzles(copies, *, m: int):
    """``copies`` as :class:`~rumdiff.puzzle.Puzzles`; ``ValueError`` for opening moves."""
    game = getattr(copies, "game", None)
    if game is not None and game.meld is not None:
        raise ValueError(f"the puzzles are opening moves ({game}): no feature describes the meld")
    return as_puzzles(copies, m=m)
