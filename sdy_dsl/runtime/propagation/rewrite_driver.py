"""The rewrite driver of basic propagation: MLIR's greedy pattern rewrite
driver as Shardy's basic_propagation.cc runs it.

A LIFO worklist seeded with every op in pre-order (so ops pop in program
order); ops whose results are unused and that have no side effects are
erased when popped; after an op's step changes a value, the value's defining
op and users are pushed (with their ancestors) so they pop next. The patterns
(`apply_patterns`) are basic_propagation.py's.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..values import ops_under
from .propagation_state import PropagationState
from .worklist import OpNode, Worklist


class RewriteDriver(PropagationState):
    """Runs the patterns over the module's ops to a fixed point."""

    def apply_patterns(self, node: OpNode, strategy, get_direction, notify) -> bool:
        raise NotImplementedError

    def propagate_registered_op(self, node: OpNode, strategy, get_direction, notify) -> bool:
        """The pattern of a registered op (apply_patterns of an op of kind REGISTERED)."""
        raise NotImplementedError

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

        # The worklist's pushes and pops are inlined here (the hottest loop).
        items = worklist.items

        def notify(node):
            if node is not current:
                chain = node.chain
                for pushed in chain if chain is not None else self._chain(node):
                    if pushed.queued < 0:
                        pushed.queued = len(items)
                        items.append(pushed)

        # A registered op whose step is known to change nothing now is passed
        # over here (what propagate_registered_op would find first, without
        # the calls): no rule, no direction, or a clean step; so is a
        # data-flow edge (EdgeStep.quiet) that has no rule of its own.
        heuristics, priority = (by_heuristics[0], by_heuristics[1]) if by_heuristics else (None, 0)
        skip_clean = self.trace is None
        registered, data_flow_edge = OpNode.REGISTERED, OpNode.DATA_FLOW_EDGE
        while items:
            node = items.pop()
            if node is None:
                continue  # (the place of a removed node)
            node.queued = -1
            if node.live_at != self.erasures:
                # Only erasing an op takes uses away: an op seen alive since
                # the last erasure still is.
                if self._is_trivially_dead(node.op):
                    self._erase(node.op, worklist)
                    continue
                node.live_at = self.erasures
            elif skip_clean and node.kind == registered:
                frame = node.frame
                if frame is None:
                    continue
                kept = node.directions
                if (frame is not False and heuristics is not None and kept is not None
                        and kept[0] is heuristics and kept[1] == self.erasures):
                    if not kept[3][priority] or (node.clean_by is strategy
                                                 and node.clean == kept[2][priority]):
                        continue
            elif skip_clean and node.kind == data_flow_edge and node.frame is None:
                step = node.edge
                if step is None:
                    continue
                if step is not False:
                    kept = node.directions
                    if (heuristics is not None and kept is not None and kept[0] is heuristics
                            and kept[1] == self.erasures):
                        # (the edge's directions in this sweep, as edge_directions reads them)
                        if step.quiet_with(kept[2][priority], strategy):
                            continue
                    elif step.quiet(get_direction, self.erasures, strategy):
                        continue
            current = node
            if node.kind == registered:
                self.propagate_registered_op(node, strategy, get_direction, notify)
            else:
                self.apply_patterns(node, strategy, get_direction, notify)

    def _preorder_nodes(self) -> list[OpNode]:
        """The module's ops (not the module) in pre-order, as nodes; walked once,
        then only erased ops leave it."""
        if self._order is None and self.erasures == 0:
            # (the ops' names were read with them: nodes are made here at once)
            nodes, facts, order = self._nodes, self._name_facts, []
            for op, name in zip(self._module_ops, self._module_names):
                node = nodes.get(op)
                if node is None:
                    kind = facts[name][0] if name in facts else self.name_facts(name)[0]
                    node = nodes[op] = OpNode(op, kind, name)
                order.append(node)
            self._order = order
        elif self._order is None:
            nodes, node = self._nodes, self.node
            self._order = [nodes.get(op) or node(op) for op in ops_under(self.module)[1:]]
        elif self._order_erasures != self.erasures:
            self._order = [node for node in self._order if not node.erased]
        self._order_erasures = self.erasures
        return self._order

    def _push_with_ancestors(self, worklist: Worklist, node: OpNode) -> None:
        chain = node.chain
        worklist.push_all(chain if chain is not None else self._chain(node))

    def _chain(self, node: OpNode) -> tuple:
        """The node and its ancestors below the module, pushed together (kept:
        an op's ancestors stay while it lives)."""
        chain = [node]
        parent = node.op.parent
        while parent is not None:
            parent = parent.operation
            if parent == self.module:
                break
            chain.append(self.node(parent))
            parent = parent.parent
        chain = node.chain = tuple(chain)
        return chain

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
        # MLIR erases nested ops one at a time (post-order), so a value used only
        # by ops erased so far is down to its last use when the next one goes.
        gone: set = set()
        for inner in nested:
            self._push_operand_definers(inner, worklist, erased, gone)
            gone.add(inner)
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
                node.clean, node.watched, node.values, node.edge = None, False, None, False

    def _push_operand_definers(self, op: ir.Operation, worklist: Worklist, erased, gone) -> None:
        for operand in op.operands:
            if not isinstance(operand, ir.OpResult) or operand.owner.operation in erased:
                continue
            other_user = None
            more = False
            for use in operand.uses:
                user = use.owner.operation
                if user == op or user in gone or (other_user is not None and user == other_user):
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
