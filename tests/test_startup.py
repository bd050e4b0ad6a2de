"""numba starts without its probe for BLAS, and loads cached kernels without building its
compilation target, skops without naming every scikit-learn estimator, and scipy without
rewriting the docstrings of its array-API functions, in rumdiff's own processes (the
command line and the workers it spawns); all start as they always do in a program that
imports rumdiff."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import numpy as np
from helpers import REPO

EXAMPLE = str(REPO / "data" / "examples" / "thesis-4.1.in")  # scores 93 and 65

#: What a process reports of scipy's linear algebra: whether it is loaded, and its BLAS
#: module: 'absent', a module, or None for an entry that marks it missing (which must
#: never outlive numba's probe).
REPORT = """
def blas_state():
    import sys
    blas = sys.modules.get("scipy.linalg.cython_blas", "absent")
    return "scipy.linalg" in sys.modules, repr(blas)
"""


def _python(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_command_loads_its_kernels_without_scipys_linear_algebra(tmp_path):
    script = REPORT + textwrap.dedent(f"""
        import sys
        from rumdiff.cli import main

        assert main(["solve", {EXAMPLE!r}, "-o", sys.argv[1], "-q"]) == 0
        print(*blas_state())
        # Afterwards scipy imports as usual: the reference ILP solves the puzzle here.
        import scipy.linalg.cython_blas
        from rumdiff.puzzle import read_puzzles
        from rumdiff.solve.twins.ilp import solve_ilp
        print(solve_ilp(read_puzzles({EXAMPLE!r})[0]).score)
    """)  # fmt: skip
    lines = _python("-c", script, str(tmp_path / "scores.txt"))
    assert lines == ["False 'absent'", "93"]
    assert (tmp_path / "scores.txt").read_text() == "93\n65\n"


def test_workers_skip_the_probe_and_a_program_that_imports_rumdiff_keeps_it(tmp_path):
    script = tmp_path / "workers.py"  # a file: spawned workers import its functions
    script.write_text(REPORT + textwrap.dedent(f"""
        import sys

        def in_worker(path):
            from rumdiff.puzzle import read_puzzles  # reading calls a kernel

            read_puzzles(path)
            return blas_state()

        if __name__ == "__main__":
            import rumdiff.data, rumdiff.features, rumdiff.puzzle, rumdiff.solve
            from rumdiff.processes import run_unordered

            # Importing the library changed nothing of numba's import.
            print(any(type(f).__name__ == "_Finder" for f in sys.meta_path))
            print(*set(run_unordered(in_worker, [({EXAMPLE!r},)] * 2, jobs=2)))
            # Here, in the program's own process, numba probes as it always does.
            print(in_worker({EXAMPLE!r}))
    """))  # fmt: skip
    lines = _python(str(script))
    assert lines[:2] == ["False", "(False, \"'absent'\")"]
    assert lines[2].startswith("(True, \"<module 'scipy.linalg.cython_blas'"), lines


def test_a_blas_module_loaded_after_the_call_is_left_to_numba():
    # As rumdiff train and predict go: scikit-learn loads scipy's linear algebra after
    # the command line's call and before the first kernel.
    script = textwrap.dedent(f"""
        import sys
        from rumdiff.startup import skip_blas_probe

        skip_blas_probe()
        import scipy.linalg.cython_blas as blas
        from rumdiff.puzzle import read_puzzles

        read_puzzles({EXAMPLE!r})
        import numba.np.arraymath

        print(sys.modules["scipy.linalg.cython_blas"] is blas, numba.np.arraymath._HAVE_BLAS)
    """)  # fmt: skip
    assert _python("-c", script) == ["True True"]


def test_no_kernel_calls_what_the_probe_decides():
    # numba compiles np.correlate and np.convolve by the probe's answer, and its cache
    # does not record which: a kernel that called them could round as either.
    kernels = sorted((REPO / "rumdiff").rglob("_[!_]*.py"))
    assert len(kernels) > 10
    for path in kernels:
        assert not re.search(r"\b(correlate|convolve)\b", path.read_text()), path


#: Every kernel run on tiny puzzles (the warm-up's), and what they give.
RESULTS = """
import sys
from rumdiff.cli.warmup import compile_kernels
from rumdiff.features import compute_features
from rumdiff.puzzle import read_puzzles
from rumdiff.solve import search_effort, solve

compile_kernels()
for path in sys.argv[1:]:
    puzzles = read_puzzles(path)
    for puzzle in puzzles:
        solution = solve(puzzle)
        print(solution.score, solution.lower, solution.upper, solution.work.transitions,
              search_effort(puzzle).transitions)
    print(compute_features(puzzles, m=puzzles.m).to_csv(index=False))
