"""Puzzles as count matrices: construction, validation, stacking."""

import numpy as np
import pytest

from rumdiff.puzzle import Game, Puzzle, Puzzles


def test_from_tiles_counts_copies():
    puzzle = Puzzle.from_tiles([(1, 0), (1, 0), (3, 2)], k=4, m=2, n=5)
    assert puzzle.copies[0, 0] == 2 and puzzle.copies[2, 2] == 1
    assert (puzzle.k, puzzle.m, puzzle.n) == (4, 2, 5)
    assert puzzle.tiles == 3 and puzzle.points == 1 + 1 + 3
    assert puzzle.tile_list() == [(1, 0), (1, 0), (3, 2)]


def test_equality_and_hash():
    a = Puzzle(np.eye(5, 4, dtype=int))
    b = Puzzle(np.eye(5, 4, dtype=np.int8))
    assert a == b and hash(a) == hash(b)
    assert a != Puzzle(np.zeros((5, 4), dtype=int))


@pytest.mark.parametrize(
    "copies, message",
    [
        (np.full((3, 4), 3), "copies must lie in 0..2"),
        (np.full((3, 4), -1), "copies must lie in 0..2"),
        (np.full((3, 4), 0.5), "whole numbers"),
        (np.full((3, 4), np.inf), "whole numbers"),
        (np.ones((3, 4), dtype=bool), "whole numbers"),
        (np.zeros(4), "shape"),
        (np.zeros((3, 7)), "k must be"),
    ],
)
def test_invalid_copies(copies, message):
    with pytest.raises(ValueError, match=message):
        Puzzle(copies, m=2)


def test_copies_of_every_integer_dtype_and_a_games_shape_are_checked():
    game = Game(4, 2, 3)
    ones = Puzzle(np.ones((3, 4)), game=game)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint64):
        puzzle = Puzzle(np.ones((3, 4), dtype=dtype), game=game)
        assert puzzle.copies.dtype == np.int8 and puzzle == ones
        with pytest.raises(ValueError, match="copies must lie in 0..2"):
            Puzzle(np.full((3, 4), 3, dtype=dtype), game=game)
    with pytest.raises(ValueError, match="whole numbers"):
        Puzzle(np.full((3, 4), "1"), game=game)
    with pytest.raises(ValueError, match="k must be"):  # told before the game's shape
        Puzzle(np.zeros((3, 7), dtype=np.int8), game=game)
    with pytest.raises(ValueError, match=r"copies of shape \(n, k\) = \(3, 5\) are not of"):
        Puzzle(np.zeros((3, 5), dtype=np.int8), game=game)


def test_stack_and_iterate():
    rng = np.random.default_rng(0)
    puzzles = [Puzzle(rng.integers(0, 3, size=(10, 4)), m=2) for _ in range(3)]
    stack = Puzzles.from_list(puzzles, source="x")
    assert len(stack) == 3 and (stack.k, stack.n, stack.m) == (4, 10, 2)
    assert list(stack) == puzzles
    with pytest.raises(ValueError, match="differ"):
        Puzzles.from_list([puzzles[0], Puzzle(np.zeros((11, 4), dtype=int))])
    assert len(Puzzles.empty(Game(4, 2, 10))) == 0


def test_tabled_says_which_puzzles_have_a_table():
    rack = Puzzle.from_tiles([(1, 0), (2, 0), (3, 0)], k=4, m=2, n=5)
    tiles = Puzzle.from_tiles([(1, 0)], k=4, m=2, n=5, table=[(2, 0), (3, 0), (4, 0)])
    joker = Puzzle.from_tiles([(1, 0)], k=4, m=2, n=5, table=["J"])
    rack_joker = Puzzle.from_tiles([(1, 0)], k=4, m=2, n=5, jokers=1)
    stack = Puzzles.from_list([rack, tiles, joker, rack_joker])
    assert stack.tabled.tolist() == [False, True, True, False]
    assert Puzzles.from_list([rack, rack]).tabled.tolist() == [False, False]
    assert Puzzles.empty(Game(4, 2, 5)).tabled.shape == (0,)
