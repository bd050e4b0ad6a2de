"""Puzzles as rows of a 2-D matrix, the layout scikit-learn estimators pass around.

Without jokers a row is a flattened ``(n, k)`` copies matrix, ``n * k`` columns in C
order (value-major: column ``(v - 1) * k + c`` holds value v, colour c). With jokers a
row is ``2 * n * k + 2`` columns: the ``n * k`` copies (rack and table together), then
the ``n * k`` table counts in the same order, then the jokers and the table jokers.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzles, as_copies

__all__ = ["JOKERS_REFUSED", "check_plain", "flatten_puzzles", "flat_width", "unflatten"]

#: The start of the message that refuses puzzles with jokers or a table where features
#: were fitted without them; callers may rely on it.
JOKERS_REFUSED = "this model was trained without jokers or a table"


def flat_width(n: int, k: int, *, jokers: bool) -> int:
    """Columns of one flattened puzzle: ``n * k``, or ``2 * n * k + 2`` with jokers."""
    return 2 * n * k + 2 if jokers else n * k


def check_plain(puzzles: Puzzles) -> Puzzles:
    """``puzzles`` if none has jokers or a table, else a one-line ``ValueError``."""
    if not puzzles.plain:
        jokers = np.zeros(len(puzzles)) if puzzles.jokers is None else puzzles.jokers
        table = puzzles.table
        has = jokers > 0 if table is None else (jokers > 0) | table.any(axis=(1, 2))
        raise ValueError(
            f"{JOKERS_REFUSED}; {int(has.sum())} of the {len(puzzles)} puzzles have them "
            "(use a model trained with jokers)"
        )
    return puzzles


def flatten_puzzles(puzzles: Puzzles, *, jokers: bool) -> np.ndarray:
    """Puzzles as a 2-D int8 matrix, one row per puzzle, in the module's layout.

    Parameters
    ----------
    puzzles : Puzzles
        The puzzles.
    jokers : bool
        True: ``2 * n * k + 2`` columns (copies, table, jokers, table jokers). False:
        the ``n * k`` copies only; puzzles with jokers or a table are then refused
        (:func:`check_plain`) rather than silently stripped.

    Returns
    -------
    ndarray of shape (puzzles, n * k) or (puzzles, 2 * n * k + 2)
    """
    count = len(puzzles)
    copies = puzzles.copies.reshape(count, -1)
    if not jokers:
        check_plain(puzzles)
        return copies.copy()
    table = np.zeros_like(copies) if puzzles.table is None else puzzles.table.reshape(count, -1)
    counts = np.zeros((count, 2), dtype=np.int8)
    for column, array in enumerate((puzzles.jokers, puzzles.table_jokers)):
        if array is not None:
            counts[:, column] = array
    return np.concatenate([copies, table, counts], axis=1).astype(np.int8, copy=False)


def unflatten(flat: np.ndarray, *, k: int, m: int, jokers: bool) -> Puzzles:
    """The inverse of :func:`flatten_puzzles`: checked :class:`~rumdiff.puzzle.Puzzles`.

    Raises
    ------
    ValueError
        On a width that is not of the layout for k colours, or entries that are not
        whole numbers in range (copies 0..m, jokers 0..config.MAX_JOKERS, the table
        within the copies, the table jokers within the jokers).
    """
    flat = np.asarray(flat)
    count, width = flat.shape
    cells = max(width - 2, 0) // 2 if jokers else width
    if cells % k or width != flat_width(cells // k, k, jokers=jokers):
        if jokers:
            raise ValueError(
                f"X has {width} columns, not 2 * n * k + 2 with k={k}: expected flattened "
                "puzzles (copies and table, n * k columns each, then jokers, table jokers)"
            )
        raise ValueError(
            f"X has {width} columns, not a multiple of k={k}: expected flattened puzzles "
            "of n * k columns"
        )
    n = cells // k
    copies = flat[:, :cells].reshape(count, n, k)
    if not jokers:
        return Puzzles(copies, m=m)
    table = flat[:, cells : 2 * cells].reshape(count, n, k)
    try:
        counts = as_copies(flat[:, 2 * cells :], config.MAX_JOKERS)
    except ValueError:
        raise ValueError(
            f"the last two columns (jokers, table jokers) must be whole numbers in "
            f"0..{config.MAX_JOKERS}"
        ) from None
    return Puzzles(copies, m=m, jokers=counts[:, 0], table=table, table_jokers=counts[:, 1])
