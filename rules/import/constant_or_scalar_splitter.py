"""Hooks of sdy-constant-or-scalar-splitter.

The rule file classifies ops (constant sources, ops that preserve constness,
scalar expansions, sharding groups); this module keeps that classification
in `ctx.scratch["split"]` and does what depends on visiting order: the
call-graph order, the walk of each body, copying sub-computations per use
(and callees as `@f_<n>`), erasing what is left unused.
"""
from __future__ import annotations

from typing import NamedTuple

from jaxlib.mlir import ir

from sdy_dsl.diagnostics import emit_error
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation, ops_named

CALL = "func.call"
FUNC = "func.func"
NAMED_COMPUTATION = "sdy.named_computation"
ORIGINAL_FUNC_NAME = "sdy.original_func_name"


class _SplitState:
    """The classification made by the rules, and the bookkeeping of one run."""

    def __init__(self):
        self.constant_sources: set[ir.Operation] = set()
        self.constness_preserving: set[ir.Operation] = set()
        # call / named computation -> (kind, name): preserves constness unless `name` is non-constant.
        self.preserving_unless_non_constant: dict[ir.Operation, tuple[str, str]] = {}
        self.scalar_expansions: set[ir.Operation] = set()
        # Sharding groups: skipped by the visit, copied along with a copied
        # operand, erased along with an unused one.
        self.neither_constant_nor_user: set[ir.Operation] = set()
        self.non_constant: dict[str, set[str]] = {"function": set(), "named-computation": set()}
        self.uniquing_counter = 0  # one counter per run, as MLIR's symbol table uniquing

    def forget(self, op) -> None:
        for ops in (self.constant_sources, self.constness_preserving, self.scalar_expansions,
                    self.neither_constant_nor_user):
            ops.discard(op)
        self.preserving_unless_non_constant.pop(op, None)


def _state(ctx: RewriteContext) -> _SplitState:
    return ctx.run_state("split", _SplitState)


# --------------------------------------------------------------------------- classification (rule actions)


@hook
def constant_source(ctx: RewriteContext, op: ir.Operation) -> None:
    _state(ctx).constant_sources.add(operation(op))
    ctx.mark_changed()  # classifying is this rule's effect: one rule per op


@hook
def preserves_constness(ctx: RewriteContext, op: ir.Operation) -> None:
    _state(ctx).constness_preserving.add(operation(op))
    ctx.mark_changed()


@hook
def preserves_constness_unless_non_constant(ctx: RewriteContext, op: ir.Operation, kind: str, name: str) -> None:
    """`op` (a call or a named computation) preserves constness unless `name` of `kind` is non-constant when reached."""
    state = _state(ctx)
    if kind not in state.non_constant:
        raise ValueError(f"unknown computation kind '{kind}' (expected {', '.join(state.non_constant)})")
    state.preserving_unless_non_constant[operation(op)] = (kind, name)
    ctx.mark_changed()


@hook
def scalar_expansion(ctx: RewriteContext, op: ir.Operation) -> None:
    _state(ctx).scalar_expansions.add(operation(op))
    ctx.mark_changed()


@hook
def neither_constant_nor_user(ctx: RewriteContext, op: ir.Operation) -> None:
    _state(ctx).neither_constant_nor_user.add(operation(op))
    ctx.mark_changed()


def _functions_by_name(module) -> dict[str, ir.Operation]:
    found = {}
    for op in operation(module).regions[0].blocks[0].operations:
        op = operation(op)
        if op.name == FUNC:
            found[ir.StringAttr(op.attributes["sym_name"]).value] = op
    return found


def _original_name(func) -> str:
    attrs = operation(func).attributes
    key = ORIGINAL_FUNC_NAME if ORIGINAL_FUNC_NAME in attrs else "sym_name"
    return ir.StringAttr(attrs[key]).value


@hook
def original_func_name(ctx: RewriteContext, callee: ir.Attribute) -> str:
    """The `sdy.original_func_name` of the called function, else its name."""
    name = ir.FlatSymbolRefAttr(callee).value
    func = ctx.run_state("functions", lambda: _functions_by_name(ctx.module)).get(name)
    return _original_name(func) if func is not None else name


# --------------------------------------------------------------------------- splitting (stage hook)


def _callee(call) -> str:
    return ir.FlatSymbolRefAttr(operation(call).attributes["callee"]).value


