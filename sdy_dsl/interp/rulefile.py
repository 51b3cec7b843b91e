"""Loading a rule file: validate it, compile its patterns, constraints and actions.

The schema is documented in docs/rule-language.md and published as
sdy_dsl/schemas/rule-file.schema.json. Every error names the file, line and
column of the offending YAML node.
"""
from __future__ import annotations

import dataclasses
import keyword

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

from jaxlib.mlir import ir

from ..hooks import PURE_MARK, hooks_of_module, load_hook_module
from . import parsing, syntax as S
from .builtins import BUILTINS, to_attr
from .context import ActionError
from .expr import CompileError, Env, ExprCompiler, Function
from .hook_guard import rule_hook
from .kernels import AttrKernel, compile_kernel
from .matcher import PatternError, compile_pattern
from .options import PassOptions, PassParams, field_name, options_class, params_class
from .param_types import ParamDecl, check_params, load_param_decl
from .yaml_loader import Loc, LocDict, load_yaml

ANCHORS = ("builtin.module", "func.func")
DRIVER_KINDS = ("walk", "greedy", "once")
RULE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
PASS_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
OPTION_TYPES = ("bool", "int", "string", "enum")
OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")  # also a Python field name (options.py)


# --------------------------------------------------------------------------- model


@dataclass
class OptionDecl:
    name: str
    type: str
    default: object
    help: str = ""
    values: tuple = ()
    loc: Loc | None = None

    def parse(self, text: str):
        """An option value from its pipeline spelling; raises ValueError."""
        if self.type == "bool":  # the spellings LLVM's command-line parser takes
            if text in ("true", "TRUE", "True", "1", ""):
                return True
            if text in ("false", "FALSE", "False", "0"):
                return False
            raise ValueError(f"option '{self.name}' expects a bool (true/false), got '{text}'")
        if self.type == "int":
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"option '{self.name}' expects an integer, got '{text}'") from None
        if self.type == "enum":
            if text not in self.values:
                raise ValueError(f"option '{self.name}' expects one of {', '.join(self.values)}, got '{text}'")
            return text
        return text

    def check_value(self, value) -> object:
        """Validate a value given in YAML (pipeline files); returns it."""
        if self.type == "bool" and not isinstance(value, bool):
            raise ValueError(f"option '{self.name}' expects a bool, got {value!r}")
        if self.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"option '{self.name}' expects an integer, got {value!r}")
        if self.type == "enum" and value not in self.values:
            raise ValueError(f"option '{self.name}' expects one of {', '.join(self.values)}, got {value!r}")
        if self.type == "string" and isinstance(value, (list, dict)):
            raise ValueError(f"option '{self.name}' expects a string, got a {'list' if isinstance(value, list) else 'mapping'}")
        if self.type == "string" and not isinstance(value, str):
            return str(value)
        return value


@dataclass
class DriverConfig:
    kind: str = "walk"
    max_iterations: int = 10
    top_down: bool = True
    post_order: bool = False  # `once` only: visit each op after the ops nested in it
    strictness: str = "any"  # any | existing-and-new | existing
    max_rewrites: int | None = None  # None: 10 per op of the anchor + 10,000


@dataclass
class Rule:
    id: str
    roots: tuple[str, ...]  # ('*',) for any op
    match: Callable[[ir.Operation], dict | None]
    where: list[tuple[Callable, str]]  # (compiled, source text)
    actions: list[Callable]
    benefit: int
    order: int
    loc: Loc
    summary: str = ""
    enabled: bool = True
    # For a `*` rule whose first constraint is a predicate on the root with
    # declared root names (expr.Function.root_names): that function.
    root_guard: Callable | None = None
    # How many leading constraints are invariant: pure and about no
    # metavariable, so the same for every op while the IR stays as it is.
    invariant_where: int = 0
    # No constraint, and every action changes only the root's attributes and
    # nothing on a root without any (e.g. for_each_sharding($op, ...)).
    only_on_root_attributes: bool = False
    # Every action changes only the root's attributes (set_attr($root, ...), ...).
    root_local: bool = False
    # Attributes the root must have for the pattern to match ({name}, {name = $x}).
    required_root_attrs: tuple[str, ...] = ()
    # The rule's fast form when it only edits its root's attributes (kernels.AttrKernel).
    kernel: AttrKernel | None = None


@dataclass
class Stage:
    name: str
    rules: list[Rule]
    driver: DriverConfig
    hook: Callable | None = None  # a whole-anchor step: hook(ctx)
    loc: Loc | None = None


