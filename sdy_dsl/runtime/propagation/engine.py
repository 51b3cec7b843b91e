"""The propagation driver: sdy-{basic,aggressive,op-priority,user-priority}-propagate.

The levels nest, each a function calling the one inside it:

    user_priority_propagate  (per user priority p0, p1, ...: only dims <= p propagate)
      op_priority_propagate  (per op heuristic 0..n: directions from heuristics[:i+1])
        aggressive_propagate (strategy list: aggressive | basic | basic then aggressive)
          basic_propagate    (func results; worklist to a fixed point; func results)

`basic_propagate` replays the reference's rewrite driver: a LIFO worklist
seeded with every op in pre-order (so ops pop in program order), ops whose
results are unused and that have no side effects are erased when popped,
and after an op's propagation changes a value, the value's defining op and
users are pushed (with their ancestors) so they pop next. Rounds repeat until
one changes nothing.

Shardings are kept in memory while propagating (read lazily from the IR,
written back once at the end): see ShardingStore.
"""
from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from jaxlib.mlir import ir

from ..op_sharding_rule import SHARDING_RULE_ATTR, OpShardingRule
from ..sharding import DimSharding, Mesh, TensorSharding, codec
from ..values import operation, ops_in_symbol_use_order, ops_under, structure_key, tensor_type
from ..sharding_store import ShardingStore
from .dataflow import DATA_FLOW_EDGE, DataFlowEdges
from .factor_propagation import (AGGRESSIVE, BASIC, BasicFactorPropagation, Direction,
                                 intersect_directions, union_directions)
from .heuristics import (Heuristic, HeuristicOp, default_heuristics, has_multi_use,
                         is_pass_through_factor)
from .projection import ShardingProjection
from .step_memo import StepMemo

if TYPE_CHECKING:  # imported where used: debug_info imports this package
    from ..debug_info import ShardingDebugInfo


RuleProvider = Callable[[ir.Operation, bool], "OpShardingRule | None"]
GetDirection = Callable[[ir.Operation, int], Direction]


class PropagationError(Exception):
    pass


_NOT_FOUND = object()


def propagate_any(op, factor: int) -> Direction:
    return Direction.BOTH


def identity_rule(shape: Sequence[int], num_operands: int = 1) -> OpShardingRule:
    return _identity_rule(tuple(shape), num_operands)


@functools.lru_cache(maxsize=4096)
def _identity_rule(shape: tuple, num_operands: int) -> OpShardingRule:
    # one object per shape: the step memo finds a rule it has seen by identity
    dims = tuple((i,) for i in range(len(shape)))
    return OpShardingRule(shape, (dims,) * num_operands, (dims,))


def static_shape(value_type: ir.Type) -> tuple[int, ...] | None:
    t = tensor_type(value_type)
    if t is None or not t.has_static_shape:
        return None
    return tuple(t.shape)


# ----------------------------------------------------------------- worklist


class Worklist:
    """LIFO of OpNodes with de-duplication (a pushed node already queued keeps
    its place); a node knows its own position, so no lookups are needed."""

    __slots__ = ("items",)

    def __init__(self, nodes_first_on_top: list):
        """Start with `nodes_first_on_top` (the last pops first)."""
        self.items = nodes_first_on_top  # (None: the place of a removed node)
        for position, node in enumerate(nodes_first_on_top):
            node.queued = position

    def push(self, node) -> None:
        if node.queued >= 0:
            return
        node.queued = len(self.items)
        self.items.append(node)

    def pop(self):
        """The top node, or None when none is left."""
        items = self.items
        while items:
            node = items.pop()
            if node is not None:
                node.queued = -1
                return node
        return None

    def remove(self, node) -> None:
        if node.queued >= 0:
            self.items[node.queued] = None
            node.queued = -1


class OpNode:
    """What the engine keeps about one op while propagating (dropped when the
    op is erased): how it propagates, its step's frame, and whether its last
    step changed nothing."""

    __slots__ = ("op", "kind", "frame", "clean", "watched", "live_at", "directions", "values",
                 "step_key", "queued", "chain", "erased", "plain_user", "structure")

    # kinds: how apply_patterns propagates the op
    REGISTERED, DATA_FLOW_EDGE, FUNC_EDGE, BARRIER = range(4)

    def __init__(self, op, kind: int):
        self.op = op
        self.kind = kind
        self.frame = False  # (rule, operands, results) of its step, None: none; False: not built
        self.clean = None  # (directions, strategy) of a step that changed nothing, until
        #                    one of its values' shardings changes
        self.watched = False  # registered as a reader of its values' shardings
        self.live_at = -1  # the engine's erasure count when the op was last seen alive
        self.directions = None  # per op priority, its factors' directions (see HeuristicDirections)
        self.values = None  # where its operands' and results' shardings live (shardable values)
        self.step_key = None  # [(directions, strategy, the step memo key's part they fix)]
        self.queued = -1  # its position in the worklist, -1: not queued
        self.chain = None  # itself and its ancestors below the module, pushed together
        self.erased = False
        self.plain_user = None  # whether a use by it notifies just it (see notify_users_modified)
        self.structure = None  # its structure id, once its frame is built (see values.structure_key)


# ----------------------------------------------------------------- engine


