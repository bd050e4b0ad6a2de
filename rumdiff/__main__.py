"""``python -m rumdiff``: the command line."""

import sys

from rumdiff.cli import main

sys.exit(main())
