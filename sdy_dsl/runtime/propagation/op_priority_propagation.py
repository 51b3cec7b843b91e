"""Op-priority propagation (Shardy's op_priority_propagation.cc): for
priority 0, 1, ... the levels inside run with each op's factors propagating
only in the directions the op-priority heuristics 0..p allow (the union of
their directions, intersected with the level above's).

The heuristics are data (rules/propagation/op_priority_heuristics.yaml,
heuristics.py); `HeuristicDirections` evaluates them once per (op, factor).
"""
from __future__ import annotations

from typing import Sequence

from .basic_propagation import GetDirection, PropagationEngine, propagate_any
from .factor_propagation import Direction, intersect_directions, union_directions
from .heuristics import (MULTI_USE_OPERAND, Heuristic, HeuristicOp, has_multi_use,
                         is_pass_through_factor)
from .worklist import OpNode


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
        # ... and (unless a hook predicate looks further) only at the op's
        # structure and whether an operand has other uses: ops alike share them.
        self.shared_by_structure = self.by_factor_kind and all(h.by_structure for h in self.heuristics)
        self.cache: dict = {}
        # structure id -> (erasures, what directions_of_op keeps without and with
        # an operand of other uses: one object when the heuristics ignore uses)
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
                view = per_factor["view"] = HeuristicOp(
                    op.name, op, self.engine.attached_rule(op), interfaces=self.engine.table)
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

    def directions_of_op(self, node: OpNode, num_factors: int) -> tuple:
        """(self, erasures, per priority its factors' directions, per priority
        whether any may propagate), kept on the node (one tuple for ops alike)."""
        kept = node.directions
        erasures = self.engine.erasures
        if kept is not None and kept[0] is self and kept[1] == erasures:
            return kept  # (uses, which a heuristic may ask about, fall with erasures)
        op = node.op
        if self.shared_by_structure and node.structure is not None:
            # Rule-file heuristics see the op's structure (name, attributes,
            # rule) and whether an operand has other uses: ops alike share them,
            # and only ask about the uses when the answer matters.
            alike = self.by_structure.get(node.structure)
            if alike is None or alike[0] != erasures:
                single, multi = (self._kept(self._per_priority(op, num_factors, multi_use))
                                 for multi_use in (False, True))
                if multi[2] == single[2]:
                    multi = single
                alike = self.by_structure[node.structure] = (erasures, single, multi)
            _, single, multi = alike
            kept = single if single is multi or not has_multi_use(op.operands) else multi
        else:
            unions = [self.unions(op, f) for f in range(num_factors)]
            kept = self._kept([tuple(u[p] for u in unions) for p in range(len(self.heuristics))])
        node.directions = kept
        return kept

    def _kept(self, per_priority: list) -> tuple:
        return (self, self.engine.erasures, per_priority,
                [any(directions) for directions in per_priority])

    def _per_priority(self, op, num_factors: int, multi_use: bool) -> list:
        """Per priority, the op's factors' directions, were an operand's other
        uses `multi_use` (rule-file heuristics: asked once per factor kind)."""
        view = HeuristicOp(op.name, op, self.engine.attached_rule(op), interfaces=self.engine.table,
                           facts={MULTI_USE_OPERAND: multi_use})
        by_kind: dict = {}
        per_factor = []
        for factor in range(num_factors):
            kind = is_pass_through_factor(view, factor)
            unions = by_kind.get(kind)
            if unions is None:
                acc, unions = Direction.NONE, []
                for heuristic in self.heuristics:
                    acc = union_directions(acc, heuristic(view, factor))
                    unions.append(acc)
                by_kind[kind] = unions
            per_factor.append(unions)
        return [tuple(u[p] for u in per_factor) for p in range(len(self.heuristics))]

    def forget(self) -> None:
        """Drop the kept directions and the engine (the nodes keep directions
        that refer back to these): called when the op-priorities level is done."""
        self.cache.clear()
        self.by_structure.clear()
        self.engine = None

    def at_priority(self, priority: int, get_direction: GetDirection) -> GetDirection:
        def direction(op, factor: int) -> Direction:
            return intersect_directions(self.unions(op, factor)[priority], get_direction(op, factor))
        if get_direction is propagate_any:
            # Nothing to intersect with: a step asks for all its factors at once
            # (see PropagationEngine.propagate_registered_op).
            direction.heuristic_directions = (self, priority)
        return direction


def op_priorities(engine: PropagationEngine, inner, heuristics: Sequence[Heuristic]):
    """The op-priorities level: `inner` once per heuristic priority."""
    def run(get_direction):
        directions = HeuristicDirections(engine, heuristics)
        for priority in range(len(directions.heuristics)):
            inner(directions.at_priority(priority, get_direction))
        directions.forget()
    return run
