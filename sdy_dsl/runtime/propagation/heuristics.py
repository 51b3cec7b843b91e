"""Op-priority heuristics as data.

A heuristic maps (op, factor) to a propagation direction. A heuristic here is
a list of `(predicate, direction)` cases tried in order (first match wins) and
a default direction. Predicates are named, registered in `PREDICATES`, so a
rule file (rules/propagation/op_priority_heuristics.yaml) can reference them:

    - name: pass-through-ops
      cases:
        - {when: elementwise, direction: BOTH}
        - {when: {op_name: [stablehlo.reshape, ...]}, direction: BOTH}
      default: NONE

At op-priority p, the direction of an op along a factor is the union of
heuristics 0..p (see `union_directions`), intersected with the caller's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence


from ...errors import RuleFileError
from ..interfaces import check_op_name, condition_from_data
from ..op_registry import active
from ..vocabulary import Vocabulary
from .factor_propagation import Direction

# A predicate gets a view of the op being propagated (see OpView below) and a
# factor index; `op_name: [...]` cases are turned into name-set predicates.
Predicate = Callable[["HeuristicOp", int], bool]


@dataclass
class HeuristicOp:
    """What a heuristic may ask about an op (filled by the engine)."""
    name: str
    operation: Any
    rule: Any  # the OpShardingRule attached to the op, or None
    facts: dict = field(default_factory=dict)  # factor-independent predicates, asked once
    interfaces: Any = None  # the run's op interfaces (None: the active registry's)

    def fact(self, name: str, compute: Callable[[Any], bool]) -> bool:
        try:
            return self.facts[name]
        except KeyError:
            found = self.facts[name] = compute(self.operation)
            return found


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
PREDICATES.register("elementwise", is_elementwise)
PREDICATES.register("pass_through_factor", is_pass_through_factor)
PREDICATES.register("not_pass_through_factor", lambda op, f: not is_pass_through_factor(op, f))
PREDICATES.register("multi_use_operand", has_multi_use_operand)
PREDICATES.register("always", always)


def _by_kind(predicate: Predicate) -> Predicate:
    """Marks a predicate that sees a factor only through `is_pass_through_factor`
    (every predicate a rule file can write): a heuristic made of such predicates
    gives every pass-through factor of an op the same direction, and every other
    factor the same direction, so it is asked once per op for each."""
    predicate.by_factor_kind = True
    return predicate


for _name, _predicate in PREDICATES.items():
    _by_kind(_predicate)


def op_matching(names: Sequence[str], when, loc) -> Predicate:
    """`{op_name: NAMES, when: {ATTR: VALUES}}`: one of the ops, with these
    attributes (the `when:` of rules/interfaces.yaml)."""
    names = frozenset(names)
    conditions = [condition_from_data(name, when, loc) for name in names] if when is not None else []
    condition = conditions[0] if conditions else None

    def predicate(op: HeuristicOp, factor: int) -> bool:
        return op.name in names and (condition is None or condition.holds(op.operation))
    return _by_kind(predicate)


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

    @property
    def by_factor_kind(self) -> bool:
        """Whether it sees factors only as pass-through or not (see `_by_kind`)."""
        return all(getattr(case.predicate, "by_factor_kind", False) for case in self.cases)

    def __call__(self, op: HeuristicOp, factor: int) -> Direction:
        for case in self.cases:
            if case.predicate(op, factor):
                return case.direction
        return self.default


def predicate_from_spec(spec, loc=None) -> Predicate:
    """`"elementwise"`, `{op_name: NAME(S), when: {..}}`, `{all: [...]}`, `{any: [...]}`, `{not: spec}`."""
    if isinstance(spec, str):
        try:
            return PREDICATES[spec]
        except KeyError:
            raise ValueError(f"unknown heuristic predicate '{spec}'; known: "
                             f"{sorted(PREDICATES.names())}") from None
    if isinstance(spec, dict) and "op_name" in spec and set(spec) <= {"op_name", "when"}:
        value = spec["op_name"]
        names = [value] if isinstance(value, str) else list(value)
        for name in names:
            check_op_name(str(name), _loc(spec, "op_name", loc))
        return op_matching(names, spec.get("when"), _loc(spec, "when", loc))
    if isinstance(spec, dict) and len(spec) == 1:
        (key, value), = spec.items()
        if key == "all":
            parts = [predicate_from_spec(s, loc) for s in value]
            return _by_kind(lambda op, f: all(p(op, f) for p in parts))
        if key == "any":
            parts = [predicate_from_spec(s, loc) for s in value]
            return _by_kind(lambda op, f: any(p(op, f) for p in parts))
        if key == "not":
            inner = predicate_from_spec(value, loc)
            return _by_kind(lambda op, f: not inner(op, f))
    raise ValueError(f"bad heuristic predicate: {spec!r}")


def _loc(spec, key, default):
    getter = getattr(spec, "loc_of", None)
    return getter(key) if getter is not None else default


def heuristics_from_data(data: Sequence[dict], loc=None) -> list[Heuristic]:
    """Build heuristics from plain data (as loaded from YAML)."""
    out = []
    for entry in data:
        cases = [Case(predicate_from_spec(c["when"], loc), Direction.parse(c["direction"]),
                      str(c["when"]))
                 for c in entry.get("cases", ())]
        out.append(Heuristic(entry["name"], cases,
                             Direction.parse(entry.get("default", "NONE"))))
    return out


HEURISTIC_KEYS = ("name", "cases", "default", "delete")


def heuristics_from_layers(layers) -> list[Heuristic]:
    """The op-priority schedule: the built-in file, then users' files over it
    (`layers`: (document as loaded from YAML, path) each, read above the runtime).

    A later file's heuristic replaces the one of the same name in place, a new
    name is appended, `{name: N, delete: true}` removes one, and a top-level
    `order: [NAMES]` sets the order (it must list every heuristic)."""
    entries: dict[str, tuple] = {}  # name -> (entry, loc)
    for doc, path in layers:
        if not isinstance(doc, dict) or not isinstance(doc.get("heuristics", []), list):
            message = "expected a mapping with a 'heuristics' list (and optional 'order')"
            top = getattr(doc, "loc", None)
            raise top.error(message) if top is not None else RuleFileError(path, 1, 1, message)
        for key in doc:
            if key not in ("heuristics", "order"):
                raise doc.key_loc(key).error(f"unknown key '{key}' (expected 'heuristics' or 'order')")
        items = doc.get("heuristics") or []
        names_here = [str(e.get("name")) for e in items if isinstance(e, dict)]
        full_copy = bool(entries) and set(entries) <= set(names_here)
        for i, entry in enumerate(items):
            loc = items.item_locs[i]
            if not isinstance(entry, dict) or "name" not in entry:
                raise loc.error("a heuristic is a mapping with 'name', optional 'cases' and 'default'")
            for key in entry:
                if key not in HEURISTIC_KEYS:
                    raise entry.key_loc(key).error(f"unknown heuristic key '{key}' (expected one of: "
                                                   + ", ".join(HEURISTIC_KEYS) + ")")
            name = str(entry["name"])
            if entry.get("delete"):
                if name not in entries:
                    raise loc.error(f"no heuristic '{name}' to delete")
                del entries[name]
                continue
            try:
                heuristics_from_data([entry], loc)
            except (ValueError, KeyError, TypeError) as e:
                raise loc.error(f"heuristic '{name}': {e}") from None
            entries[name] = (entry, loc)
        if full_copy and "order" not in doc:
            # A file that names every heuristic is a whole schedule: its order wins.
            entries = {n: entries[n] for n in names_here if n in entries} | entries
        if "order" in doc:
            order = doc["order"]
            oloc = doc.loc_of("order")
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(entries):
                raise oloc.error("'order' must list every heuristic once: " + ", ".join(entries))
            entries = {str(n): entries[str(n)] for n in order}
    return [h for entry, loc in entries.values() for h in heuristics_from_data([entry], loc)]
