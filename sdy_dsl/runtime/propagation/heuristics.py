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

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import yaml
from jaxlib.mlir import ir

from .factor_propagation import Direction
from ...resources import builtin_rules_dir

# A predicate gets a view of the op being propagated (see OpView below) and a
# factor index; `op_name: [...]` cases are turned into name-set predicates.
Predicate = Callable[["HeuristicOp", int], bool]


@dataclass
class HeuristicOp:
    """What a heuristic may ask about an op (filled by the engine)."""
    name: str
    operation: Any
    rule: Any  # the OpShardingRule attached to the op, or None


# Ops with MLIR's Elementwise or hlo's BroadcastingElementwise trait (the sdy
# ones too: a constraint is a pass-through op for the op-priority heuristics).
ELEMENTWISE_OPS = frozenset([f"stablehlo.{n}" for n in """
    abs add and atan2 cbrt ceil clamp compare complex convert cosine count_leading_zeros
    divide exponential exponential_minus_one floor imag is_finite log log_plus_one logistic
    maximum minimum multiply negate not or popcnt power real reduce_precision remainder
    round_nearest_afz round_nearest_even rsqrt select shift_left shift_right_arithmetic
    shift_right_logical sign sine sqrt subtract tan tanh xor
    """.split()] + ["sdy.sharding_constraint", "sdy.reshard", "sdy.propagation_barrier"])


def is_elementwise_operation(operation) -> bool:
    name = operation.name
    if name in ELEMENTWISE_OPS:
        return True
    if name == "stablehlo.bitcast_convert":
        # Elementwise iff the bit widths match, i.e. the shapes are equal.
        return (list(operation.operands[0].type.shape)
                == list(operation.results[0].type.shape))
    return False


def is_elementwise(op: HeuristicOp, factor: int) -> bool:
    return is_elementwise_operation(op.operation)


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


def has_multi_use_operand(op: HeuristicOp, factor: int) -> bool:
    """Whether a non-scalar operand has other uses (propagating through the op
    could then conflict with them)."""
    for operand in op.operation.operands:
        uses = iter(operand.uses)
        next(uses, None)
        if next(uses, None) is not None and not _is_scalar(operand):
            return True
    return False


PREDICATES: dict[str, Predicate] = {
    "elementwise": is_elementwise,
    "pass_through_factor": is_pass_through_factor,
    "not_pass_through_factor": lambda op, f: not is_pass_through_factor(op, f),
    "multi_use_operand": has_multi_use_operand,
    "always": always,
}


def op_name_in(names: Sequence[str]) -> Predicate:
    names = frozenset(names)
    return lambda op, factor: op.name in names


def custom_call_target_in(targets: Sequence[str]) -> Predicate:
    """A stablehlo.custom_call whose call_target_name is one of `targets`."""
    targets = frozenset(targets)

    def predicate(op: HeuristicOp, factor: int) -> bool:
        if op.name != "stablehlo.custom_call":
            return False
        attrs = op.operation.attributes
        return "call_target_name" in attrs and ir.StringAttr(attrs["call_target_name"]).value in targets
    return predicate


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

    def __call__(self, op: HeuristicOp, factor: int) -> Direction:
        for case in self.cases:
            if case.predicate(op, factor):
                return case.direction
        return self.default


def predicate_from_spec(spec) -> Predicate:
    """`"elementwise"`, `{op_name: [..]}`, `{all: [...]}`, `{any: [...]}`, `{not: spec}`."""
    if isinstance(spec, str):
        try:
            return PREDICATES[spec]
        except KeyError:
            raise ValueError(f"unknown heuristic predicate '{spec}'; known: "
                             f"{sorted(PREDICATES)}") from None
    if isinstance(spec, dict) and len(spec) == 1:
        (key, value), = spec.items()
        if key == "op_name":
            return op_name_in([value] if isinstance(value, str) else value)
        if key == "custom_call_target":
            return custom_call_target_in([value] if isinstance(value, str) else value)
        if key == "all":
            parts = [predicate_from_spec(s) for s in value]
            return lambda op, f: all(p(op, f) for p in parts)
        if key == "any":
            parts = [predicate_from_spec(s) for s in value]
            return lambda op, f: any(p(op, f) for p in parts)
        if key == "not":
            inner = predicate_from_spec(value)
            return lambda op, f: not inner(op, f)
    raise ValueError(f"bad heuristic predicate: {spec!r}")


def heuristics_from_data(data: Sequence[dict]) -> list[Heuristic]:
    """Build heuristics from plain data (as loaded from YAML)."""
    out = []
    for entry in data:
        cases = [Case(predicate_from_spec(c["when"]), Direction.parse(c["direction"]),
                      str(c["when"]))
                 for c in entry.get("cases", ())]
        out.append(Heuristic(entry["name"], cases,
                             Direction.parse(entry.get("default", "NONE"))))
    return out


# The reference's schedule, in its order, is the built-in rule file: it is
# the one place the default is written.
BUILTIN_HEURISTICS_FILE = builtin_rules_dir() / "propagation" / "op_priority_heuristics.yaml"


@functools.cache
def _builtin_heuristics_data() -> list:
    return yaml.safe_load(BUILTIN_HEURISTICS_FILE.read_text())["heuristics"]


def default_heuristics() -> list[Heuristic]:
    return heuristics_from_data(_builtin_heuristics_data())
