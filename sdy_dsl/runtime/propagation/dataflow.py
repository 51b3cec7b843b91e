"""Data-flow edges as propagation sees them (swappable).

After `sdy-add-data-flow-edges`, every edge owner (a result of while / case /
optimization_barrier, a block argument or result of manual_computation /
named_computation) has a single user: an `sdy.data_flow_edge` that holds the
sharding of all the edge's targets. Propagation asks:
- `edge_of_target(value)`: the edge op whose sharding stands for `value`
  (owner or non-owner target, e.g. a while body argument), or None;
- `edge_of_source(op_operand)`: the edge a use feeds (e.g. a while operand);
- `sources(edge)`, `non_owner_targets(edge)`;
- `transform(edge, sharding, before)`: the owner op's view change around
  propagation (manual_computation adds/removes its manual axes).

`DefaultDataFlowEdges` covers what the reference propagation handles; another
implementation (e.g. driven by the op-interface rule file) can replace it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from jaxlib.mlir import ir

from ..sharding import DimSharding, TensorSharding, codec

DATA_FLOW_EDGE = "sdy.data_flow_edge"
REGION_DATA_FLOW_OPS = frozenset({"stablehlo.case", "stablehlo.optimization_barrier",
                                  "stablehlo.while"})
SHARDABLE_DATA_FLOW_OPS = frozenset({"sdy.manual_computation", "sdy.named_computation"})


class DataFlowEdges(Protocol):
    def edge_of_target(self, value: ir.Value) -> ir.Operation | None: ...

    def edge_of_source(self, use) -> ir.Operation | None: ...

    def sources(self, edge: ir.Operation) -> list[ir.Value]: ...

    def non_owner_targets(self, edge: ir.Operation) -> list[ir.Value]: ...

    def transform(self, edge: ir.Operation, sharding: TensorSharding | None,
                  before: bool) -> TensorSharding | None: ...

    def is_shardable_block_arg_owner(self, op: ir.Operation) -> bool: ...


def owning_op(value: ir.Value) -> ir.Operation:
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    return value.owner.owner.operation


def _single_edge_user(owner: ir.Value | None) -> ir.Operation | None:
    if owner is None:
        return None
    uses = iter(owner.uses)
    first = next(uses, None)
    if first is None or next(uses, None) is not None:
        return None
    user = first.owner.operation
    return user if user.name == DATA_FLOW_EDGE else None


def _terminator(region: ir.Region) -> ir.Operation:
    ops = region.blocks[0].operations
    return ops[len(ops) - 1].operation


class DefaultDataFlowEdges:
    def edge_owner_from_target(self, target: ir.Value) -> ir.Value | None:
        op = owning_op(target)
        name = op.name
        if name in SHARDABLE_DATA_FLOW_OPS:
            return target
        if isinstance(target, ir.OpResult):
            return target if name in REGION_DATA_FLOW_OPS else None
        if name in REGION_DATA_FLOW_OPS:
            return op.results[target.arg_number]
        return None

    def edge_of_target(self, value: ir.Value) -> ir.Operation | None:
        return _single_edge_user(self.edge_owner_from_target(value))

    def edge_of_source(self, use) -> ir.Operation | None:
        user = use.owner.operation
        name = user.name
        index = use.operand_number
        owner = None
        if name in SHARDABLE_DATA_FLOW_OPS:
            owner = user.regions[0].blocks[0].arguments[index]
        elif name in REGION_DATA_FLOW_OPS:
            owner = user.results[index]
        elif name == "stablehlo.return":
            parent = user.parent
            if parent is not None and parent.name in REGION_DATA_FLOW_OPS:
                owner = parent.results[index]
        if owner is None:
            return None
        return _single_edge_user(owner)

    def sources(self, edge: ir.Operation) -> list[ir.Value]:
        owner = edge.operands[0]
        op = owning_op(owner)
        name = op.name
        if name in SHARDABLE_DATA_FLOW_OPS:
            if isinstance(owner, ir.BlockArgument):
                return [op.operands[owner.arg_number]]
            return [_terminator(op.regions[0]).operands[owner.result_number]]
        index = owner.result_number
        if name == "stablehlo.case":
            return [_terminator(region).operands[index] for region in op.regions]
        if name == "stablehlo.optimization_barrier":
            return [op.operands[index]]
        if name == "stablehlo.while":
            return [op.operands[index], _terminator(op.regions[1]).operands[index]]
        return []

    def non_owner_targets(self, edge: ir.Operation) -> list[ir.Value]:
        owner = edge.operands[0]
        op = owning_op(owner)
        if op.name == "stablehlo.while" and isinstance(owner, ir.OpResult):
            index = owner.result_number
            return [op.regions[0].blocks[0].arguments[index],
                    op.regions[1].blocks[0].arguments[index]]
        return []

    def transform(self, edge: ir.Operation, sharding: TensorSharding | None,
                  before: bool) -> TensorSharding | None:
        if sharding is None:
            return None
        owner = edge.operands[0]
        op = owning_op(owner)
        if op.name != "sdy.manual_computation":
            return sharding
        manual = set(codec.manual_axes(op.attributes["manual_axes"]).axes)
        is_arg = isinstance(owner, ir.BlockArgument)
        if before != is_arg:
            # before+result / after+block-arg: the body's view, without manual axes.
            return erase_manual_axes(sharding, manual)
        key, index = (("in_shardings", owner.arg_number) if is_arg
                      else ("out_shardings", owner.result_number))
        outer = codec.sharding_per_value(op.attributes[key])[index]
        return add_free_axes(outer, sharding, manual)

    def is_shardable_block_arg_owner(self, op: ir.Operation) -> bool:
        return op.name in SHARDABLE_DATA_FLOW_OPS or op.name == "func.func"


def erase_manual_axes(sharding: TensorSharding, manual: set[str]) -> TensorSharding:
    def keep(axes):
        return tuple(a for a in axes if a.name not in manual)
    return replace(sharding, dims=tuple(replace(d, axes=keep(d.axes)) for d in sharding.dims),
                   replicated=keep(sharding.replicated), unreduced=keep(sharding.unreduced))


def add_free_axes(outer: TensorSharding, new: TensorSharding, manual: set[str]) -> TensorSharding:
    """The manual axes of `outer`'s dims followed by `new`'s axes (with `new`'s open/closed)."""
    dims = []
    for outer_dim, new_dim in zip(outer.dims, new.dims):
        manual_axes = tuple(a for a in outer_dim.axes if a.name in manual)
        dims.append(DimSharding(manual_axes + new_dim.axes, new_dim.is_closed, new_dim.priority))
    return TensorSharding(new.mesh_name, tuple(dims), outer.replicated, (), new.inline_mesh)
