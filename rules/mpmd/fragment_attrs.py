"""Shared by the mpmd hook modules (not a pass's hooks): fragment `arg_attrs` / `res_attrs` entries."""
from __future__ import annotations

from jaxlib.mlir import ir

MEMORY_KIND_ATTR = "mhlo.memory_kind"
PINNED_HOST = "pinned_host"


def entry(op: ir.Operation, list_name: str, index: int, name: str) -> ir.Attribute | None:
    """`name` in the `index`-th dictionary of the op's `arg_attrs` / `res_attrs`, or None."""
    attrs = op.attributes
    if list_name not in attrs:
        return None
    dictionary = ir.DictAttr(ir.ArrayAttr(attrs[list_name])[index])
    return dictionary[name] if name in dictionary else None


def is_pinned_host(attr: ir.Attribute | None) -> bool:
    return isinstance(attr, ir.StringAttr) and attr.value == PINNED_HOST
