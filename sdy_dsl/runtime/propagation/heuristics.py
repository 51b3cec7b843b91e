"""Op-priority heuristics as data.

A heuristic maps (op, factor) to a propagation direction. A heuristic here is
a list of `(predicate, direction)` cases tried in order (first match wins) and
a default direction. Predicates (runtime/op_predicates.py) are written in the
rule file (rules/propagation/op_priority_heuristics.yaml): built-in names
(`PREDICATES`), mappings of conditions on the op, names a file declares
(`predicates:`) and hooks registered beside a user's file:

    predicates:
      big-dot: {op_name: stablehlo.dot_general, results: {elements: {min: 1048576}}}
    heuristics:
      - name: pass-through-ops
        cases:
          - {when: elementwise, direction: BOTH}
          - {when: {op_name: [stablehlo.reshape, ...]}, direction: BOTH}
          - {when: big-dot, direction: NONE}
        default: NONE

At op-priority p, the direction of an op along a factor is the union of
heuristics 0..p (see `union_directions`), intersected with the caller's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ...errors import RuleFileError
from ..op_predicates import (NoLoc, OpView, Predicate, PredicateScope, mark, marks, parse_predicate,
                             unknown)
from ..op_registry import active
from ..vocabulary import Vocabulary
from .factor_propagation import Direction, intersect_directions, union_directions

HeuristicOp = OpView  # what a heuristic may ask about an op (filled by the engine)


def is_elementwise_operation(operation) -> bool:
    """MLIR's Elementwise trait, as rules/interfaces.yaml declares it."""
    return active().interfaces.is_elementwise(operation)


def is_elementwise(op: HeuristicOp, factor: int) -> bool:
    table = op.interfaces
    return op.fact("elementwise", table.is_elementwise if table is not None else is_elementwise_operation)


def is_pass_through_factor(op: HeuristicOp, factor: int) -> bool:
    """True unless the op's rule gives `factor` a reduction/need-replication/permutation kind.

    Ops without a rule (e.g. sdy.data_flow_edge) count as identity: pass-through.
    """
    rule = op.rule
    if rule is None:
        return True
    return not (factor in rule.reduction_factors or factor in rule.need_replication_factors
                or factor in rule.permutation_factors)


def always(op: HeuristicOp, factor: int) -> bool:
    return True


def _is_scalar(value) -> bool:
    value_type = value.type
    return hasattr(value_type, "rank") and value_type.rank == 0


MULTI_USE_OPERAND = "multi_use_operand"  # (the fact's name)


def has_multi_use_operand(op: HeuristicOp, factor: int) -> bool:
    """Whether a non-scalar operand has other uses (propagating through the op
    could then conflict with them)."""
    return op.fact(MULTI_USE_OPERAND, _has_multi_use_operand)


def _has_multi_use_operand(operation) -> bool:
    return has_multi_use(operation.operands)


def has_multi_use(operands) -> bool:
    """Whether one of these (an op's operands), not a scalar, has other uses too."""
    for operand in operands:
        uses = iter(operand.uses)
        next(uses, None)
        if next(uses, None) is not None and not _is_scalar(operand):
            return True
    return False


PREDICATES: Vocabulary[Predicate] = Vocabulary("heuristic predicate", name="heuristic-predicate")
PREDICATES.register("elementwise", mark(is_elementwise))
PREDICATES.register("pass_through_factor", mark(is_pass_through_factor))
PREDICATES.register("not_pass_through_factor", mark(lambda op, f: not is_pass_through_factor(op, f)))
# (whether an operand has other uses is not part of an op's structure: the
# engine asks it separately, see HeuristicDirections.directions_of_op)
PREDICATES.register("multi_use_operand", mark(has_multi_use_operand))
PREDICATES.register("always", mark(always, always_true=True))


def builtin_scope() -> PredicateScope:
    return PredicateScope(dict(PREDICATES.items()), what="heuristic predicate")


