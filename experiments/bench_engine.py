"""Benchmark: the solver before and after a change, on the same puzzles, in one run.

Usage::

    python experiments/bench_engine.py [--before 3acce47] [--repeats 3] [--seed 1]
                                       [--count-scale 1.0] [--only NAME] [--rule-sets]
    python experiments/bench_engine.py --before 43804c6~ --only "jokers G(6,3,100) j=2" \
                                       --repeats 1 --seed 7

``--before REV`` (by default 3acce47, the last commit before the DP passes became one
engine, docs/decisions/engine.md) is extracted with ``git archive REV rumdiff`` into a
temporary directory; the working tree is the "after". The workloads are generated once,
by the current package, and written as puzzle files that both versions read (a
``# G(k, m, n)`` header; jokers as ``J`` tiles). Two worker processes, one per version,
read the files and load or compile their kernels, untimed (the extracted tree compiles
into its own numba cache: the warm-up took about 50 s here). Then the puzzles are timed
one at a time, before and after in turn (which goes first alternates), so only one
worker runs at any moment and neither competes with the other for the machine's cores;
each puzzle's time is the least of ``--repeats`` runs, which drops the runs a busy
machine slowed. Every score (and for
the reference search, its states and transitions) must be the same in both versions: the
script stops with exit status 1 otherwise.

Prints per workload the milliseconds a puzzle before and after (the mean of the
puzzles' least times) and their ratio, after / before.

With ``--rule-sets`` it then times, in this process (the "after" package), what keeping
a rule set specialised for joker-free puzzles buys: on each joker-free workload, one
exact pass of the engine (``rumdiff.solve.engine.run_pass``, the solver's pruning, on
the whole puzzle: no removal of isolated copies, no splitting) aimed at the puzzle's
optimum, by the plain rules and by the jokers' rules, timed as above; both must find the
optimum.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.puzzle import Game, format_header, format_puzzles, read_puzzles
from rumdiff.solve import solve
from rumdiff.solve.engine import Rules, run_pass

REPO = Path(__file__).resolve().parents[1]

# name, generate() options, puzzles, what is timed: the fast solver or the reference search
WORKLOADS = [
    ("regime 3", Family(mode="mixed", regime_weights=(0, 0, 1)), 300, "solve"),
    ("worst G(4,3,100)", Family(Game(4, 3, 100), "fixed", (20, 20, 20)), 40, "solve"),
    ("jokers G(4,2,100) j=2", Family(mode="simplex", jokers=2), 10, "solve"),
    ("turns G(4,2,13) j=2", Family(Game(n=13), "turn", jokers=2), 300, "solve"),
    ("reference search", Family(mode="mixed"), 300, "search"),
]
# Run only when named by --only: the joker schedule's hardest family, where the passes
# before 43804c6 fell to the ILP (docs/decisions/jokers.md, "Two jokers in G(6, 3, 100)"),
# and "shown": puzzles solved, arranged and written as ``rumdiff solve --show`` writes
# them (the text must be the same in both versions).
EXTRA_WORKLOADS = [
    ("jokers G(6,3,100) j=2", Family(Game(6, 3), "simplex", jokers=2), 10, "solve"),
    ("regime 3 shown", Family(mode="mixed", regime_weights=(0, 0, 1)), 100, "show"),
    ("turns G(4,2,13) j=2 shown", Family(Game(n=13), "turn", jokers=2), 300, "show"),
]
NAMES = [name for name, *_ in WORKLOADS + EXTRA_WORKLOADS]

# The worker, run by either version: argv holds the parent's process id and the puzzle
# files. It answers each line of its standard input with one JSON line, and leaves at
# the end of its input (its parent closed the pipe or died).
WORKER = r"""
import hashlib, json, os, sys, time

