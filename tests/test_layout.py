"""The package's layout: stages import only earlier stages, no cycles, and the solver's
kernels are reached only through its public modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rumdiff"
#: The stages in the order data flows; a module may import its own stage and earlier ones.
#: The base (config, validation, atomic) serves every stage and imports none.
STAGES = ("base", "puzzle", "solve", "features", "data", "learn", "report", "cli")


def _modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _imports(path: Path) -> set[str]:
    """Every rumdiff module imported anywhere in the file (also inside functions)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rumdiff"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rumdiff"):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def _stage(module: str) -> str:
    parts = module.split(".")
    if parts[-1] == "__main__":
        return "cli"  # ``python -m rumdiff``: the command line
    return parts[1] if len(parts) > 1 and parts[1] in STAGES else "base"


MODULES = _modules()
GRAPH = {
    name: {m for m in _imports(path) if m in MODULES} - {name} for name, path in MODULES.items()
}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_stages_import_only_earlier_stages(module):
    rank = STAGES.index(_stage(module))
    for imported in GRAPH[module]:
        if imported == "rumdiff":  # the package's __init__: the version only
            continue
        assert STAGES.index(_stage(imported)) <= rank, f"{module} imports {imported}"
        if _stage(module) == "base":
            assert _stage(imported) == "base", f"{module} imports {imported}"


def test_no_import_cycles():
    # Depth-first search for a back edge; packages (their __init__) re-export their
    # modules, so edges into a package's own modules from its __init__ are not cycles.
    def edges(name):
        return {m for m in GRAPH[name] if not m.startswith(name + ".")}

    state, stack = {}, []

    def visit(name):
        state[name] = "open"
        stack.append(name)
        for nxt in sorted(edges(name)):
            if state.get(nxt) == "open":
                cycle = stack[stack.index(nxt) :] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[name] = "done"

    for name in sorted(MODULES):
        if name not in state:
            visit(name)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_solver_reaches_its_kernels(module):
    # Public code outside the solver goes through rumdiff.solve's public modules (solver,
    # engine, jokers, search). Numba kernels elsewhere (``_*.py``) may call the solver's
    # jitted tile helpers, as jitted code can call only jitted code.
    if module.startswith("rumdiff.solve") or MODULES[module].name.startswith("_"):
        return
    private = sorted(
        name
        for name in _imports(MODULES[module])
        if name.startswith("rumdiff.solve.") and name.rsplit(".", 1)[-1].startswith("_")
    )
    assert private == [], f"{module} imports {private}"


@pytest.mark.parametrize("package", ["rumdiff.learn", "rumdiff.features"])
def test_lazy_packages_list_and_resolve_every_name(package):
    # These packages load some names on first use (scikit-learn's import costs seconds):
    # what they list must be what they can load, and dir() shows those, their eager
    # names and their submodules, no helper.
    import importlib

    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)  # constants too; functions and classes are its own
        assert not callable(value) or value.__module__.startswith(package + "."), name
    shown = {name for name in dir(module) if not name.startswith("_")}
    submodules = {name for name in shown if f"{package}.{name}" in MODULES}
    assert shown - submodules == set(module.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        module.nothing  # noqa: B018
