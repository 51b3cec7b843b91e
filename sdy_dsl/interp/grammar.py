"""The pyparsing definitions of the two grammars described in syntax.py.

This module is the reference for both languages and produces every syntax
error message. It is imported on first need only: importing pyparsing and
building the grammars costs tens of milliseconds, and well-formed
expressions are parsed by the hand-written expr_parser instead.
"""
from __future__ import annotations

import pyparsing as pp


def balanced_attr_end(text: str, loc: int) -> int:
    """Where an attribute literal starting at `loc` ends: the next ',' or
    closing bracket outside brackets and strings."""
    depth, i, quote = 0, loc, None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch == '"':
            quote = ch
        elif ch in "<[({":
            depth += 1
        elif ch in ">])}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
        i += 1
    return i



from .syntax import (AttrEntry, Arith, Bind, BlockPattern, BoolOp, Call, Compare, Expr, FStr, GetAttr, IfElse,
                     Lambda, ListExpr, Lit, Not, OpPattern, RegionPattern, ValueVar, Var, readable_parse_error,
                     unquoted)

pp.ParserElement.enable_packrat()

# --------------------------------------------------------------------------- tokens

IDENT = pp.Word(pp.alphas + "_", pp.alphanums + "_")
DOTTED = pp.Combine(IDENT + pp.ZeroOrMore("." + IDENT))
VALUE_NAME = pp.Combine(pp.Suppress("%") + pp.Word(pp.alphanums + "_"))
DOLLAR_NAME = pp.Combine(pp.Suppress("$") + IDENT)
STRING = pp.QuotedString('"', esc_char="\\", unquote_results=False) | pp.QuotedString(
    "'", esc_char="\\", unquote_results=False)


class BalancedAttr(pp.Token):
    """An MLIR attribute literal: scans to the next top-level ',' or '}'."""

    def __init__(self):
        super().__init__()
        self.mayReturnEmpty = False
        self.mayIndexError = False
        self.set_name("attribute literal")

    def parseImpl(self, instring, loc, do_actions=True):
        i = balanced_attr_end(instring, loc)
        text = instring[loc:i].strip()
        if not text:
            raise pp.ParseException(instring, loc, "expected an attribute literal", self)
        return i, text


# --------------------------------------------------------------------------- patterns


def _build_pattern_grammar():
    LPAR, RPAR, LBRACE, RBRACE, EQ, COMMA = map(pp.Suppress, "(){}=,")
    value_var = (VALUE_NAME + pp.Opt(pp.Literal("*"))).set_parse_action(
        lambda t: ValueVar(t[0], len(t) > 1))
    wildcard = pp.Literal("_").set_parse_action(lambda: ValueVar("_"))
    any_rest = pp.Literal("*").set_parse_action(lambda: ValueVar("_", True))
    operand = value_var | wildcard | any_rest
    operands = pp.Group(LPAR + pp.Opt(pp.DelimitedList(operand)) + RPAR)

    attr_name = DOTTED | pp.QuotedString('"')
    attr_bind = (DOLLAR_NAME + pp.Opt(pp.Literal("?")))
    attr_entry = (
        pp.Literal("...").set_parse_action(lambda: AttrEntry("...", "rest"))
        | (pp.Suppress("!") + attr_name).set_parse_action(lambda t: AttrEntry(t[0], "absent"))
        | (attr_name + EQ + attr_bind).set_parse_action(
            lambda t: AttrEntry(t[0], "bind", var=t[1], optional=len(t) > 2))
        | (attr_name + EQ + pp.Literal("_")).set_parse_action(lambda t: AttrEntry(t[0], "present"))
        | (attr_name + EQ + BalancedAttr()).set_parse_action(
            lambda t: AttrEntry(t[0], "literal", literal=t[1]))
        | attr_name.copy().set_parse_action(lambda t: AttrEntry(t[0], "present"))
    )
    attrs = pp.Group(LBRACE + pp.Opt(pp.DelimitedList(attr_entry)) + RBRACE)

    line = pp.Forward()
    block_args = (pp.Suppress("^") + pp.Opt(IDENT).suppress() + LPAR
                  + pp.Group(pp.Opt(pp.DelimitedList(value_var))) + RPAR + pp.Suppress(":"))
    block = (LBRACE + pp.Opt(block_args, default=None) + pp.Group(pp.ZeroOrMore(line + pp.Opt(";").suppress()))
             + RBRACE).set_parse_action(
        lambda t: BlockPattern(list(t[0]) if t[0] is not None else [], list(t[1])))
    region = ((DOLLAR_NAME + pp.Opt(pp.Suppress(":") + block)).set_parse_action(
        lambda t: RegionPattern(t[0], t[1] if len(t) > 1 else None))
        | block.copy().add_parse_action(lambda t: RegionPattern(None, t[0])))
    regions = pp.Group(LPAR + pp.DelimitedList(region) + RPAR)

    op_names = pp.Group(pp.DelimitedList(DOTTED, delim="|") | pp.Literal("*"))
    label = DOLLAR_NAME("label") + EQ
    results = pp.Group(pp.DelimitedList(value_var))("results") + EQ

    def make_line(s, loc, t):
        return OpPattern(
            names=tuple(t["names"]),
            label=t.get("label"),
            results=list(t["results"]) if "results" in t else [],
            operands=list(t["operands"]) if "operands" in t else None,
            attrs=list(t["attrs"]) if "attrs" in t else [],
            regions=list(t["regions"]) if "regions" in t else None,
            offset=loc,
        )

    line <<= (pp.Opt(label | results) + op_names("names") + pp.Opt(operands("operands"))
              + pp.Opt(attrs("attrs")) + pp.Opt(regions("regions"))).set_parse_action(make_line)
    return pp.OneOrMore(line + pp.Opt(";").suppress())


