"""Compiles `where:` constraints and actions into Python closures.

Each expression compiles once, at load time, into `fn(env) -> value` where
`env` is the rule application's `Env` (bindings + the rewrite context). Names
are resolved at load time: an unknown function, a wrong number of arguments or
an unbound metavariable is a rule-file error at the expression's position.
"""
from __future__ import annotations

import inspect
import operator
from dataclasses import dataclass
from typing import Callable

from jaxlib.mlir import ir

from ..hooks import parameters
from ..runtime.sharding import TensorSharding, codec
from . import syntax as S


@dataclass
class Function:
    name: str
    fn: Callable
    wants_ctx: bool
    min_args: int
    max_args: int | None
    is_action: bool = False
    # Pure: no effect, and the result depends only on the arguments, the pass
    # options and the module's meshes (so equal arguments give equal results
    # while the meshes stay as they are).
    pure: bool = False
    # For a predicate on an op: the op names it can hold for, from the run's
    # op registry (None: any). A `*` rule whose first constraint is such a
    # predicate on the root is tried on those ops only.
    root_names: Callable | None = None
    # For an action on an op: it changes only the op's attributes, and nothing
    # on an op that has none.
    only_on_attributes: bool = False
    # For an action on an op: it changes only the op's attributes.
    changes_only_first_op: bool = False
    # For such an action: the same given the op's attribute map too,
    # `on_attributes(ctx, op, attrs, *args)` (for a caller that holds the map).
    on_attributes: Callable | None = None

    @staticmethod
    def of(name: str, fn: Callable, is_action: bool = False, pure: bool = False,
           root_names: Callable | None = None, only_on_attributes: bool = False,
           changes_only_first_op: bool = False, on_attributes: Callable | None = None) -> "Function":
        params = parameters(fn)
        wants_ctx = bool(params) and params[0][0] == "ctx"
        if wants_ctx:
            params = params[1:]
        lo, hi = 0, 0
        for _, kind, has_default in params:
            if kind is inspect.Parameter.VAR_POSITIONAL:
                hi = None
            elif kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
                hi = hi + 1 if hi is not None else None
                lo += not has_default
        return Function(name, fn, wants_ctx, lo, hi, is_action, pure, root_names, only_on_attributes,
                        changes_only_first_op or only_on_attributes, on_attributes)

    def signature_text(self) -> str:
        sig = inspect.signature(self.fn)

        def annotation(a) -> str:  # string annotations (PEP 563) print unquoted
            return a if isinstance(a, str) else inspect.formatannotation(a)

        params = []
        for p in sig.parameters.values():
            if p.name == "ctx":
                continue
            text = ("*" if p.kind is p.VAR_POSITIONAL else "") + p.name
            if p.annotation is not p.empty:
                text += f": {annotation(p.annotation)}"
            if p.default is not p.empty:
                text += f" = {p.default!r}"
            params.append(text)
        ret = "" if sig.return_annotation is sig.empty else f" -> {annotation(sig.return_annotation)}"
        return f"{self.name}({', '.join(params)}){ret}"


class Env:
    """Bindings of one rule application, plus the rewrite context."""

    __slots__ = ("vars", "ctx", "compared")

    def __init__(self, ctx, bindings: dict):
        self.ctx, self.vars = ctx, bindings
        self.compared = None  # the two values the last comparison saw (--explain shows them)


def _comparable(a, b):
    """A decoded sharding compares with a sharding attribute (`sharding(%x) == $s`)
    by decoding the attribute: an attribute never equals a decoded value."""
    if isinstance(a, TensorSharding) and isinstance(b, ir.Attribute):
        return a, _decoded(b)
    if isinstance(b, TensorSharding) and isinstance(a, ir.Attribute):
        return _decoded(a), b
    return a, b


def _decoded(attribute: ir.Attribute):
    try:
        return codec.tensor_sharding(attribute)
    except Exception:
        raise ValueError(f"cannot compare a sharding with the attribute {attribute}") from None


class CompileError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset, self.message = offset, message


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge,
            "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
          "%": operator.mod}


