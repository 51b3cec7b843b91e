"""What propagation knows about one module while it runs: the meshes, the
shardings (read once into a buffered ShardingStore, written back by `flush`),
where each value keeps its sharding (Shardy's getShardableValue /
data-flow edge owners), each op's sharding rule (getOrCreateShardingRule),
and which ops a sharding change notifies (basic_propagation.cc's
notifyUsersModified / notifyShardingModified).

The step, the patterns and the rewrite driver build on it
(rewrite_driver.py, basic_propagation.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..op_sharding_rule import SHARDING_RULE_ATTR, OpShardingRule
from ..sharding import Mesh, TensorSharding, codec
from ..sharding_store import ShardingStore
from ..values import operation, ops_under, structure_key
from .call_graph import CallGraph
from .dataflow import DATA_FLOW_EDGE, DataFlowEdges
from .sharding_group_map import GROUP_OP, ShardingGroupMap
from .step_memo import StepMemo
from .worklist import OpNode

if TYPE_CHECKING:
    from ..debug_info import ShardingDebugInfo

RuleProvider = Callable[[ir.Operation, bool], "OpShardingRule | None"]

_NOT_FOUND = object()


class PropagationError(Exception):
    pass


class PropagationState:
    """The sharding state of one module while propagating (see the module doc)."""

    def __init__(self, module_op, registry, *, rule_provider: RuleProvider | None = None,
                 dataflow: DataFlowEdges | None = None, conservative: bool = False,
                 trace: Callable | None = None):
        self.module = operation(module_op)
        self.registry = registry  # the op facts of the run (an OpRegistry)
        self.table = self.registry.interfaces
        self.erasures = 0  # dead ops erased so far (caches of IR structure check it)
        self._nodes: dict = {}  # op -> OpNode
        self._name_facts: dict = {}  # op name -> facts of its ops (see name_facts)
        self._sweep_heuristics = None  # see run_to_fixed_point
        self._func_results_unchanged: dict = {}  # (func, index) -> inputs of a step that changed nothing
        self._func_results_quiet = None  # (strategy, store version) of a run that changed nothing
        self._returned = None  # the main funcs' returned values (see _returned_values)
        self._notified: dict = {}  # value -> the ops a change of its sharding notifies
        self._notified_erasures = 0
        self._order = None  # the ops' nodes in pre-order (see _preorder_nodes)
        self._order_erasures = 0
        self._watchers: dict = {}  # shardable value -> the OpNodes whose step reads it
        self._structure_ids: dict = {}  # structure key -> a small integer (see values.structure_key)
        self._rules_by_structure: dict = {}  # structure id -> rule
        self._static_keys: dict = {}  # (structure id, directions, strategy) -> static step key
        self._edges_alike: dict = {}  # (an edge's rule, its view change) -> its EdgeStep.alike
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
        self._module_names: list[str] = []  # each op's name, read once
        self._func_op_names: list[str] = []
        for op in body.operations:
            op = op.operation
            nested = ops_under(op)
            names = [nested_op.name for nested_op in nested]
            self._module_ops.extend(nested)
            self._module_names.extend(names)
            if op.name == "sdy.mesh":
                name = ir.StringAttr(op.attributes["sym_name"]).value
                self.meshes[name] = codec.mesh(op.attributes["mesh"])
            elif op.name == "func.func":
                self.funcs.append(op)
                self._func_ops.extend(nested)
                self._func_op_names.extend(names)
        # Shardings are read once and kept in memory while propagating, then
        # written back once (flush).
        self.store = ShardingStore(self.table, buffered=True)
        self.store.on_change = self._sharding_changed
        # Rules: op -> rule (None when the op has none); `_rule_attached` are
        # the ops that carry (or will carry) a sdy.sharding_rule attribute.
        self._rule_attached: dict[ir.Operation, OpShardingRule] = {}
        names_present = set(self._module_names)
        self.groups = ShardingGroupMap([op for op, name in zip(self._module_ops, self._module_names)
                                        if name == GROUP_OP] if GROUP_OP in names_present else ())
        self.group_of = self.groups.group_of  # (read on every update)
        # (the names of the module's ops: no call among them, no call walk)
        self.calls = CallGraph(self.funcs, self.table, names_present)
        self.steps = StepMemo(self.table.is_elementwise)  # the algebra of each distinct step, done once
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

    def shardable_results(self, results) -> None:
        """The results of an op that has no data-flow edges keep their own shardings."""
        if self._shardable_erasures != self.erasures:
            self._shardable.clear()
            self._shardable_erasures = self.erasures
        shardable = self._shardable
        for result in results:
            shardable[result] = result

    def shardable_values(self, values) -> tuple:
        shardable = self.shardable_value
        return tuple([shardable(v) for v in values])

    def edges_alike(self, rule: OpShardingRule, transform) -> tuple:
        """What data-flow edges of one (identity) rule and view change (a
        dataflow.EdgeTransform or None) share (EdgeStep.alike): their steps'
        static keys, as ops of one structure do (edge ops are elementwise or not alike)."""
        return self._edges_alike.setdefault((rule, transform), ("edge", len(self._edges_alike)))

    def find_structure(self, node: OpNode, operands, results, attrs=None) -> None:
        """node.structure: the id of its op's structure key, if it has one
        (`attrs`: the op's attributes, if the caller has them)."""
        if node.structure is not None:
            return
        op = node.op
        has_regions = len(op.regions) != 0
        if has_regions and self.table.data_flow(op) is not None:
            return  # (a data-flow op's body is its own: no other op shares it)
        key = structure_key(op, operands, results, name=node.name, attrs=attrs,
                            has_regions=has_regions)
        if key is not None:
            # (a small integer from here on: the key's hash is not cheap)
            ids = self._structure_ids
            node.structure = ids.get(key)
            if node.structure is None:
                node.structure = ids[key] = len(ids)

    def _find_shardable_value(self, value: ir.Value) -> ir.Value | None:
        if isinstance(value, ir.OpResult):
            edge = self.dataflow.edge_of_target(value, self.store.owners.get(value))
            return edge.results[0] if edge is not None else value
        parent = value.owner.owner
        if parent is None:
            return None
        parent = parent.operation
        if self.table.data_flow(parent) is not None:
            edge = self.dataflow.edge_of_target(value, parent)
            if edge is not None:
                return edge.results[0]
            # Shardy's getEdgeOwnerFromTarget: a while body argument stands
            # for the while result even without data-flow edges.
            return self.dataflow.edge_owner_from_target(value, parent)
        # (no data-flow op owns it: no edge either)
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

    def release(self) -> None:
        """The pass is done: drop what refers back to the engine (the store's
        change hook, the nodes and the heuristic directions they keep, the
        debug info's readers), so reference counting frees the engine and all
        it kept at once (the CLI collects cycles rarely)."""
        self.store.on_change = None
        self._nodes.clear()
        self._order = None
        self._watchers.clear()
        self._sweep_heuristics = None
        self.debug = None

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
        node = self._nodes[op] = OpNode(op, self.name_facts(name)[0], name)
        return node

    def name_facts(self, name: str) -> tuple:
        """(OpNode kind, whether an op of this name may have data-flow edges,
        whether the rule provider surely gives it no rule but its own attribute,
        whether it is surely no terminator, data-flow op or call)."""
        try:
            return self._name_facts[name]
        except KeyError:
            pass
        never_rule = (self._rules_by_structure is not None
                      and self.registry.sharding_rules.never_has_rule(name))
        decl = self.table.of(name)
        may_flow = bool(decl.data_flow)
        # A use by such an op notifies just the op (see notify_users_modified).
        plain_user = (not may_flow and "terminator" not in decl.traits
                      and self.table.callee_attr(name) is None)
        facts = self._name_facts[name] = (self._node_kind(name), may_flow, never_rule, plain_user)
        return facts

    def _node_kind(self, name: str) -> int:
        edge_kind = self.table.edge_kind(name)
        if edge_kind == "data-flow":
            return OpNode.DATA_FLOW_EDGE
        if edge_kind == "func-call":
            return OpNode.FUNC_EDGE
        if self.table.barrier_attr(name) is not None:
            return OpNode.BARRIER
        return OpNode.REGISTERED

    # ------------------------------------------------------------- rules

    def rule_of(self, op: ir.Operation, structure=None, attrs=None) -> OpShardingRule | None:
        """getOrCreateShardingRule: the op's own attribute, or the registry's (attached).
        `structure`: the id of the op's structure key, if it has one (see values.structure_key);
        `attrs`: the op's attributes, if the caller has them."""
        if attrs is None:
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
            encoded: dict = {}  # id(rule) -> its attribute (ops alike share one rule)
            for op, rule in list(self._rule_attached.items()):
                attrs = op.attributes
                if SHARDING_RULE_ATTR not in attrs:
                    attr = encoded.get(id(rule))
                    if attr is None:
                        attr = encoded[id(rule)] = rule.to_attr(op.context)
                    attrs[SHARDING_RULE_ATTR] = attr
            return

        # Without `keep`, propagation adds no rule: the ops that carry one
        # carried it at the start.
        ops = self._module_ops if self.erasures == 0 else ops_under(self.module)
        for op in ops:
            attrs = op.attributes
            if SHARDING_RULE_ATTR in attrs:
                if not sdy.OpShardingRuleAttr(attrs[SHARDING_RULE_ATTR]).is_custom:
                    del attrs[SHARDING_RULE_ATTR]

    # ------------------------------------------------------------- notifications

    def notify_users_modified(self, value: ir.Value, notify) -> None:
        """notify(node) for each op a change of `value`'s sharding concerns as its user."""
        nodes = self._nodes
        for use in value.uses:
            user = use.owner.operation
            node = nodes.get(user)
            if node is None:
                node = self.node(user)
            if node.plain_user is None:
                # Not a terminator, a data-flow op or a call: its use is its own.
                table = self.table
                node.plain_user = self.name_facts(node.name)[3] or (
                    not table.is_terminator(user) and table.data_flow(user) is None
                    and table.callee_attr(user.name) is None)
            if node.plain_user:
                notify(node)
                continue
            edge = self.dataflow.edge_of_source(use)
            if edge is not None:
                notify(self.node(edge))
            elif self.table.is_terminator(user):
                self._notify_terminator_users(user, use.operand_number, notify)
            elif self.table.callee_attr(user.name) is not None:
                # A call operand feeds the callee's argument (and its edge).
                callee = self.calls.callee_of(user)
                if callee is not None and len(callee.regions[0].blocks):
                    self.notify_users_modified(
                        callee.regions[0].blocks[0].arguments[use.operand_number], notify)
            else:
                notify(node)

    def _notify_terminator_users(self, terminator: ir.Operation, index: int, notify) -> None:
        """A returned value feeds every call of its func (the users of the call
        result); other terminators notify their parent op."""
        parent = terminator.parent.operation
        calls = self.calls.calls_of(parent) if parent.name == "func.func" else ()
        if not calls:
            notify(self.node(parent))
            return
        for call in calls:
            self.notify_users_modified(call.results[index], notify)

    def live_func_ops_named(self) -> Iterable[tuple[ir.Operation, str]]:
        """(op, its name) for the ops in funcs, in pre-order (walked again once ops were erased)."""
        if self._func_ops_erasures != self.erasures:
            self._func_ops = [op for func in self.funcs for op in ops_under(func)]
            self._func_op_names = [op.name for op in self._func_ops]
            self._func_ops_erasures = self.erasures
        return zip(self._func_ops, self._func_op_names)

    def notify_sharding_modified(self, value: ir.Value, notify) -> None:
        """notify(node) for each op a change of `value`'s sharding concerns: its
        owner, its users (through edges, terminators and calls). They depend on
        the IR's structure only, which propagation changes only by erasing ops:
        kept per value until an erasure."""
        if self._notified_erasures != self.erasures:
            self._notified.clear()
            self._notified_erasures = self.erasures
        targets = self._notified.get(value)
        if targets is None:  # (most values change once: no exception to catch)
            found = []
            self._notify_sharding_modified(value, found.append)
            targets = self._notified[value] = tuple(found)
        for node in targets:
            notify(node)

    def _notify_sharding_modified(self, value: ir.Value, notify) -> None:
        if isinstance(value, ir.OpResult):
            op = self.store.owners.get(value)
            if op is None:
                op = value.owner.operation
            node = self.node(op)
            if node.name == DATA_FLOW_EDGE:
                step = node.edge  # (its owner, if its step was built)
                for target in self.dataflow.non_owner_targets(op, step.owner if step else None):
                    self.notify_users_modified(target, notify)
            notify(node)
        else:
            notify(self.node(value.owner.owner.operation))
        self.notify_users_modified(value, notify)
