"""Running rumdiff's tasks on a Dask cluster instead of local processes.

Optional: everything here needs the ``dask`` extra (``pip install rumdiff[dask]``) and
is used only when a command is given ``--scheduler ADDRESS``. :func:`connect` opens a
client and refuses workers that run another rumdiff (or numpy, numba) than the client;
:func:`run_on_cluster` runs tasks there, a bounded number in flight, so that the
scheduler holds a window of chunks, not the whole run. Dask reruns the task of a worker
that dies on another worker; the tasks are pure, so no result is lost or doubled.
"""

from __future__ import annotations

import contextlib
import logging
import re
from concurrent.futures import CancelledError

__all__ = ["ClusterError", "connect", "joblib_on_cluster", "run_on_cluster", "versions"]

#: Tasks kept in flight per worker thread: enough to hide the round trips.
IN_FLIGHT_PER_THREAD = 2
#: What --scheduler takes: a protocol, a host and a port.
_ADDRESS = re.compile(r"(tcp|tls)://[^\s/:]+:[0-9]+")
#: Seconds to wait for the scheduler when connecting.
CONNECT_TIMEOUT = 10


class ClusterError(RuntimeError):
    """The cluster cannot be used: no Dask, no scheduler, or mismatched workers."""


def versions() -> dict:
    """The versions a worker must share with the client (run on each worker too)."""
    from importlib.metadata import version  # scikit-learn's, without its import (1 s and more)

    import numba
    import numpy
    import pandas

    import rumdiff

    return {
        "rumdiff": rumdiff.__version__,
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "scikit-learn": version("scikit-learn"),
        "pandas": pandas.__version__,
    }


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            "--scheduler needs Dask: pip install 'rumdiff[dask]' (dask[distributed])"
        ) from None
    return distributed


@contextlib.contextmanager
def connect(address: str):
    """A ``distributed.Client`` for the scheduler at ``address``, checked and closed after.

    Raises
    ------
    ClusterError
        If Dask is missing, the scheduler does not answer, it has no workers, or a worker
        runs other versions than this process (:func:`versions`).
    """
    distributed = _distributed()
    # Dask logs lost connections with tracebacks; rumdiff reports them in one line.
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.startswith("distributed"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    if not _ADDRESS.fullmatch(address):
        raise ClusterError(
            f"{address!r} is not a scheduler address; expected one like tcp://host:8786"
        )
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        _check_workers(client, address)
        yield client
    finally:
        with contextlib.suppress(Exception):  # a lost scheduler cannot be closed cleanly
            client.close(timeout=5)


@contextlib.contextmanager
def joblib_on_cluster(address: str):
    """Run joblib's parallel work (scikit-learn's forests and searches) on the cluster.

    Everything joblib runs inside the block goes to the workers of the scheduler at
    ``address`` through joblib's Dask backend; seeded estimators give the same models.
    """
    import joblib

    distributed = _distributed()
    with connect(address) as client, client.as_current():
        try:
            with joblib.parallel_config(backend="dask"):
                yield client
        except _LOST as error:
            raise _lost(error) from None
        except distributed.KilledWorker as error:
            raise _killed(error) from None


def _check_workers(client, address: str) -> None:
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        found = client.run(versions)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"the Dask scheduler at {address} has no workers: {error}") from None
    except Exception as error:  # a worker without rumdiff fails to run versions()
        raise ClusterError(
            f"a Dask worker of {address} cannot run rumdiff ({type(error).__name__}: "
            f"{error}); install the same rumdiff on every worker"
        ) from None
    mine = versions()
    for worker, theirs in sorted(found.items()):
        if theirs != mine:
            differ = ", ".join(f"{k} {theirs.get(k)} (here {v})" for k, v in mine.items()
                               if theirs.get(k) != v)  # fmt: skip
            raise ClusterError(
                f"Dask worker {worker} runs {differ}; every worker needs the same versions"
            )


def run_on_cluster(client, function, tasks, *, ordered: bool = False):
    """Yield ``function(*task)`` for every task, run on the cluster of ``client``.

    In the order they finish, or in the tasks' order if ``ordered``. At most
    ``IN_FLIGHT_PER_THREAD`` tasks per worker thread are submitted at a time.

    Raises
    ------
    ClusterError
        If the scheduler is lost part-way (finished results were already yielded).
    """
    distributed = _distributed()
    threads = max(1, sum(client.nthreads().values()))
    window = IN_FLIGHT_PER_THREAD * threads
    tasks = iter(tasks)
    pending = []  # futures in submission order
    done = None  # finished futures, when unordered (made with the first future)
    try:
        for task in tasks:
            future = client.submit(function, *task, pure=False)
            pending.append(future)
            if not ordered:
                if done is None:
                    done = distributed.as_completed([future], loop=client.loop)
                else:
                    done.add(future)
            if len(pending) >= window:
                yield from _drain(pending, done, ordered, keep=window - 1)
        yield from _drain(pending, done, ordered, keep=0)
    except _LOST as error:
        raise _lost(error) from None
    except distributed.KilledWorker as error:
        raise _killed(error) from None
    finally:
        for future in pending:
            future.release()


#: What a lost scheduler raises: it cancels every future of the client, or the connection
#: fails (CommClosedError is an OSError).
_LOST = (OSError, TimeoutError, CancelledError)


def _lost(error) -> ClusterError:
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return ClusterError(f"lost the Dask scheduler ({type(error).__name__}: {first})")


def _killed(error) -> ClusterError:
    return ClusterError(
        f"a task killed the Dask workers it ran on ({error}); see the workers' logs (out of "
        "memory?)"
    )


def _drain(pending: list, done, ordered: bool, *, keep: int):
    """Yield results until at most ``keep`` futures are pending."""
    while len(pending) > keep:
        if done is None:
            future = pending.pop(0)
        else:
            future = next(done)
            pending.remove(future)
        yield future.result()
