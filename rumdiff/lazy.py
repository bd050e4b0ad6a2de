"""Names a package hands on but loads on first use (PEP 562).

scikit-learn's import costs more than a second on 2 cores; packages whose public names
need it (``rumdiff.learn``, ``rumdiff.features.PuzzleFeatures``) load them only when
asked, so that commands which never use them never pay it.
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: dict[str, str], namespace: dict):
    """A package's module ``__getattr__`` and ``__dir__`` for the names of ``homes``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    homes : dict of str to str
        Each lazy name, to the submodule of ``package`` that defines it.
    namespace : dict
        The package's ``globals()``: its other public names, which ``__dir__`` lists too.
    """

    def __getattr__(name: str):
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{home}"), name)

    def __dir__():
        return sorted({*(name for name in namespace if not name.startswith("_")), *homes})

    return __getattr__, __dir__
