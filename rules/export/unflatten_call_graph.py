"""Hooks of sdy-unflatten-call-graph: the function each call's computation key picks.

Stage hooks over the module's calls and functions: each function's key is
computed once, its shardings as a small id (call_graph.SignatureShardings).
"""
from __future__ import annotations

from collections import Counter

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, call_graph_export as cg, interfaces
from sdy_dsl.runtime.values import MeshTable, operation


class _Keys:
    """The computation key of each function (by name), with and without its shardings."""

    def __init__(self, meshes: MeshTable):
        self.signatures = call_graph.SignatureShardings(meshes)
        self.by_name: dict[str, tuple] = {}

    def key(self, func: ir.Operation, name: str, with_shardings: bool) -> tuple:
        full = self.by_name.get(name)
        if full is None:
            attrs = func.attributes
            manual_axes = attrs[cg.FUNC_MANUAL_AXES] if cg.FUNC_MANUAL_AXES in attrs else None
            full = self.by_name[name] = (call_graph.original_name(func), manual_axes,
                                         self.signatures.ident(func, "arg_attrs"), self.signatures.ident(func, "res_attrs"))
        return full if with_shardings else full[:2]


def _callee(funcs: cg.FuncTable, call: ir.Operation) -> tuple[ir.Operation, str]:
    """(the function `call` calls, its name)."""
    name = call_graph.callee_name(call)
    func = funcs.by_name.get(name)
    return (func if func is not None else funcs.callee(call)), name


@hook
def call_deduplicated_callees(ctx: RewriteContext) -> None:
    """Every call calls the function its callee's computation key picks."""
    fully = ctx.options["dedup-functions-fully"]
    funcs = cg.FuncTable(ctx.module)
    keys = _Keys(ctx.meshes())
    calls = call_graph.calls_in(ctx.module)
    callees = [_callee(funcs, call) for call in calls]
    chosen: dict[tuple, tuple] = {}  # key -> (function, name)
    for func, name in callees:
        chosen.setdefault(keys.key(func, name, not fully), (func, name))
    if fully:
        counts: Counter = Counter()
        for func, name in callees:
            full_key = keys.key(func, name, True)
            counts[full_key] += 1
            key = keys.key(func, name, False)
            if counts[full_key] > counts[keys.key(*chosen[key], True)]:
                chosen[key] = (func, name)
    for call, (func, name) in zip(calls, callees):
        target = chosen[keys.key(func, name, not fully)][1]
        if target != name:
            operation(call).attributes[interfaces.table().callee_attr(call.name)] = ir.FlatSymbolRefAttr.get(target)
            ctx.record_change("call-deduplicated", call)
            ctx.mark_changed()


@hook
def drop_func_origins(ctx: RewriteContext) -> None:
    """Every function loses `sdy.original_func_name` and `sdy.func_manual_axes`."""
    for func in cg.funcs_of(ctx.module):
        attrs = func.attributes
        for name in (call_graph.ORIGINAL_FUNC_NAME, cg.FUNC_MANUAL_AXES):
            if name in attrs:
                del attrs[name]
                ctx.mark_changed()