@dataclass
class PassDef:
    name: str
    summary: str
    description: str
    anchor: str
    options: dict[str, OptionDecl]
    rules: list[Rule]
    stages: list[Stage]
    path: Path
    loc: Loc
    group: str = ""
    hooks: dict[str, Callable] = field(default_factory=dict)
    param_values: dict = field(default_factory=dict)  # `params:`, merged over the base's
    param_decls: dict[str, ParamDecl] = field(default_factory=dict)  # `param-types:`, the base's too
    own_params: dict = field(default_factory=dict)  # the `params:` this file sets itself (with locations)
    abstract: bool = False  # a base for `extends:` only, not run by itself
    base: "PassDef | None" = None

    def default_options(self) -> dict:
        return {name: decl.default for name, decl in self.options.items()}

    @cached_property
    def options_class(self) -> type:
        """The pass's options as one frozen typed class (see interp/options.py)."""
        return options_class(self.name, self.options)

    @cached_property
    def params(self) -> PassParams:
        """The pass's params as one frozen typed object (fields by Python name), for its hooks."""
        return params_class(self.name, self.param_decls)(
            **{field_name(k): self.param_values[k] for k in self.param_decls})

    def make_options(self, values: dict | None = None) -> PassOptions:
        """The pass's options object: the defaults, with `values` (by declared name) over them."""
        given = values or {}
        unknown = [name for name in given if name not in self.options]
        if unknown:
            raise KeyError(f"pass '{self.name}' has no option '{unknown[0]}'")
        return self.options_class(**{field_name(k): v for k, v in given.items()})


# --------------------------------------------------------------------------- loading

TOP_KEYS = {"pass", "summary", "description", "anchor", "options", "param-types", "driver", "stages", "rules", "hooks",
            "extends", "disable-rules", "params", "abstract"}
RULE_KEYS = {"id", "summary", "match", "where", "rewrite", "benefit"}


def _expect(cond, loc: Loc, message: str):
    if not cond:
        raise loc.error(message)


def _expect_string_keys(mapping, where: str, what: str) -> None:
    """Hooks and rules read a pass's params by name: a key YAML reads as a number (`5:`) is refused."""
    for key in mapping:
        _expect(isinstance(key, str), mapping.key_loc(key),
                f"'{where}': {what} name {key!r} must be a string (YAML reads it as {type(key).__name__}); "
                "quote it, or name it with a word")


def _text_loc(s, default: Loc, offset: int) -> Loc:
    """The position of character `offset` of a YAML string."""
    base = getattr(s, "loc", None) or default
    return base.shifted(str(s), offset)


def load_rule_file(path: Path | str, base_of: Callable | None = None, doc=None) -> PassDef:
    """Load and compile one pass's rule file.

    `base_of(name, loc)` returns the PassDef a file `extends:` (the pass
    registry resolves it); the file then adds rules, replaces rules of the
    same id, disables rules (`disable-rules: [ids]`) and adds options, hooks
    and params over the base. `doc`: the file's YAML, when the caller has
    loaded it already (the pass registry has, to find which pass it defines)."""
    path = Path(path)
    if doc is None:
        doc = load_yaml(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError):
        text = None  # load_yaml read it: only a race gets here
    if text is None:
        return _load_rule_doc(path, doc, base_of)
    with parsing.trees_cached_for(text):
        return _load_rule_doc(path, doc, base_of)


