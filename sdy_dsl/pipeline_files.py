"""Pipeline files: the YAML spelling of a pipeline, with options and conditions.

A pipeline file is a mapping:

    name: sdy-export-pipeline        # a shipped pipeline's name: usable as a pass
    description: ...
    options:                         # optional: the pipeline's own options
      keep-sharding-rules: {type: bool, default: false, help: ...}
    dump-index-start: 0              # optional: the first `$next-dump-index`
    passes: [ENTRY, ...]

ENTRY is one of
- `PASS`: a pass (or a named pipeline) with its default options;
- `{PASS: {option: value}}`: with options; a value `$name` is the value of
  the pipeline's option `name`, and `$next-dump-index` the next number of the
  pipeline's module dumps (as the reference numbers them);
- `{func.func: [ENTRY, ...]}`: passes run on every function;
- `{pipeline: FILE}`: another pipeline file's passes (path relative to this file);
- `{if: CONDITION, then: [ENTRY, ...], else: [ENTRY, ...]}` (`else` optional):
  CONDITION is bool options joined by `not`, `and`, `or` (`not dedup-functions-fully`).

A named pipeline (`pipelines/<name with _>.yaml` whose `name:` is NAME) is run
like a pass: `sdy-dsl opt -sdy-export-pipeline='keep-sharding-rules=true'`,
`--pass-pipeline='builtin.module(sdy-propagation-pipeline)'`, or an entry of
another pipeline file. It expands to its passes when the pipeline is parsed,
so everything downstream (options, --debug-sharding, explain) sees plain passes.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import UsageError
from .interp.rulefile import OptionDecl
from .interp.yaml_loader import Loc, load_yaml
from .pipeline_model import Pipeline, Step, check_pass_name
from .resources import builtin_pipelines_dir, shipped_pipeline, shipped_pipeline_names

TOP_KEYS = ("name", "description", "options", "dump-index-start", "rules", "passes")
OPTION_TYPES = ("bool", "int", "string")
NEXT_DUMP_INDEX = "next-dump-index"
CONDITION_TOKEN = re.compile(r"\s*([A-Za-z0-9_.-]+)")


@dataclass
class _Expansion:
    """The state of one top-level expansion: option values, the dump counter."""
    values: dict
    dump_index: list = field(default_factory=lambda: [0])  # shared with nested named pipelines
    pipeline: str | None = None  # the named pipeline being expanded (for error messages)


# --------------------------------------------------------------------------- named pipelines


@functools.cache
def named_pipeline_file(name: str) -> Path | None:
    """The shipped pipeline file that defines the named pipeline NAME, if any
    (asked for every pass name of a pipeline; the shipped files are fixed for the process)."""
    if not name.startswith(("sdy-", "mpmd-")):
        return None
    path = builtin_pipelines_dir() / f"{name.replace('-', '_')}.yaml"
    return path if path.is_file() and load_yaml(path).get("name") == name else None


def is_named_pipeline(name: str) -> bool:
    return named_pipeline_file(name) is not None


def named_pipeline_steps(name: str, options: dict, typed: bool = False, nested_in: str | None = None,
                         where: Loc | None = None, dump_index: list | None = None) -> list[Step]:
    """The passes the named pipeline NAME runs with OPTIONS (strings as written in
    a pipeline string, or typed values from YAML when TYPED). DUMP_INDEX: the
    counter of an enclosing pipeline's module dumps, which this one continues."""
    if nested_in is not None:
        raise _error(where, f"pipeline '{name}' runs on builtin.module and cannot be nested in {nested_in}(...)")
    path = named_pipeline_file(name)
    doc = _load(path)
    decls = _option_decls(doc, path)
    values = {n: d.default for n, d in decls.items()}
    for key, value in options.items():
        decl = decls.get(key)
        if decl is None:
            known = ", ".join(sorted(decls)) or "none"
            raise _error(where, f"pipeline '{name}' has no option '{key}' (options: {known})")
        try:
            values[key] = decl.check_value(value) if typed else decl.parse(value)
        except ValueError as e:
            raise _error(where, str(e)) from None
    state = _Expansion(values, dump_index if dump_index is not None else [_dump_index_start(doc, path)], name)
    return _expand_doc(doc, path, state, (path.resolve(),))


