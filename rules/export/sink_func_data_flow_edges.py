"""Hook of sdy-sink-func-data-flow-edges: one stage over the function's edges."""
from __future__ import annotations

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph_export, interfaces
from sdy_dsl.runtime.values import ops_named

EDGE = "sdy.func_data_flow_edge"


@hook
def sink_func_data_flow_edges(ctx: RewriteContext) -> None:
    """Each edge hands its sharding to its input (an unsharded edge leaves a
    sharded input fully open on its mesh) and is replaced by that input."""
    for edge in ops_named(ctx.anchor, [EDGE]):
        source = edge.operands[0]
        result = edge.results[0]
        sharding = interfaces.sharding_of(result)
        if sharding is None:
            current = interfaces.sharding_of(source)
            sharding = call_graph_export.fully_open_like(current) if current is not None else None
        if sharding is not None:
            interfaces.set_sharding(source, sharding)
        result.replace_all_uses_with(source)
        edge.erase()
        ctx.mark_changed()
