"""How rumdiff's own processes start numba: without its probe for BLAS.

When numba first loads a kernel, it imports its implementations of numpy, and one of
them (``numba.np.arraymath``) imports ``scipy.linalg.cython_blas`` to learn whether a
BLAS is there. With scipy installed (rumdiff's reference ILP needs it) that import loads
all of ``scipy.linalg``: 0.1-0.3 s of every process's start-up, about a sixth of numba's
(docs/decisions/limits.md, "Command-line start-up"). The answer changes only how numba
compiles ``np.correlate`` and ``np.convolve`` (an inner product of its own instead of
BLAS's, which may round differently), and no kernel of rumdiff's calls either
(``tests/test_startup.py`` checks). numba's cache does not record the answer, so a
kernel that called them would keep whichever way the process that compiled it took.

:func:`skip_blas_probe` makes that module's import, and only it, find the BLAS module
unimportable; scipy imports as usual before and after it. Another thread importing
scipy.linalg while that module runs would fail; rumdiff starts none before its first
kernel. The command line calls it as it starts, and so do the workers of
:mod:`rumdiff.processes`. A program that imports rumdiff keeps numba as it is in its own
process.
"""

from __future__ import annotations

import sys
from importlib.machinery import PathFinder

__all__ = ["skip_blas_probe"]

_PROBE = "numba.np.arraymath"
_BLAS = "scipy.linalg.cython_blas"


def skip_blas_probe() -> None:
    """Have ``numba.np.arraymath`` import, when it first does, with the BLAS module
    unimportable; nothing if it is imported already, or scipy's linear algebra is."""
    if _PROBE in sys.modules or "scipy.linalg" in sys.modules:
        return
    if not any(isinstance(finder, _ProbeFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _ProbeFinder())


class _ProbeFinder:
    """Finds ``numba.np.arraymath`` as Python would, with a loader that hides the BLAS
    module while the module runs; then leaves ``sys.meta_path``."""

    def find_spec(self, name, path=None, target=None):
        if name != _PROBE:
            return None
        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _WithoutBlas(spec.loader)
        return spec


class _WithoutBlas:
    """A loader that runs a module while ``sys.modules`` marks the BLAS module missing
    (an entry of None makes its import fail at once, before scipy.linalg loads)."""

    def __init__(self, loader):
        self.loader = loader

    def __getattr__(self, name):  # the rest (create_module, get_source, ...) as it was
        if name == "loader":  # not set yet: never ask it of itself
            raise AttributeError(name)
        return getattr(self.loader, name)

    def exec_module(self, module):
        if _BLAS in sys.modules or "scipy.linalg" in sys.modules:
            self.loader.exec_module(module)
            return
        sys.modules[_BLAS] = None
        try:
            self.loader.exec_module(module)
        finally:
            if _BLAS in sys.modules and sys.modules[_BLAS] is None:
                del sys.modules[_BLAS]
