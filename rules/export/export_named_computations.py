"""Hooks of sdy-export-named-computations: a named computation's body becomes
a private function, the named computation a call of it."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph, call_graph_export, interfaces
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SHARDING_ATTR, operation


@hook
def shardings_of_edges(owners: list) -> list:
    """The owners' edge shardings (an unsharded edge fully open on the first
    sharded edge's mesh); empty when no edge has a sharding."""
    return interfaces.shardings_of_edges(owners)


def _erase_edges(ctx: RewriteContext, owners) -> None:
    for owner in owners:
        edge = interfaces.data_flow_edge_of(owner)
        if edge is not None:
            ctx.replace_op(edge, [owner])


def _new_private_func(ctx: RewriteContext, nc: ir.Operation, name: str) -> ir.Operation:
    """A private function named `name` (made unique) at the end of the module,
    with `nc`'s signature, original name and func attributes, and no body yet."""
    body = nc.regions[0].blocks[0]
    attrs = nc.attributes
    func_type = ir.FunctionType.get([a.type for a in body.arguments], [r.type for r in nc.results])
    func_attrs = {"sym_name": ir.StringAttr.get(name), "function_type": ir.TypeAttr.get(func_type),
                  "sym_visibility": ir.StringAttr.get("private"),
                  call_graph.ORIGINAL_FUNC_NAME: ir.StringAttr.get(name)}
    for key in ctx.params["on-func"]:
        if key in attrs:
            func_attrs[key] = attrs[key]
    in_shardings = interfaces.table().of(nc.name).block_args
    if in_shardings is not None and in_shardings.attr in attrs:
        func_attrs["arg_attrs"] = ir.ArrayAttr.get(
            [ir.DictAttr.get({SHARDING_ATTR: codec.tensor_sharding_attr(s)})
             for s in codec.sharding_per_value(attrs[in_shardings.attr])])
    symbols = ctx.run_state("symbols", lambda: ir.SymbolTable(ctx.module))
    with ir.InsertionPoint(ctx.module.regions[0].blocks[0]):
        func = ir.Operation.create(ctx.params["function-op"], attributes=func_attrs, regions=1, loc=nc.location)
    symbols.insert(func)  # renamed if the name is taken
    ctx.mark_changed()
    return func


@hook
def replace_by_call_of_new_func(ctx: RewriteContext, nc: ir.Operation, name: str) -> None:
    """Move `nc`'s body into a new private function and replace `nc` by a call of it."""
    nc = operation(nc)
    func = _new_private_func(ctx, nc, name)
    body = nc.regions[0].blocks[0]
    body.append_to(func.regions[0])
    terminator = operation(body.operations[len(body.operations) - 1])
    ctx.create_op(ctx.params["return-op"], [], list(terminator.operands), {}, before=terminator)
    ctx.erase(terminator)
    _erase_edges(ctx, list(body.arguments))
    call_attrs = {k: v for k, v in nc.attributes.items() if k not in ctx.params["not-on-call"]}
    call_op = ctx.params["call-op"]
    call_attrs[interfaces.table().callee_attr(call_op)] = ir.FlatSymbolRefAttr.get(call_graph_export.symbol_name(func))
    out_shardings = interfaces.table().result_slot(nc.name)
    if out_shardings is not None and out_shardings.attr in nc.attributes:
        call_attrs[SHARDING_ATTR] = nc.attributes[out_shardings.attr]
    call = ctx.create_op(call_op, [r.type for r in nc.results], list(nc.operands), call_attrs, before=nc)
    ctx.replace_op(nc, list(call.results))
    _erase_edges(ctx, list(call.results))