def answer(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()

def digest(puzzles):
    import numpy as np

    h = hashlib.sha256()
    for p in puzzles:
        h.update(np.asarray(p.copies, np.int64).tobytes())
        h.update(np.asarray(p.table_copies, np.int64).tobytes())
        h.update(bytes([p.jokers, p.table_jokers]))
    return h.hexdigest()

def serve():
    from rumdiff.processes import die_with_parent

    die_with_parent(int(sys.argv[1]))
    import rumdiff
    from rumdiff.puzzle import read_puzzles
    from rumdiff.solve import search_effort, solve

    def run(p, what):
        if what == "search":
            e = search_effort(p)
            return [e.score, e.states, e.transitions]
        if what == "show":
            from rumdiff.solve.display import solution_text

            s = solve(p)
            return solution_text(p, s.arrangement, s.meld)
        return solve(p).score

    workloads = [list(read_puzzles(path)) for path in sys.argv[2:]]
    package = os.path.dirname(rumdiff.__file__)
    answer({"package": package, "digests": [digest(w) for w in workloads]})
    for line in sys.stdin:
        what, w, i = line.split()
        puzzles = workloads[int(w)]
        if i == "all":  # warm-up: every puzzle once, untimed
            answer([run(p, what) for p in puzzles])
            continue
        p = puzzles[int(i)]
        began = time.perf_counter()
        result = run(p, what)
        answer([time.perf_counter() - began, result])

try:
    serve()
except Exception as error:
    answer({"error": f"{type(error).__name__}: {error}"})
"""


class Worker:
    """A worker process of one version of the package, driven line by line."""

    def __init__(self, label: str, package_root: Path, files: list[Path], cwd: Path):
        self.label = label
        environment = dict(os.environ, PYTHONPATH=str(package_root))
        # (cwd is not the repository, whose rumdiff would come first on sys.path.)
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(os.getpid()), *map(str, files)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
            env=environment,
            text=True,
            start_new_session=True,  # a Ctrl-C reaches the parent, which ends them
        )

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def receive(self):
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{self.label}: the worker ended (exit status {self.process.wait()})")
        value = json.loads(line)
        if isinstance(value, dict) and "error" in value:
            raise SystemExit(f"{self.label}: {value['error']}")
        return value

    def ask(self, line: str):
        self.send(line)
        return self.receive()

    def close(self, finished: bool) -> None:
        """End the worker: when the run ``finished``, the end of its input (it leaves
        then), else, or if it does not leave, a kill."""
        try:
            self.process.stdin.close()
            if finished:
                self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def extract(revision: str, into: Path) -> str:
    """Extract the package at ``revision`` into ``into``; return the commit's short hash."""
    found = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    commit = found.stdout.strip()
    if found.returncode != 0 or not commit:
        raise SystemExit(f"--before: {revision!r} is not a commit of {REPO}")
    into.mkdir()
    archive = subprocess.Popen(
        ["git", "-C", str(REPO), "archive", commit, "rumdiff"], stdout=subprocess.PIPE
    )
    unpacked = subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout)
    archive.stdout.close()
    if archive.wait() != 0 or unpacked.returncode != 0:
        raise SystemExit(f"--before: could not extract rumdiff at {revision}")
    return commit[:7]


def write_workload(path: Path, puzzles) -> None:
    """A puzzle file both versions read: the old readers know ``# G(k, m, n)`` and ``J``
    tiles but no ``j=`` option, so the header names the game without its jokers."""
    header = format_header(Game(k=puzzles.k, m=puzzles.m, n=puzzles.n))
    path.write_text(header + "\n" + format_puzzles(puzzles), encoding="ascii")
    if [p.key() for p in read_puzzles(path)] != [p.key() for p in puzzles]:
        raise SystemExit(f"{path}: the file does not read back as the generated puzzles")


def after_revision() -> str:
    """The working tree's commit, and whether its package has uncommitted changes."""
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    changes = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "--", "rumdiff"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"{head} (working tree{', with uncommitted changes in rumdiff/' if changes else ''})"


def measure(timers, labels, count: int, repeats: int, name: str):
    """Each puzzle's least seconds by each of two ``timers`` (``timer(i) -> (seconds,
    result)``, run one at a time, which goes first alternating); stops if their results
    differ."""
    best = [[float("inf")] * count, [float("inf")] * count]
    for repeat in range(repeats):
        for i in range(count):
            results = [None, None]
            for which in (0, 1) if (i + repeat) % 2 == 0 else (1, 0):
                seconds, results[which] = timers[which](i)
                best[which][i] = min(best[which][i], seconds)
            if results[0] != results[1]:
                raise SystemExit(
                    f"{name}, puzzle {i}: {labels[0]} {results[0]}, {labels[1]} {results[1]}"
                )
    return best


