"""The thesis's six pre-solve features (thesis Section 7.2), as its published solver writes them.

For G(4, 2, n) the values equal, value for value, the ``--features`` output of the
solver published with the thesis (miguelvdw/bachelor-thesis-rummikub, ``src/solver.cc``;
its ``execution_time`` column is a label, not a feature). That solver first removes
isolated copies with its own rule, then computes everything on what is left:

1. **Removal.** From the highest value down, changing the puzzle as it goes: in a value
   that is not clearable, each colour with copies keeps at most g + r of them. g is 1 if
   the value's group value is positive, else 0 (computed once per value, before it
   changes); r counts the 3-runs through the tile: for each of the three windows (two
   values below, one on each side, two above) that lies inside 1..n, 2 if both other
   cells of the window hold 2 copies, else 1 if both hold at least one, else 0.
2. **Bounds** (thesis 6.1). Groups-only: the sum of value x group value (eq. 3), and its
   tile count. Runs-only: the hand-made rules of Section 6.2 (see
   ``rumdiff.features._thesis.runs_rules``), which the thesis calls a lower bound. For
   m = 2 we found them equal to the exact runs-only optimum on every column we tried
   (all columns of up to 10 values, 20,000 random ones of up to 40); only our m = 3
   extension below falls short (in about a quarter of random columns). lower = max of
   the two, upper = min(their sum, the points left after removal).

The features, in this order (m = 2):

- ``bound_gap``: upper - lower.
- ``tile_surplus``: tiles left after removal - max(tiles used by runs-only, tiles used
  by groups-only).
- ``pct_0_copies``, ``pct_1_copy``, ``pct_2_copies`` (``pct_3_copies`` when m = 3): the
  share, in percent, of the n x k cells holding that many copies after removal. The
  published solver always has n = 100 (its rows past the largest value are empty);
  we use the puzzle's own n, so read smaller puzzles with ``n=100`` to compare.
- ``tiles_in_run_and_group``: over the values with a positive group value, for each
  colour with copies, min(a, r) with a = the copies if the value is clearable, else 1,
  and r as in the removal (on the puzzle after removal); summed.

Generalised to any k and m (identical for k = 4, m = 2; the tests check the
equivalences exhaustively):

- group values use eq. 3 for any k (zero for k < 3);
- g, and a in a value that is not clearable, become the most disjoint groups the value
  can form (``rumdiff.solve.groups.max_groups``; a as min(copies, that)): a colour puts
  at most one tile in each group. For k = 4, m = 2 every value that is not clearable
  forms at most one group, so this is exactly "1 if the group value is positive";
- r's window term becomes the smaller copy count of the window's two other cells, the
  number of runs the window can hold (for m <= 2 exactly the published 2 / 1 / 0);
- the runs-only rules read "double" as "at least 2 copies" and count at most two copies
  of a value; for m = 3 each maximal stretch of >= 3 consecutive values holding 3 copies
  adds one more run (third copies). For m = 1 the rules give the exact runs-only value;
- one ``pct_*`` column per copy count 0..m.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import as_stack

__all__ = ["THESIS_FEATURES", "thesis_feature_names", "thesis_features"]

#: The thesis's features (m = 2 names), what each measures and why it should predict effort.
THESIS_FEATURES = {
    "bound_gap": "upper - lower bound of the published solver (runs-only by the thesis's "
    "rules, groups-only by eq. 3, after its isolated-copy removal): zero means solved by "
    "bounds; a wide gap leaves room for interplay between runs and groups.",
    "tile_surplus": "tiles after removal minus the tiles of the better-covering bound (in "
    "tiles): the bound gap free of the bias of tile values.",
    "pct_0_copies": "percent of the n x k cells with no copy after removal: empty cells "
    "break runs and groups, so many of them make a puzzle easy.",
    "pct_1_copy": "percent of cells with one copy after removal.",
    "pct_2_copies": "percent of cells with two copies after removal: doubles multiply the "
    "ways to form runs and groups (but all-doubles puzzles clear by groups).",
    "pct_3_copies": "percent of cells with three copies after removal (m = 3 only).",
    "tiles_in_run_and_group": "tiles that fit both a group and a 3-run, the thesis's most "
    "important feature: each is a branching choice for the solver.",
}


def _pct_name(copies: int) -> str:
    return "pct_1_copy" if copies == 1 else f"pct_{copies}_copies"


def thesis_feature_names(*, m: int = config.M) -> list[str]:
    """Names of the thesis's features for m copies, in column order."""
    return ["bound_gap", "tile_surplus", *(_pct_name(j) for j in range(m + 1))] + [
        "tiles_in_run_and_group"
    ]


def thesis_features(copies, *, m: int) -> dict[str, np.ndarray]:
    """The thesis's features of a stack of puzzles, column by column.

    Wraps the kernel ``rumdiff.features._thesis.thesis_stack``.

    Parameters
    ----------
    copies : Puzzles or array_like of shape (puzzles, n, k)
        The puzzles; see :func:`rumdiff.puzzle.as_stack`.
    m : int
        Most copies of a tile.

    Returns
    -------
    dict of str to ndarray
        One array per name of :func:`thesis_feature_names`, in that order: int64,
        except the ``pct_*`` columns (float64).
    """
    from rumdiff.features import _thesis as kernels
    from rumdiff.solve.groups import group_value_table

    stack = as_stack(copies, m=m)
    count, n, k = stack.shape
    out = np.zeros((count, kernels.THESIS_COUNTS + m + 1), dtype=np.int64)
    kernels.thesis_stack(stack, m, config.S, group_value_table(k, m), out)
    columns = {
        "bound_gap": out[:, kernels.THESIS_BOUND_GAP],
        "tile_surplus": out[:, kernels.THESIS_TILE_SURPLUS],
    }
    for j in range(m + 1):
        # The published solver computes count / 400 * 100, an ulp off at times
        # (3.5000000000000004), and prints 6 significant digits (3.5). 100 * count / (n k)
        # is the correctly rounded share, so it equals the printed values when n k = 400.
        columns[_pct_name(j)] = 100.0 * out[:, kernels.THESIS_COUNTS + j] / (n * k)
    columns["tiles_in_run_and_group"] = out[:, kernels.THESIS_IN_BOTH]
    return columns
