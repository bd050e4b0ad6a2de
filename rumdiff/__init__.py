"""rumdiff: how hard is a Rummikub puzzle, before anyone solves it.

The package is organised as a one-way pipeline, each stage a library function:
generate -> solve -> features -> dataset -> train -> model -> predict.
Heavy modules (numba, scikit-learn) are imported by the stages that need them,
never here, so that ``import rumdiff`` and ``rumdiff --help`` stay fast.
"""

__version__ = "0.1.0"