def named_pipeline_options(name: str) -> dict[str, OptionDecl]:
    path = named_pipeline_file(name)
    return _option_decls(_load(path), path)


def describe_named_pipeline(name: str) -> str:
    """What `sdy-dsl passes NAME` prints for a shipped pipeline (by its `name:`,
    `sdy-propagation-pipeline`, or its file's stem, `shardy_full`): the
    description, the options, the file and the passes it runs with its default
    options."""
    import json  # (only this description writes JSON: not on a run's path)

    path = named_pipeline_file(name) or shipped_pipeline(name)
    doc = _load(path)
    lines = [f"{name}  (pipeline)", f"    {' '.join(str(doc.get('description', '')).split())}"]
    for decl in _option_decls(doc, path).values():
        default = ("true" if decl.default else "false") if decl.type == "bool" else json.dumps(decl.default)
        lines.append(f"    --{decl.name}: {decl.type} = {default}  {' '.join(decl.help.split())}")
    lines.append(f"    pipeline file: {path}")
    steps = named_pipeline_steps(name, {}) if is_named_pipeline(name) else load_pipeline_file(path).steps
    lines.append("    passes: " + ", ".join(f"{s.nested_in}({s.name})" if s.nested_in else s.name for s in steps))
    return "\n".join(lines)


def is_shipped_pipeline(name: str) -> bool:
    """NAME is a shipped pipeline: a named one (`sdy-propagation-pipeline`) or a file's stem (`shardy_full`)."""
    return is_named_pipeline(name) or ("." not in name and shipped_pipeline(name) is not None)


def shipped_pipelines() -> list[tuple[str, str]]:
    """(name, one-line description) of every shipped pipeline: its `name:` if it
    has one (it runs as a pass too), else the file's stem (`sdy-dsl run STEM`)."""
    rows = []
    for stem in shipped_pipeline_names():
        doc = _load(shipped_pipeline(stem))
        rows.append((doc.get("name") or stem, " ".join(str(doc.get("description", "")).split())))
    return rows


def pipeline_names() -> list[str]:
    """Every name a shipped pipeline answers to: `name:` and file stem (for "did you mean")."""
    names = []
    for stem in shipped_pipeline_names():
        doc = load_yaml(shipped_pipeline(stem))
        names += [stem] + ([doc["name"]] if isinstance(doc, dict) and isinstance(doc.get("name"), str) else [])
    return names


# --------------------------------------------------------------------------- pipeline files


def load_pipeline_file(path: Path | str) -> Pipeline:
    """The passes of a pipeline file, its options at their defaults."""
    path = Path(path)
    doc = _load(path)
    decls = _option_decls(doc, path)
    state = _Expansion({n: d.default for n, d in decls.items()}, [_dump_index_start(doc, path)],
                       doc.get("name") if isinstance(doc.get("name"), str) else None)
    return Pipeline(_expand_doc(doc, path, state, (path.resolve(),)), _rule_dirs(doc, path.parent))


def _rule_dirs(doc, base: Path) -> list[Path]:
    """`rules: DIR` (or a list): the pipeline's own rule directories, like --rules."""
    if "rules" not in doc:
        return []
    raw = doc["rules"]
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(d, str) for d in items):
        raise doc.loc_of("rules").error("'rules' is a rules directory or a list of them")
    dirs = []
    for d in items:
        directory = (base / d).resolve()
        if not directory.is_dir():
            raise doc.loc_of("rules").error(f"rules directory '{d}' does not exist (relative to the pipeline file)")
        dirs.append(directory)
    return dirs


