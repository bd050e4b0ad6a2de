"""Shared fixtures."""

import pytest
from helpers import SECTION_4_1

from rumdiff.puzzle_file import parse_puzzles


@pytest.fixture
def section_4_1():
    """The two puzzles of thesis Section 4.1, scoring 93 and 65."""
    return parse_puzzles(SECTION_4_1, "thesis-4.1.in", n=5)
