"""Hook of sdy-propagate-sharding-from-func-to-call: a callee's result shardings."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.sharding import codec


@hook
def callee_result_shardings(ctx: RewriteContext, call: ir.Operation) -> ir.Attribute | None:
    """The result shardings of the function `call` calls, as a per-value attribute (None if it has none)."""
    func = ctx.run_state("symbols", lambda: call_graph.symbols(ctx.module)).get(call_graph.callee_name(call))
    if func is None or not call_graph.is_function(func):
        return None
    shardings = call_graph.function_shardings(func, "res_attrs", ctx.meshes())
    return codec.sharding_per_value_attr(shardings) if shardings is not None else None
