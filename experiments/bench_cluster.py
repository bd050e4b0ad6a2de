"""Dask's overhead against local processes, and what a 10-million-puzzle hour needs.

Usage::

    python experiments/bench_cluster.py [--count 20000] [--chunk-size 500] [--seed 0]

Builds the same dataset twice in one run: with two local worker processes
(``--jobs 2``) and on a local Dask cluster of two single-threaded worker processes
(``--scheduler``), and prints puzzles per second of each and Dask's overhead. Then
times no-op tasks on the cluster (the per-task cost of the scheduler round trip) and,
from the measured CPU seconds a puzzle, prints how many worker cores produce 10 million
labelled puzzles in an hour and how many tasks a second the scheduler then handles.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rumdiff.data import DatasetSpec, build_dataset

#: Puzzles an hour the plan is for.
TARGET = 10_000_000


def _noop(_):
    return None


def build(folder: Path, name: str, spec: DatasetSpec, **where) -> tuple[float, dict]:
    started = time.perf_counter()
    metadata = build_dataset(folder / f"{name}.parquet", spec, **where)
    return time.perf_counter() - started, metadata


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--chunk-size", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from distributed import Client, LocalCluster

    spec = DatasetSpec(count=args.count, seed=args.seed, chunk_size=args.chunk_size)
    with (
        tempfile.TemporaryDirectory() as folder,
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
    ):
        folder = Path(folder)
        build(folder, "warm", DatasetSpec(count=1_000, seed=1), jobs=2)  # compile caches
        local, metadata = build(folder, "local", spec, jobs=2)
        dask, _ = build(folder, "dask", spec, scheduler=cluster.scheduler_address)
        print(f"{args.count:,} puzzles, chunks of {args.chunk_size}:")
        print(f"  local, 2 processes:   {local:7.1f} s  {args.count / local:7.1f} puzzles/s")
        print(f"  Dask, 2 workers:      {dask:7.1f} s  {args.count / dask:7.1f} puzzles/s")
        print(f"  Dask overhead: {100 * (dask / local - 1):+.1f}%")

        with Client(cluster.scheduler_address) as client:
            client.gather(client.map(_noop, range(200)))  # warm
            started = time.perf_counter()
            client.gather(client.map(_noop, range(2_000)))
            per_task = (time.perf_counter() - started) / 2_000
        cpu = metadata["sessions"][-1]["cpu_seconds"] / args.count
        cores = TARGET * cpu / 3600
        tasks = TARGET / 3600 / args.chunk_size
        print(f"  scheduler round trip: {1e3 * per_task:.2f} ms a task (2,000 no-op tasks)")
        print(f"plan: {1e3 * cpu:.2f} ms CPU a puzzle, so {TARGET:,} puzzles an hour need "
              f"about {cores:.0f} worker cores;")  # fmt: skip
        print(f"  with chunks of {args.chunk_size}, {tasks:.1f} tasks a second reach the "
              f"scheduler ({tasks * per_task:.1%} of its time at this round trip)")  # fmt: skip


if __name__ == "__main__":
    main()