@dataclass
class Case:
    predicate: Predicate
    direction: Direction
    description: str = ""


@dataclass
class Heuristic:
    name: str
    cases: list[Case] = field(default_factory=list)
    default: Direction = Direction.NONE
    loc: Any = None  # where the rule file defines it

    @property
    def by_factor_kind(self) -> bool:
        """Whether it sees factors only as pass-through or not: it gives every
        pass-through factor of an op one direction, and every other factor one."""
        return all(marks(case.predicate)[0] for case in self.cases)

    @property
    def by_structure(self) -> bool:
        """Whether ops of one structure (values.structure_key) and the same
        answer to `multi_use_operand` get the same directions."""
        return all(marks(case.predicate)[1] for case in self.cases)

    def floor(self) -> Direction:
        """The direction it gives at least, to every op and factor: the
        intersection of every case that can be reached (cases after one whose
        predicate always holds cannot)."""
        found = None
        for case in self.cases:
            found = case.direction if found is None else intersect_directions(found, case.direction)
            if marks(case.predicate)[2]:
                return found
        return self.default if found is None else intersect_directions(found, self.default)

    def __call__(self, op: HeuristicOp, factor: int) -> Direction:
        for case in self.cases:
            if case.predicate(op, factor):
                return case.direction
        return self.default


def predicate_from_spec(spec, loc=None, scope: PredicateScope | None = None) -> Predicate:
    """A predicate (see runtime/op_predicates.py); names are looked up in
    `scope` (default: the built-in predicates)."""
    return parse_predicate(spec, loc, scope if scope is not None else builtin_scope())


def heuristics_from_data(data: Sequence[dict], loc=None, scope: PredicateScope | None = None) -> list[Heuristic]:
    """Build heuristics from plain data (as loaded from YAML)."""
    scope = scope if scope is not None else builtin_scope()
    out = []
    for entry in data:
        cases = []
        if not isinstance(entry.get("cases", []), list):
            raise (loc or NoLoc()).error(f"heuristic '{entry['name']}': 'cases' is a list of "
                                         "{when: PREDICATE, direction: DIRECTION}")
        for i, case in enumerate(entry.get("cases", ())):
            case_loc = _item_loc(entry.get("cases"), i, loc)
            if not isinstance(case, dict) or set(case) != {"when", "direction"}:
                raise (case_loc or NoLoc()).error(f"heuristic '{entry['name']}': a case is "
                                                  "{when: PREDICATE, direction: DIRECTION}")
            when_loc = case.loc_of("when") if hasattr(case, "loc_of") else case_loc
            cases.append(Case(predicate_from_spec(case["when"], when_loc, scope),
                              _direction(case["direction"], entry, loc), str(case["when"])))
        out.append(Heuristic(str(entry["name"]), cases, _direction(entry.get("default", "NONE"), entry, loc),
                             loc))
    return out


def _item_loc(items, index: int, default):
    locs = getattr(items, "item_locs", None)
    return locs[index] if locs is not None else default


def _direction(text, entry, loc) -> Direction:
    try:
        return Direction.parse(str(text))
    except KeyError:
        raise (loc or NoLoc()).error(f"heuristic '{entry['name']}': {unknown('direction', text, Direction.__members__)}") \
            from None


HEURISTIC_KEYS = ("name", "cases", "default", "delete")
FILE_KEYS = ("heuristics", "order", "predicates", "hooks")


def saturating_index(heuristics: Sequence[Heuristic]) -> int | None:
    """The first heuristic after which every op propagates every factor both
    ways whatever it is (the union of the floors so far is BOTH): the
    heuristics after it can never act. None: there is none."""
    acc = Direction.NONE
    for i, heuristic in enumerate(heuristics):
        acc = union_directions(acc, heuristic.floor())
        if acc == Direction.BOTH:
            return i
    return None


