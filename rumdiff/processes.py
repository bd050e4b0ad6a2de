"""Processes that behave: workers die with their parent, one run per output at a time.

:func:`run_unordered` runs a command's tasks here, in worker processes, on a Dask
cluster, or on threads of this process for work that releases the GIL.

:func:`die_with_parent` makes a worker process ask the kernel to kill it when the
process that started it dies, however it dies (``kill -9`` included), so no worker
keeps computing for a run nobody will read. :class:`RunLock` holds an exclusive lock on
a file beside an output while a run writes it: a second run on the same output fails at
once; a lock left by a dead run is free again, because the kernel drops a dead process's
locks.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import time
from pathlib import Path

from rumdiff.validation import jobs_count

__all__ = [
    "LockedError",
    "RunLock",
    "WorkerError",
    "WorkerPool",
    "die_with_parent",
    "effective_jobs",
    "joblib_workers_die_with_parent",
    "run_capped",
    "run_unordered",
]

#: The end of an iterator of tasks (a task may be any value).
_END = object()

#: prctl option that sets the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1

#: Seconds a pool stopped early may take to end its manager thread.
_CLOSE_SECONDS = 10.0


def die_with_parent(parent: int) -> None:
    """Kill this process when ``parent`` dies; exit at once if it is already gone.

    Linux only (elsewhere a no-op). Idempotent and cheap: call it at the start of every
    task a worker runs.
    """
    if not sys.platform.startswith("linux") or os.getpid() == parent:
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


@contextlib.contextmanager
def joblib_workers_die_with_parent():
    """Inside the block, joblib's worker processes (loky's) die with this process.

    scikit-learn's searches run on joblib, whose loky workers outlive a parent killed
    outright (``kill -9``) until they have been idle for minutes. Unless the caller has
    chosen another backend (a Dask cluster, threads), the block chooses loky with
    :func:`die_with_parent` as its workers' initializer; a loky backend the caller
    configured (its ``inner_max_num_threads``, its own initializer) gives way to this
    one. Wrap only work that asks joblib for processes: a chosen backend overrides
    scikit-learn's preference for threads (a forest's ``n_jobs``).
    """
    import joblib
    from joblib.parallel import LokyBackend, get_active_backend

    backend, _ = get_active_backend()
    if not isinstance(backend, LokyBackend):
        yield
        return
    with joblib.parallel_config(
        backend="loky", initializer=die_with_parent, initargs=(os.getpid(),)
    ):
        yield


def effective_jobs(jobs: int) -> int:
    """Worker processes for ``jobs`` (joblib's convention: -1 every core, -2 all but one).

    Raises
    ------
    ValueError
        If ``jobs`` is not a whole number, or is 0.
    """
    jobs = jobs_count(jobs)
    cores = os.cpu_count() or 1
    return jobs if jobs > 0 else max(1, cores + 1 + jobs)


def run_unordered(
    function, tasks, *, jobs: int, client=None, ordered: bool = False,
    local_seconds: float = 0.0, threads: bool = False,
):  # fmt: skip
    """Yield ``function(*task)`` for every task, in the order they finish (or in the
    tasks' order if ``ordered``).

    ``tasks`` may be a generator: at most two tasks per worker are taken from it ahead
    of the results, so memory holds a window of tasks, not all of them. With a Dask
    ``client`` the tasks run on its cluster (:func:`rumdiff.cluster.run_on_cluster`).
    Otherwise, with one worker (or one task) they run here, in order; else the first
    tasks run here, in order, until they have taken ``local_seconds`` (work too short
    to pay for starting processes never starts them), and a pool of fresh (spawned)
    processes runs the rest, each made to die with this process
    (:func:`die_with_parent`), never more processes than tasks when their number is
    known. Closing the generator early cancels the tasks not started; the running ones
    end with their worker.

    With ``threads``, the workers are threads of this process instead, from the first
    task (``local_seconds`` is not used): for a ``function`` whose work is a kernel
    that releases the GIL (numba's ``nogil``), they start at once and share the tasks
    and results without copies. A thread cannot be killed: stopped early, the tasks
    running finish before the process exits.
    """
    if client is not None:
        from rumdiff.cluster import run_on_cluster

        yield from run_on_cluster(client, function, tasks, ordered=ordered)
        return
    workers = effective_jobs(jobs)
    if hasattr(tasks, "__len__"):
        workers = min(workers, len(tasks))
    tasks = iter(tasks)
    if threads and workers > 1:
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(workers)
        yield from _pool(function, tasks, pool, workers, ordered, broken=())
        return
    spent = 0.0  # seconds of work done here (not the caller's time between results)
    while workers <= 1 or spent < local_seconds:
        task = next(tasks, _END)
        if task is _END:
            return
        began = time.perf_counter()
        result = function(*task)
        spent += time.perf_counter() - began
        yield result
    first = next(tasks, _END)
    if first is not _END:
        from concurrent.futures.process import BrokenProcessPool

        tasks = itertools.chain([first], tasks)
        pool = _spawn_pool(workers)
        yield from _pool(function, tasks, pool, workers, ordered, broken=BrokenProcessPool)


def _pool(function, tasks, pool, workers: int, ordered: bool, *, broken):
    """Yield the results of ``tasks`` run on ``pool`` (an executor of ``workers``),
    at most two tasks a worker ahead; the pool is shut down however this ends.
    ``broken``: the exception the pool raises when a worker dies (``()``: none)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending = []  # in submission order
    finished = False
    try:
        for task in tasks:
            pending.append(pool.submit(function, *task))
            while len(pending) >= 2 * workers:
                yield from _finished(pending, ordered, wait, FIRST_COMPLETED)
        while pending:
            yield from _finished(pending, ordered, wait, FIRST_COMPLETED)
        finished = True
    except broken:
        raise WorkerError(
            "a worker process died (killed, or out of memory?); finished work is kept"
        ) from None
    finally:
        _close_pool(pool, finished)


def _spawn_pool(workers: int):
    """A pool of ``workers`` fresh (spawned) processes, each made to die with this one."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    return ProcessPoolExecutor(
        workers, mp_context=get_context("spawn"), initializer=_start_worker,
        initargs=(os.getpid(),),
    )  # fmt: skip


def _start_worker(parent: int) -> None:
    """What a worker does as it starts: die with ``parent``; numba's quicker start-up
    (:func:`rumdiff.startup.quick_start`)."""
    from rumdiff.startup import quick_start

    die_with_parent(parent)
    quick_start()


def _close_pool(pool, finished: bool) -> None:
    """Shut a pool down, its worker processes killed first unless its work ``finished``
    (a pool of threads drops the tasks not started; the running ones finish)."""
    if finished:
        pool.shutdown(wait=True)
        return
    # Stopped early (an error, Ctrl-C, a closed generator): the tasks running or queued
    # are not wanted, and the interpreter would wait for them at exit.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
    # Nobody reads the tasks' queue now: its feeder may stay blocked writing a large
    # task to the dead workers (Python 3.10), so the pool's thread must not wait for it.
    queue = getattr(pool, "_call_queue", None)
    if queue is not None:
        queue.cancel_join_thread()
    thread = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    # The manager thread closes a pipe as it ends, and the interpreter's exit writes to
    # that pipe: a thread left running races the exit, which then prints a traceback
    # after a command's one line. So wait for it, but not forever.
    if thread is not None:
        with contextlib.suppress(RuntimeError):  # interrupted as it started: never ran
            thread.join(_CLOSE_SECONDS)


def _finished(pending: list, ordered: bool, wait, first_completed):
    """Yield the results of some finished tasks and drop them from ``pending``."""
    if ordered:
        yield pending.pop(0).result()
        return
    done, _ = wait(pending, return_when=first_completed)
    for future in [f for f in pending if f in done]:
        pending.remove(future)
        yield future.result()


def run_capped(function, *args, memory: int, modules: tuple = (), **kwargs):
    """``function(*args, **kwargs)`` run in a fresh (spawned) child process whose address
    space is capped at ``memory`` bytes and which dies with this one; its result. The
    child imports ``modules`` (names) before the cap, so that the cap is the work's.

    For work that cannot bound its own memory or be interrupted (a solver library's
    search): the cap makes it fail instead of taking the machine, and this process
    stays responsive to signals while it waits (an interrupt kills the child).

    Raises
    ------
    MemoryError
        If the child ran out of its memory (or died otherwise, as a capped allocation
        may kill it outright).
    Exception
        Whatever ``function`` raised, re-raised here.
    """
    from multiprocessing import get_context

    context = get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(
        target=_capped_child,
        args=(sender, os.getpid(), memory, modules, function, args, kwargs), daemon=True,
    )  # fmt: skip
    try:  # an interrupt while the child starts kills it too
        child.start()
        sender.close()
        try:
            ok, value = receiver.recv()
        except EOFError:
            child.join()
            raise MemoryError(
                f"the child process died (exit code {child.exitcode}) under its cap of "
                f"{memory:,} bytes"
            ) from None
    finally:
        receiver.close()
        sender.close()
        if child.is_alive():
            child.kill()
        if child.pid is not None:
            child.join()
    if not ok:
        raise value
    return value


def _capped_child(sender, parent: int, memory: int, modules, function, args, kwargs) -> None:
    """The child of :func:`run_capped`: import, cap, run, send ``(ok, result or error)``."""
    import importlib
    import resource

    die_with_parent(parent)
    for name in modules:
        importlib.import_module(name)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        result = (True, function(*args, **kwargs))
    except Exception as error:  # (MemoryError included) the parent re-raises it
        result = (False, error)
    sender.send(result)
    sender.close()


class WorkerPool:
    """Worker processes kept for several batches of tasks, as a context manager.

    :func:`run_unordered` starts a pool per call; a caller that decides each batch from
    the results of the last (``rumdiff.data.order``) keeps one pool instead. With one
    worker the tasks run here, in order. Workers are spawned, made to die with this
    process (:func:`die_with_parent`), and killed when the block is left by an error or
    Ctrl-C.
    """

    def __init__(self, jobs: int):
        self.workers = effective_jobs(jobs)
        self._pool = None

    def map(self, function, tasks) -> list:
        """``[function(*task) for task in tasks]``, the tasks spread over the workers."""
        tasks = list(tasks)
        if self.workers <= 1 or len(tasks) <= 1:
            return [function(*task) for task in tasks]
        from concurrent.futures.process import BrokenProcessPool

        if self._pool is None:
            self._pool = _spawn_pool(self.workers)
        try:
            futures = [self._pool.submit(function, *task) for task in tasks]
            return [future.result() for future in futures]
        except BrokenProcessPool:
            raise WorkerError("a worker process died (killed, or out of memory?)") from None

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if self._pool is not None:
            _close_pool(self._pool, finished=kind is None)
            self._pool = None
        return False


class WorkerError(RuntimeError):
    """A worker process died before finishing its task."""


class LockedError(RuntimeError):
    """Another live process holds the lock, or a folder or link stands in its place."""


class RunLock:
    """An exclusive, non-blocking lock on ``path`` (a ``.lock`` file), as a context manager.

    Parameters
    ----------
    path : str or Path
        The lock file; created if missing, removed on release.
    what : str
        What is locked, for the message.

    Raises
    ------
    LockedError
        On entry, if another live process holds the lock (the message names its pid).
    """

    def __init__(self, path, *, what: str):
        self.path = Path(path)
        self.what = what
        self._fd = None

    def __enter__(self):
        import fcntl

        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
                os.close(fd)
                raise LockedError(
                    f"another process (pid {holder}) is writing {self.what}; wait for it to "
                    f"finish or stop it (lock {self.path})"
                ) from None
            # The holder may have removed the file between our open and our lock: then
            # the lock is on a file nobody else sees; start again on the current one.
            with contextlib.suppress(FileNotFoundError):
                if os.stat(self.path).st_ino == os.fstat(fd).st_ino:
                    break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def _open(self) -> int:
        """The lock file, opened (created if missing); never through a link."""
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as error:
            if os.path.islink(self.path):
                kind = "a symbolic link"
            elif os.path.isdir(self.path):
                kind = "a folder"
            else:
                raise
            raise LockedError(
                f"{self.path} is {kind}, not the lock file of {self.what}; remove it "
                f"({error.strerror})"
            ) from None

    def __exit__(self, *exc_info):
        if self._fd is not None:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            os.close(self._fd)  # closing releases the lock
            self._fd = None
        return False
