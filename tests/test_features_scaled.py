"""The scaled features, which compare across families (issue #23)."""

from __future__ import annotations

import numpy as np
import pytest

from rumdiff.features import PuzzleFeatures, compute_features, feature_names
from rumdiff.features.scaled import SCALED_FEATURES
from rumdiff.puzzle import Puzzle, Puzzles


def _tiles(text: str) -> list:
    """Tiles written as in puzzle files ("3b", "J") as from_tiles takes them."""
    return [t if t == "J" else (int(t[:-1]), "bgryop".index(t[-1])) for t in text.split()]


def _random(k: int, m: int, n: int, count: int, seed: int) -> Puzzles:
    rng = np.random.default_rng(seed)
    return Puzzles(rng.integers(0, m + 1, size=(count, n, k)).astype(np.int8), m=m)


@pytest.mark.parametrize("k, m, n", [(3, 1, 13), (4, 2, 13), (4, 3, 40), (6, 2, 20), (5, 1, 60)])
def test_every_family_gives_the_same_columns(k, m, n):
    frame = compute_features(_random(k, m, n, 5, seed=k * m * n), m=m, feature_set="scaled")
    assert list(frame.columns) == list(SCALED_FEATURES) == feature_names("scaled", k=k, m=m)
    assert (frame[["family_k", "family_m", "family_n"]].to_numpy() == [k, m, n]).all()
    assert np.isfinite(frame.to_numpy()).all()
    if m < 3:
        assert (frame["pct_3_copies"] == 0).all()
    if m < 2:
        assert (frame["pct_2_copies"] == 0).all()


def test_shares_are_the_base_features_divided_as_documented():
    puzzles = _random(4, 2, 30, 40, seed=3)
    base = compute_features(puzzles, m=2, feature_set="all", jokers=True)
    scaled = compute_features(puzzles, m=2, feature_set="scaled")
    np.testing.assert_allclose(scaled["nonclearable_share"], base["nonclearable_values"] / 30)
    np.testing.assert_allclose(scaled["tile_share"], base["tiles"] / (30 * 4 * 2))
    tiles = base["tiles"].to_numpy(float)
    expected = np.divide(base["removed"], tiles, out=np.zeros(40), where=tiles > 0)
    np.testing.assert_allclose(scaled["removed_share"], expected)
    for name in ("unpruned_transitions", "run_states", "dp_segments", "bound_nodes"):
        np.testing.assert_array_equal(scaled[name], base[name])  # counts keep their units


def test_a_puzzle_padded_with_empty_values_keeps_its_counts_and_shares_scale_by_n():
    """The same tiles in G(4, 2, 13) and G(4, 2, 26): values beyond 13 are empty, so
    every count is the same and a per-value share halves."""
    small = Puzzle.from_tiles(_tiles("1b 2b 3b 3g 3r 3y 4b 5b 5r 5y 6r 6r 7r 8r 9g 9y 9b"), n=13)
    copies = np.zeros((26, 4), dtype=np.int8)
    copies[:13] = small.copies
    large = Puzzle(copies, m=2)
    a = compute_features(small, m=2, feature_set="scaled").iloc[0]
    b = compute_features(large, m=2, feature_set="scaled").iloc[0]
    assert (a["family_n"], b["family_n"]) == (13, 26)
    for name in ("nonclearable_share", "contested_share", "dp_value_share"):
        assert b[name] == pytest.approx(a[name] / 2)
    for name in ("run_and_group_share", "removed_share", "gap_share", "unpruned_transitions"):
        assert b[name] == pytest.approx(a[name])


def test_jokers_and_a_table_enter_as_counts_and_shares():
    rack, table = _tiles("2b 2b 2r J 8g 8r"), _tiles("1b 1g 1r 4b 4g 4r 9b 10b 11b J")
    turn = Puzzle.from_tiles(rack, table=table, n=13)
    row = compute_features(turn, m=2, feature_set="scaled").iloc[0]
    assert row["jokers"] == 2
    assert row["table_share"] == pytest.approx(10 / 16)  # 9 tiles and a joker of 16


def test_one_transformer_reads_every_family():
    features = PuzzleFeatures(feature_set="scaled", jokers=True).fit(_random(4, 2, 100, 3, 0))
    for k, m, n in [(3, 1, 13), (6, 2, 50), (4, 3, 200)]:
        X = features.transform(_random(k, m, n, 4, seed=n))
        assert X.shape == (4, len(SCALED_FEATURES))
        assert (X[:, :3] == [k, m, n]).all()
    assert list(features.get_feature_names_out()) == list(SCALED_FEATURES)
