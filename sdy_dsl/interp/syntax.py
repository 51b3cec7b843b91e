"""The two small grammars of rule files: their trees and parse functions.

1. Patterns, written like MLIR's generic op syntax with metavariables:

       %r = sdy.sharding_constraint(%x) {sharding = $s}
       %c = stablehlo.constant() ; %r = stablehlo.broadcast_in_dim(%c)
       $g = sdy.sharding_group(%x) {group_id = $id}
       %rs* = sdy.manual_computation(%ins*) {manual_axes = $axes} ({^bb(%args*): sdy.return(%outs*)})

   `%x` binds a value, `%xs*` a list of values, `_` matches anything, `$x`
   binds an attribute (or a region / an op label), `{!name}` requires an
   attribute to be absent, `{name = $x?}` binds it if present (else none),
   `{name}` requires it present, `{name = <literal>}` compares it; in a
   rewrite, `...` copies the matched root's other attributes. Lines
   before the last describe the producers of the last line's operands (its
   root); a region's last line matches the region's terminator.

2. Expressions, for `where:` constraints and actions:

       not has_sharding(%x) and is_fully_closed($s)
       $mesh := mesh_of($s)
       rank(%x) >= 2 and $s.rank == rank(%x)
       for_each_sharding($root, $s => closed($s))     # `$x => e` is a lambda

The grammars are defined with pyparsing in grammar.py, the one parser of
both languages, which also produces every syntax error. Parsing is slow
(pyparsing builds each tree in milliseconds), so the trees of a rule file are
kept, by the file's content, in the user's cache (see `trees_cached_for`):
a rule file is parsed once, not at every start.
"""
from __future__ import annotations

import contextlib
import re
import copy
from dataclasses import dataclass, field

# --------------------------------------------------------------------------- AST


@dataclass
class ValueVar:
    name: str  # without '%'; '_' for a wildcard
    variadic: bool = False


@dataclass
class AttrEntry:
    name: str
    kind: str  # bind | literal | present | absent | rest ("...": in a rewrite, the root's other attributes)
    var: str | None = None  # bind: without '$'
    literal: str | None = None
    optional: bool = False


@dataclass
class BlockPattern:
    args: list[ValueVar]
    lines: list["OpPattern"]


@dataclass
class RegionPattern:
    var: str | None
    block: BlockPattern | None


@dataclass
class OpPattern:
    names: tuple[str, ...]  # ('*',) matches any op
    label: str | None = None
    results: list[ValueVar] = field(default_factory=list)
    operands: list[ValueVar] | None = None  # None: any operands
    attrs: list[AttrEntry] = field(default_factory=list)
    regions: list[RegionPattern] | None = None
    offset: int = 0  # in the pattern text, for error positions

    @property
    def is_any_op(self) -> bool:
        return self.names == ("*",)


@dataclass
class Pattern:
    lines: list[OpPattern]

    @property
    def root(self) -> OpPattern:
        return self.lines[-1]


# Expressions: small tuples-with-names, evaluated by interp.expr.
@dataclass
class Expr:
    offset: int = field(default=0, compare=False, kw_only=True)


@dataclass
class Lit(Expr):
    value: object


@dataclass
class Var(Expr):
    name: str  # with sigil: '%x' or '$s'


@dataclass
class Call(Expr):
    func: str
    args: list[Expr]


@dataclass
class GetAttr(Expr):
    target: Expr
    name: str


@dataclass
class Not(Expr):
    operand: Expr


@dataclass
class BoolOp(Expr):
    op: str  # and | or
    operands: list[Expr]


