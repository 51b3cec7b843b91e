"""The call graph as the export passes read it: the main function, a call's
callee, a function's argument and result shardings (Shardy's
getFuncArgShardings / getFuncResultShardings), its original name.

A call op is an op `rules/interfaces.yaml` declares `call: {callee-attr: ...}`
(func.call); the functions are the module's `func.func` ops.

(The helpers of the first section have the names and signatures of the
import side's sdy_dsl/runtime/call_graph.py, developed alongside: one of the
two copies goes when both are merged.)
"""
from __future__ import annotations

from jaxlib.mlir import ir

from . import interfaces
from .sharding import TensorSharding, codec
from .values import SHARDING_ATTR, MeshTable, operation, rank_of

ORIGINAL_FUNC_NAME = "sdy.original_func_name"
FUNC_MANUAL_AXES = "sdy.func_manual_axes"
MAIN_FUNC_NAME = "main"


# --------------------------------------------------------------------------- shared with call_graph.py


def callee_attr(call) -> str:
    return interfaces.table().callee_attr(operation(call).name)


def callee_name(call) -> str:
    return ir.FlatSymbolRefAttr(operation(call).attributes[callee_attr(call)]).value


def calls_in(root) -> list[ir.Operation]:
    """The calls under `root`, in program order (nested ones included)."""
    found = []
    table = interfaces.table()

    def visit(op):
        op = operation(op)
        if table.callee_attr(op.name) is not None:
            found.append(op)
        return ir.WalkResult.ADVANCE

    operation(root).walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def original_name(func) -> str:
    """The `sdy.original_func_name` of a function (set on copies), else its name."""
    attrs = operation(func).attributes
    key = ORIGINAL_FUNC_NAME if ORIGINAL_FUNC_NAME in attrs else "sym_name"
    return ir.StringAttr(attrs[key]).value


def function_shardings(func, key: str, meshes: MeshTable) -> list[TensorSharding] | None:
    """The shardings of a function's arguments (`key` "arg_attrs") or results
    ("res_attrs"), a missing one fully open on the mesh of the first sharding
    whose mesh is not maximal; None when there is no such sharding (Shardy's
    getFuncArgShardings / getFuncResultShardings)."""
    func = operation(func)
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    types = function_type.inputs if key == "arg_attrs" else function_type.results
    given = [_dict_sharding(func, key, i) for i in range(len(types))]
    first = next((s for s in given if s is not None and not meshes.mesh_of(s).is_maximal), None)
    if first is None:
        return None
    return [s if s is not None else TensorSharding.replicated_like(
        first.mesh_name, rank_of(t), is_closed=False, inline_mesh=first.inline_mesh)
        for s, t in zip(given, types)]


# --------------------------------------------------------------------------- export side


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