def heuristics_from_layers(layers, warnings: list | None = None) -> list[Heuristic]:
    """The op-priority schedule: the built-in file, then users' files over it
    (`layers`: (document as loaded from YAML, path, hook predicates by name)
    each, read above the runtime; the hooks may be left out).

    A later file's heuristic replaces the one of the same name in place, a new
    name is appended, `{name: N, delete: true}` removes one, and a top-level
    `order: [NAMES]` sets the order (it must list every heuristic).
    `predicates: {NAME: SPEC}` declares predicates by name (a later file's
    replaces an earlier one's). A heuristic that can never act, after the
    catch-all (the first heuristic from which on every op propagates every
    factor both ways whatever it is, `saturating_index`), is a warning
    appended to `warnings` (`FILE:LINE:COL: warning: ...`): a new name
    appended after the built-in `any` is one."""
    scope = builtin_scope()
    layers = [tuple(layer) + ({},) * (3 - len(layer)) for layer in layers]
    for doc, path, hooks in layers:
        _check_file(doc, path)
        declared = doc.get("predicates") or {}
        if not isinstance(declared, dict):
            raise doc.loc_of("predicates").error("'predicates' is a mapping of name to predicate")
        for name, spec in declared.items():
            scope.declare(str(name), spec, declared.loc_of(name))
        for name, (predicate, loc) in hooks.items():
            scope.add_hook(name, predicate, loc)
    entries: dict[str, tuple] = {}  # name -> (entry, loc, Heuristic)
    for doc, path, _ in layers:
        items = doc.get("heuristics") or []
        names_here = [str(e.get("name")) for e in items if isinstance(e, dict)]
        full_copy = bool(entries) and set(entries) <= set(names_here)
        for i, entry in enumerate(items):
            loc = items.item_locs[i]
            if not isinstance(entry, dict) or "name" not in entry:
                raise loc.error("a heuristic is a mapping with 'name', optional 'cases' and 'default'")
            for key in entry:
                if key not in HEURISTIC_KEYS:
                    raise entry.key_loc(key).error(unknown("heuristic key", key, HEURISTIC_KEYS))
            name = str(entry["name"])
            if entry.get("delete"):
                if name not in entries:
                    raise loc.error(f"no heuristic '{name}' to delete")
                del entries[name]
                continue
            (heuristic,) = heuristics_from_data([entry], loc, scope)
            entries[name] = (entry, loc, heuristic)
        if full_copy and "order" not in doc:
            # A file that names every heuristic is a whole schedule: its order wins.
            entries = {n: entries[n] for n in names_here if n in entries} | entries
        if "order" in doc:
            order = doc["order"]
            oloc = doc.loc_of("order")
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(entries):
                raise oloc.error("'order' must list every heuristic once: " + ", ".join(entries))
            entries = {str(n): entries[str(n)] for n in order}
    for name, (_, loc) in scope.declared.items():
        scope.lookup(name, loc)  # (a declared predicate no heuristic uses is checked too)
    heuristics = [heuristic for _, _, heuristic in entries.values()]
    if warnings is not None:
        warnings.extend(_never_acting(heuristics))
    return heuristics


def _check_file(doc, path) -> None:
    if not isinstance(doc, dict) or not isinstance(doc.get("heuristics", []), list):
        message = "expected a mapping with a 'heuristics' list (and optional 'order', 'predicates')"
        top = getattr(doc, "loc", None)
        raise top.error(message) if top is not None else RuleFileError(path, 1, 1, message)
    for key in doc:
        if key not in FILE_KEYS:
            raise doc.key_loc(key).error(unknown("key", key, FILE_KEYS))


def _never_acting(heuristics: Sequence[Heuristic]) -> list[str]:
    catch_all = saturating_index(heuristics)
    if catch_all is None:
        return []
    last = heuristics[catch_all]
    return [f"{h.loc}: warning: heuristic '{h.name}' can never act: from heuristic '{last.name}' "
            f"({last.loc}) on, every op already propagates every factor both ways; put it "
            f"before '{last.name}' with 'order: [...]'"
            for h in heuristics[catch_all + 1:]]
