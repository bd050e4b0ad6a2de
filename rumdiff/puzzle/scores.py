"""Score files: one maximum score per line, as ``rumdiff solve`` and the thesis write them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rumdiff.atomic import atomic_write_text
from rumdiff.puzzle.files import PuzzleFileError, _integer, _split_lines

__all__ = ["read_scores", "write_scores"]


def read_scores(path) -> np.ndarray:
    """Read a score file: one non-negative integer per line.

    Raises
    ------
    PuzzleFileError
        If the file cannot be read or a line is not a single integer.
    """
    path = str(path)
    try:
        text = Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as error:
        raise PuzzleFileError(path, 0, f"cannot read: {error}") from None
    lines = _split_lines(text, path)
    scores = []
    for number, line in enumerate(lines, start=1):
        token = line.strip()
        if not token:
            raise PuzzleFileError(path, number, "blank line where a score was expected")
        scores.append(_integer(token, path, number, "score"))
    return np.asarray(scores, dtype=np.int64)


def write_scores(path, scores) -> None:
    """Write one integer score per line, atomically."""
    atomic_write_text(path, "".join(f"{int(s)}\n" for s in scores), encoding="ascii")
