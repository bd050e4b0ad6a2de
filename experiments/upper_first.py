"""Would an exact pass aimed at the upper bound, run before the beam, pay in regime 3?

Usage: ``python experiments/upper_first.py [--count 100] [--seed 1]``.

On regime-3 G(4, 2, 100) puzzles whose optimum is the solver's upper bound (most of
them), it counts the transitions of two whole-puzzle passes of the engine
(``rumdiff.solve.engine.run_pass`` with the fast solver's pruning): the exact pass aimed
at the upper bound, which would settle such a puzzle alone, and the beam of
``config.BEAM_WIDTH`` states aimed at the lower bound, which the solver runs after its
beams aimed at the upper bound.
Counts do not depend on the machine.

Then, on the puzzles whose solve ends with the exact pass aimed at the lower bound + 1
(walking the values either way; its beams reached neither the upper bound nor, perhaps,
the optimum), it sets that pass's transitions (``solve(..., trace=True)``) beside those
of passes of the engine aimed at the upper bound (exact, and beams two and four times the
solver's), apart for the puzzles that score their upper bound (where such a pass may find
the optimum) and those below it (where it finds nothing, and the pass at the lower bound
+ 1 would still be needed).
"""

from __future__ import annotations

import argparse
import statistics

from rumdiff import config
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.solve import solve
from rumdiff.solve.engine import Rules, run_pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    stack = generate(args.count, Family(mode="mixed", regime_weights=(0, 0, 1)), seed=args.seed)
    rules = Rules("plain", pruning="fast")
    puzzles = [stack.puzzles[index] for index in range(args.count)]
    solutions = [solve(puzzle, trace=True) for puzzle in puzzles]
    at_upper = {}  # by puzzle: the exact pass aimed at its upper bound (both parts use it)

    def exact_at_upper(index: int):
        if index not in at_upper:
            at_upper[index] = run_pass(puzzles[index], rules, aim=solutions[index].upper)
        return at_upper[index]

    exact, beam, found = [], [], 0
    for index, (puzzle, solution) in enumerate(zip(puzzles, solutions, strict=True)):
        if solution.upper != solution.score:
            continue
        exact.append(exact_at_upper(index).transitions)
        first = run_pass(puzzle, rules, aim=solution.lower, beam=config.BEAM_WIDTH)
        beam.append(first.transitions)
        found += first.best == solution.score
    print(f"{len(exact)} of {args.count} regime-3 puzzles (seed {args.seed}) score their "
          "upper bound; transitions a puzzle:")  # fmt: skip
    print(
        f"  exact pass at the upper bound: mean {statistics.mean(exact):,.0f}, "
        f"median {statistics.median(exact):,.0f}"
    )
    print(
        f"  beam of {config.BEAM_WIDTH} at the lower bound: mean {statistics.mean(beam):,.0f}, "
        f"median {statistics.median(beam):,.0f}; it finds the optimum in {found}"
    )
    # Where the solve needed its last pass: would one aimed at the upper bound have paid,
    # an exact pass or a beam wider than the solver's?
    widths = (0, 2 * config.BEAM_WIDTH, 4 * config.BEAM_WIDTH)  # 0: exact
    # Per side of the bound: puzzles, the pass at lower + 1, then per width the pass aimed
    # at the upper bound and the puzzles where it reached it.
    totals = {True: [0, 0] + [0, 0] * len(widths), False: [0, 0] + [0, 0] * len(widths)}
    for index, (puzzle, solution) in enumerate(zip(puzzles, solutions, strict=True)):
        last = [
            p.transitions for p in solution.work.trace if p.kind.startswith("exact at lower + 1")
        ]  # (either way: downwards or upwards)
        if not last:
            continue
        row = totals[solution.score == solution.upper]
        row[0] += 1
        row[1] += sum(last)
        for at, width in enumerate(widths):
            aimed = (
                exact_at_upper(index) if width == 0
                else run_pass(puzzle, rules, aim=solution.upper, beam=width)
            )  # fmt: skip
            row[2 + 2 * at] += aimed.transitions
            row[3 + 2 * at] += aimed.status == "ok"
    print("puzzles whose solve ran the exact pass at the lower bound + 1, that pass's "
          "transitions in all, and a pass's aimed at the upper bound (puzzles it "
          "settles):")  # fmt: skip
    for reaches, row in totals.items():
        aimed = "; ".join(
            f"{f'beam of {width}' if width else 'exact'} {row[2 + 2 * at]:,} ({row[3 + 2 * at]})"
            for at, width in enumerate(widths)
        )
        print(
            f"  {'scoring' if reaches else 'below'} their upper bound: {row[0]}, "
            f"{row[1]:,}; {aimed}"
        )


if __name__ == "__main__":
    main()
