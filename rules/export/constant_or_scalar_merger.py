"""Hooks of sdy-constant-or-scalar-merger: the first op of each kind and key seen in a block."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation


def _key(op: ir.Operation, kind: str) -> tuple:
    """What must be equal for two ops of KIND to merge: the attribute dictionary
    and the block, and for a scalar expansion its result type and operand."""
    attributes = tuple((name, op.attributes[name]) for name in op.attributes)
    if kind == "constant":
        return (kind, op.block, attributes)
    if kind == "scalar-expansion":
        return (kind, op.block, attributes, op.results[0].type, op.operands[0])
    raise ValueError(f"unknown kind '{kind}' (expected constant or scalar-expansion)")


@hook
def first_equal(ctx: RewriteContext, op: ir.Operation, kind: str) -> ir.Operation | None:
    """The first op visited before OP with OP's key, or none (OP is then the first of its key)."""
    op = operation(op)
    seen = ctx.run_state("merger-first-seen", dict)
    first = seen.setdefault(_key(op, kind), op)
    return None if first == op else first
