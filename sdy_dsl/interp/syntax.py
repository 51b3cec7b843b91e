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

from dataclasses import MISSING, Field, field

# --------------------------------------------------------------------------- AST


class Node:
    """The base of every tree node. A node class declares its fields as a
    dataclass would (annotations, in order after its bases'; a default, or
    `field(default_factory=..., compare=..., kw_only=...)`), and gets these
    methods, written once: `@dataclass` compiled an __init__, __repr__ and
    __eq__ for each of the 20 classes at every start-up (~35M instructions),
    though trees mostly come from the syntax cache, unpickled without __init__.
    As a dataclass's: equal when of one class with equal compared fields
    (hence unhashable), repr `Name(field=value, ...)`."""

    __slots__ = ()
    _fields: tuple = ()  # every field, in order
    _positional: tuple = ()  # the fields __init__ takes by position, in order
    _compared: tuple = ()
    _defaults: dict = {}  # field -> a default value, or a Field whose default_factory makes one
    __hash__ = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields, positional, compared = list(cls._fields), list(cls._positional), list(cls._compared)
        defaults = dict(cls._defaults)
        for name in cls.__dict__.get("__annotations__", {}):
            value = cls.__dict__.get(name, MISSING)
            spec = value if isinstance(value, Field) else field(default=value)
            if isinstance(value, Field):
                delattr(cls, name)  # (a dataclass keeps the plain default as the class attribute)
                if spec.default is not MISSING:
                    setattr(cls, name, spec.default)
            if spec.default is not MISSING:
                defaults[name] = spec.default
            elif spec.default_factory is not MISSING:
                defaults[name] = spec
            elif spec.kw_only is not True and any(p in defaults for p in positional):
                raise TypeError(f"non-default argument '{name}' follows default argument")
            fields.append(name)
            if spec.kw_only is not True:
                positional.append(name)
            if spec.compare:
                compared.append(name)
        cls._fields, cls._positional, cls._compared = tuple(fields), tuple(positional), tuple(compared)
        cls._defaults = defaults

    def __init__(self, *args, **kwargs):
        name = type(self).__qualname__
        if len(args) > len(self._positional):
            raise TypeError(f"{name}.__init__() takes {len(self._positional) + 1} positional arguments "
                            f"but {len(args) + 1} were given")
        values = dict(zip(self._positional, args))
        for key, value in kwargs.items():
            if key not in self._fields:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"{name}.__init__() got multiple values for argument '{key}'")
            values[key] = value
        for key in self._fields:
            if key not in values:
                if key not in self._defaults:
                    raise TypeError(f"{name}.__init__() missing 1 required argument: '{key}'")
                default = self._defaults[key]
                values[key] = default.default_factory() if isinstance(default, Field) else default
        self.__dict__.update((key, values[key]) for key in self._fields)

    def __repr__(self) -> str:
        fields = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._fields)
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, key) == getattr(other, key) for key in self._compared)


class ValueVar(Node):
    name: str  # without '%'; '_' for a wildcard
    variadic: bool = False


class AttrEntry(Node):
    name: str
    kind: str  # bind | literal | present | absent | rest ("...": in a rewrite, the root's other attributes)
    var: str | None = None  # bind: without '$'
    literal: str | None = None
    optional: bool = False


class BlockPattern(Node):
    args: list[ValueVar]
    lines: list["OpPattern"]


class RegionPattern(Node):
    var: str | None
    block: BlockPattern | None


class OpPattern(Node):
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


class Pattern(Node):
    lines: list[OpPattern]

    @property
    def root(self) -> OpPattern:
        return self.lines[-1]


# Expressions: small tuples-with-names, evaluated by interp.expr.
class Expr(Node):
    offset: int = field(default=0, compare=False, kw_only=True)


class Lit(Expr):
    value: object


class FStr(Expr):
    """`f"{%x} has {bytes(%x)} bytes"`: text and expressions, in order."""
    parts: list  # str | Expr


class Var(Expr):
    name: str  # with sigil: '%x' or '$s'


class Call(Expr):
    func: str
    args: list[Expr]


class GetAttr(Expr):
    target: Expr
    name: str


class Not(Expr):
    operand: Expr


class BoolOp(Expr):
    op: str  # and | or
    operands: list[Expr]


class Compare(Expr):
    op: str
    left: Expr
    right: Expr


class Arith(Expr):
    op: str
    left: Expr
    right: Expr


class Bind(Expr):
    name: str  # with '$'
    value: Expr


class ListExpr(Expr):
    items: list[Expr]


class IfElse(Expr):
    """`a if cond else b`."""
    then: Expr
    cond: Expr
    otherwise: Expr


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