def _load_rule_doc(path: Path, doc, base_of: Callable | None) -> PassDef:
    top = Loc(str(path), 1, 1)
    _expect(isinstance(doc, LocDict), top, "a rule file is a mapping with at least 'pass', 'summary' and 'rules'")
    for key in doc:
        if key not in TOP_KEYS:
            raise doc.key_loc(key).error(f"unknown key '{key}'", notes=(f"expected one of: {', '.join(sorted(TOP_KEYS))}",))
    _expect("pass" in doc or "extends" in doc, doc.loc, "missing required key 'pass'")
    key = "pass" if "pass" in doc else "extends"  # `extends: P` alone adds to P itself
    name = doc[key]
    _expect(isinstance(name, str) and PASS_NAME.match(name.strip()), doc.loc_of(key),
            f"invalid pass name {name!r} (lowercase letters, digits and '-')")
    name = name.strip()
    base = None
    if "extends" in doc:
        _expect(isinstance(doc["extends"], str), doc.loc_of("extends"), "'extends' names the pass this one builds on")
        _expect(base_of is not None, doc.loc_of("extends"), "'extends' needs the pass registry")
        base = base_of(str(doc["extends"]).strip(), doc.loc_of("extends"), path)
    else:
        _expect("summary" in doc, doc.loc, "missing required key 'summary'")
        _expect("disable-rules" not in doc, doc.loc_of("disable-rules"), "'disable-rules' needs 'extends'")
    for key in ("summary", "description", "anchor", "hooks"):
        _expect(key not in doc or isinstance(doc[key], str), doc.loc_of(key), f"'{key}' must be a string")
    anchor = doc.get("anchor", base.anchor if base else "builtin.module")
    _expect(anchor in ANCHORS, doc.loc_of("anchor"), f"unknown anchor '{anchor}' (expected {' or '.join(ANCHORS)})")

    hooks = dict(base.hooks) if base else {}
    hooks.update(_load_hooks(path, doc))
    functions = dict(BUILTINS)
    for hook_name, fn in hooks.items():
        functions[hook_name] = Function.of(hook_name, rule_hook(hook_name, fn),
                                           is_action=getattr(fn, "__sdy_action__", False),
                                           pure=getattr(fn, PURE_MARK, False))
    compiler = ExprCompiler(functions)

    options = dict(base.options) if base else {}
    options.update(_load_options(doc))
    if "driver" in doc:
        default_driver = _load_driver(doc.get("driver"), doc.loc_of("driver"))
    else:
        default_driver = base.stages[-1].driver if base else DriverConfig()

    own: list[Rule] = []
    raw_rules = doc.get("rules", [])
    _expect(isinstance(raw_rules, list), doc.loc_of("rules"), "'rules' must be a list")
    seen: dict[str, Loc] = {}
    for order, raw in enumerate(raw_rules):
        item_loc = raw_rules.item_locs[order]
        rule = _load_rule(raw, item_loc, order, compiler)
        if rule.id in seen:
            raise rule.loc.error(f"duplicate rule id '{rule.id}'", notes=(f"first defined at {seen[rule.id]}",))
        seen[rule.id] = rule.loc
        own.append(rule)

    raw_params = doc.get("params") or {}
    _expect(isinstance(raw_params, dict), doc.loc_of("params"), "'params' must be a mapping")
    _expect_string_keys(raw_params, "params", "param")
    params = _merge_params(base.param_values if base else {}, raw_params)
    param_decls = dict(base.param_decls) if base else {}
    param_decls.update(_load_param_decls(doc))
    check_params(_own_merged(raw_params, params), param_decls, doc.loc_of("params"), name)
    for decl in param_decls.values():
        _expect(decl.name in params, decl.loc, f"param '{decl.name}' has no value (its default goes under 'params:')")
    abstract = doc.get("abstract", False)
    _expect(isinstance(abstract, bool), doc.loc_of("abstract"), "'abstract' must be true or false")

    if base is None:
        rules = own
        stages = _load_stages(doc, rules, default_driver, hooks)
    else:
        rules, stages = _extend(base, doc, own, default_driver, hooks)
    summary = doc["summary"] if "summary" in doc else base.summary
    description = doc["description"] if "description" in doc else (base.description if base else "")
    return PassDef(name=name, summary=str(summary).strip(),
                   description=str(description).strip(), anchor=str(anchor),
                   options=options, rules=rules, stages=stages, path=path, loc=doc.loc,
                   group=path.parent.name, hooks=hooks, param_values=params, param_decls=param_decls, own_params=raw_params,
                   abstract=abstract, base=base)


def _load_param_decls(doc: LocDict) -> dict[str, ParamDecl]:
    raw = doc.get("param-types") or {}
    _expect(isinstance(raw, dict), doc.loc_of("param-types"),
            "'param-types' must be a mapping of param name to type")
    _expect_string_keys(raw, "param-types", "param")
    for name in raw:
        # (a field of the params object must not hide its mapping view's methods)
        _expect(not hasattr(PassParams, field_name(str(name))), raw.key_loc(name),
                f"param name '{name}' is reserved (a method of the params object)")
    return {str(name): load_param_decl(str(name), decl, raw.loc_of(name)) for name, decl in raw.items()}


def _own_merged(own: dict, merged: dict) -> LocDict:
    """The params a file sets, with their values after merging over its base's
    (a mapping a file extends is checked whole), at the file's locations."""
    out = LocDict({k: (merged[k] if k in merged else v) for k, v in own.items()})
    out.loc = getattr(own, "loc", None)
    out.key_locs = dict(getattr(own, "key_locs", {}))
    out.value_locs = dict(getattr(own, "value_locs", {}))
    return out


