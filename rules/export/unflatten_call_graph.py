"""Hooks of sdy-unflatten-call-graph: the function each call's computation key picks."""
from __future__ import annotations

from collections import Counter

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, call_graph_export as cg
from sdy_dsl.runtime.values import MeshTable, operation


def _hashable(shardings: list | None) -> tuple | None:
    return tuple(shardings) if shardings is not None else None


def _key(func: ir.Operation, meshes: MeshTable, with_shardings: bool) -> tuple:
    attrs = func.attributes
    manual_axes = attrs[cg.FUNC_MANUAL_AXES] if cg.FUNC_MANUAL_AXES in attrs else None
    if not with_shardings:
        return call_graph.original_name(func), manual_axes
    return (call_graph.original_name(func), manual_axes,
            _hashable(call_graph.function_shardings(func, "arg_attrs", meshes)),
            _hashable(call_graph.function_shardings(func, "res_attrs", meshes)))


class _Dedup:
    """The function chosen for each computation key, from every call of the module."""

    def __init__(self, ctx: RewriteContext, fully: bool):
        self.funcs = cg.FuncTable(ctx.module)
        self.meshes = ctx.meshes()
        self.fully = fully
        self.chosen: dict[tuple, ir.Operation] = {}
        callees = [self.funcs.callee(call) for call in call_graph.calls_in(ctx.module)]
        for func in callees:
            self.chosen.setdefault(self.key(func), func)
        if fully:
            self._prefer_most_called(callees)

    def key(self, func: ir.Operation) -> tuple:
        return _key(func, self.meshes, with_shardings=not self.fully)

    def _prefer_most_called(self, callees: list) -> None:
        counts: Counter = Counter()
        for func in callees:
            full_key = _key(func, self.meshes, with_shardings=True)
            counts[full_key] += 1
            key = self.key(func)
            if counts[full_key] > counts[_key(self.chosen[key], self.meshes, with_shardings=True)]:
                self.chosen[key] = func


@hook
def deduplicated_callee(ctx: RewriteContext, call: ir.Operation, fully: bool) -> ir.Attribute:
    """A symbol reference to the function `call`'s callee deduplicates to."""
    dedup = ctx.run_state("dedup", lambda: _Dedup(ctx, fully))
    func = dedup.chosen[dedup.key(dedup.funcs.callee(operation(call)))]
    return ir.FlatSymbolRefAttr.get(cg.symbol_name(func))
