"""Signals that stop a command: Ctrl-C (SIGINT) and kill (SIGTERM) alike.

Both raise a :class:`KeyboardInterrupt` (:class:`Terminated` for SIGTERM) in the main
thread, so the same clean-up runs whichever arrives: ``finally`` blocks remove temporary
files, worker pools kill their processes. An exception raised where Python cannot
propagate it (a ``__del__``, a callback from numba's compiler or llvmlite) would only be
printed and the command would go on, so a signal that lands there is held and raised
again a moment later, once the stack has left that code. So is one that lands in an
import, in source run by ``exec``, or while a pool starts a worker process or thread.

Once a signal is raised, an exception that ends a thread alive at that moment is no
longer printed: the command is stopping, and it says so in one line. Other threads' are
printed as before.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import weakref

__all__ = ["Terminated", "interrupt_behind", "stop_on_signals"]

#: Seconds after which a held signal is tried again.
RETRY_SECONDS = 0.05
#: Code where a raised exception is swallowed: its packages (by module name, never by
#: folder: a checkout under a folder named numba is not numba), and method names.
_SWALLOWING_PACKAGES = ("llvmlite", "numba")
_SWALLOWING_FUNCTIONS = ("__del__",)
#: Code a signal must not interrupt either: an import, or source run by exec (as
#: dataclasses and numba build functions). A KeyboardInterrupt raised there made
#: CPython 3.11 end the process by SIGINT (exit -2) even after it was handled and the
#: command returned 130: in 2 of 21 runs of ``solve`` interrupted while it imported.
_UNINTERRUPTIBLE_FILES = ("<frozen importlib._bootstrap", "<string>")
#: Code that starts a child process or a pool's thread: the modules that start
#: processes, and the starting functions of the pools' modules (the standard library's,
#: and loky's, alone or as joblib vendors it). A KeyboardInterrupt raised there left a forked
#: child its pool did not know yet, which printed a traceback once its parent had gone,
#: or a thread that never started, which the pool's shut-down then failed to join (exit
#: code 1): in 5 of 24 runs of ``explore`` signalled as its workers started. Only the
#: starts: a shut-down or a wait stays interruptible.
_STARTING_MODULES = ("multiprocessing.popen_", "loky.backend.popen_")
_POOL_MODULES = (
    "multiprocessing.process",
    "concurrent.futures.process",
    "concurrent.futures.thread",
    "loky.process_executor",
    "loky.reusable_executor",
)
#: The package under which joblib vendors loky, read as loky itself.
_VENDORED = "joblib.externals."
_STARTING_FUNCTIONS = (
    "start",
    "submit",
    "_adjust_process_count",
    "_spawn_process",
    "_launch_processes",
    "_start_executor_manager_thread",
    "_ensure_executor_running",
    "get_reusable_executor",
)
#: Where a child's own life begins: what lies below it on its stack is its parent's
#: start, copied by a fork, not a start under way.
_CHILD_BEGINS = ("multiprocessing.process", "_bootstrap")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so that the same clean-up runs."""


_held: list[int] = []  # the signal waiting for the stack to leave code that holds it
#: Per block of :func:`stop_on_signals`, innermost last: the ids of the frames below it
#: (its caller's and theirs), which live as long as the block.
_outside: list[set[int]] = []


def _held_back(frame) -> bool:
    """Whether an exception raised in ``frame`` could be swallowed on its way up inside
    the block of :func:`stop_on_signals`, or would break an import or the start of a
    worker (the code that entered the block, run by ``python -c`` as source of
    ``<string>``, is not looked at: else no signal would ever be raised)."""
    outside = _outside[-1] if _outside else set()
    while frame is not None and id(frame) not in outside:
        code = frame.f_code
        module = (frame.f_globals.get("__name__") or "").removeprefix(_VENDORED)
        if (module, code.co_name) == _CHILD_BEGINS:
            return False
        if (
            code.co_name in _SWALLOWING_FUNCTIONS
            or module.partition(".")[0] in _SWALLOWING_PACKAGES
            or code.co_filename.startswith(_UNINTERRUPTIBLE_FILES)
            or module.startswith(_STARTING_MODULES)
            or (module in _POOL_MODULES and code.co_name in _STARTING_FUNCTIONS)
        ):
            return True
        frame = frame.f_back
    return False


def _stop(signum, frame):
    if _held_back(frame):
        _held[:] = [signum]
        signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
        return
    _held.clear()
    _quiet_threads_alive_now()
    raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt


#: Threads alive when a signal was raised, whose failure is not printed; and the hook
#: that prints every other thread's (the one :func:`_thread_failed` replaced).
_quiet = weakref.WeakSet()
_forward: list = []


def _quiet_threads_alive_now() -> None:
    """Print nothing of a failure of the threads alive now (the main thread's aside).

    A pool torn down as the stop unwinds can fail in its own threads, then or as the
    process exits: loky's manager thread did (a KeyError, finding its work gone) in 2
    of 40 runs of train signalled as its workers started.
    """
    _quiet.update(set(threading.enumerate()) - {threading.main_thread()})
    if threading.excepthook is not _thread_failed:
        _forward[:] = [threading.excepthook]
        threading.excepthook = _thread_failed


def _thread_failed(args) -> None:
    """``threading.excepthook`` once a signal was raised: quiet for the threads alive
    then, the hook it replaced for any other."""
    if args.thread not in _quiet:
        _forward[0](args)


def _retry(signum, frame):
    if _held:
        _stop(_held[0], frame)


@contextlib.contextmanager
def stop_on_signals():
    """While the block runs, SIGINT and SIGTERM raise KeyboardInterrupt / Terminated
    (main thread only; elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == contextlib.__file__:
        frame = frame.f_back  # (contextlib's own frames end when the block starts)
    outside = set()
    while frame is not None:
        outside.add(id(frame))
        frame = frame.f_back
    _outside.append(outside)
    wanted = {signal.SIGINT: _stop, signal.SIGTERM: _stop, signal.SIGALRM: _retry}
    previous = {signum: signal.signal(signum, handler) for signum, handler in wanted.items()}
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _held.clear()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _outside.pop()


def interrupt_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt (or :class:`Terminated`) that caused ``error``, if any: a
    signal handled inside a compiled kernel comes out as a SystemError around it."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None