def _merge_params(base: dict, own: dict) -> dict:
    """`own` over `base` per key, recursively for mappings (a table of ops
    gains or replaces one entry); lists and scalars replace; `KEY: delete`
    removes the key."""
    merged = LocDict(base)
    merged.loc = getattr(own, "loc", None) or getattr(base, "loc", None)
    merged.key_locs = {**getattr(base, "key_locs", {}), **getattr(own, "key_locs", {})}
    merged.value_locs = {**getattr(base, "value_locs", {}), **getattr(own, "value_locs", {})}
    for key, value in own.items():
        if value == "delete":
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge_params(merged[key], value)
        else:
            merged[key] = value
    return merged


def _extend(base: PassDef, doc: LocDict, own: list[Rule], default_driver, hooks):
    """The rules and stages of a pass that extends `base`."""
    disabled = set()
    raw = doc.get("disable-rules") or []
    _expect(isinstance(raw, list), doc.loc_of("disable-rules"), "'disable-rules' is a list of rule ids")
    base_ids = {r.id for r in base.rules}
    for i, rid in enumerate(raw):
        _expect(isinstance(rid, str), raw.item_locs[i], "'disable-rules' is a list of rule ids")
        _expect(rid in base_ids, raw.item_locs[i], f"'{base.name}' has no rule '{rid}' to disable; its rules: "
                + ", ".join(r.id for r in base.rules))
        disabled.add(rid)
    # Rule order continues the base's: a replacement takes its rule's place,
    # an added rule comes after every base rule (ties go to the rule written first).
    base_order = {r.id: r.order for r in base.rules}
    after = max(base_order.values(), default=-1) + 1
    own = [dataclasses.replace(r, order=base_order.get(r.id, after + r.order)) for r in own]
    replacing = {r.id: r for r in own if r.id in base_ids}
    for rid in replacing:
        _expect(rid not in disabled, replacing[rid].loc, f"rule '{rid}' is both replaced and disabled")
    rules = [replacing.get(r.id, r) for r in base.rules if r.id not in disabled]
    added = [r for r in own if r.id not in base_ids]
    rules += added
    if "stages" in doc:
        return rules, _load_stages(doc, rules, default_driver, hooks)
    stages = []
    for stage in base.stages:
        kept = [replacing.get(r.id, r) for r in stage.rules if r.id not in disabled]
        stages.append(Stage(stage.name, kept, stage.driver, stage.hook, stage.loc))
    if added:
        rule_stages = [s for s in stages if s.hook is None]
        if rule_stages:
            rule_stages[-1].rules.extend(added)
        else:
            stages.append(Stage("main", list(added), default_driver))
    return rules, stages


def _load_hooks(path: Path, doc: LocDict) -> dict[str, Callable]:
    if "hooks" in doc:
        hook_path = path.parent / str(doc["hooks"])
        if not hook_path.is_file():
            # A user's copy of a built-in pass file uses the built-in hooks.
            hook_path = _builtin_hook_module(str(doc["hooks"]))
        _expect(hook_path is not None, doc.loc_of("hooks"),
                f"hook module '{doc['hooks']}' not found next to the rule file (nor among the built-in rules)")
    else:
        hook_path = path.with_suffix(".py")
        if not hook_path.is_file():
            # A user's copy of a built-in pass file uses the built-in hooks beside it.
            hook_path = _builtin_hook_module(hook_path.name)
            if hook_path is None:
                return {}
    try:
        module = load_hook_module(hook_path)
    except (Exception, SystemExit) as e:  # a broken hook module is a rule-file error, not a crash
        loc = doc.loc_of("hooks") if "hooks" in doc else doc.loc
        raise loc.error(f"cannot load hook module {hook_path.name}: {type(e).__name__}: {e}") from None
    return hooks_of_module(module)


def _builtin_hook_module(name: str) -> Path | None:
    from ..resources import builtin_rules_dir
    from ..rule_library import builtin_listing
    if "/" in name:
        return None
    found = sorted(builtin_rules_dir().rglob(name)) if any(c in name for c in "*?[") else builtin_listing().named(name)
    return found[0] if len(found) == 1 else None