class PropagationEngine:
    """Sharding state of one module plus the per-op propagation step."""

    def __init__(self, module_op, *, rule_provider: RuleProvider | None = None,
                 dataflow: DataFlowEdges | None = None, conservative: bool = False,
                 trace: Callable | None = None, registry=None):
        from ..op_registry import active
        self.module = operation(module_op)
        self.registry = registry or active()  # the op facts of the run
        self.table = self.registry.interfaces
        self.erasures = 0  # dead ops erased so far (caches of IR structure check it)
        self._nodes: dict = {}  # op -> OpNode
        self._sweep_heuristics = None  # see run_to_fixed_point
        self._func_results_unchanged: dict = {}  # (func, index) -> inputs of a step that changed nothing
        self._func_results_quiet = None  # (strategy, store version) of a run that changed nothing
        self._notified: dict = {}  # value -> the ops a change of its sharding notifies
        self._notified_erasures = 0
        self._order = None  # the ops' nodes in pre-order (see _preorder_nodes)
        self._order_erasures = 0
        self._watchers: dict = {}  # shardable value -> the OpNodes whose step reads it
        self._structure_ids: dict = {}  # structure key -> a small integer (see values.structure_key)
        self._rules_by_structure: dict = {}  # structure id -> rule
        self._static_keys: dict = {}  # (structure id, directions, strategy) -> static step key
        self._shardable: dict = {}  # value -> the value holding its sharding (see shardable_value)
        self._shardable_erasures = 0
        self.rule_provider = rule_provider or self.registry.rule_for
        if rule_provider is not None:
            self._rules_by_structure = None
        self.dataflow = dataflow or DataFlowEdges(self.table)
        self.conservative = conservative
        self.trace = trace
        self.debug: ShardingDebugInfo | None = None  # set when a debug option is on
        self.meshes: dict[str, Mesh] = {}
        body = self.module.regions[0].blocks[0]
        self.funcs: list[ir.Operation] = []
        # The module's ops in pre-order (not the module), walked once; the ops
        # in funcs (funcs included) are the ones propagation looks at.
        self._module_ops: list[ir.Operation] = []  # (only before any op is erased)
        self._func_ops: list[ir.Operation] = []
        self._func_ops_erasures = 0
        for op in body.operations:
            op = op.operation
            nested = ops_under(op)
            self._module_ops.extend(nested)
            if op.name == "sdy.mesh":
                name = ir.StringAttr(op.attributes["sym_name"]).value
                self.meshes[name] = codec.mesh(op.attributes["mesh"])
            elif op.name == "func.func":
                self.funcs.append(op)
                self._func_ops.extend(nested)
        # Shardings are read once and kept in memory while propagating, then
        # written back once (flush).
        self.store = ShardingStore(self.table, buffered=True)
        self.store.on_change = self._sharding_changed
        # Rules: op -> rule (None when the op has none); `_rule_attached` are
        # the ops that carry (or will carry) a sdy.sharding_rule attribute.
        self._rule_attached: dict[ir.Operation, OpShardingRule] = {}
        self._build_sharding_groups()
        self._build_call_graph()
        self.steps = StepMemo()  # the algebra of each distinct step, done once
        self.store.intern = self.steps.intern  # (the store keeps each value's token)

    # ------------------------------------------------------------- meshes

    def mesh(self, sharding: TensorSharding) -> Mesh | None:
        if sharding.mesh_name is None:
            return sharding.inline_mesh
        return self.meshes.get(sharding.mesh_name)

    @staticmethod
    def _mesh_is_empty(mesh: Mesh | None) -> bool:
        return mesh is None or (not mesh.axes and not mesh.device_ids)

    def common_mesh_name(self, shardings: Iterable[TensorSharding | None]) -> str | None:
        mesh, name = None, None
        for sharding in shardings:
            if sharding is None:
                continue
            other = self.mesh(sharding)
            if mesh is None or self._mesh_is_empty(mesh):
                mesh, name = other, sharding.mesh_name
            elif other != mesh and not self._mesh_is_empty(other):
                return None
        return name

    # ------------------------------------------------------------- sharding groups

    def _build_sharding_groups(self):
        self.group_of: dict[ir.Value, int] = {}
        self.group_members: dict[int, list[ir.Value]] = {}

        self._with_rule_attr = []  # ops that carry a sdy.sharding_rule (see finish_rules)
        for op in self._module_ops:
            if SHARDING_RULE_ATTR in op.attributes:
                self._with_rule_attr.append(op)
            if op.name == "sdy.sharding_group":
                gid = ir.IntegerAttr(op.attributes["group_id"]).value
                value = op.operands[0]
                if value not in self.group_of:
                    self.group_of[value] = gid
                    self.group_members.setdefault(gid, []).append(value)

    def sync_sharding_groups(self) -> bool:
        """Give every member of a group the group's initial sharding (as the
        reference does once before propagating): the sharding of the members
        that have one not fully open, if they agree. If they disagree, each
        member is replaced by an open sdy.sharding_constraint of it instead
        (returns True: the IR changed, the caller starts a fresh engine).
        """
        conflicting = []
        for gid, members in self.group_members.items():
            common, conflict = None, False
            for member in members:
                candidate = self.get(member)
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
                from ...diagnostics import emit_warning
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
                    self.set(member, common)
        for members, common in conflicting:
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
        return bool(conflicting)

    # ------------------------------------------------------------- sharding access

    def shardable_value(self, value: ir.Value) -> ir.Value | None:
        # Where a value's sharding lives depends on the IR's structure only,
        # which propagation changes only by erasing dead ops.
        if self._shardable_erasures != self.erasures:
            self._shardable.clear()
            self._shardable_erasures = self.erasures
        try:
            return self._shardable[value]
        except KeyError:
            found = self._shardable[value] = self._find_shardable_value(value)
            return found

    def _find_shardable_value(self, value: ir.Value) -> ir.Value | None:
        owner = self.store.owners.get(value) if isinstance(value, ir.OpResult) else None
        edge = self.dataflow.edge_of_target(value, owner)
        if edge is not None:
            return edge.results[0]
        if isinstance(value, ir.OpResult):
            return value
        parent = value.owner.owner
        if parent is None:
            return None
        parent = parent.operation
        if self.table.data_flow(parent) is not None:
            # Shardy's getEdgeOwnerFromTarget: a while body argument stands
            # for the while result even without data-flow edges.
            return self.dataflow.edge_owner_from_target(value)
        if self.dataflow.is_shardable_block_arg_owner(parent):
            return value
        return None

    def get(self, value: ir.Value) -> TensorSharding | None:
        value = self.shardable_value(value)
        if value is None:
            return None
        return self.store.get(value)

    def set(self, value: ir.Value, sharding: TensorSharding) -> None:
        value = self.shardable_value(value)
        if value is None:
            return  # Shardy's setSharding ignores a value with nowhere to keep one
        self.store.set(value, sharding)

    def get_func_arg(self, func: ir.Operation, index: int) -> TensorSharding | None:
        return self.store.get(func.regions[0].blocks[0].arguments[index])

    def get_func_result(self, func: ir.Operation, index: int) -> TensorSharding | None:
        return self.store.func_result(func, index)

    def set_func_result(self, func: ir.Operation, index: int, sharding: TensorSharding) -> None:
        self.store.set_func_result(func, index, sharding)

    def edge_sharding(self, edge: ir.Operation) -> TensorSharding | None:
        return self.store.get(edge.results[0])

    def set_edge_sharding(self, edge: ir.Operation, sharding: TensorSharding) -> None:
        self.store.set(edge.results[0], sharding)

    def flush(self) -> None:
        """Write every changed sharding back to the IR."""
        self.store.flush()

    def _sharding_changed(self, value: ir.Value) -> None:
        watchers = self._watchers.get(value)
        if watchers:
            for node in watchers:
                node.clean = None

    def _watch(self, node: OpNode, values, resolved: bool = False) -> None:
        """Forget the node's clean state whenever one of these values' sharding
        changes (`resolved`: they are shardable values already)."""
        node.watched = True
        watchers = self._watchers
        for value in values:
            shardable = value if resolved else self.shardable_value(value)
            if shardable is not None:
                watchers.setdefault(shardable, []).append(node)

    def node(self, op: ir.Operation) -> OpNode:
        try:
            return self._nodes[op]
        except KeyError:
            pass
        name = op.name
        edge_kind = self.table.edge_kind(name)
        if edge_kind == "data-flow":
            kind = OpNode.DATA_FLOW_EDGE
        elif edge_kind == "func-call":
            kind = OpNode.FUNC_EDGE
        elif self.table.barrier_attr(name) is not None:
            kind = OpNode.BARRIER
        else:
            kind = OpNode.REGISTERED
        node = self._nodes[op] = OpNode(op, kind)
        return node

    # ------------------------------------------------------------- rules

    def rule_of(self, op: ir.Operation, structure=None) -> OpShardingRule | None:
        """getOrCreateShardingRule: the op's own attribute, or the registry's (attached).
        `structure`: the id of the op's structure key, if it has one (see values.structure_key)."""
        attrs = op.attributes
        if SHARDING_RULE_ATTR in attrs:
            rule = OpShardingRule.from_attr(attrs[SHARDING_RULE_ATTR])
            self._rule_attached[op] = rule
        else:
            # The registry's rule is a function of the op's structure; a rule
            # provider given by a caller may look at anything.
            by_structure = self._rules_by_structure
            rule = _NOT_FOUND
            if by_structure is not None and structure is not None:
                rule = by_structure.get(structure, _NOT_FOUND)
            if rule is _NOT_FOUND:
                rule = self.rule_provider(op, self.conservative)
                if by_structure is not None and structure is not None:
                    by_structure[structure] = rule
            if rule is not None:
                self._rule_attached[op] = rule
        return rule

    def attached_rule(self, op: ir.Operation) -> OpShardingRule | None:
        return self._rule_attached.get(op)

    def finish_rules(self, keep: bool) -> None:
        """Attach created rules (keep) or remove every non-custom rule (reference default)."""
        if keep:
            # Iterate items (no lookups): op hashes change as attributes are written.
            for op, rule in list(self._rule_attached.items()):
                if SHARDING_RULE_ATTR not in op.attributes:
                    op.attributes[SHARDING_RULE_ATTR] = rule.to_attr(op.context)
            return

        # Without `keep`, propagation adds no rule: the ops that carry one are
        # those found at the start (less the erased ones).
        ops = self._with_rule_attr if self.erasures == 0 else ops_under(self.module)
        for op in ops:
            attrs = op.attributes
            if SHARDING_RULE_ATTR in attrs:
                if not sdy_rule_is_custom(attrs[SHARDING_RULE_ATTR]):
                    del attrs[SHARDING_RULE_ATTR]

    # ------------------------------------------------------------- one propagation step

    def propagate_tensors(self, op: ir.Operation, operands: Sequence[ir.Value],
                          results: Sequence[ir.Value], operand_shardings: list,
                          result_shardings: list, set_operand, set_result, rule,
                          direction_along_factor, strategy: BasicFactorPropagation,
                          conservative: bool, notify, result_groups: bool = True) -> bool:
        if self.debug is None:
            directions = tuple([direction_along_factor(f) for f in range(len(rule.factor_sizes))])
            step = self.steps.step(lambda: self._step_updates(
                op, operand_shardings, result_shardings, rule, directions.__getitem__, strategy,
                conservative), rule, directions, strategy, conservative, op,
                operand_shardings, result_shardings)
            return self._apply_step(step, op, operands, results, operand_shardings,
                                    result_shardings, set_operand, set_result, notify, result_groups)
        mesh_name = self.common_mesh_name(operand_shardings + result_shardings)
        if mesh_name is None:
            return False
        mesh = self.meshes.get(mesh_name)
        if mesh is None or mesh.is_maximal:
            # Maximal shardings stand for special ops (send, recv): Shardy
            # never propagates them to operands or users.
            return False
        projection = ShardingProjection.build(operand_shardings, result_shardings, rule, mesh)
        if rule.blocked_propagation_factors:
            # Propagation never crosses the op along a blocked factor.
            direction_along_factor = _blocking(direction_along_factor, rule.blocked_propagation_factors)
        debug = self.debug
        axes_before = debug.snapshot(projection) if debug is not None else None
        updated_operands, updated_results = strategy.propagate(
            projection, direction_along_factor, rule.factor_sizes, mesh, conservative, op)
        any_updated = False
        sizes = rule.factor_sizes
        for i in sorted(updated_operands):
            if self._update_tensor(operands[i], operand_shardings[i], set_operand, i,
                                   projection.operands[i], rule.operand_mappings[i], sizes,
                                   mesh_name, mesh, notify, True):
                any_updated = True
        for i in sorted(updated_results):
            if self._update_tensor(results[i], result_shardings[i], set_result, i,
                                   projection.results[i], rule.result_mappings[i], sizes,
                                   mesh_name, mesh, notify, result_groups):
                any_updated = True
        if debug is not None and any_updated:
            debug.record_update(op, operands, results, rule, mesh, axes_before, projection)
        if self.trace is not None:
            self.trace(op, operand_shardings, result_shardings, any_updated, lambda: (
                operands, results, [self.get(v) for v in operands], [self.get(v) for v in results]))
        return any_updated

    def _step_updates(self, op, operand_shardings, result_shardings, rule, direction_along_factor,
                      strategy, conservative) -> tuple:
        """The pure part of a step (memoized by StepMemo): the new shardings of the
        operands and results it updates, as ((index, sharding), ...) each."""
        mesh_name = self.common_mesh_name(operand_shardings + result_shardings)
        mesh = self.meshes.get(mesh_name) if mesh_name is not None else None
        if mesh is None or mesh.is_maximal:
            return (), ()  # as propagate_tensors: no common mesh, or a maximal one
        projection = ShardingProjection.build(operand_shardings, result_shardings, rule, mesh)
        if rule.blocked_propagation_factors:
            direction_along_factor = _blocking(direction_along_factor, rule.blocked_propagation_factors)
        updated_operands, updated_results = strategy.propagate(
            projection, direction_along_factor, rule.factor_sizes, mesh, conservative, op)
        sizes = rule.factor_sizes
        return (tuple((i, projection.operands[i].to_tensor_sharding(rule.operand_mappings[i], sizes,
                                                                    mesh_name, mesh))
                      for i in sorted(updated_operands)),
                tuple((i, projection.results[i].to_tensor_sharding(rule.result_mappings[i], sizes,
                                                                   mesh_name, mesh))
                      for i in sorted(updated_results)))

    def _apply_step(self, step, op, operands, results, operand_shardings, result_shardings,
                    set_operand, set_result, notify, result_groups: bool) -> bool:
        new_operands, new_results = step
        any_updated = False
        for i, new in new_operands:
            if self._set_updated(operands[i], operand_shardings[i], new, set_operand, i, notify, True):
                any_updated = True
        for i, new in new_results:
            if self._set_updated(results[i], result_shardings[i], new, set_result, i, notify,
                                 result_groups):
                any_updated = True
        if self.trace is not None:
            self.trace(op, operand_shardings, result_shardings, any_updated, lambda: (
                operands, results, [self.get(v) for v in operands], [self.get(v) for v in results]))
        return any_updated

    def _update_tensor(self, value, old, setter, index, factor_shardings, mapping, sizes,
                       mesh_name, mesh, notify, sync_group: bool) -> bool:
        new = factor_shardings.to_tensor_sharding(mapping, sizes, mesh_name, mesh)
        return self._set_updated(value, old, new, setter, index, notify, sync_group)

    def _set_updated(self, value, old, new, setter, index, notify, sync_group: bool) -> bool:
        if (old is None and new.is_fully_replicated) or new == old:
            return False  # the reference warns: strided view needed
        modified = self.shardable_value(value)
        if modified is None:
            return False  # nowhere to keep it: Shardy's setSharding does nothing
        setter(index, new)
        if notify is not None:
            self.notify_sharding_modified(modified, notify)
        if sync_group:
            self._sync_group(modified, new, notify)
        return True

    def _sync_group(self, value: ir.Value, sharding: TensorSharding, notify) -> None:
        """Give the other members of `value`'s sharding group its new sharding."""
        gid = self.group_of.get(value)
        if gid is None:
            return
        for member in self.group_members[gid]:
            if member == value:
                continue
            self.set(member, sharding)
            if notify is not None:
                self.notify_sharding_modified(member, notify)

    # ------------------------------------------------------------- notifications

    def notify_users_modified(self, value: ir.Value, notify) -> None:
        for use in value.uses:
            user = use.owner.operation
            node = self.node(user)
            if node.plain_user is None:
                # Not a terminator, a data-flow op or a call: its use is its own.
                table = self.table
                node.plain_user = (not table.is_terminator(user) and table.data_flow(user) is None
                                   and table.callee_attr(user.name) is None)
            if node.plain_user:
                notify(user)
                continue
            edge = self.dataflow.edge_of_source(use)
            if edge is not None:
                notify(edge)
            elif self.table.is_terminator(user):
                self._notify_terminator_users(user, use.operand_number, notify)
            elif self.table.callee_attr(user.name) is not None:
                # A call operand feeds the callee's argument (and its edge).
                callee = self.callee_of(user)
                if callee is not None and len(callee.regions[0].blocks):
                    self.notify_users_modified(
                        callee.regions[0].blocks[0].arguments[use.operand_number], notify)
            else:
                notify(user)

    def _notify_terminator_users(self, terminator: ir.Operation, index: int, notify) -> None:
        """A returned value feeds every call of its func (the users of the call
        result); other terminators notify their parent op."""
        parent = terminator.parent.operation
        calls = self.calls_of(parent) if parent.name == "func.func" else ()
        if not calls:
            notify(parent)
            return
        for call in calls:
            self.notify_users_modified(call.results[index], notify)

    # ------------------------------------------------------------- calls

    def _build_call_graph(self) -> None:
        self.funcs_by_name = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in self.funcs}
        self._calls: dict[str, list] = {}
        table = self.table

        # A callee's calls in the order the reference's SymbolUserMap lists
        # them (not program order): the order of a func argument edge's sources
        # and of the notifications a returned value sends to the call sites.
        for op in (op for func in self.funcs for op in ops_in_symbol_use_order(func)):
            attr = table.callee_attr(op.name)
            if attr is not None and attr in op.attributes:
                callee = ir.FlatSymbolRefAttr(op.attributes[attr]).value
                self._calls.setdefault(callee, []).append(op.operation)

    def _live_func_ops(self) -> list:
        """The ops in funcs, in pre-order (walked again once ops were erased)."""
        if self._func_ops_erasures != self.erasures:
            self._func_ops = [op for func in self.funcs for op in ops_under(func)]
            self._func_ops_erasures = self.erasures
        return self._func_ops

    def calls_of(self, func: ir.Operation) -> list:
        return self._calls.get(ir.StringAttr(func.attributes["sym_name"]).value, [])

    def callee_of(self, call: ir.Operation) -> ir.Operation | None:
        attr = call.attributes[self.table.callee_attr(call.name)]
        return self.funcs_by_name.get(ir.FlatSymbolRefAttr(attr).value)

    def notify_sharding_modified(self, value: ir.Value, notify) -> None:
        """Notify the ops a change of `value`'s sharding concerns: its owner,
        its users (through edges, terminators and calls). They depend on the
        IR's structure only, which propagation changes only by erasing ops:
        kept per value until an erasure."""
        if self._notified_erasures != self.erasures:
            self._notified.clear()
            self._notified_erasures = self.erasures
        try:
            targets = self._notified[value]
        except KeyError:
            found = []
            self._notify_sharding_modified(value, found.append)
            targets = self._notified[value] = tuple([self.node(op) for op in found])
        for node in targets:
            notify(node)

    def _notify_sharding_modified(self, value: ir.Value, notify) -> None:
        if isinstance(value, ir.OpResult):
            op = self.store.owners.get(value)
            if op is None:
                op = value.owner.operation
            if op.name == DATA_FLOW_EDGE:
                for target in self.dataflow.non_owner_targets(op):
                    self.notify_users_modified(target, notify)
            notify(op)
        else:
            notify(value.owner.owner.operation)
        self.notify_users_modified(value, notify)

    # ------------------------------------------------------------- patterns

    def _frame(self, node: OpNode):
        """(rule, operands, results) of a registered op's step, or None (no rule, or
        one that does not fit the op); propagation changes no op's operands."""
        op = node.op
        operands, results = list(op.operands), list(op.results)
        owners = self.store.owners
        for result in results:
            owners[result] = op
        key = structure_key(op, operands, results)
        if key is not None:
            # (a small integer from here on: the key's hash is not cheap)
            ids = self._structure_ids
            node.structure = ids.get(key)
            if node.structure is None:
                node.structure = ids[key] = len(ids)
        rule = self.rule_of(op, node.structure)
        if rule is not None:
            if len(rule.operand_mappings) == len(operands) and len(rule.result_mappings) == len(results):
                return (rule, operands, results)
        return None

    def propagate_registered_op(self, node: OpNode, strategy, get_direction, notify) -> bool:
        frame = node.frame
        if frame is False:
            frame = node.frame = self._frame(node)
        if frame is None:
            return False
        rule, operands, results = frame
        op = node.op
        by_heuristics = self._sweep_heuristics
        if by_heuristics is not None and by_heuristics[2] is get_direction:
            heuristics, priority, _ = by_heuristics
            kept = node.directions
            if kept is None or kept[0] is not heuristics or kept[1] != self.erasures:
                heuristics.directions_of_op(node, len(rule.factor_sizes), priority)
                kept = node.directions
            directions, any_direction = kept[2][priority], kept[3][priority]
        else:
            directions = tuple([get_direction(op, f) for f in range(len(rule.factor_sizes))])
            any_direction = any(directions)
        tracing = self.trace is not None
        if not tracing:
            if not any_direction:
                return False  # no factor may propagate: nothing can change
            # A step is a function of the shardings, the rule, the directions
            # and the strategy: if it changed nothing with these inputs before,
            # it would change nothing again (most visits are such repeats).
            clean = node.clean
            if clean is not None and clean[1] is strategy and clean[0] == directions:
                return False
        if self.debug is None and not tracing:
            changed = self._registered_step(node, rule, operands, results, directions, strategy,
                                            notify)
        else:
            operand_shardings = [self.get(v) for v in operands]
            result_shardings = [self.get(v) for v in results]
            changed = self.propagate_tensors(
                op, operands, results, operand_shardings, result_shardings,
                lambda i, s: self.set(operands[i], s), lambda i, s: self.set(results[i], s),
                rule, directions.__getitem__, strategy, self.conservative, notify)
        if not changed and not tracing:
            if not node.watched:
                if node.values is not None:
                    self._watch(node, node.values, resolved=True)
                else:
                    self._watch(node, operands + results)
            node.clean = (directions, strategy)
        return changed

    def _registered_step(self, node: OpNode, rule, operands, results, directions, strategy,
                         notify) -> bool:
        """propagate_tensors for a registered op, without debug info or trace.

        The same memoized step, keyed by small integers: the node's static part
        (rule, directions, strategy...) and the interned sharding of each of its
        values, which the store keeps per value; the step's updates carry their
        own interned form, so comparing an update with the current sharding
        is comparing two integers."""
        values = node.values
        if values is None:
            values = node.values = [self.shardable_value(v) for v in operands + results]
        store = self.store
        try:
            tokens = store.tokens
            key = [tokens[v] for v in values]  # read before and unchanged since
        except KeyError:
            key = [store.token(v) for v in values]
        if not any(key):
            return False  # no sharding on any of its values: no mesh, nothing to propagate
        keys = node.step_key
        if keys is None:
            keys = node.step_key = []
        for kept_directions, kept_strategy, static in keys:
            if kept_directions is directions and kept_strategy is strategy:
                break
        else:
            # Ops of one structure have one rule (unless a caller's rule
            # provider decides per op): they share the static part.
            shared = ((node.structure, directions, strategy)
                      if node.structure is not None and self._rules_by_structure is not None
                      else None)
            static = self._static_keys.get(shared) if shared is not None else None
            if static is None:
                static = self.steps.intern(self.steps.static_key(
                    rule, directions, strategy, self.conservative, node.op, node.structure))
                if shared is not None:
                    self._static_keys[shared] = static
            keys.append((directions, strategy, static))
        key.append(static)
        key = tuple(key)
        memo = self.steps.compiled
        step = memo.get(key)
        if step is None:
            step = self.steps.compile(key, self._registered_updates(
                node, rule, len(operands), directions, strategy))
        any_updated = False
        for index, new, new_token, replicated in step:
            old_token = key[index]
            if new_token == old_token or (old_token == 0 and replicated):
                continue
            value = values[index]
            if value is None:
                continue  # nowhere to keep it: Shardy's setSharding does nothing
            store.set(value, new)
            self.notify_sharding_modified(value, notify)
            self._sync_group(value, new, notify)  # (operands and results alike)
            any_updated = True
        return any_updated

    def _registered_updates(self, node: OpNode, rule, num_operands: int, directions,
                            strategy) -> list:
        """The step's updates as (index among operands then results, sharding)."""
        get = self.store.get
        shardings = [get(v) if v is not None else None for v in node.values]
        operand_updates, result_updates = self._step_updates(
            node.op, shardings[:num_operands], shardings[num_operands:], rule,
            directions.__getitem__, strategy, self.conservative)
        return ([(i, new) for i, new in operand_updates]
                + [(num_operands + i, new) for i, new in result_updates])

    def propagate_data_flow_edge(self, edge, strategy, get_direction, notify) -> bool:
        result = edge.results[0]
        shape = static_shape(result.type)
        if shape is None:
            return False
        sources = self.dataflow.sources(edge)
        source_shardings = [self.get(v) for v in sources]
        result_sharding = self.dataflow.transform(edge, self.edge_sharding(edge), True)
        return self.propagate_tensors(
            edge, sources, [result], source_shardings, [result_sharding],
            lambda i, s: self.set(sources[i], s),
            lambda i, s: self.set_edge_sharding(edge, self.dataflow.transform(edge, s, False)),
            identity_rule(shape, len(sources)), lambda f: get_direction(edge, f), strategy,
            False, notify)

    def propagate_barrier(self, op, direction_attr: str, strategy, notify) -> bool:
        shape = static_shape(op.results[0].type)
        if shape is None:
            return False
        direction = _barrier_direction(op.attributes[direction_attr])
        operands, results = [op.operands[0]], [op.results[0]]
        return self.propagate_tensors(
            op, operands, results, [self.get(operands[0])], [self.get(results[0])],
            lambda i, s: self.set(operands[i], s), lambda i, s: self.set(results[i], s),
            identity_rule(shape), lambda f: direction, strategy, False, notify)

    def propagate_func_data_flow_edge(self, edge, strategy, get_direction, notify) -> bool:
        """An edge on a func argument joins that operand of every call; an edge
        on a call result joins the callee's returned value."""
        result = edge.results[0]
        shape = static_shape(result.type)
        if shape is None:
            return False
        target = edge.operands[0]
        if isinstance(target, ir.BlockArgument):
            func = target.owner.owner.operation
            sources = [call.operands[target.arg_number] for call in self.calls_of(func)]
        else:
            callee = self.callee_of(target.owner.operation)
            if callee is None or not len(callee.regions[0].blocks):
                raise PropagationError(f"{target.owner.location}: the callee of a call with a "
                                       "func data-flow edge has no body")
            ret = _terminator_of(callee.regions[0].blocks[0])
            sources = [ret.operands[target.result_number]] if self.table.is_terminator(ret) else []
        if not sources:
            return False  # e.g. a func no call uses
        return self.propagate_tensors(
            edge, sources, [result], [self.get(v) for v in sources], [self.get(result)],
            lambda i, s: self.set(sources[i], s), lambda i, s: self.set(result, s),
            identity_rule(shape, len(sources)), lambda f: get_direction(edge, f), strategy,
            False, notify)

    def apply_patterns(self, node: OpNode, strategy, get_direction, notify) -> bool:
        kind = node.kind
        if kind != OpNode.REGISTERED:
            op = node.op
            if kind == OpNode.DATA_FLOW_EDGE:
                if self.propagate_data_flow_edge(op, strategy, get_direction, notify):
                    return True
            elif kind == OpNode.FUNC_EDGE:
                if self.propagate_func_data_flow_edge(op, strategy, get_direction, notify):
                    return True
            elif self.propagate_barrier(op, self.table.barrier_attr(op.name), strategy, notify):
                return True
        return self.propagate_registered_op(node, strategy, get_direction, notify)

    # ------------------------------------------------------------- func results

    def result_funcs(self) -> list[ir.Operation]:
        """The funcs whose results are tied to their return values: the reference
        does this for the module's main func only (the single func, or `@main`)."""
        if len(self.funcs) == 1:
            return self.funcs
        return [f for f in self.funcs
                if ir.StringAttr(f.attributes["sym_name"]).value == "main"]

    def propagate_func_results(self, strategy) -> None:
        if self.trace is None and self._func_results_quiet == (strategy, self.store.version):
            return  # nothing changed since it last changed nothing
        version = self.store.version
        self._propagate_func_results(strategy)
        if self.store.version == version:
            self._func_results_quiet = (strategy, version)

    def _propagate_func_results(self, strategy) -> None:
        for func in self.result_funcs():
            blocks = func.regions[0].blocks
            if len(blocks) == 0:
                continue
            ret = _terminator_of(blocks[0])
            for index, value in enumerate(ret.operands):
                shape = static_shape(value.type)
                if shape is None:
                    continue
                inputs = (strategy, self.get(value), self.get_func_result(func, index))
                key = (func, index)
                last = self._func_results_unchanged.get(key)
                if (self.trace is None and last is not None
                        and all(a is b for a, b in zip(last, inputs))):
                    continue  # the same step changed nothing before
                changed = self.propagate_tensors(
                    func, [value], [value], [inputs[1]], [inputs[2]],
                    lambda i, s, v=value: self.set(v, s),
                    lambda i, s, f=func, r=index: self.set_func_result(f, r, s),
                    identity_rule(shape), propagate_any_factor, strategy, False, None,
                    # The reference syncs the returned value's sharding group
                    # when the value changes, not when the func result does.
                    result_groups=False)
                if changed:
                    self._func_results_unchanged.pop(key, None)
                else:
                    self._func_results_unchanged[key] = inputs

    # ------------------------------------------------------------- the rewrite driver

    def run_to_fixed_point(self, strategy, get_direction) -> None:
        """Every op once, in program order, then every op a step notified about
        (the users of a value whose sharding changed, and their ancestors) until
        the worklist is empty. The op being propagated is not re-queued by its
        own step, and there is no second sweep over all ops: with one, a
        `dot_general %x, %x` (one value as both operands) would gain axes the
        reference never gives it (found by random differential testing; no
        case among ~3,600 random modules and the real models needs a second sweep).
        """
        worklist = Worklist(self._preorder_nodes()[::-1])
        current = None
        # Directions from the op-priority heuristics are read off each node
        # (see propagate_registered_op): (heuristics, priority, get_direction).
        by_heuristics = getattr(get_direction, "heuristic_directions", None)
        self._sweep_heuristics = by_heuristics + (get_direction,) if by_heuristics else None

        def notify(node):
            if node is not current:
                self._push_with_ancestors(worklist, node)

        pop = worklist.pop
        while True:
            node = pop()
            if node is None:
                break
            if node.live_at != self.erasures:
                # Only erasing an op takes uses away: an op seen alive since
                # the last erasure still is.
                if self._is_trivially_dead(node.op):
                    self._erase(node.op, worklist)
                    continue
                node.live_at = self.erasures
            current = node
            self.apply_patterns(node, strategy, get_direction, notify)

    def _preorder_nodes(self) -> list[OpNode]:
        """The module's ops (not the module) in pre-order, as nodes; walked once,
        then only erased ops leave it."""
        if self._order is None:
            ops = self._module_ops if self.erasures == 0 else ops_under(self.module)[1:]
            self._order = [self.node(op) for op in ops]
        elif self._order_erasures != self.erasures:
            self._order = [node for node in self._order if not node.erased]
        self._order_erasures = self.erasures
        return self._order

    def _push_with_ancestors(self, worklist: Worklist, node: OpNode) -> None:
        chain = node.chain  # (an op's ancestors stay while it lives)
        if chain is None:
            chain = [node]
            parent = node.op.parent
            while parent is not None:
                parent = parent.operation
                if parent == self.module:
                    break
                chain.append(self.node(parent))
                parent = parent.parent
            chain = node.chain = tuple(chain)
        push = worklist.push
        for ancestor in chain:
            push(ancestor)

    def _is_trivially_dead(self, op: ir.Operation) -> bool:
        for result in op.results:
            if next(iter(result.uses), None) is not None:
                return False
        if self.table.is_terminator(op):
            return False
        return self.table.is_erasable(op)

    def _erase(self, op: ir.Operation, worklist: Worklist) -> None:
        nested = []

        def visit(inner):
            nested.append(inner.operation)
            return ir.WalkResult.ADVANCE

        op.walk(visit, ir.WalkOrder.POST_ORDER)
        erased = set(nested)
        for inner in nested:
            self._push_operand_definers(inner, worklist, erased)
        for inner in nested:
            node = self._nodes.get(inner)
            if node is not None:
                worklist.remove(node)
                node.erased = True
            self._forget(inner)
        op.erase()
        self.erasures += 1
        if any(self.table.edge_kind(inner.name) is not None for inner in nested):
            # Where a value's sharding lives moved (an erased edge): watch anew.
            self._watchers.clear()
            for node in self._nodes.values():
                node.clean, node.watched, node.values = None, False, None

    def _push_operand_definers(self, op: ir.Operation, worklist: Worklist, erased) -> None:
        for operand in op.operands:
            if not isinstance(operand, ir.OpResult) or operand.owner.operation in erased:
                continue
            other_user = None
            more = False
            for use in operand.uses:
                user = use.owner.operation
                if user == op or (other_user is not None and user == other_user):
                    continue
                if other_user is None:
                    other_user = user
                    continue
                more = True
                break
            if not more:
                self._push_with_ancestors(worklist, self.node(operand.owner.operation))

    def _forget(self, op: ir.Operation) -> None:
        if self.debug is not None:
            self.debug.forget(op)
        self.store.forget(op)
        self._rule_attached.pop(op, None)
        self._nodes.pop(op, None)

    # ------------------------------------------------------------- user priorities

    def sharding_refs(self) -> list[tuple[tuple, TensorSharding]]:
        """Every (reference, sharding) the user-priority pass re-initializes
        (Shardy's sharding walker): func arguments and results, and every
        value that keeps a sharding, except data-flow edge targets that have
        an edge (the edge's own sharding is walked instead)."""
        refs = []
        for func in self.funcs:
            ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
            for i in range(len(ftype.results)):
                s = self.get_func_result(func, i)
                if s is not None:
                    refs.append((("res", func, i), s))
        store, dataflow, table = self.store, self.dataflow, self.table
        values = []

        for op in self._live_func_ops():
            op = op.operation
            if len(op.regions) and dataflow.is_shardable_block_arg_owner(op):
                blocks = op.regions[0].blocks
                if len(blocks):
                    values.extend(blocks[0].arguments)
            decl = table.result_slot(op.name)
            if decl is not None and store.may_hold(op, decl.attr):
                values.extend(op.results)
        for value in values:
            if store.locate(value) is None or dataflow.edge_of_target(value) is not None:
                continue
            s = store.get(value)
            if s is not None:
                refs.append((("value", value), s))
        return refs

    def get_ref(self, ref) -> TensorSharding | None:
        if ref[0] == "res":
            return self.get_func_result(ref[1], ref[2])
        return self.store.get(ref[1])

    def set_ref(self, ref, sharding: TensorSharding) -> None:
        if ref[0] == "res":
            self.set_func_result(ref[1], ref[2], sharding)
        else:
            self.store.set(ref[1], sharding)