def _functions_callees_first(module) -> list:
    """Call-graph post-order: from each function in module order, its callees (in call order) first."""
    functions = _functions_by_name(module)
    order, seen = [], set()

    def visit(func):
        if func in seen:
            return
        seen.add(func)
        for call in ops_named(func, [CALL]):
            callee = functions.get(_callee(call))
            if callee is not None:
                visit(callee)
        order.append(func)

    for func in functions.values():
        visit(func)
    return order


def _is_scalar(value: ir.Value) -> bool:
    return isinstance(value.type, ir.RankedTensorType) and value.type.rank == 0


def _defining_op(value: ir.Value):
    owner = value.owner
    return None if isinstance(owner, ir.Block) else operation(owner)


def _remap_operands(op, mapping: dict) -> None:
    """Point `op` and the ops nested in it at the copies in `mapping`."""

    def visit(nested):
        for i, operand in enumerate(nested.operands):
            new = mapping.get(operand)
            if new is not None:
                nested.operands[i] = new
        return ir.WalkResult.ADVANCE

    op = operation(op)
    if op.regions:
        op.walk(visit)
    else:
        visit(op)  # nothing nested: no walk


class Produced(NamedTuple):
    """The results of one body's constant expressions and scalar expansions
    (values compare cheaper than their defining ops)."""
    by_constants: set
    by_expansions: set


