"""Attribute kernels: the fast form of a rule that only edits its root's attributes.

A rule such as

    match: "$op = * {sdy.sharding_rule = $rule}"
    where: not is_custom_rule($rule)
    rewrite: [remove_attr($op, "sdy.sharding_rule")]

reads nothing but some attributes of its root, and its constraints and the
arguments of its actions (but the root) are pure functions of them. MLIR
uniques attributes, so every op holding the same attributes gets the same
verdict and the same action arguments: the kernel evaluates them once per
distinct tuple of attribute values (per stage run, see RewriteContext.memo)
and, on each op, only looks the attributes up and calls the actions. It
gives the generic path's results; the driver uses it when no trace,
statistics or --explain asks about the rule's attempts (see driver.py).

A rule qualifies when its pattern is a single op line with no operands,
results or regions, whose attributes are bound (`{a = $x}`), required
(`{a}`) or excluded (`{!a}`); every constraint is pure and mentions only
those attribute variables; and every action is an action that changes only
its first argument's attributes (set_attr, remove_attr, for_each_sharding,
...) called on the root, its other arguments pure and about those
attribute variables only.
"""
from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir

from . import parsing, syntax as S
from .expr import Env, ExprCompiler, Function

_MISSING = object()


class AttrKernel:
    """The fast form of one rule (see the module docstring)."""

    __slots__ = ("binds", "present", "absent", "where", "actions", "key", "_checks", "pass_wide")

    def __init__(self, binds, present, absent, where, actions, pass_wide: bool = False):
        self.binds: tuple[tuple[str, str], ...] = binds  # (attribute name, variable)
        self.present: tuple[str, ...] = present
        self.absent: tuple[str, ...] = absent
        self.where: list[Callable] = where  # compiled constraints, fn(env) -> truthy
        self.actions: list[tuple[Function, list[Callable]]] = actions  # (action, its arguments after the root)
        self.key = object()  # this kernel's memo in RewriteContext.memo
        self._checks = bool(present or absent)
        # Its plans hold for the whole pass run (RewriteContext.pass_memo): it calls
        # built-in functions only and takes no lambda (which would hold its stage's memo).
        self.pass_wide = pass_wide

    def apply(self, op: ir.Operation, attrs, ctx) -> bool | None:
        """None: the rule does not match OP (ATTRS: its attributes); False: it
        matched and changed nothing; True: it fired."""
        plan = self.plan_for(attrs, ctx)
        if plan is None:
            return None
        ctx.begin_rewrite(op)
        return self.run(plan, op, attrs, ctx)

    def plan_for(self, attrs, ctx) -> list | None:
        """The actions to run on an op with attributes ATTRS, or None when the rule
        does not match it (the same plan for every op with the same attribute values)."""
        if self._checks:
            for name in self.present:
                if name not in attrs:
                    return None
            for name in self.absent:
                if name in attrs:
                    return None
        binds = self.binds
        if not binds:
            values = ()
        elif len(binds) == 1:
            values = attrs.get(binds[0][0])
            if values is None:
                return None
        else:
            found = []
            for name, _ in binds:
                value = attrs.get(name)
                if value is None:
                    return None
                found.append(value)
            values = tuple(found)
        memo = ctx.memos.get(self.key)
        if memo is None:
            memo = ctx.memos[self.key] = ctx.pass_memo(self.key) if self.pass_wide else ctx.memo(self.key)
        plan = memo.get(values, _MISSING)
        if plan is _MISSING:
            plan = memo[values] = self._plan(values, ctx)
        return plan

    @staticmethod
    def run(plan: list, op: ir.Operation, attrs, ctx) -> bool:
        """Run a plan of plan_for on OP, the root of a rewrite begun (ctx.begin_rewrite):
        whether it changed OP."""
        ctx.changed = False
        for on_attributes, impl, wants_ctx, args in plan:
            if on_attributes is not None:
                on_attributes(ctx, op, attrs, *args)
            elif wants_ctx:
                impl(ctx, op, *args)
            else:
                impl(op, *args)
        return ctx.changed

    def _plan(self, values, ctx):
        """The actions with their arguments for these attribute values, or None
        when a constraint fails."""
        names = [var for _, var in self.binds]
        env = Env(ctx, dict(zip(names, values if len(names) != 1 else (values,))))
        for constraint in self.where:
            if not constraint(env):
                return None
        return [(fn.on_attributes, fn.fn, fn.wants_ctx, [arg(env) for arg in args]) for fn, args in self.actions]


