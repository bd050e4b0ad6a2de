"""How long ten hard G(4, 2, 100) puzzles made to order take, with the filter and without.

Usage: ``python experiments/bench_order.py [--count N] [--difficulty D] [--seed S]
[--jobs J]``. Runs ``rumdiff generate OUT --difficulty hard --count 10`` (mixed mode, the
default), as a fresh process each time so that imports, the model's loading and the
worker processes are counted, first with the default model's filter and then with
``--no-filter``, in the same session and on the same seed, and prints per run the wall
seconds, candidates drawn, candidates searched and the acceptance rate (from the
sidecar), then the ratio of the times and of the searches. The issue's target: under
10 s with the filter.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The issue's target, in seconds, for ten hard G(4, 2, 100) puzzles with the filter.
TARGET_SECONDS = 10.0


def run(out: Path, args, extra: list[str]) -> tuple[float, dict]:
    command = [
        sys.executable, "-m", "rumdiff", "generate", str(out), "--difficulty", args.difficulty,
        "--count", str(args.count), "--seed", str(args.seed), "--jobs", str(args.jobs), "-q",
        *extra,
    ]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(command, check=True)
    seconds = time.perf_counter() - started
    return seconds, json.loads(out.with_name(out.name + ".json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--difficulty", default="hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=-1)
    args = parser.parse_args()
    print(
        f"{args.count} {args.difficulty} G(4, 2, 100) puzzles made to order, mixed mode, "
        f"seed {args.seed}, --jobs {args.jobs}, each run a fresh process"
    )
    print(f"{'run':10} {'seconds':>8} {'drawn':>6} {'searched':>9} {'accepted':>9} {'rate':>7}")
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, extra in (("filter", []), ("no filter", ["--no-filter"])):
            seconds, side = run(Path(folder) / "order.in", args, extra)
            counts = side["counts"]
            results[name] = (seconds, counts)
            print(
                f"{name:10} {seconds:8.2f} {counts['candidates_drawn']:6,} "
                f"{counts['candidates_searched']:9,} {counts['accepted']:9,} "
                f"{100 * counts['acceptance_rate']:6.1f}%"
            )
    (with_s, with_c), (without_s, without_c) = results["filter"], results["no filter"]
    print(
        f"no filter / filter: time {without_s / with_s:.2f}x, searches "
        f"{without_c['candidates_searched'] / max(1, with_c['candidates_searched']):.2f}x"
    )
    verdict = "meets" if with_s < TARGET_SECONDS else "misses"
    print(f"with the filter: {with_s:.2f} s, {verdict} the target of {TARGET_SECONDS:g} s")


if __name__ == "__main__":
    main()
