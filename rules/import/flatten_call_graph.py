"""Hooks of sdy-flatten-call-graph: finding recursion, copying functions called again."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.call_graph import CallGraph


@hook
def recursive_callee(ctx: RewriteContext, call: ir.Operation) -> str | None:
    """The callee's name when `call` closes a cycle of the call graph, else None."""
    recursive = ctx.run_state("recursive-calls", lambda: set(CallGraph(ctx.module).recursive_calls()))
    return call_graph.callee_name(call) if call in recursive else None


@hook
def flatten_call_graph(ctx: RewriteContext) -> None:
    """Callees first: the first call of a function keeps it, a later one calls a copy."""
    graph = CallGraph(ctx.module)
    table = ir.SymbolTable(ctx.module)
    called: set[str] = set()
    for func in graph.post_order():
        for call in graph.calls_of(func):
            name = call_graph.callee_name(call)
            if name not in called:
                called.add(name)
                continue
            call_graph.set_callee(call, call_graph.clone_function_recursively(table[name], table, ctx.module))
            ctx.mark_changed()