class ExprCompiler:
    """Compiles expressions against a function table and a set of bound names."""

    def __init__(self, functions: dict[str, Function]):
        self.functions = functions

    def compile(self, node: S.Expr, bound: set[str], allow_actions: bool = False) -> Callable:
        """`bound` is updated with names that `:=` binds."""
        method = getattr(self, "_" + type(node).__name__)
        try:
            return method(node, bound, allow_actions)
        except RecursionError:
            raise CompileError(getattr(node, "offset", 0), "expression nested too deeply") from None

    def _Lit(self, node, bound, allow_actions):
        value = node.value
        return lambda env: value

    def _Var(self, node, bound, allow_actions):
        name = node.name
        if name not in bound:
            raise CompileError(node.offset, f"unbound metavariable '{name}'")

        def lookup(env):
            value = env.vars[name]
            # An op erased (or replaced) by an earlier action of the same
            # rewrite, or a value of one, is a dangling handle: touching it
            # would crash MLIR.
            if env.ctx.dead_ops:
                env.ctx.check_binding(name, value)
            return value
        return lookup

    def _FStr(self, node, bound, allow_actions):
        parts = [part if isinstance(part, str) else self.compile(part, bound, allow_actions)
                 for part in node.parts]
        return lambda env: "".join(part if isinstance(part, str) else shown(part(env)) for part in parts)

    def _ListExpr(self, node, bound, allow_actions):
        items = [self.compile(i, bound, allow_actions) for i in node.items]
        return lambda env: [f(env) for f in items]

    def _GetAttr(self, node, bound, allow_actions):
        if node.name.startswith("_"):
            raise CompileError(node.offset, f"cannot access private field '{node.name}'")
        target, name = self.compile(node.target, bound, allow_actions), node.name

        def get(env):
            value = target(env)
            try:
                return getattr(value, name)
            except AttributeError:
                raise EvalError(f"{type(value).__name__} has no field '{name}'") from None
        return get

    def _Not(self, node, bound, allow_actions):
        inner = self.compile(node.operand, bound, allow_actions)
        return lambda env: not inner(env)

    def _BoolOp(self, node, bound, allow_actions):
        parts = [self.compile(p, bound, allow_actions) for p in node.operands]
        if node.op == "and":
            def all_of(env):
                result = True
                for p in parts:
                    result = p(env)
                    if not result:
                        return result
                return result
            return all_of

        def any_of(env):
            result = False
            for p in parts:
                result = p(env)
                if result:
                    return result
            return result
        return any_of

    def _Compare(self, node, bound, allow_actions):
        left = self.compile(node.left, bound, allow_actions)
        right = self.compile(node.right, bound, allow_actions)
        op = _COMPARE[node.op]
        if node.op in ("==", "!="):
            # MLIR attributes refuse comparison with None: compare absence by identity.
            want_equal = node.op == "=="

            def equality(env):
                a, b = _comparable(left(env), right(env))
                env.compared = (a, b)
                if a is None or b is None:
                    return (a is b) == want_equal
                return op(a, b)
            return equality

        def compare(env):
            a, b = left(env), right(env)
            env.compared = (a, b)
            return op(a, b)
        return compare

    def _Arith(self, node, bound, allow_actions):
        left = self.compile(node.left, bound, allow_actions)
        right = self.compile(node.right, bound, allow_actions)
        op = _ARITH[node.op]
        return lambda env: op(left(env), right(env))

    def _IfElse(self, node, bound, allow_actions):
        cond = self.compile(node.cond, bound, allow_actions)
        then = self.compile(node.then, bound, allow_actions)
        otherwise = self.compile(node.otherwise, bound, allow_actions)
        return lambda env: then(env) if cond(env) else otherwise(env)

    def _Bind(self, node, bound, allow_actions):
        value = self.compile(node.value, bound, allow_actions)
        name = node.name
        bound.add(name)

        def bind(env):
            v = value(env)
            env.vars[name] = v
            # A binding holds when it produced something (PDLL-style "let").
            return v is not None and v is not False
        return bind

    def _Lambda(self, node, bound, allow_actions):
        param = node.param
        body = self.compile(node.body, bound | {param}, allow_actions)
        free, pure = self.info(node.body)
        # A pure lambda of its parameter alone gives equal results for equal
        # arguments: it carries a memo (`call.memo`, one per stage run, see
        # RewriteContext.memo) that callers such as for_each_sharding may use.
        memo_key = object() if pure and free <= {param} else None

        def make(env):
            def call(arg):
                saved = env.vars.get(param, _MISSING)
                env.vars[param] = arg
                try:
                    return body(env)
                finally:
                    if saved is _MISSING:
                        env.vars.pop(param, None)
                    else:
                        env.vars[param] = saved
            if memo_key is not None:
                call.memo = env.ctx.memo(memo_key)
            return call
        return make

    def info(self, node: S.Expr) -> tuple[frozenset, bool]:
        """(free metavariables, pure) of an expression: pure when it has no
        effect and its value depends only on its free metavariables, the
        options and the module's meshes (see Function.pure)."""
        if isinstance(node, S.Lit):
            return frozenset(), True
        if isinstance(node, S.Var):
            return frozenset((node.name,)), True
        if isinstance(node, S.Lambda):
            free, pure = self.info(node.body)
            return free - {node.param}, pure
        if isinstance(node, S.Call):
            fn = self.functions.get(node.func)
            parts = [self.info(a) for a in node.args]
            pure = fn is not None and fn.pure and all(p for _, p in parts)
            return frozenset().union(*(f for f, _ in parts)), pure
        if isinstance(node, S.Bind):
            free, _ = self.info(node.value)
            return free, False  # it binds a name: an effect on the rule application
        children = {S.ListExpr: lambda n: n.items,
                    S.FStr: lambda n: [p for p in n.parts if not isinstance(p, str)], S.GetAttr: lambda n: [n.target],
                    S.Not: lambda n: [n.operand], S.BoolOp: lambda n: n.operands,
                    S.Compare: lambda n: [n.left, n.right], S.Arith: lambda n: [n.left, n.right],
                    S.IfElse: lambda n: [n.cond, n.then, n.otherwise]}[type(node)](node)
        parts = [self.info(c) for c in children]
        return frozenset().union(*(f for f, _ in parts)), all(p for _, p in parts)

    def _Call(self, node, bound, allow_actions):
        fn = self.functions.get(node.func)
        if fn is None:
            raise CompileError(node.offset, f"unknown function '{node.func}'")
        if fn.is_action and not allow_actions:
            raise CompileError(node.offset, f"'{node.func}' changes the IR; it belongs in 'rewrite:', not 'where:'")
        n = len(node.args)
        if n < fn.min_args or (fn.max_args is not None and n > fn.max_args):
            expected = (str(fn.min_args) if fn.max_args == fn.min_args
                        else f"{fn.min_args} to {fn.max_args}" if fn.max_args is not None
                        else f"at least {fn.min_args}")
            raise CompileError(node.offset, f"'{node.func}' takes {expected} argument(s), got {n}; "
                                            f"signature: {fn.signature_text()}")
        args = [self.compile(a, bound, allow_actions) for a in node.args]
        impl, name = fn.fn, fn.name
        if fn.wants_ctx:
            if len(args) == 1:
                a0 = args[0]
                return lambda env: impl(env.ctx, a0(env))
            if len(args) == 2:
                a0, a1 = args
                return lambda env: impl(env.ctx, a0(env), a1(env))

            def call_with_ctx(env):
                return impl(env.ctx, *[a(env) for a in args])
            return call_with_ctx
        if len(args) == 1:
            a0 = args[0]
            return lambda env: impl(a0(env))
        return lambda env: impl(*[a(env) for a in args])


def shown(value) -> str:
    """A value as an f-string shows it: a tensor value by its SSA name (`%arg0`,
    `%3`), an op by its name, a sharding as MLIR prints it, a list item by item."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, ir.Value):
        return value.get_name()
    if isinstance(value, (ir.Operation, ir.OpView)):
        return value.operation.name if isinstance(value, ir.OpView) else value.name
    if isinstance(value, TensorSharding):
        return value.text()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    return str(value)


class EvalError(Exception):
    """A failure while evaluating an expression on a concrete op."""


_MISSING = object()
