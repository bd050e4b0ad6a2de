"""kill (SIGTERM) behaves like Ctrl-C (SIGINT): workers die, hidden temporary files go,
one line on stderr, exit code 128 + the signal.

Each case runs the real command in its own session, waits until it is at work (its
temporary output exists, or its worker processes do), signals it, then checks what is
left: no process of the session, no ``.*.tmp`` file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import worker_process

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, sessions")

#: How long a command may take to reach the point where it is signalled.
START_SECONDS = 90


@pytest.fixture(scope="module")
def many_puzzles(tmp_path_factory) -> Path:
    """A puzzle file that keeps features, solve and predict busy for a while."""
    path = tmp_path_factory.mktemp("signals") / "many.in"
    subprocess.run(
        [sys.executable, "-m", "rumdiff", "generate", str(path), "--puzzles-only",
         "-n", "20", "--count", "20000", "-q"],
        check=True, timeout=120,
    )  # fmt: skip
    return path


def _session(leader: int) -> list[int]:
    """The live processes of the session ``leader`` started, but the leader."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != leader:
            try:
                if os.getsid(int(name)) == leader:
                    found.append(int(name))
            except OSError:  # gone meanwhile
                pass
    return found


def _signal_when(argv, ready, signum) -> tuple[int, str, int]:
    """Run ``rumdiff ARGV``; once ``ready(pid)`` holds, send ``signum``. Returns the exit
    code, stderr and the number of the session's processes left a moment later."""
    process = subprocess.Popen(
        [sys.executable, "-m", "rumdiff", *argv], start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + START_SECONDS
        while not ready(process.pid):
            assert process.poll() is None, "ended before it could be signalled"
            assert time.monotonic() < deadline, "never got to work"
            time.sleep(0.05)
        time.sleep(0.5)  # inside the work, not at its edge
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
    finally:  # on a failure too: no process or pipe left for a later test to warn of
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        process.stderr.close()
    left = _session(process.pid)
    for _ in range(50):  # a killed worker may take a moment to be reaped
        if not left:
            break
        time.sleep(0.1)
        left = _session(process.pid)
    return process.returncode, err, len(left)


def _temporaries(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if name.endswith(".tmp")]


TERM = (signal.SIGTERM, 143, "terminated")
INT = (signal.SIGINT, 130, "interrupted")


# Each command and each signal once in the fast suite; every pair in make test-all.
@pytest.mark.parametrize(
    "command, signum, code, word",
    [("features", *TERM), ("solve", *INT), ("predict", *TERM),
     *(pytest.param(command, *how, marks=pytest.mark.slow)
       for command, how in [("features", INT), ("solve", TERM), ("predict", INT)])],
)  # fmt: skip
def test_a_signal_mid_write_removes_the_temporary_output(
    many_puzzles, trained, tmp_path, command, signum, code, word
):
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    argv = [command, str(many_puzzles), "-o", str(out)]
    if command == "predict":  # a model of this scikit-learn (the default may be refused)
        argv += ["--model", trained[0].path]
    elif command == "features":
        argv += ["-n", "20"]
    else:  # no progress bar on stderr
        argv += ["-q"]
    exit_code, err, left = _signal_when(argv, lambda pid: _temporaries(tmp_path), signum)
    assert (exit_code, err) == (code, f"rumdiff {command}: {word}\n"), err
    assert _temporaries(tmp_path) == [] and left == 0
    assert out.read_text() == "old\n"


def _workers(count: int):
    """Whether ``count`` worker processes of the session run (spawned ones, or loky's for
    train), not merely started: its resource trackers and a fork not yet running
    Python's worker code do not count."""

    def ready(pid: int) -> bool:
        workers = [child for child in _session(pid) if worker_process(child)]
        return len(workers) >= count

    return ready


def test_sigterm_during_explore_stops_its_workers(tmp_path):
    argv = ["explore", str(tmp_path / "explore"), "--jobs", "2", "-q", "--samples", "50"]
    exit_code, err, left = _signal_when(argv, _workers(2), signal.SIGTERM)
    assert (exit_code, err, left) == (143, "rumdiff explore: terminated\n", 0)


def test_sigterm_during_train_stops_its_workers(dataset, tmp_path):
    out = tmp_path / "run"
    argv = ["train", str(dataset), "-o", str(out), "--jobs", "2", "-q"]
    exit_code, err, left = _signal_when(argv, _workers(2), signal.SIGTERM)
    assert (exit_code, err.splitlines()[-1], left) == (143, "rumdiff train: terminated", 0)
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_train_killed_outright_leaves_no_worker(dataset, tmp_path):
    # kill -9 leaves train no clean-up: its search's workers must die on their own.
    argv = ["train", str(dataset), "-o", str(tmp_path / "run"), "--jobs", "2", "-q"]
    exit_code, _, left = _signal_when(argv, _workers(2), signal.SIGKILL)
    assert (exit_code, left) == (-signal.SIGKILL, 0)


@pytest.mark.parametrize(
    "module, held", [("rumdiff.cli.train", False), ("numba.core.compiler", True)]
)
def test_a_signal_is_held_by_the_code_s_module_not_its_folder(module, held):
    # A checkout under folders named numba or loky is still rumdiff's code.
    from rumdiff.cli import signals

    path = os.path.join(os.sep, "home", "numba", "loky", "multiprocessing", "train.py")
    namespace = {"__name__": module}
    exec(compile("import sys\ndef here():\n    return sys._getframe()\n", path, "exec"),
         namespace)  # fmt: skip
    with signals.stop_on_signals():  # what lies outside the block is not looked at
        assert signals._held_back(namespace["here"]()) is held


def test_a_signal_is_held_while_a_thread_pool_starts_a_thread(monkeypatch):
    # As for a pool of processes: an interrupt inside Thread.start would leave the pool
    # a thread it does not know, so the signal waits until the start is done.
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from rumdiff.cli import signals

    held = []
    start = threading.Thread.start

    def start_and_look(thread):
        if thread.name.startswith("ThreadPoolExecutor"):  # (not another test's thread)
            held.append(signals._held_back(sys._getframe()))
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", start_and_look)
    with signals.stop_on_signals(), ThreadPoolExecutor(1) as pool:
        assert pool.submit(int, "7").result() == 7
        assert not signals._held_back(sys._getframe())
    assert held == [True]


def test_an_interrupt_wrapped_by_a_compiled_kernel_is_one_line(monkeypatch, capsys):
    # numba reports a KeyboardInterrupt raised during a kernel as a SystemError around it.
    from rumdiff.cli import features, main

    def run(args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as stop:
            raise SystemError("CPUDispatcher returned a result with an exception set") from stop

    monkeypatch.setattr(features, "run", run)
    assert main(["features", "any.in"]) == 130
    assert capsys.readouterr().err == "rumdiff features: interrupted\n"


#: A script that sends itself SIGTERM from inside the function ``{name}`` under
#: stop_on_signals, and says whether Terminated came, and after which steps.
HELD = """
import os, signal, time
from rumdiff.cli.signals import Terminated, stop_on_signals

reached = []
{define}
try:
    with stop_on_signals():
        {name}()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the held signal comes back here
            pass
    print("not raised", reached)
except Terminated:
    print("raised", reached)
"""
#: The signalling function's body.
SIGNAL = """
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(1000):  # the handler runs here, with this frame on the stack
        pass
    reached.append("end of {name}")
"""
#: A signal caught where an exception would only be printed (a ``__del__``), then held.
SWALLOWED = HELD.format(name="__del__", define="def __del__():" + SIGNAL.format(name="__del__"))
#: A signal caught while a pool starts a worker, then held: raised there, it would leave
#: a child the pool does not know. The function is the standard library pool's that
#: starts a worker, by its module's and its own name.
STARTING = HELD.format(
    name="_spawn_process",
    define=f"START = {'def _spawn_process():' + SIGNAL.format(name='_spawn_process')!r}\n"
    'pool = {"__name__": "concurrent.futures.process", "os": os, "signal": signal, '
    '"reached": reached}\n'
    'exec(compile(START, "pool.py", "exec"), pool)\n'
    '_spawn_process = pool["_spawn_process"]',
)


@pytest.mark.parametrize(
    "source, end",
    [(SWALLOWED, "end of __del__"), (STARTING, "end of _spawn_process")],
    ids=["__del__", "a worker's start"],
)
@pytest.mark.parametrize("run", ["file", "-c"])
def test_a_signal_in_code_that_swallows_exceptions_is_raised_once_out_of_it(
    tmp_path, run, source, end
):
    # In a process of its own: signal handlers are the main thread's, and a test runner
    # may run tests in another. By -c too: its source is "<string>", as exec's, where a
    # signal is held, but only the code inside the block counts (it once held them all).
    script = tmp_path / "swallowed.py"
    script.write_text(source)
    argv = [str(script)] if run == "file" else ["-c", source]
    done = subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert (done.stdout, done.stderr) == (f"raised [{end!r}]\n", "")


#: A script with a pool's manager thread in miniature, which fails once let go: after a
#: stop, once Terminated has left the block (as a pool aborted by the stop may fail in
#: its threads as the process ends), or inside the block when {stop} is False. After the
#: stop a thread started then fails too.
THREAD = """
import os, signal, threading, time
from rumdiff.cli.signals import Terminated, stop_on_signals

let_go = threading.Event()
def manager():
    let_go.wait()
    raise KeyError("a work item gone")
def later():
    raise ValueError("a thread started after the stop")
thread = threading.Thread(target=manager)
thread.start()
try:
    with stop_on_signals():
        if {stop}:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        let_go.set()
        thread.join()
    print("not raised")
except Terminated:
    let_go.set()
    thread.join()
    after = threading.Thread(target=later)
    after.start()
    after.join()
    print("raised")
"""


@pytest.mark.parametrize("stop", [True, False], ids=["after a stop", "without one"])
def test_a_thread_alive_at_a_stop_fails_quietly(tmp_path, stop):
    script = tmp_path / "thread.py"
    script.write_text(THREAD.format(stop=stop))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    if stop:  # the pool's thread says nothing; a thread started since is printed
        assert done.stdout == "raised\n"
        assert "KeyError" not in done.stderr
        assert "ValueError: a thread started after the stop" in done.stderr
    else:  # a thread's failure is printed as ever
        assert done.stdout == "not raised\n"
        assert "KeyError: 'a work item gone'" in done.stderr