def _blocking(direction_along_factor, blocked) -> Callable:
    blocked = frozenset(blocked)
    return lambda factor: Direction.NONE if factor in blocked else direction_along_factor(factor)


def _barrier_direction(attr) -> Direction:
    """`allowed_direction` is stored as the enum's integer (NONE=0 ... BOTH=3)."""
    if isinstance(attr, ir.IntegerAttr):
        return Direction(attr.value)
    return Direction.parse(re.search(r"(NONE|FORWARD|BACKWARD|BOTH)", str(attr)).group(1))


def propagate_any_factor(factor: int) -> Direction:
    return Direction.BOTH


def sdy_rule_is_custom(attr) -> bool:
    from jaxlib.mlir.dialects import sdy
    return bool(sdy.OpShardingRuleAttr(attr).is_custom)


def _terminator_of(block) -> ir.Operation:
    ops = block.operations
    return ops[len(ops) - 1].operation


# ================================================================= the nested levels


def basic_propagate(engine: PropagationEngine, strategy: BasicFactorPropagation = BASIC,
                    get_direction: GetDirection = propagate_any) -> None:
    """The innermost level: func results, the worklist to a fixed point, func results."""
    engine.propagate_func_results(strategy)
    engine.run_to_fixed_point(strategy, get_direction)
    engine.propagate_func_results(strategy)


