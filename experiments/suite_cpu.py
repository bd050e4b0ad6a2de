"""Where the fast suite's CPU goes: seconds of CPU per test file and per test.

The CPU of the test processes, and of the processes they wait for.

Usage::

    python experiments/suite_cpu.py [--top 25] [--tests 10] [PYTEST ARGUMENTS]

Runs pytest (by default as ``make test`` does: ``-q -n auto --dist loadfile``) with this
file as a plugin in every test process. Around each test it reads the CPU time of its own
process and of the children that process has waited for (``getrusage``), and its wall
time; then it prints, per test file, the number of tests and the three sums, the files
that cost the most CPU first, the costliest tests, and the sums over the run. On 2
cores the suite's wall time is about its CPU time over two, so these sums say what a
cut would save.

A child process counts where it is waited for: a pool kept from test to test (joblib's,
or a Dask cluster of a module's fixture) counts in the test that ends it, or in none if
it ends with the test process.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import pytest

#: The file every test process appends its records to (set by :func:`main`).
LOG = "RUMDIFF_SUITE_CPU_LOG"


def _usage() -> tuple[float, float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, waited.ru_utime + waited.ru_stime, time.perf_counter()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Record a test's CPU and wall time, set-up and tear-down included.

    The CPU is its process's and that of the children the process waited for meanwhile.
    """
    before = _usage()
    yield
    after = _usage()
    spent = [b - a for a, b in zip(before, after, strict=True)]
    record = {"test": item.nodeid, "own": spent[0], "waited": spent[1], "wall": spent[2]}
    with open(os.environ[LOG], "a", encoding="utf-8") as log:  # one write: whole lines
        log.write(json.dumps(record) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25, help="files to list (default: 25)")
    parser.add_argument("--tests", type=int, default=10, help="tests to list (default: 10)")
    options, pytest_args = parser.parse_known_args()
    pytest_args = pytest_args or ["-q", "-n", "auto", "--dist", "loadfile"]
    here = str(Path(__file__).resolve().parent)
    began = _usage()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "cpu.jsonl"
        log.touch()
        os.environ[LOG] = str(log)
        # The test processes import this file as a plugin by its module name.
        os.environ["PYTHONPATH"] = os.pathsep.join(
            part for part in (here, os.environ.get("PYTHONPATH")) if part
        )
        sys.path.insert(0, here)
        code = pytest.main([*pytest_args, "-p", Path(__file__).stem])
        records = [json.loads(line) for line in log.read_text().splitlines()]
    ended = _usage()
    files = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for record in records:
        totals = files[record["test"].split("::")[0]]
        totals[0] += 1
        totals[1] += record["own"]
        totals[2] += record["waited"]
        totals[3] += record["wall"]
    ranked = sorted(files.items(), key=lambda item: -(item[1][1] + item[1][2]))
    print(f"\n{'file':<40} {'tests':>6} {'own CPU':>9} {'waited':>9} {'wall':>9}")
    for name, (tests, own, waited, wall) in ranked[: options.top]:
        print(f"{name:<40} {tests:>6} {own:>8.1f}s {waited:>8.1f}s {wall:>8.1f}s")
    print(f"\n{'own CPU':>9} {'waited':>9} {'wall':>9}  test")
    costly = sorted(records, key=lambda record: -(record["own"] + record["waited"]))
    for record in costly[: options.tests]:
        print(f"{record['own']:>8.1f}s {record['waited']:>8.1f}s {record['wall']:>8.1f}s  "
              f"{record['test']}")  # fmt: skip
    own = sum(record["own"] for record in records)
    waited = sum(record["waited"] for record in records)
    print(f"{len(records)} tests: {own:.1f} s of CPU in the test processes, {waited:.1f} s in "
          f"the children they waited for")  # fmt: skip
    spent = ended[0] + ended[1] - began[0] - began[1]
    print(f"the run: {spent:.1f} s of CPU in {ended[2] - began[2]:.1f} s; "
          f"{spent - own - waited:.1f} s of it outside any test (starting pytest and its "
          "test processes, collecting, children never waited for during a test)")  # fmt: skip
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