def _load_options(doc: LocDict) -> dict[str, OptionDecl]:
    raw = doc.get("options") or {}
    _expect(isinstance(raw, dict), doc.loc_of("options"), "'options' must be a mapping of option name to declaration")
    options = {}
    for name, body in raw.items():
        loc = raw.key_loc(name)
        _expect(isinstance(name, str) and OPTION_NAME.fullmatch(name) is not None
                and not keyword.iskeyword(field_name(name)), loc,
                f"option name {name!r} must be a word of letters, digits and '-' starting with a letter "
                "(as `-PASS='my-option=...'` spells it), not a Python keyword")
        _expect(isinstance(body, dict), loc, f"option '{name}': expected {{type: ..., default: ...}}")
        for key in body:
            _expect(key in ("type", "default", "help", "values"), body.key_loc(key), f"option '{name}': unknown key '{key}'")
        typ = body.get("type")
        _expect(typ in OPTION_TYPES, body.loc_of("type"), f"option '{name}': type must be one of {', '.join(OPTION_TYPES)}")
        values = body.get("values") or ()
        _expect(isinstance(values, (list, tuple)) and all(isinstance(v, str) for v in values),
                body.loc_of("values"), f"option '{name}': 'values' must be a list of strings")
        values = tuple(values)
        _expect(isinstance(body.get("help", ""), str), body.loc_of("help"), f"option '{name}': 'help' must be a string")
        _expect(typ != "enum" or values, loc, f"option '{name}': an enum needs 'values'")
        _expect("default" in body, loc, f"option '{name}': missing 'default'")
        decl = OptionDecl(str(name), typ, None, str(body.get("help", "")), values, loc)
        try:
            decl.default = decl.check_value(body["default"])
        except ValueError as e:
            raise body.loc_of("default").error(str(e)) from None
        options[str(name)] = decl
    return options


def _load_driver(raw, loc: Loc) -> DriverConfig:
    _expect(isinstance(raw, dict), loc, "'driver' must be a mapping")
    cfg = DriverConfig()
    for key, value in raw.items():
        vloc = raw.loc_of(key)
        if key == "kind":
            _expect(value in DRIVER_KINDS, vloc, f"unknown driver kind '{value}' (expected {', '.join(DRIVER_KINDS)})")
            cfg.kind = value
        elif key == "max-iterations":
            _expect(isinstance(value, int) and 0 < value < 2**31, vloc, "max-iterations must be a positive integer below 2**31")
            cfg.max_iterations = value
        elif key == "max-rewrites":
            _expect(isinstance(value, int) and not isinstance(value, bool) and value > 0, vloc,
                    "max-rewrites must be a positive integer")
            cfg.max_rewrites = value
        elif key == "traversal":
            _expect(value in ("top-down", "bottom-up", "post-order"), vloc,
                    "traversal must be top-down, bottom-up or post-order")
            cfg.top_down = value != "bottom-up"
            cfg.post_order = value == "post-order"
        elif key == "strictness":
            _expect(value in ("any", "existing-and-new", "existing"), vloc,
                    "strictness must be any, existing-and-new or existing")
            cfg.strictness = value
        else:
            raise raw.key_loc(key).error(f"unknown driver setting '{key}'")
    # A setting the chosen driver would ignore is an error, not a silent no-op.
    for key, kinds in (("max-iterations", ("greedy",)), ("strictness", ("greedy",)), ("traversal", ("greedy", "once"))):
        if key in raw and cfg.kind not in kinds:
            raise raw.key_loc(key).error(f"'{key}' applies to the {' and '.join(kinds)} driver{'s' if len(kinds) > 1 else ''} "
                                         f"only, not to '{cfg.kind}'")
    if cfg.post_order and cfg.kind != "once":
        raise raw.key_loc("traversal").error("'traversal: post-order' applies to the once driver only")
    return cfg


def _load_stages(doc, rules, default_driver, hooks) -> list[Stage]:
    if "stages" not in doc:
        return [Stage("main", list(rules), default_driver)]
    raw = doc["stages"]
    _expect(isinstance(raw, list) and raw, doc.loc_of("stages"), "'stages' must be a non-empty list")
    by_id = {r.id: r for r in rules}
    stages, used = [], set()
    for i, body in enumerate(raw):
        loc = raw.item_locs[i]
        _expect(isinstance(body, dict), loc, "a stage is a mapping with 'name' and 'rules' or 'call'")
        for key in body:
            _expect(key in ("name", "rules", "driver", "call"), body.key_loc(key), f"stage: unknown key '{key}'")
        _expect(isinstance(body.get("name", ""), str), body.loc_of("name"), "a stage's 'name' must be a string")
        name = str(body.get("name", f"stage-{i}"))
        driver = _load_driver(body["driver"], body.loc_of("driver")) if "driver" in body else default_driver
        if "call" in body:
            hook_name = body["call"]
            _expect(isinstance(hook_name, str), body.loc_of("call"), f"stage '{name}': 'call' names one hook")
            _expect("rules" not in body, body.key_loc("rules"), f"stage '{name}': a stage has 'rules' or 'call', not both")
            _expect(hook_name in hooks, body.loc_of("call"), f"stage '{name}': unknown hook '{hook_name}'")
            stages.append(Stage(name, [], driver, hooks[hook_name], loc))
            continue
        ids = body.get("rules")
        _expect(isinstance(ids, list), loc, f"stage '{name}': 'rules' must be a list of rule ids")
        stage_rules = []
        for j, rid in enumerate(ids):
            _expect(isinstance(rid, str), ids.item_locs[j], f"stage '{name}': a rule id is a string")
            _expect(rid in by_id, ids.item_locs[j], f"stage '{name}': unknown rule id '{rid}'")
            stage_rules.append(by_id[rid])
            used.add(rid)
        stages.append(Stage(name, stage_rules, driver, None, loc))
    for r in rules:
        _expect(r.id in used, r.loc, f"rule '{r.id}' is in no stage")
    return stages


