"""``python -m rumdiff``: the command line."""

from rumdiff.cli import entry

entry()
