"""Hand-written parsers for the two grammars of rule files (patterns, expressions).

The pyparsing grammars in grammar.py define both languages; parsing through
them cost ~15 ms an expression (the `infix_notation` levels re-parse every
operand) and ~2 ms a pattern, plus ~100 ms to import pyparsing and build them:
most of sdy-dsl's start-up. These parsers accept the same languages and build
the same trees, including every `offset` -- which follows pyparsing's rules:
a node made by an element that skips leading whitespace starts after that
whitespace, any other node starts where its parent handed over (comments
below say which is which). They only answer for input they model exactly; on
anything else -- a syntax error, a quoted string with a backslash, non-ASCII
text -- they return None and the grammar parses the text, so error messages
and positions come from grammar.py, unchanged.

Both are ordered-choice (PEG) parsers like pyparsing: every `a | b` commits to
the first alternative that matches, and `[x]` / `x*` back off to before an
incomplete repetition. A change to grammar.py needs the same change here;
tests/test_fast_syntax.py compares the two on the rule files and on random text.
"""
from __future__ import annotations

import string

from . import syntax as S

_WHITESPACE = " \n\t\r"  # pyparsing's default whitespace
_IDENT_START = frozenset(string.ascii_letters + "_")
_IDENT_BODY = frozenset(string.ascii_letters + string.digits + "_")
_KEYWORD_CHARS = _IDENT_BODY | {"$"}  # pyparsing's Keyword.DEFAULT_KEYWORD_CHARS
_DIGITS = frozenset(string.digits)
_RESERVED = ("and", "or", "not", "in", "if", "else")
_KEYWORD_LITERALS = (("true", True), ("false", False), ("none", None))
_COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")  # longest first, as pyparsing's one_of orders them
_SIMPLE_TEXT = frozenset(string.printable) - frozenset("\t\x0b\x0c")


def balanced_attr_end(text: str, loc: int) -> int:
    """Where an attribute literal starting at `loc` ends: the next ',' or
    closing bracket outside brackets and strings (shared with grammar.py)."""
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


class _Unmodelled(Exception):
    """Input whose parse this module does not reproduce; the grammar decides."""


def _modelled_text(text: str) -> str | None:
    """The text as pyparsing parses it (tabs expanded: offsets count them as spaces),
    or None when it holds characters whose handling is not modelled here."""
    text = text.expandtabs()
    return text if _SIMPLE_TEXT.issuperset(text) else None


def parse_expr_fast(text: str) -> S.Expr | None:
    """The tree pyparsing would build for `text`, or None (an error, or input not modelled here)."""
    text = _modelled_text(text)
    if text is None:
        return None
    parser = _ExprParser(text)
    try:
        result = parser.expr(0)
    except (_Unmodelled, RecursionError):
        return None
    if result is None or parser.skip(result[1]) != len(text):
        return None
    return result[0]


def parse_pattern_fast(text: str) -> S.Pattern | None:
    """The pattern pyparsing would build for `text`, or None (an error, or input not modelled here)."""
    text = _modelled_text(text)
    if text is None:
        return None
    parser = _PatternParser(text)
    try:
        lines, end = parser.lines(0)
    except (_Unmodelled, RecursionError):
        return None
    if not lines or parser.skip(end) != len(text):
        return None
    return S.Pattern(lines)


