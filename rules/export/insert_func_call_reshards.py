"""Hooks of sdy-insert-func-call-reshards."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, call_graph_export, interfaces
from sdy_dsl.runtime.explicit_reshards import is_equivalent
from sdy_dsl.runtime.sharding import TensorSharding, codec
from sdy_dsl.runtime.values import operation


def _funcs(ctx: RewriteContext) -> call_graph_export.FuncTable:
    return ctx.run_state("funcs", lambda: call_graph_export.FuncTable(ctx.module))


@hook
def callee_result_shardings(ctx: RewriteContext, call: ir.Operation) -> list | None:
    """The callee's result shardings; else the call's with every axis dropped
    and every dimension closed; none when neither has any."""
    callee = _funcs(ctx).callee(call)
    found = call_graph.function_shardings(callee, "res_attrs", ctx.meshes())
    if found is not None:
        return found
    if not any(interfaces.sharding_of(r) is not None for r in operation(call).results):
        return None
    return [call_graph_export.fully_closed_like(interfaces.sharding_of(r)) for r in operation(call).results]


@hook
def reshard_result_unless_equivalent(ctx: RewriteContext, result: ir.Value, expected: TensorSharding) -> None:
    """Unless `result`'s sharding is equivalent to `expected`: an `sdy.reshard`
    of `result` right after its op, to `result`'s sharding (or `expected`
    fully closed), read by every other use of `result`."""
    current = interfaces.sharding_of(result)
    if is_equivalent(expected, current):
        return
    target = current if current is not None else call_graph_export.fully_closed_like(expected)
    call = operation(result.owner)
    reshard = ctx.create_op("sdy.reshard", [result.type], [result],
                            {"sharding": codec.tensor_sharding_attr(target)}, before=call)
    ctx.move(reshard, call, after=True)
    ctx.replace_uses(result, reshard.results[0], except_op=reshard)
