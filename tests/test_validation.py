"""The checks every reader shares: a line's first control character, named as itself."""

from __future__ import annotations

import numpy as np

from rumdiff.validation import control_character

#: Control characters a puzzle line may not hold; tab, LF and CR have rules of their own.
CONTROL = {*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F}


def _first_control(raw: bytes) -> str:
    """The obvious twin: the first control byte, found one byte at a time."""
    for column, byte in enumerate(raw, start=1):
        if byte in CONTROL:
            what = "NUL byte" if byte == 0 else f"control character 0x{byte:02x}"
            return f"{what} at column {column}"
    return ""


def test_every_byte_at_the_start_middle_and_end_of_a_long_line():
    line = b"12b 13g\t5r " * 300  # a few kB, as a tile line of G(4, 2, 100)
    for byte in range(256):
        for raw in (bytes([byte]) + line, line + bytes([byte]) + line, line + bytes([byte])):
            assert control_character(raw) == _first_control(raw), byte


def test_random_lines_with_a_few_odd_bytes_equal_the_twin():
    rng = np.random.default_rng(7)
    usual = np.frombuffer(b"0123456789bgry \t\r", dtype=np.uint8)
    for _ in range(3000):
        size = int(rng.integers(0, 200))
        raw = rng.choice(usual, size)
        odd = rng.random(size) < 0.02
        raw[odd] = rng.integers(0, 256, int(odd.sum()))
        raw = raw.astype(np.uint8).tobytes()
        assert control_character(raw) == _first_control(raw)


def test_a_line_without_control_characters_names_none():
    assert control_character(b"") == ""
    assert control_character(b"1b 2b\t3b\r") == ""
    assert control_character(bytes(range(0x20, 0x7F)) + bytes(range(0x80, 0x100))) == ""
