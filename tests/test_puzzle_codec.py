"""Tests for rumdiff.puzzle: layout, round trips and rejected input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import (
    Game,
    Puzzle,
    decode_puzzle,
    decode_puzzles,
    encode_puzzle,
    encode_puzzles,
)


def test_encoding_layout():
    copies = np.array([[0, 1, 2], [3, 0, 1]])  # values 1, 2 x colours b, g, r
    assert encode_puzzle(copies) == "012301"
    assert np.array_equal(decode_puzzle("012301", k=3, n=2), copies)


@pytest.mark.parametrize(("k", "m"), list(itertools.product(range(1, 7), range(1, 4))))
def test_encoding_round_trips(k, m):
    rng = np.random.default_rng(100 * k + m)
    n = int(rng.integers(1, 40))
    copies = rng.integers(0, m + 1, size=(25, n, k)).astype(np.int8)
    texts = encode_puzzles(copies)
    assert texts == [encode_puzzle(c) for c in copies]
    assert all(len(t) == n * k for t in texts)
    decoded = decode_puzzles(texts, k, n, m=m)
    assert decoded.dtype == np.int8 and np.array_equal(decoded, copies)
    assert np.array_equal(decode_puzzle(texts[0], k, n), copies[0])


def test_encoding_of_generated_puzzles_round_trips():
    g = generate(200, seed=12)
    assert np.array_equal(
        decode_puzzles(encode_puzzles(g.puzzles.copies), 4, 100), g.puzzles.copies
    )
    assert encode_puzzles(np.zeros((0, 3, 2), np.int8)) == []


@pytest.mark.parametrize(
    ("text", "k", "n", "m", "match"),
    [
        ("0123", 2, 3, 3, "characters"),
        ("01x3", 2, 2, 3, "'x'"),
        ("01-3", 2, 2, 3, "not a digit"),
        ("01é3", 2, 2, 3, "not a digit"),
        ("0123", 2, 2, 2, "0..2"),
        ("0", 0, 1, 3, "k must"),
    ],
)
def test_decode_rejects_bad_text(text, k, n, m, match):
    with pytest.raises(ValueError, match=match):
        decode_puzzle(text, k, n, m=m)


def test_decode_rejects_non_strings_and_encode_bad_copies():
    with pytest.raises(ValueError):
        decode_puzzles([b"0123"], 2, 2)
    with pytest.raises(ValueError):
        encode_puzzle(np.array([[4, 0]]))
    with pytest.raises(ValueError):
        encode_puzzle(np.array([[-1, 0]]))
    with pytest.raises(ValueError):
        encode_puzzle(np.array([1, 0]))
    with pytest.raises(ValueError):
        encode_puzzle(np.array([[0.5, 0]]))


def test_games_round_trip_jokers_and_tables():
    from rumdiff.data.generator import generate
    from rumdiff.puzzle import Puzzles, decode_games, encode_games

    turns = generate(20, Family(Game(4, 2, 13), "turn", jokers=2), seed=3).puzzles
    mixed = Puzzles.from_list([*turns, Puzzle(np.ones((13, 4), dtype=np.int8), game=turns.game)])
    texts = encode_games(mixed)
    assert texts[-1] == "1" * 52  # a plain puzzle keeps its plain text
    assert all(text.count("|") == 3 for text in texts[:-1])
    back = decode_games(texts, 4, 13, m=2)
    assert [p.key() for p in back] == [p.key() for p in mixed]  # the text holds no game
    plain = generate(5, Family(Game(4, 2, 13)), seed=3).puzzles
    assert encode_games(plain) == encode_puzzles(plain.copies)
    assert decode_games(encode_games(plain), 4, 13, m=2).plain
    with pytest.raises(ValueError, match="copies|table|jokers"):
        decode_games(["1" * 52 + "|x"], 4, 13, m=2)
