"""The call graph as the export passes read it: the main function, a call's
callee, a function's argument and result shardings (Shardy's
getFuncArgShardings / getFuncResultShardings), its original name.

A call op is an op `rules/interfaces.yaml` declares `call: {callee-attr: ...}`
(func.call); the functions are the module's `func.func` ops.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from . import interfaces
from .sharding import TensorSharding, codec
from .values import SHARDING_ATTR, MeshTable, operation, rank_of

ORIGINAL_FUNC_NAME = "sdy.original_func_name"
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


def is_call(op) -> bool:
    return interfaces.table().callee_attr(operation(op).name) is not None


def callee_name(call) -> str:
    call = operation(call)
    return ir.FlatSymbolRefAttr(call.attributes[interfaces.table().callee_attr(call.name)]).value


def set_callee(call, name: str) -> None:
    call = operation(call)
    call.attributes[interfaces.table().callee_attr(call.name)] = ir.FlatSymbolRefAttr.get(name)


class FuncTable:
    """The functions of a module by name (a snapshot: add new ones with `add`)."""

    def __init__(self, module):
        self.by_name = {symbol_name(f): f for f in funcs_of(module)}

    def add(self, func: ir.Operation) -> None:
        self.by_name[symbol_name(func)] = func

    def callee(self, call) -> ir.Operation:
        """The function `call` calls; a located error when the module has none of that name."""
        name = callee_name(call)
        try:
            return self.by_name[name]
        except KeyError:
            raise ValueError(f"{operation(call).location}: '{operation(call).name}' calls "
                             f"'@{name}', which is not a function of the module") from None


def original_func_name(func) -> str:
    """`sdy.original_func_name` of a function, else its own name."""
    attrs = operation(func).attributes
    if ORIGINAL_FUNC_NAME in attrs:
        return ir.StringAttr(attrs[ORIGINAL_FUNC_NAME]).value
    return symbol_name(func)


def _dict_sharding(func, key: str, index: int) -> TensorSharding | None:
    attrs = operation(func).attributes
    if key not in attrs:
        return None
    entry = ir.DictAttr(ir.ArrayAttr(attrs[key])[index])
    return codec.tensor_sharding(entry[SHARDING_ATTR]) if SHARDING_ATTR in entry else None


def func_arg_sharding(func, index: int) -> TensorSharding | None:
    return _dict_sharding(func, "arg_attrs", index)


def func_result_sharding(func, index: int) -> TensorSharding | None:
    return _dict_sharding(func, "res_attrs", index)


def _function_type(func) -> ir.FunctionType:
    return ir.FunctionType(ir.TypeAttr(operation(func).attributes["function_type"]).value)


def _signature_shardings(shardings: list, types: list, meshes: MeshTable) -> tuple | None:
    """Shardy's getFunc{Arg,Result}Shardings: None unless some sharding is on a
    non-maximal mesh; else every position, a missing one fully open on that
    first non-maximal sharding's mesh."""
    first = next((s for s in shardings if s is not None and not meshes.mesh_of(s).is_maximal), None)
    if first is None:
        return None
    return tuple(s if s is not None else TensorSharding.replicated_like(
        first.mesh_name, rank_of(t), is_closed=False, inline_mesh=first.inline_mesh)
        for s, t in zip(shardings, types))


def func_arg_shardings(func, meshes: MeshTable) -> tuple | None:
    types = list(_function_type(func).inputs)
    return _signature_shardings([func_arg_sharding(func, i) for i in range(len(types))], types, meshes)


def func_result_shardings(func, meshes: MeshTable) -> tuple | None:
    types = list(_function_type(func).results)
    return _signature_shardings([func_result_sharding(func, i) for i in range(len(types))], types, meshes)


def fully_closed_like(sharding: TensorSharding) -> TensorSharding:
    """Shardy's getFullyClosedLike: the same mesh and rank, no axes, every dimension closed."""
    return TensorSharding.replicated_like(sharding.mesh_name, sharding.rank, is_closed=True,
                                          inline_mesh=sharding.inline_mesh)


def fully_open_like(sharding: TensorSharding) -> TensorSharding:
    """Shardy's getFullyOpenLike: the same mesh and rank, no axes, every dimension open."""
    return TensorSharding.replicated_like(sharding.mesh_name, sharding.rank, is_closed=False,
                                          inline_mesh=sharding.inline_mesh)


def calls_of(root) -> list[ir.Operation]:
    """The call ops under `root`, in program order (nested ones where they occur)."""
    found = []
    table = interfaces.table()

    def visit(op):
        op = operation(op)
        if table.callee_attr(op.name) is not None:
            found.append(op)
        return ir.WalkResult.ADVANCE

    operation(root).walk(visit, ir.WalkOrder.PRE_ORDER)
    return found
