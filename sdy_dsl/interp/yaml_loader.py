"""YAML loading that keeps node positions, so every error can point at its source.

Mappings load as `LocDict`, sequences as `LocList` and strings as `LocStr`;
each knows the (line, col) where it started, and a `LocDict` also knows where
each of its keys and values started.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from ..errors import RuleFileError


class Loc:
    """A 1-based source position in a file."""

    __slots__ = ("path", "line", "col")

    def __init__(self, path: str, line: int, col: int):
        self.path, self.line, self.col = path, line, col

    @staticmethod
    def of_mark(path, mark) -> "Loc":
        return Loc(path, mark.line + 1, mark.column + 1)

    def error(self, message: str, notes=()) -> RuleFileError:
        return RuleFileError(self.path, self.line, self.col, message, notes)

    def shifted(self, offset_in_text: str, offset: int) -> "Loc":
        """The position `offset` characters into a plain scalar that starts here."""
        before = offset_in_text[:offset]
        newlines = before.count("\n")
        if newlines == 0:
            return Loc(self.path, self.line, self.col + offset)
        return Loc(self.path, self.line + newlines, offset - before.rfind("\n"))

    def __str__(self):
        return f"{self.path}:{self.line}:{self.col}"


class LocStr(str):
    loc: Loc


class LocDict(dict):
    loc: Loc
    key_locs: dict
    value_locs: dict

    def loc_of(self, key) -> Loc:
        return self.value_locs.get(key, self.loc)

    def key_loc(self, key) -> Loc:
        return self.key_locs.get(key, self.loc)


class LocList(list):
    loc: Loc
    item_locs: list


def load_yaml(path: Path | str, text: str | None = None):
    """Load one YAML document, keeping positions. Raises RuleFileError on bad YAML."""
    path_str = str(path)
    if text is None:
        try:
            text = Path(path).read_text()
        except OSError as e:
            raise RuleFileError(path_str, None, None, f"cannot read file: {e.strerror}") from None
        except UnicodeDecodeError:
            raise RuleFileError(path_str, None, None, "file is not UTF-8 text") from None

    class Loader(yaml.SafeLoader):
        pass

    def construct_str(loader, node):
        s = LocStr(loader.construct_scalar(node))
        s.loc = Loc.of_mark(path_str, node.start_mark)
        # Plain (unquoted) scalars start at the mark; quoted ones one char later.
        if node.style in ("'", '"'):
            s.loc = Loc(path_str, s.loc.line, s.loc.col + 1)
        elif node.style in ("|", ">"):
            s.loc = Loc(path_str, s.loc.line + 1, s.loc.col)
        return s

    def construct_map(loader, node):
        d = LocDict()
        d.loc = Loc.of_mark(path_str, node.start_mark)
        d.key_locs, d.value_locs = {}, {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise Loc.of_mark(path_str, key_node.start_mark).error("mapping keys must be scalars") from None
            if key in d:
                raise Loc.of_mark(path_str, key_node.start_mark).error(f"duplicate key '{key}'")
            d[key] = loader.construct_object(value_node, deep=True)
            d.key_locs[key] = Loc.of_mark(path_str, key_node.start_mark)
            d.value_locs[key] = Loc.of_mark(path_str, value_node.start_mark)
        return d

    def construct_seq(loader, node):
        items = LocList(loader.construct_object(n, deep=True) for n in node.value)
        items.loc = Loc.of_mark(path_str, node.start_mark)
        items.item_locs = [Loc.of_mark(path_str, n.start_mark) for n in node.value]
        return items

    Loader.add_constructor("tag:yaml.org,2002:str", construct_str)
    Loader.add_constructor("tag:yaml.org,2002:map", construct_map)
    Loader.add_constructor("tag:yaml.org,2002:seq", construct_seq)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - SafeLoader subclass
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        msg = " ".join(str(x) for x in (e.context, e.problem) if x)
        raise RuleFileError(path_str, line, col, f"invalid YAML: {msg}") from None
    except yaml.YAMLError as e:
        raise RuleFileError(path_str, None, None, f"invalid YAML: {e}") from None


def loc_of(node, default: Loc) -> Loc:
    return getattr(node, "loc", None) or default
