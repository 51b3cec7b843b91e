"""Basic propagation (Shardy's basic_propagation.cc): the propagation step
(`propagate_tensors`, one for every caller) and the patterns the rewrite
driver applies to each op:

- a registered op: its sharding rule (op_sharding_rules.yaml or its own
  `sdy.sharding_rule`), the factor strategy, directions from the level above;
- an `sdy.data_flow_edge`: its sources and its owner, an identity rule;
- a func data-flow edge: every call's operand / the callee's returned value;
- a propagation barrier: one direction only;
- the main func's results and returned values (before and after each run).

`basic_propagate` is the innermost level of every schedule: func results,
the worklist to a fixed point (rewrite_driver.py), func results.
"""
from __future__ import annotations

import functools
import re
from typing import Callable, Sequence

from jaxlib.mlir import ir

from ..op_sharding_rule import SHARDING_RULE_ATTR, OpShardingRule
from ..sharding import TensorSharding
from ..values import block_terminator, tensor_type
from .basic_factor_propagation import BASIC, BasicFactorPropagation
from .factor_propagation import Direction
from ..sharding_projection import ShardingProjection
from .dataflow import EdgeOwner, EdgeTransform
from .propagation_state import PropagationError
from .rewrite_driver import RewriteDriver
from .worklist import EdgeStep, OpNode

GetDirection = Callable[[ir.Operation, int], Direction]
_NOT_KEPT = object()  # (see through_owner_update)


def propagate_any(op, factor: int) -> Direction:
    return Direction.BOTH


def propagate_any_factor(factor: int) -> Direction:
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


def through_owner_update(through: EdgeTransform, stored, seen, new):
    """What an update `new` of an edge seen as `seen` (stored as `stored`)
    writes back (None: nothing, as _set_updated decides in the owner's view);
    _NOT_KEPT when it writes back the stored sharding though the view
    changed (the unmemoized step still reports and notifies that one)."""
    if (seen is None and new.is_fully_replicated) or new == seen:
        return None
    written = through(new, False)
    return _NOT_KEPT if written == stored else written


