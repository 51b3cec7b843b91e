"""Parsing the two small grammars of rule files (syntax.py has their trees,
grammar.py their pyparsing definitions), with limits of our own on size and
nesting, and a cache of parsed trees per rule file content.

Parsing is slow (pyparsing builds each tree in milliseconds, and building the
grammars takes a while), so the trees of a rule file are kept, by the file's
content, in the user's cache (see `trees_cached_for`), and grammar.py is
imported only when a tree must be parsed.
"""
from __future__ import annotations

import contextlib
import re

from .syntax import Expr, Pattern, SyntaxErrorAt, readable_parse_error, unquoted
from .yaml_loader import syntax_cache


MAX_NESTING = 64  # brackets nested in one expression or pattern
MAX_TEXT = 100_000  # characters of one expression or pattern
MAX_PATTERN_LINES = 256  # ops in one pattern: each line's producers are matched recursively
MAX_EXPR_WORDS = 2_000  # whitespace-separated words of one expression: operator chains recurse


def check_size(text: str, what: str) -> None:
    """A text too long or too deeply nested to parse is a syntax error at the
    place it goes too far (the parsers and compilers recurse on nesting)."""
    if len(text) > MAX_TEXT:
        raise SyntaxErrorAt(MAX_TEXT, f"{what} longer than {MAX_TEXT} characters")
    for i, _, depth in unquoted(text):
        if depth > MAX_NESTING:
            raise SyntaxErrorAt(i, f"{what} nested more than {MAX_NESTING} levels deep")


def _guarded(parse, text: str, what: str):
    check_size(text, what)
    try:
        return parse(text)
    except RecursionError:
        raise SyntaxErrorAt(0, f"{what} nested too deeply") from None
    except ValueError as e:  # e.g. an integer literal of more than 4,300 digits
        raise SyntaxErrorAt(0, f"invalid {what}: {e}") from None


def parse_pattern(text: str) -> Pattern:
    known = _known_tree("pattern", text)
    if known is not None:
        return known
    # The limit does not depend on the interpreter's recursion limit (which
    # other libraries in the process may raise).
    lines = [i for i, ch, _ in unquoted(text) if ch in "\n;"]
    if len(lines) >= MAX_PATTERN_LINES:
        raise SyntaxErrorAt(lines[MAX_PATTERN_LINES - 1],
                            f"pattern nested too deeply (more than {MAX_PATTERN_LINES} ops)")
    return _guarded(_parse_pattern, text, "pattern")


def parse_expr(text: str) -> Expr:
    known = _known_tree("expr", text)
    if known is not None:
        return known
    # As for patterns, a limit of our own, not the interpreter's recursion limit.
    words = list(re.finditer(r"\S+", text))
    if len(words) > MAX_EXPR_WORDS:
        raise SyntaxErrorAt(words[MAX_EXPR_WORDS].start(),
                            f"expression nested too deeply (more than {MAX_EXPR_WORDS} words)")
    return _guarded(_parse_expr, text, "expression")


# Trees parsed in this process, by (language, text); `trees_cached_for` fills
# it from, and saves it to, the cache entry of the rule file being loaded.
# A tree is handed out shared, not copied: nothing changes a tree once parsed
# (the compilers read it), and the same text in several rules is one tree.
_TREES: dict[tuple[str, str], object] = {}
_NEW_TREES: list[tuple[str, str]] = []


def _known_tree(language: str, text: str):
    """The tree of a text parsed before (here, or by the process that cached it),
    or None. Its text passed the size checks then: they are not made again (the
    syntax cache is salted with this module's source, so with its limits)."""
    key = (language, str(text))
    tree = _TREES.get(key)
    if tree is not None and _used is not None:
        _used.add(key)
    return tree


def _parse_pattern(text: str) -> Pattern:
    key = ("pattern", str(text))  # a plain str: a YAML LocStr would not unpickle from the cache
    tree = _TREES.get(key)
    if tree is None:
        import pyparsing as pp  # (deferred: slow to import, unused when the trees are cached)

        from .grammar import PATTERN
        try:
            lines = PATTERN.parse_string(text, parse_all=True)
        except pp.ParseBaseException as e:
            raise SyntaxErrorAt(e.loc, f"invalid pattern: {readable_parse_error(e.msg)}") from None
        tree = _TREES[key] = Pattern(list(lines))
        _NEW_TREES.append(key)
    if _used is not None:
        _used.add(key)
    return tree


def _parse_expr(text: str) -> Expr:
    key = ("expr", str(text))  # a plain str: a YAML LocStr would not unpickle from the cache
    tree = _TREES.get(key)
    if tree is None:
        import pyparsing as pp

        from .grammar import EXPR
        try:
            tree = EXPR.parse_string(text, parse_all=True)[0]
        except pp.ParseBaseException as e:
            raise SyntaxErrorAt(e.loc, f"invalid expression: {readable_parse_error(e.msg)}") from None
        _TREES[key] = tree
        _NEW_TREES.append(key)
    if _used is not None:
        _used.add(key)
    return tree


@contextlib.contextmanager
def trees_cached_for(file_text: str):
    """Parse a rule file's patterns and expressions through the cache entry of
    its content: trees found there are not parsed again, new ones are saved."""
    cache = syntax_cache()
    key = cache.key(file_text) if cache is not None else None
    if cache is not None:
        stored = cache.load(key, "")
        if isinstance(stored, dict):
            for tree_key, tree in stored.items():
                _TREES.setdefault(tree_key, tree)
    start = len(_NEW_TREES)
    used: set = set()
    global _used
    previous, _used = _used, used
    try:
        yield
    finally:
        _used = previous
    if cache is not None and len(_NEW_TREES) > start:
        cache.store(key, {k: _TREES[k] for k in used if k in _TREES}, "")


_used: set | None = None