PATTERN = _build_pattern_grammar()


# --------------------------------------------------------------------------- expressions


class _Operator:
    """An operator token with its position (see `operator` below)."""

    def __init__(self, text: str, offset: int):
        self.text, self.offset = text, offset


def _format_parts(text: str, start: int, quoted: str, expr) -> list:
    """The text and expressions of an f-string QUOTED (with its quotes, at START of
    TEXT): `{EXPR}` is an expression, `{{` and `}}` are braces."""
    body = quoted[1:-1].replace("\\" + quoted[0], quoted[0])
    at = start + 1  # the body's first character in TEXT

    def fail(i: int, message: str):
        return pp.ParseFatalException(text, at + i, message)

    parts: list = []
    chunk, i = "", 0
    while i < len(body):
        ch = body[i]
        if body.startswith("{{", i) or body.startswith("}}", i):
            chunk += ch
            i += 2
            continue
        if ch == "}":
            raise fail(i, "unmatched '}' in an f-string (write '}}' for a brace)")
        if ch != "{":
            chunk += ch
            i += 1
            continue
        end = next((j for j, _, depth in unquoted(body[i:]) if depth == 0), None)
        if end is None:
            raise fail(i, "unclosed '{' in an f-string")
        inner = body[i + 1:i + end]
        if not inner.strip():
            raise fail(i, "empty '{}' in an f-string (write '{{' for a brace)")
        try:
            node = expr.parse_string(inner, parse_all=True)[0]
        except pp.ParseBaseException as e:
            raise fail(i + 1 + e.loc, f"in an f-string: {readable_parse_error(e.msg)}") from None
        _shift_offsets(node, at + i + 1)
        if chunk:
            parts.append(chunk)
            chunk = ""
        parts.append(node)
        i += end + 1
    if chunk:
        parts.append(chunk)
    return parts


def _shift_offsets(node, by: int) -> None:
    """Offsets of an expression parsed alone, made offsets in the enclosing text."""
    if isinstance(node, Expr):
        node.offset += by
        for value in vars(node).values():
            if isinstance(value, list):
                for item in value:
                    _shift_offsets(item, by)
            else:
                _shift_offsets(value, by)


