"""Tests for rumdiff.data.order: puzzles made to order, their range, seeds and filter."""

from __future__ import annotations

import numpy as np
import pytest

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.data.order import OrderError, effort_range, make_to_order, range_text
from rumdiff.puzzle import Game
from rumdiff.solve import search_effort

#: A range G(4, 2, 13) reaches often (its search efforts go up to about 1.8 million).
LOW, HIGH = 10_000, 300_000
SMALL = dict(family=Family(Game(4, 2, 13)), seed=3)
#: A family too small for the hard class: G(3, 1, 13) needs a few thousand transitions.
TINY = dict(family=Family(Game(3, 1, 13)), seed=3)


def _measured(puzzles) -> list[int]:
    """Each puzzle's search effort, measured afresh."""
    return [search_effort(puzzle).transitions for puzzle in puzzles]


def test_accepted_puzzles_are_in_range_measured_again():
    result = make_to_order(6, LOW, HIGH, **SMALL)
    efforts = _measured(result.puzzles)
    assert efforts == result.efforts.tolist()
    assert all(LOW <= e < HIGH for e in efforts)
    assert len(result.puzzles) == 6 and result.searched == result.drawn >= 6
    assert np.all(np.diff(result.ids) > 0)  # candidate order
    assert len({p.key for p in result.puzzles}) == 6
    for puzzle, solution in zip(result.puzzles, result.solutions, strict=True):
        assert solution.arrangement.check(puzzle) == solution.score
    assert result.acceptance_rate == 6 / result.needed and result.needed == result.ids[-1] + 1


def test_accepted_are_the_first_candidates_in_range():
    result = make_to_order(4, LOW, HIGH, **SMALL)
    candidates = generate(result.drawn, **SMALL).puzzles
    inside = [i for i, e in enumerate(_measured(candidates)) if LOW <= e < HIGH]
    assert result.ids.tolist() == inside[:4]


def test_same_seed_same_puzzles_whatever_the_jobs(monkeypatch):
    monkeypatch.setattr(config, "SPAWN_SECONDS", 0.0)  # workers from the first block
    one = make_to_order(3, LOW, HIGH, **SMALL, jobs=1)
    two = make_to_order(3, LOW, HIGH, **SMALL, jobs=2)
    assert np.array_equal(one.puzzles.copies, two.puzzles.copies)
    assert (one.drawn, one.searched, one.blocks) == (two.drawn, two.searched, two.blocks)
    other = make_to_order(3, LOW, HIGH, Family(Game(4, 2, 13)), seed=4)
    assert not np.array_equal(one.puzzles.copies, other.puzzles.copies)


def test_low_end_inclusive_high_end_exclusive():
    first = make_to_order(1, LOW, HIGH, **SMALL)
    effort, index = int(first.efforts[0]), int(first.ids[0])
    budget = dict(SMALL, max_candidates=index + 1)
    assert make_to_order(1, effort, effort + 1, **budget).ids.tolist() == [index]
    try:  # with the high end at its effort, that candidate is never accepted
        assert index not in make_to_order(1, effort - 1, effort, **budget).ids.tolist()
    except OrderError as error:
        assert error.drawn == index + 1


def test_classes_follow_the_labels_thresholds(monkeypatch):
    t1, t2 = config.LABEL_THRESHOLDS["search"]
    assert effort_range("easy") == (0, 1)
    assert effort_range("moderate") == (1, t1)
    assert effort_range("medium") == (t1, t2)
    assert effort_range("hard") == (t2, None)
    monkeypatch.setitem(config.LABEL_THRESHOLDS, "search", (100, 200))
    assert effort_range("medium") == (100, 200) and effort_range("hard") == (200, None)
    assert "hard class" in range_text(200, None)
    assert "hard" not in range_text(300, None)


@pytest.mark.parametrize(
    "difficulty, effort",
    [(None, None), ("hard", (1, 2)), ("harder", None), (None, (5, 5)), (None, (-1, 3)),
     (None, (1.5, 3))],
)  # fmt: skip
def test_bad_ranges_are_refused(difficulty, effort):
    with pytest.raises(ValueError):
        effort_range(difficulty, effort)


def test_unreachable_range_says_how_many_and_what_was_seen():
    t1, t2 = config.LABEL_THRESHOLDS["search"]
    with pytest.raises(OrderError) as caught:
        make_to_order(2, t2, None, **TINY, max_candidates=150)
    error = caught.value
    message = str(error)
    assert "\n" not in message
    assert message.startswith("no puzzle of G(3, 1, 13) reached the hard class's")
    assert "among 150 candidates" in message and f"{t2:,}" in message
    assert (error.found, error.drawn, error.searched) == (0, 150, 150)
    assert 0 <= error.lowest <= error.highest < t2
    assert f"highest effort seen: {error.highest:,}" in message


