"""A pass's options, and its params, each as one frozen, typed object (the xDSL pattern).

The rule file's `options:` declares each option once (name, type, default);
the loader makes one frozen dataclass per pass from those declarations
(`options_class`), and each run gets one instance of it, handed whole to the
hooks and engines (`ctx.options`): fields by Python name
(`options.conservative_propagation`), and, for rule-file expressions and
hooks that read options by their declared name, a read-only mapping view
(`options["conservative-propagation"]`, `options.get(...)`).

The rule file's `params:` (typed by its `param-types:`, see param_types.py)
become one object the same way (`params_class`; `ctx.params.candidate_ranking`):
a field per declared param, whose value is the file's (merged over the
files it extends); the pass's own file gives each its default.
"""
from __future__ import annotations

import dataclasses
from typing import Iterable, Iterator, Mapping

PY_TYPES = {"bool": bool, "int": int, "string": str, "enum": str}


def field_name(option: str) -> str:
    """The Python name of an option or param (`keep-sharding-rules` -> keep_sharding_rules)."""
    return option.replace("-", "_")


class TypedFields(Mapping):
    """The base of every pass's options and params classes: fields by Python
    name, and a read-only mapping view by declared name."""

    __slots__ = ()
    _names: dict = {}  # declared name -> field name (set per class)

    def __getitem__(self, name: str):
        try:
            return getattr(self, self._names[name])
        except KeyError:
            raise KeyError(name) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def replace(self, **changes):
        """A copy with some fields changed (by declared name or field name)."""
        return dataclasses.replace(self, **{self._names.get(k, k): v for k, v in changes.items()})


class PassOptions(TypedFields):
    """The base of every pass's options class (see options_class)."""

    __slots__ = ()


class PassParams(TypedFields):
    """The base of every pass's params class (see params_class)."""

    __slots__ = ()


def _class_name(pass_name: str, suffix: str) -> str:
    return "".join(part.capitalize() for part in pass_name.replace(".", "-").split("-")) + suffix


def options_class(pass_name: str, decls: Mapping) -> type:
    """The frozen options class of a pass from its declarations ({name: OptionDecl})."""
    names = {name: field_name(name) for name in decls}
    fields = tuple((names[name], PY_TYPES.get(decl.type, object), decl.default) for name, decl in decls.items())
    return _named_class(_class_name(pass_name, "Options"), _layout(PassOptions, fields, eq=True), names)


def params_class(pass_name: str, declared: Iterable[str]) -> type:
    """The frozen params class of a pass: one field per declared param (the
    values, YAML data with their locations, are given when it is made)."""
    names = {name: field_name(name) for name in declared}
    fields = tuple((f, object, dataclasses.MISSING) for f in names.values())
    return _named_class(_class_name(pass_name, "Params"), _layout(PassParams, fields, eq=False), names)


# Making a dataclass compiles its methods' source (~0.4 ms a class, twice per pass
# run): passes whose fields are alike share one, and each pass names a bare
# subclass of it (most passes have no options and no params).
_LAYOUTS: dict[tuple, type] = {}  # (base, eq, fields) -> the frozen dataclass of those fields


def _layout(base: type, fields: tuple, eq: bool) -> type:
    """The frozen dataclass over `base` of these (name, type, default or MISSING) fields."""
    key = (base, eq, tuple((f, t, type(d), repr(d)) for f, t, d in fields))
    found = _LAYOUTS.get(key)
    if found is None:
        spec = [(f, t) if d is dataclasses.MISSING else (f, t, dataclasses.field(default=d)) for f, t, d in fields]
        found = _LAYOUTS[key] = dataclasses.make_dataclass(
            f"{base.__name__}Fields", spec, bases=(base,), frozen=True, eq=eq,
            namespace={"__doc__": f"Frozen {base.__name__} fields: {', '.join(f for f, _, _ in fields)}",
                       "__module__": __name__})
    return found


def _named_class(name: str, layout: type, names: dict) -> type:
    """A pass's own class of a shared layout: its name (its instances' repr) and its declared names."""
    return type(name, (layout,), {"__slots__": (), "_names": names, "__module__": __name__})
