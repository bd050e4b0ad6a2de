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
    """Tiles ``start..end`` (inclusive) of one colour; jokers stand for the values in
    ``jokers``."""

    colour: int
    start: int
    end: int
    jokers: tuple[int, ...] = ()

    @property
    def points(self) -> int:
        """Value of the run's regular tiles (a joker scores 0)."""
        return (self.start + self.end) * (self.end - self.start + 1) // 2 - sum(self.jokers)

    @property
    def face(self) -> int:
        """Value of the run with each joker counted as the tile it stands for (what an
        opening meld counts)."""
        return (self.start + self.end) * (self.end - self.start + 1) // 2

    @property
    def tiles(self) -> int:
        """Regular tiles in the run."""
        return self.end - self.start + 1 - len(self.jokers)

    def __repr__(self) -> str:
        # As the dataclass's, without jokers when there are none: joker-free runs keep
        # the text they had before jokers existed (experiments/solver_fingerprint.py).
        jokers = f", jokers={self.jokers}" if self.jokers else ""
        return f"Run(colour={self.colour}, start={self.start}, end={self.end}{jokers})"

    def __str__(self) -> str:
        letter = config.COLOURS[self.colour]
        return " ".join(
            f"{config.JOKER}={v}{letter}" if v in self.jokers else f"{v}{letter}"
            for v in range(self.start, self.end + 1)
        )


@dataclass(frozen=True, order=True)
class Group:
    """Tiles of one value in the given distinct colours; jokers stand for the colours
    in ``jokers``."""

    value: int
    colours: tuple[int, ...]
    jokers: tuple[int, ...] = ()

    @property
    def points(self) -> int:
        """Value of the group's regular tiles (a joker scores 0)."""
        return self.value * len(self.colours)

    @property
    def face(self) -> int:
        """Value of the group with each joker counted as the tile it stands for (what an
        opening meld counts)."""
        return self.value * (len(self.colours) + len(self.jokers))

    @property
    def tiles(self) -> int:
        """Regular tiles in the group."""
        return len(self.colours)

    def __repr__(self) -> str:
        jokers = f", jokers={self.jokers}" if self.jokers else ""  # (as in Run)
        return f"Group(value={self.value}, colours={self.colours}{jokers})"

    def __str__(self) -> str:
        real = [f"{self.value}{config.COLOURS[c]}" for c in self.colours]
        return " ".join(
            real + [f"{config.JOKER}={self.value}{config.COLOURS[c]}" for c in self.jokers]
        )


@dataclass(frozen=True)
class Arrangement:
    """The runs and groups of one solution."""

    runs: tuple[Run, ...] = ()
    groups: tuple[Group, ...] = ()

    @property
    def score(self) -> int:
        """Total value of the placed regular tiles."""
        return sum(r.points for r in self.runs) + sum(g.points for g in self.groups)

    @property
    def face(self) -> int:
        """Total value of the sets, each joker counted as the tile it stands for (what an
        opening meld counts)."""
        return sum(r.face for r in self.runs) + sum(g.face for g in self.groups)

    @property
    def jokers(self) -> int:
        """Jokers placed."""
        return sum(len(s.jokers) for s in (*self.runs, *self.groups))

    def usage(self, k: int, n: int) -> np.ndarray:
        """Regular tiles used per (value, colour), as an ``(n, k)`` matrix."""
        used = np.zeros((n, k), dtype=np.int64)
        for run in self.runs:
            used[run.start - 1 : run.end, run.colour] += 1
            for value in run.jokers:
                used[value - 1, run.colour] -= 1
        rows = [group.value - 1 for group in self.groups for _ in group.colours]
        columns = [colour for group in self.groups for colour in group.colours]
        np.add.at(used, (rows, columns), 1)  # one call: numpy's indexing costs per call
        return used

    def check(self, copies, s: int = config.S) -> int:
        """Check the arrangement against a puzzle (or its copies) and return its score.

        A :class:`~rumdiff.puzzle.Puzzle` also brings its jokers and table: the
        arrangement may place at most its jokers, and must place every table tile and
        table joker.

        Raises
        ------
        InvalidArrangement
            If a set is malformed, the sets use more tiles or jokers than the puzzle
            holds, or leave a table tile or joker unplaced.
        """
        puzzle = copies
        copies = np.asarray(getattr(copies, "copies", copies))
        if copies.ndim != 2:
            raise ValueError(f"copies must have shape (n, k), got {copies.shape}")
        n, k = copies.shape
        for run in self.runs:
            if not (0 <= run.colour < k and 1 <= run.start and run.end <= n):
                raise InvalidArrangement(f"run {run} lies outside the puzzle")
            if run.end - run.start + 1 < s:
                raise InvalidArrangement(f"run {run} is shorter than {s}")
            if len(set(run.jokers)) != len(run.jokers) or not all(
                run.start <= v <= run.end for v in run.jokers
            ):
                raise InvalidArrangement(f"run {run} has a joker outside it")
        for group in self.groups:
            colours = (*group.colours, *group.jokers)
            if not 1 <= group.value <= n or not all(0 <= c < k for c in colours):
                raise InvalidArrangement(f"group {group} lies outside the puzzle")
            if len(set(colours)) != len(colours):
                raise InvalidArrangement(f"group {group} repeats a colour")
            if len(colours) < s:
                raise InvalidArrangement(f"group {group} is smaller than {s}")
        used = self.usage(k, n)
        over = used > copies
        if over.any():
            v, c = np.argwhere(over)[0]
            raise InvalidArrangement(f"tile {v + 1}{config.COLOURS[c]} is used too often")
        jokers = getattr(puzzle, "jokers", 0)
        if self.jokers > jokers:
            raise InvalidArrangement(f"{self.jokers} jokers placed, but the puzzle has {jokers}")
        if self.jokers < getattr(puzzle, "table_jokers", 0):
            raise InvalidArrangement("a table joker is left unplaced")
        table = getattr(puzzle, "table", None)
        if table is not None and (used < table).any():
            v, c = np.argwhere(used < table)[0]
            raise InvalidArrangement(f"table tile {v + 1}{config.COLOURS[c]} is left unplaced")
        return self.score

    def __str__(self) -> str:
        lines = [f"run   {run}" for run in sorted(self.runs)]
        lines += [f"group {group}" for group in sorted(self.groups)]
        return "\n".join(lines)
