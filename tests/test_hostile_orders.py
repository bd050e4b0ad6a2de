"""Puzzles made to order against clumsy and hostile orders: refused before any work when
they cannot be met or would not fit in memory, never drawing more than the family holds,
and counted honestly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rumdiff.cli import main

#: Seconds a refusal may take in a fresh process: an order that starts runs far longer.
REFUSED_WITHIN = 60


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def _refused(argv: list[str]) -> str:
    """Run ``rumdiff ARGV`` in a process of its own; its one-line error, once it has
    failed within REFUSED_WITHIN seconds (a test fails, never hangs, if it starts)."""
    try:
        done = subprocess.run([sys.executable, "-m", "rumdiff", *argv], capture_output=True,
                              text=True, timeout=REFUSED_WITHIN)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"rumdiff {argv[0]} still running after {REFUSED_WITHIN} s: not refused")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def test_an_order_over_max_memory_is_refused_at_once(tmp_path):
    out = tmp_path / "o.in"
    err = _refused(["generate", str(out), "--effort", "0:", "--count", "1099511627776",
                    "--max-candidates", "1099511627776", "--max-memory", "0.1",
                    "--jobs", "1"])  # fmt: skip
    assert "among up to 1,099,511,627,776 candidates could need" in err
    assert "over the limit of 0.1 GiB; ask for fewer (--count, --max-candidates)" in err
    assert list(tmp_path.iterdir()) == []


def test_max_memory_counts_the_candidates_an_order_remembers(tmp_path):
    # Ten puzzles, but the key of every candidate drawn is kept to draw no duplicate.
    err = _refused(["generate", str(tmp_path / "o.in"), "--effort", "1000000000:",
                    "--count", "10", "--max-candidates", str(10**8), "--max-memory", "1",
                    "--jobs", "1"])  # fmt: skip
    assert "10 puzzles of G(4, 2, 100) among up to 100,000,000 candidates" in err


def test_an_order_never_draws_more_than_the_family_holds(tmp_path, capsys):
    out = tmp_path / "o.in"
    argv = ["generate", str(out), "--effort", "0:", "-k", "1", "-m", "1", "-n", "3",
            "--count", "1", "--mode", "simplex", "--jobs", "1", "-q"]  # fmt: skip
    assert main(argv) == 0
    counts = json.loads((tmp_path / "o.in.json").read_text())["counts"]
    assert counts["candidates_drawn"] == 8  # G(1, 1, 3) holds 8 puzzles; a block is 32


def test_an_order_for_more_puzzles_than_the_family_holds_is_refused(tmp_path, capsys):
    argv = ["generate", str(tmp_path / "o.in"), "--effort", "0:", "-k", "1", "-m", "1",
            "-n", "3", "--count", "9", "--mode", "simplex"]  # fmt: skip
    assert main(argv) == 1
    assert "G(1, 1, 3) has only 8 distinct puzzles in simplex mode; cannot make 9" in (
        _error(capsys)
    )


def test_a_family_searched_whole_is_not_answered_with_more_candidates(tmp_path, capsys):
    argv = ["generate", str(tmp_path / "o.in"), "--effort", "1:", "-k", "1", "-m", "1",
            "-n", "3", "--count", "1", "--mode", "simplex", "--jobs", "1"]  # fmt: skip
    assert main(argv) == 1
    err = _error(capsys)
    assert "among all 8 distinct puzzles" in err and "--max-candidates" not in err


@pytest.mark.parametrize("order", [["--difficulty", "easy"], ["--effort", "0:1"]])
def test_easy_turns_are_refused_before_any_work(tmp_path, order):
    err = _refused(["generate", str(tmp_path / "o.in"), *order, "--mode", "turn", "-n", "13",
                    "--jokers", "2", "--jobs", "1"])  # fmt: skip
    assert "no turn of G(4, 2, 13) j=2 lies in" in err and "a turn always has a table" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("n", [1, 2])
def test_turns_of_one_or_two_values_are_groups_on_a_table(tmp_path, capsys, n):
    from rumdiff.puzzle import read_puzzles

    out = tmp_path / "t.in"
    argv = ["generate", str(out), "--puzzles-only", "--mode", "turn", "-n", str(n),
            "--count", "3", "-q"]  # fmt: skip
    assert main(argv) == 0
    puzzles = read_puzzles(out)
    assert (puzzles.n, len(puzzles)) == (n, 3) and puzzles.tabled.all()
    assert main(["solve", str(out), "-o", str(tmp_path / "s.txt")]) == 0


def test_acceptance_counts_the_candidates_an_order_needed(tmp_path, capsys):
    # Every puzzle has an effort of at least 0: each candidate is accepted.
    out = tmp_path / "o.in"
    argv = ["generate", str(out), "--effort", "0:", "--count", "3", "-n", "13",
            "--no-filter", "--jobs", "1"]  # fmt: skip
    assert main(argv) == 0
    assert "acceptance 100.0%" in capsys.readouterr().err
    counts = json.loads((tmp_path / "o.in.json").read_text())["counts"]
    assert counts["acceptance_rate"] == 1.0 and counts["candidates_needed"] == 3
    assert counts["candidates_drawn"] == 32  # a whole first block, drawn and searched
