"""The commands on a real Dask cluster: a scheduler and two workers started with the
``dask`` commands on 127.0.0.1, the same results as locally, a worker killed mid-run,
a scheduler lost mid-run. Everything started is stopped, with timeouts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from helpers import TINY_REGRESSOR

distributed = pytest.importorskip("distributed")  # the optional extra: rumdiff[dask]

from rumdiff.cli import main  # noqa: E402
from rumdiff.cluster import ClusterError, connect  # noqa: E402

DASK = str(Path(sys.executable).with_name("dask"))
GENERATE = ["-n", "40", "--count", "600", "--seed", "5", "--chunk-size", "30", "-q"]


class Cluster:
    """A scheduler and ``workers`` single-threaded workers, as subprocesses."""

    def __init__(self, folder: Path, workers: int = 2):
        self.file = folder / "scheduler.json"
        common = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.workers = []
        self.scheduler = subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(self.file)], **common,
        )  # fmt: skip
        try:
            self.address = json.loads(_written(self.file))["address"]
            self.workers = [
                subprocess.Popen(
                    [
                        DASK,
                        "worker",
                        self.address,
                        "--nthreads",
                        "1",
                        "--no-dashboard",
                        "--no-nanny",
                    ],
                    **common,
                )  # fmt: skip
                for _ in range(workers)
            ]
            with distributed.Client(self.address, timeout=60) as client:
                client.wait_for_workers(workers, timeout=120)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


def _written(path: Path, seconds: float = 60) -> str:
    """The text of a file another process writes, once it is complete JSON."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            text = path.read_text()
            json.loads(text)
            return text
        except (OSError, ValueError):
            time.sleep(0.1)
    raise TimeoutError(f"{path} was not written in {seconds} s")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Cluster(tmp_path_factory.mktemp("cluster"))
    yield started
    started.stop()


@pytest.fixture(scope="module")
def local_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("local") / "local.parquet"
    assert main(["generate", str(path), *GENERATE, "--jobs", "2"]) == 0
    return path


@pytest.fixture(scope="module")
def local_dataset(local_path):
    return pd.read_parquet(local_path)


def _same_rows(path, expected) -> None:
    frame = pd.read_parquet(path)
    timeless = [c for c in frame.columns if not c.endswith("seconds")]
    pd.testing.assert_frame_equal(frame[timeless], expected[timeless])


def test_generate_on_the_cluster_gives_the_local_dataset(cluster, local_dataset, tmp_path):
    path = tmp_path / "cluster.parquet"
    assert main(["generate", str(path), *GENERATE, "--scheduler", cluster.address]) == 0
    _same_rows(path, local_dataset)


def test_solve_on_the_cluster_keeps_the_order(cluster, tmp_path, capsys):
    examples = Path(__file__).resolve().parents[1] / "data" / "examples" / "mixed-20.in"
    assert main(["solve", str(examples)]) == 0
    local = capsys.readouterr().out
    assert main(["solve", str(examples), "--scheduler", cluster.address]) == 0
    assert capsys.readouterr().out == local
    assert main(["solve", str(examples), "--jobs", "2"]) == 0
    assert capsys.readouterr().out == local


def test_features_on_the_cluster_keep_the_order(cluster, tmp_path, capsys):
    examples = Path(__file__).resolve().parents[1] / "data" / "examples" / "mixed-20.in"
    assert main(["features", str(examples), "--features", "thesis", "-q"]) == 0
    local = capsys.readouterr().out
    argv = ["features", str(examples), "--features", "thesis", "-q"]
    assert main([*argv, "--scheduler", cluster.address]) == 0
    assert capsys.readouterr().out == local and local.count("\n") == 21


@pytest.mark.slow  # a cluster started and stopped: make test-all
def test_train_on_the_cluster_gives_the_local_model(cluster, local_path):
    # What rumdiff train --scheduler runs, with a small grid to keep the test short.
    from rumdiff.cluster import joblib_on_cluster
    from rumdiff.data import read_dataset, read_sidecar
    from rumdiff.learn import train, training_data

    data = training_data(read_dataset(local_path), read_sidecar(local_path))
    grid = {"n_estimators": [20], "max_leaf_nodes": [32, 64]}
    options = {"grid": grid, "regressor_params": TINY_REGRESSOR, "folds": 3, "jobs": 2}
    local = train(data, **options, seed=1)
    with joblib_on_cluster(cluster.address):
        remote = train(data, **options, seed=1)
    assert remote.best_params == local.best_params
    assert (remote.y_pred == local.y_pred).all() and (remote.proba == local.proba).all()
    columns = ["fold", "rows", "accuracy", "macro_f1"]
    pd.testing.assert_frame_equal(remote.fold_scores[columns], local.fold_scores[columns])


def _generate_until_two_chunks(path: Path, address: str) -> subprocess.Popen:
    """Start ``rumdiff generate`` on the cluster; return once two chunks are saved."""
    run = subprocess.Popen(
        [sys.executable, "-m", "rumdiff", "generate", str(path), *GENERATE,
         "--scheduler", address],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    parts = path.with_name(path.name + ".partial")
    deadline = time.monotonic() + 120
    while len(list(parts.glob("part-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert run.poll() is None, "the run ended before the fault could be injected"
    return run


@pytest.mark.slow  # a cluster started and stopped: make test-all
def test_a_worker_killed_mid_run_loses_and_doubles_nothing(local_dataset, tmp_path):
    started = Cluster(tmp_path)
    try:
        path = tmp_path / "killed.parquet"
        run = _generate_until_two_chunks(path, started.address)
        started.workers[0].send_signal(signal.SIGKILL)
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        _same_rows(path, local_dataset)
    finally:
        started.stop()


@pytest.mark.slow  # a cluster started and stopped: make test-all
def test_a_lost_scheduler_ends_the_run_and_resume_finishes_it(local_dataset, tmp_path):
    started = Cluster(tmp_path)
    path = tmp_path / "lost.parquet"
    try:
        run = _generate_until_two_chunks(path, started.address)
        started.scheduler.send_signal(signal.SIGKILL)
        _, err = run.communicate(timeout=300)
    finally:
        started.stop()
    assert run.returncode == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Dask scheduler" in lines[0] and "--resume" in lines[0], err
    assert main(["generate", str(path), *GENERATE, "--jobs", "2", "--resume"]) == 0
    _same_rows(path, local_dataset)


def test_workers_with_another_rumdiff_are_refused(cluster, monkeypatch):
    import rumdiff

    monkeypatch.setattr(rumdiff, "__version__", "9.9")  # here only: the workers keep theirs
    with pytest.raises(ClusterError, match=r"runs rumdiff 0\.1\.0 \(here 9\.9\)"):
        with connect(cluster.address):
            pass


def test_a_missing_dask_is_one_line_saying_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)
    out = tmp_path / "d.parquet"
    assert main(["generate", str(out), *GENERATE, "--scheduler", "tcp://127.0.0.1:1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'rumdiff[dask]'" in err
    assert not out.exists()


def test_no_scheduler_is_one_line(tmp_path, capsys, monkeypatch):
    from rumdiff import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)  # Dask retries a refusal until then
    out = tmp_path / "d.parquet"
    assert main(["generate", str(out), *GENERATE, "--scheduler", "tcp://127.0.0.1:9"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler" in err
    assert os.listdir(tmp_path) == []
