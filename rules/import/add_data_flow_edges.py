"""Hook of sdy-add-data-flow-edges: building an edge right after its owner."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.builtins import to_attr
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation


@hook
def add_data_flow_edge(ctx: RewriteContext, owner: ir.Value, sharding: ir.Attribute | None) -> None:
    """`%e = sdy.data_flow_edge %owner [sharding]` right after `owner`; other uses of `owner` use `%e`."""
    attributes = {} if sharding is None else {"sharding": to_attr(sharding)}
    if isinstance(owner.owner, ir.Block):
        block = owner.owner
        first = next(iter(block.operations), None)
        point = ir.InsertionPoint(operation(first)) if first is not None else ir.InsertionPoint(block)
    else:
        point = ir.InsertionPoint.after(operation(owner.owner))
    edge = ir.Operation.create("sdy.data_flow_edge", results=[owner.type], operands=[owner],
                               attributes=attributes, loc=owner.location, ip=point)
    owner.replace_all_uses_except(edge.result, edge)
    ctx.mark_changed()
