"""Hook of sdy-constant-or-scalar-splitter.

The rule file's `params:` classify ops by name (constant sources, ops that
preserve constness, scalar expansions, followers); this module does what
depends on visiting order: the call-graph order, the walk of each body,
copying sub-computations per use (and callees as `@f_<n>`), erasing what is
left unused; constants are converted as the visit reaches them.

Every op of a module is visited, so the visit does little per op: its kind
comes from its name (asked of the registry once per name), its operands are
read only when one of them can be a constant's or an expansion's (a user of
one, found from the producer's uses), and a function's constness is settled
at its first non-constant op.
"""
from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir

from sdy_dsl.diagnostics import emit_error
from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import interfaces
from sdy_dsl.runtime.values import PostOrderFinder, operation, ops_named

CALL = "func.call"
FUNC = "func.func"
NAMED_COMPUTATION = "sdy.named_computation"
ORIGINAL_FUNC_NAME = "sdy.original_func_name"

# What an op is to the splitter (by name; CONDITIONAL: it depends on the op).
# PRESERVING to NAMED may preserve constness.
FOLLOWER, SOURCE, PRESERVING, CONDITIONAL, CALLING, NAMED, OTHER = range(7)


@dataclass(frozen=True)
class Classes:
    """The classification of the rule file's `params:`."""
    conversions: dict
    sources: frozenset
    preserving_trait: str
    preserving_except: frozenset
    preserving_ops: frozenset
    scalar_expansions: frozenset
    followers: frozenset

    @staticmethod
    def of(params) -> "Classes":
        def names(values) -> frozenset:
            return frozenset(str(name) for name in values)

        return Classes(
            conversions={str(k): str(v) for k, v in params.constant_conversions.items()},
            sources=names(params.constant_sources), preserving_trait=str(params.preserve_constness_trait),
            preserving_except=names(params.preserve_constness_except),
            preserving_ops=names(params.preserve_constness_ops),
            scalar_expansions=names(params.scalar_expansions), followers=names(params.followers))

    def kind(self, name: str) -> int:
        """What ops named `name` are (the first that applies)."""
        name = self.conversions.get(name, name)
        table = interfaces.table()
        if name in self.followers:
            return FOLLOWER
        if name in self.sources:
            return SOURCE
        if name in self.preserving_ops:
            return PRESERVING
        if name not in self.preserving_except:
            has_trait = table.trait_by_name(name, self.preserving_trait)
            if has_trait is None:
                return CONDITIONAL
            if has_trait:
                return PRESERVING
        if table.callee_attr(name) is not None:
            return CALLING
        if name == NAMED_COMPUTATION:
            return NAMED
        return OTHER


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


def _callee(call) -> str:
    return ir.FlatSymbolRefAttr(operation(call).attributes["callee"]).value


def _functions_callees_first(module) -> list:
    """Call-graph post-order: from each function in module order, its callees (in call order) first."""
    functions = _functions_by_name(module)
    order, seen = [], set()
    calls_in = PostOrderFinder([CALL])  # (calls hold no ops: post-order is program order)

    def visit(func):
        if func in seen:
            return
        seen.add(func)
        for call in calls_in(func):
            callee = functions.get(_callee(call))
            if callee is not None:
                visit(callee)
        order.append(func)

    for func in functions.values():
        visit(func)
    return order


def _is_scalar(value: ir.Value) -> bool:
    t = value.type
    return isinstance(t, ir.RankedTensorType) and t.rank == 0


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


def _attributes(op) -> dict:
    attrs = op.attributes
    return {name: attrs[name] for name in attrs}


class Body:
    """What the visit of one body keeps: its constant expressions and scalar
    expansions (ordered sets), their results (value -> producer), the ops
    using those, and whether it has followers at all."""

    def __init__(self, has_followers: bool):
        self.constants: dict = {}
        self.expansions: dict = {}
        self.by_constants: dict = {}
        self.by_expansions: dict = {}
        self.users: set = set()
        self.has_followers = has_followers
        self.converted: list = []  # the constants replaced by their conversions

    def add(self, op, ops: dict, values: dict) -> None:
        ops[op] = None
        users = self.users
        for result in op.results:
            values[result] = op
            for use in result.uses:
                users.add(use.owner)  # (an op view: equal to, and hashed as, its operation)

    def producer(self, value: ir.Value):
        """The constant expression or scalar expansion producing `value`, if any."""
        op = self.by_constants.get(value)
        return op if op is not None else self.by_expansions.get(value)