def timed_pass(puzzles, rules: Rules):
    """A timer of one exact pass of ``rules`` over each puzzle, aimed at its optimum."""
    aims = [solve(p).score for p in puzzles]
    run_pass(puzzles[0], rules, aim=aims[0])  # compiled or loaded before timing

    def timer(i):
        began = time.perf_counter()
        found = run_pass(puzzles[i], rules, aim=aims[i]).best
        return time.perf_counter() - began, found

    return timer


def print_row(name: str, count: int, seconds) -> None:
    """A row of the table: milliseconds a puzzle of each, and their ratio."""
    old_ms, new_ms = (1000 * sum(column) / count for column in seconds)
    print(f"{name:24} {count:7} {old_ms:10.3f} {new_ms:10.3f} {new_ms / old_ms:13.3f}", flush=True)


def print_header(first: str, second: str) -> None:
    """The table's header: ``first`` and ``second`` name the two timed columns."""
    columns = ("puzzles", 7), (f"{first} ms", 10), (f"{second} ms", 10)
    columns += ((f"{second}/{first}", 13),)
    print(f"{'workload':24}" + "".join(f" {title:>{width}}" for title, width in columns))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="3acce47", help="revision of the 'before' package")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each puzzle (least kept)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    parser.add_argument("--count-scale", type=float, default=1.0, help="scales every count")
    parser.add_argument("--only", choices=NAMES, help="one workload (the only way to run the last)")
    parser.add_argument(
        "--rule-sets", action="store_true", help="also time the two rule sets (after only)"
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.count_scale <= 0:
        parser.error("--repeats must be at least 1 and --count-scale positive")
    workloads = [w for w in WORKLOADS + EXTRA_WORKLOADS if args.only == w[0]] or WORKLOADS
    # A SIGTERM or SIGHUP ends the run by SystemExit, so the workers and the directory go
    # too (the workers also die with this process however it dies: die_with_parent).
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda number, _: sys.exit(128 + number))
    scratch = Path(tempfile.mkdtemp(prefix="bench_engine_"))
    workers = []
    finished = False
    try:
        old = extract(args.before, scratch / "before")
        files, generated = [], []
        for w, (_, family, count, _) in enumerate(workloads):
            count = max(1, round(count * args.count_scale))
            generated.append(generate(count, family, seed=args.seed).puzzles)
            files.append(scratch / f"workload{w}.txt")
            write_workload(files[-1], generated[-1])
        began = time.perf_counter()
        digests = []
        for label, root in (("before", scratch / "before"), ("after", REPO)):
            workers.append(Worker(label, root, files, scratch))
            hello = workers[-1].receive()
            if Path(hello["package"]) != root / "rumdiff":
                raise SystemExit(f"{label}: imported rumdiff from {hello['package']}")
            digests.append(hello["digests"])
        # (The files read back as the generated puzzles in this version: write_workload.)
        if digests[0] != digests[1]:
            raise SystemExit("the two versions read different puzzles from the same files")
        for w, (name, _, _, what) in enumerate(workloads):
            # Both warm up at once (untimed): every kernel compiled or loaded.
            for worker in workers:
                worker.send(f"{what} {w} all")
            if workers[0].receive() != workers[1].receive():
                raise SystemExit(f"{name}: the versions' results differ")
        print(f"before: {old} (git archive {args.before}); after: {after_revision()}")
        print(
            f"seed {args.seed}, least of {args.repeats} runs a puzzle; "
            f"warm-up {time.perf_counter() - began:.0f} s"
        )
        print_header("before", "after")
        for w, ((name, _, _, what), puzzles) in enumerate(zip(workloads, generated, strict=True)):
            timers = [
                lambda i, worker=worker, what=what, w=w: worker.ask(f"{what} {w} {i}")
                for worker in workers
            ]
            labels = ("before", "after")
            print_row(name, len(puzzles), measure(timers, labels, len(puzzles), args.repeats, name))
        if args.rule_sets:
            print("one exact pass at the optimum, this version: plain rules against jokers' rules")
            print_header("plain", "jokers")
            for (name, _, _, what), puzzles in zip(workloads, generated, strict=True):
                if what == "solve" and puzzles.plain:
                    plain = timed_pass(puzzles, Rules("plain", "fast"))
                    jokers = timed_pass(puzzles, Rules("jokers", "fast"))
                    labels = ("plain", "jokers")
                    seconds = measure((plain, jokers), labels, len(puzzles), args.repeats, name)
                    print_row(name, len(puzzles), seconds)
        finished = True
    finally:
        for worker in workers:
            worker.close(finished)
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
