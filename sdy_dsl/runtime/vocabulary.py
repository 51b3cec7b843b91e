"""Named vocabularies of the rule language, one mechanism for all (as JAX's
`register_lowering`): a rule file names an entry (a schedule level, a factor
strategy, a heuristic predicate, a rule builder...), the Python that
implements it registers it under that name, and a misspelled name is an
error naming the closest one.

    LEVELS = Vocabulary("schedule level")

    @LEVELS.register("op-priorities")
    def op_priorities(engine, inner, heuristics): ...

    LEVELS.lookup("op-priorites", loc)   # loc: error: unknown schedule level
                                         # 'op-priorites' (did you mean 'op-priorities'?)
"""
from __future__ import annotations

import difflib
from typing import Callable, Generic, Iterator, TypeVar

T = TypeVar("T")

# Vocabularies a rule file's declared types may name (`{vocabulary: NAME}` in
# a pass's `param-types:`), by name.
VOCABULARIES: dict[str, "Vocabulary"] = {}


class Vocabulary(Generic[T]):
    def __init__(self, kind: str, name: str | None = None):
        self.kind = kind  # what an entry is, for messages ("schedule level")
        self._entries: dict[str, T] = {}
        if name is not None:
            VOCABULARIES[name] = self

    def register(self, name: str, entry: T | None = None):
        """`register(name, entry)`, or `@register(name)` on a definition."""
        def add(value: T) -> T:
            if name in self._entries:
                raise ValueError(f"{self.kind} '{name}' is registered twice")
            self._entries[name] = value
            return value
        return add(entry) if entry is not None else add

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def get(self, name: str, default=None):
        return self._entries.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)

    def items(self):
        return self._entries.items()

    def unknown_message(self, name: object) -> str:
        close = difflib.get_close_matches(str(name), self.names(), n=1)
        hint = (f" (did you mean '{close[0]}'?)" if close
                else " (expected one of: " + ", ".join(self.names()) + ")")
        return f"unknown {self.kind} '{name}'{hint}"

    def lookup(self, name: str, loc=None, error: Callable | None = None) -> T:
        """The entry named `name`; else an error at `loc` (a rule-file location
        with `.error(message)`) or `error(message)`, or a ValueError."""
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            message = self.unknown_message(name)
        if loc is not None:
            raise loc.error(message)
        if error is not None:
            raise error(message)
        raise ValueError(message)
