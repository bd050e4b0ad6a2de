"""Tests for rumdiff.report.exploration and ``rumdiff explore`` on tiny grids."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rumdiff.cli import main
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game
from rumdiff.report.exploration import explore, grid_cells, write_explore
from rumdiff.solve import search_effort, solve

PNG = b"\x89PNG\r\n\x1a\n"
TINY = {"step": 50, "zoom_step": 5, "zoom_max": 10, "samples": 3, "seed": 2}


def test_grid_cells():
    assert grid_cells(50, 100) == [
        (0, 0), (0, 50), (0, 100), (50, 0), (50, 50), (100, 0)
    ]  # fmt: skip
    assert len(grid_cells(1, 10)) == 121  # the zoomed grid: every pair sums to <= 100
    assert len(grid_cells(5, 100)) == 21 * 22 // 2
    assert grid_cells(0.1, 0.2) == [(0, 0), (0, 0.1), (0, 0.2), (0.1, 0), (0.1, 0.1),
                                    (0.1, 0.2), (0.2, 0), (0.2, 0.1), (0.2, 0.2)]  # fmt: skip
    for step, maximum in ((0, 10), (-1, 10), (5, 0), (5, 101), (20, 10), (float("nan"), 10)):
        with pytest.raises(ValueError):
            grid_cells(step, maximum)


@pytest.fixture(scope="module")
def tiny():
    return explore(jobs=1, **TINY)


def test_explore_means_match_the_solver(tiny):
    assert list(tiny["grid"].unique()) == ["full", "zoom"]
    assert len(tiny) == 6 + 9
    assert np.allclose(tiny["p0"] + tiny["p1"] + tiny["p2"], 100)
    # Cells with one possible puzzle (all 0, 1 or 2 copies) hold one puzzle.
    single = (tiny[["p0", "p1", "p2"]] == 100).any(axis=1)
    assert (tiny.loc[single, "puzzles"] == 1).all() and (tiny.loc[~single, "puzzles"] == 3).all()
    row = tiny[(tiny["grid"] == "zoom") & (tiny["p0"] == 5) & (tiny["p1"] == 5)].iloc[0]
    puzzles = generate(3, Family(mode="fixed", percentages=(5, 5)), seed=2).puzzles
    efforts = [search_effort(p) for p in puzzles]
    assert row["mean_transitions"] == np.mean([e.transitions for e in efforts])
    assert row["mean_states"] == np.mean([e.states for e in efforts])
    assert row["mean_score"] == np.mean([solve(p).score for p in puzzles])
    assert row["dp_share"] == np.mean([e.method == "dp" for e in efforts])
    assert (tiny["mean_seconds"] > 0).all()


def test_explore_does_not_depend_on_jobs(tiny):
    two = explore(jobs=2, **TINY)
    timing = ["mean_seconds", "median_seconds", "max_seconds"]
    pd.testing.assert_frame_equal(two.drop(columns=timing), tiny.drop(columns=timing))


def test_write_explore(tiny, tmp_path):
    written = write_explore(tiny, tmp_path / "out", Game(4, 2, 100))
    assert [p.name for p in written] == ["explore.csv", "explore_full.png", "explore_zoom.png"]
    for png in written[1:]:
        assert png.read_bytes()[:8] == PNG and png.stat().st_size > 10_000
    pd.testing.assert_frame_equal(pd.read_csv(written[0]), tiny, check_dtype=False)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in written)


def test_explore_rejects_bad_arguments():
    with pytest.raises(ValueError, match="m >= 2"):
        explore(Game(4, 1, 100), **TINY)
    with pytest.raises(ValueError, match="samples"):
        explore(**{**TINY, "samples": 0})
    with pytest.raises(ValueError, match="grid step"):
        explore(**{**TINY, "step": 0})
    for jobs in (0, 1.5, None):
        with pytest.raises(ValueError, match="jobs must be a "):
            explore(**{**TINY, "jobs": jobs})
    for limit in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="max_memory_gb"):
            explore(**{**TINY, "max_memory_gb": limit})


def test_cli_explore(tmp_path, capsys):
    out = tmp_path / "explore"
    argv = ["explore", str(out), "--step", "50", "--zoom-step", "5", "--samples", "2"]
    assert main([*argv, "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "explore_full.png" in err and "most work at" in err
    assert sorted(p.name for p in out.iterdir()) == [
        "explore.csv", "explore_full.png", "explore_zoom.png"
    ]  # fmt: skip
    for bad, message, code in (
        (["-m", "1"], "m >= 2", 1),
        (["--samples", "0"], "--samples: must be a whole number", 2),
        (["--zoom-max", "200"], "grid extent", 1),
        (["--jobs", "0"], "--jobs: must not be 0", 2),
    ):
        assert main([*argv, *bad, "--quiet"]) == code
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("rumdiff explore: error:") and message in err


def test_cli_explore_refuses_an_outdir_it_cannot_write_before_any_work(tmp_path, capsys):
    # A file given as OUTDIR (it used to be refused only after every puzzle was solved),
    # and a folder holding a folder where a figure goes. A thousand puzzles a cell would
    # take minutes: the command ends at once.
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    crowded = tmp_path / "crowded"
    (crowded / "explore_zoom.png").mkdir(parents=True)
    for outdir, message in (
        (afile, f"cannot write {afile / 'explore.csv'}: {afile} is not a folder"),
        (crowded, f"cannot write {crowded / 'explore_zoom.png'}: it is a folder; choose a"),
    ):  # fmt: skip
        argv = ["explore", str(outdir), "--samples", "1000", "--jobs", "1", "--quiet"]
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"rumdiff explore: error: {message}")
    assert afile.read_text() == "mine"
