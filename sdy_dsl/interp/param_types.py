"""The declared params of a pass (its rule file's `param-types:`, beside
`options:`), checked when the file loads, with located errors, in the pass's
own file and in every file that `extends:` it. Every pass declares its
params: a pass without `param-types:` takes none, so any key under its
`params:` is an unknown param.

    param-types:
      full-version-ops: {list: op-name}
      candidate-ranking:
        type: {list: {vocabulary: candidate-ranking-field}}
        help: the fields the greedy loop ranks candidates by, in order
      factor-type-precedence: {map: int, keys: {vocabulary: factor-type}, complete: true}
      schedule: any                      # read by the pass's hook

A declaration is a type, or `{type: T, help: TEXT}`; the param's default is
its value under the declaring file's `params:` (every declared param has
one). The pass's hooks read the params as one typed object (options.py).

Types: `string`, `int`, `bool`, `op-name` (a known op of a known dialect),
`any` (free-form data its hook reads and checks), `{enum: [VALUES]}`,
`{vocabulary: NAME}` (an entry of a vocabulary the runtime registers, see
sdy_dsl/runtime/vocabulary.py), `{list: T}` and `{map: T, keys: T}`;
`complete: true` on a list or map of an enum or vocabulary: every entry once.
"""
from __future__ import annotations

import difflib
import importlib

from dataclasses import dataclass

from ..runtime.interfaces import check_op_name
from ..runtime.vocabulary import VOCABULARIES

SCALARS = ("string", "int", "bool", "op-name", "any")
COMPOUND = ("list", "map", "enum", "vocabulary")


@dataclass(frozen=True)
class ParamDecl:
    name: str
    type: object  # a type declaration (see the module docstring)
    help: str = ""
    loc: object = None  # where it is declared


def load_param_decl(name: str, raw, loc) -> ParamDecl:
    """A `param-types:` entry: a type, or {type: T, help: TEXT}."""
    if isinstance(raw, dict) and "type" in raw:
        extra = [k for k in raw if k not in ("type", "help")]
        if extra:
            raise (raw.key_loc(extra[0]) if hasattr(raw, "key_loc") else loc).error(
                f"param '{name}': unknown key '{extra[0]}' (a declaration is a type or {{type: T, help: TEXT}})")
        help_text = raw.get("help", "")
        if not isinstance(help_text, str):
            raise raw.loc_of("help").error(f"param '{name}': 'help' must be a string")
        type_loc = raw.loc_of("type") if hasattr(raw, "loc_of") else loc
        check_type_decl(raw["type"], type_loc)
        return ParamDecl(name, raw["type"], help_text.strip(), loc)
    check_type_decl(raw, loc)
    return ParamDecl(name, raw, "", loc)


def type_text(decl) -> str:
    """A type as `sdy-dsl passes NAME` shows it (enums and vocabularies with their values)."""
    if isinstance(decl, str):
        return decl
    complete = " (each once)" if decl.get("complete") else ""
    if "list" in decl:
        return f"list of {type_text(decl['list'])}{complete}"
    if "map" in decl:
        return f"map {type_text(decl.get('keys', 'string'))} -> {type_text(decl['map'])}{complete}"
    return "{" + ", ".join(_choices(decl)) + "}"


# The runtime modules that register the vocabularies a param type may name (imported
# before one is looked up: a user's rule file may name one its pass's hooks never import).
VOCABULARY_MODULES = ("sdy_dsl.runtime.collectives", "sdy_dsl.runtime.explicit_reshards_util",
                      "sdy_dsl.runtime.propagation")


def _vocabulary(name: str):
    for module in VOCABULARY_MODULES:
        importlib.import_module(module)
    return VOCABULARIES.get(name)


def check_type_decl(decl, loc) -> None:
    """A located error unless `decl` is a type."""
    if isinstance(decl, str):
        if decl not in SCALARS:
            raise loc.error(f"unknown param type '{decl}' (expected one of: {', '.join(SCALARS)}, "
                            "or {list: T}, {map: T}, {enum: [...]}, {vocabulary: NAME})")
        return
    if not isinstance(decl, dict):
        raise loc.error("a param type is a name or a mapping ({list: T}, {map: T}, {enum: [...]}, "
                        "{vocabulary: NAME})")
    kinds = [k for k in decl if k in COMPOUND]
    extra = [k for k in decl if k not in COMPOUND + ("keys", "complete")]
    if len(kinds) != 1 or extra:
        raise loc.error(f"a param type has one of: {', '.join(COMPOUND)} (and for list/map "
                        "'complete', for map 'keys')")
    kind = kinds[0]
    here = decl.loc_of(kind) if hasattr(decl, "loc_of") else loc
    if kind in ("list", "map"):
        check_type_decl(decl[kind], here)
        if "keys" in decl:
            check_type_decl(decl["keys"], decl.loc_of("keys") if hasattr(decl, "loc_of") else loc)
    elif kind == "enum":
        if not isinstance(decl["enum"], list) or not decl["enum"]:
            raise here.error("'enum' is a non-empty list of values")
    elif _vocabulary(str(decl["vocabulary"])) is None:
        raise here.error(f"unknown vocabulary '{decl['vocabulary']}' (known: {', '.join(sorted(VOCABULARIES))})")


