"""Distinct puzzles: compact keys, and redrawing the duplicates of a run in index order.

Used by :func:`rumdiff.data.generator.generate`, which decides how a duplicate is redrawn.
"""

from __future__ import annotations

import heapq

import numpy as np

from rumdiff import config

__all__ = ["TooFewDistinct", "make_distinct", "puzzle_keys"]


class TooFewDistinct(ValueError):
    """A puzzle still duplicated an earlier one after ``config.GENERATE_MAX_REDRAWS``
    redraws: the family's draws keep repeating the puzzles drawn so far.

    ``index`` is that puzzle's in its run; the puzzles before it are distinct and drawn
    as they would be without it.
    """

    def __init__(self, message: str, *, index: int):
        super().__init__(message)
        self.index = index


def puzzle_keys(copies) -> list[bytes]:
    """Compact keys (2 bits a cell) of stacked puzzles ``(puzzles, n, k)``, for uniqueness.

    Copies must lie in 0..3. Equal puzzles of one shape have equal keys; keys of
    different shapes are not comparable.
    """
    array = np.asarray(copies)
    if array.ndim != 3:
        raise ValueError(f"copies must have shape (puzzles, n, k), got {array.shape}")
    flat = array.reshape(array.shape[0], -1).astype(np.uint8, copy=False)
    pad = -flat.shape[1] % 4
    if pad:
        flat = np.concatenate([flat, np.zeros((flat.shape[0], pad), np.uint8)], axis=1)
    quads = flat.reshape(flat.shape[0], -1, 4)
    packed = quads[:, :, 0] | quads[:, :, 1] << 2
    packed |= quads[:, :, 2] << 4
    packed |= quads[:, :, 3] << 6
    return packed.view(f"V{packed.shape[1]}").ravel().tolist()


def make_distinct(copies, probabilities, keys, seen, redraw, *, first_index=0) -> np.ndarray:
    """Redraw duplicates in index order, in place, and add the final keys to ``seen``.

    Same result as checking every puzzle in turn against ``seen``, but only the puzzles
    that may collide are visited one by one; the others are added in bulk.

    Parameters
    ----------
    copies, probabilities : ndarray
        The puzzles ``(count, n, k)`` and their copy probabilities, changed in place.
    keys : list of bytes
        :func:`puzzle_keys` of ``copies``.
    seen : set of bytes
        Keys the puzzles must differ from; updated in place.
    redraw : callable
        ``redraw(j, attempt)`` gives attempt ``attempt`` (1, 2, ...) at puzzle ``j``:
        ``(copies, probabilities)``.
    first_index : int
        Index of puzzle 0 in its run, for messages.

    Returns
    -------
    ndarray of int32
        Redraws per puzzle.
    """
    redraws = np.zeros(len(copies), dtype=np.int32)
    # key -> index of its first occurrence (later pairs overwrite, so go backwards)
    first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
    if len(first) == len(keys) and seen.isdisjoint(first):
        seen.update(keys)  # the common case: no duplicate at all
        return redraws
    todo = list(set(range(len(keys))).difference(first.values()))  # repeated keys
    todo += [first[key] for key in seen.intersection(first)]
    heapq.heapify(todo)
    added: list[bytes] = []  # taken out of seen again if we fail half-way
    try:
        done = 0  # puzzles before this index have their keys in seen
        while todo:
            j = heapq.heappop(todo)
            if j < done:
                continue
            added += keys[done:j]
            seen.update(keys[done:j])
            key, attempt = keys[j], 0
            while key in seen:
                attempt += 1
                if attempt > config.GENERATE_MAX_REDRAWS:
                    raise TooFewDistinct(
                        f"puzzle {first_index + j} still duplicates an earlier puzzle after "
                        f"{config.GENERATE_MAX_REDRAWS} redraws; these parameters allow too "
                        "few distinct puzzles",
                        index=first_index + j,
                    )
                copies[j], probabilities[j] = redraw(j, attempt)
                key = puzzle_keys(copies[j][None])[0]
            if first.get(key, -1) > j:
                heapq.heappush(todo, first[key])  # a later puzzle now duplicates this redraw
            redraws[j] = attempt
            added.append(key)
            seen.add(key)
            done = j + 1
    except BaseException:
        seen.difference_update(added)
        raise
    seen.update(keys[done:])
    return redraws
