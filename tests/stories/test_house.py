"""The package's shape (docs/project/architecture.md): every module imports on its own,
modules never import each other in a circle, and folders import only the folders
below them."""

from __future__ import annotations

import ast
import graphlib
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "sudosat"

# Bottom to top; a folder may import only from the folders before it.
LAYERS = [
    "core",
    "system",
    "sat",
    "rules",
    "reading",
    "solving",
    "logic",
    "making",
    "showing",
    "running",
    "serving",
    "commands",
    "front",
]
FRONT = {"sudosat", "sudosat.cli", "sudosat.__main__"}  # the public API and the command line


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(path: Path, name: str) -> set[str]:
    """The sudosat modules ``path`` imports, at its top or inside functions alike."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    known = modules()
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1 steps
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            named.add(base)
            named.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in named if m in known and m != name}


def folder(module: str) -> str:
    return "front" if module in FRONT else module.split(".")[1]


@pytest.mark.slow
def test_every_module_imports_first_in_a_fresh_package() -> None:
    """An import circle shows as an ImportError only when one of its modules is
    imported first, so each module is imported first once, the package forgotten
    in between (sudosat's own modules only; the third-party ones stay loaded)."""
    names = [name for name in modules() if name != "sudosat.__main__"]
    script = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m.split('.')[0] == 'sudosat']:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "print(len(" + repr(names) + "))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(names) > 40


@pytest.mark.slow
def test_modules_import_each_other_in_one_direction() -> None:
    graph = {name: imports(path, name) for name, path in modules().items()}
    order = list(graphlib.TopologicalSorter(graph).static_order())  # CycleError on a circle
    assert len(order) == len(graph)


@pytest.mark.slow
def test_folders_import_only_the_folders_below_them() -> None:
    upward = []
    for name, path in modules().items():
        for used in imports(path, name):
            if LAYERS.index(folder(used)) > LAYERS.index(folder(name)):
                upward.append(f"{name} imports {used}")
    assert upward == []


def test_every_folder_is_in_a_layer() -> None:
    folders = {folder(name) for name in modules()}
    assert folders == set(LAYERS)


def test_the_modules_flat_names_of_old_are_gone() -> None:
    """No finder stands for the names the modules had before the folders."""
    import sudosat

    assert not hasattr(sudosat, "_MOVED")
    assert not [f for f in sys.meta_path if type(f).__module__.startswith("sudosat")]
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("sudosat.engine")


def test_the_public_api_lists_its_own_names_alone() -> None:
    import sudosat

    shown = dir(sudosat)
    assert set(shown) == {*sudosat.__all__, "__version__"}
    assert "sys" not in shown and "cast" not in shown
    assert all(hasattr(sudosat, name) for name in sudosat.__all__)


TAKES_A_PUZZLE = [
    "solve",
    "count",
    "encode",
    "candidates",
    "estimate",
    "explain",
    "logical_path",
    "rate_by_path",
]


@pytest.mark.parametrize("name", TAKES_A_PUZZLE)
def test_a_public_function_given_text_says_to_parse_it(name: str) -> None:
    import sudosat

    with pytest.raises(TypeError, match=rf"^{name}\(\) takes a Puzzle, not str: parse\(text\)"):
        getattr(sudosat, name)("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5")
    with pytest.raises(TypeError, match=rf"^{name}\(\) takes a Puzzle, not list$"):
        getattr(sudosat, name)([0] * 81)
