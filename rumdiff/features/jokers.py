"""The joker features: what jokers and the table change for the solver.

Puzzles with jokers or a table go to the DP with a joker dimension, which switches off
isolated-tile removal, splitting and the per-value bounds (docs/decisions/jokers.md).
These features measure what it faces instead: how many jokers and table tiles there
are, a valid upper and lower bound on the score with jokers, and how many tiles a
joker would make placeable. The evidence is in docs/decisions/features.md.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import Puzzle, Puzzles

__all__ = ["JOKER_FEATURES", "as_puzzles", "joker_features"]

#: The joker features, in column order: what each measures and why it should predict
#: the joker DP's effort. "Placeable" copies of a cell are the most copies valid sets can
#: hold at once, each set drawn from the puzzle's regular tiles (rack and table alike).
JOKER_FEATURES = {
    "jokers": "jokers, rack and table together: each adds run slots to every colour's "
    "state, so the joker DP's state space grows with them.",
    "table_jokers": "jokers on the table, which must be placed: they forbid leaving "
    "those jokers aside.",
    "table_tiles": "regular tiles on the table, which must all be placed: the more, the "
    "more partial arrangements the DP must drop as infeasible.",
    "rack_tiles": "regular tiles on the rack, which may stay unplaced: the choices left.",
    "table_points": "points of the table's regular tiles: every feasible arrangement places them.",
    "joker_lower": "a lower bound on the score with jokers: without a table the "
    "joker-free solver_lower (jokers may stay on the rack); with a table (tiles or "
    "jokers) only table_points, valid when the puzzle is feasible.",
    "joker_upper": "an upper bound on the score with j jokers: per cell, the value times "
    "the copies valid sets can hold at once, exact for j <= 1 and one more copy per "
    "further joker.",
    "joker_gap": "joker_upper - joker_lower: what the joker DP must close (it prunes by "
    "points only); negative proves the table cannot be placed whole.",
    "joker_placeable": "copies placeable with one joker but not without (the joker-free "
    "removal's removed copies that a run gap or a group's missing colour would rescue): "
    "the choices a joker opens that the joker-free solver would have removed.",
    "joker_placeable_points": "the points of those copies.",
    "joker_bridges": "missing tiles with both neighbours of their colour present: a "
    "joker there joins two stretches into one run, which is why the joker DP cannot "
    "split at gaps.",
    "joker_groups": "values with exactly s - 1 = 2 colours present (k >= 3): no group "
    "without a joker, one with it.",
    "table_needs_joker": "table copies beyond what valid sets can hold without jokers: "
    "each needs a joker in its set, so they pin the jokers (without jokers the table "
    "cannot be placed whole).",
    "table_blocked": "table copies beyond what joker_upper lets valid sets hold: "
    "positive proves the table cannot be placed whole (the DP answers infeasible, "
    "usually after little work).",
    "joker_bound_met": "1 when the first pass of the reference search's joker DP, stopped "
    "after config.FEATURE_JOKER_BOUND_STATES states, finds an arrangement that places "
    "every tile: the search then ends after that pass, or never needs it when the "
    "joker-free optimum already places every tile (0 for a puzzle without jokers or a "
    "table, which never runs the joker DP).",
    "joker_bound_refuted": "1 when that bounded pass proves that no arrangement places "
    "every tile: the search needs a second pass, aimed at the lower bound, which prunes "
    "far less.",
    "joker_bound_transitions": "transitions that bounded pass tried: the partial "
    "arrangements that have lost no tile yet, a sample of the search's space taken "
    "where it is narrowest, which grows with the space the second pass must walk.",
    "joker_probe_growth": "a probe of the search's second pass that keeps only "
    "config.FEATURE_PROBE_WIDTH states after each step, aimed at joker_lower (on a turn "
    "the table's points, the search's own aim; without a table a weaker stand-in for the "
    "joker-free optimum the search aims at): log10 of the product of what each step made "
    "of the states kept the step before, which telescopes to the last step's states "
    "times how much the beam cut at each step, so it grows with how much wider the "
    "unbeamed pass runs than the probe (0 when the beam never cut and the pass closed in "
    "one state; 0 for a puzzle without jokers or a table).",
    "joker_probe_transitions": "transitions that probe tried: at most a fixed sample, "
    "all of the second pass when it never holds more states than the probe keeps.",
}


def as_puzzles(copies, *, m: int) -> Puzzles:
    """``copies`` as a checked :class:`~rumdiff.puzzle.Puzzles` (jokers and table kept).

    Parameters
    ----------
    copies : Puzzles, Puzzle or array_like of shape (puzzles, n, k)
        The puzzles; a plain array has neither jokers nor a table.
    m : int
        Most copies of a tile; must match the puzzles' own m when they carry one.
    """
    if isinstance(copies, Puzzle):
        copies = Puzzles.from_list([copies])
    if isinstance(copies, Puzzles):
        if copies.m != m:
            raise ValueError(f"the puzzles have m={copies.m}, but m={m} was given")
        return copies
    array = np.asarray(copies)
    if array.ndim != 3:
        raise ValueError(f"copies must have shape (puzzles, n, k), got {array.shape}")
    return Puzzles(array, m=m)


def joker_features(puzzles: Puzzles) -> dict[str, np.ndarray]:
    """The joker features of a stack of puzzles, column by column.

    Wraps the kernel ``rumdiff.features._jokers.joker_stack``; the ``joker_bound_*`` and
    ``joker_probe_*`` columns come from passes of the DP engine
    (:func:`rumdiff.solve.engine.run_pass`).

    Parameters
    ----------
    puzzles : Puzzles or Puzzle
        The puzzles, with their jokers and tables if they have them.

    Returns
    -------
    dict of str to ndarray
        One array per name of :data:`JOKER_FEATURES`, in order: int64, but float64 for
        ``joker_probe_growth``.
    """
    from rumdiff.features import _jokers as kernels
    from rumdiff.solve.groups import group_value_table
    from rumdiff.solve.runstates import run_states

    if isinstance(puzzles, Puzzle):
        puzzles = Puzzles.from_list([puzzles])
    if not isinstance(puzzles, Puzzles):
        raise TypeError(f"joker_features takes Puzzles, got {type(puzzles).__name__}")
    count, m = len(puzzles), puzzles.m
    none = np.zeros(count, dtype=np.int64)
    table = puzzles.table
    if table is None:
        table = np.zeros_like(puzzles.copies)
        # Read-only, as a puzzle's own table is: one signature for puzzles with a table
        # and without, so the kernel compiles once for both.
        table.flags.writeable = False
    jokers = none if puzzles.jokers is None else puzzles.jokers.astype(np.int64)
    table_jokers = none if puzzles.table_jokers is None else puzzles.table_jokers.astype(np.int64)
    out = np.zeros((count, len(kernels.JOKER_COLUMNS)), dtype=np.int64)
    gv = group_value_table(puzzles.k, m)
    tables = run_states(m).kernel_tables
    kernels.joker_stack(puzzles.copies, table, jokers, table_jokers, m, config.S, gv, tables, out)
    columns = dict(zip(kernels.JOKER_COLUMNS, out.T, strict=True))
    columns["joker_gap"] = columns["joker_upper"] - columns["joker_lower"]
    bound = _joker_bound(puzzles, jokers, columns["joker_lower"])
    for column, name in enumerate(_BOUND_COLUMNS):
        columns[name] = bound[:, column]
        if name != "joker_probe_growth":
            columns[name] = columns[name].astype(np.int64)
    return {name: np.ascontiguousarray(columns[name]) for name in JOKER_FEATURES}


#: The columns of :func:`_joker_bound`, in order.
_BOUND_COLUMNS = (
    "joker_bound_met", "joker_bound_refuted", "joker_bound_transitions",
    "joker_probe_growth", "joker_probe_transitions",
)  # fmt: skip


def _joker_bound(puzzles: Puzzles, jokers, lower) -> np.ndarray:
    """:data:`_BOUND_COLUMNS` of the reference search's first joker pass, bounded, and a
    beam probe of its second, aimed at ``lower``, one row per puzzle (zeros for puzzles
    without jokers or a table).

    The first pass aims at every regular tile placed and drops a state as soon as it has
    lost a point, as the reference search does first (``rumdiff.solve.search``), stopped
    after ``config.FEATURE_JOKER_BOUND_STATES`` states. ``met``: it found an arrangement
    placing every tile; ``refuted``: it proved there is none; neither: the budget ran out
    first. The probe walks the second pass, aimed at ``lower[p]`` (on a turn the table's
    points, the search's own aim), keeping only ``config.FEATURE_PROBE_WIDTH`` states
    (the solver's beam) after each step; ``growth``: see
    ``rumdiff.features._jokers.probe_growth``.
    """
    from rumdiff.features._jokers import probe_growth
    from rumdiff.solve.engine import Rules, run_pass

    out = np.zeros((len(puzzles), len(_BOUND_COLUMNS)), dtype=np.float64)
    rules = Rules("jokers", "reference")
    bounded = (config.FEATURE_JOKER_BOUND_STATES, config.MAX_LIVE_STATES)
    unbounded = (config.MAX_LIVE_STATES, config.MAX_LIVE_STATES)
    width = max(1, config.FEATURE_PROBE_WIDTH)  # (a width of 0: no beam at all)
    for p in np.flatnonzero((jokers > 0) | puzzles.tabled).tolist():
        puzzle = puzzles[p]
        first = run_pass(puzzle, rules, aim=puzzle.points, budget=bounded)
        probe = run_pass(
            puzzle, rules, aim=int(lower[p]), beam=width, budget=unbounded, profile=True
        )
        out[p] = (
            first.status == "ok", first.status == "not reached", first.transitions,
            probe_growth(probe.profile), probe.transitions,
        )  # fmt: skip
    return out