FACTOR_STRATEGIES = {"basic": BASIC, "aggressive": AGGRESSIVE}
PROPAGATION_STRATEGIES = {
    "aggressive": (AGGRESSIVE,),
    "basic": (BASIC,),
    "basic-then-aggressive": (BASIC, AGGRESSIVE),
}


def aggressive_propagate(engine: PropagationEngine, get_direction: GetDirection = propagate_any,
                         propagation_strategy: str = "aggressive") -> None:
    for strategy in PROPAGATION_STRATEGIES[propagation_strategy]:
        basic_propagate(engine, strategy, get_direction)


class HeuristicDirections:
    """The op-priority heuristics' directions of each (op, factor).

    The heuristics look at the op's kind, rule and uses, which propagation
    does not change (only erasing a dead op does), so each (op, factor) is
    evaluated once for all priorities: the running union of heuristics 0..p
    is kept per priority p. Forgotten when an op is erased.
    """

    def __init__(self, engine: PropagationEngine, heuristics: Sequence[Heuristic]):
        self.engine = engine
        self.heuristics = list(heuristics)
        # Rule-file heuristics see a factor only as pass-through or not: their unions
        # are asked once per op for each kind, not once per factor.
        self.by_factor_kind = all(h.by_factor_kind for h in self.heuristics)
        self.cache: dict = {}
        # (structure key, multi-use operand) -> per priority, the tuple of its factors' directions
        self.by_structure: dict = {}
        self.erasures = engine.erasures

    def _forget_if_erased(self) -> None:
        if self.erasures != self.engine.erasures:
            self.cache.clear()
            self.erasures = self.engine.erasures

    def unions(self, op, factor: int) -> list[Direction]:
        self._forget_if_erased()
        per_factor = self.cache.get(op)
        if per_factor is None:
            per_factor = self.cache[op] = {}
        unions = per_factor.get(factor)
        if unions is None:
            view = per_factor.get("view")  # one per op: its facts are asked once
            if view is None:
                view = per_factor["view"] = HeuristicOp(op.name, op, self.engine.attached_rule(op))
            kind = ("kind", is_pass_through_factor(view, factor)) if self.by_factor_kind else None
            unions = per_factor.get(kind) if kind is not None else None
            if unions is None:
                acc, unions = Direction.NONE, []
                for heuristic in self.heuristics:
                    acc = union_directions(acc, heuristic(view, factor))
                    unions.append(acc)
                if kind is not None:
                    per_factor[kind] = unions
            per_factor[factor] = unions
        return unions

    def directions_of_op(self, node: OpNode, num_factors: int, priority: int) -> tuple:
        """The node's factors' directions at `priority` (kept on the node)."""
        kept = node.directions
        if kept is not None and kept[0] is self and kept[1] == self.engine.erasures:
            return kept[2][priority]  # (uses, which a heuristic may ask about, fall with erasures)
        op = node.op
        key = None
        if self.by_factor_kind:
            # Rule-file heuristics see the op's structure (name, attributes,
            # rule) and whether an operand has other uses: ops alike share them.
            structure = node.structure
            if structure is not None:
                frame = node.frame
                key = (structure, has_multi_use(frame[1] if frame else op.operands))
        per_priority = self.by_structure.get(key) if key is not None else None
        if per_priority is None:
            unions = [self.unions(op, f) for f in range(num_factors)]
            per_priority = [tuple(u[p] for u in unions) for p in range(len(self.heuristics))]
            if key is not None:
                self.by_structure[key] = per_priority
        node.directions = (self, self.engine.erasures, per_priority,
                           [any(directions) for directions in per_priority])
        return per_priority[priority]

    def at_priority(self, priority: int, get_direction: GetDirection) -> GetDirection:
        def direction(op, factor: int) -> Direction:
            return intersect_directions(self.unions(op, factor)[priority], get_direction(op, factor))
        if get_direction is propagate_any:
            # Nothing to intersect with: a step asks for all its factors at once
            # (see PropagationEngine.propagate_registered_op).
            direction.heuristic_directions = (self, priority)
        return direction


