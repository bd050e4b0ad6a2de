"""Write the golden files in tests/data: seeded puzzles with answers from references.

Usage::

    python tests/make_golden.py            # every file
    python tests/make_golden.py ilp        # tests/data/ilp_optima.csv.gz only
    python tests/make_golden.py search     # tests/data/search_work.csv.gz only
    python tests/make_golden.py hard       # tests/data/ilp_hard.csv.gz only
    python tests/make_golden.py search-jokers  # tests/data/search_jokers.csv.gz only
    python tests/make_golden.py jokers     # tests/data/ilp_jokers.csv.gz only
    python tests/make_golden.py joker-work # tests/data/joker_work.csv.gz only
    python tests/make_golden.py features   # tests/data/features_extended.csv.gz only

``ilp_optima.csv.gz`` holds the puzzles of :func:`ilp_cases` with their optimum by the
reference ILP (HiGHS through ``scipy.optimize.milp``, zero gap). The fast test run
compares the solver with these stored optima; the ``slow`` tests solve the same
puzzles with the live ILP again.

``ilp_hard.csv.gz`` holds the puzzles of :func:`hard_cases`, the solver's worst shapes
(k = 6, m = 3, n = 200, simplex and dense; the dense G(4, 3, 100); a puzzle whose lists
crowd between colour passes), with the better of two ILP runs, HiGHS with and without
presolve: on two of them (kept here) one of the two claims a proven optimum one point
short. Both scores are stored; the test checks that
the solver reaches the better one (each is a checked arrangement).

``search_work.csv.gz`` holds the puzzles of :func:`search_cases` with their search
effort (docs/search-effort.md). The committed file was written by rumdiff 0.1.0's
``solve(puzzle, beam_width=0)`` (commit 342e42a), the definition's origin; rewriting it
with :func:`rumdiff.solve.search_effort` gives the same bytes, and must: a change here
is a change of every puzzle's difficulty label.

``search_jokers.csv.gz`` holds the puzzles of :func:`search_joker_cases` (jokers, tables
and real-game turns; the ``puzzle`` column is :func:`rumdiff.puzzle.encode_games` text)
with the effort of the reference search for jokers and the table (docs/search-effort.md,
"Jokers and the table"), written when that definition began: again a change here is a
change of difficulty labels.
``ilp_jokers.csv.gz`` holds the puzzles of :func:`joker_cases` (real-game turns, G(4, 2,
30) with one or two jokers and drawn copy shares, tiny random tables, some infeasible)
as file-format tile lines with the ILP's score, or ``infeasible``.

``joker_work.csv.gz`` holds the puzzles of :func:`joker_work_cases` with what the
reference search's joker passes returned at commit 6c81830 (best, states, transitions,
passes, status: 0 ok, 1 not reached, 2 over budget), for L = -1 and a known reachable
score: the reference search that difficulty for joker puzzles counts. They are now
``rumdiff.solve.search.joker_passes(puzzle, L)``; at 6c81830 they were
``run_joker_dp(puzzle, "value", config.MAX_STATES, beam=0, lower=L)``. A faster solver
must switch its shortcuts on elsewhere; rewriting this file must give the same bytes.

``features_extended.csv.gz`` holds the extended features (``rumdiff.features.extended``)
of the puzzles of ``search_work.csv.gz``, row for row: the values the models learn from,
as the tree of commit 5bfb4f5 computed them. A faster kernel must give the same bytes.
Rewrite or compare it after ``make test`` has compiled the kernels again (it drops their
caches when a kernel file changes): numba checks a cached kernel against its own file
only, so ``extended_stack`` would keep the machine code of a search changed beside it.

Files are gzip-compressed CSV written byte for byte the same on every run (no time stamp
in the gzip header), so a rerun that changes nothing leaves ``git status`` clean.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from helpers import random_copies  # noqa: E402

from rumdiff.data import Family  # noqa: E402
from rumdiff.puzzle import Game, encode_puzzle  # noqa: E402

DATA = HERE / "data"

#: The ILP grid: 36 (n, k, m) combinations x 56 puzzles, from sparse to full.
ILP_GRID = [(n, k, m) for n in (5, 13, 30, 100) for k in (3, 4, 5) for m in (1, 2, 3)]
ILP_GRID_PUZZLES = 56
#: Shapes beyond the grid: (k, m, n, puzzles), copy shares drawn from the simplex.
ILP_BEYOND = [(1, 3, 40, 10), (2, 2, 40, 10), (6, 2, 30, 10), (6, 3, 12, 10), (4, 2, 1000, 4)]


def ilp_cases():
    """Yield ``(case, copies, m)``: the grid from sparse to full, then the shapes beyond it."""
    for n, k, m in ILP_GRID:
        rng = np.random.default_rng([n, k, m])
        for trial in range(ILP_GRID_PUZZLES):
            absent = 0.9 * (1 - trial / (ILP_GRID_PUZZLES - 1))  # share of absent tiles
            rest = rng.dirichlet(np.ones(m)) * (1 - absent)
            copies = random_copies(rng, k=k, m=m, n=n, probabilities=np.r_[absent, rest])
            yield f"grid-{n}-{k}-{m}", copies, m
    for k, m, n, count in ILP_BEYOND:
        rng = np.random.default_rng([k, m, n])
        for _ in range(count):
            yield f"beyond-{k}-{m}-{n}", random_copies(rng, k=k, m=m, n=n), m


#: The hard shapes: (name, k, m, n, puzzles, generate() options, seed).
HARD = [
    ("simplex-6-3-200", 6, 3, 200, 16, {"mode": "simplex"}, 14),
    ("dense-6-3-200", 6, 3, 200, 6, {"mode": "fixed", "percentages": (20, 20, 20)}, 14),
    ("half3-6-3-200", 6, 3, 200, 6, {"mode": "fixed", "percentages": (40, 5, 5)}, 14),
    ("dense-4-3-100", 4, 3, 100, 8, {"mode": "fixed", "percentages": (20, 20, 20)}, 14),
]
#: Single puzzles: (name, k, m, n, generate() options, seed, index). On the first two
#: HiGHS claimed a wrong optimum; the third crowds the DP's lists between colour passes.
SINGLES = [
    ("highs-6-3-100", 6, 3, 100, {"mode": "fixed", "percentages": (20, 20, 20)}, 1, 2),
    ("highs-6-1-100", 6, 1, 100, {"mode": "fixed", "percentages": (20,)}, 1, 8),
    ("crowded-6-3-200", 6, 3, 200, {"mode": "simplex"}, 1, 450),
]


def hard_cases():
    """Yield ``(case, copies, m)``: the hard shapes, then the single puzzles."""
    from rumdiff.data.generator import generate

    for name, k, m, n, count, options, seed in HARD:
        for puzzle in generate(count, Family(Game(k, m, n), **options), seed=seed).puzzles:
            yield name, puzzle.copies, m
    for name, k, m, n, options, seed, index in SINGLES:
        puzzles = generate(index + 1, Family(Game(k, m, n), **options), seed=seed).puzzles
        yield name, puzzles[index].copies, m


def search_cases():
    """Yield stacks of puzzles: 1,000 mixed G(4, 2, 100), then small simplex shapes."""
    from rumdiff.data.generator import generate

    yield generate(1000, Family(Game(4, 2, 100), "mixed"), seed=2026).puzzles
    for k in (3, 4, 5):
        for m in (1, 2, 3):
            for n in (13, 40):
                yield generate(
                    12, Family(Game(k, m, n), "simplex"), seed=100 * k + 10 * m + n
                ).puzzles
    yield generate(12, Family(Game(6, 2, 30), "simplex"), seed=7).puzzles
    yield generate(12, Family(Game(6, 3, 12), "simplex"), seed=8).puzzles


def search_joker_cases():
    """Yield stacks of puzzles with jokers or a table: turns of the real game, rack
    jokers in simplex G(4, 2, 30) and G(4, 2, 100), and small random tables."""
    from rumdiff.data.generator import generate
    from rumdiff.puzzle import Puzzle, Puzzles

    yield generate(60, Family(Game(4, 2, 13), "turn", jokers=2), seed=2211).puzzles
    yield generate(12, Family(Game(4, 2, 13), "turn", jokers=4), seed=2212).puzzles
    for jokers in (1, 2):
        yield generate(20, Family(Game(4, 2, 30), "simplex", jokers=jokers), seed=2213).puzzles
    yield generate(4, Family(Game(4, 2, 100), "simplex", jokers=2), seed=2214).puzzles
    rng = np.random.default_rng(2215)
    small = []
    for _ in range(40):
        copies = rng.integers(0, 2, size=(8, 3))
        table = np.minimum(copies, rng.random((8, 3)) < 0.3)
        jokers = int(rng.integers(0, 3))
        small.append(Puzzle(copies, m=1, jokers=jokers, table=table,
                            table_jokers=int(rng.integers(0, jokers + 1))))  # fmt: skip
    yield Puzzles.from_list(small)


def _tiny_table(rng):
    """A tiny puzzle with a random table and jokers (it may be infeasible)."""
    from rumdiff.puzzle import Puzzle

    k, m, n = int(rng.integers(3, 6)), int(rng.integers(1, 4)), int(rng.integers(5, 9))
    copies = (rng.random((n, k)) < 0.4) * rng.integers(1, m + 1, (n, k))
    jokers = int(rng.integers(0, 3))
    table = (rng.random((n, k)) < rng.random() * 0.6) * copies
    owed = int(rng.integers(0, jokers + 1))
    return Puzzle(copies, m=m, jokers=jokers, table=table, table_jokers=owed)


def joker_cases(turns: int = 40, shares: int = 20, tiny: int = 40):
    """Yield ``(case, puzzle)``: seeded turns of G(4, 2, 13) with 3-12 table sets, then
    G(4, 2, 30) with 1-2 jokers and simplex copy shares, then tiny random tables."""
    from rumdiff.data.turns import draw_turn
    from rumdiff.puzzle import Puzzle

    rng = np.random.default_rng(2201)
    for _ in range(turns):
        yield "turn", draw_turn(rng, sets=int(rng.integers(3, 13)))
    rng = np.random.default_rng(2202)
    for _ in range(shares):
        copies = rng.choice(3, size=(30, 4), p=rng.dirichlet(np.ones(3)))
        yield "simplex-4-2-30", Puzzle(copies, m=2, jokers=int(rng.integers(1, 3)))
    rng = np.random.default_rng(2203)
    for _ in range(tiny):
        yield "tiny-table", _tiny_table(rng)


def joker_work_cases():
    """Yield ``(case, puzzle)``: 24 of :func:`joker_cases`' puzzles, each kind, some
    tiny tables infeasible."""
    yield from joker_cases(turns=8, shares=6, tiny=10)


def tile_line(puzzle) -> str:
    """A puzzle's tile line in the file format (jokers ``J``, the table after ``|``)."""
    from rumdiff.puzzle import Puzzles, format_puzzles

    return format_puzzles(Puzzles.from_list([puzzle])).splitlines()[2]


