"""Workers die with their parent; one run per output, a dead run's lock is free again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import worker_process

from rumdiff.processes import LockedError, RunLock

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _workers(pid: int) -> list[int]:
    """The worker processes of ``pid`` (not its resource tracker)."""
    return [child for child in _children(pid) if worker_process(child)]


def _signal_state(pid: int) -> str:
    """The blocked, ignored and caught signals of a process, as /proc shows them."""
    try:
        with open(f"/proc/{pid}/status") as status:
            lines = status.read().splitlines()
    except OSError:
        return "gone"
    return "; ".join(line for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _python(code: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], **options)


def test_a_second_holder_is_refused_with_the_first_ones_pid(tmp_path):
    lock = tmp_path / "out.lock"
    holder = _python(
        f"""
        import time
        from rumdiff.processes import RunLock
        with RunLock({str(lock)!r}, what="out"):
            print("held", flush=True)
            time.sleep(60)
        """,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LockedError, match=f"pid {holder.pid}.* writing out"):
            with RunLock(lock, what="out"):
                pass
        holder.kill()  # however it dies, the kernel drops its lock
        holder.wait(timeout=10)
        with RunLock(lock, what="out"):
            assert lock.read_text().strip() == str(os.getpid())
        assert not lock.exists()
    finally:
        holder.kill()
        holder.wait(timeout=10)
        holder.stdout.close()


@linux
def test_a_worker_dies_with_its_parent():
    parent = _python(
        """
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c",
            "import os, time; from rumdiff.processes import die_with_parent; "
            f"die_with_parent({os.getpid()}); print('ready', flush=True); time.sleep(120)"],
            stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "ready"
        print(child.pid, flush=True)
        time.sleep(120)
        """,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        child = int(parent.stdout.readline())
        assert _alive(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        assert _wait(lambda: not _alive(child), 10), "the child outlived its parent"
    finally:
        parent.kill()
        parent.wait(timeout=10)
        parent.stdout.close()


@linux
def test_generate_workers_die_when_generate_is_killed(tmp_path):
    out = tmp_path / "data.parquet"
    command = [sys.executable, "-m", "rumdiff", "generate", str(out), "--count", "20000",
               "--jobs", "2", "--chunk-size", "2000", "-q"]  # fmt: skip
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait(lambda: len(_workers(run.pid)) >= 2, 120), "no workers started"
        workers = _workers(run.pid)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        assert _wait(lambda: not any(_alive(w) for w in workers), 20), "orphaned workers"
    finally:
        run.kill()
        run.wait(timeout=10)


def _slow_or_failing(index: int) -> int:
    if index == 0:
        time.sleep(0.3)
        raise ValueError("task 0 fails")
    time.sleep(30)
    return index


def _suicide(index: int) -> int:
    if index == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return index


def test_an_error_in_a_task_stops_the_pool_at_once():
    from rumdiff.processes import run_unordered

    started = time.monotonic()
    with pytest.raises(ValueError, match="task 0 fails"):
        list(run_unordered(_slow_or_failing, [(i,) for i in range(4)], jobs=2))
    assert time.monotonic() - started < 20, "waited for the other tasks"


def test_stopping_early_leaves_no_thread_for_the_exit_to_race():
    # The pool's manager thread closes its wake-up pipe as it ends, while the
    # interpreter's exit writes to that pipe: a thread left running can make the exit
    # print a traceback (a command stopped by a signal). Stopping must join it.
    from rumdiff.processes import WorkerPool, run_unordered

    before = _pool_threads()
    results = run_unordered(_pid_after, [(0.3, i) for i in range(8)], jobs=2)
    next(results)
    results.close()
    assert _pool_threads() <= before
    with pytest.raises(ValueError, match="task 0 fails"), WorkerPool(2) as pool:
        pool.map(_slow_or_failing, [(i,) for i in range(4)])
    assert _pool_threads() <= before


def test_a_pool_stopped_with_large_tasks_queued_closes_at_once(tmp_path):
    # Tasks larger than a pipe holds: Python 3.10 left the pool's feeder blocked writing
    # one to the killed workers, and the process hung as it exited.
    script = tmp_path / "large.py"
    script.write_text(
        textwrap.dedent(
            """
            import time
            from rumdiff.processes import run_unordered

            def work(blob, index):
                time.sleep(0 if index == 0 else 60)

            if __name__ == "__main__":
                results = run_unordered(work, [(b"x" * 200_000, i) for i in range(8)], jobs=2)
                next(results)
                results.close()
            """
        )
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=50)  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")


def test_a_pool_stopped_as_its_thread_started_still_closes():
    # An interrupt inside a pool's first submit can leave its manager thread made but
    # not started: waiting for that thread raises, so closing must not wait.
    import threading

    from rumdiff.processes import _close_pool, _spawn_pool

    pool = _spawn_pool(1)
    pool._executor_manager_thread = threading.Thread(target=print)
    _close_pool(pool, finished=False)  # raised RuntimeError when it waited for the thread


def _pool_threads() -> set:
    """The live threads of process pools and their queues (other tests' may linger)."""
    import threading

    return {
        thread for thread in threading.enumerate()
        if type(thread).__module__.startswith("concurrent.futures")
        or thread.name == "QueueFeederThread"
    }  # fmt: skip


def test_a_worker_that_dies_is_one_clear_error():
    from rumdiff.processes import WorkerError, run_unordered

    with pytest.raises(WorkerError, match="a worker process died"):
        list(run_unordered(_suicide, [(i,) for i in range(4)], jobs=2))


def _pid_after(seconds: float, index: int) -> tuple[int, int]:
    time.sleep(seconds)
    return index, os.getpid()


def test_short_work_never_starts_workers():
    from rumdiff.processes import run_unordered

    tasks = ((0.0, i) for i in range(6))  # a generator: its length unknown
    results = list(run_unordered(_pid_after, tasks, jobs=2, ordered=True, local_seconds=60))
    assert results == [(i, os.getpid()) for i in range(6)]


def _meet(barrier, index: int) -> tuple[int, int, int]:
    """Wait for the other workers at ``barrier`` (or not, if None), then say where this ran."""
    import threading

    if barrier is not None:
        barrier.wait()
    return index, os.getpid(), threading.get_ident()


def test_threads_run_the_tasks_here_at_once_in_order():
    import threading

    from rumdiff.processes import run_unordered

    barrier = threading.Barrier(2, timeout=30)  # broken unless two tasks run at once
    tasks = ((barrier, i) for i in range(6))  # a generator: its length unknown
    results = list(run_unordered(_meet, tasks, jobs=2, ordered=True, threads=True))
    assert [index for index, _, _ in results] == list(range(6))
    assert {pid for _, pid, _ in results} == {os.getpid()}
    threads = {ident for _, _, ident in results}
    assert len(threads) == 2 and threading.get_ident() not in threads
    unordered = run_unordered(_meet, [(barrier, i) for i in range(4)], jobs=2, threads=True)
    assert sorted(index for index, _, _ in unordered) == [0, 1, 2, 3]


def test_one_thread_runs_the_tasks_in_this_thread():
    import threading

    from rumdiff.processes import run_unordered

    results = list(run_unordered(_meet, [(None, i) for i in range(3)], jobs=1, threads=True))
    assert results == [(i, os.getpid(), threading.get_ident()) for i in range(3)]


def test_an_error_in_a_thread_reaches_the_caller_and_ends_the_work():
    from rumdiff.processes import run_unordered

    calls = []

    def task(index: int) -> int:
        calls.append(index)
        if index == 0:
            raise ValueError("task 0 fails")
        return index

    tasks = ((i,) for i in range(1000))
    with pytest.raises(ValueError, match="task 0 fails"):
        list(run_unordered(task, tasks, jobs=2, ordered=True, threads=True))
    assert len(calls) <= 4  # at most two tasks a thread were taken


def test_threads_stopped_early_start_no_more_tasks_and_end():
    import threading

    from rumdiff.processes import run_unordered

    started = []
    release = threading.Event()

    def task(index: int) -> int:
        started.append(index)
        if index > 0:  # the tasks after the first wait until the stop
            release.wait(30)
        return index

    before = set(threading.enumerate())
    results = run_unordered(task, ((i,) for i in range(100)), jobs=2, ordered=True, threads=True)
    assert next(results) == 0  # tasks 1 to 3 were taken meanwhile, the window's four
    results.close()
    release.set()
    for thread in set(threading.enumerate()) - before:
        thread.join(30)
        assert not thread.is_alive()
    # Task 1 runs; task 2 too if the first thread took it before the stop; never 3 on.
    assert sorted(started) in ([0, 1], [0, 1, 2])


def test_jobs_follow_joblibs_convention_and_zero_is_refused():
    from rumdiff.processes import WorkerPool, effective_jobs, run_unordered

    cores = os.cpu_count() or 1
    assert [effective_jobs(jobs) for jobs in (3, -1, -2)] == [3, cores, max(1, cores - 1)]
    for jobs in (0, 1.0, True, None):
        with pytest.raises(ValueError, match="jobs must be a "):
            effective_jobs(jobs)
    with pytest.raises(ValueError, match="non-zero"):
        list(run_unordered(_pid_after, [(0.0, 1)], jobs=0))
    with pytest.raises(ValueError, match="non-zero"):
        WorkerPool(0)


def test_work_that_goes_on_moves_to_workers_in_order():
    from rumdiff.processes import run_unordered

    tasks = [(0.15, i) for i in range(8)]
    results = list(run_unordered(_pid_after, tasks, jobs=2, ordered=True, local_seconds=0.3))
    assert [index for index, _ in results] == list(range(8))
    here = [index for index, pid in results if pid == os.getpid()]
    # 0.3 s of work here, then the workers take the rest: two tasks of 0.15 s, or one
    # if a sleep overran (a loaded machine)
    assert here in ([0], [0, 1])
    assert all(pid != os.getpid() for _, pid in results[len(here) :])


def test_no_local_seconds_sends_every_task_to_the_workers():
    from rumdiff.processes import run_unordered

    results = list(run_unordered(_pid_after, [(0.0, i) for i in range(3)], jobs=2))
    assert sorted(index for index, _ in results) == [0, 1, 2]
    assert all(pid != os.getpid() for _, pid in results)


@linux
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_capped_child_dies_with_its_parent(how, tmp_path):
    # The parent runs run_capped as the command line does: under its signal handlers,
    # and with SIGINT and SIGTERM unblocked, as a shell starts a command, whatever the
    # test worker's signals. The script needs the main guard: without it the spawned
    # child ran the script again, failed at once, and the parent ended before it was
    # signalled, so the test checked nothing and timed out when it missed the child.
    script = tmp_path / "parent.py"
    script.write_text(
        textwrap.dedent(
            """
        import signal
        import time
        from rumdiff.cli.signals import stop_on_signals
        from rumdiff.processes import run_capped
        if __name__ == "__main__":
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
            with stop_on_signals():
                print("started", flush=True)
                run_capped(time.sleep, 120, memory=1 << 30)
        """
        )
    )
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    try:
        assert parent.stdout.readline().strip() == "started"
        # The capped child, spawned (the first child may be multiprocessing's resource
        # tracker, started before it).
        assert _wait(lambda: _workers(parent.pid))
        children = _children(parent.pid)
        before = _signal_state(parent.pid)
        time.sleep(0.5)  # the child at work, not starting
        assert parent.poll() is None, "the parent ended before it was signalled"
        parent.send_signal(how)
        try:
            parent.wait(timeout=20)  # an interrupt is not held up by the child's work
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after {how!r}; its signals before: {before}")
        assert _wait(lambda: not any(_alive(pid) for pid in children), 10)
    finally:
        parent.kill()
        parent.wait(timeout=10)
        parent.stdout.close()


def test_a_capped_child_returns_and_raises():
    from rumdiff.processes import run_capped

    assert run_capped(divmod, 7, 2, memory=1 << 30) == (3, 1)
    with pytest.raises(ZeroDivisionError):
        run_capped(divmod, 1, 0, memory=1 << 30)
    with pytest.raises(MemoryError):
        run_capped(bytearray, 1 << 31, memory=1 << 30)