def _initialized_for_priorities(sharding: TensorSharding, mesh: Mesh) -> TensorSharding:
    dims, replicated = [], list(sharding.replicated)
    for dim in sharding.dims:
        if (dim.priority or 0) == 0:
            dims.append(DimSharding(dim.axes, dim.is_closed))
        else:
            replicated.extend(dim.axes)
            dims.append(DimSharding((), True))
    replicated.sort(key=lambda a: a.sort_key(mesh))
    return TensorSharding(sharding.mesh_name, tuple(dims), tuple(replicated),
                          sharding.unreduced, sharding.inline_mesh)


def _updated_for_priority(current: TensorSharding, original: TensorSharding,
                          priority: int) -> TensorSharding:
    dims = list(current.dims)
    seen = set()
    for i, original_dim in enumerate(original.dims):
        if (original_dim.priority or 0) == priority:
            dims[i] = DimSharding(original_dim.axes, original_dim.is_closed)
            seen.update(original_dim.axes)
    replicated = tuple(a for a in current.replicated if a not in seen)
    return TensorSharding(current.mesh_name, tuple(dims), replicated, current.unreduced,
                          current.inline_mesh)


# ================================================================= schedules as data


class Schedule:
    """A propagation pass's place in the hierarchy, as its rule file declares it
    (`params: {schedule: [...]}`): levels, outermost first, each running the
    rest of the schedule once per step of its own, down to the factor
    strategies, each a fixed-point run:

        schedule:
          - user-priorities          # per user priority p0, p1, ...
          - op-priorities            # per op-priority heuristic (or {enabled-by: OPTION})
          - strategies: [basic, aggressive]   # or {option: OPTION}
    """

    LEVELS = ("user-priorities", "op-priorities")

    def __init__(self, levels: Sequence[str], strategies: Sequence[BasicFactorPropagation]):
        self.levels = tuple(levels)
        self.strategies = tuple(strategies)

    @classmethod
    def from_params(cls, entries, options: dict, loc=None) -> "Schedule":
        """Read a schedule from rule-file data; errors point at the entry."""
        def error(where, message):
            where = where if where is not None else loc
            return where.error(message) if where is not None else ValueError(message)

        if not isinstance(entries, list) or not entries:
            raise error(loc, "'schedule' is a non-empty list of levels ending with 'strategies'")
        locs = getattr(entries, "item_locs", [None] * len(entries))
        levels, strategies = [], None
        for entry, eloc in zip(entries, locs):
            if strategies is not None:
                raise error(eloc, "'strategies' must be the last (innermost) level")
            if isinstance(entry, str):
                name, settings = entry, {}
            elif isinstance(entry, dict) and len(entry) == 1:
                (name, settings), = entry.items()
            else:
                raise error(eloc, "a level is a name or {name: settings}")
            if name == "strategies":
                if isinstance(settings, dict) and set(settings) == {"option"}:
                    option = str(settings["option"])
                    if option not in options:
                        raise error(eloc, f"'strategies' reads option '{option}', which the pass does not have")
                    names = PROPAGATION_STRATEGIES.get(options[option])
                    if names is None:
                        raise error(eloc, f"unknown propagation strategy '{options[option]}'")
                    strategies = names
                elif isinstance(settings, list) and settings:
                    found = []
                    for s in settings:
                        if s not in FACTOR_STRATEGIES:
                            raise error(eloc, f"unknown factor strategy '{s}' (expected one of: "
                                        + ", ".join(FACTOR_STRATEGIES) + ")")
                        found.append(FACTOR_STRATEGIES[s])
                    strategies = tuple(found)
                else:
                    raise error(eloc, "'strategies' is a list (e.g. [basic, aggressive]) or {option: NAME}")
                continue
            if name not in cls.LEVELS:
                raise error(eloc, f"unknown schedule level '{name}' (expected one of: "
                            + ", ".join(cls.LEVELS + ("strategies",)) + ")")
            if settings:
                if not isinstance(settings, dict) or set(settings) != {"enabled-by"}:
                    raise error(eloc, f"'{name}' takes {{enabled-by: OPTION}}")
                option = str(settings["enabled-by"])
                if option not in options:
                    raise error(eloc, f"'{name}' is enabled by option '{option}', which the pass does not have")
                if not options[option]:
                    continue
            levels.append(name)
        if strategies is None:
            raise error(loc, "the schedule needs a last level 'strategies'")
        return cls(levels, strategies)

    def run(self, engine: PropagationEngine, heuristics: Sequence[Heuristic] | None = None) -> None:
        def innermost(get_direction):
            for strategy in self.strategies:
                basic_propagate(engine, strategy, get_direction)

        run = innermost
        for level in reversed(self.levels):
            run = _LEVEL_RUNNERS[level](engine, run, heuristics)
        run(propagate_any)


