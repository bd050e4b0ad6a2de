"""How rumdiff's own processes start numba, skops and scipy: numba without its probe for
BLAS, loading cached kernels without building what only compiling needs; skops without
naming every scikit-learn estimator and every numpy and scipy ufunc; scipy without
rewriting docstrings.

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
kernel.

:func:`load_kernels_lazily` (called with it) cuts the larger part of numba's start-up:
before it loads a kernel from its cache, numba builds its whole compilation target,
importing and registering its implementations of Python and numpy (0.5 s on 2 cores),
which only compiling needs. When ``numba.core.caching`` is first imported, its cache's
``load_overload`` is replaced by one that starts numba's memory runtime, which a loaded
kernel needs, and loads the kernel without building the rest. Compiling builds it as it
always does (numba's compiler refreshes the target itself), so a kernel missing from the
cache compiles as before. ``tests/test_startup.py`` loads every kernel this way and
compares its results.

:func:`skip_type_discovery` does the same for skops, which rumdiff loads models with:
as it builds its list of trusted types, skops names every scikit-learn estimator, and to
find them all scikit-learn imports every one of its modules: 0.5-0.8 s of each
``rumdiff predict`` (docs/decisions/limits.md). It also names every ufunc of numpy and
of scipy.special, searching all loaded modules for where each is defined: about half a
second more of ``rumdiff predict``, whose process has loaded thousands. In rumdiff's own
processes that list is left without scikit-learn's estimators and without ufuncs, and
``config.MODEL_TRUSTED_TYPES`` names the five estimators a model holds (a model holds
no ufunc), so a model file may hold those and no other estimator or function
(``tests/test_startup.py``). Another thread asking scikit-learn for its estimators, or
skops for a module's public types, while that module runs would find none; rumdiff asks
neither.

:func:`skip_array_api_notes` spares scipy work that only its documentation uses. As
scipy 1.16 and later import, each function marked with the array-API backends it
supports (``scipy._lib._array_api.xp_capabilities``: 474 as scipy 1.17's scipy.stats
imports) has its docstring parsed and written again with a note of those backends:
0.2-0.3 s of importing scipy.stats, which scikit-learn imports, so of every ``rumdiff
predict`` and ``rumdiff train`` (docs/decisions/limits.md). In rumdiff's own processes
the docstrings are kept as written, without the note; the functions and scipy's record
of what they support are as before (``tests/test_startup.py``). An older scipy, without
that decorator, is left as it is, and so is a later one whose decorator asks more of a
parsed docstring than the stand-in gives (it is tried once first).

The command line calls these as it starts (:func:`quick_start`), and so do the workers
of :mod:`rumdiff.processes`. A program that imports rumdiff keeps numba, skops and scipy
as they are in its own process.
"""

from __future__ import annotations

import sys
from importlib.machinery import PathFinder

__all__ = [
    "load_kernels_lazily", "quick_start", "skip_array_api_notes", "skip_blas_probe",
    "skip_type_discovery",
]  # fmt: skip

_PROBE = "numba.np.arraymath"
_BLAS = "scipy.linalg.cython_blas"
_CACHING = "numba.core.caching"
_TRUSTED = "skops.io._trusted_types"
_ARRAY_API = "scipy._lib._array_api"


def quick_start() -> None:
    """Start numba, skops and scipy as rumdiff's own processes do: :func:`skip_blas_probe`,
    :func:`load_kernels_lazily`, :func:`skip_type_discovery` and
    :func:`skip_array_api_notes`."""
    skip_blas_probe()
    load_kernels_lazily()
    skip_type_discovery()
    skip_array_api_notes()


def skip_blas_probe() -> None:
    """Have ``numba.np.arraymath`` import, when it first does, with the BLAS module
    unimportable; nothing if it is imported already, or scipy's linear algebra is."""
    if _PROBE in sys.modules or "scipy.linalg" in sys.modules:
        return
    _find_first(_PROBE, _WithoutBlas)


def load_kernels_lazily() -> None:
    """Have numba load a cached kernel without building its whole compilation target
    first, from the moment ``numba.core.caching`` is imported (at once if it is)."""
    if _CACHING in sys.modules:
        _lazy_cache(sys.modules[_CACHING])
    else:
        _find_first(_CACHING, _ThenLazyCache)


def skip_type_discovery() -> None:
    """Have skops build its trusted types, when it first does, without scikit-learn's
    estimators and numpy's and scipy's ufuncs (nothing if it has built them already)."""
    if _TRUSTED not in sys.modules:
        _find_first(_TRUSTED, _WithoutDiscovery)


