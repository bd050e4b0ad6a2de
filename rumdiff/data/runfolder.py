"""The work folder of an unfinished dataset run: its ``run.json`` and its part files.

``build_dataset`` writes each solved chunk to ``OUT.partial/part-NNNNNN.<fmt>`` and
records every session in ``run.json``, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.atomic import atomic_write_json
from rumdiff.data.io import DatasetError, cast_columns, git_commit, read_frame, read_metadata
from rumdiff.processes import effective_jobs

__all__ = ["RUN_FILE", "check_parts", "joined_parts", "part_name", "start_run"]

#: The run's manifest in the work folder.
RUN_FILE = "run.json"


def part_name(chunk: int, fmt: str) -> str:
    """The file name of a chunk's part."""
    return f"part-{chunk:06d}.{'parquet' if fmt == 'parquet' else 'csv'}"


def start_run(work, spec, resume: bool, jobs: int, started: str, *, scheduler=None,
              max_states: int = config.MAX_STATES) -> dict:  # fmt: skip
    """Open the work folder (a new run, or the unfinished one when resuming) and record
    this session, with its workers and state budget, in its ``run.json``."""
    manifest = work / RUN_FILE
    if work.is_symlink() or (work.exists() and not work.is_dir()):
        raise DatasetError(
            f"{work} is not a folder of an unfinished run (a file or link is in the way "
            "of the run's work folder); move it away or choose another OUT"
        )
    if work.exists():
        if not resume:
            raise DatasetError(
                f"an unfinished run of this dataset is in {work}; resume it (--resume) or delete it"
            )
        try:
            run = read_metadata(manifest)
        except DatasetError:
            raise DatasetError(f"{work} holds no readable {RUN_FILE}; delete the folder") from None
        if not isinstance(run.get("spec"), dict) or not isinstance(run.get("sessions"), list):
            raise DatasetError(
                f"{manifest} is not the manifest of a rumdiff run (no spec and sessions); "
                "delete the folder"
            )
        key = spec.matches(run.get("spec"))
        if key is not None:
            raise DatasetError(
                f"cannot resume: the unfinished run in {work} has {key}="
                f"{run.get('spec', {}).get(key)!r}, not {spec.as_json()[key]!r}"
            )
        for stray in work.glob(".*"):  # temporaries of chunks being written when stopped
            stray.unlink(missing_ok=True)
        check_parts(work)
    else:
        work.mkdir(parents=True)
        run = {"format": config.DATASET_FORMAT, "spec": spec.as_json(), "sessions": []}
    session = {"started": started, "wall_seconds": 0.0, "cpu_seconds": 0.0,
               "feature_cpu_seconds": 0.0, "puzzles_solved": 0}  # fmt: skip
    session.update(jobs=effective_jobs(jobs), max_states=max_states, **git_commit())
    if scheduler is not None:
        session["scheduler"] = scheduler
    run["sessions"].append(session)
    atomic_write_json(manifest, run)  # a killed session is on record too
    return run


def check_parts(work) -> None:
    """Refuse to resume over a damaged part file, before solving anything."""
    import pandas as pd

    for part in sorted(work.glob("part-*")):
        try:
            if part.suffix == ".parquet":
                import pyarrow.parquet

                pyarrow.parquet.read_metadata(part)
            else:
                pd.read_csv(part, nrows=1)
        except Exception as error:  # any reader failure means the same: unreadable
            raise DatasetError(
                f"{part} is damaged ({type(error).__name__}); delete it and resume: "
                "only its chunk is solved again"
            ) from None


def joined_parts(work, fmt: str, spec, generated, run: dict):
    """The part files joined in order, with the workers' dtypes, checked against the run."""
    import pandas as pd

    from rumdiff.puzzle import encode_games

    parts = [read_frame(work / part_name(c, fmt), fmt) for c in range(spec.chunks)]
    frame = cast_columns(pd.concat(parts, ignore_index=True), run.get("columns", {}))
    ids = frame["id"].to_numpy()
    if len(frame) != len(generated) or not np.array_equal(ids, np.arange(len(generated))):
        raise DatasetError(f"the parts in {work} do not hold puzzles 0..{len(generated) - 1}")
    expected = encode_games(generated.puzzles)
    if not np.array_equal(np.asarray(frame["puzzle"], dtype=object), np.asarray(expected, object)):
        raise DatasetError(f"the parts in {work} hold other puzzles than this run's; delete it")
    return frame
