"""Op predicates as data: which ops a tuning applies to.

A predicate is written in YAML (rules/propagation/op_priority_heuristics.yaml's
`when:`, sdy-insert-explicit-reshards' `dot-contracting` param) as a name or
a mapping, every key of which must hold:

    op_name: stablehlo.dot_general        # a name, a glob (stablehlo.*), or a list of them
    when: {call_target_name: [Foo, Bar]}  # attribute values (interfaces.yaml's `when:`)
    trait: elementwise                    # interfaces.yaml traits (a name or a list: all of them)
    operands: 2                           # how many operands ...
    results: {count: 1, rank: 2, elements: {min: 1048576}, bytes: {max: 4096}, index: 0}
    all: [P, ...] / any: [P, ...] / not: P   (each alone in its mapping)

`operands:` / `results:` hold for `count` values, and for `rank`, `elements`
(element count) and `bytes` when some value of the group (the one at `index`,
if given) has them; each number is exact or `{min: N, max: M}` (inclusive).
A name is a built-in predicate, one declared by name (`predicates:`) or a
hook registered beside the user's file (PredicateScope).

A predicate is called as `predicate(op, factor)`: `op` an OpView, `factor` an
index into the op's sharding rule (-1 where none is asked). Marks on it say
what it depends on (the propagation engine shares answers accordingly):
`by_factor_kind` (sees a factor only as pass-through or not), `structural`
(a function of the op's name, attributes and operand/result types, the
`values.structure_key` of the op) and `always_true`.
"""
from __future__ import annotations

import difflib
import fnmatch
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from jaxlib.mlir import ir

from .interfaces import TRAITS, Condition, check_op_name, condition_from_data
from .op_registry import active


@dataclass
class OpView:
    """What a predicate may ask about an op (filled by its caller)."""
    name: str
    operation: Any
    rule: Any = None  # the OpShardingRule of the op, or None
    facts: dict = field(default_factory=dict)  # factor-independent answers, asked once
    interfaces: Any = None  # the run's op interfaces (None: the active registry's)

    def fact(self, name: str, compute: Callable[[Any], bool]) -> bool:
        try:
            return self.facts[name]
        except KeyError:
            found = self.facts[name] = compute(self.operation)
            return found

    @property
    def table(self):
        return self.interfaces if self.interfaces is not None else active().interfaces


Predicate = Callable[[OpView, int], bool]


def mark(predicate: Predicate, *, by_factor_kind: bool = True, structural: bool = True,
         always_true: bool = False) -> Predicate:
    """Record what `predicate` depends on (see the module docstring)."""
    predicate.by_factor_kind = by_factor_kind
    predicate.structural = structural
    predicate.always_true = always_true
    return predicate


def marks(predicate: Predicate) -> tuple[bool, bool, bool]:
    return (getattr(predicate, "by_factor_kind", False), getattr(predicate, "structural", False),
            getattr(predicate, "always_true", False))


# --------------------------------------------------------------------------- tensor facts


def shaped(value: ir.Value) -> ir.ShapedType | None:
    t = value.type
    return t if isinstance(t, ir.ShapedType) and t.has_rank else None


def element_count(value: ir.Value) -> int | None:
    """The number of elements of a statically shaped tensor (None otherwise)."""
    t = shaped(value)
    return math.prod(t.shape) if t is not None and t.has_static_shape else None


def element_bits(element_type: ir.Type) -> int | None:
    for kind in (ir.IntegerType, ir.FloatType):
        if isinstance(element_type, kind):
            return kind(element_type).width
    if isinstance(element_type, ir.ComplexType):
        inner = element_bits(ir.ComplexType(element_type).element_type)
        return 2 * inner if inner is not None else None
    if isinstance(element_type, ir.IndexType):
        return 64
    return None


def byte_count(value: ir.Value) -> int | None:
    """The bytes of a statically shaped tensor (sub-byte elements round up to a byte)."""
    count, t = element_count(value), shaped(value)
    bits = element_bits(t.element_type) if t is not None else None
    return count * max(1, math.ceil(bits / 8)) if count is not None and bits is not None else None


# --------------------------------------------------------------------------- scope


