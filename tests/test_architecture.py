"""The shape of the code, checked with Python's `ast` over sdy_dsl/:

- no import cycle between sdy_dsl's modules (imports inside functions count:
  a deferred import does not make a cycle go away);
- imports one way: sdy_dsl/runtime/ (the store, IR helpers, op facts, the
  algebra, the engines) imports only itself, jaxlib, third-party and standard
  modules, and the two leaf modules every layer shares (errors, diagnostics),
  which import nothing of sdy_dsl; never interp/, the CLI, the API, the
  pipeline or the rule library;
- no file over 800 lines, no class over 400.

Each check is a function of a source tree, so the last tests feed it a
synthetic violation and see it caught.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "sdy_dsl"

CORE = "sdy_dsl.runtime"
# Leaf modules of every layer (they import nothing of sdy_dsl).
SHARED_LEAVES = ("sdy_dsl.errors", "sdy_dsl.diagnostics")
MAX_FILE_LINES = 800
MAX_CLASS_LINES = 400


def modules_of(root: Path) -> dict[str, Path]:
    """Module name -> file, for the package at `root` (named after its directory)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that module `name` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # `from pkg import mod` imports the module; `from mod import x` the module
            submodules = [f"{source}.{alias.name}" for alias in node.names
                          if f"{source}.{alias.name}" in modules]
            targets = submodules or [source]
        else:
            continue
        for target in targets:
            # the longest module prefix of a dotted name (`a.b.c` of `a.b.c.X`)
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = modules_of(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def upward_imports(graph: dict[str, set[str]], core: str, leaves: tuple[str, ...]) -> list[str]:
    """Imports from the core package of modules outside it (other than the
    shared leaves), and imports of the package by the shared leaves."""
    bad = []
    for name, targets in sorted(graph.items()):
        if name == core or name.startswith(core + "."):
            bad += [f"{name} imports {t}" for t in sorted(targets)
                    if not (t == core or t.startswith(core + ".")) and t not in leaves]
        elif name in leaves:
            bad += [f"{name} (a shared leaf) imports {t}" for t in sorted(targets)]
    return bad


def oversized(root: Path, max_file: int = MAX_FILE_LINES, max_class: int = MAX_CLASS_LINES) -> list[str]:
    bad = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text()
        lines = len(text.splitlines())
        if lines > max_file:
            bad.append(f"{path.relative_to(root.parent)}: {lines} lines (at most {max_file})")
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.ClassDef):
                size = node.end_lineno - node.lineno + 1
                if size > max_class:
                    bad.append(f"{path.relative_to(root.parent)}:{node.lineno}: class {node.name} "
                               f"is {size} lines (at most {max_class})")
    return bad


# --------------------------------------------------------------------------- the tree


def test_no_import_cycle():
    assert import_cycles(import_graph(ROOT)) == []


def test_runtime_imports_only_itself_and_the_shared_leaves():
    assert upward_imports(import_graph(ROOT), CORE, SHARED_LEAVES) == []


def test_no_file_over_800_lines_and_no_class_over_400():
    assert oversized(ROOT) == []


# --------------------------------------------------------------------------- the checks catch violations


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "sdy_dsl"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_cycle_through_a_function_local_import_is_caught(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from .b import g\n",
        "b.py": "def g():\n    from .a import f  # deferred, still a cycle\n",
        "c.py": "from . import a\n",
    })
    assert import_cycles(import_graph(root)) == [["sdy_dsl.a", "sdy_dsl.b"]]


def test_an_upward_import_from_the_runtime_is_caught(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "errors.py": "",
        "diagnostics.py": "from .interp import context\n",
        "interp/__init__.py": "",
        "interp/context.py": "from ..runtime.store import Store\n",
        "runtime/store.py": "from ..errors import E\nfrom . import ir_helpers\n",
        "runtime/ir_helpers.py": "import jaxlib\n",
        "runtime/engine.py": "from typing import TYPE_CHECKING\n"
                             "if TYPE_CHECKING:\n    from ..interp.context import RewriteContext\n",
    })
    assert upward_imports(import_graph(root), CORE, SHARED_LEAVES) == [
        "sdy_dsl.diagnostics (a shared leaf) imports sdy_dsl.interp.context",
        "sdy_dsl.runtime.engine imports sdy_dsl.interp.context",
    ]


@pytest.mark.parametrize("text,expected", [
    ("x = 1\n" * 801, "sdy_dsl/big.py: 801 lines (at most 800)"),
    ("class Big:\n" + "    x = 1\n" * 400, "sdy_dsl/big.py:1: class Big is 401 lines (at most 400)"),
], ids=["file", "class"])
def test_an_oversized_file_or_class_is_caught(tmp_path, text, expected):
    root = _package(tmp_path, {"__init__.py": "", "big.py": text, "small.py": "class S:\n    pass\n"})
    assert oversized(root) == [expected]
