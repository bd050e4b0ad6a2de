"""Seeded generation of random puzzles G(k, m, n).

Each (colour, value) cell of a puzzle independently gets 0..m copies, with copy
probabilities ``(p_0, ..., p_m)`` chosen per puzzle by the mode:

- ``fixed``: the caller gives the percentages of cells with 0, 1, ..., m - 1 copies
  (``m`` numbers); the rest of the cells get m copies.
- ``mixed``: the thesis's training regimes. Each puzzle draws its regime r (1, 2, 3) with
  probabilities ``regime_weights`` (default ``config.REGIME_WEIGHTS``, 2.5 / 22.5 / 75 %),
  then ``p0 ~ U(0, a_r)`` and ``p1 ~ U(0, b_r - p0)`` with ``(a_r, b_r)`` from
  ``config.REGIME_RANGES``. The rest, ``100 - p0 - p1``, is split *equally* among
  2..m copies: for m = 2 all of it is 2 copies (the thesis), for m = 3 half is 2 and half
  3 copies (our choice: the thesis has no m = 3; an even split lets every count appear).
  For m = 1 there are no 2 copies, so the rest joins ``p1``: ``p_1 = 100 - p0``.
- ``simplex``: ``(p_0, ..., p_m)`` uniform on the simplex (Dirichlet(1, ..., 1)), drawn
  as the spacings of m sorted uniforms.

Reproducibility
---------------
Puzzle number ``i`` of a run is a pure function of ``(seed, i, parameters)``; it does
not depend on ``start``/``count`` or on how a run is split into calls or processes.
Indices are grouped into blocks of ``block_size(game)`` consecutive puzzles (about
``config.GENERATE_BLOCK_CELLS`` cells); block ``b`` draws all its puzzles, vectorised,
from its own stream ``SeedSequence(seed, spawn_key=(0, b))``. A call generates the
blocks it touches in full and keeps the indices it was asked for. Only
``Generator.random`` is used, whose output numpy has kept stable across versions.
Cells are drawn as float32 uniforms, so copy probabilities are resolved to 2**-24;
a probability of exactly 0 is never drawn.

Uniqueness
----------
Puzzles are processed in index order. A puzzle equal to one already kept (or to one
whose key is in ``seen``) is redrawn by :func:`redraw` with attempts 1, 2, ...: attempt
``a`` of index ``i`` uses its own stream ``SeedSequence(seed, spawn_key=(1, i, a))``,
keeps the puzzle's regime and redraws its probabilities (mixed, simplex) and cells.
``seen`` is a set of :func:`puzzle_keys` that :func:`generate` updates in place, so
generating indices ``0..N-1`` in consecutive chunks that share one ``seen`` gives
exactly the result of one call. Without ``seen``, a call guarantees uniqueness only
within itself. Generation is cheap (about a second for 400,000 G(4, 2, 100)), so a
parallel dataset build should generate all its puzzles in one process and spread only
the solving.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rumdiff import config
from rumdiff.data.distinct import make_distinct, puzzle_keys
from rumdiff.data.family import Family, as_family
from rumdiff.puzzle import Game, Puzzles
from rumdiff.validation import whole

__all__ = [
    "GeneratedPuzzles",
    "generate",
    "planned_bytes",
    "redraw",
    "block_size",
]

#: First spawn-key entry of the block streams and of the redraw streams.
_BLOCK_STREAM = 0
_REDRAW_STREAM = 1


@dataclass(frozen=True, eq=False)
class GeneratedPuzzles:
    """Puzzles from :func:`generate`, with how each was drawn.

    Attributes
    ----------
    puzzles : Puzzles
        The puzzles, indices ``start .. start + len - 1`` of the run.
    mode : str
        The generation mode, shared by all puzzles.
    seed : int
        The run's seed.
    start : int
        Index of the first puzzle in the run.
    regime : ndarray of int8, shape (count,)
        Mixed-mode regime 1, 2 or 3 of each puzzle; 0 in the other modes.
    probabilities : ndarray of float64, shape (count, m + 1)
        Copy probabilities used for each puzzle (fractions that sum to 1).
    redraws : ndarray of int32, shape (count,)
        How many times each puzzle was redrawn because it duplicated an earlier one.
    duplicates_redrawn : int
        Total number of duplicate draws discarded (``redraws.sum()``).
    """

    puzzles: Puzzles
    mode: str
    seed: int
    start: int
    regime: np.ndarray
    probabilities: np.ndarray
    redraws: np.ndarray
    duplicates_redrawn: int

    @property
    def ids(self) -> np.ndarray:
        """Index of each puzzle in the run: ``start .. start + len - 1``."""
        return np.arange(self.start, self.start + len(self), dtype=np.int64)

    def __len__(self) -> int:
        return len(self.puzzles)

    def __repr__(self) -> str:
        return (
            f"GeneratedPuzzles({len(self)} x {self.puzzles.game}, mode={self.mode!r}, "
            f"seed={self.seed}, start={self.start}, duplicates_redrawn={self.duplicates_redrawn})"
        )


def planned_bytes(count: int, game: Game) -> int:
    """An upper bound of the memory ``count`` generated puzzles of ``game`` take through
    a run: their copies twice over and a dataset row each (``config.ROW_BYTES``)."""
    return count * (2 * game.n * game.k + config.ROW_BYTES)


def block_size(game: Game) -> int:
    """Puzzles per random-stream block of ``game``'s puzzles; see the module docstring."""
    return max(1, config.GENERATE_BLOCK_CELLS // (game.n * game.k))


def _stream(seed: int, *key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def _thresholds(probabilities: np.ndarray) -> np.ndarray:
    """Cumulative thresholds ``(count, m)``: a uniform u gives ``sum(u >= t_j)`` copies.

    Exact at the ends: a zero tail gives threshold 1.0 (never reached by u < 1) and a
    zero head gives 0.0 (always reached), so zero probabilities are never drawn.
    """
    head = np.cumsum(probabilities, axis=1)[:, :-1]
    tail = np.cumsum(probabilities[:, ::-1], axis=1)[:, ::-1][:, 1:]
    head[tail == 0] = 1.0
    return head


def _regimes(rng: np.random.Generator, count: int, weights: np.ndarray) -> np.ndarray:
    cut = _thresholds(weights[None, :])[0]
    u = rng.random(count)
    return (1 + (u[:, None] >= cut[None, :]).sum(axis=1)).astype(np.int8)


def _probabilities(rng, family: Family, regime: np.ndarray) -> np.ndarray:
    count, m = len(regime), family.game.m
    if family.mode == "fixed":
        return np.tile(family.fixed, (count, 1))
    if family.mode == "simplex":
        cuts = np.sort(rng.random((count, m)), axis=1)
        edges = np.concatenate([np.zeros((count, 1)), cuts, np.ones((count, 1))], axis=1)
        return np.diff(edges, axis=1)
    ranges = np.asarray(config.REGIME_RANGES, dtype=np.float64)[regime.astype(np.intp) - 1]
    u = rng.random((count, 2))
    p0 = ranges[:, 0] * u[:, 0]
    p1 = (ranges[:, 1] - p0) * u[:, 1]
    rest = np.maximum(0.0, 100 - p0 - p1)
    if m == 1:
        columns = [p0, p1 + rest]
    else:
        columns = [p0, p1] + [rest / (m - 1)] * (m - 1)
    return np.stack(columns, axis=1) / 100


def _cells(rng, probabilities: np.ndarray, n: int, k: int) -> np.ndarray:
    count, m = probabilities.shape[0], probabilities.shape[1] - 1
    cut = _thresholds(probabilities).astype(np.float32)
    u = rng.random((count, n, k), dtype=np.float32)
    copies = np.zeros((count, n, k), dtype=np.int8)
    for j in range(m):
        copies += u >= cut[:, j, None, None]
    return copies


def _block(family: Family, seed: int, block: int):
    rng = _stream(seed, _BLOCK_STREAM, block)
    size = block_size(family.game)
    if family.mode == "mixed":
        regime = _regimes(rng, size, family.weights)
    else:
        regime = np.zeros(size, dtype=np.int8)
    probabilities = _probabilities(rng, family, regime)
    return _cells(rng, probabilities, family.game.n, family.game.k), regime, probabilities


def _redraw(family: Family, seed: int, index: int, attempt: int, regime: int):
    rng = _stream(seed, _REDRAW_STREAM, index, attempt)
    probabilities = _probabilities(rng, family, np.array([regime], dtype=np.int8))
    return _cells(rng, probabilities, family.game.n, family.game.k)[0], probabilities[0]


def redraw(
    seed: int,
    index: int,
    attempt: int,
    family: Family | None = None,
    *,
    regime: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Attempt ``attempt`` (1, 2, ...) at redrawing puzzle ``index`` of run ``seed``.

    A pure function of its arguments, used by :func:`generate` when a puzzle of
    ``family`` (default ``Family()``) duplicates an earlier one. The puzzle keeps its
    ``regime`` (1..3, mixed mode only) and, in fixed mode, its percentages; the rest is
    drawn afresh.

    Returns
    -------
    copies : ndarray of int8, shape (n, k)
    probabilities : ndarray of float64, shape (m + 1,)
    """
    family = as_family(family)
    seed, index = whole("seed", seed, low=0), whole("index", index, low=0)
    attempt = whole("attempt", attempt, low=1)
    regime = whole("regime", regime, low=0)
    if family.mode == "mixed" and not 1 <= regime <= len(config.REGIME_RANGES):
        raise ValueError(f"mixed mode needs a regime 1..{len(config.REGIME_RANGES)}, got {regime}")
    return _redraw(family, seed, index, attempt, regime)


def _turns(family: Family, count: int, seed: int, start: int, seen: set):
    """:func:`generate` in turn mode."""
    from rumdiff.data.turns import generate_turns

    puzzles, shares, redraws = generate_turns(
        count, family.game, jokers=family.jokers, seed=seed, start=start, seen=seen
    )
    return GeneratedPuzzles(
        puzzles=puzzles, mode="turn", seed=seed, start=start,
        regime=np.zeros(count, dtype=np.int8), probabilities=shares, redraws=redraws,
        duplicates_redrawn=int(redraws.sum()),
    )  # fmt: skip


def generate(
    count: int,
    family: Family | None = None,
    *,
    seed: int = config.SEED,
    start: int = 0,
    seen: set[bytes] | None = None,
) -> GeneratedPuzzles:
    """Generate puzzles ``start .. start + count - 1`` of ``family``'s run ``seed``, all
    distinct.

    Parameters
    ----------
    count : int
        Number of puzzles, at least 0.
    family : Family, optional
        The game, the mode that draws copy shares, and the jokers of every puzzle
        (:class:`~rumdiff.data.family.Family`); default ``Family()``. The puzzles' game
        is ``family.game``.
    seed : int
        Seed of the run, at least 0.
    start : int
        Index of the first puzzle in the run.
    seen : set of bytes, optional
        :func:`puzzle_keys` of puzzles the result must differ from (the run's earlier
        chunks). Updated in place with the new puzzles' keys.

    Returns
    -------
    GeneratedPuzzles

    Raises
    ------
    ValueError
        On invalid arguments, or when the family holds too few distinct puzzles.
    """
    family = as_family(family)
    count, seed = whole("count", count, low=0), whole("seed", seed, low=0)
    start = whole("start", start, low=0)
    if seen is None:
        seen = set()
    if family.mode == "turn":
        return _turns(family, count, seed, start, seen)
    distinct = family.distinct
    if distinct is not None and count + len(seen) > distinct:
        raise ValueError(
            f"only {distinct} distinct puzzles exist for these parameters; cannot make "
            f"{count} more beside {len(seen)} already seen"
        )
    k, m, n = family.game.k, family.game.m, family.game.n
    copies = np.zeros((count, n, k), dtype=np.int8)
    regime = np.zeros(count, dtype=np.int8)
    probabilities = np.zeros((count, m + 1), dtype=np.float64)
    size = block_size(family.game)
    stop = start + count
    keys: list[bytes] = []  # packed block by block, while the block is in cache
    for block in range(start // size, (stop - 1) // size + 1 if count else 0):
        lo, hi = max(start, block * size), min(stop, (block + 1) * size)
        block_copies, block_regime, block_probabilities = _block(family, seed, block)
        take = slice(lo - block * size, hi - block * size)
        copies[lo - start : hi - start] = block_copies[take]
        regime[lo - start : hi - start] = block_regime[take]
        probabilities[lo - start : hi - start] = block_probabilities[take]
        keys += puzzle_keys(block_copies[take])

    def again(j: int, attempt: int):
        return _redraw(family, seed, start + j, attempt, regime[j])

    redraws = make_distinct(copies, probabilities, keys, seen, again, first_index=start)
    return GeneratedPuzzles(
        puzzles=Puzzles(
            copies,
            game=family.game,
            source=f"generate(mode={family.mode!r}, seed={seed})",
            jokers=np.full(count, family.jokers) if family.jokers else None,
        ),  # fmt: skip
        mode=family.mode,
        seed=seed,
        start=start,
        regime=regime,
        probabilities=probabilities,
        redraws=redraws,
        duplicates_redrawn=int(redraws.sum()),
    )