def _op_priorities(engine, inner, heuristics):
    def run(get_direction):
        directions = HeuristicDirections(engine, default_heuristics() if heuristics is None else heuristics)
        for priority in range(len(directions.heuristics)):
            inner(directions.at_priority(priority, get_direction))
    return run


def _user_priorities(engine, inner, heuristics):
    def run(get_direction):
        per_priority: dict[int, list] = {}
        for ref, sharding in engine.sharding_refs():
            priorities = {d.priority for d in sharding.dims if (d.priority or 0) > 0}
            for p in priorities:
                per_priority.setdefault(p, []).append((ref, sharding))
            engine.set_ref(ref, _initialized_for_priorities(sharding, engine.mesh(sharding)))
        inner(get_direction)
        for priority in sorted(per_priority):
            for ref, original in per_priority[priority]:
                engine.set_ref(ref, _updated_for_priority(engine.get_ref(ref), original, priority))
            inner(get_direction)
    return run


_LEVEL_RUNNERS = {"op-priorities": _op_priorities, "user-priorities": _user_priorities}


def op_priority_propagate(engine: PropagationEngine, heuristics: Sequence[Heuristic] | None = None,
                          run_op_priority_propagation: bool = True,
                          propagation_strategy: str = "aggressive") -> None:
    named_schedule("op-priority", run_op_priority_propagation,
                   propagation_strategy).run(engine, heuristics)


