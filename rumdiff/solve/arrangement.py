"""Arrangements: the runs and groups a solution places, and their checks.

A *run* is at least s consecutive values of one colour; a *group* is at least s tiles
of one value in distinct colours. An arrangement is valid for a puzzle when every set
is well formed and together they use no tile more often than the puzzle holds it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rumdiff import config

__all__ = ["Run", "Group", "Arrangement", "InvalidArrangement"]


class InvalidArrangement(ValueError):
    """An arrangement that breaks the rules or uses tiles the puzzle lacks."""


@dataclass(frozen=True, order=True)
class Run:
    """Tiles ``start..end`` (inclusive) of one colour."""

    colour: int
    start: int
    end: int

    @property
    def points(self) -> int:
        return (self.start + self.end) * (self.end - self.start + 1) // 2

    def __str__(self) -> str:
        letter = config.COLOURS[self.colour]
        return " ".join(f"{v}{letter}" for v in range(self.start, self.end + 1))


@dataclass(frozen=True, order=True)
class Group:
    """Tiles of one value in the given distinct colours."""

    value: int
    colours: tuple[int, ...]

    @property
    def points(self) -> int:
        return self.value * len(self.colours)

    def __str__(self) -> str:
        return " ".join(f"{self.value}{config.COLOURS[c]}" for c in self.colours)


@dataclass(frozen=True)
class Arrangement:
    """The runs and groups of one solution."""

    runs: tuple[Run, ...] = ()
    groups: tuple[Group, ...] = ()

    @property
    def score(self) -> int:
        """Total value of the placed tiles."""
        return sum(r.points for r in self.runs) + sum(g.points for g in self.groups)

    def usage(self, k: int, n: int) -> np.ndarray:
        """Copies used per (value, colour), as an ``(n, k)`` matrix."""
        used = np.zeros((n, k), dtype=np.int64)
        for run in self.runs:
            used[run.start - 1 : run.end, run.colour] += 1
        for group in self.groups:
            for colour in group.colours:
                used[group.value - 1, colour] += 1
        return used

    def check(self, copies, s: int = config.S) -> int:
        """Check the arrangement against a puzzle (or its copies) and return its score.

        Raises
        ------
        InvalidArrangement
            If a set is malformed or the sets use more tiles than ``copies`` holds.
        """
        copies = np.asarray(getattr(copies, "copies", copies))
        if copies.ndim != 2:
            raise ValueError(f"copies must have shape (n, k), got {copies.shape}")
        n, k = copies.shape
        for run in self.runs:
            if not (0 <= run.colour < k and 1 <= run.start and run.end <= n):
                raise InvalidArrangement(f"run {run} lies outside the puzzle")
            if run.end - run.start + 1 < s:
                raise InvalidArrangement(f"run {run} is shorter than {s}")
        for group in self.groups:
            if not 1 <= group.value <= n or not all(0 <= c < k for c in group.colours):
                raise InvalidArrangement(f"group {group} lies outside the puzzle")
            if len(set(group.colours)) != len(group.colours):
                raise InvalidArrangement(f"group {group} repeats a colour")
            if len(group.colours) < s:
                raise InvalidArrangement(f"group {group} is smaller than {s}")
        over = self.usage(k, n) > copies
        if over.any():
            v, c = np.argwhere(over)[0]
            raise InvalidArrangement(f"tile {v + 1}{config.COLOURS[c]} is used too often")
        return self.score

    def __str__(self) -> str:
        lines = [f"run   {run}" for run in sorted(self.runs)]
        lines += [f"group {group}" for group in sorted(self.groups)]
        return "\n".join(lines)
