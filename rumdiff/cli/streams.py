"""Standard streams that are closed, or whose reader has left.

A command started with a standard stream closed (``>&-``, ``2>&-``) has that file
descriptor free: the next file it opens would take the number, and whatever writes to
standard output or error (a child process, a library) would write into that file.
:func:`guard` holds every closed one with /dev/null; Python's stand-in for a closed
standard output then refuses every write in one line (the results have nowhere to go:
a non-zero exit), and a closed standard error becomes /dev/null (messages are lost, but
never written to standard output instead, where Python would put them).

Standard error whose reader has left (``2>&1 | head``) falls silent instead of stopping
the command (:class:`QuietErrors`); standard output whose reader has left ends the
command quietly, with the exit status of a program that SIGPIPE stopped (rumdiff.cli).
"""

from __future__ import annotations

import io
import os
import sys

from rumdiff.cli import UserError

__all__ = ["CLOSED", "ClosedOutput", "QuietErrors", "guard", "silence"]

#: Why a command started with standard output closed cannot write its results.
CLOSED = "cannot write to standard output: it is closed"


class ClosedOutput(io.TextIOBase):
    """Standard output of a command started without one: every write is refused."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise UserError(CLOSED)


class QuietErrors:
    """Standard error that falls silent once its reader has left, rather than stop the
    command; everything else is the wrapped stream's."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except (BrokenPipeError, ValueError):  # the reader left, or the stream is closed
            silence(self.stream)
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (BrokenPipeError, ValueError):
            silence(self.stream)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def silence(stream) -> None:
    """Point ``stream``'s file descriptor at /dev/null, so that the interpreter's last
    flush of text a closed pipe or a full disk refused cannot fail again with a
    traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real descriptor: nothing to flush
        pass


def guard() -> tuple:
    """Hold the descriptors of closed standard streams with /dev/null, put closed or
    refusing stand-ins in place of Python's missing ones, and wrap standard error in
    :class:`QuietErrors`.

    Returns the ``(sys.stdin, sys.stdout, sys.stderr)`` to put back when the command
    ends.
    """
    for number in (0, 1, 2):
        try:
            os.fstat(number)
        except OSError:  # closed: no file of ours may take its number
            held = os.open(os.devnull, os.O_RDWR)
            if held != number:
                os.dup2(held, number)
                os.close(held)
    before = (sys.stdin, sys.stdout, sys.stderr)
    if sys.stdin is None:  # a closed stream the puzzle readers know as such
        sys.stdin = io.TextIOWrapper(io.BytesIO())
        sys.stdin.close()
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    sys.stderr = QuietErrors(open(os.devnull, "w") if sys.stderr is None else sys.stderr)
    return before
