"""The call graph as the export passes read it, beyond what call_graph.py
gives both sides (a call's callee, calls in program order, a function's
original name and signature shardings): the main function, the functions by
name, a function's result sharding, and the fully open / closed shardings
Shardy fills in.

A call op is an op `rules/interfaces.yaml` declares `call: {callee-attr: ...}`
(func.call); the functions are the module's `func.func` ops.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from .call_graph import callee_name
from .sharding import TensorSharding, codec
from .values import SHARDING_ATTR, operation

FUNC_MANUAL_AXES = "sdy.func_manual_axes"
MAIN_FUNC_NAME = "main"


def symbol_name(op) -> str:
    return ir.StringAttr(operation(op).attributes["sym_name"]).value


def funcs_of(module) -> list[ir.Operation]:
    """The `func.func` ops directly in `module`, in order."""
    return [operation(op) for op in operation(module).regions[0].blocks[0].operations
            if operation(op).name == "func.func"]


def main_func(module) -> ir.Operation | None:
    """The module's only function, else the one named `main` (None if absent)."""
    funcs = funcs_of(module)
    if len(funcs) == 1:
        return funcs[0]
    return next((f for f in funcs if symbol_name(f) == MAIN_FUNC_NAME), None)


class FuncTable:
    """The functions of a module by name (a snapshot taken when made)."""

    def __init__(self, module):
        self.by_name = {symbol_name(f): f for f in funcs_of(module)}

    def callee(self, call) -> ir.Operation:
        """The function `call` calls; a located error when the module has none of that name."""
        name = callee_name(call)
        try:
            return self.by_name[name]
        except KeyError:
            raise ValueError(f"{operation(call).location}: '{operation(call).name}' calls "
                             f"'@{name}', which is not a function of the module") from None


def _dict_sharding(func, key: str, index: int) -> TensorSharding | None:
    attrs = operation(func).attributes
    if key not in attrs:
        return None
    entries = ir.ArrayAttr(attrs[key])
    if index >= len(entries):
        return None
    entry = ir.DictAttr(entries[index])
    return codec.tensor_sharding(entry[SHARDING_ATTR]) if SHARDING_ATTR in entry else None


def func_result_sharding(func, index: int) -> TensorSharding | None:
    """The `sdy.sharding` of a function's result `index`, if it has one."""
    return _dict_sharding(func, "res_attrs", index)


def fully_closed_like(sharding: TensorSharding) -> TensorSharding:
    """Shardy's getFullyClosedLike: the same mesh and rank, no axes, every dimension closed."""
    return TensorSharding.replicated_like(sharding.mesh_name, sharding.rank, is_closed=True,
                                          inline_mesh=sharding.inline_mesh)


def fully_open_like(sharding: TensorSharding) -> TensorSharding:
    """Shardy's getFullyOpenLike: the same mesh and rank, no axes, every dimension open."""
    return TensorSharding.replicated_like(sharding.mesh_name, sharding.rank, is_closed=False,
                                          inline_mesh=sharding.inline_mesh)