class PropagationEngine(RewriteDriver):
    """The propagation step and the patterns, over the module's sharding state."""

    def propagate_tensors(self, op: ir.Operation, operands: Sequence[ir.Value],
                          results: Sequence[ir.Value], operand_shardings: list,
                          result_shardings: list, set_operand, set_result, rule,
                          direction_along_factor, strategy: BasicFactorPropagation,
                          conservative: bool, notify, result_groups: bool = True) -> bool:
        """Shardy's propagateTensorShardings: one step of `op` (its tensors'
        shardings projected on the rule's factors, the factor strategy, the
        updated tensors written back), memoized when no debug info is kept."""
        directions = tuple([direction_along_factor(f) for f in range(len(rule.factor_sizes))])
        debug = self.debug
        if debug is None:
            step = self.steps.step(lambda: self.step_updates(
                op, operand_shardings, result_shardings, rule, directions, strategy,
                conservative), rule, directions, strategy, conservative, op,
                operand_shardings, result_shardings)
        else:
            step = self.step_updates(op, operand_shardings, result_shardings, rule, directions,
                                     strategy, conservative, observe=debug.snapshot)
        new_operands, new_results = step[0], step[1]
        any_updated = False
        for i, new in new_operands:
            if self._set_updated(operands[i], operand_shardings[i], new, set_operand, i, notify, True):
                any_updated = True
        for i, new in new_results:
            if self._set_updated(results[i], result_shardings[i], new, set_result, i, notify,
                                 result_groups):
                any_updated = True
        if debug is not None and any_updated:
            debug.record_update(op, operands, results, rule, *step[2])
        if self.trace is not None:
            self.trace(op, operand_shardings, result_shardings, any_updated, lambda: (
                operands, results, [self.get(v) for v in operands], [self.get(v) for v in results]))
        return any_updated

    def step_updates(self, op, operand_shardings, result_shardings, rule, directions: tuple,
                     strategy, conservative, observe=None) -> tuple:
        """The pure part of a step (memoized by StepMemo): the new shardings of the
        operands and results it updates, as ((index, sharding), ...) each.
        `observe(projection)` (debug info): its result, the mesh and the updated
        projection come third."""
        mesh_name = self.common_mesh_name(operand_shardings + result_shardings)
        mesh = self.meshes.get(mesh_name) if mesh_name is not None else None
        if mesh is None or mesh.is_maximal:
            # No common mesh, or a maximal one: maximal shardings stand for
            # special ops (send, recv), Shardy never propagates them.
            return (), ()
        projection = ShardingProjection.build(operand_shardings, result_shardings, rule, mesh)
        direction_along_factor = directions.__getitem__
        if rule.blocked_propagation_factors:
            # Propagation never crosses the op along a blocked factor.
            direction_along_factor = _blocking(direction_along_factor, rule.blocked_propagation_factors)
        before = observe(projection) if observe is not None else None
        updated_operands, updated_results = strategy.propagate(
            projection, direction_along_factor, rule.factor_sizes, mesh, conservative,
            self.steps.elementwise(op, strategy))
        sizes = rule.factor_sizes
        updates = (tuple((i, projection.operands[i].to_tensor_sharding(rule.operand_mappings[i], sizes,
                                                                       mesh_name, mesh))
                         for i in sorted(updated_operands)),
                   tuple((i, projection.results[i].to_tensor_sharding(rule.result_mappings[i], sizes,
                                                                      mesh_name, mesh))
                         for i in sorted(updated_results)))
        if observe is not None:
            return updates + ((mesh, before, projection),)
        return updates

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
        if value not in self.group_of:
            return
        for member in self.groups.others(value):
            self.set(member, sharding)
            if notify is not None:
                self.notify_sharding_modified(member, notify)

    # ------------------------------------------------------------- patterns

    def _frame(self, node: OpNode):
        """The rule of a registered op's step, or None (no rule, or one that does
        not fit the op); its operands' and results' shardable values go to
        `node.values` (propagation changes no op's operands)."""
        op = node.op
        results = list(op.results)
        attrs = op.attributes
        store = self.store
        owners = store.owners
        for result in results:
            owners[result] = op
        name = node.name
        store.read_results(op, results, attrs, name)
        _, may_flow, never_rule, _ = self.name_facts(name)
        if not may_flow:
            self.shardable_results(results)
        if never_rule and SHARDING_RULE_ATTR not in attrs:
            return None
        operands = list(op.operands)
        self.find_structure(node, operands, results, attrs)
        rule = self.rule_of(op, node.structure, attrs)
        if rule is not None:
            if len(rule.operand_mappings) == len(operands) and len(rule.result_mappings) == len(results):
                node.values = (self.shardable_values(operands)
                               + (tuple(results) if not may_flow else self.shardable_values(results)))
                return rule
        return None

    def propagate_registered_op(self, node: OpNode, strategy, get_direction, notify) -> bool:
        rule = node.frame
        if rule is False:
            rule = node.frame = self._frame(node)
        if rule is None:
            return False
        op = node.op
        by_heuristics = self._sweep_heuristics
        if by_heuristics is not None and by_heuristics[2] is get_direction:
            heuristics, priority, _ = by_heuristics
            kept = node.directions
            if kept is None or kept[0] is not heuristics or kept[1] != self.erasures:
                kept = heuristics.directions_of_op(node, len(rule.factor_sizes))
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
            if node.clean_by is strategy and node.clean == directions:
                return False
        num_operands = len(rule.operand_mappings)
        if self.debug is None and not tracing:
            values = node.values
            if values is None:  # (forgotten when an edge was erased)
                values = node.values = self.shardable_values(list(op.operands) + list(op.results))
            # Ops of one structure have one rule (unless a caller's rule
            # provider decides per op): they share the static part.
            structure = node.structure if self._rules_by_structure is not None else None
            changed = self._memo_step(node, values, rule, num_operands, directions, strategy,
                                      self.conservative, structure, notify)
        else:
            operands, results = list(op.operands), list(op.results)
            operand_shardings = [self.get(v) for v in operands]
            result_shardings = [self.get(v) for v in results]
            changed = self.propagate_tensors(
                op, operands, results, operand_shardings, result_shardings,
                lambda i, s: self.set(operands[i], s), lambda i, s: self.set(results[i], s),
                rule, directions.__getitem__, strategy, self.conservative, notify)
        if not changed and not tracing:
            if not node.watched:
                if node.values is None:
                    node.values = self.shardable_values(list(op.operands) + list(op.results))
                self._watch(node, node.values, resolved=True)
            node.clean, node.clean_by = directions, strategy
        return changed

    def _memo_step(self, holder, values, rule, num_operands: int, directions, strategy,
                   conservative: bool, structure, notify, through: EdgeTransform | None = None) -> bool:
        """The same step as propagate_tensors (step_updates), memoized, keyed by
        small integers: the step's static part (rule, directions, strategy...,
        kept on `holder`, an OpNode or EdgeStep, and shared by ops of one
        `structure`, or edges alike: EdgeStep.alike) and the interned sharding of each of `values` (shardable
        values: operands then results), which the store keeps per value; the
        step's updates carry their own interned form, so comparing an update
        with the current sharding is comparing two integers. `through`: the
        view change of an edge whose owner strips manual axes (its one result
        is seen and written through it; part of the static key)."""
        store = self.store
        try:
            key = list(map(store.tokens.__getitem__, values))  # read before and unchanged since
        except KeyError:
            key = [store.token(v) for v in values]
        if not any(key):
            return False  # no sharding on any of its values: no mesh, nothing to propagate
        kept = holder.step_key
        if kept is not None and kept[0] is directions and kept[1] is strategy:
            static = kept[2]
        else:
            shared = (structure, directions, strategy) if structure is not None else None
            kept = self._static_keys.get(shared) if shared is not None else None
            if kept is None:
                static_key = self.steps.static_key(rule, directions, strategy, conservative,
                                                   holder.op, structure)
                if through is not None:
                    static_key += (through,)
                kept = (directions, strategy, self.steps.intern(static_key))
                if shared is not None:
                    self._static_keys[shared] = kept  # (one tuple for the ops alike)
            holder.step_key = kept
            static = kept[2]
        key.append(static)
        key = tuple(key)
        memo = self.steps.compiled
        step = memo.get(key)
        if step is None:
            updates = self._memo_updates(holder.op, values, rule, num_operands, directions,
                                         strategy, conservative, through)
            if updates is None:
                return self._step_through_owner(holder, directions, strategy, notify)
            step = self.steps.compile(key, updates)
        any_updated = False
        group_of = self.group_of
        for index, new, new_token, replicated in step:
            old_token = key[index]
            if new_token == old_token or (old_token == 0 and replicated):
                continue
            value = values[index]
            if value is None:
                continue  # nowhere to keep it: Shardy's setSharding does nothing
            store.replace(value, new, new_token)
            self.notify_sharding_modified(value, notify)
            if value in group_of:
                self._sync_group(value, new, notify)  # (operands and results alike)
            any_updated = True
        return any_updated

    def _memo_updates(self, op, values, rule, num_operands: int, directions, strategy,
                      conservative: bool, through: EdgeTransform | None = None) -> list | None:
        """The step's updates as (index among operands then results, sharding).
        `through`: the one result is an edge's, seen and written back through
        its owner; None when an update of it is one the memo cannot keep (see
        through_owner_update)."""
        get = self.store.get
        shardings = [get(v) if v is not None else None for v in values]
        stored = None
        if through is not None:
            stored = shardings[num_operands]
            shardings[num_operands] = through(stored, True)
        operand_updates, result_updates = self.step_updates(
            op, shardings[:num_operands], shardings[num_operands:], rule, directions,
            strategy, conservative)
        updates = [(i, new) for i, new in operand_updates]
        for i, new in result_updates:
            if through is not None:
                new = through_owner_update(through, stored, shardings[num_operands], new)
                if new is _NOT_KEPT:
                    return None
                if new is None:
                    continue
            updates.append((num_operands + i, new))
        return updates

    def propagate_data_flow_edge_node(self, node: OpNode, strategy, get_direction,
                                      notify) -> bool:
        """propagate_data_flow_edge without debug info or trace, skipped while
        clean: an edge whose owner keeps its targets' shardings as they are (no
        manual axes to strip) steps like a registered op, memoized; one whose
        owner strips them steps through its owner's view change."""
        frame = node.edge
        if frame is False:
            frame = node.edge = edge_step(self, node)
        if frame is None:
            return False  # (no static shape: nothing propagates)
        kept = frame.directions
        if kept is not None and kept[0] is get_direction and kept[1] == self.erasures:
            directions = kept[2]
        else:
            directions = edge_directions(self, node, frame, get_direction)
            frame.directions = (get_direction, self.erasures, directions)
        if frame.quiet_with(directions, strategy):
            return False
        if frame.transform is None or frame.in_group:
            changed = (self._memo_step(frame, frame.values, frame.rule, frame.num_sources,
                                       directions, strategy, False, frame.alike, notify)
                       if frame.transform is None else
                       self._step_through_owner(frame, directions, strategy, notify))
        else:
            changed = self._memo_step(frame, frame.values, frame.rule, frame.num_sources, directions,
                                      strategy, False, frame.alike, notify, frame.transform)
        if not changed:
            if not frame.watched:
                self._watch(frame, frame.values, resolved=True)
            frame.clean, frame.clean_by = directions, strategy
        return changed

    def _step_through_owner(self, frame: EdgeStep, directions: tuple, strategy, notify) -> bool:
        """propagate_data_flow_edge's step of an edge whose owner strips manual
        axes: the edge's sharding is seen, and written, through the owner."""
        edge, sources, transform = frame.op, frame.sources, frame.transform
        result = edge.results[0]
        return self.propagate_tensors(
            edge, sources, [result], [self.get(v) for v in sources],
            [transform(self.store.get(result), True)],
            lambda i, s: self.set(sources[i], s),
            lambda i, s: self.set_edge_sharding(edge, transform(s, False)),
            frame.rule, directions.__getitem__, strategy, False, notify)

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

    def propagate_barrier(self, op, strategy, get_direction, notify) -> bool:
        """A propagation barrier: an identity along the one direction its attribute allows."""
        shape = static_shape(op.results[0].type)
        if shape is None:
            return False
        direction = _barrier_direction(op.attributes[self.table.barrier_attr(op.name)])
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
            sources = [call.operands[target.arg_number] for call in self.calls.calls_of(func)]
        else:
            callee = self.calls.callee_of(target.owner.operation)
            if callee is None or not len(callee.regions[0].blocks):
                raise PropagationError(f"{target.owner.location}: the callee of a call with a "
                                       "func data-flow edge has no body")
            ret = block_terminator(callee.regions[0].blocks[0])
            sources = [ret.operands[target.result_number]] if self.table.is_terminator(ret) else []
        if not sources:
            return False  # e.g. a func no call uses
        return self.propagate_tensors(
            edge, sources, [result], [self.get(v) for v in sources], [self.get(result)],
            lambda i, s: self.set(sources[i], s), lambda i, s: self.set(result, s),
            identity_rule(shape, len(sources)), lambda f: get_direction(edge, f), strategy,
            False, notify)

    # The patterns of the op kinds other than registered ops, tried first
    # (Shardy's pattern set: a pattern that changes nothing falls through to
    # the registered-op pattern, which every op gets).
    EDGE_PATTERNS = {OpNode.DATA_FLOW_EDGE: "propagate_data_flow_edge",
                     OpNode.FUNC_EDGE: "propagate_func_data_flow_edge",
                     OpNode.BARRIER: "propagate_barrier"}

    def apply_patterns(self, node: OpNode, strategy, get_direction, notify) -> bool:
        kind = node.kind
        if kind != OpNode.REGISTERED:
            if kind == OpNode.DATA_FLOW_EDGE and self.debug is None and self.trace is None:
                if self.propagate_data_flow_edge_node(node, strategy, get_direction, notify):
                    return True
            elif getattr(self, self.EDGE_PATTERNS[kind])(node.op, strategy, get_direction, notify):
                return True
        return self.propagate_registered_op(node, strategy, get_direction, notify)