def _choices(decl) -> tuple | None:
    """The values of an enum or vocabulary type (None for others)."""
    if isinstance(decl, dict):
        if "enum" in decl:
            return tuple(str(v) for v in decl["enum"])
        if "vocabulary" in decl:
            return VOCABULARIES[str(decl["vocabulary"])].names()
    return None


def _describe(decl) -> str:
    if isinstance(decl, str):
        return {"op-name": "an op name", "int": "an integer", "bool": "true or false",
                "string": "a string", "any": "anything"}[decl]
    if "list" in decl:
        return "a list"
    if "map" in decl:
        return "a mapping"
    if "vocabulary" in decl:
        return f"a {VOCABULARIES[str(decl['vocabulary'])].kind}"
    return "one of: " + ", ".join(map(str, decl["enum"]))


def check_value(value, decl, loc, what: str) -> None:
    """A located error unless `value` has type `decl` (`what`: the param, for messages)."""
    if decl == "any":
        return
    if decl == "bool":
        ok = isinstance(value, bool)
    elif decl == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif decl == "string":
        ok = isinstance(value, str)
    elif decl == "op-name":
        ok = isinstance(value, str)
        if ok:
            check_op_name(str(value), loc)
    elif "list" in decl or "map" in decl:
        _check_collection(value, decl, loc, what)
        return
    else:
        choices = _choices(decl)
        ok = str(value) in choices if isinstance(value, str) else False
        if not ok:
            close = difflib.get_close_matches(str(value), choices, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (expected one of: {', '.join(choices)})"
            kind = VOCABULARIES[str(decl["vocabulary"])].kind if "vocabulary" in decl else "value"
            raise loc.error(f"'{what}': unknown {kind} '{value}'{hint}")
        return
    if not ok:
        raise loc.error(f"'{what}' expects {_describe(decl)}, got {value!r}")


def _check_collection(value, decl, loc, what: str) -> None:
    complete = bool(decl.get("complete"))
    if "list" in decl:
        if not isinstance(value, list):
            raise loc.error(f"'{what}' expects a list, got {value!r}")
        locs = getattr(value, "item_locs", [loc] * len(value))
        for item, item_loc in zip(value, locs):
            check_value(item, decl["list"], item_loc, what)
        entries, entry_type = [str(v) for v in value], decl["list"]
    else:
        if not isinstance(value, dict):
            raise loc.error(f"'{what}' expects a mapping, got {value!r}")
        key_type = decl.get("keys", "string")
        for key, item in value.items():
            key_loc = value.key_loc(key) if hasattr(value, "key_loc") else loc
            check_value(key, key_type, key_loc, what)
            check_value(item, decl["map"], value.loc_of(key) if hasattr(value, "loc_of") else loc, what)
        entries, entry_type = [str(k) for k in value], key_type
    if complete:
        choices = _choices(entry_type)
        if choices is not None and sorted(entries) != sorted(choices):
            missing = [c for c in choices if c not in entries]
            raise loc.error(f"'{what}' names each of: {', '.join(choices)} once"
                            + (f" (missing: {', '.join(missing)})" if missing else ""))


def check_params(params, decls: dict, loc, pass_name: str) -> None:
    """A rule file's own `params:` against the declared params (its own and its bases')."""
    for key, value in params.items():
        key_loc = params.key_loc(key) if hasattr(params, "key_loc") else loc
        if key not in decls:
            close = difflib.get_close_matches(str(key), list(decls), n=1)
            hint = (f" (did you mean '{close[0]}'?)" if close
                    else f" ({pass_name} takes: {', '.join(decls)})" if decls
                    else f" ({pass_name} takes no params)")
            raise key_loc.error(f"unknown param '{key}'{hint}")
        value_loc = params.loc_of(key) if hasattr(params, "loc_of") else loc
        if value == "delete":
            raise value_loc.error(f"param '{key}' cannot be deleted ('KEY: delete' removes an entry of a "
                                  "mapping param)")
        check_value(value, decls[key].type, value_loc, str(key))