def _load_rule(raw, loc: Loc, order: int, compiler: ExprCompiler) -> Rule:
    _expect(isinstance(raw, LocDict), loc, "a rule is a mapping with 'id', 'match' and 'rewrite'")
    for key in raw:
        if key not in RULE_KEYS:
            raise raw.key_loc(key).error(f"unknown rule key '{key}'", notes=(f"expected one of: {', '.join(sorted(RULE_KEYS))}",))
    for key in ("id", "match", "rewrite"):
        _expect(key in raw, raw.loc, f"rule is missing '{key}'")
    rid = raw["id"]
    _expect(isinstance(rid, str) and RULE_ID.match(rid), raw.loc_of("id"),
            f"invalid rule id {rid!r} (lowercase letters, digits and '-')")

    match_text = raw["match"]
    _expect(isinstance(match_text, str), raw.loc_of("match"), "'match' must be a pattern string")
    try:
        pattern = parsing.parse_pattern(match_text)
        matcher, bound = compile_pattern(pattern)
    except (S.SyntaxErrorAt, PatternError) as e:
        raise _text_loc(match_text, raw.loc_of("match"), e.offset).error(e.message) from None
    bound = set(bound)

    where = []
    raw_where = raw.get("where")
    if raw_where is None:
        raw_where, item_locs = [], []
    elif isinstance(raw_where, str):
        raw_where = [raw_where]
        item_locs = [raw.loc_of("where")]
    else:
        _expect(isinstance(raw_where, list), raw.loc_of("where"), "'where' must be an expression or a list of them")
        item_locs = raw_where.item_locs
    nodes = []
    for i, text in enumerate(raw_where):
        _expect(isinstance(text, str), item_locs[i], "a constraint is an expression string")
        node = _parse_expr(text, item_locs[i])
        nodes.append(node)
        where.append((_compile_expr(compiler, text, item_locs[i], bound, allow_actions=False, node=node), str(text)))
    invariant = 0
    for node in nodes:
        free, pure = compiler.info(node)
        if free or not pure:
            break
        invariant += 1

    actions = _load_actions(raw["rewrite"], raw.loc_of("rewrite"), compiler, bound, pattern)
    benefit = raw.get("benefit", len(pattern.lines))
    _expect(isinstance(benefit, int) and not isinstance(benefit, bool) and benefit >= 0, raw.loc_of("benefit"), "benefit must be a non-negative integer")
    return Rule(id=str(rid), roots=pattern.root.names, match=matcher, where=where, actions=actions,
                benefit=benefit, order=order, loc=raw.loc, summary=str(raw.get("summary", "")),
                root_guard=_root_guard(compiler, nodes, pattern), invariant_where=invariant,
                only_on_root_attributes=not nodes and _actions_on_root(compiler, raw["rewrite"], pattern,
                                                                        "only_on_attributes"),
                root_local=_actions_on_root(compiler, raw["rewrite"], pattern, "changes_only_first_op"),
                required_root_attrs=tuple(a.name for a in pattern.root.attrs
                                          if a.kind in ("present", "literal") or a.kind == "bind" and not a.optional),
                kernel=compile_kernel(compiler, pattern, where, raw["rewrite"], bound, BUILTINS))


def _root_vars(pattern: S.Pattern) -> set[str]:
    return {"$root"} | ({"$" + pattern.root.label} if pattern.root.label else set())


def _call_on_root(compiler: ExprCompiler, node, pattern: S.Pattern):
    """The Function a call node calls with the root as first argument, else None."""
    if not isinstance(node, S.Call) or not node.args or not isinstance(node.args[0], S.Var) \
            or node.args[0].name not in _root_vars(pattern):
        return None
    return compiler.functions.get(node.func)


