"""The op sharding rule registry: which OpShardingRule each op has.

Rules are declared in a YAML file (rules/propagation/op_sharding_rules.yaml,
documented in docs/op_sharding_rules.md); the parts that depend on an op's
attributes are builder hooks in the Python module beside it. The file is read
and checked (errors point into it) by sdy_dsl/interp/op_rules_loader.py into
the declarations here; the registry answers `sharding_rule_for(op)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from jaxlib.mlir import ir

from ..diagnostics import emit_warning
from ..errors import RuleFileError
from .op_registry import active
from .op_sharding_rule import NULL_DIM, PASS_THROUGH, SHARDING_RULE_ATTR, OpShardingRule, RuleBuilder, tensor_shapes

__all__ = ["OpShardingRuleRegistry", "populate_op_sharding_rules", "sharding_rule_for"]

TRAIT_PREFIX = "trait:"  # the key of a `traits:` entry among the declarations

Loc = Any  # a rule-file location (interp.yaml_loader.Loc): `.error(message)` makes the error


def _types(op) -> tuple:
    return (tuple(v.type for v in op.operands), tuple(v.type for v in op.results))


def _op_where(op) -> str:
    return f"'{op.name}' at {op.location}"


# ---------------------------------------------------------------- declarations


class Declaration:
    """How one op (or one custom_call target) gets its rule."""

    loc: Loc

    def rule(self, op: ir.Operation, conservative: bool) -> OpShardingRule | None:
        raise NotImplementedError


class NoRule(Declaration):
    def __init__(self, loc: Loc):
        self.loc = loc

    def rule(self, op, conservative):
        return None


class Elementwise(Declaration):
    """Dimension d of every tensor is factor d, sized by the first result."""

    def __init__(self, loc: Loc):
        self.loc = loc
        self._cache: dict = {}

    def rule(self, op, conservative):
        key = _types(op)
        found = self._cache.get(key)
        if found is None:
            operand_shapes = tensor_shapes(op.operands)
            result_shapes = tensor_shapes(op.results)
            if not result_shapes:
                return None
            found = self._cache[key] = RuleBuilder.pointwise(operand_shapes, result_shapes)
        return found


@dataclass(frozen=True)
class TensorPattern:
    has_batch: bool            # starts with `...`
    dims: tuple[str | None, ...]  # factor name per named dimension; None for `_`


class Einsum(Declaration):
    """A fixed-arity rule written like `([..., i, j], [j]) -> ([..., i])`."""

    def __init__(self, loc: Loc, operands: list[TensorPattern], results: list[TensorPattern],
                 order: list[str], kinds: dict[str, str], blocked: set[str], is_custom: bool):
        self.loc = loc
        self.operands, self.results = operands, results
        self.order, self.kinds, self.blocked, self.is_custom = order, kinds, blocked, is_custom
        self._cache: dict = {}

    def rule(self, op, conservative):
        key = _types(op)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._build(op)
        return found

    def _error(self, op, message: str) -> RuleFileError:
        return self.loc.error(f"rule does not fit op {_op_where(op)}: {message}")

    def _build(self, op) -> OpShardingRule:
        operand_shapes = tensor_shapes(op.operands)
        result_shapes = tensor_shapes(op.results)
        if len(operand_shapes) != len(self.operands) or len(result_shapes) != len(self.results):
            raise self._error(op, f"the rule has {len(self.operands)} operand(s) and "
                                  f"{len(self.results)} result(s), the op "
                                  f"{len(operand_shapes)} and {len(result_shapes)}")
        tensors = [(f"operand {i}", p, s) for i, (p, s) in
                   enumerate(zip(self.operands, operand_shapes))]
        tensors += [(f"result {i}", p, s) for i, (p, s) in
                    enumerate(zip(self.results, result_shapes))]

        # How many leading batch dimensions each tensor has, and their sizes.
        batch_shape: tuple[int, ...] | None = None
        batch_counts = []
        for where, pattern, shape in tensors:
            extra = len(shape) - len(pattern.dims)
            if extra < 0 or (extra > 0 and not pattern.has_batch):
                raise self._error(op, f"{where} has rank {len(shape)}, the rule gives it "
                                      f"{len(pattern.dims)} dimension(s)"
                                      + (" and more" if pattern.has_batch else ""))
            if extra and batch_shape is None:
                batch_shape = shape[:extra]
            elif extra and extra != len(batch_shape):
                raise self._error(op, f"{where} has {extra} batch dimension(s), an earlier "
                                      f"tensor {len(batch_shape)}")
            batch_counts.append(extra)

        builder = RuleBuilder(operand_shapes, result_shapes)
        num_operands = len(operand_shapes)
        for batch_dim, size in enumerate(batch_shape or ()):
            dims = [batch_dim if count else NULL_DIM for count in batch_counts]
            builder.add_factor(dims[:num_operands], dims[num_operands:], size)

        for name in self.order:
            size = size_where = None
            dims = []
            for (where, pattern, shape), count in zip(tensors, batch_counts):
                if name in pattern.dims:
                    dim = count + pattern.dims.index(name)
                    if size is None:
                        size, size_where = shape[dim], where
                    elif shape[dim] != size:
                        raise self._error(op, f"factor '{name}' has size {size} in {size_where} "
                                              f"but {shape[dim]} in {where}")
                    dims.append(dim)
                else:
                    dims.append(NULL_DIM)
            builder.add_factor(dims[:num_operands], dims[num_operands:], size,
                               self.kinds.get(name, PASS_THROUGH), name in self.blocked)
        return builder.build(is_custom=self.is_custom)


class Builder(Declaration):
    """A builder hook computes the rule from the op's attributes."""

    def __init__(self, loc: Loc, name: str, fn: Callable, kwargs: dict,
                 role_kinds: dict[str, str] | None = None, blocked_roles: frozenset[str] = frozenset()):
        self.loc, self.name, self.fn, self.kwargs = loc, name, fn, kwargs
        self.role_kinds, self.blocked_roles = role_kinds or {}, blocked_roles

    def rule(self, op, conservative):
        built = self.fn(op, conservative, **self.kwargs)
        if built is None or not (self.role_kinds or self.blocked_roles):
            return built
        return built.with_role_kinds(self.role_kinds, self.blocked_roles)


