"""Hook of sdy-pre-order-funcs: moving functions into call-graph pre-order."""
from __future__ import annotations

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.call_graph import CallGraph
from sdy_dsl.runtime.values import operation


@hook
def move_functions_in_pre_order(ctx: RewriteContext) -> None:
    """Move each function with a body to the end of the module, callers first."""
    body = operation(ctx.module).regions[0].blocks[0]
    ordered = CallGraph(ctx.module).pre_order()
    ops = [operation(op) for op in body.operations]
    moved = set(ordered)
    if [op for op in ops if op not in moved] + ordered == ops:
        return  # already in that order
    for func in ordered:
        body.append(func)  # moves it to the end
    ctx.mark_changed()