def _root_guard(compiler: ExprCompiler, where: list, pattern: S.Pattern) -> Callable | None:
    """The root_names of the first constraint, when it is a predicate with
    declared root names on the root of a `*` pattern."""
    if not where or pattern.root.names != ("*",) or len(getattr(where[0], "args", ())) != 1:
        return None
    fn = _call_on_root(compiler, where[0], pattern)
    return fn.root_names if fn is not None else None


def _actions_on_root(compiler: ExprCompiler, rewrite, pattern: S.Pattern, flag: str) -> bool:
    """Whether every action is a call on the root of an action with FLAG
    (expr.Function.only_on_attributes, changes_only_first_op)."""
    if not isinstance(rewrite, list) or not rewrite or not all(isinstance(a, str) for a in rewrite):
        return False
    for text in rewrite:
        try:
            fn = _call_on_root(compiler, parsing.parse_expr(str(text)), pattern)
        except S.SyntaxErrorAt:
            return False
        if fn is None or not getattr(fn, flag):
            return False
    return True


def _parse_expr(text, loc: Loc) -> S.Expr:
    try:
        return parsing.parse_expr(str(text))
    except S.SyntaxErrorAt as e:
        raise _text_loc(text, loc, e.offset).error(e.message) from None


def _compile_expr(compiler: ExprCompiler, text, loc: Loc, bound: set, allow_actions: bool,
                  node: S.Expr | None = None):
    try:
        node = parsing.parse_expr(str(text)) if node is None else node
        return compiler.compile(node, bound, allow_actions)
    except (S.SyntaxErrorAt, CompileError) as e:
        raise _text_loc(text, loc, e.offset).error(e.message) from None


_CREATE_KEYS = ("create", "after", "before", "redirect")


def _load_actions(raw, loc: Loc, compiler, bound: set, match_pattern: S.Pattern) -> list[Callable]:
    if isinstance(raw, str):
        # A bare pattern string: replace the root by it.
        return [_pattern_action(raw, loc, bound, match_pattern, replace_root=True)]
    _expect(isinstance(raw, list), loc, "'rewrite' must be a pattern string or a list of actions")
    actions = []
    for i, item in enumerate(raw):
        item_loc = raw.item_locs[i]
        if isinstance(item, str):
            action = _compile_expr(compiler, item, item_loc, bound, allow_actions=True)
        elif isinstance(item, dict) and len(item) == 1 and next(iter(item)) == "replace":
            action = _pattern_action(item["replace"], item.loc_of("replace"), bound, match_pattern, replace_root=True)
        elif isinstance(item, dict) and "create" in item:
            for key in item:
                _expect(key in _CREATE_KEYS, item.key_loc(key), f"unknown key '{key}' of a create action "
                                                               f"(expected: {', '.join(_CREATE_KEYS)})")
            if "after" in item and "before" in item:
                raise item.key_loc("before").error("a create action goes 'after' a value or 'before' an op, not both")
            placement = {key: _compile_expr(compiler, item[key], item.loc_of(key), bound, allow_actions=False)
                         for key in ("after", "before", "redirect") if key in item}
            action = _pattern_action(item["create"], item.loc_of("create"), bound, match_pattern,
                                     replace_root=False, placement=placement)
        else:
            raise item_loc.error("an action is an expression (e.g. 'erase($root)'), {replace: PATTERN} or "
                                 "{create: PATTERN} (with 'after: VALUE' or 'before: OP', and 'redirect: VALUE')")
        actions.append(_located(action, item_loc))
    return actions


def _located(action: Callable, loc: Loc) -> Callable:
    """The action, its failed preconditions reported at its own place in the rule file."""
    def run(env: Env):
        try:
            return action(env)
        except ActionError as e:
            if e.loc is None:
                e.loc = loc
            raise
    return run


