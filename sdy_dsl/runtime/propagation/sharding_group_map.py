"""Sharding groups while propagating (Shardy's sharding_group_map.cc): which
values share a sharding (`sdy.sharding_group` ops), the initial sync of each
group before propagating, and the sync of a group when a member changes."""
from __future__ import annotations

from typing import Callable, Iterable

from jaxlib.mlir import ir

from ...diagnostics import emit_warning
from ..sharding import DimSharding, TensorSharding, codec

GROUP_OP = "sdy.sharding_group"


class ShardingGroupMap:
    """Group id by value and members by group id, from the module's
    `sdy.sharding_group` ops (a value's first group wins)."""

    def __init__(self, ops: Iterable[ir.Operation]):
        self.group_of: dict[ir.Value, int] = {}
        self.members: dict[int, list[ir.Value]] = {}
        for op in ops:
            if op.name == GROUP_OP:
                gid = ir.IntegerAttr(op.attributes["group_id"]).value
                value = op.operands[0]
                if value not in self.group_of:
                    self.group_of[value] = gid
                    self.members.setdefault(gid, []).append(value)

    def sync_initial(self, get: Callable, set_: Callable) -> bool:
        """Give every member of a group the group's initial sharding (as the
        reference does once before propagating): the sharding of the members
        that have one not fully open, if they agree. If they disagree, each
        member is replaced by an open sdy.sharding_constraint of it instead
        (returns True: the IR changed, the caller starts a fresh engine).
        """
        conflicting = []
        for gid, members in self.members.items():
            common, conflict = None, False
            for member in members:
                candidate = get(member)
                if candidate is None or all(not d.axes and not d.is_closed
                                            for d in candidate.dims):
                    continue
                if common is None:
                    common = candidate
                elif candidate != common:
                    conflict = True
                    break
            if common is None:
                continue
            if conflict:
                first = members[0]
                owner = first.owner.owner if isinstance(first, ir.BlockArgument) else first.owner
                emit_warning(owner, f"The initial operand shardings on the sharding groups of groupID: {gid} "
                             "do not match. Inserting an open sharding constraint to all constrained "
                             "values. This can be caused when shardings from different values are "
                             "grouped (e.g. from jax.shard_alike) but have separate inconsistent "
                             "sharding constraints on them.")
                conflicting.append((members, common))
            else:
                for member in members:
                    set_(member, common)
        for members, common in conflicting:
            _constrain_open(members, common)
        return bool(conflicting)

    def others(self, value: ir.Value) -> tuple:
        """The other members of `value`'s group (none if it has no group)."""
        gid = self.group_of.get(value)
        if gid is None:
            return ()
        return tuple(member for member in self.members[gid] if member != value)


def _constrain_open(members: list[ir.Value], common: TensorSharding) -> None:
    open_like = TensorSharding(common.mesh_name, tuple(
        DimSharding((), False) for _ in common.dims), inline_mesh=common.inline_mesh)
    for member in members:
        if isinstance(member, ir.OpResult):
            point = ir.InsertionPoint.after(member.owner)
        else:
            point = ir.InsertionPoint.at_block_begin(member.owner)
        constraint = ir.Operation.create(
            "sdy.sharding_constraint", results=[member.type], operands=[member],
            attributes={"sharding": codec.tensor_sharding_attr(open_like)},
            loc=member.location, ip=point)
        member.replace_all_uses_except(constraint.result, constraint)
