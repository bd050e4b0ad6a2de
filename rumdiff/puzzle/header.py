"""The optional first line of a puzzle file, ``# G(k, m, n)``: the family of its puzzles.

A puzzle file (``rumdiff.puzzle.files``) may open with a header such as::

    # G(4, 2, 13)

which gives the k, m and n of every puzzle in it, as the readers' ``k``, ``m`` and ``n``
(and the command line's ``-k``, ``-m``, ``-n``) would. Whitespace is free around each
part: ``#G(4,2,13)`` and ``#  G( 4 , 2 , 13 )`` are the same header. Only the first line
can be a header, and a first line that starts with ``#`` must be one. A value the
caller gives as well must equal the header's.
"""

from __future__ import annotations

import re

from rumdiff import config
from rumdiff.validation import quoted, whole

__all__ = ["HEADER_MARK", "format_header", "is_header", "parse_header", "settle_shape"]

#: The character a header line starts with (after any whitespace).
HEADER_MARK = "#"
#: The shape of a header, its three numbers not yet checked.
_HEADER = re.compile(r"\s*#\s*G\s*\(([^()]*)\)\s*")
_NAMES = ("k", "m", "n")
_TOPS = (config.MAX_K, config.MAX_M, config.MAX_N)
#: A header, as messages show one.
_EXAMPLE = "# G(4, 2, 13)"
#: Most characters of a bad header, or of a bad number in it, that a message quotes.
_QUOTE = 40


def format_header(k: int, m: int, n: int) -> str:
    """The header line of puzzles G(k, m, n), without its newline: ``# G(4, 2, 13)``."""
    return f"{HEADER_MARK} G({k}, {m}, {n})"


def is_header(line: str) -> bool:
    """Whether a first line is meant as a header (it starts with ``#``), well formed or not."""
    return line.lstrip().startswith(HEADER_MARK)


def parse_header(line: str) -> tuple[int, int, int]:
    """The k, m and n of a header line.

    Parameters
    ----------
    line : str
        The line, without its newline.

    Returns
    -------
    k, m, n : int
        Each within the ranges the package supports (``config.MAX_K``, ``MAX_M``,
        ``MAX_N``).

    Raises
    ------
    ValueError
        In one line, quoting the header: not of the form ``# G(k, m, n)``, or a value
        that is no whole number or out of range.
    """
    shown = quoted(line, _QUOTE)
    match = _HEADER.fullmatch(line)
    parts = match.group(1).split(",") if match else []
    if len(parts) != len(_NAMES):
        raise ValueError(
            f"malformed header {shown}: expected '{HEADER_MARK} G(k, m, n)' with three whole "
            f"numbers, such as {_EXAMPLE!r}"
        )
    values = []
    for name, part, top in zip(_NAMES, parts, _TOPS, strict=True):
        token = part.strip()
        wrong = f"header {shown}: {name} must be a whole number in 1..{top}, got "
        # Not a number, or one above the top however long (never converted whole).
        if not token.isdigit() or not token.isascii() or len(token.lstrip("0")) > len(str(top)):
            raise ValueError(wrong + quoted(token, _QUOTE))
        try:
            values.append(whole(name, int(token), low=1, high=top))
        except ValueError as error:
            raise ValueError(f"header {shown}: {error}") from None
    return tuple(values)


def settle_shape(header, k, m, n) -> tuple:
    """The k, m and n a file is read with: each as given, else the header's.

    Parameters
    ----------
    header : tuple of int or None
        The file's ``(k, m, n)`` (:func:`parse_header`), or None without a header.
    k, m, n : int or None
        What the caller gave; None where it gave nothing.

    Returns
    -------
    k, m, n : int or None
        None only where neither gives one.

    Raises
    ------
    ValueError
        If a given value differs from the header's: ``header says n = 13 but n = 100
        was given``.
    """
    if header is None:
        return k, m, n
    for name, given, said in zip(_NAMES, (k, m, n), header, strict=True):
        if given is not None and given != said:
            raise ValueError(f"header says {name} = {said} but {name} = {given} was given")
    return tuple(header)