def _pattern_action(text, loc: Loc, bound: set, match_pattern: S.Pattern, replace_root: bool,
                    placement: dict | None = None) -> Callable:
    """Build ops from a pattern (before the root, or where PLACEMENT says: `after` a
    value or op, `before` an op); optionally replace the root with the last one, or
    route the other uses of PLACEMENT's `redirect` value to it."""
    _expect(isinstance(text, str), loc, "expected a pattern string")
    try:
        pattern = parsing.parse_pattern(text)
    except S.SyntaxErrorAt as e:
        raise _text_loc(text, loc, e.offset).error(e.message) from None
    builders = []
    for line in pattern.lines:
        where = _text_loc(text, loc, line.offset)
        _expect(len(line.names) == 1 and not line.is_any_op, where, "an op to create needs exactly one op name")
        _expect(line.regions is None, where, "creating ops with regions is not supported in patterns; use a hook")
        _expect(line.label is None or not line.results, where, "name the created op by its results or by a label, not both")
        for o in line.operands or []:
            _expect(o.name != "_", where, "'_' cannot be an operand of a created op")
            _expect("%" + o.name in bound, where, f"unbound operand '%{o.name}'")
        for a in line.attrs:
            _expect(a.kind in ("bind", "literal", "rest"), where, f"attribute '{a.name}': give it a value ($x or a literal)")
            if a.kind == "bind":
                _expect("$" + a.var in bound, where, f"unbound attribute metavariable '${a.var}'")
        builders.append(_op_builder(line, bound))
        for r in line.results:
            bound.add("%" + r.name)
        if line.label:
            bound.add("$" + line.label)
    root_results = [r for r in match_pattern.root.results]
    last = pattern.lines[-1]
    placement = placement or {}
    after, before, redirect = placement.get("after"), placement.get("before"), placement.get("redirect")
    if redirect is not None:
        _expect(len(last.results) == 1 and not last.results[0].variadic, loc,
                "'redirect' routes uses to the last created op's result: it needs exactly one (%name = ...)")

    def run(env: Env):
        ctx = env.ctx
        created = []
        where = ("after", after(env)) if after is not None else ("before", before(env) if before is not None
                                                                  else env.vars["$root"])
        for build in builders:
            created.append(build(env, where))
            if where[0] == "after":
                where = ("after", created[-1])
        if replace_root:
            root = env.vars["$root"]
            ctx.replace_op(root, list(created[-1].results))
        elif redirect is not None:
            old = ctx.live_value(redirect(env), "redirect", "a value")
            new = created[-1].results[0]
            if old.type != new.type:
                raise ActionError(f"redirect of a {old.type} value to the created '{created[-1].name}' "
                                  f"of type {new.type}")
            ctx.redirect_uses(old, new, created, "redirect")
        return True

    if replace_root:
        names = [r.name for r in last.results]
        wanted = [r.name for r in root_results]
        if names and wanted and not any(r.variadic for r in root_results):
            _expect(names == wanted, loc, "the replacement's results must be named like the matched root's results "
                                          f"({', '.join('%' + n for n in wanted)})")
    return run


def _op_builder(line: S.OpPattern, bound_at_compile: set) -> Callable:
    name = line.names[0]
    operand_keys = [("%" + o.name, o.variadic) for o in line.operands or []]
    attr_specs = []
    copy_rest = any(a.kind == "rest" for a in line.attrs)
    named = {a.name for a in line.attrs if a.kind != "rest"}
    for a in line.attrs:
        if a.kind == "rest":
            continue
        if a.kind == "bind":
            attr_specs.append((a.name, "$" + a.var, None))
        else:
            attr_specs.append((a.name, None, a.literal))
    result_keys = [("%" + r.name) for r in line.results]
    label = "$" + line.label if line.label else None

    def build(env: Env, where: tuple):
        """The op, created `where`: ("before", op) or ("after", value or op)."""
        ctx = env.ctx
        operands = []
        for key, variadic in operand_keys:
            value = env.vars[key]
            operands.extend(value if variadic else [value])
        attributes = {}
        if copy_rest:
            root_attrs = env.vars["$root"].attributes
            for key in root_attrs:
                if key not in named:
                    attributes[key] = root_attrs[key]
        for attr_name, var, literal in attr_specs:
            if var is not None:
                value = env.vars.get(var)
                if value is None:
                    continue  # an absent optional attribute stays absent
                attributes[attr_name] = to_attr(value)
            else:
                attributes[attr_name] = ir.Attribute.parse(literal)
        # Result types: those of the matched values of the same name, else the
        # first operand's type (sdy.reshard & co. keep their operand's type).
        types = []
        for i, key in enumerate(result_keys):
            previous = env.vars.get(key)
            if isinstance(previous, ir.Value):
                types.append(previous.type)
            elif operands:
                types.append(operands[min(i, len(operands) - 1)].type)
            else:
                raise ValueError(f"cannot infer the type of result {key} of '{name}'")
        if where[0] == "after":
            op = ctx.create_op(name, types, operands, attributes, after=where[1])
        else:
            op = ctx.create_op(name, types, operands, attributes, before=where[1])
        for i, key in enumerate(result_keys):
            env.vars[key] = op.results[i]
        if label:
            env.vars[label] = op
        return op
    return build