class ByAttribute(Declaration):
    """Chooses a declaration by the value of a string attribute."""

    def __init__(self, loc: Loc, attr_name: str, cases: dict[str, Declaration],
                 default: Declaration, has_default: bool = True):
        self.loc, self.attr_name, self.cases, self.default = loc, attr_name, cases, default
        self.has_default = has_default

    def merged_over(self, previous: "ByAttribute") -> "ByAttribute":
        cases = dict(previous.cases)
        for value, declaration in self.cases.items():
            if declaration is DELETE:
                cases.pop(value, None)
            else:
                cases[value] = declaration
        default = self.default if self.has_default else previous.default
        return ByAttribute(self.loc, self.attr_name, cases, default,
                           self.has_default or previous.has_default)

    def choose(self, op) -> Declaration | None:
        """The declaration for the op's attribute value (None: unknown)."""
        attrs = op.attributes
        if self.attr_name in attrs:
            attr = attrs[self.attr_name]
            if isinstance(attr, ir.StringAttr):
                found = self.cases.get(attr.value)
                if found is not None:
                    return found
        return self.default if self.has_default else None

    def rule(self, op, conservative):
        chosen = self.choose(op)
        return chosen.rule(op, conservative) if chosen is not None else None


class _Delete(Declaration):
    """`delete` in a user's file: remove the declaration below it."""

    loc = None

    def rule(self, op, conservative):
        return None


DELETE = _Delete()


# ---------------------------------------------------------------- the registry