def user_priority_propagate(engine: PropagationEngine, heuristics: Sequence[Heuristic] | None = None,
                            run_op_priority_propagation: bool = True,
                            propagation_strategy: str = "aggressive") -> None:
    named_schedule("user-priority", run_op_priority_propagation,
                   propagation_strategy).run(engine, heuristics)

# The reference passes' schedules, for callers outside a rule file.
NAMED_SCHEDULES = {
    "basic": ([], ("basic",)),
    "aggressive": ([], None),
    "op-priority": (["op-priorities"], None),
    "user-priority": (["user-priorities", "op-priorities"], None),
}


# ================================================================= entry point

STRATEGIES = tuple(NAMED_SCHEDULES)


def _check_shapes(ops) -> None:
    """Every result a ranked, statically shaped tensor (or not shaped), none a tuple."""
    for op in ops:
        for result in op.results:
            t = result.type
            if isinstance(t, ir.ShapedType) and not t.has_static_shape:
                raise PropagationError(f"{op.location}: Shardy propagation only supports ranked "
                                       f"tensors with a static shape. type: {t}")
            if isinstance(t, ir.TupleType):
                raise PropagationError(f"{op.location}: Shardy propagation doesn't support "
                                       f"tuples: {t}")


def named_schedule(name: str, run_op_priority_propagation: bool = True,
                   propagation_strategy: str = "aggressive") -> Schedule:
    if name not in NAMED_SCHEDULES:
        raise ValueError(f"unknown propagation strategy '{name}'; expected one of {STRATEGIES}")
    levels, strategies = NAMED_SCHEDULES[name]
    levels = [lv for lv in levels if lv != "op-priorities" or run_op_priority_propagation]
    return Schedule(levels, [FACTOR_STRATEGIES[s] for s in strategies] if strategies
                    else PROPAGATION_STRATEGIES[propagation_strategy])


