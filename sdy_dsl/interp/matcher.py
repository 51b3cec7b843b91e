"""Compiles a pattern (syntax.Pattern) into a matcher: `match(op) -> bindings | None`.

Matching only reads the IR. Bindings use the metavariables' own spelling:
`%x` -> ir.Value (or a list for `%xs*`), `$s` -> ir.Attribute (or None for an
absent optional one), `$label` -> ir.Operation, `$region` -> ir.Region;
`$root` is always the matched root op.
"""
from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir

from . import syntax as S


class PatternError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset, self.message = offset, message


def as_operation(x) -> ir.Operation:
    return x.operation if hasattr(x, "operation") else x


def defining_op(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    return as_operation(owner)


Matcher = Callable[[ir.Operation, dict], bool]


class PatternCompiler:
    """Compiles the lines of a pattern into nested matcher closures."""

    def __init__(self, pattern: S.Pattern):
        self.pattern = pattern
        self.bound: set[str] = {"$root"}
        self._top_root: S.OpPattern | None = None

    def compile(self) -> Callable[[ir.Operation], dict | None]:
        """The matcher of the root. The driver tries a rule only on ops its
        root names, so the root's name is not checked again."""
        lines = self.pattern.lines
        self._top_root = lines[-1]
        root_matcher = self._compile_scope(lines, is_top=True)
        root = lines[-1]
        if (len(lines) == 1 and root.label and not root.results and root.operands is None
                and not root.attrs and root.regions is None):
            # `$op = NAME` or `$op = *`: every op tried matches; bind it.
            label = "$" + root.label
            return lambda op: {"$root": op, label: op}

        def match(op: ir.Operation) -> dict | None:
            bindings = {"$root": op}
            return bindings if root_matcher(op, bindings) else None
        return match

    # A scope is a top-level pattern or a region's block: its last line is the
    # root (or the terminator); the other lines produce the root's operands.
    def _compile_scope(self, lines: list[S.OpPattern], is_top: bool) -> Matcher:
        producers: dict[str, S.OpPattern] = {}
        for line in lines[:-1]:
            if not line.results:
                raise PatternError(line.offset, "only the last line of a pattern may have no results: "
                                                "earlier lines describe producers of its operands")
            for r in line.results:
                if r.name != "_":
                    producers[r.name] = line
        used: set[int] = set()
        matcher = self._compile_line(lines[-1], producers, used)
        for line in lines[:-1]:
            if id(line) not in used:
                raise PatternError(line.offset, "this line is not connected to the root: "
                                                "none of its results is an operand of a later line")
        return matcher

    def _compile_line(self, line: S.OpPattern, producers: dict, used: set) -> Matcher:
        used.add(id(line))
        checks: list[Callable[[ir.Operation, dict], bool]] = []
        if not line.is_any_op and line is not self._top_root:
            names = frozenset(line.names)
            if len(names) == 1:
                (only,) = names
                checks.append(lambda op, b: op.name == only)
            else:
                checks.append(lambda op, b: op.name in names)
        if line.label:
            key = "$" + line.label
            self._declare(key, line)
            checks.append(_binder(key, lambda op: op))
        checks.extend(self._compile_results(line))
        if line.operands is not None:
            checks.extend(self._compile_operands(line, producers, used))
        for entry in line.attrs:
            checks.append(self._compile_attr(entry, line))
        if line.regions is not None:
            checks.extend(self._compile_regions(line))

        def match_line(op, bindings):
            for check in checks:
                if not check(op, bindings):
                    return False
            return True
        return match_line

    def _declare(self, key: str, line: S.OpPattern):
        if key in self.bound:
            raise PatternError(line.offset, f"metavariable '{key}' is bound twice")
        self.bound.add(key)

    def _compile_results(self, line):
        results = line.results
        if not results:
            return []
        variadic = [i for i, r in enumerate(results) if r.variadic]
        if variadic and variadic != [len(results) - 1]:
            raise PatternError(line.offset, "only the last result may be variadic ('%xs*')")
        fixed = len(results) - bool(variadic)
        checks = []
        if variadic:
            checks.append(lambda op, b: len(op.results) >= fixed)
        else:
            checks.append(lambda op, b: len(op.results) == fixed)
        for i, r in enumerate(results):
            if r.name == "_":
                continue
            key = "%" + r.name
            self._declare(key, line)
            if r.variadic:
                checks.append(_binder(key, lambda op, i=i: list(op.results)[i:]))
            else:
                checks.append(_bind_or_check(key, lambda op, i=i: op.results[i]))
        return checks

    def _compile_operands(self, line, producers, used):
        operands = line.operands
        variadic = [i for i, o in enumerate(operands) if o.variadic]
        if len(variadic) > 1 or (variadic and variadic[0] != len(operands) - 1):
            raise PatternError(line.offset, "only the last operand may be variadic ('%xs*' or '*')")
        fixed = len(operands) - bool(variadic)
        checks = []
        if variadic:
            checks.append(lambda op, b: len(op.operands) >= fixed)
        else:
            checks.append(lambda op, b: len(op.operands) == fixed)
        for i, o in enumerate(operands):
            if o.name == "_":
                continue
            key = "%" + o.name
            if o.variadic:
                self._declare(key, line)
                checks.append(_binder(key, lambda op, i=i: list(op.operands)[i:]))
                continue
            producer = producers.get(o.name)
            if producer is not None and id(producer) not in used:
                sub = self._compile_line(producer, producers, used)
                checks.append(_producer_check(i, sub, key))
            elif key not in self.bound:
                self._declare(key, line)
                checks.append(_bind_or_check(key, lambda op, i=i: op.operands[i]))
            else:
                checks.append(_bind_or_check(key, lambda op, i=i: op.operands[i]))
        return checks

    def _compile_attr(self, entry: S.AttrEntry, line):
        name = entry.name
        if entry.kind == "rest":
            return lambda op, b: True  # other attributes never stop a match
        if entry.kind == "absent":
            return lambda op, b: name not in op.attributes
        if entry.kind == "present":
            return lambda op, b: name in op.attributes
        if entry.kind == "bind":
            key = "$" + entry.var
            self._declare(key, line)
            optional = entry.optional

            def bind_attr(op, b):
                attrs = op.attributes
                if name in attrs:
                    b[key] = attrs[name]
                    return True
                if optional:
                    b[key] = None
                    return True
                return False
            return bind_attr
        literal = entry.literal
        parsed: dict = {}

        def equals_literal(op, b):
            attrs = op.attributes
            if name not in attrs:
                return False
            ctx = op.context
            want = parsed.get(id(ctx))
            if want is None:
                want = parsed[id(ctx)] = ir.Attribute.parse(literal, ctx)
            return attrs[name] == want
        return equals_literal

    def _compile_regions(self, line):
        regions = line.regions
        count = len(regions)
        checks = [lambda op, b: len(op.regions) == count]
        for i, region in enumerate(regions):
            if region.var:
                key = "$" + region.var
                self._declare(key, line)
                checks.append(_binder(key, lambda op, i=i: op.regions[i]))
            if region.block is not None:
                checks.append(self._compile_block(i, region.block, line))
        return checks

    def _compile_block(self, index: int, block: S.BlockPattern, line):
        arg_checks = []
        variadic = [i for i, a in enumerate(block.args) if a.variadic]
        if variadic and variadic != [len(block.args) - 1]:
            raise PatternError(line.offset, "only the last block argument may be variadic")
        fixed = len(block.args) - bool(variadic)
        for i, a in enumerate(block.args):
            if a.name == "_":
                continue
            key = "%" + a.name
            self._declare(key, line)
            if a.variadic:
                arg_checks.append((key, lambda blk, i=i: list(blk.arguments)[i:]))
            else:
                arg_checks.append((key, lambda blk, i=i: blk.arguments[i]))
        terminator = self._compile_scope(block.lines, is_top=False) if block.lines else None
        has_args = bool(block.args)

        def match_block(op, b):
            region = op.regions[index]
            blocks = list(region.blocks)
            if not blocks:
                return not has_args and terminator is None
            blk = blocks[0]
            nargs = len(blk.arguments)
            if has_args and (nargs < fixed if variadic else nargs != fixed):
                return False
            for key, get in arg_checks:
                b[key] = get(blk)
            if terminator is not None:
                ops = blk.operations
                if len(ops) == 0:
                    return False
                return terminator(as_operation(ops[len(ops) - 1]), b)
            return True
        return match_block


def _binder(key, get):
    def bind(op, b):
        b[key] = get(op)
        return True
    return bind


def _bind_or_check(key, get):
    def bind_or_check(op, b):
        value = get(op)
        if key in b:
            return b[key] == value
        b[key] = value
        return True
    return bind_or_check


def _producer_check(index, sub_matcher, key):
    def check(op, b):
        value = op.operands[index]
        producer = defining_op(value)
        if producer is None or not sub_matcher(producer, b):
            return False
        return b[key] == value  # the operand is that result of the producer
    return check


def compile_pattern(pattern: S.Pattern) -> tuple[Callable[[ir.Operation], dict | None], set[str]]:
    """The matcher and the set of metavariables it binds."""
    compiler = PatternCompiler(pattern)
    try:
        return compiler.compile(), compiler.bound
    except RecursionError:
        raise PatternError(0, "pattern nested too deeply") from None
