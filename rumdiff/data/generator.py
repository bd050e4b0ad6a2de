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
Indices are grouped into blocks of ``block_size(k, n)`` consecutive puzzles (about
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

import math
from dataclasses import dataclass

import numpy as np

from rumdiff import config
from rumdiff.data.distinct import make_distinct, puzzle_keys
from rumdiff.puzzle import Game, Puzzles
from rumdiff.validation import check_kmn, choice, whole

__all__ = [
    "GeneratedPuzzles",
    "generate",
    "planned_bytes",
    "redraw",
    "block_size",
    "distinct_count",
]

#: First spawn-key entry of the block streams and of the redraw streams.
_BLOCK_STREAM = 0
_REDRAW_STREAM = 1
#: Slack allowed when checking that percentages sum to at most 100.
_PERCENT_SLACK = 1e-9


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


@dataclass(frozen=True)
class _Spec:
    """Validated generation parameters."""

    k: int
    m: int
    n: int
    mode: str
    fixed: np.ndarray | None  # (m + 1,) probabilities in fixed mode
    weights: np.ndarray  # (3,) regime probabilities


def _spec(k, m, n, mode, percentages, regime_weights) -> _Spec:
    k, m, n = check_kmn(k, m, n)
    choice("mode", mode, config.GENERATE_MODES)
    fixed = None
    if mode == "fixed":
        if percentages is None:
            raise ValueError(f"fixed mode needs percentages of cells with 0..{m - 1} copies")
        p = np.asarray(percentages, dtype=np.float64).ravel()
        if p.size != m:
            raise ValueError(
                f"fixed mode with m={m} needs {m} percentages (cells with 0..{m - 1} copies; "
                f"the rest get {m}), got {p.size}"
            )
        if not np.all(np.isfinite(p)) or p.min() < 0 or p.max() > 100:
            raise ValueError(f"percentages must lie in 0..100, got {p.tolist()}")
        if p.sum() > 100 + _PERCENT_SLACK:
            raise ValueError(f"percentages must sum to at most 100, got {p.sum():g}")
        fixed = np.append(p, max(0.0, 100 - p.sum())) / 100
    elif percentages is not None:
        raise ValueError(f"percentages are only used by fixed mode, not {mode!r}")
    w = np.asarray(regime_weights, dtype=np.float64).ravel()
    if w.size != len(config.REGIME_RANGES):
        raise ValueError(f"regime_weights needs {len(config.REGIME_RANGES)} numbers, got {w.size}")
    if not np.all(np.isfinite(w)) or w.min() < 0 or w.sum() <= 0:
        raise ValueError(f"regime_weights must be non-negative with a positive sum, got {w}")
    return _Spec(k, m, n, mode, fixed, w / w.sum())


def planned_bytes(count: int, *, k: int, n: int) -> int:
    """An upper bound of the memory ``count`` generated puzzles G(k, ., n) take through a
    run: their copies twice over and a dataset row each (``config.ROW_BYTES``)."""
    return count * (2 * n * k + config.ROW_BYTES)


def block_size(k: int, n: int) -> int:
    """Puzzles per random-stream block for G(k, ., n); see the module docstring."""
    return max(1, config.GENERATE_BLOCK_CELLS // (n * k))


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


def _probabilities(rng, spec: _Spec, regime: np.ndarray) -> np.ndarray:
    count, m = len(regime), spec.m
    if spec.mode == "fixed":
        return np.tile(spec.fixed, (count, 1))
    if spec.mode == "simplex":
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


def _block(spec: _Spec, seed: int, block: int):
    rng = _stream(seed, _BLOCK_STREAM, block)
    size = block_size(spec.k, spec.n)
    if spec.mode == "mixed":
        regime = _regimes(rng, size, spec.weights)
    else:
        regime = np.zeros(size, dtype=np.int8)
    probabilities = _probabilities(rng, spec, regime)
    return _cells(rng, probabilities, spec.n, spec.k), regime, probabilities


def _redraw(spec: _Spec, seed: int, index: int, attempt: int, regime: int):
    rng = _stream(seed, _REDRAW_STREAM, index, attempt)
    probabilities = _probabilities(rng, spec, np.array([regime], dtype=np.int8))
    return _cells(rng, probabilities, spec.n, spec.k)[0], probabilities[0]


def redraw(
    seed: int,
    index: int,
    attempt: int,
    *,
    k: int = config.K,
    m: int = config.M,
    n: int = config.N,
    mode: str = config.GENERATE_MODE,
    percentages=None,
    regime: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Attempt ``attempt`` (1, 2, ...) at redrawing puzzle ``index`` of run ``seed``.

    A pure function of its arguments, used by :func:`generate` when a puzzle duplicates
    an earlier one. The puzzle keeps its ``regime`` (1..3, mixed mode only) and, in fixed
    mode, its percentages; the rest is drawn afresh.

    Returns
    -------
    copies : ndarray of int8, shape (n, k)
    probabilities : ndarray of float64, shape (m + 1,)
    """
    spec = _spec(k, m, n, mode, percentages, config.REGIME_WEIGHTS)
    seed, index = whole("seed", seed, low=0), whole("index", index, low=0)
    attempt = whole("attempt", attempt, low=1)
    regime = whole("regime", regime, low=0)
    if mode == "mixed" and not 1 <= regime <= len(config.REGIME_RANGES):
        raise ValueError(f"mixed mode needs a regime 1..{len(config.REGIME_RANGES)}, got {regime}")
    return _redraw(spec, seed, index, attempt, regime)


def _turns(spec: _Spec, count: int, seed: int, start: int, seen: set, jokers: int):
    """:func:`generate` in turn mode."""
    from rumdiff.data.turns import generate_turns

    puzzles, shares, redraws = generate_turns(
        count, k=spec.k, m=spec.m, n=spec.n, jokers=jokers, seed=seed, start=start, seen=seen
    )
    return GeneratedPuzzles(
        puzzles=puzzles, mode="turn", seed=seed, start=start,
        regime=np.zeros(count, dtype=np.int8), probabilities=shares, redraws=redraws,
        duplicates_redrawn=int(redraws.sum()),
    )  # fmt: skip


def distinct_count(*, k: int, m: int, n: int, mode: str, percentages=None) -> int | None:
    """How many distinct puzzles :func:`generate` can draw with these parameters (a
    ValueError if invalid), or None when astronomically many, or for turns (not counted)."""
    spec = _spec(k, m, n, mode, percentages, config.REGIME_WEIGHTS)
    support = spec.m + 1 if spec.fixed is None else int(np.count_nonzero(spec.fixed))
    cells = spec.n * spec.k
    if mode == "turn" or (support > 1 and cells * math.log2(support) > 62):
        return None
    return support**cells


def generate(
    count: int,
    *,
    k: int = config.K,
    m: int = config.M,
    n: int = config.N,
    mode: str = config.GENERATE_MODE,
    seed: int = config.SEED,
    percentages=None,
    regime_weights=config.REGIME_WEIGHTS,
    start: int = 0,
    seen: set[bytes] | None = None,
    jokers: int = 0,
) -> GeneratedPuzzles:
    """Generate puzzles ``start .. start + count - 1`` of the run ``seed``, all distinct.

    Parameters
    ----------
    count : int
        Number of puzzles, at least 0.
    k, m, n : int
        Colours, copies and values of G(k, m, n).
    mode : {"fixed", "mixed", "simplex", "turn"}
        How copy probabilities are chosen; see the module docstring. ``"turn"``:
        real-game turns, a table of valid sets and a rack (:mod:`rumdiff.data.turns`).
    seed : int
        Seed of the run, at least 0.
    percentages : sequence of m floats, optional
        Fixed mode only (and required there): percentages of cells with 0..m-1 copies,
        each in 0..100, summing to at most 100; the rest of the cells get m copies.
    regime_weights : sequence of 3 floats
        Mixed mode: relative frequencies of regimes 1, 2, 3 (normalised).
    start : int
        Index of the first puzzle in the run.
    seen : set of bytes, optional
        :func:`puzzle_keys` of puzzles the result must differ from (the run's earlier
        chunks). Updated in place with the new puzzles' keys.
    jokers : int
        Jokers of each puzzle, 0..``config.MAX_JOKERS``: on the rack, or in turn mode
        the game's jokers (some on the table, some on the rack, some in the box). The
        puzzles' game holds that many (``j=J`` in a file's header); without jokers it
        is the plain game G(k, m, n), whose header names none.

    Returns
    -------
    GeneratedPuzzles

    Raises
    ------
    ValueError
        On invalid arguments, or when the parameters allow too few distinct puzzles.
    """
    spec = _spec(k, m, n, mode, percentages, regime_weights)
    count, seed = whole("count", count, low=0), whole("seed", seed, low=0)
    start = whole("start", start, low=0)
    jokers = whole("jokers", jokers, low=0, high=config.MAX_JOKERS)
    if seen is None:
        seen = set()
    if mode == "turn":
        return _turns(spec, count, seed, start, seen, jokers)
    distinct = distinct_count(k=k, m=m, n=n, mode=mode, percentages=percentages)
    if distinct is not None and count + len(seen) > distinct:
        raise ValueError(
            f"only {distinct} distinct puzzles exist for these parameters; cannot make "
            f"{count} more beside {len(seen)} already seen"
        )
    copies = np.zeros((count, n, k), dtype=np.int8)
    regime = np.zeros(count, dtype=np.int8)
    probabilities = np.zeros((count, m + 1), dtype=np.float64)
    size = block_size(k, n)
    stop = start + count
    keys: list[bytes] = []  # packed block by block, while the block is in cache
    for block in range(start // size, (stop - 1) // size + 1 if count else 0):
        lo, hi = max(start, block * size), min(stop, (block + 1) * size)
        block_copies, block_regime, block_probabilities = _block(spec, seed, block)
        take = slice(lo - block * size, hi - block * size)
        copies[lo - start : hi - start] = block_copies[take]
        regime[lo - start : hi - start] = block_regime[take]
        probabilities[lo - start : hi - start] = block_probabilities[take]
        keys += puzzle_keys(block_copies[take])

    def again(j: int, attempt: int):
        return _redraw(spec, seed, start + j, attempt, regime[j])

    redraws = make_distinct(copies, probabilities, keys, seen, again, first_index=start)
    # The game holds the jokers drawn, so that a file of the puzzles reads back as drawn.
    game = Game.drawn_with(spec.k, spec.m, spec.n, jokers)
    return GeneratedPuzzles(
        puzzles=Puzzles(
            copies,
            game=game,
            source=f"generate(mode={mode!r}, seed={seed})",
            jokers=np.full(count, jokers) if jokers else None,
        ),  # fmt: skip
        mode=mode,
        seed=seed,
        start=start,
        regime=regime,
        probabilities=probabilities,
        redraws=redraws,
        duplicates_redrawn=int(redraws.sum()),
    )
