"""rumdiff: how hard is a Rummikub puzzle, before anyone solves it.

One subpackage per stage, in the order data flows: ``puzzle`` (puzzles and their files)
-> ``solve`` (the exact solver) -> ``features`` (pre-solve features) -> ``data``
(random puzzles, labels, datasets) -> ``learn`` (training, models, prediction) and
``report`` (reports and figures) -> ``cli`` (the command line). ``config`` holds every
default. Heavy modules (numba, scikit-learn) are imported by the stages that need them,
never here, so that ``import rumdiff`` and ``rumdiff --help`` stay fast.
"""

__version__ = "0.1.0"
