"""One home for op facts: no Python table of op names beside the rule files.

What an op is (its sharding rule, where it keeps shardings, its data-flow
edges, whether it is elementwise, a collective, kept alive...) is declared in
rules/interfaces.yaml and rules/propagation/op_sharding_rules.yaml and asked
through the registry. A collection of op names in Python code would be a
second home that a user's rule edit silently does not reach.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OP_NAME = re.compile(r"^(stablehlo|sdy|mpmd|chlo|mhlo|func|tensor|arith)\.[a-z_]+$")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def op_name_tables(path: Path) -> list[str]:
    """`file:line` of each collection literal, or string, holding two or more op names."""
    tree = ast.parse(path.read_text())
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = [e.value for e in node.elts
                     if isinstance(e, ast.Constant) and isinstance(e.value, str) and OP_NAME.match(e.value)]
        elif isinstance(node, ast.Dict):
            names = [k.value for k in node.keys
                     if isinstance(k, ast.Constant) and isinstance(k.value, str) and OP_NAME.match(k.value)]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings):
            words = node.value.split()
            # A blob of op names (e.g. split() into a set); messages mention ops in prose.
            names = words if len(words) > 1 and all(OP_NAME.match(w) for w in words) else []
        if len(names) >= 2:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {', '.join(names[:4])}")
    return found


def python_sources():
    for directory in ("sdy_dsl", "rules"):
        yield from sorted((ROOT / directory).rglob("*.py"))


# The dialects' own structure, not facts a user tunes: an MPMD program's
# top-level ops are fragments and transfers.
STRUCTURE = {"rules/mpmd/mark_fragment_reserved_memory.py": {"mpmd.fragment, mpmd.transfer"}}


def test_no_python_table_of_op_names():
    found = []
    for path in python_sources():
        allowed = STRUCTURE.get(str(path.relative_to(ROOT)), set())
        found += [hit for hit in op_name_tables(path) if hit.split(": ", 1)[1] not in allowed]
    assert found == []


def test_the_check_sees_a_table(tmp_path):
    planted = ROOT / "sdy_dsl" / "_planted_for_test.py"
    try:
        planted.write_text('ELEMENTWISE = frozenset({"stablehlo.add", "stablehlo.multiply"})\n'
                           'KEEP = """stablehlo.send stablehlo.recv""".split()\n')
        assert op_name_tables(planted) == [
            "sdy_dsl/_planted_for_test.py:1: stablehlo.add, stablehlo.multiply",
            "sdy_dsl/_planted_for_test.py:2: stablehlo.send, stablehlo.recv"]
    finally:
        planted.unlink()
