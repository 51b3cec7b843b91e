"""Hooks of sdy-apply-sharding-constraints: the apply condition, chains, moving constraints
(debug info: sdy_dsl/interp/debug_info_hooks.py)."""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.builtins import to_sharding
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import interfaces
# Debug-info hooks the rule file calls (debug-sharding-origins / debug-propagation-edge-sharding).
from sdy_dsl.interp.debug_info_hooks import record_sharding_update, save_debug_info, seed_debug_info  # noqa: F401
from sdy_dsl.runtime.sharding import TensorSharding, codec
from sdy_dsl.runtime.values import operation

CONSTRAINT = "sdy.sharding_constraint"
MANUAL_COMPUTATION = "sdy.manual_computation"

def _users(value: ir.Value) -> list:
    return [(operation(u.owner), u.operand_number) for u in value.uses]

def _constraint_sharding_of_use(user, operand_number):
    if user.name == CONSTRAINT:
        return codec.tensor_sharding(user.attributes["sharding"])
    if user.name == MANUAL_COMPUTATION:
        return codec.sharding_per_value(user.attributes["in_shardings"])[operand_number]
    return None


@hook
def should_apply(value: ir.Value, sharding: TensorSharding | ir.Attribute) -> bool:
    """%x can hold a sharding, has none, the sharding is fully closed and no
    other constraint / manual computation asks %x for another sharding."""
    sharding = to_sharding(sharding)
    if not sharding.is_fully_closed:
        return False  # (asked first: most constraints are open, and the value's slot costs more)
    if interfaces._slot_of(value) is None or interfaces.sharding_through_edge(value) is not None:
        return False
    for user, number in _users(value):
        other = _constraint_sharding_of_use(user, number)
        if other is not None and other != sharding:
            return False
    return True

def _used_by_constraint(value: ir.Value, excluded=None) -> bool:
    return any(user.name in (CONSTRAINT, MANUAL_COMPUTATION) and (excluded is None or user != excluded)
               for user, _ in _users(value))

@hook
def tail_of_constraint_chain(head: ir.Operation) -> ir.Operation | None:
    """The last constraint of a chain starting at `head` (see the pass description), or none."""
    head = operation(head)
    # The chain first: most constraints start none, and that is the cheapest to see.
    tail = _next_in_chain(head)
    if tail is None:
        return None
    while (after := _next_in_chain(tail)) is not None:
        tail = after
    if _used_by_constraint(tail.results[0]):
        return None
    x = head.operands[0]
    if not isinstance(x.owner, ir.Block) and operation(x.owner).name == CONSTRAINT:
        return None
    if interfaces._slot_of(x) is not None and interfaces.sharding_through_edge(x) is not None:
        return None
    if _used_by_constraint(x, excluded=head):
        return None
    return tail

def _next_in_chain(constraint: ir.Operation) -> ir.Operation | None:
    """The constraint that is the only user of `constraint`, if any."""
    uses = list(constraint.results[0].uses)
    if len(uses) != 1:
        return None
    user = operation(uses[0].owner)
    return user if user.name == CONSTRAINT else None

@hook
def replace_uses_after_chain(ctx: RewriteContext, x: ir.Value, head: ir.Operation, tail: ir.Operation) -> None:
    """Route uses of %x after `tail` in its block (not `head`, not func.return) to `tail`."""
    head, tail = operation(head), operation(tail)
    new = tail.results[0]
    for use in list(x.uses):
        user = operation(use.owner)
        if user == head or user.name == "func.return" or user.block != tail.block:
            continue
        if tail.is_before_in_block(user):
            user.operands[use.operand_number] = new
            ctx.mark_changed()

def _point_after_value(value: ir.Value) -> ir.InsertionPoint:
    owner = value.owner
    if isinstance(owner, ir.Block):
        first = next(iter(owner.operations), None)
        return ir.InsertionPoint(operation(first)) if first is not None else ir.InsertionPoint(owner)
    return ir.InsertionPoint.after(operation(owner))

@hook
def move_after_value(ctx: RewriteContext, op: ir.Operation, value: ir.Value) -> None:
    """Move `op` right after the definition of `value` (the block start for an argument)."""
    op = operation(op)
    owner = value.owner
    if isinstance(owner, ir.Block):
        first = operation(next(iter(owner.operations)))
        if first != op:
            ctx.move(op, first, after=False)
    else:
        ctx.move(op, operation(owner), after=True)

@hook
def replace_uses_except(ctx: RewriteContext, old: ir.Value, new: ir.Value, except_op: ir.Operation) -> None:
    ctx.replace_uses(old, new, operation(except_op))

@hook
def set_unreduced_of(ctx: RewriteContext, value: ir.Value, sharding: TensorSharding | ir.Attribute) -> None:
    """Give %x (its edge, if it has one) the constraint's unreduced axes, which do not propagate."""
    interfaces.set_sharding_through_edge(value, open_with_unreduced_of(value, sharding))
    ctx.mark_changed()

def open_with_unreduced_of(value: ir.Value, sharding: TensorSharding | ir.Attribute) -> TensorSharding:
    """%x's sharding (fully open on the constraint's mesh if none) with the constraint's unreduced axes."""
    sharding = to_sharding(sharding)
    current = interfaces.sharding_through_edge(value)
    if current is None:
        rank = value.type.rank if isinstance(value.type, ir.ShapedType) and value.type.has_rank else 0
        current = TensorSharding.replicated_like(sharding.mesh_name, rank, is_closed=False,
                                                 inline_mesh=sharding.inline_mesh)
    return replace(current, unreduced=sharding.unreduced)

@hook
def constrain_after(ctx: RewriteContext, value: ir.Value, sharding: TensorSharding | ir.Attribute,
                    manual_computation: ir.Operation) -> None:
    """A new constraint right after %x takes over its other uses (the manual computation's included)."""
    sharding = to_sharding(sharding)
    with _point_after_value(value):
        constraint = ir.Operation.create(CONSTRAINT, results=[value.type], operands=[value],
                                         attributes={"sharding": codec.tensor_sharding_attr(sharding)},
                                         loc=operation(manual_computation).location)
    value.replace_all_uses_except(constraint.results[0], constraint)
    if sharding.unreduced:
        interfaces.set_sharding_through_edge(value, open_with_unreduced_of(value, sharding))
    ctx.mark_changed()
