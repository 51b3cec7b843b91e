"""What the MLIR bindings know about ops: their names and attribute names.

Used to catch misspellings in rule data (an op name such as
'stablehlo.custom_cal', an attribute in `by:` or `when:`) when the files
load, instead of a declaration that silently never applies. Built from the
generated op classes of the dialects real modules use.
"""
from __future__ import annotations

import difflib
import functools
import importlib

_DIALECT_MODULES = ("stablehlo", "chlo", "sdy", "mpmd", "func")
# Attributes every op may carry (discardable or inherent to all ops).
_COMMON_ATTRS = frozenset({"sym_name", "sym_visibility"})


@functools.cache
def _ops() -> dict[str, type]:
    """op name -> its generated class (its attribute names are read when asked:
    a run asks for a few ops' of the ~500)."""
    index: dict[str, type] = {}
    for module_name in _DIALECT_MODULES:
        module = importlib.import_module(f"jaxlib.mlir.dialects.{module_name}")
        for value in vars(module).values():
            name = getattr(value, "OPERATION_NAME", None)
            if isinstance(name, str) and isinstance(value, type):
                index[name] = value
    return index


@functools.cache
def _attribute_names_of(op_name: str) -> frozenset[str]:
    """The attribute names the generated class of a known op defines."""
    attrs = set()
    for klass in _ops()[op_name].__mro__:
        if getattr(klass, "OPERATION_NAME", None) != op_name:
            continue
        attrs.update(n for n, v in vars(klass).items() if isinstance(v, property) and not n.startswith("_"))
    return frozenset(attrs | _COMMON_ATTRS)


@functools.cache
def _dialects() -> frozenset[str]:
    return frozenset(name.split(".", 1)[0] for name in _ops())


def dialect_is_known(dialect: str) -> bool:
    return dialect in _dialects()


def op_is_known(op_name: str) -> bool:
    return op_name in _ops()


def closest_op(op_name: str) -> str | None:
    found = difflib.get_close_matches(op_name, list(_ops()), n=1, cutoff=0.8)
    return found[0] if found else None


def attribute_names(op_name: str) -> frozenset[str] | None:
    """The attribute names of a known op (None for an op the bindings do not know).

    The generated classes expose operands, results and regions as properties
    too; a name among them is not an attribute, but accepting it only lets a
    misspelling that happens to be an operand name through.
    """
    return _attribute_names_of(op_name) if op_name in _ops() else None