def skip_array_api_notes() -> None:
    """Have scipy, from when ``scipy._lib._array_api`` is first imported, keep the
    docstrings of the functions it marks as written (nothing if it is imported already)."""
    if _ARRAY_API not in sys.modules:
        _find_first(_ARRAY_API, _ThenKeptDocstrings)


def _find_first(name: str, loader_type) -> None:
    """Import the module ``name``, when it first is, with its loader wrapped in
    ``loader_type`` (once, however often this is called)."""
    if not any(isinstance(finder, _Finder) and finder.name == name for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder(name, loader_type))


class _Finder:
    """Finds one module as Python would, with its loader wrapped; then leaves
    ``sys.meta_path``."""

    def __init__(self, name: str, loader_type):
        self.name = name
        self.loader_type = loader_type

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = self.loader_type(spec.loader)
        return spec


class _Wrapped:
    """A loader that does what ``loader`` does, but what a subclass changes."""

    def __init__(self, loader):
        self.loader = loader

    def __getattr__(self, name):  # the rest (create_module, get_source, ...) as it was
        if name == "loader":  # not set yet: never ask it of itself
            raise AttributeError(name)
        return getattr(self.loader, name)


class _ThenLazyCache(_Wrapped):
    """Runs ``numba.core.caching``, then makes its cache load kernels lazily."""

    def exec_module(self, module):
        self.loader.exec_module(module)
        _lazy_cache(module)


def _lazy_cache(caching) -> None:
    """Replace ``caching.Cache.load_overload`` by one that skips the target's refresh,
    if that numba's cache has the parts it calls (else leave it as it is)."""
    cache = getattr(caching, "Cache", None)
    parts = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if cache is None or not all(hasattr(cache, part) for part in parts):
        return
    if getattr(cache.load_overload, "__module__", None) == __name__:
        return  # replaced already

    def load_overload(self, sig, target_context):
        """Load a cached kernel: numba's memory runtime started, the target as it is."""
        from numba.core.runtime import rtsys

        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    cache.load_overload = load_overload


class _WithoutBlas(_Wrapped):
    """A loader that runs a module while ``sys.modules`` marks the BLAS module missing
    (an entry of None makes its import fail at once, before scipy.linalg loads)."""

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


class _WithoutDiscovery(_Wrapped):
    """A loader that runs a module while scikit-learn's ``all_estimators`` and skops's
    ``get_public_type_names`` (how it lists a module's ufuncs) find nothing."""

    def exec_module(self, module):
        import sklearn.utils
        from skops.io import _utils

        estimators = sklearn.utils.all_estimators
        types = getattr(_utils, "get_public_type_names", None)
        sklearn.utils.all_estimators = _nothing
        if types is not None:
            _utils.get_public_type_names = _nothing
        try:
            self.loader.exec_module(module)
        finally:
            sklearn.utils.all_estimators = estimators
            if types is not None:
                _utils.get_public_type_names = types
            # The names as the module imported them, for whoever calls them later.
            for name, found in (("all_estimators", estimators), ("get_public_type_names", types)):
                if getattr(module, name, None) is _nothing:
                    setattr(module, name, found)


class _ThenKeptDocstrings(_Wrapped):
    """Runs ``scipy._lib._array_api``, then has its decorator ``xp_capabilities`` read
    each docstring with :class:`_KeptDocstring` instead of scipy's parser."""

    def exec_module(self, module):
        self.loader.exec_module(module)
        parser = getattr(module, "FunctionDoc", None)
        if parser is None or not hasattr(module, "xp_capabilities"):
            return
        module.FunctionDoc = _KeptDocstring

        def probe():
            """A function of our own to try the decorator on, in a table of our own."""

        try:
            module.xp_capabilities(capabilities_table={})(probe)
        except Exception:  # a scipy that asks more of the stand-in: scipy's own parser
            module.FunctionDoc = parser


class _KeptDocstring:
    """What ``xp_capabilities`` takes for a parsed docstring: its sections take the note
    of the backends and drop it, and the text comes back as written, after the line of
    the signature that the decorator cuts off."""

    def __init__(self, function, *args, **kwargs):
        self.text = function.__doc__ or ""

    def __getitem__(self, section: str) -> list:
        return []

    def __str__(self) -> str:
        return "\n" + self.text


def _nothing(*args, **kwargs) -> list:
    """scikit-learn's ``all_estimators`` or skops's ``get_public_type_names``, finding
    nothing."""
    return []
