"""Peak memory of ``rumdiff features``, ``predict`` and ``solve`` on big puzzle files.

Usage::

    python experiments/bench_memory.py [--megabytes 1024] [--pool mixed|easy]
        [--commands features,predict,solve] [--dir DIR]

Writes a puzzle file of about ``--megabytes`` MB of G(4, 2, 100) tiles, made by repeating
a pool of 1,000 generated puzzles (``mixed``: the thesis's training mix; ``easy``: only
those that bounds settle, so that ``solve`` of a gigabyte ends in minutes), then runs
each command on it in a child process and prints its wall time and peak resident memory
(``ru_maxrss``). The commands read the file in blocks, so the peak should not grow with
the file: compare two sizes in one run with ``--megabytes 100,1024``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game, Puzzles, format_puzzles
from rumdiff.solve import solve

COMMANDS = {
    "features": ["features", "{file}", "-o", "/dev/null"],
    "predict": ["predict", "{file}", "-o", "/dev/null"],
    "solve": ["solve", "{file}", "-o", "/dev/null"],
}


def write_file(path: Path, megabytes: float, pool: str) -> int:
    """Write the benchmark file; return its number of puzzles."""
    copies = generate(1_000, Family(Game(4, 2, 100)), seed=0).puzzles.copies
    if pool == "easy":
        copies = copies[[solve(p).work.method == "bounds" for p in Puzzles(copies, m=2)]]
    body = format_puzzles(Puzzles(copies, m=2)).split("\n", 1)[1]  # without its count line
    repeats = max(1, int(megabytes * 2**20 / len(body)))
    with open(path, "w", encoding="ascii") as stream:
        stream.write(f"{repeats * len(copies)}\n")
        for _ in range(repeats):
            stream.write(body)
    return repeats * len(copies)


def measure(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of ``rumdiff ARGV`` in a fresh child."""
    wrapper = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run([sys.executable, '-m', 'rumdiff', *sys.argv[1:]], check=True); "
        "print(time.perf_counter() - t, "
        "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *argv], check=True, capture_output=True, text=True
    )
    seconds, peak = map(float, done.stdout.split())
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", default="1024", help="file sizes, separated by commas")
    parser.add_argument("--pool", choices=("mixed", "easy"), default="mixed")
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--dir", default=None, help="where to write the file (default: /tmp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for megabytes in map(float, args.megabytes.split(",")):
            path = Path(folder) / "big.in"
            started = time.perf_counter()
            count = write_file(path, megabytes, args.pool)
            size = path.stat().st_size / 2**20
            print(f"{size:,.0f} MB, {count:,} puzzles ({args.pool}), written in "
                  f"{time.perf_counter() - started:.0f} s")  # fmt: skip
            for name in args.commands.split(","):
                argv = [part.format(file=path) for part in COMMANDS[name]]
                seconds, peak = measure(argv)
                print(f"  {name:9} {seconds:8.1f} s   peak {peak:7.0f} MB")


if __name__ == "__main__":
    main()
