"""Reading op sharding rule files (rules/propagation/op_sharding_rules.yaml,
docs/op_sharding_rules.md) into the runtime's declarations
(sdy_dsl/runtime/op_sharding_rule_registry.py): einsum-like rules, builder
hooks (with their `with:` arguments checked against the hook's signature),
`by:` dispatch on an attribute, `delete`. Every error points into the file.
"""
from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path
from typing import Callable

from ..errors import RuleFileError
from ..hooks import hooks_of_module, load_hook_module, parameters
from ..resources import builtin_rules_dir
from ..runtime.interfaces import TRAITS, check_attr_names, check_op_name
from ..runtime.op_sharding_rule import NEED_REPLICATION, PERMUTATION, REDUCTION, roles_of
from ..runtime.op_sharding_rule_registry import (DELETE, TRAIT_PREFIX, Builder, ByAttribute,
                                                 Declaration, Einsum, Elementwise, NoRule,
                                                 OpShardingRuleRegistry, TensorPattern)
from .yaml_loader import Loc, LocDict, LocList, LocStr, load_yaml

RULE_FILE_NAME = "op_sharding_rules.yaml"
TRAITS_KEY = "traits"

# A builder declaration's keys that give a kind (or blocking) to factors by role.
ROLE_KIND_KEYS = ("reduction", "need_replication", "permutation", "pass_through", "blocked_propagation")
KIND_KEYS = {"reduction": REDUCTION, "need_replication": NEED_REPLICATION,
             "permutation": PERMUTATION}


def default_rule_file() -> Path:
    """rules/propagation/op_sharding_rules.yaml, in the source tree or the package."""
    return builtin_rules_dir() / "propagation" / RULE_FILE_NAME


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
            if op_name == TRAITS_KEY:
                declarations.update(self.by_trait(value, document.loc_of(op_name)))
                continue
            key_loc = document.key_loc(op_name)
            if not isinstance(op_name, str) or "." not in op_name:
                raise key_loc.error(f"expected an op name like 'stablehlo.add', got '{op_name}'")
            check_op_name(op_name, key_loc)
            self.op_name = op_name
            declarations[op_name] = self.declaration(value, document.loc_of(op_name))
        return declarations

    def by_trait(self, mapping, loc: Loc) -> dict[str, Declaration]:
        """`traits: {TRAIT: DECLARATION}`: the declaration of the ops with an
        interfaces.yaml trait and no entry of their own."""
        if not isinstance(mapping, LocDict):
            raise loc.error(f"'{TRAITS_KEY}' maps a trait of interfaces.yaml to a declaration")
        found = {}
        for trait, value in mapping.items():
            if trait not in TRAITS:
                raise mapping.key_loc(trait).error(
                    f"unknown trait '{trait}' (expected one of: {', '.join(TRAITS)})")
            self.op_name = f"ops with the {trait} trait"
            found[TRAIT_PREFIX + trait] = self.declaration(value, mapping.loc_of(trait))
        return found

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
        P = inspect.Parameter
        params = parameters(fn)  # (name, kind, has a default)
        positional = [p for p in params if p[1] in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
        if len(positional) < 2 and not any(kind is P.VAR_POSITIONAL for _, kind, _ in params):
            raise name_loc.error(f"builder '{name}' must take (op, conservative)")
        keyword_names = [p[0] for p in positional[2:]] + [
            param_name for param_name, kind, _ in params if kind is P.KEYWORD_ONLY]
        for key in kwargs:
            if key not in keyword_names:
                raise mapping["with"].key_loc(key).error(
                    f"builder '{name}' has no argument '{key}'"
                    + (f"; it takes: {', '.join(keyword_names)}" if keyword_names
                       else "; it takes none"))
        for param_name, _, has_default in positional[2:]:
            if not has_default and param_name not in kwargs:
                raise name_loc.error(f"builder '{name}' needs argument '{param_name}' under 'with'")
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
        if not values:  # (resolving the hints evaluates every annotation: ~0.1 ms a builder)
            return
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


def load_declarations(path: Path | str) -> dict[str, Declaration]:
    """The declarations of one rule file."""
    return _Loader(Path(path)).load()


def registry_of_files(paths=None, interfaces=None) -> OpShardingRuleRegistry:
    """A registry of rule files layered in order (default: the built-in file);
    `interfaces`: the op facts its `traits:` ask (default: the running pass's)."""
    if paths is None:
        paths = [default_rule_file()]
    elif isinstance(paths, (str, Path)):
        paths = [paths]
    return OpShardingRuleRegistry([load_declarations(p) for p in paths], interfaces)


_registries: dict[Path, OpShardingRuleRegistry] = {}


def load_registry(path: Path | str) -> OpShardingRuleRegistry:
    """The registry of one rule file alone, loaded once."""
    key = Path(path).resolve()
    registry = _registries.get(key)
    if registry is None:
        registry = _registries[key] = registry_of_files([key])
    return registry
