"""Jokers and the table: the DP against the brute force and the ILP, hand cases, format."""

import numpy as np
import pytest
from helpers import joker_groups_exhaustive, tiny_joker_puzzle
from make_golden import read_golden, read_tile_line

from rumdiff import config
from rumdiff.data.turns import draw_turn
from rumdiff.puzzle import Game, Puzzle, PuzzleFileError, Puzzles, format_puzzles, parse_puzzles
from rumdiff.solve import solve
from rumdiff.solve.arrangement import InvalidArrangement
from rumdiff.solve.engine import STATUSES
from rumdiff.solve.engine._loop import OK, OVER_BUDGET
from rumdiff.solve.groups import joker_group_table, pair_code
from rumdiff.solve.jokers import run_joker_dp
from rumdiff.solve.search import joker_passes
from rumdiff.solve.twins import solve_brute_force, solve_ilp

P = Puzzle.from_tiles


def _answer(solution_or_arrangement, puzzle, objective):
    """What the twins return, from a solution of the DP or an arrangement of the ILP."""
    found = getattr(solution_or_arrangement, "arrangement", solution_or_arrangement)
    if found is None:
        return None
    score = found.check(puzzle)
    if objective == "value":
        return score
    tiles = sum(r.tiles for r in found.runs) + sum(g.tiles for g in found.groups)
    return tiles - int(puzzle.table_copies.sum()), score


@pytest.mark.parametrize("kind", ["random table", "valid sets", "jokers alone"])
@pytest.mark.parametrize("objective", ["value", "tiles"])
def test_dp_equals_brute_force(kind, objective):
    rng = np.random.default_rng(22)
    compared = feasible = 0
    while compared < 600:
        puzzle = tiny_joker_puzzle(rng, kind)
        if puzzle.tiles > 12:
            continue
        compared += 1
        expected = solve_brute_force(puzzle, objective=objective)
        assert _answer(solve(puzzle, objective=objective), puzzle, objective) == expected, puzzle
        feasible += expected is not None
    assert feasible > 50  # the comparison is not all infeasible puzzles


@pytest.mark.parametrize("objective", ["value", "tiles"])
def test_ilp_equals_brute_force(objective):
    rng = np.random.default_rng(23)
    for index in range(150):
        puzzle = tiny_joker_puzzle(rng, ["random table", "valid sets", "jokers alone"][index % 3])
        if puzzle.tiles > 12:
            continue
        expected = solve_brute_force(puzzle, objective=objective)
        assert _answer(solve_ilp(puzzle, objective=objective), puzzle, objective) == expected


def test_dp_equals_ilp_on_turns():
    rng = np.random.default_rng(24)
    for _ in range(25):
        turn = draw_turn(rng, sets=int(rng.integers(3, 13)))
        assert solve(turn).score == _answer(solve_ilp(turn), turn, "value")


def test_dp_equals_ilp_with_jokers_and_drawn_shares():
    rng = np.random.default_rng(25)
    for _ in range(6):
        copies = rng.choice(3, size=(30, 4), p=rng.dirichlet(np.ones(3)))
        puzzle = Puzzle(copies, m=2, jokers=int(rng.integers(1, 3)))
        assert solve(puzzle).score == _answer(solve_ilp(puzzle), puzzle, "value")


def test_dp_equals_the_stored_ilp_scores():
    # Turns, G(4, 2, 30) with drawn shares and tiny tables with the ILP's score or
    # "infeasible" (tests/make_golden.py writes them).
    rows = read_golden("ilp_jokers.csv.gz")
    assert len(rows) == 100
    assert sum(row["score"] == "infeasible" for row in rows) >= 3
    for row in rows:
        puzzle = read_tile_line(row["puzzle"], int(row["k"]), int(row["m"]), int(row["n"]))
        expected = None if row["score"] == "infeasible" else int(row["score"])
        assert solve(puzzle).score == expected, row


def test_reference_search_work_is_unchanged():
    # The reference search's joker passes are what difficulty for joker puzzles counts:
    # their answer and work are those of commit 6c81830, whatever the fast path does.
    rows = read_golden("joker_work.csv.gz")
    assert len(rows) == 48
    assert sum(row["status"] != "0" for row in rows) >= 2  # an infeasible one too
    for row in rows:
        puzzle = read_tile_line(row["puzzle"], int(row["k"]), int(row["m"]), int(row["n"]))
        *work, status = joker_passes(puzzle, int(row["lower"]))
        names = ["best", "states", "transitions", "passes", "status"]
        got = (*work, STATUSES.index(status))
        assert got == tuple(int(row[name]) for name in names), row


@pytest.mark.parametrize(
    ("puzzle", "score"),
    [
        (P([], table=[(4, 0), (5, 0), (6, 0), "J"], n=13), 15),  # a joker ends a run
        (P([], table=[(5, 0), (5, 1), (5, 2), "J"], n=13), 15),  # a joker in a group of 4
        (P([], table=[(5, 0), (5, 1), (5, 2), "J"], k=3, m=1, n=13), None),  # no 4th colour
        # A joker for 3b, whose only copy is in a run already (m = 1):
        (P([], table=[(v, 0) for v in range(1, 6)] + ["J"], k=3, m=1, n=5), 15),
        (P([(1, 0), (2, 0)], table=["J"], k=3, m=1, n=2), None),  # 1b 2b J needs n >= 3
        (P([(1, 0), (2, 0)], table=["J"], k=3, m=1, n=3), 3),
        (P([], jokers=1, table=["J", "J", "J"], n=13), 0),  # jokers alone form a set
        (P([(13, 0)], table=["J", "J"], n=13), 13),  # 11b 12b 13b or 13b with 13g 13r
    ],
)
def test_hand_cases(puzzle, score):
    solution = solve(puzzle)
    assert solution.score == score
    assert solve_brute_force(puzzle) == score
    if score is not None:
        assert solution.arrangement.check(puzzle) == score


