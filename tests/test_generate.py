"""Tests for rumdiff.data.generator: seeding, chunking, uniqueness and modes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.distinct import TooFewDistinct, puzzle_keys
from rumdiff.data.generator import GeneratedPuzzles, block_size, generate, redraw
from rumdiff.puzzle import Game, encode_puzzles


def _same(a: GeneratedPuzzles, b: GeneratedPuzzles) -> bool:
    return (
        np.array_equal(a.puzzles.copies, b.puzzles.copies)
        and np.array_equal(a.regime, b.regime)
        and np.array_equal(a.probabilities, b.probabilities)
        and np.array_equal(a.redraws, b.redraws)
    )


def _concat(parts: list[GeneratedPuzzles]) -> dict[str, np.ndarray]:
    return {
        "copies": np.concatenate([p.puzzles.copies for p in parts]),
        "regime": np.concatenate([p.regime for p in parts]),
        "probabilities": np.concatenate([p.probabilities for p in parts]),
        "redraws": np.concatenate([p.redraws for p in parts]),
    }


def _sequential_twin(count, family, *, seed):
    """Slow twin of generate: raw draws one index at a time, then redraw in order."""
    kept, copies, probabilities, redraws = set(), [], [], []
    for index in range(count):
        raw = generate(1, family, start=index, seed=seed)
        puzzle, p, attempt = raw.puzzles.copies[0], raw.probabilities[0], 0
        while puzzle.tobytes() in kept:
            attempt += 1
            puzzle, p = redraw(seed, index, attempt, family, regime=int(raw.regime[0]))
        kept.add(puzzle.tobytes())
        copies.append(puzzle)
        probabilities.append(p)
        redraws.append(attempt)
    return np.stack(copies), np.stack(probabilities), np.array(redraws)


# --- reproducibility ----------------------------------------------------------------


@pytest.mark.parametrize("mode", ["mixed", "simplex", "fixed"])
def test_same_seed_same_puzzles(mode):
    percentages = (30, 20) if mode == "fixed" else None
    a = generate(500, Family(mode=mode, percentages=percentages), seed=7)
    b = generate(500, Family(mode=mode, percentages=percentages), seed=7)
    c = generate(500, Family(mode=mode, percentages=percentages), seed=8)
    assert _same(a, b)
    assert not np.array_equal(a.puzzles.copies, c.puzzles.copies)


def test_known_values_do_not_drift():
    # Guards the definition of the streams: a change here changes every dataset.
    g = generate(3, Family(Game(2, 2, 4), "simplex"), seed=0)
    assert encode_puzzles(g.puzzles.copies) == ["02010101", "12211021", "00210102"]
    assert g.probabilities[0].round(6).tolist() == [0.565132, 0.370301, 0.064567]
    g = generate(2, Family(Game(2, 3, 3), "mixed"), seed=1)
    assert encode_puzzles(g.puzzles.copies) == ["322122", "323332"]
    assert g.regime.tolist() == [3, 3]


def test_window_of_a_run_equals_slice_of_the_run():
    size = block_size(Game(4, 2, 100))
    whole = generate(2 * size + 50, seed=3)
    clean = np.flatnonzero(whole.redraws == 0)  # redrawn puzzles may differ in a window
    for start, count in [(0, 1), (5, 10), (size - 3, 7), (size, size), (2 * size + 10, 40)]:
        part = generate(count, seed=3, start=start)
        rows = np.arange(start, start + count)
        rows = rows[np.isin(rows, clean)]
        assert np.array_equal(part.ids, np.arange(start, start + count))
        assert np.array_equal(part.puzzles.copies[rows - start], whole.puzzles.copies[rows])
        assert np.array_equal(part.probabilities[rows - start], whole.probabilities[rows])


@pytest.mark.parametrize(
    ("count", "family"),
    [
        (6000, Family(Game(4, 2, 100), "mixed")),
        (3000, Family(Game(3, 3, 7), "simplex")),
        (25, Family(Game(1, 2, 3), "simplex")),  # 27 puzzles exist: many redraws
        (60, Family(Game(2, 1, 3), "mixed", regime_weights=(1, 0, 0))),
    ],
)
def test_chunked_generation_equals_one_go(count, family):
    whole = generate(count, family, seed=11)
    seen: set[bytes] = set()
    cuts = [0, 1, 2, count // 3, count // 3 + 1, count - 1, count]
    parts = [
        generate(b - a, family, seed=11, start=a, seen=seen) for a, b in itertools.pairwise(cuts)
    ]
    joined = _concat(parts)
    assert np.array_equal(joined["copies"], whole.puzzles.copies)
    assert np.array_equal(joined["regime"], whole.regime)
    assert np.array_equal(joined["probabilities"], whole.probabilities)
    assert np.array_equal(joined["redraws"], whole.redraws)
    assert sum(p.duplicates_redrawn for p in parts) == whole.duplicates_redrawn
    assert seen == set(puzzle_keys(whole.puzzles.copies))


@pytest.mark.parametrize(
    "parameters",
    [
        {"k": 1, "m": 2, "n": 3, "mode": "simplex", "percentages": None},
        {"k": 2, "m": 1, "n": 3, "mode": "mixed", "percentages": None},
        {"k": 2, "m": 2, "n": 2, "mode": "fixed", "percentages": (40, 30)},
    ],
)
def test_uniqueness_matches_sequential_twin(parameters):
    count = (parameters["m"] + 1) ** (parameters["k"] * parameters["n"]) * 3 // 4
    weights = (1, 0, 0) if parameters["mode"] == "mixed" else config.REGIME_WEIGHTS
    game = Game(*(parameters[key] for key in ("k", "m", "n")))
    family = Family(game, parameters["mode"], parameters["percentages"], weights)
    fast = generate(count, family, seed=5)
    copies, probabilities, redraws = _sequential_twin(count, family, seed=5)
    assert fast.duplicates_redrawn > 0
    assert np.array_equal(fast.puzzles.copies, copies)
    assert np.array_equal(fast.probabilities, probabilities)
    assert np.array_equal(fast.redraws, redraws)
    assert fast.duplicates_redrawn == redraws.sum()


def test_redraw_is_pure_and_depends_on_attempt():
    a = redraw(3, 10, 1, Family(Game(4, 2, 20), "mixed"), regime=2)
    b = redraw(3, 10, 1, Family(Game(4, 2, 20), "mixed"), regime=2)
    c = redraw(3, 10, 2, Family(Game(4, 2, 20), "mixed"), regime=2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
    assert a[0].shape == (20, 4) and a[1].shape == (3,)


# --- uniqueness -----------------------------------------------------------------------


def test_default_run_is_unique_and_reports_redraws():
    g = generate(20_000, seed=1)
    flat = g.puzzles.copies.reshape(len(g), -1)
    assert np.unique(flat, axis=0).shape[0] == len(g)
    assert g.duplicates_redrawn == int(g.redraws.sum())
    assert g.duplicates_redrawn > 0  # regime 1 draws near-empty puzzles more than once


def test_seen_excludes_earlier_puzzles():
    first = generate(20, Family(Game(1, 1, 5), "simplex"), seed=2)
    seen = set(puzzle_keys(first.puzzles.copies))
    more = generate(10, Family(Game(1, 1, 5), "simplex"), seed=9, seen=seen)
    before = {p.tobytes() for p in first.puzzles.copies}
    assert not any(p.tobytes() in before for p in more.puzzles.copies)
    assert len(seen) == 30


def test_too_few_distinct_puzzles():
    with pytest.raises(ValueError, match="distinct"):
        generate(9, Family(Game(1, 1, 3), "simplex"))
    with pytest.raises(ValueError, match="distinct"):
        generate(2, Family(Game(4, 2, 10), "fixed", percentages=(0, 0)))
    with pytest.raises(ValueError, match="distinct"):
        generate(1, Family(Game(1, 1, 1), "simplex"), seen={b"\x00", b"\x01"})
    assert generate(8, Family(Game(1, 1, 3), "simplex")).puzzles.copies.shape == (8, 3, 1)


def test_too_few_distinct_names_the_puzzle_and_leaves_those_before_it_as_drawn():
    family, seen = Family(Game(1, 1, 5)), set()
    with pytest.raises(TooFewDistinct) as caught:  # 32 puzzles, drawn far from evenly
        generate(32, family, seed=4, start=3, seen=seen)
    index = caught.value.index
    assert 3 < index < 35 and f"puzzle {index} " in str(caught.value)
    assert seen == set()  # nothing of the failed run is kept
    before = generate(index - 3, family, seed=4, start=3, seen=seen).puzzles.copies
    assert len(seen) == index - 3
    assert np.array_equal(before[:5], generate(5, family, seed=4, start=3).puzzles.copies)


def test_puzzle_keys_distinguish_all_small_puzzles():
    cells = np.array(list(itertools.product(range(4), repeat=5)), dtype=np.int8)
    keys = puzzle_keys(cells.reshape(-1, 5, 1))
    assert len(set(keys)) == 4**5


# --- modes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("m", "percentages"), [(1, (25,)), (2, (20, 30)), (3, (10, 20, 30)), (2, (0, 50))]
)
def test_fixed_mode_percentages_hold_on_average(m, percentages):
    g = generate(1000, Family(Game(4, m, 50), "fixed", percentages=percentages), seed=4)
    expected = np.append(percentages, 100 - sum(percentages)) / 100
    counts = np.bincount(g.puzzles.copies.ravel(), minlength=m + 1) / g.puzzles.copies.size
    # 200,000 cells: a standard error below 0.0012, so 0.006 is five of them.
    assert np.allclose(counts, expected, atol=0.006)
    assert np.allclose(g.probabilities, expected)
    assert np.all(g.regime == 0) and g.mode == "fixed"


def test_fixed_mode_never_draws_a_zero_probability():
    g = generate(50, Family(Game(4, 3, 30), "fixed", percentages=(0, 60, 40)), seed=1)
    assert set(np.unique(g.puzzles.copies)) == {1, 2}


@pytest.mark.parametrize("m", [1, 2, 3])
def test_mixed_mode_regimes_and_ranges(m):
    # n = 100: few redraws, which favour percentages that make varied puzzles.
    g = generate(20_000, Family(Game(4, m, 100), "mixed"), seed=6)
    shares = np.bincount(g.regime, minlength=4)[1:] / len(g)
    assert np.allclose(shares, config.REGIME_WEIGHTS, atol=0.01)
    p = g.probabilities * 100
    assert np.allclose(p.sum(axis=1), 100)
    p0 = p[:, 0]
    p1 = p[:, 1] if m > 1 else None
    for regime, (top0, top01) in enumerate(config.REGIME_RANGES, start=1):
        rows = g.regime == regime
        assert np.all(p0[rows] <= top0 + 1e-9)
        assert p0[rows].mean() == pytest.approx(top0 / 2, rel=0.1)
        if m > 1:
            assert np.all(p0[rows] + p1[rows] <= top01 + 1e-9)
            # p1 ~ U(0, top01 - p0): its mean is half of the mean room left.
            assert p1[rows].mean() == pytest.approx((top01 - p0[rows]).mean() / 2, rel=0.1)
    if m == 3:  # the rest splits evenly between 2 and 3 copies
        assert np.allclose(p[:, 2], p[:, 3])


def test_mixed_mode_cells_follow_their_probabilities():
    g = generate(3000, Family(Game(4, 2, 100)), seed=8)
    observed = np.stack([(g.puzzles.copies == c).mean(axis=(1, 2)) for c in range(3)], axis=1)
    assert np.allclose(observed.mean(axis=0), g.probabilities.mean(axis=0), atol=0.003)


def test_regime_weights_are_settable():
    g = generate(2000, Family(Game(4, 2, 30), regime_weights=(0, 3, 1)), seed=2)
    shares = np.bincount(g.regime, minlength=4) / len(g)
    assert shares[0] == 0 and shares[1] == 0
    assert shares[2] == pytest.approx(0.75, abs=0.04)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_simplex_probabilities(m):
    g = generate(20_000, Family(Game(4, m, 10), "simplex"), seed=3)
    p = g.probabilities
    assert p.shape == (len(g), m + 1)
    assert np.all(p >= 0)
    assert np.allclose(p.sum(axis=1), 1, atol=1e-12)
    assert np.all(g.regime == 0)
    # Dirichlet(1, ..., 1): each marginal is Beta(1, m), mean 1 / (m + 1).
    assert np.allclose(p.mean(axis=0), 1 / (m + 1), atol=0.01)
    assert np.mean(p[:, 0] < 0.5) == pytest.approx(1 - 0.5**m, abs=0.015)


def test_zero_count_and_shapes():
    g = generate(0, Family(Game(3, 3, 5), "simplex"))
    assert len(g) == 0 and g.puzzles.copies.shape == (0, 5, 3)
    assert g.probabilities.shape == (0, 4) and g.duplicates_redrawn == 0
    g = generate(4, Family(Game(6, 3, config.MAX_N), "simplex"), start=10**6)
    assert g.puzzles.copies.shape == (4, config.MAX_N, 6)
    assert g.puzzles.copies.dtype == np.int8


# --- validation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [
        {"count": -1},
        {"count": 2.0},
        {"k": 0},
        {"k": 7},
        {"m": 0},
        {"m": 4},
        {"n": 0},
        {"n": config.MAX_N + 1},
        {"mode": "uniform"},
        {"seed": -1},
        {"seed": 1.5},
        {"start": -3},
        {"mode": "fixed"},
        {"mode": "fixed", "percentages": (50,)},
        {"mode": "fixed", "percentages": (50, 30, 10)},
        {"mode": "fixed", "percentages": (-1, 30)},
        {"mode": "fixed", "percentages": (101, 0)},
        {"mode": "fixed", "percentages": (60, 50)},
        {"mode": "fixed", "percentages": (np.nan, 10)},
        {"mode": "mixed", "percentages": (10, 10)},
        {"mode": "simplex", "percentages": (10, 10)},
        {"regime_weights": (1, 1)},
        {"regime_weights": (1, -1, 1)},
        {"regime_weights": (0, 0, 0)},
        {"regime_weights": (1, np.inf, 1)},
    ],
)
def test_invalid_arguments_raise_value_error(arguments):
    arguments = {"count": 3, **arguments}
    count = arguments.pop("count")
    shape = {key: arguments.pop(key) for key in ("k", "m", "n") if key in arguments}
    options = ("mode", "percentages", "regime_weights", "jokers")
    drawn = {key: arguments.pop(key) for key in options if key in arguments}
    with pytest.raises(ValueError):
        generate(count, Family(Game(**shape), **drawn), **arguments)


def test_invalid_redraw_arguments():
    with pytest.raises(ValueError):
        redraw(0, 0, 0)  # attempts start at 1
    with pytest.raises(ValueError):
        redraw(0, 0, 1, Family(mode="mixed"), regime=0)
    with pytest.raises(ValueError):
        redraw(0, -1, 1, Family(mode="simplex"))


def test_failed_generation_leaves_seen_unchanged(monkeypatch):
    monkeypatch.setattr(config, "GENERATE_MAX_REDRAWS", 2)
    seen = set(puzzle_keys(generate(5, Family(Game(1, 2, 3), "simplex"), seed=1).puzzles.copies))
    before = set(seen)
    with pytest.raises(ValueError, match="redraws"):
        generate(22, Family(Game(1, 2, 3), "simplex"), seed=2, seen=seen)
    assert seen == before


def test_jokers_join_every_puzzle_and_change_nothing_else():
    plain = generate(30, Family(Game(4, 2, 20), "simplex"), seed=4)
    jokers = generate(30, Family(Game(4, 2, 20), "simplex", jokers=2), seed=4)
    assert np.array_equal(plain.puzzles.copies, jokers.puzzles.copies)
    assert plain.puzzles.plain and (jokers.puzzles.jokers == 2).all()
    assert jokers.puzzles.table is None and jokers.puzzles.table_jokers is None
    with pytest.raises(ValueError, match="jokers"):
        generate(3, Family(jokers=config.MAX_JOKERS + 1))


@pytest.mark.parametrize("mode", ["mixed", "simplex", "turn"])
def test_the_puzzles_game_holds_their_jokers_and_their_file_says_so(mode):
    """Generated with J jokers, puzzles are of the game with J (their header says j=J, and
    the file reads back as drawn); without jokers, of the plain game, as ever."""
    from rumdiff.puzzle import Game, format_puzzles, parse_puzzles

    headers = {2: "# G(4, 2, 13) j=2", 1: "# G(4, 2, 13) j=1", 0: "# G(4, 2, 13)"}
    for jokers, header in headers.items():
        game = Game(4, 2, 13, jokers=jokers or config.MAX_JOKERS)
        run = generate(12, Family(Game(4, 2, 13), mode, jokers=jokers), seed=6)
        assert run.puzzles.game == game and all(p.game == game for p in run.puzzles)
        assert repr(run).startswith(f"GeneratedPuzzles(12 x {game}, mode=")
        assert generate(0, Family(Game(4, 2, 13), mode, jokers=jokers)).puzzles.game == game
        text = format_puzzles(run.puzzles, header=True)
        assert text.splitlines()[0] == header
        read = parse_puzzles(text)
        assert read.game == game and list(read) == list(run.puzzles)


def test_a_turns_game_holds_the_jokers_of_its_box():
    from rumdiff.data.turns import draw_turn
    from rumdiff.puzzle import Game

    rng = np.random.default_rng(3)
    assert draw_turn(rng, jokers=2).game == Game(4, 2, 13, jokers=2)
    assert draw_turn(rng, Game(3, 1, 20), jokers=1).game == Game(3, 1, 20, jokers=1)
    assert draw_turn(rng, jokers=0).game == Game(4, 2, 13)


def test_turn_mode_draws_placeable_tables_reproducibly():
    from rumdiff.solve import solve

    run = generate(40, Family(Game(4, 2, 13), "turn", jokers=2), seed=9)
    assert run.mode == "turn" and (run.regime == 0).all()
    again = generate(15, Family(Game(4, 2, 13), "turn", jokers=2), seed=9, start=25)
    for one, other in zip(list(run.puzzles)[25:], again.puzzles, strict=True):
        assert one == other  # a turn depends on its seed and index only
    assert len({p.key for p in run.puzzles}) == 40
    np.testing.assert_allclose(run.probabilities.sum(axis=1), 1)
    for puzzle in run.puzzles:
        rack = puzzle.copies - puzzle.table_copies
        assert rack.sum() + puzzle.jokers - puzzle.table_jokers <= config.TURN_RACK
        assert puzzle.table is not None and puzzle.jokers <= 2
        assert solve(puzzle).feasible  # the sets drawn place the table
    with pytest.raises(ValueError, match="percentages"):
        generate(2, Family(mode="turn", percentages=(10, 10)))
