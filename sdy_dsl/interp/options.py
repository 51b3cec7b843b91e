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
    name, and a read-only mapping view by declared name.

    Each class is a frozen dataclass (dataclasses.fields and replace work on
    it, assigning raises FrozenInstanceError) whose methods are these, written
    once: make_dataclass would compile six methods per class, ~0.5 ms each
    class, 25 ms of a run's start-up (two classes per pass)."""

    __slots__ = ()
    _names: dict = {}  # declared name -> field name (set per class)

    def __init__(self, **values):
        for f in self.__dataclass_fields__.values():
            if f.name in values:
                value = values.pop(f.name)
            elif f.default is not dataclasses.MISSING:
                value = f.default
            else:
                raise TypeError(f"{type(self).__qualname__}.__init__() missing required argument: '{f.name}'")
            object.__setattr__(self, f.name, value)
        if values:
            raise TypeError(f"{type(self).__qualname__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(values))}'")

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__dataclass_fields__)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

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
    """The base of every pass's options class (see options_class): equal when
    every field is, and hashable."""

    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._field_values() == other._field_values()

    def __hash__(self) -> int:
        return hash(self._field_values())

    def _field_values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__dataclass_fields__)


class PassParams(TypedFields):
    """The base of every pass's params class (see params_class)."""

    __slots__ = ()


def _class_name(pass_name: str, suffix: str) -> str:
    return "".join(part.capitalize() for part in pass_name.replace(".", "-").split("-")) + suffix


def options_class(pass_name: str, decls: Mapping) -> type:
    """The frozen options class of a pass from its declarations ({name: OptionDecl})."""
    names = {name: field_name(name) for name in decls}
    fields = [(names[name], PY_TYPES.get(decl.type, object), dataclasses.field(default=decl.default))
              for name, decl in decls.items()]
    cls = _frozen_dataclass(_class_name(pass_name, "Options"), fields, PassOptions, f"The options of pass '{pass_name}'.")
    cls._names = names
    return cls


def params_class(pass_name: str, declared: Iterable[str]) -> type:
    """The frozen params class of a pass: one field per declared param (the
    values, YAML data with their locations, are given when it is made)."""
    names = {name: field_name(name) for name in declared}
    cls = _frozen_dataclass(_class_name(pass_name, "Params"), [(f, object) for f in names.values()], PassParams,
                            f"The params of pass '{pass_name}'.")
    cls._names = names
    return cls


def _frozen_dataclass(name: str, fields: list, base: type, doc: str) -> type:
    """A dataclass of `fields` whose methods are `base`'s (TypedFields): no method is generated."""
    return dataclasses.make_dataclass(name, fields, bases=(base,), init=False, repr=False, eq=False,
                                      namespace={"__doc__": doc})