class _Splitter:
    def __init__(self, ctx: RewriteContext):
        self.ctx = ctx
        self.classes = ctx.run_state("split-classes", lambda: Classes.of(ctx.params))
        self.kinds: dict[str, int] = {}
        self.table = interfaces.table()
        self.module = operation(ctx.module)
        self.functions = _functions_by_name(self.module)
        self.functions_being_copied: set = set()
        self.symbols = {ir.StringAttr(op.attributes["sym_name"]).value
                        for op in map(operation, self.module.regions[0].blocks[0].operations)
                        if "sym_name" in op.attributes}
        self.non_constant: dict[str, set[str]] = {"function": set(), "named-computation": set()}
        self.uniquing_counter = 0  # one counter per run, as MLIR's symbol table uniquing
        # value -> the followers using it, in use-list order; valid within one body
        # (copies only add, then move, uses; erasing comes at its end). Scanning
        # the uses on each copy would be quadratic in a constant's users.
        self.followers_of: dict[ir.Value, list[ir.Operation]] = {}
        # One pattern set each for the run's many bodies.
        self.named_computations_in = PostOrderFinder([NAMED_COMPUTATION])
        self.followers_in = PostOrderFinder(self.classes.followers)

    def kind(self, name: str) -> int:
        kind = self.kinds.get(name)
        if kind is None:
            kind = self.kinds[name] = self.classes.kind(name)
        return kind

    # ------------------------------------------------------------------ classification at the time of the visit
    def preserves_constness(self, op, kind: int) -> bool:
        if kind == PRESERVING:
            return True
        if kind == CONDITIONAL:
            return self.table.has_trait(op, self.classes.preserving_trait)
        if kind == CALLING:
            callee = ir.FlatSymbolRefAttr(op.attributes[self.table.callee_attr(op.name)]).value
            func = self.functions.get(callee)
            return (_original_name(func) if func is not None else callee) not in self.non_constant["function"]
        if kind == NAMED:
            return ir.StringAttr(op.attributes["name"]).value not in self.non_constant["named-computation"]
        return False

    def is_terminator(self, op) -> bool:
        always = self.table.trait_by_name(op.name, "terminator")
        return always if always is not None else self.table.is_terminator(op)

    # ------------------------------------------------------------------ one body
    def split_body(self, owner, func) -> None:
        """Visit the body of `owner` (a function or a named computation), named computation bodies excluded."""
        # What a non-constant op here makes non-constant.
        computations = [("function", _original_name(func))]
        if owner.name == NAMED_COMPUTATION:
            computations.append(("named-computation", ir.StringAttr(owner.attributes["name"]).value))
        kinds = self.kinds
        body = Body(has_followers=bool(self.followers_in(owner)))
        users, expansion_names = body.users, self.classes.scalar_expansions
        settled = all(name in self.non_constant[kind] for kind, name in computations)
        advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP
        failure = []
        inside = False  # the owner comes first

        def visit(op):
            nonlocal settled, inside
            if not inside:
                inside = True
                return advance
            name = op.name
            kind = kinds.get(name)
            if kind is None:
                kind = self.kind(name)
            try:
                if not settled:
                    settled = self.settle(op, kind, computations)
                # Most ops are neither constant, nor an expansion, nor a user: nothing to do.
                if kind == SOURCE or name in expansion_names or op in users or (
                        PRESERVING <= kind <= NAMED and not len(op.operands)):
                    self.visit_op(op, name, kind, body)
            except BaseException as e:  # raised after the walk (not through MLIR's)
                failure.append(e)
                return ir.WalkResult.INTERRUPT
            # (the walk goes into the owner, not into the named computations inside it)
            return skip if name == NAMED_COMPUTATION else advance

        # Visiting during the walk is safe: copies go before the op being
        # visited (its operands' producers come first), nothing is erased
        # before the end, copied functions go to the module.
        owner.walk(visit, ir.WalkOrder.PRE_ORDER)
        if failure:
            raise failure[0]
        self.followers_of.clear()  # erased values' addresses may be reused
        for op in body.expansions:
            self.erase_if_unused(op, body)
        for op in reversed(body.constants):
            self.erase_if_unused(op, body)
        for op in body.converted:  # (unused since their conversion)
            op.erase()

    def settle(self, op, kind: int, computations: list[tuple[str, str]]) -> bool:
        """Mark this body's computations non-constant if `op` is a non-constant op; whether they are."""
        if kind in (FOLLOWER, SOURCE) or self.preserves_constness(op, kind) or self.is_terminator(op):
            return False
        for kind, name in computations:
            self.non_constant[kind].add(name)
        return True

    def visit_op(self, op, name: str, kind: int, body: Body) -> None:
        if kind == FOLLOWER:
            return
        if kind == SOURCE:
            target = self.classes.conversions.get(name)
            if target is not None:
                # Converted first, as the reference does: its uses keep their order. The
                # original goes at the end of the body (the walk is at it).
                body.converted.append(op)
                op = self.convert(op, target, erase=False)
            body.add(op, body.constants, body.by_constants)
            return
        is_user = op in body.users
        operands = list(op.operands)
        # Only a user of a constant (or an op without operands) can be a constant expression.
        if PRESERVING <= kind <= NAMED and (is_user or not operands):
            by_constants = body.by_constants
            if all(v in by_constants for v in operands) and self.preserves_constness(op, kind):
                body.add(op, body.constants, by_constants)
                return
        if name in self.classes.scalar_expansions and len(operands) == 1 and _is_scalar(operands[0]):
            body.add(op, body.expansions, body.by_expansions)
            return
        if not is_user:
            return
        for i, operand in enumerate(operands):
            if operand in body.by_constants or operand in body.by_expansions:
                op.operands[i] = self.copy_for_one_use(operand, body)
                self.ctx.record_change("split", op)
                self.ctx.mark_changed()

    def erase_if_unused(self, op, body: Body) -> bool:
        """Erase `op` (with its followers) if nothing else uses it; whether it did."""
        if not body.has_followers:
            for result in op.results:
                for _ in result.uses:
                    return False
            op.erase()
            return True
        users = [use.owner for result in op.results for use in result.uses]
        followers = self.classes.followers
        if any(user.name not in followers for user in users):
            return False
        for user in users:
            user.erase()
        op.erase()
        return True

    def convert(self, op, target: str, erase: bool = True) -> ir.Operation:
        """`op` becomes an op named `target` with its attributes, right before it
        (erased unless `erase` is False: then it is left without uses)."""
        results = op.results
        new = ir.Operation.create(target, results=results.types, attributes=_attributes(op),
                                  loc=op.location, ip=ir.InsertionPoint(op))
        if len(results) == 1:
            results[0].replace_all_uses_with(new.result)
        else:
            for old, result in zip(results, new.results):
                old.replace_all_uses_with(result)
        if erase:
            op.erase()
        return new

    # ------------------------------------------------------------------ copies
    def copy_for_one_use(self, value: ir.Value, body: Body) -> ir.Value:
        """A fresh copy of the sub-computation producing `value` (scalars are shared)."""
        if _is_scalar(value):
            return value
        mapping: dict = {}
        self.copy_into(value, mapping, body)
        return mapping[value]

    def copy_into(self, value: ir.Value, mapping: dict, body: Body) -> None:
        """Copy `value`'s producer after the producers of its operands, depth first in operand order
        (without recursion: constant chains can be long). The operands of a
        constant expression are constants; of a scalar expansion, its scalar."""
        stack = [(value, body.producer(value), False)]
        while stack:
            value, op, operands_done = stack.pop()
            if value in mapping:
                continue
            if operands_done:
                self.copy_op(op, value, mapping, body)
                continue
            stack.append((value, op, True))
            for operand in reversed(list(op.operands)):
                producer = body.producer(operand)
                if producer is not None and not _is_scalar(operand):
                    stack.append((operand, producer, False))

    def copy_op(self, op: ir.Operation, value: ir.Value, mapping: dict, body: Body) -> None:
        # Copies go right before the original, in creation order.
        name = op.name
        copy = op.clone(ip=ir.InsertionPoint(op))
        if mapping:
            _remap_operands(copy, mapping)
        for old, new in zip(op.results, copy.results):
            mapping[old] = new
        if name == CALL:
            self.call_copy_of_callee(copy)
        if body.has_followers:  # the followers of the copied value follow its copy
            for group in self.followers(value):
                _remap_operands(group.clone(ip=ir.InsertionPoint(op)), mapping)

    def followers(self, value: ir.Value) -> list[ir.Operation]:
        found = self.followers_of.get(value)
        if found is None:
            followers = self.classes.followers
            found = self.followers_of[value] = [
                user for user in (operation(use.owner) for use in value.uses) if user.name in followers]
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
        # (A function not visited yet, in a call cycle, still has constants to convert.)
        for op in ops_named(copy, list(self.classes.conversions)):
            self.convert(op, self.classes.conversions[op.name])
        copy.attributes[ORIGINAL_FUNC_NAME] = ir.StringAttr.get(_original_name(func))
        name = self.unique_name(ir.StringAttr(func.attributes["sym_name"]).value)
        copy.attributes["sym_name"] = ir.StringAttr.get(name)
        self.module.regions[0].blocks[0].append(copy)
        self.functions[name] = copy
        return name

    def unique_name(self, base: str) -> str:
        name = base
        while name in self.symbols:
            name = f"{base}_{self.uniquing_counter}"
            self.uniquing_counter += 1
        self.symbols.add(name)
        return name


@hook
def split_constant_sub_computations(ctx: RewriteContext) -> None:
    """Functions callees first; in each, named computation bodies (innermost first), then its body."""
    splitter = _Splitter(ctx)
    for func in _functions_callees_first(ctx.module):
        for named_computation in splitter.named_computations_in(func):
            splitter.split_body(named_computation, func)
        splitter.split_body(func, func)
    ctx.mark_changed()