def _load(path: Path):
    doc = load_yaml(path)
    top = Loc(str(path), 1, 1)
    if not isinstance(doc, dict) or "passes" not in doc:
        raise top.error("a pipeline file is a mapping with a 'passes' list")
    for key in doc:
        if key not in TOP_KEYS:
            raise doc.key_loc(key).error(f"unknown key '{key}' (expected {', '.join(TOP_KEYS)})")
    if not isinstance(doc["passes"], list):
        raise doc.loc_of("passes").error("'passes' must be a list")
    if "name" in doc and not isinstance(doc["name"], str):
        raise doc.loc_of("name").error("'name' is a string")
    return doc


def _dump_index_start(doc, path: Path) -> int:
    start = doc.get("dump-index-start", 0)
    if not isinstance(start, int) or isinstance(start, bool):
        raise doc.loc_of("dump-index-start").error("'dump-index-start' is an integer")
    return start


def _option_decls(doc, path: Path) -> dict[str, OptionDecl]:
    raw = doc.get("options") or {}
    if not isinstance(raw, dict):
        raise doc.loc_of("options").error("'options' is a mapping of option name to {type, default, help}")
    decls = {}
    for name, body in raw.items():
        loc = raw.key_loc(name)
        if not isinstance(body, dict) or body.get("type") not in OPTION_TYPES or "default" not in body:
            raise loc.error(f"option '{name}' needs a type ({', '.join(OPTION_TYPES)}) and a default")
        decl = OptionDecl(str(name), body["type"], body["default"], str(body.get("help", "")), loc=loc)
        try:
            decl.check_value(body["default"])
        except ValueError as e:
            raise loc.error(str(e)) from None
        decls[str(name)] = decl
    return decls


def _expand_doc(doc, path: Path, state: _Expansion, including: tuple) -> list[Step]:
    steps: list[Step] = []
    for i, item in enumerate(doc["passes"]):
        _expand_item(item, doc["passes"].item_locs[i], None, steps, path.parent, state, including)
    return steps


def _expand_list(items, loc: Loc, nested_in, steps, base: Path, state: _Expansion, including: tuple,
                 what: str = "'then' and 'else' take") -> None:
    if not isinstance(items, list):
        raise loc.error(f"{what} a list of passes")
    for j, sub in enumerate(items):
        _expand_item(sub, items.item_locs[j], nested_in, steps, base, state, including)


def _expand_item(item, loc: Loc, nested_in, steps: list[Step], base: Path, state: _Expansion,
                 including: tuple) -> None:
    if isinstance(item, dict) and "if" in item:
        for key in item:
            if key not in ("if", "then", "else"):
                raise item.key_loc(key).error(f"unknown key '{key}' in an 'if' entry (expected if, then, else)")
        if "then" not in item:
            raise item.key_loc("if").error("an 'if' entry needs 'then'")
        branch = "then" if _condition(item["if"], item.loc_of("if"), state.values) else "else"
        if branch in item:
            _expand_list(item[branch], item.loc_of(branch), nested_in, steps, base, state, including)
        return
    if isinstance(item, dict) and len(item) == 1 and "pipeline" in item and nested_in is None:
        # {pipeline: FILE}: another pipeline file (relative to this one), or a
        # shipped pipeline by name ({pipeline: shardy_full}).
        target = (base / str(item["pipeline"])).resolve()
        if not target.is_file() and shipped_pipeline(str(item["pipeline"])) is not None:
            target = shipped_pipeline(str(item["pipeline"])).resolve()
        if not target.is_file():
            raise item.loc_of("pipeline").error(
                f"pipeline file '{item['pipeline']}' not found (nor a shipped pipeline: "
                f"{', '.join(shipped_pipeline_names())})")
        if target in including:
            raise item.loc_of("pipeline").error(f"pipeline file '{item['pipeline']}' includes itself")
        doc = _load(target)
        values = {n: d.default for n, d in _option_decls(doc, target).items()}
        inner = _Expansion(values, state.dump_index, state.pipeline)
        steps.extend(_expand_doc(doc, target, inner, including + (target,)))
        return
    if isinstance(item, str):
        _append(_step_name(item, loc), {}, loc, nested_in, steps, state)
        return
    if isinstance(item, dict) and len(item) == 1:
        name, body = next(iter(item.items()))
        if name == "func.func":
            if nested_in is not None:
                raise item.key_loc(name).error("func.func cannot be nested in func.func")
            _expand_list(body, item.loc_of(name), "func.func", steps, base, state, including, "func.func takes")
            return
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise item.loc_of(name).error(f"options of '{name}' must be a mapping of option to value")
        options = {str(k): _substitute(v, body.loc_of(k), state) for k, v in body.items()}
        _append(_step_name(name, item.key_loc(name)), options, item.key_loc(name), nested_in, steps, state)
        return
    raise loc.error("a pipeline entry is a pass name, {pass: {option: value}}, {func.func: [passes]}, "
                    "{pipeline: FILE} or {if: CONDITION, then: [passes], else: [passes]}")


