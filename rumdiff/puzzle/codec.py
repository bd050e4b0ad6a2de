"""Lossless text encoding of puzzles, one character per cell.

A puzzle's copies matrix becomes a string of n * k digits, which stores compactly in a
dataset column and decodes back to the same array; see :func:`encode_puzzle` for the
layout. A puzzle with jokers or a table goes on after a ``|``: see :func:`encode_games`.
"""

from __future__ import annotations

import numpy as np

from rumdiff import config
from rumdiff.puzzle.puzzle import Puzzles, as_copies
from rumdiff.validation import check_kmn

__all__ = [
    "decode_games",
    "decode_puzzle",
    "decode_puzzles",
    "encode_games",
    "encode_puzzle",
    "encode_puzzles",
]


def _check_stack(array: np.ndarray) -> np.ndarray:
    if array.ndim != 3:
        raise ValueError(f"copies must have shape (puzzles, n, k), got {array.shape}")
    # The same value checks as a Puzzle's, for any number of copies a digit can hold.
    return as_copies(array, config.MAX_M).astype(np.uint8)


def encode_puzzles(copies) -> list[str]:
    """Encode stacked puzzles ``(puzzles, n, k)``, one string each; see :func:`encode_puzzle`."""
    array = _check_stack(np.asarray(copies))
    width = array.shape[1] * array.shape[2]
    if width == 0:
        return [""] * array.shape[0]
    # One decode of the whole buffer, then slicing, beats decoding row by row.
    text = (array + ord("0")).tobytes().decode("ascii")
    return [text[i : i + width] for i in range(0, len(text), width)]


def encode_puzzle(copies) -> str:
    """Lossless text of one puzzle: one digit (its copies) per cell.

    Cells are row-major, values then colours: character ``(v - 1) * k + c`` is the number
    of copies of value v in colour c. The text has n * k characters '0'..'3'; k and n
    are needed to decode it.
    """
    return encode_puzzles(np.asarray(copies)[None])[0]


def decode_puzzles(texts, k: int, n: int, *, m: int = config.MAX_M) -> np.ndarray:
    """Decode many :func:`encode_puzzle` strings into an int8 ``(puzzles, n, k)`` array."""
    check_kmn(k, m, n)
    texts = list(texts)
    try:
        raw = "".join(texts)
    except TypeError:
        raise ValueError("puzzle texts must be strings") from None
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    if np.any(lengths != n * k):
        row = int(np.argmax(lengths != n * k))
        raise ValueError(
            f"puzzle {row}: text has {lengths[row]} characters, expected n * k = {n * k}"
        )
    digits = np.frombuffer(raw.encode("ascii", errors="replace"), dtype=np.uint8) - ord("0")
    if digits.size and digits.max() > m:  # below '0' wraps round to large values
        at = int(np.argmax(digits > m))
        raise ValueError(
            f"puzzle {at // (n * k)}: character {raw[at]!r} at position {at % (n * k)} "
            f"is not a digit 0..{m}"
        )
    return digits.astype(np.int8).reshape(len(texts), n, k)


def decode_puzzle(text: str, k: int, n: int, *, m: int = config.MAX_M) -> np.ndarray:
    """Decode :func:`encode_puzzle` text into an int8 ``(n, k)`` array of copies."""
    return decode_puzzles([text], k, n, m=m)[0]


#: Separates the parts of the text of a puzzle with jokers or a table.
_SEPARATOR = "|"


def encode_games(puzzles: Puzzles) -> list[str]:
    """Lossless text of each puzzle of a stack, jokers and table included.

    A puzzle without jokers or a table is its :func:`encode_puzzle` text, so plain
    datasets read as before. Any other is that text, then ``|`` and the table's text
    (empty without a table), ``|`` and the number of jokers, ``|`` and the number of
    them on the table: ``"0120...|0010...|2|0"``.
    """
    texts = encode_puzzles(puzzles.copies)
    if puzzles.plain:
        return texts
    table = encode_puzzles(puzzles.table) if puzzles.table is not None else [""] * len(texts)
    zeros = np.zeros(len(texts), dtype=np.int8)
    jokers = zeros if puzzles.jokers is None else puzzles.jokers
    on_table = zeros if puzzles.table_jokers is None else puzzles.table_jokers
    return [
        f"{text}|{tab}|{j}|{t}" if j or tab.strip("0") else text
        for text, tab, j, t in zip(texts, table, jokers.tolist(), on_table.tolist(), strict=True)
    ]


def decode_games(texts, k: int, n: int, *, m: int = config.MAX_M) -> Puzzles:
    """Decode :func:`encode_games` texts into :class:`Puzzles` (jokers and table kept)."""
    texts = list(texts)
    if not any(isinstance(text, str) and _SEPARATOR in text for text in texts):
        return Puzzles(decode_puzzles(texts, k, n, m=m), m=m)
    parts = []
    for row, text in enumerate(texts):
        fields = str(text).split(_SEPARATOR)
        if len(fields) == 1:
            fields += ["", "0", "0"]
        if len(fields) != 4 or not all(f.isdigit() and f.isascii() for f in fields[2:]):
            raise ValueError(f"puzzle {row}: expected copies|table|jokers|table jokers")
        parts.append(fields)
    copies = decode_puzzles([f[0] for f in parts], k, n, m=m)
    table = decode_puzzles([f[1] or "0" * (n * k) for f in parts], k, n, m=m)
    jokers = [min(int(f[2]), 99) for f in parts]
    table_jokers = [min(int(f[3]), 99) for f in parts]
    return Puzzles(copies, m=m, jokers=jokers, table=table, table_jokers=table_jokers)