def _build_expr_grammar():
    expr = pp.Forward()
    LPAR, RPAR = map(pp.Suppress, "()")

    def at(cls):
        def action(s, loc, t):
            node = cls(*t)
            node.offset = loc
            return node
        return action

    integer = pp.Regex(r"-?\d+").set_parse_action(lambda s, loc, t: Lit(int(t[0]), offset=loc))
    string = (pp.QuotedString('"', esc_char="\\") | pp.QuotedString("'", esc_char="\\")).set_parse_action(
        lambda s, loc, t: Lit(t[0], offset=loc))
    def format_string(s, loc, t):
        return FStr(_format_parts(s, loc + 1, t[0][1:], expr), offset=loc)
    fstring = pp.Combine(pp.Literal("f") + (pp.QuotedString('"', esc_char="\\", unquote_results=False)
                                            | pp.QuotedString("'", esc_char="\\", unquote_results=False))
                         ).set_parse_action(format_string)
    keyword_lit = (pp.Keyword("true") | pp.Keyword("false") | pp.Keyword("none")).set_parse_action(
        lambda s, loc, t: Lit({"true": True, "false": False, "none": None}[t[0]], offset=loc))
    value_var = pp.Combine("%" + pp.Word(pp.alphanums + "_")).set_parse_action(
        lambda s, loc, t: Var(t[0], offset=loc))
    dollar_var = pp.Combine("$" + IDENT).set_parse_action(lambda s, loc, t: Var(t[0], offset=loc))
    reserved = (pp.Keyword("and") | pp.Keyword("or") | pp.Keyword("not") | pp.Keyword("in")
                | pp.Keyword("if") | pp.Keyword("else"))
    func_name = ~reserved + IDENT
    call = (func_name + LPAR + pp.Group(pp.Opt(pp.DelimitedList(expr))) + RPAR).set_parse_action(
        lambda s, loc, t: Call(t[0], list(t[1]), offset=loc))
    list_lit = (pp.Suppress("[") + pp.Opt(pp.DelimitedList(expr)) + pp.Suppress("]")).set_parse_action(
        lambda s, loc, t: ListExpr(list(t), offset=loc))
    atom = fstring | keyword_lit | integer | string | call | value_var | dollar_var | list_lit | (LPAR + expr + RPAR)

    def fold_attrs(s, loc, t):
        node = t[0]
        for name in t[1:]:
            node = GetAttr(node, name, offset=loc)
        return node

    postfix = (atom + pp.ZeroOrMore(pp.Suppress(".") + IDENT)).set_parse_action(fold_attrs)

    # An operator node's offset is its operator's position. (The `loc` that
    # infix_notation hands its actions is not stable across pyparsing
    # releases, so operators carry their own position.)
    def operator(expression):
        return expression.set_parse_action(lambda s, loc, t: _Operator(t[0], loc))

    def binary(cls):
        def action(s, loc, t):
            tokens = t[0]
            node = tokens[0]
            for i in range(1, len(tokens), 2):
                node = cls(tokens[i].text, node, tokens[i + 1], offset=tokens[i].offset)
            return node
        return action

    def bool_op(name):
        def action(s, loc, t):
            return BoolOp(name, list(t[0][::2]), offset=t[0][1].offset)
        return action

    def not_op(s, loc, t):
        return Not(t[0][1], offset=t[0][0].offset)

    comparison_ops = pp.one_of("== != <= >= < >") | pp.Keyword("in") | pp.Combine(
        pp.Keyword("not") + pp.White() + pp.Keyword("in"), adjacent=False).set_parse_action(lambda: "not in")
    arith = pp.infix_notation(postfix, [
        (operator(pp.one_of("* // %")), 2, pp.OpAssoc.LEFT, binary(Arith)),
        (operator(pp.one_of("+ -")), 2, pp.OpAssoc.LEFT, binary(Arith)),
    ])
    comparison = (arith + pp.Opt(comparison_ops + arith)).set_parse_action(
        lambda s, loc, t: Compare(t[1], t[0], t[2], offset=loc) if len(t) == 3 else t[0])
    logic = pp.infix_notation(comparison, [
        (operator(pp.Keyword("not")), 1, pp.OpAssoc.RIGHT, not_op),
        (operator(pp.Keyword("and")), 2, pp.OpAssoc.LEFT, bool_op("and")),
        (operator(pp.Keyword("or")), 2, pp.OpAssoc.LEFT, bool_op("or")),
    ])
    binding = (pp.Combine("$" + IDENT) + pp.Suppress(":=") + logic).set_parse_action(
        lambda s, loc, t: Bind(t[0], t[1], offset=loc))
    conditional = (logic + pp.Opt(pp.Keyword("if").suppress() + logic + pp.Keyword("else").suppress() + expr)
                   ).set_parse_action(lambda s, loc, t: IfElse(t[0], t[1], t[2], offset=loc) if len(t) == 3 else t[0])
    lam = (pp.Combine("$" + IDENT) + pp.Suppress("=>") + expr).set_parse_action(
        lambda s, loc, t: Lambda(t[0], t[1], offset=loc))
    expr <<= lam | binding | conditional
    return expr


EXPR = _build_expr_grammar()
