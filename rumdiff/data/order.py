"""Puzzles made to order: random puzzles whose measured search effort lies in a range.

:func:`make_to_order` draws candidates with :func:`rumdiff.data.generator.generate`
(any mode, jokers and turns included), measures each one's search effort with the
reference search (:func:`rumdiff.solve.search_effort`) and keeps those whose effort
lies in ``[low, high)`` until ``count`` are found. A difficulty class is such a range
(:func:`effort_range`): easy ``[0, 1)`` (settled by bounds), moderate ``[1, t1)``,
medium ``[t1, t2)``, hard ``[t2, inf)`` with ``config.LABEL_THRESHOLDS["search"]``.

An optional ``screen`` (a model's cheap guess, :mod:`rumdiff.learn.screen`) says which
candidates are worth searching: the others are skipped unsearched. A screen only ever
skips: every accepted puzzle's effort is measured. A model's screen costs its loading,
seconds that only pay when it saves more searching than that; with ``screen_work`` it
is first called for the block where the searching still ahead is projected to reach
that many transitions (:func:`make_to_order`).

Reproducibility
---------------
Candidate ``i`` is puzzle ``i`` of the generator's run ``seed`` (all distinct). Candidates
come in blocks; a block is drawn, screened and searched whole, then its puzzles in range
are accepted in candidate order. A block's size, and whether the screen judges it,
follow from the counts of the blocks before it, never from timing, so the same
arguments give the same puzzles, and the same counts, whatever ``jobs`` is. (Workers
start only once the search has taken ``config.SPAWN_SECONDS`` here; which process
searches never changes a result.) The accepted puzzles are the first ``count``
candidates in range (that the screen lets through): the block sizes change only how many
are drawn.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from rumdiff import config
from rumdiff.data.distinct import TooFewDistinct
from rumdiff.data.family import Family, as_family
from rumdiff.data.labels import class_ranges
from rumdiff.validation import choice, whole

__all__ = [
    "OrderError",
    "OrderResult",
    "check_order",
    "effort_range",
    "make_to_order",
    "order_bytes",
    "range_text",
]


class OrderError(ValueError):
    """Too few puzzles in range among the most candidates allowed.

    Attributes: ``found``, ``drawn``, ``searched``, ``lowest`` and ``highest`` (the
    extreme efforts searched, None when none was), and ``exhausted``: more candidates
    cannot help, since every distinct puzzle of the family was drawn, or its draws kept
    repeating those drawn (``config.GENERATE_MAX_REDRAWS`` times in a row).
    """

    def __init__(self, message: str, *, found: int, drawn: int, searched: int, lowest, highest,
                 exhausted: bool = False):  # fmt: skip
        super().__init__(message)
        self.found, self.drawn, self.searched = found, drawn, searched
        self.lowest, self.highest = lowest, highest
        self.exhausted = exhausted


@dataclass(frozen=True, eq=False)
class OrderResult:
    """Puzzles made to order by :func:`make_to_order`, and how they were found.

    Attributes
    ----------
    puzzles : Puzzles
        The accepted puzzles, in candidate order.
    ids : ndarray of int64
        Each one's candidate index (its index in the generator's run ``seed``).
    efforts : ndarray of int64
        Each one's search effort, measured by the reference search.
    solutions : list of rumdiff.solve.Solution
        Each one's optimal arrangement (the fast solver's, whose score is the search's).
    low, high : int, int or None
        The range, ``low <= effort < high`` (no upper end when None).
    drawn, searched : int
        Candidates drawn, and how many of them the reference search measured.
    needed : int
        Candidates up to the last one accepted: the rest of the last block was drawn (and
        searched) but never needed.
    lowest, highest : int or None
        The lowest and highest effort searched.
    seconds : float
        Wall time.
    blocks : list of dict
        Each block's first candidate, size and how many of it were searched.
    screened_from : int or None
        The first candidate the screen judged (None: the screen was never called).
    """

    puzzles: object
    ids: np.ndarray
    efforts: np.ndarray
    solutions: list
    low: int
    high: int | None
    drawn: int
    searched: int
    needed: int
    lowest: int | None
    highest: int | None
    seconds: float
    blocks: list = field(default_factory=list)
    screened_from: int | None = None

    @property
    def acceptance_rate(self) -> float:
        """Accepted puzzles per candidate needed (:attr:`needed`): the share of
        candidates in range (that the screen let through)."""
        return len(self.puzzles) / self.needed if self.needed else 0.0


def effort_range(difficulty: str | None = None, effort=None) -> tuple[int, int | None]:
    """The range ``[low, high)`` of search effort of a class, or of ``effort = (low, high)``.

    Classes follow ``config.LABEL_NAMES`` and ``config.LABEL_THRESHOLDS["search"]``
    (:mod:`rumdiff.data.labels`): easy ``[0, 1)``, moderate ``[1, t1)``, medium
    ``[t1, t2)``, hard ``[t2, None)``. ``high`` None: no upper end.

    Raises
    ------
    ValueError
        Unless exactly one is given, or on a range that is empty or not whole numbers.
    """
    if (difficulty is None) == (effort is None):
        raise ValueError("give a difficulty class or an effort range, one of them")
    if difficulty is not None:
        choice("difficulty", difficulty, config.LABEL_NAMES)
        return class_ranges("search")[config.LABEL_NAMES.index(difficulty)]
    low, high = effort
    low = whole("effort's low end", low, low=0)
    if high is not None:
        high = whole("effort's high end", high, low=1)
        if high <= low:
            raise ValueError(f"the effort range {low}:{high} is empty (the high end is exclusive)")
    return low, high


def range_text(low: int, high: int | None) -> str:
    """The range in words, with its class's name when it is a class's."""
    name = next(
        (n for n in config.LABEL_NAMES if effort_range(n) == (low, high)), None
    )  # fmt: skip
    if name == "easy":
        return "the easy class (settled by bounds, 0 transitions)"
    if high is None:
        where = f"{low:,} transitions"
        return f"the {name} class's {where}" if name else where
    where = f"{low:,} <= transitions < {high:,}"
    return f"the {name} class ({where})" if name else f"the range {where}"


def order_bytes(count: int, candidates: int, family: Family) -> int:
    """An upper bound of the memory :func:`make_to_order` takes for ``count`` puzzles of
    ``family`` among at most ``candidates``: the accepted puzzles with their solutions, a key for
    every candidate drawn, and one block of candidates
    (:func:`rumdiff.data.generator.planned_bytes`); ``config.ORDER_TILE_BYTES`` and
    ``config.ORDER_KEY_BYTES`` say what each costs."""
    from rumdiff.data.generator import planned_bytes

    k, m, n = family.game.k, family.game.m, family.game.n
    key = (2 * n * k if family.mode == "turn" else -(-n * k // 4)) + config.ORDER_KEY_BYTES
    kept = config.ORDER_TILE_BYTES * n * k * m + config.ROW_BYTES
    return count * kept + candidates * key + planned_bytes(config.ORDER_BLOCK[1], family.game)


def check_order(count: int, low: int, high: int | None, family: Family, *,
                max_candidates: int, max_memory_gb: float) -> int:  # fmt: skip
    """Refuse, before any work, an order of ``family`` that cannot be met or could need more memory
    than ``max_memory_gb`` GiB (:func:`order_bytes`); :func:`make_to_order` calls it.

    An order cannot be met when it asks for more puzzles than the family has, or for
    easy turns: a turn always has a table (its sets are laid from a full box, once the
    family has a valid set), and the search never settles a table by bounds alone.

    Returns
    -------
    int
        The most candidates to draw: ``max_candidates``, or the family's distinct
        puzzles when there are fewer.

    Raises
    ------
    ValueError
    """
    family = as_family(family)
    count = whole("count", count, low=1)
    max_candidates = whole("max_candidates", max_candidates, low=1)
    low, high = effort_range(effort=(low, high))
    if not (math.isfinite(max_memory_gb) and max_memory_gb > 0):
        raise ValueError(f"max_memory_gb must be a finite number above 0, got {max_memory_gb!r}")
    distinct, game, mode, shape = family.distinct, family.game, family.mode, family.shape
    if distinct is not None and count > distinct:
        raise ValueError(
            f"{shape} has only {distinct:,} distinct puzzles in {mode} mode; cannot make {count:,}"
        )
    if mode == "turn" and high is not None and high <= 1 and max(game.k, game.n) >= config.S:
        raise ValueError(
            f"no turn of {shape} lies in {range_text(low, high)}: a turn always has a "
            "table, and the search settles no table by bounds alone; ask for another "
            "class or range, or another mode"
        )
    limit = max_candidates if distinct is None else min(max_candidates, distinct)
    need = order_bytes(count, limit, family)
    if need > max_memory_gb * 2**30:
        raise ValueError(
            f"{count:,} puzzles of {shape} among up to {limit:,} candidates could need "
            f"{need / 2**30:,.1f} GiB, over the limit of {max_memory_gb:g} GiB; ask for "
            "fewer (--count, --max-candidates) or raise --max-memory"
        )
    return limit


def _pieces(puzzles, chosen: np.ndarray, size: int):
    """Tasks of at most ``size`` of the ``chosen`` puzzles: copies, jokers, table and
    table jokers (None when no puzzle has them)."""
    arrays = (puzzles.copies, puzzles.jokers, puzzles.table, puzzles.table_jokers)
    for start in range(0, len(chosen), size):
        rows = chosen[start : start + size]
        yield tuple(None if array is None else array[rows] for array in arrays)


def search_piece(piece, game, max_states: int) -> list:
    """The search effort and score of a few puzzles of ``game`` (a worker's task): a list
    of ``(transitions, score)``, score None when no arrangement places the whole table."""
    from rumdiff.puzzle import Puzzles
    from rumdiff.solve import search_effort

    copies, jokers, table, table_jokers = piece
    puzzles = Puzzles(copies, game=game, jokers=jokers, table=table, table_jokers=table_jokers)
    return [
        (effort.transitions, effort.score)
        for effort in (search_effort(puzzle, max_states=max_states) for puzzle in puzzles)
    ]


def _next_block(count: int, found: int, drawn: int, left: int) -> int:
    """Candidates of the next block: enough for the puzzles still missing at the
    acceptance rate so far, with a quarter more (doubling while none is found)."""
    smallest, largest = config.ORDER_BLOCK
    if drawn == 0:
        wanted = 2 * count
    elif found == 0:
        wanted = drawn
    else:
        wanted = math.ceil(1.25 * (count - found) * drawn / found)
    return max(1, min(left, largest, max(smallest, wanted)))


def _ahead(missing: int, found: int, searched: int, work: int) -> float:
    """The transitions still to search for ``missing`` more puzzles, at ``work``
    transitions searched for the ``found`` so far: 0 before any search (nothing is known
    yet), unbounded while none is found."""
    if searched == 0:
        return 0.0
    return math.inf if found == 0 else missing * work / found


def make_to_order(
    count: int,
    low: int,
    high: int | None,
    family: Family | None = None,
    *,
    seed: int = config.SEED,
    max_candidates: int = config.ORDER_MAX_CANDIDATES,
    screen=None,
    screen_work: int = 0,
    jobs: int = 1,
    max_states: int = config.MAX_STATES,
    max_memory_gb: float = config.MAX_MEMORY_GB,
    progress=None,
) -> OrderResult:
    """``count`` distinct random puzzles whose search effort lies in ``[low, high)``.

    Parameters
    ----------
    count : int
        Puzzles wanted, at least 1.
    low, high : int, int or None
        The range of search effort (:func:`effort_range`); ``high`` exclusive, None for
        no upper end.
    family : Family, optional
        The candidates' family (:class:`~rumdiff.data.family.Family`); default
        ``Family()``.
    seed : int
        The candidates' run (:func:`rumdiff.data.generator.generate`).
    max_candidates : int
        Most candidates drawn before giving up.
    screen : callable, optional
        ``screen(puzzles) -> bool array``: which candidates of a block to search; the
        rest are skipped. It never accepts on its own.
    screen_work : int, default 0
        Call ``screen`` only from the block where the searching still ahead is projected
        to reach this many transitions: the transitions searched so far per puzzle
        accepted, times the puzzles still missing (0 before the first block, unbounded
        while none is accepted). Until then every candidate is searched. 0 calls it from
        the first block.
    jobs : int
        Worker processes for the search (-1 every core); results do not depend on it.
    max_states : int
        The reference search's state budget.
    max_memory_gb : float
        Refuse (ValueError) an order that could need more memory (:func:`check_order`).
    progress : callable, optional
        Called after each block with ``(drawn, accepted)``.

    Raises
    ------
    OrderError
        When fewer than ``count`` puzzles in range were found among ``max_candidates``.
    ValueError
        On invalid arguments, or an order :func:`check_order` refuses.
    rumdiff.solve.SolverBudgetError
        When a candidate needs more states than ``max_states``.
    """
    from rumdiff.data.generator import generate
    from rumdiff.processes import WorkerPool
    from rumdiff.puzzle import Puzzles
    from rumdiff.solve import solve

    began = time.perf_counter()
    family = as_family(family)
    limit = check_order(
        count, low, high, family, max_candidates=max_candidates, max_memory_gb=max_memory_gb
    )
    count = whole("count", count, low=1)
    low, high = effort_range(effort=(low, high))
    seen: set[bytes] = set()
    accepted, ids, efforts, scores, blocks = [], [], [], [], []
    drawn = searched = work = 0  # work: transitions searched
    screened_from = None
    searching = 0.0  # seconds searched here, before any worker starts
    lowest = highest = None
    repeating = False  # the draws kept repeating puzzles drawn before: no more to find
    with WorkerPool(jobs) as pool:
        while len(accepted) < count and drawn < limit and not repeating:
            size = _next_block(count, len(accepted), drawn, limit - drawn)
            try:
                block = generate(size, family, seed=seed, start=drawn, seen=seen).puzzles
            except TooFewDistinct as stuck:  # the block's candidates before it are searched
                repeating, size = True, stuck.index - drawn
                if size == 0:
                    break
                block = generate(size, family, seed=seed, start=drawn, seen=seen).puzzles
            if screened_from is None and screen is not None:
                if _ahead(count - len(accepted), len(accepted), searched, work) >= screen_work:
                    screened_from = drawn
            if screened_from is None:
                keep = np.ones(size, dtype=bool)
            else:
                keep = np.asarray(screen(block))
            chosen = np.flatnonzero(keep)
            pieces = _pieces(block, chosen, config.ORDER_TASK)
            tasks = [(piece, block.game, max_states) for piece in pieces]
            if searching < config.SPAWN_SECONDS:  # not yet worth starting workers
                clock = time.perf_counter()
                results = [one for task in tasks for one in search_piece(*task)]
                searching += time.perf_counter() - clock
            else:
                results = [one for part in pool.map(search_piece, tasks) for one in part]
            for row, (transitions, score) in zip(chosen, results, strict=True):
                work += transitions
                lowest = transitions if lowest is None else min(lowest, transitions)
                highest = transitions if highest is None else max(highest, transitions)
                inside = low <= transitions and (high is None or transitions < high)
                if inside and score is not None and len(accepted) < count:
                    accepted.append(block[int(row)])
                    ids.append(drawn + int(row))
                    efforts.append(transitions)
                    scores.append(score)
            blocks.append({"start": drawn, "size": size, "searched": len(chosen)})
            drawn += size
            searched += len(chosen)
            if progress is not None:
                progress(drawn, len(accepted))
    if len(accepted) < count:
        raise _shortfall(count, len(accepted), (low, high), family.shape, drawn, searched,
                         lowest, highest, limit < max_candidates, repeating)  # fmt: skip
    solutions = [solve(puzzle) for puzzle in accepted]
    for solution, score in zip(solutions, scores, strict=True):
        if solution.score != score:  # two exact solvers disagree: a bug, never a result
            raise RuntimeError(f"solver score {solution.score} != search score {score}")
    return OrderResult(
        puzzles=Puzzles.from_list(accepted, source=f"make_to_order(seed={seed})"),
        ids=np.asarray(ids, dtype=np.int64), efforts=np.asarray(efforts, dtype=np.int64),
        solutions=solutions, low=low, high=high, drawn=drawn, searched=searched,
        needed=ids[-1] + 1, lowest=lowest, highest=highest,
        seconds=time.perf_counter() - began, blocks=blocks, screened_from=screened_from,
    )  # fmt: skip


def _shortfall(count, found, bounds, shape, drawn, searched, lowest, highest, every,
               repeating) -> OrderError:  # fmt: skip
    """The OrderError of an order that found too few, when ``every`` distinct puzzle of
    the family was drawn, when the draws kept ``repeating`` those drawn, or neither."""
    low, high = bounds
    verb = "reached" if highest is not None and highest < low else "fell in"
    seen = (
        "none searched"
        if highest is None
        else f"{searched:,} searched; highest effort seen: {highest:,}, lowest: {lowest:,}"
    )
    head = "no puzzle" if found == 0 else f"only {found:,} of {count:,} puzzles"
    if repeating:
        among = (
            f"{drawn:,} candidates, after which {config.GENERATE_MAX_REDRAWS:,} draws in a "
            "row repeated puzzles drawn before"
        )
    else:
        among = f"all {drawn:,} distinct puzzles" if every else f"{drawn:,} candidates"
    message = f"{head} of {shape} {verb} {range_text(low, high)} among {among} ({seen})"
    return OrderError(message, found=found, drawn=drawn, searched=searched, lowest=lowest,
                      highest=highest, exhausted=every or repeating)  # fmt: skip
