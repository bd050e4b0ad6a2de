"""The extended pre-solve features: what the solver's DP will actually face.

Computed on the puzzle left by the solver's own provably safe isolated-tile removal and
splitting, with the solver's own bounds (the exact runs-only optimum per segment), plus
two cheap searches for an arrangement that meets the upper bound. Which features are
kept, and the evidence, are in docs/decisions/features.md.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle import as_stack

__all__ = ["EXTENDED_FEATURES", "extended_features"]

#: The extended features, in column order: what each measures and why it should predict
#: solver effort. "After removal" means after the solver's own removal
#: (``rumdiff.solve._tiles.remove_isolated``); "segments" are the solver's.
EXTENDED_FEATURES = {
    "tiles": "tiles in the puzzle as given: the raw size of the problem.",
    "points": "sum of the tile values as given: the scale of scores and gaps.",
    "removed": "copies no run or group can use (our removal; the solver's Solution.removed)"
    ": removed tiles are work the DP never sees.",
    "segments": "independent segments after removal and splitting (Solution.segments): "
    "many short segments mean many small, cheap DPs.",
    "largest_segment": "values in the largest segment: the DP's cost grows with the "
    "length it must run through.",
    "nonclearable_values": "values whose tiles cannot all go into groups (after removal): "
    "only these leave the solver choices.",
    "contested_values": "values that are not clearable but can form a group: tiles there "
    "may go to a group or to runs, the interplay the DP has to explore.",
    "full_values": "values where every colour has m copies: always clearable, so they "
    "simplify the puzzle.",
    "longest_full_streak": "most consecutive full values: long full stretches solve by "
    "groups alone.",
    "groups_only": "groups-only score (value x group value, after removal).",
    "groups_only_tiles": "tiles placed by groups only.",
    "runs_only": "exact runs-only optimum (per-colour DP over run states, after removal); "
    "the thesis's rules only bound it from below.",
    "runs_only_tiles": "most tiles that runs alone can place (the same DP counting tiles).",
    "solver_lower": "the solver's lower bound: per segment, max(runs only, groups only), "
    "summed (Solution.lower).",
    "solver_upper": "the solver's upper bound: per segment, min(runs only + groups only, "
    "per-value bounds), summed (Solution.upper).",
    "solver_gap": "solver_upper - solver_lower: zero means the solver does no DP work; "
    "the gap is what the beam search and the pruned DP must close.",
    "solver_gap_tiles": "the same gap counted in tiles (each tile weighs 1): the gap free of "
    "the bias of tile values.",
    "solver_gap_ratio": "solver_gap / points (0 without points): the gap relative to "
    "the puzzle's scale, as pruning works relative to it.",
    "dp_segments": "segments whose bounds do not meet, so the DP runs on them "
    "(Solution.dp_segments): zero means no DP work at all.",
    "dp_values": "values in those segments: the length the DP runs over.",
    "dp_tiles": "tiles in those segments.",
    "colour_run_states": "reachable per-colour run states summed over values and colours "
    "(thesis 5.1's state counting, on the DP's own encoding, any m).",
    "run_states": "per value, the product over colours of the reachable run states, summed "
    "over values: a cheap estimate of the DP's joint state space.",
    "dp_run_states": "run_states restricted to the segments that need the DP: the state "
    "space the solver actually explores before pruning.",
    "greedy_gap": "solver_upper minus the score of a beam search of width 1 in the solver's "
    "DP (the best joint state kept after each value; kept only where it beats "
    "solver_lower): where so cheap a search already reaches the upper bound, the solver's "
    "own passes close the gap fast; where it does not, the optimum may lie below the bound "
    "and the exact DP must prove it, at many times the work. The best single separator of "
    "medium from hard puzzles.",
    "greedy_gain": "what that greedy search adds to solver_lower.",
    "ascent_gap": "solver_upper minus the score after one round of colour-by-colour best "
    "responses from the greedy's arrangement (each colour's exact best runs given the "
    "others', groups on the leftovers): it closes gaps the greedy leaves; a gap neither "
    "closes hints at an optimum below the upper bound.",
    "ascent_gain": "what that ascent adds to solver_lower.",
    "unpruned_transitions": "transitions the reference search's first pass would try if it "
    "pruned nothing (every combination of each colour's reachable run states, summed over "
    "the values and colours of the segments that need the DP): the size of the search, "
    "before the bounds cut it.",
    "bound_met": "segments that need the DP where an arrangement meets the upper bound: "
    "found by the greedy or the ascent, or by a depth-first search of at most "
    "config.FEATURE_BOUND_NODES nodes in the reference search's own states and bound. "
    "Where the optimum meets the bound, the reference search stops after one pass.",
    "bound_refuted": "segments where that depth-first search proves that no arrangement "
    "meets the upper bound: the reference search then needs two more passes to prove "
    "its optimum, which can double its work.",
    "bound_open": "segments where the depth-first search ran out of nodes undecided "
    "(most of them in fact have an optimum below the bound).",
    "bound_nodes": "nodes that depth-first search visited.",
}


def extended_features(copies, *, m: int) -> dict[str, np.ndarray]:
    """The extended features of a stack of puzzles, column by column.

    Wraps the kernel ``rumdiff.features._extended.extended_stack``.

    Parameters
    ----------
    copies : Puzzles or array_like of shape (puzzles, n, k)
        The puzzles; see :func:`rumdiff.puzzle.as_stack`.
    m : int
        Most copies of a tile.

    Returns
    -------
    dict of str to ndarray
        One array per name of :data:`EXTENDED_FEATURES`, in order: int64, except
        ``solver_gap_ratio`` (float64).
    """
    from rumdiff.features import _extended as kernels
    from rumdiff.solve.groups import group_value_table
    from rumdiff.solve.runstates import run_states

    stack = as_stack(copies, m=m)
    count, n, k = stack.shape
    tables = run_states(m)
    source = np.repeat(np.arange(tables.size), np.diff(tables.first))
    out = np.zeros((count, len(kernels.EXTENDED_COLUMNS)), dtype=np.int64)
    gv = group_value_table(k, m)
    budget = config.FEATURE_BOUND_NODES
    kernels.extended_stack(stack, m, config.S, gv, tables.kernel_tables, source, budget, out)
    columns = dict(zip(kernels.EXTENDED_COLUMNS, out.T, strict=True))
    upper, lower = columns["solver_upper"], columns["solver_lower"]
    columns["solver_gap_ratio"] = columns["solver_gap"] / np.maximum(columns["points"], 1)
    for name in ("greedy", "ascent"):
        columns[f"{name}_gap"] = upper - columns[f"{name}_lower"]
        columns[f"{name}_gain"] = columns[f"{name}_lower"] - lower
    return {name: columns[name] for name in EXTENDED_FEATURES}
