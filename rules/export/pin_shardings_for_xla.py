"""Hook of pin-shardings-for-xla (see the rule file)."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import interfaces
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SHARDING_ATTR, ops_under

CONSTRAINT = "sdy.sharding_constraint"
RESHARD = "sdy.reshard"


def _constraint(value: ir.Value, sharding: ir.Attribute, loc) -> ir.Operation:
    return ir.Operation.create(CONSTRAINT, results=[value.type], operands=[value],
                               attributes={"sharding": sharding}, loc=loc)


@hook
def pin_shardings(ctx: RewriteContext) -> None:
    """Pin each op result's sharding as a closed constraint; reshards and
    collectives become the constraints they stand for."""
    table = interfaces.table()
    for op in ops_under(ctx.anchor):
        if op.name == RESHARD or table.is_collective(op.name):
            # (XLA's compile path has no form for Shardy's collectives: its
            # partitioner makes the reshard each one stands for itself)
            sharding = codec.tensor_sharding_attr(interfaces.sharding_of(op.results[0]).closed())
            with ir.InsertionPoint(op):
                pinned = _constraint(op.operands[0], sharding, op.location)
            op.results[0].replace_all_uses_with(pinned.results[0])
            op.erase()
            ctx.mark_changed()
            continue
        if op.name == CONSTRAINT or SHARDING_ATTR not in op.attributes:
            continue
        attr = op.attributes[SHARDING_ATTR]
        if codec.sharding_kind(attr) != "per_value":
            continue
        for result, sharding in zip(reversed(op.results), reversed(codec.sharding_per_value(attr))):
            with ir.InsertionPoint.after(op):
                pinned = _constraint(result, codec.tensor_sharding_attr(sharding.closed()), op.location)
            result.replace_all_uses_except(pinned.results[0], pinned)
        # (the constraints say it all; XLA would read a while's or call's
        # per-result sharding against its own, possibly simplified, tuple)
        del op.attributes[SHARDING_ATTR]
        ctx.mark_changed()
