"""Hooks of sdy-flatten-call-graph: finding recursion, copying functions called again.

Shares `call_graph_of` and `reject_recursive_calls` with sdy-import-func-calls.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.call_graph import CallGraph


def call_graph_of(ctx: RewriteContext) -> CallGraph:
    """The module's call graph when the run started (one per run)."""
    return ctx.run_state("call-graph", lambda: CallGraph(ctx.module))


@hook
def reject_recursive_calls(ctx: RewriteContext) -> None:
    """An error at each call (in program order) that closes a cycle of the call graph."""
    graph = call_graph_of(ctx)
    for call, name in graph.recursive_call_sites():
        ctx.emit_error(call, f"call to @{name} is recursive (@{name} reaches this call again); "
                             f"the call graph must be acyclic")


@hook
def flatten_call_graph(ctx: RewriteContext) -> None:
    """Callees first: the first call of a function keeps it, a later one calls a copy."""
    graph = call_graph_of(ctx)
    table = ir.SymbolTable(ctx.module)
    called: set[str] = set()
    for calls in graph.call_sites_callees_first():
        for call, name in calls:
            if name not in called:
                called.add(name)
                continue
            call_graph.set_callee(call, call_graph.clone_function_recursively(table[name], table, ctx.module, graph))
            ctx.record_change("copy-callee", call)
            ctx.mark_changed()