def edge_step(engine: PropagationEngine, node: OpNode) -> EdgeStep | None:
    """A data-flow edge's step as propagate_data_flow_edge_node keeps it (None:
    no static shape, nothing propagates); the registered-op pattern the edge
    falls through to is settled on the way (no rule: what _frame would find
    by reading the edge again)."""
    edge = node.op
    result = edge.results[0]
    shape = static_shape(result.type)
    if shape is None:
        return None
    # (its sharding read as a registered op's are, see _frame: its step reads it next)
    engine.store.owners[result] = edge
    engine.store.read_results(edge, [result], name=node.name)
    _, may_flow, never_rule, _ = engine.name_facts(node.name)
    if node.frame is False and never_rule and not may_flow and SHARDING_RULE_ATTR not in edge.attributes:
        engine.shardable_results([result])
        node.frame = None
    dataflow = engine.dataflow
    owner = EdgeOwner(edge, dataflow.table)
    sources = dataflow.sources(edge, owner)
    values = tuple([engine.shardable_value(v) for v in sources]) + (result,)
    engine.find_structure(node, None, [result])  # (edges alike share their directions)
    rule = identity_rule(shape, len(sources))
    transform = (EdgeTransform(dataflow, edge, owner) if dataflow.strips_manual_axes(edge, owner)
                 else None)
    alike = engine.edges_alike(rule, transform)
    if transform is not None:
        # (a sharding group member is synced with the owner's view of the
        # edge: such an edge keeps the unmemoized step)
        return EdgeStep(edge, owner, values, rule, len(sources), alike, sources, transform,
                        in_group=any(v in engine.group_of for v in values if v is not None))
    return EdgeStep(edge, owner, values, rule, len(sources), alike)


