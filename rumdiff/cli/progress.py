"""A tiny progress bar: count, share, rate and ETA on one line of a stream.

Used by the CLI only (library code reports progress through callbacks and never
prints). On a terminal the line is redrawn in place at most every
``min_interval`` seconds; elsewhere (a log file, a CI job) a new line is written
at most every ``log_interval`` seconds, so logs stay short.
"""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar", "format_duration"]


def format_duration(seconds: float) -> str:
    """``seconds`` as ``M:SS`` or ``H:MM:SS``; ``--:--`` when unknown."""
    if seconds is None or not seconds >= 0 or seconds == float("inf"):
        return "--:--"
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressBar:
    """Progress of ``total`` items, of which ``initial`` were done before (a resumed run).

    Once the run has gone on past its first items for as long as they took, the rate
    and the ETA count only the items done after them, so neither includes start-up;
    before that they count from the start (erring slow, never fast).

    Parameters
    ----------
    total : int
        Items in all.
    initial : int
        Items already done when the bar starts.
    stream : file, optional
        Where to draw; default ``sys.stderr``.
    unit : str
        Name of the items, for the rate.
    width : int
        Characters of the bar itself.
    """

    def __init__(
        self,
        total: int,
        *,
        initial: int = 0,
        stream=None,
        unit: str = "puzzles",
        width: int = 24,
        min_interval: float = 0.2,
        log_interval: float = 30.0,
        clock=time.monotonic,
    ):
        self.total = max(0, int(total))
        self.initial = self.done = int(initial)
        self.stream = sys.stderr if stream is None else stream
        self.unit = unit
        self.width = width
        self.clock = clock
        self.started = clock()
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())
        self.interval = min_interval if self.tty else log_interval
        self._last = None
        self._drawn = None  # the count last drawn
        self._base = None  # (time, count) of the first update with progress

    def rate(self, now: float | None = None) -> float:
        """Items per second since the first item done after the bar started (0 before).

        The first items of a run pay for starting workers and loading (or compiling) the
        kernels; counting from them on keeps the rate and the ETA honest.
        """
        if self._base is None:
            return 0.0
        now = self.clock() if now is None else now
        since, count = self._base
        elapsed = now - since
        if elapsed < since - self.started:
            # Still in the first wave: parallel workers finish their first items almost
            # together, so items since the first say nothing yet. The rate since the
            # start (start-up included) errs on the slow side instead.
            elapsed, count = now - self.started, self.initial
        return (self.done - count) / elapsed if elapsed > 0 and self.done > count else 0.0

    def line(self, now: float | None = None) -> str:
        """The current line of text."""
        now = self.clock() if now is None else now
        share = self.done / self.total if self.total else 1.0
        filled = int(round(share * self.width))
        rate = self.rate(now)
        if rate == 0 and self.done >= self.total and now > self.started:
            rate = (self.done - self.initial) / (now - self.started)  # one chunk: all we have
        if self.done >= self.total:
            eta = 0.0
        else:
            eta = (self.total - self.done) / rate if rate > 0 else None
        return (
            f"[{'#' * filled}{'.' * (self.width - filled)}] "
            f"{self.done:,}/{self.total:,} {100 * share:5.1f}% "
            f"{f'{rate:,.1f}' if rate > 0 else '--'} {self.unit}/s "
            f"elapsed {format_duration(now - self.started)} ETA {format_duration(eta)}"
        )

    def update(self, done: int, total: int | None = None) -> None:
        """Record ``done`` items in all and redraw if it is time to."""
        now = self.clock()
        if self._base is None and done > self.initial:
            self._base = (now, int(done))
        self.done = int(done)
        if total is not None:
            self.total = int(total)
        if self._last is not None and now - self._last < self.interval and done < self.total:
            return
        self._last = now
        self._draw(now)

    def _draw(self, now: float | None = None) -> None:
        self._drawn = self.done
        if self.tty:
            self.stream.write("\r" + self.line(now) + "\x1b[K")
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self._drawn != self.done:
            self._draw()
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


class ProgressCallback:
    """A ``progress(done, total)`` callback that opens a :class:`ProgressBar` on first use.

    Library functions report progress through such callbacks; the CLI passes one of
    these, so the bar starts with the right total (and, on resume, the right count).
    """

    def __init__(self, **options):
        self.options = options
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = ProgressBar(total, initial=done, **self.options)
        self.bar.update(done, total)

    def close(self) -> None:
        """Finish the bar's line, if a bar was opened."""
        if self.bar is not None:
            self.bar.close()
