"""The opening meld: the engine against the brute force and the ILP, hand cases, the
check of a move, the header and the command line."""

import numpy as np
import pytest

from rumdiff.cli import main
from rumdiff.data.turns import draw_turn
from rumdiff.puzzle import Game, Puzzle, PuzzleFileError, parse_puzzles
from rumdiff.solve import search_effort, solve
from rumdiff.solve.arrangement import Arrangement, Group, InvalidArrangement, Run
from rumdiff.solve.engine import Rules, run_pass
from rumdiff.solve.meld import check_meld, meld_parts
from rumdiff.solve.twins import solve_brute_force, solve_ilp

P = Puzzle.from_tiles


def _tiny(rng) -> Puzzle:
    """A tiny seeded opening move: a table of valid sets (or none) and a few rack tiles
    and jokers, under a meld of 1 to 2n - 1 points."""
    k, m, n = int(rng.integers(3, 6)), int(rng.integers(1, 3)), int(rng.integers(3, 9))
    sets = int(rng.integers(0, 3))
    turn = draw_turn(
        rng, Game(k, m, n), jokers=int(rng.integers(0, 4)), sets=sets, rack=int(rng.integers(3, 10))
    )
    return turn.with_meld(int(rng.integers(1, 2 * n)))


def _tiles(arrangement: Arrangement) -> int:
    return sum(r.tiles for r in arrangement.runs) + sum(g.tiles for g in arrangement.groups)


@pytest.mark.parametrize("objective", ["value", "tiles"])
def test_engine_equals_brute_force(objective):
    rng = np.random.default_rng(35)
    compared = feasible = 0
    while compared < 500:
        puzzle = _tiny(rng)
        if puzzle.tiles > 12:
            continue
        compared += 1
        expected = solve_brute_force(puzzle, objective=objective)
        solution = solve(puzzle, objective=objective)
        if expected is None:
            assert not solution.feasible, puzzle
            continue
        feasible += 1
        assert check_meld(puzzle, solution.arrangement, solution.meld) == solution.score
        if objective == "value":
            assert solution.score == expected, puzzle
        else:
            placed = _tiles(solution.meld)
            assert (placed, solution.score) == expected, puzzle
    assert 150 < feasible < 450  # both answers are well represented


def test_ilp_equals_brute_force():
    rng = np.random.default_rng(36)
    for _ in range(150):
        puzzle = _tiny(rng)
        if puzzle.tiles > 10:
            continue
        found = solve_ilp(puzzle)
        expected = solve_brute_force(puzzle)
        assert (None if found is None else found.check(puzzle)) == expected, puzzle