class OpShardingRuleRegistry:
    """Declarations by op name: the built-in rule file, then users' files over it.

    A later file's entry replaces the op's declaration, except that two `by:`
    declarations on the same attribute merge per case (a user's file adds or
    replaces one custom_call target); `OP: delete` / `VALUE: delete` removes
    an op's or a case's declaration."""

    def __init__(self, layers: list[dict[str, Declaration]], interfaces=None):
        """`layers`: the declarations of each rule file, built-in first (read by
        sdy_dsl/interp/op_rules_loader.py), by op name, and by `trait:NAME` for
        the ops with an interfaces.yaml trait and no declaration of their own;
        `interfaces`: the op facts asked for traits and terminators (no
        unknown-op warning for those); default: the running pass's."""
        self.declarations: dict[str, Declaration] = {}
        self.warned: set[str] = set()  # kinds of unknown op already warned about
        self._interfaces = interfaces
        for layer in layers:
            for op_name, declaration in layer.items():
                if declaration is DELETE:
                    # (kept: a deleted op gets no rule, not its traits')
                    self.declarations[op_name] = DELETE
                    continue
                previous = self.declarations.get(op_name)
                if (isinstance(declaration, ByAttribute) and isinstance(previous, ByAttribute)
                        and declaration.attr_name == previous.attr_name):
                    declaration = declaration.merged_over(previous)
                self.declarations[op_name] = declaration

    @property
    def interfaces(self):
        return self._interfaces if self._interfaces is not None else active().interfaces

    @cached_property
    def by_trait(self) -> tuple:
        """(trait, declaration) of the `traits:` entries, in order."""
        return tuple((name[len(TRAIT_PREFIX):], d) for name, d in self.declarations.items()
                     if name.startswith(TRAIT_PREFIX))

    def declaration_for(self, op_name: str) -> Declaration | None:
        """The declaration of an op name (its own, not a trait's)."""
        return self.declarations.get(op_name)

    def never_has_rule(self, op_name: str) -> bool:
        """Whether the registry gives no op of this name a rule (`none`)."""
        return isinstance(self.declarations.get(op_name), NoRule)

    def declaration_of(self, op) -> Declaration | None:
        """The op's declaration: its own, else that of a trait it has."""
        declaration = self.declarations.get(op.name)
        if declaration is None:
            for trait, by_trait in self.by_trait:
                if self.interfaces.has_trait(op, trait):
                    return by_trait
        return declaration

    def create_rule(self, op, conservative: bool = False) -> OpShardingRule | None:
        """The registry's rule for `op`, ignoring any rule already attached to it.

        An op the registry does not know gets Shardy's warning, the first of
        each kind (op, custom call) in this registry's run only."""
        op = op.operation
        declaration = self.declaration_of(op)
        if isinstance(declaration, ByAttribute) and declaration.choose(op) is None:
            self._warn_unknown(op, declaration)
            return None
        if declaration is None or declaration is DELETE:
            self._warn_unknown(op, None)
            return None
        return declaration.rule(op, conservative)

    def _warn_unknown(self, op, by: "ByAttribute | None") -> None:
        if by is not None and by.attr_name == "call_target_name":
            kind, message = "custom call", (f"custom call @{ir.StringAttr(op.attributes['call_target_name']).value}"
                                            " is unknown to SDY sharding rule registry")
        else:
            if self.interfaces.is_terminator(op):
                return
            kind, message = "op", f"op '{op.name}' is unknown to SDY sharding rule registry"
        if kind not in self.warned:
            self.warned.add(kind)
            emit_warning(op, message)

    def rule_for(self, op, conservative: bool = False) -> OpShardingRule | None:
        """The op's rule: the one attached to it (`sdy.sharding_rule`), else the registry's."""
        op = op.operation
        attrs = op.attributes
        if SHARDING_RULE_ATTR in attrs:
            return OpShardingRule.from_attr(attrs[SHARDING_RULE_ATTR])
        return self.create_rule(op, conservative)

    def populate(self, module_op, conservative: bool = False) -> None:
        """Attach `sdy.sharding_rule` to every op in every function that has a rule
        and none attached yet (like the reference's populate pass)."""
        attrs_by_rule: dict[OpShardingRule, ir.Attribute] = {}

        def visit(op):
            op = op.operation
            attrs = op.attributes
            if SHARDING_RULE_ATTR not in attrs:
                rule = self.create_rule(op, conservative)
                if rule is not None:
                    attr = attrs_by_rule.get(rule)
                    if attr is None:
                        attr = attrs_by_rule[rule] = rule.to_attr(op.context)
                    attrs[SHARDING_RULE_ATTR] = attr
            return ir.WalkResult.ADVANCE

        module_op = module_op.operation
        if module_op.name == "func.func":  # run as a function pass
            module_op.walk(visit, ir.WalkOrder.POST_ORDER)
            return
        for region in module_op.regions:
            for block in region.blocks:
                for op in block.operations:
                    if op.operation.name == "func.func":
                        op.operation.walk(visit, ir.WalkOrder.POST_ORDER)


def sharding_rule_for(op, conservative: bool = False,
                      registry: OpShardingRuleRegistry | None = None) -> OpShardingRule | None:
    """The OpShardingRule of `op` (an ir.Operation or OpView), or None if it has none
    (default registry: the running pass's)."""
    return (registry or active().sharding_rules).rule_for(op, conservative)


def populate_op_sharding_rules(module_op, conservative: bool = False,
                               registry: OpShardingRuleRegistry | None = None) -> None:
    """Set `sdy.sharding_rule` on every op of every function that has a rule."""
    (registry or active().sharding_rules).populate(module_op, conservative)
