"""Data-flow edges as propagation sees them, from the op registry's `data-flow:`
declarations (rules/interfaces.yaml; Shardy's ShardableDataFlowOpInterface).

After `sdy-add-data-flow-edges`, every edge owner (e.g. a result of while /
case / optimization_barrier, a block argument or result of manual_computation /
named_computation, or whatever a user declares) has a single user: an
`sdy.data_flow_edge` that holds the sharding of all the edge's targets.
Propagation asks:
- `edge_of_target(value)`: the edge op whose sharding stands for `value`
  (owner or non-owner target, e.g. a while body argument), or None;
- `edge_of_source(op_operand)`: the edge a use feeds (e.g. a while operand);
- `sources(edge)`, `non_owner_targets(edge)`;
- `transform(edge, sharding, before)`: the owner op's view change around
  propagation (an op that strips manual axes adds/removes them).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..sharding import TensorSharding, codec
from ..sharding_store import add_free_axes, erase_manual_axes
from ..values import block_terminator, region_index

DATA_FLOW_EDGE = "sdy.data_flow_edge"


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




class EdgeOwner:
    """What the questions about one edge start from, looked up once: its
    owner (the edge's operand), the op that owns it and that op's data-flow
    declaration (None: the op declares none)."""

    __slots__ = ("value", "op", "decl")

    def __init__(self, edge: ir.Operation, table):
        self.value = edge.operands[0]
        self.op = owning_op(self.value)
        self.decl = table.data_flow(self.op)


class EdgeTransform:
    """`DataFlowEdges.transform` of one edge whose owner strips manual axes.
    The owner's manual axes and its own shardings are attributes, which a
    propagation pass does not write until it flushes its store, so while the
    pass runs the edge's view changes (`DataFlowEdges.view_change`, before
    and after a step) are read once and a transform is a function of the
    sharding: its results are kept by content in the DataFlowEdges. Two edges
    whose view changes are equal are equal (edges of repeated layers): the
    step memo keys such an edge's steps by it. Kept by the edge's step
    (worklist.EdgeStep)."""

    __slots__ = ("dataflow", "edge", "before", "after", "_hash")

    def __init__(self, dataflow: "DataFlowEdges", edge: ir.Operation, owner: EdgeOwner | None = None):
        self.dataflow = dataflow
        self.edge = edge
        owner = owner or EdgeOwner(edge, dataflow.table)
        self.before = dataflow.view_change(edge, True, owner)  # the sharding as the step sees it
        self.after = dataflow.view_change(edge, False, owner)  # the step's update as written back
        self._hash = hash((self.before, self.after))

    def __call__(self, sharding: TensorSharding | None, before: bool) -> TensorSharding | None:
        if sharding is None:
            return None
        return self.dataflow.apply_view_change(self.before if before else self.after, sharding)

    def __eq__(self, other) -> bool:
        return (isinstance(other, EdgeTransform) and self.before == other.before
                and self.after == other.after)

    def __hash__(self) -> int:
        return self._hash


class ViewChange:
    """How an owner that strips manual axes changes the view of a sharding:
    its manual axes dropped (the body's view; `outer` None) or, on the way
    out, the owner's own sharding `outer` of the target with the view's axes
    added after its manual ones. Equal when they change views alike (the
    content key of DataFlowEdges.apply_view_change)."""

    __slots__ = ("manual", "outer", "_key", "_hash")

    def __init__(self, manual: frozenset, outer: TensorSharding | None):
        self.manual, self.outer = manual, outer
        self._key = (manual, outer)
        self._hash = hash(self._key)  # (looked up on every transform)

    def __eq__(self, other) -> bool:
        return isinstance(other, ViewChange) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def apply(self, sharding: TensorSharding) -> TensorSharding:
        if self.outer is None:
            return erase_manual_axes(sharding, self.manual)
        return add_free_axes(self.outer, sharding, self.manual)


class DataFlowEdges:
    def __init__(self, table):
        self.table = table  # the run's InterfaceRegistry
        self._views: dict = {}  # (ViewChange, sharding) -> the changed sharding, for the pass

    def edge_owner_from_target(self, target: ir.Value, op: ir.Operation | None = None
                               ) -> ir.Value | None:
        """`op`: the target's owning op, if the caller knows it."""
        if op is None:
            op = owning_op(target)
        decl = self.table.data_flow(op)
        if decl is None:
            return None
        if isinstance(target, ir.OpResult):
            return target if decl.result_owners else None
        if decl.block_arg_owners:
            return target
        if decl.result_owners and region_index(op, target.owner) in decl.non_owner_target_regions:
            return op.results[target.arg_number]
        return None

    def edge_of_target(self, value: ir.Value, op: ir.Operation | None = None) -> ir.Operation | None:
        return _single_edge_user(self.edge_owner_from_target(value, op))

    def edge_of_source(self, use) -> ir.Operation | None:
        """Shardy's DataFlowEdgeOp::lookup(OpOperand&): a terminator's operand i
        feeds its parent's result-owned edge i; an op's operand i feeds its
        result-owned edge i (an op whose block arguments own edges has none)."""
        user = use.owner.operation
        table = self.table
        if table.is_terminator(user):
            parent = user.parent
            if parent is None:
                return None
            decl = table.data_flow(parent.operation)
            if decl is None or not decl.result_owners:
                return None
            return _single_edge_user(parent.operation.results[use.operand_number])
        decl = table.data_flow(user)
        if decl is None or not decl.result_owners or decl.block_arg_owners:
            return None
        return _single_edge_user(user.results[use.operand_number])

    def sources(self, edge: ir.Operation, owner: EdgeOwner | None = None) -> list[ir.Value]:
        """`owner`: the edge's EdgeOwner, if the caller has it."""
        owner = owner or EdgeOwner(edge, self.table)
        owner, op, decl = owner.value, owner.op, owner.decl
        if decl is None:
            return []
        if isinstance(owner, ir.BlockArgument):
            return [op.operands[owner.arg_number]] if decl.source_operands else []
        index = owner.result_number
        found = []
        if decl.source_operands and not decl.block_arg_owners:
            found.append(op.operands[index])
        for i, region in enumerate(op.regions):
            if decl.terminator_is_source(i):
                found.append(block_terminator(region.blocks[0]).operands[index])
        return found

    def non_owner_targets(self, edge: ir.Operation, owner: EdgeOwner | None = None) -> list[ir.Value]:
        """`owner`: the edge's EdgeOwner, if the caller has it."""
        owner = owner or EdgeOwner(edge, self.table)
        owner, op, decl = owner.value, owner.op, owner.decl
        if not isinstance(owner, ir.OpResult) or decl is None:
            return []
        return [op.regions[r].blocks[0].arguments[owner.result_number]
                for r in decl.non_owner_target_regions]

    def strips_manual_axes(self, edge: ir.Operation, owner: EdgeOwner | None = None) -> bool:
        """Whether `transform` may change a sharding (else it is the identity)."""
        decl = (owner or EdgeOwner(edge, self.table)).decl
        return decl is not None and bool(decl.strip_manual_axes)

    def transform(self, edge: ir.Operation, sharding: TensorSharding | None,
                  before: bool) -> TensorSharding | None:
        """transformTargetSharding of an op that strips manual axes."""
        if sharding is None:
            return None
        return self.apply_view_change(self.view_change(edge, before), sharding)

    def view_change(self, edge: ir.Operation, before: bool,
                    owner: EdgeOwner | None = None) -> ViewChange | None:
        """What `transform(edge, _, before)` does (None: nothing, the owner
        strips no manual axes)."""
        owner = owner or EdgeOwner(edge, self.table)
        owner, op, decl = owner.value, owner.op, owner.decl
        if decl is None or not decl.strip_manual_axes:
            return None
        manual = frozenset(codec.manual_axes(op.attributes[decl.strip_manual_axes]).axes)
        is_arg = isinstance(owner, ir.BlockArgument)
        if before != is_arg:
            # before+result / after+block-arg: the body's view, without manual axes.
            return ViewChange(manual, None)
        slot = self.table.of(op.name)
        slot = slot.block_args if is_arg else (slot.results or self.table.default.results)
        index = owner.arg_number if is_arg else owner.result_number
        return ViewChange(manual, codec.sharding_per_value(op.attributes[slot.attr])[index])

    def apply_view_change(self, change: ViewChange | None, sharding: TensorSharding) -> TensorSharding:
        """`change` applied to `sharding`, once per distinct pair (the edges of
        repeated layers change views alike)."""
        if change is None:
            return sharding
        key = (change, sharding)
        found = self._views.get(key)
        if found is None:
            found = self._views[key] = change.apply(sharding)
        return found

    def is_shardable_block_arg_owner(self, op: ir.Operation) -> bool:
        """Whether `op`'s block arguments keep shardings (func, manual/named computation)."""
        return self.table.of(op.name).block_args is not None