def _append(name: str, options: dict, loc: Loc, nested_in, steps: list[Step], state: _Expansion) -> None:
    if is_named_pipeline(name):
        inner = named_pipeline_steps(name, options, typed=True, nested_in=nested_in, where=loc,
                                     dump_index=state.dump_index)
        if state.pipeline is not None:
            for step in inner:
                step.pipeline = state.pipeline
        steps.extend(inner)
        return
    steps.append(Step(name, options, nested_in, loc, typed=True, pipeline=state.pipeline))


def _substitute(value, loc: Loc, state: _Expansion):
    if not (isinstance(value, str) and value.startswith("$")):
        return value
    name = value[1:]
    if name == NEXT_DUMP_INDEX:
        index = state.dump_index[0]
        state.dump_index[0] += 1
        return index
    if name not in state.values:
        raise loc.error(f"'{value}': the pipeline has no option '{name}'"
                        f" (options: {', '.join(sorted(state.values)) or 'none'})")
    return state.values[name]


def _condition(text, loc: Loc, values: dict) -> bool:
    """OPTION, not OPTION, joined by `and` (binds tighter) and `or`; options must be bools."""
    if isinstance(text, bool):
        return text
    if not isinstance(text, str):
        raise loc.error("a condition is bool options joined by not/and/or")
    words = text.split()
    if not words:
        raise loc.error("empty condition")
    result, conjunction, negate, expect_operand = False, True, False, True
    for word in words:
        if expect_operand:
            if word == "not":
                negate = not negate
                continue
            if word in ("and", "or") or not CONDITION_TOKEN.fullmatch(word):
                raise loc.error(f"condition '{text}': expected an option at '{word}'")
            if word not in values or not isinstance(values[word], bool):
                bools = ", ".join(sorted(k for k, v in values.items() if isinstance(v, bool))) or "none"
                raise loc.error(f"condition '{text}': '{word}' is not a bool option of the pipeline "
                                f"(bool options: {bools})")
            conjunction = conjunction and (values[word] != negate)
            negate, expect_operand = False, False
        elif word == "and":
            expect_operand = True
        elif word == "or":
            result, conjunction, expect_operand = result or conjunction, True, True
        else:
            raise loc.error(f"condition '{text}': expected 'and' or 'or' at '{word}'")
    if expect_operand:
        raise loc.error(f"condition '{text}' ends without an option")
    return result or conjunction


def _step_name(name, loc: Loc) -> str:
    if not isinstance(name, str):
        raise loc.error(f"a pass name is a string, got {name!r}")
    try:
        return check_pass_name(name)
    except ValueError as e:
        raise loc.error(str(e)) from None


def _error(where: Loc | None, message: str):
    return where.error(message) if where is not None else UsageError(message)