# Whether the target was built: two of the modules only building it imports (a kernel
# loaded from the cache imports those its code comes from, as numba.np.arraymath).
print("numba.np.polynomial" in sys.modules, "numba.typed.typeddict" in sys.modules)
"""


def test_cached_kernels_load_without_numbas_target_and_give_the_same_results():
    # Every kernel loads from the cache in a command's process without the implementations
    # that only compiling needs, and computes what it computes in any other process.
    files = [str(REPO / "data" / "examples" / name) for name in ("mixed-20.in", "turn.in")]
    usual = _python("-c", RESULTS, *files)  # first: it compiles what the cache lacks
    quick = _python("-c", "from rumdiff.startup import quick_start\nquick_start()\n" + RESULTS,
                    *files)  # fmt: skip
    assert quick[-1] == "False False" and usual[-1] == "True True"
    assert quick[:-1] == usual[:-1] and len(usual) > 40


def test_a_kernel_missing_from_the_cache_still_compiles(tmp_path):
    # A signature never cached compiles as ever: numba's compiler builds the target itself.
    script = textwrap.dedent("""
        import sys
        from rumdiff.startup import quick_start

        quick_start()
        import numpy as np
        from numba import njit

        @njit(cache=True)
        def twice(values):
            return [2 * value for value in values]

        print(twice(np.arange(3)), "numba.np.polynomial" in sys.modules)
    """)  # fmt: skip
    path = tmp_path / "fresh.py"  # its own cache folder, empty
    path.write_text(script)
    assert _python(str(path)) == ["[0, 2, 4] True"]


#: A process that predicts the difficulty of ten puzzles with a model (a tiny one, trained
#: here: the shipped model needs the scikit-learn it was saved with, which the floors'
#: tests do not have), loads an archive of another scikit-learn estimator, then says
#: whether scikit-learn's Gaussian processes were imported (only naming every estimator
#: imports them) and whether skops trusts any estimator, or numpy's and scipy's ufuncs,
#: by itself; last, what scipy recorded of its array-API functions (None for a scipy
#: without that record), how many of their docstrings carry scipy's note of the backends
#: they support, and how many have text of their own (more than that note).
MODELS = """
import json
import sys
from pathlib import Path

import skops.io
from sklearn.linear_model import LinearRegression
from rumdiff.data import Family
from rumdiff.data.generator import generate
from rumdiff.learn import load_model
from rumdiff.learn.archive import load_archive
from rumdiff.learn.sidecar import ModelError
from rumdiff.puzzle import Game

puzzles = generate(10, Family(Game(n=20)), seed=5).puzzles
model = load_model(sys.argv[1])
print(json.dumps([model.predict_proba(puzzles).tolist(), model.predict_effort(puzzles).tolist()]))
skops.io.dump(LinearRegression(), sys.argv[2])
try:
    print(type(load_archive(Path(sys.argv[2]))).__name__)
except ModelError as error:
    print(error)
from skops.io import _trusted_types

print(
    "sklearn.gaussian_process" in sys.modules, bool(_trusted_types.SKLEARN_ESTIMATOR_TYPE_NAMES),
    bool(_trusted_types.NUMPY_UFUNC_TYPE_NAMES), bool(_trusted_types.SCIPY_UFUNC_TYPE_NAMES),
)
import scipy.stats

table = getattr(sys.modules.get("scipy._lib._array_api"), "xp_capabilities_table", None)
names = None if table is None else sorted(
    f"{getattr(f, '__module__', '')}.{f.__name__} {table[f]!r}" for f in table
)
docs = [f.__doc__ or "" for f in table or ()]
noted = sum("Array API Standard compatible" in doc for doc in docs)
own = sum(bool(doc.strip()) and not doc.strip().startswith("Notes") for doc in docs)
print(json.dumps([names, noted, own]))
"""


def test_models_trust_only_their_types_and_scipy_keeps_its_docstrings(trained, tmp_path):
    # skops trusts every scikit-learn estimator and every numpy and scipy ufunc by
    # itself, as a program that imports rumdiff still finds; rumdiff's own processes
    # trust the five estimators a model holds (config.MODEL_TRUSTED_TYPES) and no ufunc,
    # refuse the rest in one line, and predict the same.
    files = [trained[0].path, str(tmp_path / "linear.skops")]
    usual = _python("-c", MODELS, *files)
    quick = _python("-c", "from rumdiff.startup import quick_start\nquick_start()\n" + MODELS,
                    *files)  # fmt: skip
    assert usual[1:3] == ["LinearRegression", "True True True True"]
    refused, discovered = quick[1:3]
    assert refused.startswith(f"{files[1]}: refused, it holds types rumdiff does not trust")
    assert "LinearRegression" in refused and discovered == "False False False False"
    # The same predictions, but for the last bits: the forests' threads add up their
    # trees' votes in the order they finish.
    for got, expected in zip(json.loads(quick[0]), json.loads(usual[0]), strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    # scipy records the same functions and what they support, and keeps their docstrings
    # as written, without the note of the backends it otherwise adds to each (scipy 1.16
    # and later; an older one has no such record).
    (names, noted, written), (same_names, unnoted, kept) = map(json.loads, (usual[3], quick[3]))
    assert names == same_names and len(quick) == len(usual) == 4
    if names is not None:
        assert noted == len(names) > 0 and written > 0.9 * noted
        assert unnoted == 0 and kept == written


def test_a_scipy_whose_decorator_asks_more_of_a_parsed_docstring_keeps_its_parser():
    # A later scipy's decorator may use its parser in ways the stand-in does not give
    # (here: a section assigned anew). The stand-in is tried once, and then given up.
    from types import ModuleType

    from rumdiff.startup import _KeptDocstring, _ThenKeptDocstrings

    class Parser:
        def __init__(self, function):
            self.sections = {"Notes": []}

        def __getitem__(self, section):
            return self.sections[section]

        def __setitem__(self, section, lines):
            self.sections[section] = lines

        def __str__(self):
            return "\nparsed"

    def scipy(asks_more: bool):
        def xp_capabilities(capabilities_table=None):
            def decorator(function):
                doc = module.FunctionDoc(function)
                if asks_more:
                    doc["Notes"] += ["the backends"]
                else:
                    doc["Notes"].append("the backends")
                function.__doc__ = str(doc).split("\n", 1)[1]
                return function

            return decorator

        class Loader:
            def exec_module(self, module):
                module.FunctionDoc, module.xp_capabilities = Parser, xp_capabilities

        return Loader()

    for asks_more, parser in ((True, Parser), (False, _KeptDocstring)):
        module = ModuleType("scipy._lib._array_api")
        _ThenKeptDocstrings(scipy(asks_more)).exec_module(module)
        assert module.FunctionDoc is parser