def unknown(kind: str, name, choices) -> str:
    """"unknown KIND 'NAME' (did you mean 'X'?)", else the choices."""
    close = difflib.get_close_matches(str(name), list(choices), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else f" (expected one of: {', '.join(choices)})"
    return f"unknown {kind} '{name}'{hint}"


class NoLoc:
    """Where a predicate given as plain data (no file) is: errors are ValueErrors."""

    def error(self, message: str, notes=()) -> ValueError:
        return ValueError(message)


class PredicateScope:
    """The predicate names a file may use: built-ins, declared specs
    (`predicates: {NAME: SPEC}`, resolved on first use, may name each other)
    and hook functions."""

    def __init__(self, builtins: Mapping[str, Predicate], what: str = "predicate"):
        self.builtins = dict(builtins)
        self.declared: dict[str, tuple] = {}  # name -> (spec, loc)
        self.hooks: dict[str, Predicate] = {}
        self.what = what
        self._resolved: dict[str, Predicate] = {}
        self._resolving: list[str] = []

    def names(self) -> list[str]:
        return [*self.builtins, *self.declared, *self.hooks]

    def declare(self, name: str, spec, loc) -> None:
        if name in self.builtins:
            raise loc.error(f"'{name}' is a built-in {self.what}; declare another name")
        if name in self.hooks:
            raise loc.error(f"'{name}' is already a hook {self.what}")
        self.declared[name] = (spec, loc)
        self._resolved.clear()

    def add_hook(self, name: str, predicate: Predicate, loc) -> None:
        if name in self.builtins or name in self.declared:
            raise loc.error(f"hook '{name}': a {'built-in' if name in self.builtins else 'declared'} "
                            f"{self.what} has this name")
        self.hooks[name] = predicate

    def lookup(self, name: str, loc) -> Predicate:
        if name in self.builtins:
            return self.builtins[name]
        if name in self.hooks:
            return self.hooks[name]
        if name in self._resolved:
            return self._resolved[name]
        if name in self.declared:
            if name in self._resolving:
                cycle = " -> ".join(self._resolving[self._resolving.index(name):] + [name])
                raise loc.error(f"{self.what} '{name}' is defined in terms of itself ({cycle})")
            spec, spec_loc = self.declared[name]
            self._resolving.append(name)
            try:
                found = self._resolved[name] = parse_predicate(spec, spec_loc, self)
            finally:
                self._resolving.pop()
            return found
        raise loc.error(unknown(self.what, name, self.names()))


# --------------------------------------------------------------------------- parsing


SPEC_KEYS = ("op_name", "when", "trait", "operands", "results")
GROUP_KEYS = ("count", "rank", "elements", "bytes", "index")
COMBINATORS = ("all", "any", "not")


def _loc(spec, key, default):
    getter = getattr(spec, "loc_of", None)
    return getter(key) if getter is not None and key in spec else default


def _key_loc(spec, key, default):
    getter = getattr(spec, "key_loc", None)
    return getter(key) if getter is not None else default


def parse_predicate(spec, loc, scope: PredicateScope) -> Predicate:
    """The predicate `spec` (a name or a mapping, see the module docstring)."""
    loc = loc if loc is not None else NoLoc()
    if isinstance(spec, str):
        return scope.lookup(spec, getattr(spec, "loc", None) or loc)
    if not isinstance(spec, dict) or not spec:
        raise loc.error(f"a {scope.what} is a name or a mapping of conditions, got {spec!r}")
    for key in spec:
        if key not in SPEC_KEYS + COMBINATORS:
            raise _key_loc(spec, key, loc).error(unknown(f"{scope.what} key", key, SPEC_KEYS + COMBINATORS))
    combinator = [k for k in spec if k in COMBINATORS]
    if combinator:
        if len(spec) != 1:
            raise _key_loc(spec, combinator[0], loc).error(
                f"'{combinator[0]}' stands alone in its mapping (write {{all: [...]}} to combine)")
        return _combined(combinator[0], spec[combinator[0]], _loc(spec, combinator[0], loc), scope)
    if "when" in spec and "op_name" not in spec:
        raise _key_loc(spec, "when", loc).error("'when' (attribute values) needs 'op_name' beside it")
    tests: list[Callable[[ir.Operation, Any], bool]] = []
    if "op_name" in spec:
        tests.append(_op_name_test(spec["op_name"], spec.get("when"), _loc(spec, "op_name", loc),
                                   _loc(spec, "when", loc)))
    if "trait" in spec:
        tests.append(_trait_test(spec["trait"], _loc(spec, "trait", loc)))
    for group in ("operands", "results"):
        if group in spec:
            tests.append(_group_test(group, spec[group], _loc(spec, group, loc)))

    def predicate(op: OpView, factor: int) -> bool:
        operation, table = op.operation, op.table
        return all(test(operation, table) for test in tests)
    return mark(predicate)


def _combined(kind: str, value, loc, scope: PredicateScope) -> Predicate:
    if kind == "not":
        inner = parse_predicate(value, loc, scope)
        by_kind, structural, _ = marks(inner)
        return mark(lambda op, f: not inner(op, f), by_factor_kind=by_kind, structural=structural)
    if not isinstance(value, list) or not value:
        raise loc.error(f"'{kind}' is a non-empty list of predicates")
    locs = getattr(value, "item_locs", [loc] * len(value))
    parts = [parse_predicate(s, item_loc, scope) for s, item_loc in zip(value, locs)]
    by_kind = all(marks(p)[0] for p in parts)
    structural = all(marks(p)[1] for p in parts)
    if kind == "all":
        return mark(lambda op, f: all(p(op, f) for p in parts), by_factor_kind=by_kind,
                    structural=structural, always_true=all(marks(p)[2] for p in parts))
    return mark(lambda op, f: any(p(op, f) for p in parts), by_factor_kind=by_kind,
                structural=structural, always_true=any(marks(p)[2] for p in parts))


def _op_name_test(value, when, loc, when_loc):
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise loc.error("'op_name' is an op name, a glob (stablehlo.*) or a list of them")
    name_locs = getattr(names, "item_locs", [loc] * len(names))
    exact, globs = set(), []
    for name, name_loc in zip(names, name_locs):
        name_loc = getattr(name, "loc", None) or name_loc
        name = str(name)
        if any(c in name for c in "*?["):
            globs.append(name)
        else:
            check_op_name(name, name_loc)
            exact.add(name)
    condition: Condition | None = None
    if when is not None:
        # Attribute names are checked against each named op (a glob's ops are not known here).
        conditions = [condition_from_data(name, when, when_loc) for name in sorted(exact)]
        condition = conditions[0] if conditions else condition_from_data("", when, when_loc)

    def test(operation, table) -> bool:
        name = operation.name
        if name not in exact and not any(fnmatch.fnmatchcase(name, g) for g in globs):
            return False
        return condition is None or condition.holds(operation)
    return test


def _trait_test(value, loc):
    traits = [value] if isinstance(value, str) else value
    if not isinstance(traits, list) or not traits:
        raise loc.error("'trait' is a trait name or a list of them")
    for trait in traits:
        if trait not in TRAITS:
            raise (getattr(trait, "loc", None) or loc).error(unknown("trait", trait, TRAITS))
    return lambda operation, table: all(table.has_trait(operation, str(t)) for t in traits)


def _number_test(value, loc, what: str) -> Callable[[int | None], bool]:
    """`N` (exactly) or `{min: N, max: M}` (inclusive; either may be left out)."""
    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0
    if is_int(value):
        return lambda n: n == value
    if isinstance(value, dict) and value and set(value) <= {"min", "max"} and all(map(is_int, value.values())):
        lo, hi = value.get("min", 0), value.get("max")
        return lambda n: n is not None and n >= lo and (hi is None or n <= hi)
    raise loc.error(f"'{what}' is a number or {{min: N, max: M}}, got {value!r}")


_FACTS = {"rank": lambda v: shaped(v).rank if shaped(v) is not None else None,
          "elements": element_count, "bytes": byte_count}


def _group_test(group: str, value, loc):
    """`operands:` / `results:` (see the module docstring)."""
    spec = {"count": value} if not isinstance(value, dict) or set(value) <= {"min", "max"} else value
    for key in spec:
        if key not in GROUP_KEYS:
            raise _key_loc(spec, key, loc).error(unknown(f"'{group}' key", key, GROUP_KEYS))
    count = _number_test(spec["count"], _loc(spec, "count", loc), "count") if "count" in spec else None
    facts = [(_FACTS[k], _number_test(spec[k], _loc(spec, k, loc), k)) for k in ("rank", "elements", "bytes")
             if k in spec]
    index = spec.get("index")
    if index is not None and not (isinstance(index, int) and not isinstance(index, bool) and index >= 0):
        raise _loc(spec, "index", loc).error(f"'index' is a {group[:-1]} number, got {index!r}")

    def test(operation, table) -> bool:
        values = operation.operands if group == "operands" else operation.results
        if count is not None and not count(len(values)):
            return False
        if not facts:
            return True
        chosen = ([values[index]] if index < len(values) else []) if index is not None else values
        return any(all(holds(fact(v)) for fact, holds in facts) for v in chosen)
    return test