def compile_kernel(compiler: ExprCompiler, pattern: S.Pattern, where: list, rewrite,
                   bound: set[str], builtins: dict) -> AttrKernel | None:
    """The kernel of a rule (WHERE: its constraints as (compiled, text); REWRITE: its
    `rewrite:` as written; BUILTINS: the built-in functions by name), or None when
    the rule does not qualify."""
    if len(pattern.lines) != 1 or not isinstance(rewrite, list) or not rewrite:
        return None
    root = pattern.root
    if root.results or root.operands is not None or root.regions is not None:
        return None
    binds, present, absent = [], [], []
    for entry in root.attrs:
        if entry.kind == "bind" and not entry.optional:
            binds.append((entry.name, "$" + entry.var))
        elif entry.kind == "present":
            present.append(entry.name)
        elif entry.kind == "absent":
            absent.append(entry.name)
        elif entry.kind != "rest":
            return None  # literals and optional attributes take the generic path
    attr_vars = {var for _, var in binds}
    root_vars = {"$root"} | ({"$" + root.label} if root.label else set())

    pass_wide = [True]

    def about_attributes(node) -> bool:
        free, pure = compiler.info(node)
        if pure and pass_wide[0]:
            pass_wide[0] = _builtin_only(node, compiler.functions, builtins)
        return pure and free <= attr_vars

    for text in [text for _, text in where]:
        if not about_attributes(parsing.parse_expr(text)):
            return None
    actions = []
    for text in rewrite:
        if not isinstance(text, str):
            return None
        try:
            node = parsing.parse_expr(str(text))
        except S.SyntaxErrorAt:
            return None
        fn = compiler.functions.get(node.func) if isinstance(node, S.Call) else None
        if (fn is None or not fn.is_action or not fn.changes_only_first_op or not node.args
                or not isinstance(node.args[0], S.Var) or node.args[0].name not in root_vars
                or not all(about_attributes(a) for a in node.args[1:])):
            return None
        args = [compiler.compile(a, set(bound)) for a in node.args[1:]]
        actions.append((fn, args))
        if fn is not builtins.get(node.func):
            pass_wide[0] = False
    return AttrKernel(tuple(binds), tuple(present), tuple(absent), [c for c, _ in where], actions,
                      pass_wide=pass_wide[0])


def _builtin_only(node, functions: dict, builtins: dict) -> bool:
    """Whether an expression calls built-in functions only and has no lambda."""
    if isinstance(node, S.Lambda):
        return False
    if isinstance(node, S.Call) and functions.get(node.func) is not builtins.get(node.func):
        return False
    children = [v for v in vars(node).values() if isinstance(v, (S.Expr, list))]
    return all(_builtin_only(c, functions, builtins) for child in children
               for c in (child if isinstance(child, list) else [child]) if isinstance(c, S.Expr))


# (op name, number of attributes) -> the names the last such op had
_NAMES_SEEN: dict[tuple[str, int], tuple[str, ...]] = {}


def attribute_items(op_name: str, attrs) -> list[tuple[str, ir.Attribute]]:
    """(name, attribute) of each of ATTRS, the attributes of an op named OP_NAME,
    in their order. Listing the names is slow (a Python string per name): an op
    with as many attributes as the last op of its name, all of whose names it
    has, has exactly those (names are unique), in the same order (which depends
    only on the op's name and the attribute names: MLIR orders an op's attribute
    dictionary by name)."""
    n = len(attrs)
    if not n:
        return []
    key = (op_name, n)
    names = _NAMES_SEEN.get(key)
    if names is not None:
        try:
            return [(name, attrs[name]) for name in names]
        except KeyError:  # another set of names
            pass
    names = _NAMES_SEEN[key] = tuple(attrs.keys())
    return [(name, attrs[name]) for name in names]