def _real_racks(seed: int, count: int):
    """Hidden racks of the real game, 14-30 tiles with the box's 2 jokers, and turns with
    a table of valid sets."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        sets = 0 if i % 2 else int(rng.integers(1, 8))
        yield draw_turn(rng, Game(4, 2, 13), jokers=2, sets=sets, rack=int(rng.integers(14, 31)))


def test_engine_equals_ilp_on_real_game_racks_and_turns():
    feasible = jokers = 0
    for puzzle in _real_racks(37, 60):
        puzzle = puzzle.with_meld()
        solution = solve(puzzle)
        found = solve_ilp(puzzle)
        assert solution.score == (None if found is None else found.score), puzzle
        if solution.feasible:
            check_meld(puzzle, solution.arrangement, solution.meld)
            feasible += 1
            jokers += solution.meld.jokers > 0
    assert feasible > 30 and jokers > 5


def test_tiles_objective_equals_ilp_on_turns():
    for puzzle in _real_racks(38, 20):
        puzzle = puzzle.with_meld()
        solution = solve(puzzle, objective="tiles")
        found = solve_ilp(puzzle, objective="tiles")
        if found is None:
            assert not solution.feasible
            continue
        assert (_tiles(solution.arrangement), solution.score) == (_tiles(found), found.score)


RACK = [(11, 0), (12, 0), (13, 0), (1, 2), (2, 2), (3, 2), "J"]


@pytest.mark.parametrize(
    "points, score, jokers",
    [
        (30, 42, 0),  # 11b 12b 13b and 1r 2r 3r are worth 42: no joker needed
        (42, 42, 0),  # exactly the meld is enough
        (48, 42, 1),  # the joker as 10b (or 4r) makes 52 (46), and scores 0
        (53, None, 0),  # the most the rack is worth at face value is 52
    ],
)
def test_a_joker_counts_as_the_tile_it_stands_for(points, score, jokers):
    puzzle = P(RACK, k=4, m=2, n=13).with_meld(points)
    solution = solve(puzzle)
    assert solution.score == score
    if score is not None:
        assert solution.meld.jokers == jokers and solution.meld.face >= points
        assert solution.meld == solution.arrangement  # no table: every set is new


def test_the_table_stays_as_it_is():
    # 4b would join the table's 1b 2b 3b, and the rack's 5r 6r 7r make 18 < 30.
    puzzle = P([(4, 0), (5, 2), (6, 2), (7, 2), (10, 1), (10, 2), (10, 3)], k=4, m=2, n=13,
               table=[(1, 0), (2, 0), (3, 0)])  # fmt: skip
    assert solve(puzzle).score == 6 + 4 + 18 + 30
    moved = solve(puzzle.with_meld())
    assert moved.score == 6 + 18 + 30  # 4b stays on the rack
    assert moved.meld == Arrangement((Run(2, 5, 7),), (Group(10, (1, 2, 3)),))
    assert solve(puzzle.with_meld(49)).score is None  # 48 is the most the rack makes


def test_a_table_that_forms_no_sets_is_infeasible_whatever_the_rack():
    puzzle = P([(11, 1), (12, 1), (13, 1)], k=4, m=2, n=13, table=[(1, 0), (2, 0)])
    assert solve(puzzle.with_meld()).score is None
    # A table joker completes the table's run; the rack's 36 then meet the meld.
    joined = P([(11, 1), (12, 1), (13, 1)], k=4, m=2, n=13, table=[(1, 0), (2, 0), "J"])
    assert solve(joined.with_meld()).score == 3 + 36


def test_jokers_alone_count_at_the_highest_face_value():
    puzzle = P(["J", "J", "J"], game=Game(4, 1, 13, meld=39))
    solution = solve(puzzle)
    assert solution.score == 0 and solution.meld.face == 39  # a group of three 13s
    assert solve(puzzle.with_meld(40)).score is None
    assert solve_brute_force(puzzle) == 0 and solve_ilp(puzzle).face == 39


def test_an_empty_rack_meets_no_meld():
    puzzle = P([], k=4, m=2, n=13, table=[(5, 0), (5, 1), (5, 2)])
    assert solve(puzzle.with_meld(1)).score is None
    assert solve_brute_force(puzzle.with_meld(1)) is None and solve_ilp(puzzle.with_meld(1)) is None


def test_check_meld_refuses_what_the_rules_forbid():
    puzzle = P([(4, 0), (10, 1), (10, 2), (10, 3), (12, 1), (12, 2), (12, 3)], k=4, m=2, n=13,
               table=[(1, 0), (2, 0), (3, 0)])  # fmt: skip
    puzzle = puzzle.with_meld()
    table_run, new_groups = Run(0, 1, 3), (Group(10, (1, 2, 3)), Group(12, (1, 2, 3)))
    good = Arrangement((table_run,), new_groups)
    assert check_meld(puzzle, good, Arrangement((), new_groups)) == 6 + 30 + 36
    joined = Arrangement((Run(0, 1, 4),), new_groups)  # a rack tile joins the table's run
    with pytest.raises(InvalidArrangement):
        check_meld(puzzle, joined, Arrangement((), new_groups))
    with pytest.raises(InvalidArrangement, match="short of the meld's 40"):
        check_meld(puzzle.with_meld(40), Arrangement((table_run,), new_groups[:1]),
                   Arrangement((), new_groups[:1]))  # fmt: skip
    with pytest.raises(InvalidArrangement, match="not among the sets placed"):
        check_meld(puzzle, Arrangement((table_run,)), Arrangement((), new_groups))


def test_meld_parts_split_the_table_from_the_rack():
    puzzle = P([(3, 0), (7, 1), "J"], k=4, m=2, n=13, table=[(1, 0), (2, 0), "J"]).with_meld()
    table, rack = meld_parts(puzzle)
    assert table.game.meld is None and table.table_jokers == table.jokers == 1
    assert table.tiles == 2 and np.array_equal(table.table_copies, table.copies)
    assert rack.game.meld == 30 and rack.jokers == 1 and rack.table is None
    assert rack.tiles == 2  # 3b and 7g
    with pytest.raises(ValueError, match="no opening meld"):
        meld_parts(puzzle.with_meld(None))


def test_the_engine_runs_the_meld_as_a_rule_of_the_jokers():
    rack = P(RACK, k=4, m=2, n=13)
    met = run_pass(rack, Rules("jokers", "fast", meld=48), aim=0)
    assert met.status == "ok" and met.best == 42
    assert run_pass(rack, Rules("jokers", "fast", meld=53), aim=0).status == "not reached"
    with pytest.raises(ValueError, match="rack alone"):
        run_pass(P([(2, 0), (3, 0)], k=4, m=2, n=13, table=[(1, 0)]), Rules(meld=30), aim=0)
    with pytest.raises(ValueError, match="jokers' rules"):
        Rules("plain", meld=30)


def test_a_state_too_wide_for_its_bits_is_refused():
    puzzle = Puzzle(np.ones((20, 6), dtype=int), m=3, jokers=4, game=Game(6, 3, 20, meld=30))
    with pytest.raises(ValueError, match="more than the 63 a state holds"):
        solve(puzzle)


def test_header_and_reading_carry_the_meld():
    text = "# G(4, 2, 13) j=2 meld=30\n1\n3\n11b 12b 13b\n"
    puzzles = parse_puzzles(text)
    assert puzzles.game == Game(4, 2, 13, jokers=2, meld=30)
    assert str(puzzles.game) == "G(4, 2, 13) j=2 meld=30"
    assert solve(puzzles[0]).score == 36
    assert parse_puzzles(text, meld=30).game.meld == 30
    with pytest.raises(PuzzleFileError, match="header says meld = 30 but meld = 40 was given"):
        parse_puzzles(text, meld=40)
    bare = parse_puzzles("1\n3\n11b 12b 13b\n", meld=37, n=13)
    assert bare.game == Game(4, 2, 13, meld=37) and solve(bare[0]).score is None


def test_what_knows_no_meld_refuses_it():
    puzzle = P(RACK, k=4, m=2, n=13).with_meld()
    with pytest.raises(ValueError, match="opening move"):
        search_effort(puzzle)


def test_cli_initial_meld(tmp_path, capsys):
    file = tmp_path / "turn.in"
    file.write_text("# G(4, 2, 13) j=2\n1\n16\n2b 2b 2r J 8g 8r | 1b 1g 1r 4b 4g 4r 9b 10b 11b J\n")
    assert main(["solve", str(file), "-q"]) == 0
    assert capsys.readouterr().out == "65\n"
    assert main(["solve", str(file), "--initial-meld", "20", "--show"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "61", "# puzzle 1", "run   9b 10b 11b", "group 1b 1g 1r J=1y", "group 4b 4g 4r",
        "group +J=8b +8g +8r  # new", "#",
    ]  # fmt: skip
    assert "read as G(4, 2, 13) j=2 meld=20 (its header, with --initial-meld)" in captured.err
    assert main(["solve", str(file), "--initial-meld", "-q"]) == 0  # 30 points: no move
    assert capsys.readouterr().out == "infeasible\n"
    picture = tmp_path / "t.svg"
    assert main(["show", str(file), "--initial-meld", "20", "-o", str(picture), "-q"]) == 0
    assert picture.read_text().count("<svg") == 1
    meld_file = tmp_path / "meld.in"
    meld_file.write_text("# G(4, 2, 13) meld=30\n1\n3\n1b 2b 3b\n")
    for command in ("features", "predict"):
        assert main([command, str(meld_file), "-q"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "opening move" in err
    assert main(["solve", str(meld_file), "--initial-meld", "0"]) == 2
    assert "--initial-meld" in capsys.readouterr().err
