"""How the beam width changes the solver's time on puzzles with jokers, family by family.

Usage: ``python experiments/sweep_joker_beam.py [--count 20] [--seed 3] [--beams 64,128]
[--repeats 2]``.

The beam of the jokers' fast path (``solve(puzzle, beam_width=W)``) gives its exact
passes a lower bound; a wider beam costs more itself and may save more in the exact
passes. Per family (rack jokers drawn by ``generate --jokers``, and real-game turns with
a table), every puzzle is solved at each width in this one process, the widths taking
turns, and the least of ``--repeats`` runs is kept. Prints milliseconds a puzzle per
width and the ratio of the last width to the first; the scores must agree.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.data.turns import generate_turns
from rumdiff.puzzle import Game, Puzzle
from rumdiff.solve import solve

FAMILIES = {
    "turns G(4,2,13) j=2": None,
    "G(4,2,13) simplex j=2": Family(Game(4, 2, 13), "simplex", jokers=2),
    "G(3,1,50) simplex j=2": Family(Game(3, 1, 50), "simplex", jokers=2),
    "G(4,2,100) simplex j=1": Family(Game(4, 2, 100), "simplex", jokers=1),
    "G(4,2,100) simplex j=2": Family(Game(4, 2, 100), "simplex", jokers=2),
    "G(4,2,100) mixed j=2": Family(Game(4, 2, 100), "mixed", jokers=2),
    "G(4,3,100) simplex j=2": Family(Game(4, 3, 100), "simplex", jokers=2),
    "G(5,2,100) simplex j=2": Family(Game(5, 2, 100), "simplex", jokers=2),
}


def _puzzles(family, count: int, seed: int) -> list[Puzzle]:
    if family is None:
        stack = generate_turns(count, Game(4, 2, 13), jokers=2, seed=seed)[0]
    else:
        stack = generate(count, family, seed=seed).puzzles
    return [stack[i] for i in range(len(stack))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles a family")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--beams", default="64,128", help="beam widths, comma-separated")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    beams = [int(b) for b in args.beams.split(",")]
    solve(Puzzle.from_tiles(["J", (1, 0), (2, 0)], k=4, m=2, n=13))  # compiled beforehand
    print(f"{args.count} puzzles a family, seed {args.seed}, least of {args.repeats} runs")
    print(f"{'family':24}" + "".join(f"{f'beam {b} ms':>14}" for b in beams) + "   last/first")
    for name, family in FAMILIES.items():
        puzzles = _puzzles(family, args.count, args.seed)
        best = dict.fromkeys(beams, np.inf)
        scores = {}
        for _ in range(args.repeats):
            for beam in beams:
                started = time.perf_counter()
                scores[beam] = [solve(puzzle, beam_width=beam).score for puzzle in puzzles]
                best[beam] = min(best[beam], time.perf_counter() - started)
        if any(scores[beam] != scores[beams[0]] for beam in beams):
            raise SystemExit(f"{name}: the scores differ between beam widths")
        times = "".join(f"{best[b] / len(puzzles) * 1e3:14.3f}" for b in beams)
        print(f"{name:24}{times}   {best[beams[-1]] / best[beams[0]]:10.3f}", flush=True)


if __name__ == "__main__":
    main()