def propagate(module_op, strategy: "str | Schedule" = "user-priority", *, conservative: bool = False,
              keep_sharding_rules: bool = False, heuristics: Sequence[Heuristic] | None = None,
              debug_sharding_origins: bool = False, debug_propagation_edge_sharding: bool = False,
              trace: Callable | None = None, rule_provider: RuleProvider | None = None,
              dataflow: DataFlowEdges | None = None, run_op_priority_propagation: bool = True,
              propagation_strategy: str = "aggressive", registry=None) -> None:
    """Run a propagation schedule on `module_op` (mutated in place).

    strategy: a Schedule (as a pass's rule file declares it), or the name of
    a reference pass's: "basic" | "aggressive" | "op-priority" | "user-priority".
    heuristics: op-priority heuristics (default: the built-in rule file's).
    rule_provider(op, conservative) -> OpShardingRule | None; default: the registry.
    registry: the op registry (default: the running pass's).
    trace(op, operand_shardings, result_shardings, updated): called after each step.
    debug_sharding_origins / debug_propagation_edge_sharding: save where each axis
    came from / the steps that moved it (see sdy_dsl/runtime/debug_info.py).
    """
    schedule = strategy if isinstance(strategy, Schedule) else named_schedule(
        strategy, run_op_priority_propagation, propagation_strategy)
    module = operation(module_op)
    engine = PropagationEngine(module, rule_provider=rule_provider, dataflow=dataflow,
                               conservative=conservative, trace=trace, registry=registry)
    _check_shapes([module] + engine._module_ops)
    if engine.sync_sharding_groups():
        # Constraints were inserted: rebuild the engine's view of the IR.
        engine.flush()
        engine = PropagationEngine(module, rule_provider=rule_provider, dataflow=dataflow,
                                   conservative=conservative, trace=trace, registry=registry)
    if debug_sharding_origins or debug_propagation_edge_sharding:
        from ..debug_info import ShardingDebugInfo
        engine.debug = ShardingDebugInfo(debug_sharding_origins, debug_propagation_edge_sharding,
                                         shardable_value=engine.shardable_value,
                                         sharding_of=engine.get)
        engine.debug.seed_origins(module)
    schedule.run(engine, heuristics)
    engine.flush()
    engine.finish_rules(keep_sharding_rules)
    if engine.debug is not None:
        engine.debug.save(module)