def edge_directions(engine: PropagationEngine, node: OpNode, frame: EdgeStep, get_direction) -> tuple:
    """An edge's directions per factor: from the sweep's heuristics when it runs them, else asked."""
    num_factors = len(frame.rule.factor_sizes)
    by_heuristics = engine._sweep_heuristics
    if by_heuristics is not None and by_heuristics[2] is get_direction:
        heuristics, priority, _ = by_heuristics
        return heuristics.directions_of_op(node, num_factors)[2][priority]
    edge = node.op
    return tuple([get_direction(edge, f) for f in range(num_factors)])


# ----------------------------------------------------------------- func results


def propagate_func_results(engine: PropagationEngine, strategy) -> None:
    """The main funcs' results and returned values, one identity step each (skipped
    while nothing changed since the last time they changed nothing)."""
    if engine.trace is None and engine._func_results_quiet == (strategy, engine.store.version):
        return  # nothing changed since it last changed nothing
    version = engine.store.version
    _propagate_func_results(engine, strategy)
    if engine.store.version == version:
        engine._func_results_quiet = (strategy, version)


def _returned_values(engine: PropagationEngine) -> list:
    """(func, [(index, returned value, its shape)]) of the main funcs (kept:
    propagation never erases a terminator)."""
    if engine._returned is None:
        engine._returned = []
        for func in engine.calls.main_funcs():
            blocks = func.regions[0].blocks
            if len(blocks) == 0:
                continue
            ret = block_terminator(blocks[0])
            returned = [(index, value, static_shape(value.type))
                        for index, value in enumerate(ret.operands)]
            engine._returned.append((func, [r for r in returned if r[2] is not None]))
    return engine._returned


