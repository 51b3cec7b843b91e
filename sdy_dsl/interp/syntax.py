"""The two small grammars of rule files: their trees.

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
both languages, which also produces every syntax error; parsing.py parses
(and caches the trees of a rule file, so it is parsed once, not at every start).
"""
from __future__ import annotations

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
class FStr(Expr):
    """`f"{%x} has {bytes(%x)} bytes"`: text and expressions, in order."""
    parts: list  # str | Expr


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


UNPARSED_TAIL = "cannot parse from here (unclosed bracket or unknown syntax)"


def readable_parse_error(message: str) -> str:
    """A grammar engine's message as a rule file's author reads it: its
    'expected end of text' (or a dump of the whole grammar it expected) says
    only that parsing stopped here."""
    if "end of text" in message or len(message) > 160:
        return UNPARSED_TAIL
    return message


class SyntaxErrorAt(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset, self.message = offset, message


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
