"""What checking a model file's unpacked size costs: load_model against its size check.

Usage::

    python experiments/bench_model_load.py [--repeats 5] [--model PATH]

Loads the model (by default each shipped one) ``--repeats`` times and prints the fastest
load, the fastest :func:`rumdiff.learn.archive.check_archive` alone (the block-by-block
unpacking of every member that load_model does before skops reads the file), and the
check's share of the load, all measured in this run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rumdiff import config
from rumdiff.learn import default_model_path, load_model
from rumdiff.learn.archive import check_archive, unpacked_bytes
from rumdiff.learn.prediction import model_path


def _fastest(work, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--model", default=None, help="a model file (default: the shipped ones)")
    args = parser.parse_args(argv)
    paths = [Path(args.model)] if args.model else [default_model_path()]
    paths += [] if args.model else [model_path(name) for name in config.NAMED_MODELS]
    for path in paths:
        load_model(path)  # imports and caches warm
        load = _fastest(lambda path=path: load_model(path), args.repeats)
        check = _fastest(lambda path=path: check_archive(path), args.repeats)
        print(
            f"{path.name}: {path.stat().st_size / 2**20:.1f} MB, unpacks to "
            f"{unpacked_bytes(path) / 2**20:.1f} MB; load_model {load:.3f} s, of it the size "
            f"check {check:.3f} s ({100 * check / load:.0f}%)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
