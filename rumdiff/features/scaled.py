"""The feature set that compares across families: every feature in units that mean the
same thing whatever k, m and n, and k, m, n and j
(``family_k``, ``family_m``, ``family_n``, ``jokers``) themselves.

A count of values means something else when n is 13 than when it is 200, a count of
tiles when the puzzle holds 40 tiles or 1,200, and a gap in points when the values run
to 13 or to 200. :func:`scaled_features` turns the ``"all"`` and joker features of one
family's puzzles into shares: values per value (divided by n), tiles per tile, points
per point. Sizes of the search space (run states, the transitions a search would try,
the nodes a bounded search visited) keep their units: they count what the search effort
counts, on one absolute scale. A forest trained on these columns can learn one scale of
difficulty over many families (README, "One scale for every family").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SCALED_FEATURES", "scaled_features"]

#: Each scaled feature and what it measures, in column order.
SCALED_FEATURES = {
    "family_k": "colours of the family",
    "family_m": "most copies of a tile in the family",
    "family_n": "values of the family: with k and m, the size of the problem",
    "jokers": "jokers of the puzzle, rack and table together",
    "table_share": "share of the puzzle's tiles that lie on the table and must be placed",
    "tile_share": "tiles of the puzzle per tile of the full game (n * k * m copies)",
    "pct_0_copies": "percent of the n x k cells with no copy after removal",
    "pct_1_copy": "percent of cells with one copy after removal",
    "pct_2_copies": "percent of cells with two copies after removal (0 when m = 1)",
    "pct_3_copies": "percent of cells with three copies after removal (0 when m < 3)",
    "run_and_group_share": "tiles that fit both a group and a 3-run, per tile",
    "surplus_share": "the thesis's tile surplus per tile",
    "removed_share": "copies no run or group can use, per tile",
    "gap_tile_share": "the solver's bound gap in tiles, per tile",
    "dp_tile_share": "tiles in the segments the DP must search, per tile",
    "runs_tile_share": "most tiles runs alone can place, per tile",
    "groups_tile_share": "tiles groups alone place, per tile",
    "bound_gap_share": "the thesis's bound gap per point of the puzzle",
    "gap_share": "the solver's bound gap per point (solver_gap_ratio)",
    "greedy_gap_share": "what a width-1 beam leaves of the gap, per point",
    "ascent_gap_share": "what one round of colour-by-colour best responses leaves, per point",
    "joker_gap_share": "the joker bounds' gap per point",
    "joker_placeable_share": "copies a joker would make placeable, per tile",
    "segments_per_value": "independent segments after removal, per value",
    "largest_segment_share": "values in the largest segment, per value",
    "dp_value_share": "values in the segments the DP must search, per value",
    "nonclearable_share": "values whose tiles cannot all go into groups, per value",
    "contested_share": "values that are not clearable but can form a group, per value",
    "full_share": "values where every colour has m copies, per value",
    "full_streak_share": "the longest stretch of full values, per value",
    "bridge_share": "missing tiles a joker would bridge, per value",
    "joker_group_share": "values where a joker would make a group possible, per value",
    "dp_segments": "segments whose bounds do not meet, so the DP runs on them",
    "bound_met": "of those, segments where an arrangement meets the upper bound",
    "bound_refuted": "segments where a bounded search proves the upper bound out of reach",
    "bound_open": "segments the bounded search left undecided",
    "bound_nodes": "nodes that bounded search visited (a search size, unscaled)",
    "colour_run_states": "reachable per-colour run states (a search size, unscaled)",
    "run_states": "joint run states summed over values (a search size, unscaled)",
    "dp_run_states": "joint run states of the segments the DP must search (unscaled)",
    "unpruned_transitions": "transitions the reference search would try unpruned (unscaled)",
    "table_blocked": "table copies beyond what valid sets can hold: proves infeasible",
    "joker_bound_met": "the joker DP's first pass, bounded, places every tile (0 or 1)",
    "joker_bound_refuted": "that bounded pass proves no arrangement places every tile",
    "joker_bound_transitions": "transitions that bounded pass tried (a search size, unscaled)",
    "joker_probe_growth": "log10 of how much a beam probe of the second pass had to cut",
    "joker_probe_transitions": "transitions that probe tried (a search size, unscaled)",
}


#: The thesis's percentages, one per copy count 0..config.MAX_M.
_PERCENTAGES = ("pct_0_copies", "pct_1_copy", "pct_2_copies", "pct_3_copies")
#: Features kept in their own units: counts of segments, and sizes of the search space,
#: which count what the search effort counts.
_UNSCALED = (
    "dp_segments",
    "bound_met",
    "bound_refuted",
    "bound_open",
    "bound_nodes",
    "colour_run_states",
    "run_states",
    "dp_run_states",
    "unpruned_transitions",
    "table_blocked",
    "joker_bound_met",
    "joker_bound_refuted",
    "joker_bound_transitions",
    "joker_probe_growth",
    "joker_probe_transitions",
)


def _share(part, whole) -> np.ndarray:
    """``part / whole`` as float64, 0 where ``whole`` is 0."""
    part = np.asarray(part, dtype=np.float64)
    whole = np.broadcast_to(np.asarray(whole, dtype=np.float64), part.shape)
    out = np.zeros_like(part)
    np.divide(part, whole, out=out, where=whole != 0)
    return out


def scaled_features(base: pd.DataFrame, game) -> pd.DataFrame:
    """The scaled features of one game's puzzles, from their base features.

    Parameters
    ----------
    base : DataFrame
        The puzzles' ``"all"`` features followed by the joker features
        (:func:`rumdiff.features.compute_features` with ``feature_set="all",
        jokers=True``).
    game : Game
        The puzzles' game (:class:`~rumdiff.puzzle.Game`): its k, m and n.

    Returns
    -------
    DataFrame
        Columns :data:`SCALED_FEATURES` in order, float64, one row per puzzle.
    """
    k, m, n = game.k, game.m, game.n
    tiles = base["tiles"].to_numpy(np.float64) + base["jokers"].to_numpy(np.float64)
    points = base["points"]
    rows = len(base)

    def pct(copies: int):
        return base[_PERCENTAGES[copies]] if copies <= m else np.zeros(rows)

    table = base["table_tiles"] + base["table_jokers"]
    columns = {
        "family_k": np.full(rows, k),
        "family_m": np.full(rows, m),
        "family_n": np.full(rows, n),
        "jokers": base["jokers"],
        "table_share": _share(table, tiles),
        "tile_share": _share(tiles, n * k * m),
        **{name: pct(copies) for copies, name in enumerate(_PERCENTAGES)},
        "run_and_group_share": _share(base["tiles_in_run_and_group"], tiles),
        "surplus_share": _share(base["tile_surplus"], tiles),
        "removed_share": _share(base["removed"], tiles),
        "gap_tile_share": _share(base["solver_gap_tiles"], tiles),
        "dp_tile_share": _share(base["dp_tiles"], tiles),
        "runs_tile_share": _share(base["runs_only_tiles"], tiles),
        "groups_tile_share": _share(base["groups_only_tiles"], tiles),
        "bound_gap_share": _share(base["bound_gap"], points),
        "gap_share": base["solver_gap_ratio"],
        "greedy_gap_share": _share(base["greedy_gap"], points),
        "ascent_gap_share": _share(base["ascent_gap"], points),
        "joker_gap_share": _share(base["joker_gap"], points),
        "joker_placeable_share": _share(base["joker_placeable"], tiles),
        "segments_per_value": _share(base["segments"], n),
        "largest_segment_share": _share(base["largest_segment"], n),
        "dp_value_share": _share(base["dp_values"], n),
        "nonclearable_share": _share(base["nonclearable_values"], n),
        "contested_share": _share(base["contested_values"], n),
        "full_share": _share(base["full_values"], n),
        "full_streak_share": _share(base["longest_full_streak"], n),
        "bridge_share": _share(base["joker_bridges"], n),
        "joker_group_share": _share(base["joker_groups"], n),
    }
    columns.update({name: base[name] for name in _UNSCALED})
    import pandas as pd  # (here: rumdiff features' other sets never import pandas)

    frame = pd.DataFrame({name: columns[name] for name in SCALED_FEATURES})
    return frame.astype(np.float64)