def read_tile_line(line: str, k: int, m: int, n: int):
    """The puzzle of a tile line written by :func:`tile_line`."""
    from rumdiff.puzzle import parse_puzzles

    count = len(line.split()) - line.split().count("|")
    return parse_puzzles(f"1\n{count}\n{line}\n", k=k, m=m, n=n)[0]


def known_lower(puzzle) -> int:
    """A score the puzzle reaches, from outside the joker DP: the joker-free optimum
    without a table (jokers may stay on the rack), the table's points with one."""
    from rumdiff.puzzle import Puzzle
    from rumdiff.solve import solve

    if puzzle.table is None and puzzle.table_jokers == 0:
        return solve(Puzzle(puzzle.copies, m=puzzle.m)).score
    return int(puzzle.values @ puzzle.table_copies.sum(axis=1))


def read_golden(name: str):
    """Rows of a golden file as dicts of str; see the module docstring."""
    with gzip.open(DATA / name, "rt", encoding="ascii") as stream:
        head, *rows = stream.read().splitlines()
    return [dict(zip(head.split(","), row.split(","), strict=True)) for row in rows]


def write_golden(name: str, columns: list[str], rows: list[tuple]) -> None:
    text = "\n".join([",".join(columns), *(",".join(map(str, row)) for row in rows)]) + "\n"
    DATA.mkdir(exist_ok=True)
    with open(DATA / name, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as stream:
            stream.write(text.encode("ascii"))


def make_ilp() -> None:
    from rumdiff.solve.twins.ilp import solve_ilp

    began, rows = time.perf_counter(), []
    for case, copies, m in ilp_cases():
        score = solve_ilp(copies).check(copies)
        n, k = copies.shape
        rows.append((case, k, m, n, encode_puzzle(copies), score))
    write_golden("ilp_optima.csv.gz", ["case", "k", "m", "n", "puzzle", "score"], rows)
    print(f"ilp_optima.csv.gz: {len(rows)} puzzles in {time.perf_counter() - began:.0f} s")


def make_hard() -> None:
    from rumdiff.solve.twins.ilp import solve_ilp

    began, rows = time.perf_counter(), []
    for case, copies, m in hard_cases():
        on = solve_ilp(copies).check(copies)
        off = solve_ilp(copies, presolve=False).check(copies)
        n, k = copies.shape
        rows.append((case, k, m, n, encode_puzzle(copies), on, off))
        print(f"{case}: presolve {on}, without {off}", flush=True)
    columns = ["case", "k", "m", "n", "puzzle", "presolve", "no_presolve"]
    write_golden("ilp_hard.csv.gz", columns, rows)
    print(f"ilp_hard.csv.gz: {len(rows)} puzzles in {time.perf_counter() - began:.0f} s")


def make_search() -> None:
    from rumdiff.puzzle import encode_puzzles
    from rumdiff.solve import search_effort

    began, rows = time.perf_counter(), []
    for puzzles in search_cases():
        for puzzle, text in zip(puzzles, encode_puzzles(puzzles.copies), strict=True):
            e = search_effort(puzzle)
            shape = (puzzles.k, puzzles.m, puzzles.n)
            rows.append((*shape, text, e.score, e.states, e.transitions, e.passes, e.method))
    columns = ["k", "m", "n", "puzzle", "score", "states", "transitions", "exact_passes", "method"]
    write_golden("search_work.csv.gz", columns, rows)
    print(f"search_work.csv.gz: {len(rows)} puzzles in {time.perf_counter() - began:.0f} s")


def make_search_jokers() -> None:
    from rumdiff.puzzle import encode_games
    from rumdiff.solve import search_effort

    began, rows = time.perf_counter(), []
    for puzzles in search_joker_cases():
        for puzzle, text in zip(puzzles, encode_games(puzzles), strict=True):
            e = search_effort(puzzle)
            score = "infeasible" if e.score is None else e.score
            shape = (puzzles.k, puzzles.m, puzzles.n)
            rows.append((*shape, text, score, e.states, e.transitions, e.passes, e.method))
    columns = ["k", "m", "n", "puzzle", "score", "states", "transitions", "passes", "method"]
    write_golden("search_jokers.csv.gz", columns, rows)
    print(f"search_jokers.csv.gz: {len(rows)} puzzles in {time.perf_counter() - began:.0f} s")


def make_jokers() -> None:
    from rumdiff.solve.twins.ilp import solve_ilp

    began, rows = time.perf_counter(), []
    for case, puzzle in joker_cases():
        found = solve_ilp(puzzle)
        score = "infeasible" if found is None else found.check(puzzle)
        rows.append((case, puzzle.k, puzzle.m, puzzle.n, tile_line(puzzle), score))
    write_golden("ilp_jokers.csv.gz", ["case", "k", "m", "n", "puzzle", "score"], rows)
    print(f"ilp_jokers.csv.gz: {len(rows)} puzzles in {time.perf_counter() - began:.0f} s")


def make_joker_work() -> None:
    from rumdiff.solve.engine import STATUSES
    from rumdiff.solve.search import joker_passes

    began, rows = time.perf_counter(), []
    for case, puzzle in joker_work_cases():
        for lower in (-1, known_lower(puzzle)):
            *work, status = joker_passes(puzzle, lower)
            work = (*work, STATUSES.index(status))
            shape = (puzzle.k, puzzle.m, puzzle.n)
            rows.append((case, *shape, tile_line(puzzle), lower, *work))
    columns = ["case", "k", "m", "n", "puzzle", "lower", "best", "states", "transitions"]
    write_golden("joker_work.csv.gz", [*columns, "passes", "status"], rows)
    print(f"joker_work.csv.gz: {len(rows)} runs in {time.perf_counter() - began:.0f} s")


def search_stacks():
    """Yield ``(m, stack)``: the puzzles of ``search_work.csv.gz`` in order, one count
    stack for each run of rows of one shape."""
    from itertools import groupby

    from rumdiff.puzzle import decode_puzzle

    stored = read_golden("search_work.csv.gz")
    for shape, puzzles in groupby(stored, key=lambda row: (row["k"], row["m"], row["n"])):
        k, m, n = map(int, shape)
        yield m, np.stack([decode_puzzle(row["puzzle"], k, n, m=m) for row in puzzles])


def make_features() -> None:
    from rumdiff.features.extended import EXTENDED_FEATURES, extended_features

    began, rows = time.perf_counter(), []
    for m, stack in search_stacks():
        columns = extended_features(stack, m=m)
        rows.extend(zip(*(columns[name].tolist() for name in EXTENDED_FEATURES), strict=True))
    write_golden("features_extended.csv.gz", list(EXTENDED_FEATURES), rows)
    print(f"features_extended.csv.gz: {len(rows)} puzzles in {time.perf_counter() - began:.0f} s")


MAKERS = {
    "ilp": make_ilp,
    "search": make_search,
    "hard": make_hard,
    "search-jokers": make_search_jokers,
    "jokers": make_jokers,
    "joker-work": make_joker_work,
    "features": make_features,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*", help=f"files to write: {', '.join(MAKERS)} (all)")
    chosen = parser.parse_args().which or list(MAKERS)
    unknown = sorted(set(chosen) - set(MAKERS))
    if unknown:
        parser.error(f"unknown golden file {unknown[0]!r}; expected one of {', '.join(MAKERS)}")
    for which in chosen:
        MAKERS[which]()


if __name__ == "__main__":
    main()
