"""Hooks of sdy-sharding-group-import: group validation and union-find over the module."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation

GROUP_OP = "sdy.sharding_group"


def _manual_computation_parent(op):
    parent = operation(op).parent
    while parent is not None:
        parent = operation(parent)
        if parent.name == "sdy.manual_computation":
            return parent
        if parent.name == "builtin.module":
            return None
        parent = parent.parent
    return None


def _shape(value: ir.Value):
    t = value.type
    return tuple(t.shape) if isinstance(t, ir.ShapedType) and t.has_rank else None


@hook
def group_problem(ctx: RewriteContext, group_op: ir.Operation, group_id: int, value: ir.Value) -> str | None:
    """Why this group member is invalid given the members seen before it, or none."""
    seen = ctx.scratch.setdefault("groups_seen", {})
    parent = _manual_computation_parent(group_op)
    shape = _shape(value)
    first = seen.setdefault(group_id, (parent, shape))
    if (first[0] is None) != (parent is None) or (parent is not None and first[0] != parent):
        return f"ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: {group_id}"
    if first[1] != shape:
        return f"ShardingGroupOps values must have the same shape for groupId: {group_id}"
    return None


class _Unification:
    """Merged, renumbered group ids of one module.

    Tensors are taken in order of first appearance; each tensor joins its
    groups to the first one it names (whose representative leads the merge).
    New ids are given to the representatives in order of first appearance.
    """

    def __init__(self, module):
        groups_of_tensor: dict = {}
        order: list = []
        self.ops: list = []

        def visit(op):
            if op.name == GROUP_OP:
                value = op.operands[0]
                groups_of_tensor.setdefault(value, []).append(_group_id(op))
                self.ops.append(op)
            return ir.WalkResult.ADVANCE

        operation(module).walk(visit)
        leader: dict[int, int] = {}

        def find(g):
            while leader[g] != g:
                g = leader[g]
            return g

        for ids in groups_of_tensor.values():
            canonical = ids[0]
            for g in ids:
                for x in (canonical, g):
                    if x not in leader:
                        leader[x] = x
                        order.append(x)
                a, b = find(canonical), find(g)
                if a != b:
                    leader[b] = a
        self.new_id: dict[int, int] = {}
        renumbered = {}
        for g in order:
            if find(g) == g:
                renumbered[g] = len(renumbered)
        for g in order:
            self.new_id[g] = renumbered[find(g)]
        self.kept: set = set()


def _group_id(op) -> int:
    return ir.IntegerAttr(operation(op).attributes["group_id"]).value


def _unification(ctx: RewriteContext) -> _Unification:
    return ctx.run_state("unification", lambda: _Unification(ctx.module))


@hook
def unified_group_id(ctx: RewriteContext, group_op: ir.Operation) -> int:
    return _unification(ctx).new_id[_group_id(group_op)]


@hook
def already_in_unified_group(ctx: RewriteContext, group_op: ir.Operation, value: ir.Value) -> bool:
    """Whether an earlier member puts `value` in the same merged group."""
    state = _unification(ctx)
    key = (value, state.new_id[_group_id(group_op)])
    if key in state.kept:
        return True
    state.kept.add(key)
    return False
