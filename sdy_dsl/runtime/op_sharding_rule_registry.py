"""The op sharding rule registry: which OpShardingRule each op has.

Rules are declared in a YAML file (rules/propagation/op_sharding_rules.yaml,
documented in docs/op_sharding_rules.md); the parts that depend on an op's
attributes are builder hooks in the Python module beside it. This module
loads and checks the declarations (errors point into the file), and answers
`sharding_rule_for(op)`.
"""
from __future__ import annotations

import inspect
import re
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from jaxlib.mlir import ir

from ..errors import RuleFileError
from ..resources import builtin_rules_dir
from ..hooks import hooks_of_module, load_hook_module
from ..interp.yaml_loader import Loc, LocDict, LocList, LocStr, load_yaml
from .interfaces import check_attr_names, check_op_name
from .op_sharding_rule import (
    NEED_REPLICATION, NULL_DIM, PASS_THROUGH, PERMUTATION, REDUCTION, SHARDING_RULE_ATTR,
    OpShardingRule, RuleBuilder, roles_of, tensor_shapes)

__all__ = ["OpShardingRuleRegistry", "default_rule_file", "load_registry",
           "populate_op_sharding_rules", "sharding_rule_for"]

RULE_FILE_NAME = "op_sharding_rules.yaml"

# A builder declaration's keys that give a kind (or blocking) to factors by role.
ROLE_KIND_KEYS = ("reduction", "need_replication", "permutation", "pass_through", "blocked_propagation")
KIND_KEYS = {"reduction": REDUCTION, "need_replication": NEED_REPLICATION,
             "permutation": PERMUTATION}


def default_rule_file() -> Path:
    """rules/propagation/op_sharding_rules.yaml, in the source tree or the package."""
    return builtin_rules_dir() / "propagation" / RULE_FILE_NAME


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


# ---------------------------------------------------------------- parsing the rule file

_TOKEN_RE = re.compile(r"\s*(?:(?P<arrow>->)|(?P<ellipsis>\.\.\.)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                       r"|(?P<punct>[()\[\],]))")


def _parse_einsum(text: str, loc: Loc) -> tuple[list[TensorPattern], list[TensorPattern]]:
    """Parse `(T, ...) -> (T, ...)`, each T a bracketed list of factor names."""
    tokens = []  # (kind, value, offset)
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN_RE.match(text, pos)
        if not match:
            start = len(text) - len(text[pos:].lstrip())
            raise _at(loc, text, start, f"unexpected character '{text[start]}' in rule")
        kind = match.lastgroup
        tokens.append((kind, match.group(kind), match.start(kind)))
        pos = match.end()
    tokens.append(("end", "", len(text)))
    index = 0

    def peek():
        return tokens[index]

    def expect(value: str):
        nonlocal index
        kind, got, offset = tokens[index]
        if got != value or kind == "end" and value:
            raise _at(loc, text, offset, f"expected '{value}' in rule, found "
                      + (f"'{got}'" if kind != "end" else "the end"))
        index += 1

    def tensor() -> TensorPattern:
        nonlocal index
        expect("[")
        has_batch, dims, seen = False, [], {}
        if peek()[1] != "]":
            while True:
                kind, value, offset = peek()
                if kind == "ellipsis":
                    if dims or has_batch:
                        raise _at(loc, text, offset, "'...' must be the first dimension")
                    has_batch = True
                elif kind == "name":
                    if value == "_":
                        dims.append(None)
                    else:
                        if value in seen:
                            raise _at(loc, text, offset,
                                      f"factor '{value}' appears twice in one tensor")
                        seen[value] = offset
                        dims.append(value)
                else:
                    raise _at(loc, text, offset, "expected a factor name, '_' or '...' in rule")
                index += 1
                if peek()[1] == ",":
                    index += 1
                    continue
                break
        expect("]")
        return TensorPattern(has_batch, tuple(dims))

    def tensor_list() -> list[TensorPattern]:
        nonlocal index
        expect("(")
        found = []
        if peek()[1] != ")":
            found.append(tensor())
            while peek()[1] == ",":
                index += 1
                found.append(tensor())
        expect(")")
        return found

    operands = tensor_list()
    expect("->")
    results = tensor_list()
    kind, value, offset = peek()
    if kind != "end":
        raise _at(loc, text, offset, f"unexpected '{value}' after the rule")
    return operands, results


def _at(loc: Loc, text: str, offset: int, message: str) -> RuleFileError:
    return loc.shifted(text, offset).error(message)


def _factor_sort_key(name: str):
    # Shardy's own names sort i..z, z_1, z_2, ... z_10 in index order.
    match = re.fullmatch(r"(.*?)(\d+)", name)
    return (match.group(1), int(match.group(2))) if match else (name, -1)


