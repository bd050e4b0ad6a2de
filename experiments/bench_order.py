"""How long ten hard G(4, 2, 100) puzzles made to order take: as the command decides, with
the model's filter from the first candidate, and with no filter.

Usage: ``python experiments/bench_order.py [--count N] [--difficulty D] [--seed S]
[--jobs J] [--repeats R]``. Runs ``rumdiff generate OUT --difficulty hard --count 10``
(mixed mode, the default) as a fresh process each time, so that imports, the model's
loading and the worker processes are counted, in the same session and on the same seed:

- ``default``: as a user runs it. The default model's filter is loaded only once the
  searching still ahead is projected to cost more than loading it
  (``config.ORDER_SCREEN_WORK``);
- ``filter``: ``--model`` naming the default model, which is then loaded before the first
  block and screens every candidate;
- ``no filter``: ``--no-filter``.

Per run it prints the fastest wall seconds of ``--repeats``, the candidates drawn and
searched, the acceptance rate and whether the filter was used (from the sidecar). The
issue's target: ten hard puzzles within 3 s, the model's loading included where the
command loads it.

Then what ``config.ORDER_SCREEN_WORK`` weighs: the reference search's transitions a
second on 300 mixed G(4, 2, 100) puzzles in this process, and the seconds a fresh
process takes to load the default model (scikit-learn's import included), fastest of
``--repeats``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The target, in seconds, for ten hard G(4, 2, 100) puzzles as the command runs them.
TARGET_SECONDS = 3.0


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
    from rumdiff import config
    from rumdiff.learn import default_model_path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--difficulty", default="hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{args.count} {args.difficulty} G(4, 2, 100) puzzles made to order, mixed mode, "
        f"seed {args.seed}, --jobs {args.jobs}, each run a fresh process, fastest of "
        f"{args.repeats}"
    )
    print(f"{'run':10} {'seconds':>8} {'drawn':>6} {'searched':>9} {'rate':>7}  filter used")
    runs = (
        ("default", []),
        ("filter", ["--model", str(default_model_path())]),
        ("no filter", ["--no-filter"]),
    )
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, extra in runs:
            times = []
            for _ in range(args.repeats):
                seconds, side = run(Path(folder) / "order.in", args, extra)
                times.append(seconds)
            counts = side["counts"]
            results[name] = min(times)
            filtered = side["filter"]
            used = f"from candidate {filtered['from_candidate']}" if filtered["used"] else "no"
            print(
                f"{name:10} {min(times):8.2f} {counts['candidates_drawn']:6,} "
                f"{counts['candidates_searched']:9,} "
                f"{100 * counts['acceptance_rate']:6.1f}%  "
                f"{used}"
            )
    print(
        f"filter / default: {results['filter'] / results['default']:.2f}x; "
        f"no filter / default: {results['no filter'] / results['default']:.2f}x"
    )
    verdict = "meets" if results["default"] <= TARGET_SECONDS else "misses"
    print(
        f"as the command runs: {results['default']:.2f} s, {verdict} the target of "
        f"{TARGET_SECONDS:g} s"
    )
    rate = search_rate()
    load = min(load_seconds() for _ in range(args.repeats))
    work = config.ORDER_SCREEN_WORK
    print(
        f"the reference search: {rate / 1e6:,.0f} million transitions a second; "
        f"ORDER_SCREEN_WORK = {work:,} transitions = {work / rate:.1f} s of it; loading the "
        f"default model in a fresh process: {load:.2f} s"
    )


def search_rate() -> float:
    """Transitions a second of the reference search on mixed G(4, 2, 100) puzzles."""
    from rumdiff.data.generator import generate
    from rumdiff.solve import search_effort

    puzzles = generate(300, seed=5).puzzles
    search_effort(puzzles[0])  # compiled, or loaded from the cache, before the clock
    started = time.perf_counter()
    transitions = sum(search_effort(puzzle).transitions for puzzle in puzzles)
    return transitions / (time.perf_counter() - started)


def load_seconds() -> float:
    """A fresh process's seconds to import scikit-learn and load the default model."""
    code = (
        "import time; t = time.perf_counter()\n"
        "from rumdiff.learn import default_model_path, load_model\n"
        "load_model(default_model_path()); print(time.perf_counter() - t)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True)  # fmt: skip
    return float(done.stdout.split()[-1])


if __name__ == "__main__":
    main()