def test_show_marks_what_a_joker_stands_for():
    solution = solve(P([], table=[(5, 0), (5, 1), (5, 2), "J"], n=13))
    assert str(solution.arrangement) == "group 5b 5g 5r J=5y"


def test_check_refuses_an_unplaced_table_tile_or_joker():
    from rumdiff.solve.arrangement import Arrangement, Run

    puzzle = P([(1, 0), (2, 0), (3, 0)], table=[(4, 0), "J"], n=13)
    with pytest.raises(InvalidArrangement, match="table tile 4b"):
        Arrangement((Run(0, 1, 3, (3,)),)).check(puzzle)
    with pytest.raises(InvalidArrangement, match="table joker"):
        Arrangement((Run(0, 2, 4),)).check(puzzle)
    assert Arrangement((Run(0, 1, 5, (5,)),)).check(puzzle) == 10


def test_joker_group_table_matches_an_exhaustive_search():
    from itertools import product

    k, m, j = 4, 2, 2
    table = joker_group_table(k, m, j)
    pairs = [(left, req) for left in range(m + 1) for req in range(left + 1)]
    for combo in product(pairs, repeat=k):
        index = sum(pair_code(*pair) * len(pairs) ** c for c, pair in enumerate(combo))
        for g in range(j + 1):
            left, required = zip(*combo, strict=True)
            assert table[index, g] == joker_groups_exhaustive(left, required, g), (combo, g)


def test_file_format_reads_jokers_and_a_table():
    text = "2\n16\n2b 2b 2r J 8g 8r | 1b 1g 1r 4b 4g 4r 9b 10b 11b J\n3\n1b 2b 3b\n"
    puzzles = parse_puzzles(text, n=13)
    first, second = puzzles[0], puzzles[1]
    assert (first.jokers, first.table_jokers, first.tiles) == (2, 1, 14)
    assert int(first.table_copies.sum()) == 9
    assert second.plain
    again = parse_puzzles(format_puzzles(puzzles), n=13)
    assert [p == q for p, q in zip(again, puzzles, strict=True)] == [True, True]


def test_plain_files_are_written_as_before():
    text = "1\n3\n1b 2b 3b\n"
    assert format_puzzles(parse_puzzles(text)) == text


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("4\n1b | 2b | J\n", "2 '|'; at most one"),
        ("5\nJ J J J J\n", "5 jokers; a puzzle of G.* holds at most 4"),
        ("3\n1b J | 2b 3b\n", "declares 3 tiles but lists 4"),
        ("2\n1b j\n", "'j' is not a tile"),
    ],
)
def test_file_format_errors(line, problem):
    with pytest.raises(PuzzleFileError, match=problem.replace("|", r"\|")):
        parse_puzzles("1\n" + line, n=13)


def test_puzzles_stack_keeps_jokers_and_table():
    turn = draw_turn(np.random.default_rng(5))
    stacked = Puzzles.from_list([turn, P([(1, 0)], game=turn.game)])  # a stack has one game
    assert stacked[0] == turn and stacked[1].plain


def test_a_best_no_pass_traced_is_the_joker_free_arrangement():
    # With a beam of 1 the joker-free optimum is often the better lower bound; when no
    # joker arrangement beats it, no pass traces it, and the solution's arrangement is
    # the joker-free solver's, jokers left on the rack.
    rng = np.random.default_rng(38)
    untraced = 0
    for _ in range(400):
        k, m, n = int(rng.integers(3, 6)), int(rng.integers(1, 4)), int(rng.integers(5, 30))
        copies = (rng.random((n, k)) < rng.random()) * rng.integers(1, m + 1, (n, k))
        puzzle = Puzzle(copies, m=m, jokers=int(rng.integers(1, 3)))
        plain = solve(Puzzle(copies, m=m)).score
        traced = run_joker_dp(puzzle, "value", config.MAX_STATES, 1, plain)[5]
        solution = solve(puzzle, beam_width=1)
        assert solution.arrangement.check(puzzle) == solution.score
        if puzzle.tiles <= 12:
            assert solution.score == solve_brute_force(puzzle)
        if traced is None:
            untraced += 1
            assert solution.score == plain and solution.arrangement.jokers == 0
    assert untraced >= 5


@pytest.mark.parametrize("live", [(1, 1 << 23), (1, 16), (4, 64)])
def test_passes_that_start_small_and_grow_find_the_optimum(live):
    # Exact passes that run out of room again and again, and at full room (16 or 64
    # states) beams that widen until one raises the lower bound: the optimum, or over
    # the budget, never another score.
    rng = np.random.default_rng(35)
    grew = over = 0
    for _ in range(150):
        k, m, n = int(rng.integers(3, 6)), int(rng.integers(1, 4)), int(rng.integers(5, 25))
        jokers = int(rng.integers(1, 3))
        if rng.random() < 0.3:
            puzzle = draw_turn(rng, Game(k, m, n), jokers=jokers, sets=3, rack=8)
        else:
            copies = (rng.random((n, k)) < rng.random()) * rng.integers(1, m + 1, (n, k))
            puzzle = Puzzle(copies, m=m, jokers=jokers)
        best, _, _, passes, status, _, _ = run_joker_dp(
            puzzle, "value", config.MAX_STATES, 1, live=live
        )
        expected = solve(puzzle)
        if status == OVER_BUDGET:
            assert live[1] < 1 << 23
            over += 1
            continue
        assert status == OK or expected.score is None
        if status == OK:
            assert best == expected.score
        grew += passes > 1
    assert grew > 10 and (over > 0) == (live[1] < 1 << 23)
