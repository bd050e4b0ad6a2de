"""The reference search of puzzles with jokers or a table: its counts against the stored
definition (docs/search-effort.md, "Jokers and the table"), its scores against the
solver and the brute force, and how it is made of the joker-free search and the DP."""

from __future__ import annotations

import numpy as np
import pytest
from make_golden import read_golden

from rumdiff.puzzle import Puzzle, decode_games
from rumdiff.solve import search_effort, solve
from rumdiff.solve.search import joker_passes
from rumdiff.solve.twins import solve_brute_force


def _stored():
    rows = read_golden("search_jokers.csv.gz")
    for row in rows:
        k, m, n = int(row["k"]), int(row["m"]), int(row["n"])
        yield decode_games([row["puzzle"]], k, n, m=m)[0], row


def test_equals_the_stored_definition():
    # 156 puzzles: turns, rack jokers up to G(4, 2, 100), small random tables (some
    # infeasible); tests/make_golden.py says how they were made.
    count = 0
    for puzzle, row in _stored():
        effort = search_effort(puzzle)
        score = "infeasible" if effort.score is None else str(effort.score)
        found = (score, effort.states, effort.transitions, effort.passes, effort.method)
        stored = (row["score"], int(row["states"]), int(row["transitions"]),
                  int(row["passes"]), row["method"])  # fmt: skip
        assert found == stored, repr(puzzle)
        count += 1
    assert count == 156


def test_scores_equal_the_solver_and_the_brute_force():
    infeasible = 0
    for puzzle, row in _stored():
        score = solve(puzzle).score
        assert row["score"] == ("infeasible" if score is None else str(score))
        if puzzle.copies.sum() + puzzle.jokers <= 14:
            brute = solve_brute_force(puzzle)
            assert row["score"] == ("infeasible" if brute is None else str(brute))
        infeasible += score is None
    assert infeasible > 0  # the stored cases include tables that cannot be placed


def test_without_a_table_it_adds_the_joker_free_search_to_the_dp():
    rng = np.random.default_rng(5)
    for _ in range(10):
        copies = rng.integers(0, 3, size=(20, 4))
        puzzle = Puzzle(copies, m=2, jokers=int(rng.integers(1, 3)))
        plain = search_effort(Puzzle(copies, m=2))
        effort = search_effort(puzzle)
        assert effort.lower == plain.score and effort.upper == puzzle.points
        if plain.score == puzzle.points:  # every tile placed already: settled
            assert (effort.transitions, effort.method) == (plain.transitions, "bounds")
            continue
        dp = joker_passes(puzzle, plain.score, max_states=10**7)
        assert effort.transitions == plain.transitions + dp[2]
        assert effort.states == plain.states + dp[1]
        assert effort.method == "dp"


@pytest.mark.parametrize(
    ("tiles", "table", "score"),
    [
        # The table's 4b 5b 6b J must stay: its points are the lower bound, reached.
        ([], ["4b", "5b", "6b", "J"], 15),
        # Nothing places 1b 1g on the table: infeasible.
        ([], ["1b", "1g"], None),
        # A rack joker lets 5b 5g join a group: more than the joker-free 0.
        (["5b", "5g", "J"], [], 10),
    ],
)
def test_hand_cases(tiles, table, score):
    def parse(token):
        return token if token == "J" else (int(token[:-1]), "bgry".index(token[-1]))

    puzzle = Puzzle.from_tiles([parse(t) for t in tiles], k=4, m=2, n=8,
                               table=[parse(t) for t in table])  # fmt: skip
    effort = search_effort(puzzle)
    assert effort.score == score
    assert effort.method == "dp" and effort.transitions > 0
