"""The DP engine's public pass (rumdiff.solve.engine) against the brute force, and the
solver's trace of its passes against its totals."""

import numpy as np
import pytest
from helpers import random_copies

from rumdiff.data.turns import generate_turns
from rumdiff.puzzle import Game, Puzzle
from rumdiff.solve import search_effort, solve
from rumdiff.solve.engine import Pass, Rules, run_pass
from rumdiff.solve.twins import solve_brute_force


def _tiny_puzzles(seed, count, *, jokers):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        k, m, n = int(rng.integers(3, 5)), int(rng.integers(1, 3)), int(rng.integers(3, 7))
        copies = (rng.random((n, k)) < 0.5) * rng.integers(1, m + 1, (n, k))
        if copies.sum() > 12:
            continue
        if not jokers:
            yield Puzzle(copies, m=m)
            continue
        table = (rng.random((n, k)) < 0.3) * copies
        j = int(rng.integers(0, 3))
        yield Puzzle(copies, m=m, jokers=j, table=table, table_jokers=int(rng.integers(0, j + 1)))


@pytest.mark.parametrize("pruning", ["reference", "fast"])
def test_an_exact_pass_aimed_below_the_optimum_finds_it(pruning):
    # Aimed at 0 (jokers' rules: every arrangement that places the table), an exact pass
    # finds the brute force's optimum, or proves no arrangement places the table.
    checked = infeasible = 0
    for puzzle in _tiny_puzzles(3, 300, jokers=True):
        expected = solve_brute_force(puzzle)
        done = run_pass(puzzle, Rules("jokers", pruning), aim=0)
        if expected is None:
            assert done.status == "not reached" and done.best is None
            infeasible += 1
        else:
            assert (done.status, done.best) == ("ok", expected), puzzle
        checked += 1
    assert checked > 150 and infeasible > 5


@pytest.mark.parametrize("pruning", ["reference", "fast"])
def test_the_plain_rules_find_the_optimum_and_nothing_above_it(pruning):
    for puzzle in _tiny_puzzles(5, 200, jokers=False):
        optimum = solve_brute_force(puzzle)
        found = run_pass(puzzle, Rules("plain", pruning), aim=optimum)
        assert (found.status, found.best) == ("ok", optimum), puzzle
        above = run_pass(puzzle, Rules("plain", pruning), aim=optimum + 1)
        assert above.status == "not reached" and above.best is None


def test_a_beam_that_drops_no_state_is_exact():
    # Aimed at the optimum and one above it, a beam that never filled finds the brute
    # force's optimum, or proves nothing reaches the aim, as an exact pass does.
    whole = {"ok": 0, "not reached": 0}
    cut = 0
    for puzzle in _tiny_puzzles(7, 300, jokers=False):
        optimum = solve_brute_force(puzzle)
        for beam in (1, 2, 4):
            for aim in (optimum, optimum + 1):
                done = run_pass(puzzle, Rules("plain", "fast"), aim=aim, beam=beam)
                if done.cut:
                    cut += 1
                    continue
                expected = ("ok", optimum) if aim == optimum else ("not reached", None)
                assert (done.status, done.best) == expected, (puzzle, beam)
                whole[done.status] += 1
    assert min(whole.values()) > 50 and cut > 50, (whole, cut)
    exact = run_pass(puzzle, Rules("plain", "fast"), aim=0)
    assert exact.cut is False
    assert run_pass(puzzle, Rules("plain", "reference"), aim=0).cut is False
    assert run_pass(puzzle, Rules("jokers", "fast"), aim=0).cut is None


def test_the_reference_pass_counts_what_the_search_counts():
    # A joker puzzle whose table keeps the search to its two passes, aimed at every tile
    # and then at the table's points: the two public passes add up to its effort.
    turns, _, _ = generate_turns(20, Game(4, 2, 13), jokers=2, seed=9)
    for row in range(len(turns)):
        turn = turns[row]
        effort = search_effort(turn)
        first = run_pass(turn, Rules("jokers", "reference"), aim=turn.points)
        if first.status == "ok":
            assert effort.transitions == first.transitions
            continue
        table = int((turn.table_copies.sum(axis=1) * np.arange(1, turn.n + 1)).sum())
        second = run_pass(turn, Rules("jokers", "reference"), aim=table)
        assert effort.transitions == first.transitions + second.transitions
        assert effort.score == second.best


def test_a_beam_pass_profiles_its_steps_and_its_budget_stops_it():
    turn = generate_turns(1, Game(4, 2, 13), jokers=2, seed=4)[0][0]
    done = run_pass(turn, Rules("jokers", "reference"), aim=0, beam=4, profile=True)
    made, kept = done.profile
    assert done.profile.shape == (2, (turn.n + 1) * (turn.k + 1))
    assert (kept <= made).all() and (kept[made > 0] <= 8).all()  # ties keep up to twice
    assert done.states == kept[turn.k :: turn.k + 1].sum()
    stopped = run_pass(turn, Rules("jokers", "reference"), aim=0, budget=(3, 1000))
    assert stopped.status == "over budget" and stopped.best is None
    assert isinstance(stopped, Pass) and stopped.profile is None


def test_run_pass_refuses_what_it_cannot_run():
    puzzle = Puzzle.from_tiles([(1, 0), (2, 0), (3, 0)], k=3, m=1, n=3, jokers=1)
    with pytest.raises(ValueError, match="plain rules know no jokers"):
        run_pass(puzzle, Rules("plain", "fast"), aim=0)
    with pytest.raises(ValueError, match="beam must be 0"):
        run_pass(Puzzle(puzzle.copies, m=1), Rules("plain", "reference"), aim=0, beam=4)
    with pytest.raises(ValueError):
        Rules("wild", "fast")
    with pytest.raises(TypeError):
        run_pass(puzzle.copies, aim=0)


@pytest.mark.parametrize(("k", "m"), [(4, 2), (5, 3)])
def test_the_trace_adds_up_to_the_solves_work(k, m):
    # Every pass the solver ran, in order: their states and transitions are its work,
    # their exact passes its exact passes, and what a pass found reaches its aim.
    rng = np.random.default_rng(21 + k)
    for _ in range(10):
        copies = random_copies(rng, k=k, m=m, n=60)
        solution = solve(Puzzle(copies, m=m), trace=True)
        trace = solution.work.trace
        assert sum(t.states for t in trace) == solution.work.states
        assert sum(t.transitions for t in trace) == solution.work.transitions
        exact = [t for t in trace if "exact" in t.kind]
        assert len(exact) == solution.work.exact_passes
        assert all((t.best is None) == (t.status != "ok") for t in trace)
        assert all(t.best >= t.aim for t in trace if t.best is not None)
    assert solve(Puzzle(copies, m=m)).work.trace is None


def test_a_joker_solution_has_no_stand_in_fields():
    # No splitting, no removal with jokers: those fields do not apply. The bounds are the
    # ones the passes ran between.
    rack = [(v, 0) for v in (3, 4, 5)] + [(9, 1), (9, 2)]
    solution = solve(Puzzle.from_tiles(rack, k=4, m=2, n=13, jokers=1))
    assert (solution.removed, solution.segments, solution.dp_segments) == (None, None, None)
    assert solution.lower == solve(Puzzle.from_tiles(rack, k=4, m=2, n=13)).score
    assert solution.lower <= solution.score <= solution.upper
    table = solve(Puzzle.from_tiles(rack, k=4, m=2, n=13, table=[(1, 0), (2, 0), (3, 1)]))
    assert table.lower is None and table.score is None