class _Splitter:
    def __init__(self, ctx: RewriteContext):
        self.ctx = ctx
        self.state = _state(ctx)
        self.module = operation(ctx.module)
        self.functions = _functions_by_name(self.module)
        self.functions_being_copied: set = set()
        self.symbols = {ir.StringAttr(op.attributes["sym_name"]).value
                        for op in map(operation, self.module.regions[0].blocks[0].operations)
                        if "sym_name" in op.attributes}
        # value -> the ops of `neither_constant_nor_user` using it, in use-list order; valid
        # within one body (copies only add, then move, uses; erasing comes at its end).
        # Scanning the uses on each copy would be quadratic in a constant's users.
        self.followers_of: dict[ir.Value, list[ir.Operation]] = {}

    # ------------------------------------------------------------------ classification at the time of the visit
    def preserves_constness(self, op) -> bool:
        state = self.state
        if op in state.constness_preserving:
            return True
        kind_and_name = state.preserving_unless_non_constant.get(op)
        return kind_and_name is not None and kind_and_name[1] not in state.non_constant[kind_and_name[0]]

    def is_constant_expression(self, op, operands: list, constant_values: set) -> bool:
        if op in self.state.constant_sources:
            return True
        return self.preserves_constness(op) and all(v in constant_values for v in operands)

    # ------------------------------------------------------------------ one body
    def split_body(self, owner, func) -> None:
        """Visit the body of `owner` (a function or a named computation), named computation bodies excluded."""
        constants: dict = {}  # ordered sets
        expansions: dict = {}
        # Their results: a value is produced by one of them when it is in here.
        produced = Produced(set(), set())
        # What a non-constant op here makes non-constant.
        computations = [("function", _original_name(func))]
        if owner.name == NAMED_COMPUTATION:
            computations.append(("named-computation", ir.StringAttr(owner.attributes["name"]).value))

        body_ops = []

        def collect(op):
            op = operation(op)
            if op != owner:
                body_ops.append(op)
            return ir.WalkResult.SKIP if op.name == NAMED_COMPUTATION and op != owner else ir.WalkResult.ADVANCE

        # A snapshot walks the same ops as a live walk: copies go before the
        # op being visited and nothing is erased before the end.
        owner.walk(collect, ir.WalkOrder.PRE_ORDER)
        for op in body_ops:
            self.visit_op(op, computations, constants, expansions, produced)
        self.followers_of.clear()  # erased values' addresses may be reused
        for op in list(expansions) + list(reversed(constants)):
            self.erase_if_unused(op)

    def visit_op(self, op, computations: list[tuple[str, str]], constants: dict, expansions: dict,
                 produced: "Produced") -> None:
        state = self.state
        if op in state.neither_constant_nor_user:
            return
        operands = list(op.operands)
        if self.is_constant_expression(op, operands, produced.by_constants):
            constants[op] = None
            produced.by_constants.update(op.results)
            return
        if not self.preserves_constness(op) and not op.has_trait(ir.IsTerminatorTrait):
            for kind, name in computations:
                state.non_constant[kind].add(name)
        if op in state.scalar_expansions:
            expansions[op] = None
            produced.by_expansions.update(op.results)
            return
        for i, operand in enumerate(operands):
            if operand in produced.by_constants or operand in produced.by_expansions:
                op.operands[i] = self.copy_for_one_use(operand)
                self.ctx.mark_changed()

    def erase_if_unused(self, op) -> None:
        users = [operation(use.owner) for result in op.results for use in result.uses]
        if any(user not in self.state.neither_constant_nor_user for user in users):
            return
        for user in users:
            self.state.forget(user)
            self.ctx.erase(user)

        def forget(nested):  # a named computation takes its body along
            self.state.forget(operation(nested))
            return ir.WalkResult.ADVANCE

        op.walk(forget)
        self.ctx.erase(op)

    # ------------------------------------------------------------------ copies
    def copy_for_one_use(self, value: ir.Value) -> ir.Value:
        """A fresh copy of the sub-computation producing `value` (scalars are shared)."""
        if _is_scalar(value):
            return value
        mapping: dict = {}
        self.copy_into(value, mapping)
        return mapping[value]

    def copy_into(self, value: ir.Value, mapping: dict) -> None:
        """Copy `value`'s producer after the producers of its operands, depth first in operand order
        (without recursion: constant chains can be long)."""
        stack = [(value, False)]
        while stack:
            value, operands_done = stack.pop()
            if _is_scalar(value) or value in mapping:
                continue
            op = _defining_op(value)
            if not operands_done:
                stack.append((value, True))
                stack.extend((v, False) for v in reversed(list(op.operands)) if _defining_op(v) is not None)
                continue
            self.copy_op(op, value, mapping)

    def copy_op(self, op: ir.Operation, value: ir.Value, mapping: dict) -> None:
        # Copies go right before the original, in creation order.
        copy = op.clone(ip=ir.InsertionPoint(op))
        _remap_operands(copy, mapping)
        for old, new in zip(op.results, copy.results):
            mapping[old] = new
        if copy.name == CALL:
            self.call_copy_of_callee(copy)
        for group in self.followers(value):  # the sharding groups of the copied value follow its copy
            _remap_operands(group.clone(ip=ir.InsertionPoint(op)), mapping)

    def followers(self, value: ir.Value) -> list[ir.Operation]:
        found = self.followers_of.get(value)
        if found is None:
            followers = self.state.neither_constant_nor_user
            found = self.followers_of[value] = [
                user for user in (operation(use.owner) for use in value.uses) if user in followers]
        return found

    def call_copy_of_callee(self, call) -> None:
        callee = self.functions.get(_callee(call))
        if callee is None:
            return
        if callee in self.functions_being_copied:
            emit_error(call, f"cannot copy the recursive function @{_callee(call)} for a constant call")
        call.attributes["callee"] = ir.FlatSymbolRefAttr.get(self.copy_function(callee))

    def copy_function(self, func) -> str:
        """Append a copy of `func` (its callees copied likewise, first) under a fresh name; return the name."""
        copy = func.clone(ip=False)
        self.functions_being_copied.add(func)
        for call in ops_named(copy, [CALL]):
            self.call_copy_of_callee(call)
        self.functions_being_copied.discard(func)
        copy.attributes[ORIGINAL_FUNC_NAME] = ir.StringAttr.get(_original_name(func))
        name = self.unique_name(ir.StringAttr(func.attributes["sym_name"]).value)
        copy.attributes["sym_name"] = ir.StringAttr.get(name)
        self.module.regions[0].blocks[0].append(copy)
        self.functions[name] = copy
        return name

    def unique_name(self, base: str) -> str:
        name = base
        while name in self.symbols:
            name = f"{base}_{self.state.uniquing_counter}"
            self.state.uniquing_counter += 1
        self.symbols.add(name)
        return name


@hook
def split_constant_sub_computations(ctx: RewriteContext) -> None:
    """Functions callees first; in each, named computation bodies (innermost first), then its body."""
    splitter = _Splitter(ctx)
    for func in _functions_callees_first(ctx.module):
        for named_computation in ops_named(func, [NAMED_COMPUTATION], pre_order=False):
            splitter.split_body(named_computation, func)
        splitter.split_body(func, func)