@dataclass
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass
class Arith(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass
class Bind(Expr):
    name: str  # with '$'
    value: Expr


@dataclass
class ListExpr(Expr):
    items: list[Expr]


@dataclass
class IfElse(Expr):
    """`a if cond else b`."""
    then: Expr
    cond: Expr
    otherwise: Expr


@dataclass
class Lambda(Expr):
    """`$x => body`: a one-argument function, e.g. a sharding transform."""
    param: str  # with '$'
    body: Expr


class SyntaxErrorAt(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset, self.message = offset, message


# --------------------------------------------------------------------------- parsing

_UNPARSED_TAIL = "cannot parse from here (unclosed bracket or unknown syntax)"


MAX_NESTING = 64  # brackets nested in one expression or pattern
MAX_TEXT = 100_000  # characters of one expression or pattern
MAX_PATTERN_LINES = 256  # ops in one pattern: each line's producers are matched recursively
MAX_EXPR_WORDS = 2_000  # whitespace-separated words of one expression: operator chains recurse


def unquoted(text: str, opening: str = "([{", closing: str = ")]}"):
    """(index, char, depth) of each character outside quotes; `depth` counts
    the brackets open after it."""
    depth, quote = 0, None
    for i, ch in enumerate(text):
        if quote:
            if ch != quote:
                continue  # inside quotes
            quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        yield i, ch, depth


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
    # The limit does not depend on the interpreter's recursion limit (which
    # other libraries in the process may raise).
    lines = [i for i, ch, _ in unquoted(text) if ch in "\n;"]
    if len(lines) >= MAX_PATTERN_LINES:
        raise SyntaxErrorAt(lines[MAX_PATTERN_LINES - 1],
                            f"pattern nested too deeply (more than {MAX_PATTERN_LINES} ops)")
    return _guarded(_parse_pattern, text, "pattern")


def parse_expr(text: str) -> Expr:
    # As for patterns, a limit of our own, not the interpreter's recursion limit.
    words = list(re.finditer(r"\S+", text))
    if len(words) > MAX_EXPR_WORDS:
        raise SyntaxErrorAt(words[MAX_EXPR_WORDS].start(),
                            f"expression nested too deeply (more than {MAX_EXPR_WORDS} words)")
    return _guarded(_parse_expr, text, "expression")


# Trees parsed in this process, by (language, text); `trees_cached_for` fills
# it from, and saves it to, the cache entry of the rule file being loaded.
_TREES: dict[tuple[str, str], object] = {}
_NEW_TREES: list[tuple[str, str]] = []


def _parse_pattern(text: str) -> Pattern:
    key = ("pattern", str(text))  # a plain str: a YAML LocStr would not unpickle from the cache
    tree = _TREES.get(key)
    if tree is None:
        import pyparsing as pp

        from .grammar import PATTERN
        try:
            lines = PATTERN.parse_string(text, parse_all=True)
        except pp.ParseBaseException as e:
            why = e.msg if "end of text" not in e.msg else _UNPARSED_TAIL
            raise SyntaxErrorAt(e.loc, f"invalid pattern: {why}") from None
        tree = _TREES[key] = Pattern(list(lines))
        _NEW_TREES.append(key)
    if _used is not None:
        _used.add(key)
    return copy.deepcopy(tree)


def _parse_expr(text: str) -> Expr:
    key = ("expr", str(text))  # a plain str: a YAML LocStr would not unpickle from the cache
    tree = _TREES.get(key)
    if tree is None:
        import pyparsing as pp

        from .grammar import EXPR
        try:
            tree = EXPR.parse_string(text, parse_all=True)[0]
        except pp.ParseBaseException as e:
            why = e.msg if "end of text" not in e.msg else _UNPARSED_TAIL
            raise SyntaxErrorAt(e.loc, f"invalid expression: {why}") from None
        _TREES[key] = tree
        _NEW_TREES.append(key)
    if _used is not None:
        _used.add(key)
    return copy.deepcopy(tree)


@contextlib.contextmanager
def trees_cached_for(file_text: str):
    """Parse a rule file's patterns and expressions through the cache entry of
    its content: trees found there are not parsed again, new ones are saved."""
    from .yaml_loader import syntax_cache
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