def _propagate_func_results(engine: PropagationEngine, strategy) -> None:
    for func, returned in _returned_values(engine):
        func_results = engine.store.func_results(func)  # (read once: updated in place)
        for index, value, shape in returned:
            inputs = (strategy, engine.get(value), func_results[index])
            key = (func, index)
            last = engine._func_results_unchanged.get(key)
            if engine.trace is None and ((last is not None and all(a is b for a, b in zip(last, inputs)))
                                         or inputs[1] == inputs[2]):
                continue  # the same step changed nothing before, or an identity between equals
            changed = engine.propagate_tensors(
                func, [value], [value], [inputs[1]], [inputs[2]],
                lambda i, s, v=value: engine.set(v, s),
                lambda i, s, f=func, r=index: engine.set_func_result(f, r, s),
                identity_rule(shape), propagate_any_factor, strategy, False, None,
                # The reference syncs the returned value's sharding group
                # when the value changes, not when the func result does.
                result_groups=False)
            if changed:
                engine._func_results_unchanged.pop(key, None)
            else:
                engine._func_results_unchanged[key] = inputs


def basic_propagate(engine: PropagationEngine, strategy: BasicFactorPropagation = BASIC,
                    get_direction: GetDirection = propagate_any) -> None:
    """The innermost level: func results, the worklist to a fixed point, func results."""
    propagate_func_results(engine, strategy)
    engine.run_to_fixed_point(strategy, get_direction)
    propagate_func_results(engine, strategy)


def _blocking(direction_along_factor, blocked) -> Callable:
    blocked = frozenset(blocked)
    return lambda factor: Direction.NONE if factor in blocked else direction_along_factor(factor)


def _barrier_direction(attr) -> Direction:
    """`allowed_direction` is stored as the enum's integer (NONE=0 ... BOTH=3)."""
    if isinstance(attr, ir.IntegerAttr):
        return Direction(attr.value)
    return Direction.parse(re.search(r"(NONE|FORWARD|BACKWARD|BOTH)", str(attr)).group(1))