class _Scanner:
    def __init__(self, text: str):
        self.s = text
        self.n = len(text)

    # ---------------------------------------------------------------- tokens

    def skip(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n and s[i] in _WHITESPACE:
            i += 1
        return i

    def keyword(self, i: int, word: str) -> int:
        """End of keyword `word` at exactly `i`, or -1 (pyparsing's Keyword: no keyword character either side)."""
        s = self.s
        if not s.startswith(word, i):
            return -1
        end = i + len(word)
        if i > 0 and s[i - 1] in _KEYWORD_CHARS:
            return -1
        if end < self.n and s[end] in _KEYWORD_CHARS:
            return -1
        return end

    def ident(self, i: int) -> int:
        """End of an identifier at exactly `i`, or -1."""
        s, n = self.s, self.n
        if i >= n or s[i] not in _IDENT_START:
            return -1
        i += 1
        while i < n and s[i] in _IDENT_BODY:
            i += 1
        return i

    def char(self, i: int, c: str) -> bool:
        return i < self.n and self.s[i] == c

    def dollar_name(self, i: int) -> int:
        """End of `$ident` at exactly `i`, or -1."""
        return self.ident(i + 1) if self.char(i, "$") else -1

    def value_name(self, i: int) -> int:
        """End of `%name` (letters, digits, '_') at exactly `i`, or -1."""
        s, n = self.s, self.n
        if not self.char(i, "%"):
            return -1
        end = i + 1
        while end < n and s[end] in _IDENT_BODY:
            end += 1
        return end if end > i + 1 else -1

    def quoted(self, start: int) -> int:
        """End of a quoted string (no newline inside) at exactly `start`, or -1."""
        s, quote = self.s, self.s[start]
        i = start + 1
        while i < self.n:
            c = s[i]
            if c == quote:
                return i + 1
            if c == "\\":
                raise _Unmodelled("escape sequences")  # pyparsing unquotes them
            if c in "\n\r":
                return -1
            i += 1
        return -1


class _ExprParser(_Scanner):
    def __init__(self, text: str):
        super().__init__(text)
        self.memo: dict = {}

    # ---------------------------------------------------------------- expressions
    # Each method takes the position its parent hands over (before whitespace)
    # and returns (node, end) or None.

    def expr(self, loc: int):
        key = ("expr", loc)
        if key not in self.memo:
            self.memo[key] = self.lambda_(loc) or self.binding(loc) or self.conditional(loc)
        return self.memo[key]

    def lambda_(self, loc: int):
        start = self.skip(loc)  # starts at its `$name`
        name_end = self.dollar_name(start)
        if name_end < 0:
            return None
        arrow = self.skip(name_end)
        if not self.s.startswith("=>", arrow):
            return None
        body = self.expr(arrow + 2)
        if body is None:
            return None
        return S.Lambda(self.s[start:name_end], body[0], offset=start), body[1]

    def binding(self, loc: int):
        start = self.skip(loc)
        name_end = self.dollar_name(start)
        if name_end < 0:
            return None
        op = self.skip(name_end)
        if not self.s.startswith(":=", op):
            return None
        value = self.logic(op + 2)
        if value is None:
            return None
        return S.Bind(self.s[start:name_end], value[0], offset=start), value[1]

    def conditional(self, loc: int):
        then = self.logic(loc)
        if then is None:
            return None
        if_end = self.keyword(self.skip(then[1]), "if")
        if if_end >= 0:
            cond = self.logic(if_end)
            if cond is not None:
                else_end = self.keyword(self.skip(cond[1]), "else")
                if else_end >= 0:
                    otherwise = self.expr(else_end)
                    if otherwise is not None:
                        # Starts where handed over (the grammar's `conditional` does not skip).
                        return S.IfElse(then[0], cond[0], otherwise[0], offset=loc), otherwise[1]
        return then

    def logic(self, loc: int):
        key = ("logic", loc)
        if key not in self.memo:
            self.memo[key] = self.bool_chain(loc, "or", self.and_chain)
        return self.memo[key]

    def and_chain(self, loc: int):
        return self.bool_chain(loc, "and", self.not_level)

    def bool_chain(self, loc: int, op: str, operand):
        first = operand(loc)
        if first is None:
            return None
        operands, end, first_op = [first[0]], first[1], None
        while True:
            op_start = self.skip(end)
            op_end = self.keyword(op_start, op)
            if op_end < 0:
                break
            nxt = operand(op_end)
            if nxt is None:
                break
            operands.append(nxt[0])
            end = nxt[1]
            if first_op is None:
                first_op = op_start
        if len(operands) == 1:
            return first
        return S.BoolOp(op, operands, offset=first_op), end  # at its first operator

    def not_level(self, loc: int):
        start = self.skip(loc)
        not_end = self.keyword(start, "not")
        if not_end >= 0:
            operand = self.not_level(not_end)
            if operand is not None:
                return S.Not(operand[0], offset=start), operand[1]  # at its `not`
        found = self.comparison(loc)
        if found is not None:
            return found
        return self.parenthesized(loc, self.logic)  # infix_notation's own `( ... )`

    def parenthesized(self, loc: int, inner):
        start = self.skip(loc)
        if not self.char(start, "("):
            return None
        found = inner(start + 1)
        if found is None:
            return None
        close = self.skip(found[1])
        if not self.char(close, ")"):
            return None
        return found[0], close + 1

    def comparison(self, loc: int):
        left = self.arith(loc)
        if left is None:
            return None
        op, op_end = self.comparison_op(self.skip(left[1]))
        if op is not None:
            right = self.arith(op_end)
            if right is not None:
                return S.Compare(op, left[0], right[0], offset=loc), right[1]
        return left

    def comparison_op(self, i: int):
        s = self.s
        for op in _COMPARISONS:
            if s.startswith(op, i):
                return op, i + len(op)
        end = self.keyword(i, "in")
        if end >= 0:
            return "in", end
        end = self.keyword(i, "not")
        if end >= 0:
            gap = self.skip(end)  # pp.White(): at least one of the same whitespace characters
            if gap > end:
                in_end = self.keyword(gap, "in")
                if in_end >= 0:
                    return "not in", in_end
        return None, i

    def arith(self, loc: int):
        key = ("arith", loc)
        if key not in self.memo:
            self.memo[key] = self.arith_chain(loc, self.add_op, self.product)
        return self.memo[key]

    def product(self, loc: int):
        return self.arith_chain(loc, self.mul_op, self.operand)

    def add_op(self, i: int) -> str | None:
        return self.s[i] if i < self.n and self.s[i] in "+-" else None

    def mul_op(self, i: int) -> str | None:
        s = self.s
        if s.startswith("//", i):
            return "//"
        return s[i] if i < self.n and s[i] in "*%" else None

    def arith_chain(self, loc: int, op_at, operand):
        found = operand(loc)
        if found is None:
            return None
        node, end = found
        while True:
            op_start = self.skip(end)
            op = op_at(op_start)
            if op is None:
                break
            right = operand(op_start + len(op))
            if right is None:
                break
            node = S.Arith(op, node, right[0], offset=op_start)  # at its operator
            end = right[1]
        return node, end

    def operand(self, loc: int):
        found = self.postfix(loc)
        if found is not None:
            return found
        return self.parenthesized(loc, self.arith)  # infix_notation's own `( ... )`

    def postfix(self, loc: int):
        found = self.atom(loc)
        if found is None:
            return None
        node, end = found
        while True:
            dot = self.skip(end)
            if not self.char(dot, "."):
                break
            name_start = self.skip(dot + 1)
            name_end = self.ident(name_start)
            if name_end < 0:
                break
            node = S.GetAttr(node, self.s[name_start:name_end], offset=loc)
            end = name_end
        return node, end

    def atom(self, loc: int):
        s = self.s
        # Integers, variables and lists start after whitespace; keyword literals,
        # strings and calls where handed over (their elements do not pre-skip).
        start = self.skip(loc)
        if start >= self.n:
            return None
        for word, value in _KEYWORD_LITERALS:
            end = self.keyword(start, word)
            if end >= 0:
                return S.Lit(value, offset=loc), end
        c = s[start]
        if c in _DIGITS or (c == "-" and start + 1 < self.n and s[start + 1] in _DIGITS):
            end = start + 1
            while end < self.n and s[end] in _DIGITS:
                end += 1
            return S.Lit(int(s[start:end]), offset=start), end
        if c in "\"'":
            end = self.quoted(start)
            if end >= 0:
                return S.Lit(s[start + 1:end - 1], offset=loc), end
        found = self.call(loc, start)
        if found is not None:
            return found
        end = self.value_name(start) if c == "%" else self.dollar_name(start) if c == "$" else -1
        if end >= 0:
            return S.Var(s[start:end], offset=start), end
        if c == "[":
            items = self.delimited(start + 1)
            close = self.skip(items[1])
            if self.char(close, "]"):
                return S.ListExpr(items[0], offset=start), close + 1
        if c == "(":
            inner = self.expr(start + 1)
            if inner is not None:
                close = self.skip(inner[1])
                if self.char(close, ")"):
                    return inner[0], close + 1
        return None

    def call(self, loc: int, start: int):
        for word in _RESERVED:
            if self.keyword(start, word) >= 0:
                return None
        name_end = self.ident(start)
        if name_end < 0:
            return None
        open_paren = self.skip(name_end)
        if not self.char(open_paren, "("):
            return None
        args, end = self.delimited(open_paren + 1)
        close = self.skip(end)
        if not self.char(close, ")"):
            return None
        # A call starts where handed over: its first element (`~reserved`) does not skip whitespace.
        return S.Call(self.s[start:name_end], args, offset=loc), close + 1

    def delimited(self, loc: int):
        """`[expr ("," expr)*]`: the first item is handed the position after whitespace, later ones the
        position right after their comma. Returns (items, end)."""
        first_start = self.skip(loc)
        first = self.expr(first_start)
        if first is None:
            return [], first_start
        items, end = [first[0]], first[1]
        while True:
            comma = self.skip(end)
            if not self.char(comma, ","):
                break
            nxt = self.expr(comma + 1)
            if nxt is None:
                break
            items.append(nxt[0])
            end = nxt[1]
        return items, end


class _PatternParser(_Scanner):
    """Every element of the pattern grammar skips whitespace before it, except
    inside names (`%x`, `$x`, `a.b`); a line's offset is its first token."""

    def lines(self, loc: int):
        """`(line [";"])*`: the lines and the end of the last one."""
        lines, end = [], loc
        while True:
            found = self.line(end)
            if found is None:
                return lines, end
            lines.append(found[0])
            end = found[1]
            semicolon = self.skip(end)
            if self.char(semicolon, ";"):
                end = semicolon + 1

    def line(self, loc: int):
        start = self.skip(loc)
        label, results, pos = None, None, start
        label_end = self.dollar_name(start)
        equals = self.skip(label_end) if label_end >= 0 else -1
        if label_end >= 0 and self.char(equals, "="):
            label, pos = self.s[start + 1:label_end], equals + 1
        else:
            found = self.delimited(start, self.value_var)
            if found[0]:
                equals = self.skip(found[1])
                if self.char(equals, "="):
                    results, pos = found[0], equals + 1
        names = self.op_names(pos)
        if names is None:
            return None
        names, pos = names
        operands = self.bracketed(pos, "(", ")", self.operand)
        if operands is not None:
            operands, pos = operands
        attrs = self.bracketed(pos, "{", "}", self.attr_entry)
        if attrs is not None:
            attrs, pos = attrs
        regions = self.bracketed(pos, "(", ")", self.region)
        if regions is not None:
            if not regions[0]:
                regions = None  # a region list has at least one region
            else:
                regions, pos = regions
        return S.OpPattern(names=tuple(names), label=label, results=results or [], operands=operands,
                           attrs=attrs or [], regions=regions, offset=start), pos

    def delimited(self, loc: int, item):
        """`item ("," item)*`, possibly empty: (items, end)."""
        found = item(loc)
        if found is None:
            return [], loc
        items, end = [found[0]], found[1]
        while True:
            comma = self.skip(end)
            if not self.char(comma, ","):
                return items, end
            found = item(comma + 1)
            if found is None:
                return items, end
            items.append(found[0])
            end = found[1]

    def bracketed(self, loc: int, open_char: str, close_char: str, item):
        """`open [item ("," item)*] close`: (items, end), or None."""
        start = self.skip(loc)
        if not self.char(start, open_char):
            return None
        items, end = self.delimited(start + 1, item)
        close = self.skip(end)
        if not self.char(close, close_char):
            return None
        return items, close + 1

    def dotted(self, i: int) -> int:
        """End of `ident(.ident)*` at exactly `i` (no whitespace inside), or -1."""
        end = self.ident(i)
        if end < 0:
            return -1
        while self.char(end, "."):
            nxt = self.ident(end + 1)
            if nxt < 0:
                break
            end = nxt
        return end

    def op_names(self, loc: int):
        start = self.skip(loc)
        end = self.dotted(start)
        if end < 0:
            return (["*"], start + 1) if self.char(start, "*") else None
        names = [self.s[start:end]]
        while True:
            bar = self.skip(end)
            if not self.char(bar, "|"):
                return names, end
            name_start = self.skip(bar + 1)
            name_end = self.dotted(name_start)
            if name_end < 0:
                return names, end
            names.append(self.s[name_start:name_end])
            end = name_end

    def value_var(self, loc: int):
        start = self.skip(loc)
        end = self.value_name(start)
        if end < 0:
            return None
        star = self.skip(end)
        if self.char(star, "*"):
            return S.ValueVar(self.s[start + 1:end], True), star + 1
        return S.ValueVar(self.s[start + 1:end], False), end

    def operand(self, loc: int):
        found = self.value_var(loc)
        if found is not None:
            return found
        start = self.skip(loc)
        if self.char(start, "_"):
            return S.ValueVar("_"), start + 1
        if self.char(start, "*"):
            return S.ValueVar("_", True), start + 1
        return None

    def attr_name(self, loc: int):
        start = self.skip(loc)
        end = self.dotted(start)
        if end >= 0:
            return self.s[start:end], end
        if self.char(start, '"'):
            end = self.quoted(start)
            if end >= 0:
                return self.s[start + 1:end - 1], end
        return None

    def attr_entry(self, loc: int):
        s = self.s
        start = self.skip(loc)
        if s.startswith("...", start):
            return S.AttrEntry("...", "rest"), start + 3
        if self.char(start, "!"):
            name = self.attr_name(start + 1)
            if name is not None:
                return S.AttrEntry(name[0], "absent"), name[1]
        name = self.attr_name(start)
        if name is None:
            return None
        name, name_end = name
        equals = self.skip(name_end)
        if self.char(equals, "="):
            value = self.skip(equals + 1)
            var_end = self.dollar_name(value)
            if var_end >= 0:
                mark = self.skip(var_end)
                if self.char(mark, "?"):
                    return S.AttrEntry(name, "bind", var=s[value + 1:var_end], optional=True), mark + 1
                return S.AttrEntry(name, "bind", var=s[value + 1:var_end], optional=False), var_end
            if self.char(value, "_"):
                return S.AttrEntry(name, "present"), value + 1
            literal = self.attr_literal(value)
            if literal is not None:
                return S.AttrEntry(name, "literal", literal=literal[0]), literal[1]
        return S.AttrEntry(name, "present"), name_end

    def attr_literal(self, loc: int):
        """grammar.BalancedAttr: up to the next ',' or closing bracket at depth 0."""
        end = balanced_attr_end(self.s, loc)
        text = self.s[loc:end].strip()
        return (text, end) if text else None

    def region(self, loc: int):
        start = self.skip(loc)
        name_end = self.dollar_name(start)
        if name_end >= 0:
            colon = self.skip(name_end)
            if self.char(colon, ":"):
                block = self.block(colon + 1)
                if block is not None:
                    return S.RegionPattern(self.s[start + 1:name_end], block[0]), block[1]
            return S.RegionPattern(self.s[start + 1:name_end], None), name_end
        block = self.block(start)
        if block is None:
            return None
        return S.RegionPattern(None, block[0]), block[1]

    def block(self, loc: int):
        start = self.skip(loc)
        if not self.char(start, "{"):
            return None
        args, pos = self.block_args(start + 1)
        lines, end = self.lines(pos)
        close = self.skip(end)
        if not self.char(close, "}"):
            return None
        return S.BlockPattern(args, lines), close + 1

    def block_args(self, loc: int):
        """`[^ [ident] ( [value_var ("," value_var)*] ) :]`: (args, end)."""
        caret = self.skip(loc)
        if not self.char(caret, "^"):
            return [], loc
        pos = caret + 1
        name_start = self.skip(pos)
        name_end = self.ident(name_start)
        if name_end >= 0:
            pos = name_end
        args = self.bracketed(pos, "(", ")", self.value_var)
        if args is None:
            return [], loc
        colon = self.skip(args[1])
        if not self.char(colon, ":"):
            return [], loc
        return args[0], colon + 1