class _Loader:
    """Reads one rule file into declarations."""

    def __init__(self, path: Path, hook_module_path: Path | None = None):
        self.path = Path(path)
        self.hook_module_path = hook_module_path
        self._hooks: dict[str, Callable] | None = None
        self.op_name = ""  # the op whose declaration is being read

    def hooks(self, loc: Loc) -> dict[str, Callable]:
        if self._hooks is None:
            path = self.hook_module_path or self.path.with_suffix(".py")
            if not path.is_file() and self.hook_module_path is None:
                # A user's copy of the declarations uses the built-in builders.
                path = default_rule_file().with_suffix(".py")
            if not path.exists():
                raise loc.error(f"builders need a hook module, and '{path.name}' does not exist")
            try:
                module = load_hook_module(path)
            except Exception as e:  # a broken hook module is the rule file's problem
                raise loc.error(f"cannot load hook module '{path.name}': {e}") from e
            self._hooks = hooks_of_module(module)
        return self._hooks

    def load(self) -> dict[str, Declaration]:
        document = load_yaml(self.path)
        file_loc = Loc(str(self.path), 1, 1)
        if document is None:
            return {}
        if not isinstance(document, LocDict):
            raise getattr(document, "loc", file_loc).error(
                "an op sharding rule file is a mapping from op names to declarations")
        if "hooks" in document:
            hooks_name = document["hooks"]
            if not isinstance(hooks_name, str):
                raise document.loc_of("hooks").error("'hooks' must name a Python file")
            self.hook_module_path = self.path.parent / hooks_name
        declarations = {}
        for op_name, value in document.items():
            if op_name == "hooks":
                continue
            key_loc = document.key_loc(op_name)
            if not isinstance(op_name, str) or "." not in op_name:
                raise key_loc.error(f"expected an op name like 'stablehlo.add', got '{op_name}'")
            check_op_name(op_name, key_loc)
            self.op_name = op_name
            declarations[op_name] = self.declaration(value, document.loc_of(op_name))
        return declarations

    def declaration(self, value, loc: Loc) -> Declaration:
        loc = getattr(value, "loc", None) or loc
        if isinstance(value, str):
            if value == "elementwise":
                return Elementwise(loc)
            if value == "none":
                return NoRule(loc)
            if value == "delete":
                return DELETE
            if value.lstrip().startswith("("):
                return self.einsum(value, loc, None)
            raise loc.error(f"unknown declaration '{value}'; expected 'elementwise', 'none', "
                            "'delete', an einsum-like rule \"(...) -> (...)\" or a mapping")
        if value is None:
            raise loc.error("empty declaration; write 'none' for an op without a rule")
        if not isinstance(value, LocDict):
            raise loc.error("a declaration is 'elementwise', 'none', a rule string or a mapping")
        if "rule" in value:
            return self.einsum(value["rule"], value.loc_of("rule"), value)
        if "builder" in value:
            return self.builder(value)
        if "by" in value:
            return self.by_attribute(value)
        raise loc.error("a declaration mapping needs 'rule', 'builder' or 'by'")

    @staticmethod
    def _check_keys(mapping: LocDict, allowed: tuple[str, ...], what: str) -> None:
        for key in mapping:
            if key not in allowed:
                raise mapping.key_loc(key).error(
                    f"unknown key '{key}' in {what}; expected one of: " + ", ".join(allowed))

    def einsum(self, text, loc: Loc, mapping: LocDict | None) -> Einsum:
        if not isinstance(text, str):
            raise loc.error("a rule is a string like \"([i, j]) -> ([j, i])\"")
        text_loc = getattr(text, "loc", loc)
        operands, results = _parse_einsum(str(text), text_loc)
        names: list[str] = []
        for pattern in operands + results:
            for name in pattern.dims:
                if name is not None and name not in names:
                    names.append(name)
        kinds: dict[str, str] = {}
        blocked: set[str] = set()
        order = sorted(names, key=_factor_sort_key)
        is_custom = False
        if mapping is not None:
            self._check_keys(mapping, ("rule", "reduction", "need_replication", "permutation",
                                       "blocked_propagation", "factors", "custom"), "a rule")
            for key, kind in KIND_KEYS.items():
                for name, name_loc in self.factor_list(mapping, key, names):
                    if name in kinds:
                        raise name_loc.error(f"factor '{name}' is already {kinds[name]}")
                    kinds[name] = kind
            blocked = {name for name, _ in self.factor_list(mapping, "blocked_propagation", names)}
            if "factors" in mapping:
                listed = self.factor_list(mapping, "factors", names)
                order = [name for name, _ in listed]
                if len(set(order)) != len(order) or set(order) != set(names):
                    raise mapping.loc_of("factors").error(
                        "'factors' must list every factor of the rule once: "
                        + ", ".join(sorted(names, key=_factor_sort_key)))
            if "custom" in mapping:
                if not isinstance(mapping["custom"], bool):
                    raise mapping.loc_of("custom").error("'custom' must be true or false")
                is_custom = mapping["custom"]
        return Einsum(loc, operands, results, order, kinds, blocked, is_custom)

    @staticmethod
    def factor_list(mapping: LocDict, key: str, names: list[str]) -> list[tuple[str, Loc]]:
        if key not in mapping:
            return []
        value = mapping[key]
        if not isinstance(value, LocList):
            raise mapping.loc_of(key).error(f"'{key}' must be a list of factor names")
        found = []
        for item, item_loc in zip(value, value.item_locs):
            if not isinstance(item, str) or item not in names:
                raise item_loc.error(f"'{item}' is not a factor of the rule; factors: "
                                     + ", ".join(sorted(names, key=_factor_sort_key)))
            found.append((str(item), item_loc))
        return found

    def builder(self, mapping: LocDict) -> Builder:
        self._check_keys(mapping, ("builder", "with") + ROLE_KIND_KEYS, "a builder declaration")
        name = mapping["builder"]
        name_loc = mapping.loc_of("builder")
        if not isinstance(name, str):
            raise name_loc.error("'builder' must name a hook")
        hooks = self.hooks(name_loc)
        if name not in hooks:
            raise name_loc.error(f"unknown builder '{name}'; hooks in "
                                 f"{(self.hook_module_path or self.path.with_suffix('.py')).name}: "
                                 + ", ".join(sorted(hooks)))
        fn = hooks[name]
        kwargs = mapping.get("with") or {}
        if not isinstance(kwargs, dict):
            raise mapping.loc_of("with").error("'with' must be a mapping of argument names to values")
        params = inspect.signature(fn).parameters
        positional = [p for p in params.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(positional) < 2 and not any(p.kind is p.VAR_POSITIONAL for p in params.values()):
            raise name_loc.error(f"builder '{name}' must take (op, conservative)")
        keyword_names = [p.name for p in positional[2:]] + [
            p.name for p in params.values() if p.kind is p.KEYWORD_ONLY]
        for key in kwargs:
            if key not in keyword_names:
                raise mapping["with"].key_loc(key).error(
                    f"builder '{name}' has no argument '{key}'"
                    + (f"; it takes: {', '.join(keyword_names)}" if keyword_names
                       else "; it takes none"))
        for param in positional[2:]:
            if param.default is param.empty and param.name not in kwargs:
                raise name_loc.error(f"builder '{name}' needs argument '{param.name}' under 'with'")
        plain = {str(k): _plain(v) for k, v in kwargs.items()}
        self.check_argument_values(name, fn, mapping, plain)
        role_kinds, blocked = self.role_kinds(name, fn, mapping)
        return Builder(name_loc, name, fn, plain, role_kinds, blocked)

    @staticmethod
    def role_kinds(name: str, fn: Callable, mapping: LocDict) -> tuple[dict[str, str], frozenset[str]]:
        """`KIND: [ROLE, ...]` of a builder declaration: the kind of each named
        role's factors (and `blocked_propagation: [ROLE]`), checked against the
        roles the builder declares (factor_roles)."""
        roles = roles_of(fn)
        kinds: dict[str, str] = {}
        blocked: set[str] = set()
        for key in ROLE_KIND_KEYS:
            if key not in mapping:
                continue
            value = mapping[key]
            if not isinstance(value, LocList):
                raise mapping.loc_of(key).error(f"'{key}' must be a list of factor roles of builder '{name}'")
            for item, item_loc in zip(value, value.item_locs):
                if item not in roles:
                    raise item_loc.error(
                        f"builder '{name}' has no factor role '{item}'"
                        + (f"; its roles: {', '.join(roles)}" if roles else "; it names none"))
                if key == "blocked_propagation":
                    blocked.add(str(item))
                elif item in kinds:
                    raise item_loc.error(f"role '{item}' is given two kinds ({kinds[item]} and {key})")
                else:
                    kinds[str(item)] = key
        return kinds, frozenset(blocked)

    @staticmethod
    def check_argument_values(name: str, fn: Callable, mapping: LocDict, values: dict) -> None:
        """Values of arguments annotated with a Literal must be one of its choices."""
        try:
            hints = typing.get_type_hints(fn)
        except Exception:  # unresolvable annotations: nothing to check
            return
        for key, value in values.items():
            hint = hints.get(key)
            if typing.get_origin(hint) is typing.Literal and value not in typing.get_args(hint):
                raise mapping["with"].loc_of(key).error(
                    f"builder '{name}': '{key}' must be one of: "
                    + ", ".join(str(c) for c in typing.get_args(hint)))

    def by_attribute(self, mapping: LocDict) -> ByAttribute:
        self._check_keys(mapping, ("by", "cases", "default"), "a 'by' declaration")
        attr_name = mapping["by"]
        if not isinstance(attr_name, str):
            raise mapping.loc_of("by").error("'by' must name a string attribute of the op")
        check_attr_names(self.op_name, [str(attr_name)], mapping.loc_of("by"))
        cases_node = mapping.get("cases")
        if not isinstance(cases_node, LocDict):
            raise mapping.loc_of("cases" if "cases" in mapping else "by").error(
                "'by' needs 'cases': a mapping from attribute values to declarations")
        cases = {}
        for value, declaration in cases_node.items():
            cases[str(value)] = self.declaration(declaration, cases_node.loc_of(value))
        if "default" in mapping:
            default = self.declaration(mapping["default"], mapping.loc_of("default"))
        else:
            default = None
        return ByAttribute(mapping.loc_of("by"), str(attr_name), cases, default, "default" in mapping)


def _plain(value):
    """YAML values without their location wrappers."""
    if isinstance(value, LocStr):
        return str(value)
    if isinstance(value, LocList):
        return [_plain(v) for v in value]
    if isinstance(value, LocDict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


# ---------------------------------------------------------------- the registry


class OpShardingRuleRegistry:
    """Declarations by op name: the built-in rule file, then users' files over it.

    A later file's entry replaces the op's declaration, except that two `by:`
    declarations on the same attribute merge per case (a user's file adds or
    replaces one custom_call target); `OP: delete` / `VALUE: delete` removes
    an op's or a case's declaration."""

    def __init__(self, paths=None):
        if paths is None:
            paths = [default_rule_file()]
        elif isinstance(paths, (str, Path)):
            paths = [paths]
        self.paths = [Path(p) for p in paths]
        self.path = self.paths[-1] if self.paths else default_rule_file()
        self.declarations: dict[str, Declaration] = {}
        self.warned: set[str] = set()  # kinds of unknown op already warned about
        for path in self.paths:
            for op_name, declaration in _Loader(path).load().items():
                if declaration is DELETE:
                    self.declarations.pop(op_name, None)
                    continue
                previous = self.declarations.get(op_name)
                if (isinstance(declaration, ByAttribute) and isinstance(previous, ByAttribute)
                        and declaration.attr_name == previous.attr_name):
                    declaration = declaration.merged_over(previous)
                self.declarations[op_name] = declaration

    def declaration_for(self, op_name: str) -> Declaration | None:
        return self.declarations.get(op_name)

    def create_rule(self, op, conservative: bool = False) -> OpShardingRule | None:
        """The registry's rule for `op`, ignoring any rule already attached to it.

        An op the registry does not know gets Shardy's warning, the first of
        each kind (op, custom call) in this registry's run only."""
        op = op.operation
        declaration = self.declarations.get(op.name)
        if isinstance(declaration, ByAttribute) and declaration.choose(op) is None:
            self._warn_unknown(op, declaration)
            return None
        if declaration is None:
            self._warn_unknown(op, None)
            return None
        return declaration.rule(op, conservative)

    def _warn_unknown(self, op, by: "ByAttribute | None") -> None:
        from ..diagnostics import emit_warning
        from .op_registry import active
        if by is not None and by.attr_name == "call_target_name":
            kind, message = "custom call", (f"custom call @{ir.StringAttr(op.attributes['call_target_name']).value}"
                                            " is unknown to SDY sharding rule registry")
        else:
            if active().interfaces.is_terminator(op):
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


_registries: dict[Path, OpShardingRuleRegistry] = {}


def load_registry(path: Path | str | None = None) -> OpShardingRuleRegistry:
    """The registry of one rule file alone, loaded once; without a path, the
    running pass's (its op registry's layers)."""
    if path is None:
        from .op_registry import active
        return active().sharding_rules
    key = Path(path).resolve()
    registry = _registries.get(key)
    if registry is None:
        registry = _registries[key] = OpShardingRuleRegistry(key)
    return registry


def sharding_rule_for(op, conservative: bool = False,
                      registry: OpShardingRuleRegistry | None = None) -> OpShardingRule | None:
    """The OpShardingRule of `op` (an ir.Operation or OpView), or None if it has none."""
    return (registry or load_registry()).rule_for(op, conservative)


def populate_op_sharding_rules(module_op, conservative: bool = False,
                               registry: OpShardingRuleRegistry | None = None) -> None:
    """Set `sdy.sharding_rule` on every op of every function that has a rule."""
    (registry or load_registry()).populate(module_op, conservative)