def test_a_family_whose_draws_repeat_searches_what_it_drew_and_says_so():
    # G(1, 1, 5) holds 32 puzzles, but its draws repeat long before every one is drawn:
    # the candidates before the one that kept repeating are searched, then the order ends.
    t2 = config.LABEL_THRESHOLDS["search"][1]
    with pytest.raises(OrderError) as caught:
        make_to_order(2, t2, None, family=Family(Game(1, 1, 5)), seed=3)
    error = caught.value
    assert error.exhausted and 0 < error.drawn == error.searched < 32
    assert f"among {error.drawn:,} candidates, after which " in str(error)
    assert "draws in a row repeated puzzles drawn before" in str(error)
    assert f"highest effort seen: {error.highest:,}" in str(error)


def test_a_screen_skips_but_never_accepts():
    calls = []

    def every_other(puzzles):
        calls.append(len(puzzles))
        keep = np.zeros(len(puzzles), dtype=bool)
        keep[::2] = True
        return keep

    screened = make_to_order(4, LOW, HIGH, **SMALL, screen=every_other)
    assert all(LOW <= e < HIGH for e in _measured(screened.puzzles))
    assert screened.searched < screened.drawn and sum(calls) == screened.drawn

    with pytest.raises(OrderError, match="none searched"):  # a screen that keeps nothing
        make_to_order(1, LOW, HIGH, **SMALL, screen=lambda p: np.zeros(len(p), bool),
                      max_candidates=64)  # fmt: skip
    with pytest.raises(OrderError):  # keeping everything does not make a puzzle hard
        make_to_order(1, config.LABEL_THRESHOLDS["search"][1], None, **TINY,
                      screen=lambda p: np.ones(len(p), bool), max_candidates=64)  # fmt: skip


def test_the_screen_is_called_from_the_block_where_the_work_ahead_reaches_screen_work():
    # A screen that keeps every candidate changes nothing but when it is first called:
    # from the first block whose projection (transitions searched per puzzle accepted,
    # times the puzzles still missing; 0 before the first block, unbounded while none is
    # accepted) reaches screen_work. The projections are worked out here from efforts
    # measured afresh.
    order = dict(SMALL, max_candidates=2000)
    plain = make_to_order(5, 500_000, None, **order)
    assert len(plain.blocks) >= 3 and plain.screened_from is None
    efforts = _measured(generate(plain.drawn, **SMALL).puzzles)
    ahead, found, work = [], 0, 0
    for block in plain.blocks:
        ahead.append(0 if not ahead else np.inf if found == 0 else (5 - found) * work / found)
        inside = efforts[block["start"] : block["start"] + block["size"]]
        found = min(5, found + sum(e >= 500_000 for e in inside))
        work += sum(inside)
    assert ahead[0] == 0 and all(0 < a < np.inf for a in ahead[1:])
    firsts = {}
    for screen_work in (0, ahead[1], ahead[1] + 1, ahead[2], 10**18):
        starts = []

        def keep_all(puzzles, starts=starts):
            starts.append(len(puzzles))
            return np.ones(len(puzzles), dtype=bool)

        result = make_to_order(5, 500_000, None, **order, screen=keep_all,
                               screen_work=int(screen_work))  # fmt: skip
        assert result.ids.tolist() == plain.ids.tolist() and result.blocks == plain.blocks
        expected = next((b["start"] for b, a in zip(plain.blocks, ahead, strict=True)
                         if a >= int(screen_work)), None)  # fmt: skip
        assert result.screened_from == expected
        called = [
            b["size"] for b in plain.blocks if expected is not None and b["start"] >= expected
        ]
        assert starts == called
        firsts[screen_work] = expected
    assert firsts[0] == 0 and firsts[10**18] is None
    assert firsts[ahead[1]] == plain.blocks[1]["start"]  # deferred past the first block


def test_a_first_block_with_none_in_range_calls_the_screen_at_once():
    # After a block with no puzzle in range the search still ahead is unbounded: the
    # screen is called from the next block, whatever screen_work is. The range here is
    # one effort that only a candidate after the first block has.
    candidates = generate(64, **SMALL).puzzles
    efforts = _measured([candidates[i] for i in range(64)])
    later = next(e for e in efforts[32:] if e > 0 and e not in efforts[:32])
    calls = []

    def keep_all(puzzles):
        calls.append(len(puzzles))
        return np.ones(len(puzzles), dtype=bool)

    result = make_to_order(1, later, later + 1, **SMALL, screen=keep_all, screen_work=10**18)
    assert result.blocks[0] == {"start": 0, "size": 32, "searched": 32}
    assert result.screened_from == 32 and calls[0] == result.blocks[1]["size"]
    assert result.efforts.tolist() == [later]


def test_turns_with_jokers_to_order():
    from rumdiff.puzzle import Game

    result = make_to_order(2, 1, 50_000, Family(Game(4, 2, 13), "turn", jokers=2), seed=5)
    assert result.puzzles.jokers is not None
    assert result.puzzles.game == Game(4, 2, 13, jokers=2)  # a file of them says j=2
    assert all(solution.puzzle.game == result.puzzles.game for solution in result.solutions)
    assert all(1 <= e < 50_000 for e in _measured(result.puzzles))
