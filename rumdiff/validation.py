"""Checks of user-given values, written once and used by every stage.

Each check returns the value in its plain Python type, or raises ``error`` (``ValueError``
unless the caller names a subclass) with a one-line message that names the value and
prints numbers as plain numbers (``5.0``, never ``np.float64(5.0)``).
"""

from __future__ import annotations

import math
import numbers
import re

from rumdiff import config

__all__ = [
    "check_kmn",
    "choice",
    "control_character",
    "jobs_count",
    "one_line",
    "plain",
    "quoted",
    "real",
    "whole",
]

#: Control characters, which a message shows escaped so that it stays one line.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def quoted(text: str, limit: int = config.QUOTE_CHARS) -> str:
    """``text`` quoted for a message: control characters escaped (as ``repr`` does) and,
    past ``limit`` characters, cut with the whole length said, so that a huge bad token
    is not echoed whole."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


#: Bytes no puzzle line holds: control characters but tab, LF and CR (named apart).
_CONTROL_SET = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_CONTROL_BYTES = re.compile(b"[" + re.escape(_CONTROL_SET) + b"]")


def control_character(raw: bytes) -> str:
    """What the first control character of a line is and where (``NUL byte at column
    3``), or ``""`` when it has none: named as itself, not as a token it broke."""
    # Deleting them is five times faster than the search on a line of a few kB, which
    # then runs only on a line that holds one.
    if len(raw.translate(None, _CONTROL_SET)) == len(raw):
        return ""
    found = _CONTROL_BYTES.search(raw)  # (the same set: it finds one)
    byte = found.group()[0]
    what = "NUL byte" if byte == 0 else f"control character 0x{byte:02x}"
    return f"{what} at column {found.start() + 1}"


def one_line(message: str) -> str:
    """``message`` with its control characters escaped (a newline in a file name as
    ``\\n``), so that it prints as one line."""
    return _CONTROL.sub(lambda found: repr(found.group())[1:-1], message)


def plain(value):
    """``value`` as a user reads it: numpy scalars as Python numbers, text quoted."""
    if hasattr(value, "item") and not hasattr(value, "__len__"):
        value = value.item()
    return repr(value) if isinstance(value, str) else str(value)


def _bounds(low, high) -> str:
    if low is not None and high is not None:
        return f" in {low}..{high}"
    if low is not None:
        return f" of at least {low}"
    return f" of at most {high}" if high is not None else ""


def whole(name: str, value, *, low=None, high=None, error=ValueError) -> int:
    """``value`` as an int; it must be an integer (not a bool, not a float) in low..high."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{name} must be a whole number{_bounds(low, high)}, got {plain(value)}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise error(f"{name} must be a whole number{_bounds(low, high)}, got {value}")
    return value


def jobs_count(jobs, *, error=ValueError) -> int:
    """``jobs`` as a whole number of workers in joblib's convention (-1 every core, -2 all
    but one); 0 means nothing there, so it is refused."""
    jobs = whole("jobs", jobs, error=error)
    if jobs == 0:
        raise error("jobs must be a non-zero whole number (-1: every core), got 0")
    return jobs


def real(name: str, value, *, low=None, high=None, error=ValueError) -> float:
    """``value`` as a finite float in low..high (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise error(f"{name} must be a number{_bounds(low, high)}, got {plain(value)}")
    value = float(value)
    if not math.isfinite(value) or (low is not None and value < low):
        raise error(f"{name} must be a finite number{_bounds(low, high)}, got {value:g}")
    if high is not None and value > high:
        raise error(f"{name} must be a finite number{_bounds(low, high)}, got {value:g}")
    return value


def choice(name: str, value, choices, *, error=ValueError):
    """``value`` if it is one of ``choices``."""
    if value not in tuple(choices):
        listed = ", ".join(plain(c) for c in choices)
        raise error(f"unknown {name} {plain(value)}; expected one of {listed}")
    return value


def check_kmn(k, m, n, *, error=ValueError) -> tuple[int, int, int]:
    """k, m and n as ints within the supported ranges (``config.MAX_K``, ``MAX_M``, ``MAX_N``)."""
    return (
        whole("k", k, low=1, high=config.MAX_K, error=error),
        whole("m", m, low=1, high=config.MAX_M, error=error),
        whole("n", n, low=1, high=config.MAX_N, error=error),
    )
