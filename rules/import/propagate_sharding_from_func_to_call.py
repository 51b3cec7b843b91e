"""Hook of sdy-propagate-sharding-from-func-to-call: one stage over the module's calls
(a callee's result shardings are read once per distinct signature attributes)."""
from __future__ import annotations

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph
from sdy_dsl.runtime.values import SHARDING_ATTR


@hook
def calls_take_callee_result_shardings(ctx: RewriteContext) -> None:
    """Each call without `sdy.sharding` takes its callee's result shardings, if the callee has any."""
    functions = call_graph.symbols(ctx.module)
    signatures = call_graph.SignatureShardings(ctx.meshes())
    for call in call_graph.calls_in(ctx.module):
        attrs = call.attributes
        if SHARDING_ATTR in attrs:
            continue
        func = functions.get(call_graph.callee_name(call))
        if func is None or not call_graph.is_function(func):
            continue
        shardings = signatures.attribute(func, "res_attrs")
        if shardings is not None:
            attrs[SHARDING_ATTR] = shardings
            ctx.mark_changed()
