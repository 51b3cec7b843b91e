"""The rewrite context: what rule actions and hooks see while a pass runs."""
from __future__ import annotations

import contextlib
import ctypes
from typing import Callable, TypeVar

from jaxlib.mlir import ir

from ..runtime.sharding import codec
from ..runtime.values import MeshTable, is_ancestor, module_of, operation

T = TypeVar("T")
MESH_TABLE = "mesh-table"  # the module's meshes in RewriteContext.pass_scratch
PASS_MEMOS = "pass-memos"  # memos of built-in pure functions in RewriteContext.pass_scratch (see pass_memo)


class RewriteContext:
    """One pass run over one anchor op (a module, or a func inside it).

    Every IR mutation of an action goes through here, so the driver knows
    whether a rule application changed anything (a rule that reports success
    without a change would make a greedy driver spin).
    """

    def __init__(self, anchor, options: dict, passdef, library, observer=None):
        self.anchor = operation(anchor)
        self.module = module_of(self.anchor)
        self.options = options
        self.passdef = passdef
        self.pass_name = passdef.name
        self.library = library  # the run's RuleLibrary: data files, op registry, heuristics
        self.observer = observer  # the run's trace / statistics settings (driver.Observer), for stage hooks
        self.codec = codec
        self.rewriter = None  # the MLIR PatternRewriter while inside its driver
        self.root = None  # the op the current rule matched
        self.changed = False
        self.driver_kind = None  # the running stage's driver (walk, greedy, once), None in stage hooks
        # Erased ops: `erased` (ops' addresses erased under the `once` driver since
        # its snapshot, which skips them), `dead_ops` / `dead_values` (this rewrite's).
        self.erased: set[int] = set()
        self.dead_ops: set[int] = set()
        self.dead_values: set[int] = set()
        self._meshes: MeshTable | None = None
        self.memos: dict = {}  # memos of pure functions (expr.Function.pure) by key, per stage run (see memo)
        self.scratch: dict = {}  # per-run state for hooks that need it
        # State shared by every anchor of one pass run (the functions of a func.func
        # pass, which cannot add or erase symbols of the module): set by the driver.
        self.pass_scratch: dict = {}
        self.errors: list[str] = []  # error diagnostics emitted; the stage fails after its run
        # How messages name an op's place (the driver's `file:line:col`).
        self.location_text: Callable[[ir.Operation], str] = printed_location

    @property
    def params(self):
        """The pass's data for its hooks (rule file `params:`), made when a hook first reads it."""
        return self.passdef.params

    def op_text(self, op: ir.Operation) -> str:
        return f"'{op.name}' at {self.location_text(op)}"

    def run_state(self, key: str, make: Callable[[], T]) -> T:
        """Per-run state of a hook module (`ctx.scratch[key]`), made on first use."""
        try:
            return self.scratch[key]
        except KeyError:
            state = self.scratch[key] = make()
            return state

    # ------------------------------------------------------------------ meshes
    def pass_state(self, key: str, make: Callable[[], T]) -> T:
        """State shared by the anchors of this pass run (`ctx.pass_scratch[key]`), made on first
        use: only what no anchor's run can change (the module's meshes and functions for the
        functions of a func.func pass)."""
        try:
            return self.pass_scratch[key]
        except KeyError:
            state = self.pass_scratch[key] = make()
            return state

    def meshes(self) -> MeshTable:
        # Once per pass run, not per function: a module of N functions would scan its N
        # top-level ops N times.
        if self._meshes is None:
            self._meshes = self.pass_state(MESH_TABLE, lambda: MeshTable(self.module))
        return self._meshes

    def invalidate_meshes(self) -> None:
        self._meshes = None
        self.pass_scratch.pop(MESH_TABLE, None)
        self.pass_scratch.pop(PASS_MEMOS, None)
        self.memos.clear()  # pure functions may depend on the meshes

    # ------------------------------------------------------------------ memos
    def memo(self, key) -> dict:
        """The memo of one pure lambda (see expr.ExprCompiler._Lambda) for this stage run."""
        try:
            return self.memos[key]
        except KeyError:
            memo = self.memos[key] = {}
            return memo

    def pass_memo(self, key) -> dict:
        """A memo of built-in pure functions alone for this pass run, every anchor
        (their results depend on their arguments, the options and the meshes only:
        it goes with the mesh table)."""
        memos = self.pass_state(PASS_MEMOS, dict)
        try:
            return memos[key]
        except KeyError:
            memo = memos[key] = {}
            return memo

    def begin_stage(self) -> None:
        """A stage starts: memos of pure functions start empty."""
        self.memos.clear()

    # ------------------------------------------------------------------ guards
    # Every IR action checks its preconditions here before touching MLIR, so a
    # rule file cannot crash the process: a handle to an erased op (or to a
    # value of one) is refused, an op is erased only without remaining uses,
    # never moved into itself, and replaced by values of matching arity and
    # types. A failed check raises ActionError, which the driver reports at
    # the rule with the op's location.

    def begin_rewrite(self, root=None) -> None:
        """A new rule application (or stage hook) starts: no op is erased in it yet."""
        self.root = root
        self.dead_ops.clear()
        self.dead_values.clear()

    def is_erased(self, op) -> bool:
        """Whether `op` was erased (or replaced) earlier in this rewrite."""
        try:
            return address(op) in self.dead_ops
        except RuntimeError:  # a handle invalidated when its op was erased
            return True

    def erased_in_run(self, op) -> bool:
        """Whether `op` (taken before any rewrite of this run) was erased since."""
        try:
            return address(op) in self.erased
        except RuntimeError:
            return True

    def is_dead_value(self, value: ir.Value) -> bool:
        return bool(self.dead_values) and address(value) in self.dead_values

    def live_op(self, op, action: str, role: str = "an op") -> ir.Operation:
        """`op` as a live ir.Operation, or an ActionError."""
        if op is self.root and not self.dead_ops and type(op) is ir.Operation:
            return op  # the op being rewritten, nothing erased yet: live
        if not isinstance(op, (ir.Operation, ir.OpView)):
            raise ActionError(f"{action} expects {role}, got {describe(op)}")
        if self.is_erased(op):
            raise ActionError(f"{action} of an op that was already erased or replaced in this rewrite")
        return operation(op)

    def diagnostic_location(self, at, action: str) -> ir.Location:
        """Where a diagnostic about AT goes: an op's location, a block argument's own
        location, an op result's op's location."""
        if isinstance(at, ir.Value):
            value = self.live_value(at, action, "an op or a value")
            return value.location if isinstance(value.owner, ir.Block) else operation(value.owner).location
        return self.live_op(at, action, "an op or a value").location

    def live_value(self, value, action: str, role: str = "a value") -> ir.Value:
        if not isinstance(value, ir.Value):
            raise ActionError(f"{action} expects {role}, got {describe(value)}")
        if self.is_dead_value(value):
            raise ActionError(f"{action} of a value whose op was already erased or replaced in this rewrite")
        return value

    def check_binding(self, name: str, value) -> None:
        """A metavariable's value must not refer to an op erased earlier in this rewrite."""
        if isinstance(value, (ir.Operation, ir.OpView)):
            if self.is_erased(value):
                raise ActionError(f"'{name}' was erased or replaced by an earlier action of this rewrite")
        elif isinstance(value, ir.Value):
            if self.is_dead_value(value):
                raise ActionError(f"'{name}' is a value of an op erased or replaced by an earlier action of this rewrite")
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, (ir.Operation, ir.OpView, ir.Value)):
                    self.check_binding(name, item)

    def _check_mutable(self, op: ir.Operation, action: str) -> None:
        """`op` may be erased, replaced or moved: it is strictly inside the
        anchor, and under MLIR's drivers it is not an ancestor of the op
        being rewritten; under the walk driver it is not an op the walk has
        yet to visit."""
        if op is self.root and not self.dead_ops:
            return  # the op being rewritten (the drivers never visit the anchor itself)
        if op == self.anchor or is_ancestor(op, self.anchor):
            raise ActionError(f"{action} of {self.op_text(op)}, which contains the whole {self.anchor.name} "
                              f"the pass runs on")
        if not is_ancestor(self.anchor, op):
            raise ActionError(f"{action} of {self.op_text(op)}, which is outside the {self.anchor.name} the pass runs on")
        root = self.root
        if self.rewriter is None or root is None or self.is_erased(root):
            return
        root = operation(root)
        if op == root or is_ancestor(root, op):
            return
        if is_ancestor(op, root):
            raise ActionError(f"{action} of {self.op_text(op)}, which contains the op being rewritten "
                              f"({self.op_text(root)})")
        if self.driver_kind == "walk" and not walk_visited_before(op, root):
            raise ActionError(f"{action} of {self.op_text(op)}, which the walk driver has not visited yet "
                              f"(under 'walk' a rule may change only its root, ops inside it, or ops "
                              f"before it; use the 'once' or 'greedy' driver)")

    def _forget_subtree(self, op: ir.Operation) -> None:
        """Record `op`, every op inside it and all their values as erased
        (in `erased` too under the `once` driver, which skips them)."""
        erased = self.erased if self.driver_kind == "once" else None
        if not op.regions:  # nothing inside: no walk
            at = address(op)
            self.dead_ops.add(at)
            if erased is not None:
                erased.add(at)
            for r in op.results:
                self.dead_values.add(address(r))
            return

        def visit(inner):
            inner = operation(inner)
            at = address(inner)
            self.dead_ops.add(at)
            if erased is not None:
                erased.add(at)
            for r in inner.results:
                self.dead_values.add(address(r))
            for region in inner.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        self.dead_values.add(address(arg))
            return ir.WalkResult.ADVANCE
        op.walk(visit, ir.WalkOrder.PRE_ORDER)

    def _outside_uses(self, op: ir.Operation) -> list[tuple[int, int, ir.Operation]]:
        """(result index, number of uses, first user) of results used outside `op`."""
        found = []
        nested = bool(op.regions)  # else no user is inside `op`
        for i, r in enumerate(op.results):
            users = [operation(u.owner) for u in r.uses]
            users = [u for u in users if not (u == op or nested and is_ancestor(op, u))]
            if users:
                found.append((i, len(users), users[0]))
        return found

    # ------------------------------------------------------------------ mutations
    def mark_changed(self) -> None:
        self.changed = True

    def record_change(self, what: str, op) -> None:
        """A stage hook changed the IR at OP: traced (`PASS/WHAT fired on 'op'`) and
        counted under WHAT by --rule-stats, like a rule; free when neither is on."""
        observer = self.observer
        if observer is not None and observer.wants_steps:
            observer.record_step(self.pass_name, what, op, True, verb="fired on")

    def emit_error(self, at, message: str) -> None:
        """Emit an error diagnostic at an op or a value; the driver fails the pass once the stage is done."""
        self.diagnostic_location(at, "error").emit_error(message)
        self.errors.append(message)
        self.changed = True

    def set_attr(self, op, name: str, attr: ir.Attribute) -> None:
        self.set_attr_in(self.live_op(op, "set_attr").attributes, name, attr)

    def set_attr_in(self, attrs, name: str, attr: ir.Attribute) -> None:
        """set_attr on a live op's attribute map ATTRS."""
        check_attr_name(name, "set_attr")
        if name in attrs and attrs[name] == attr:
            return
        attrs[name] = attr
        self.changed = True

    def remove_attr(self, op, name: str) -> None:
        self.remove_attr_in(self.live_op(op, "remove_attr").attributes, name)

    def remove_attr_in(self, attrs, name: str) -> None:
        """remove_attr on a live op's attribute map ATTRS."""
        check_attr_name(name, "remove_attr")
        if name in attrs:
            del attrs[name]
            self.changed = True

    def erase(self, op) -> None:
        op = self.live_op(op, "erase")
        self._check_mutable(op, "erase")
        for i, n, user in self._outside_uses(op):
            which = "result" if len(op.results) == 1 else f"result #{i}"
            raise ActionError(f"erase of {self.op_text(op)}, whose {which} still has {n} use{'s' if n > 1 else ''} "
                              f"(first: {self.op_text(user)}); replace its uses first")
        self._forget_subtree(op)
        if self.rewriter is not None:
            self.rewriter.erase_op(op)
        else:
            with trusted():
                op.erase()
        _invalidate(op)
        self.changed = True

    def replace_op(self, op, values) -> None:
        op = self.live_op(op, "replace")
        if isinstance(values, (ir.Operation, ir.OpView)):
            raise ActionError(f"replace expects values, got {describe(values)} (use results(...))")
        values = [self.live_value(v, "replace", "values") for v in values]
        if len(values) != len(op.results):
            raise ActionError(f"replace of {self.op_text(op)} with {len(op.results)} result(s) by {len(values)} value(s)")
        for i, (old, new) in enumerate(zip(op.results, values)):
            if old.type != new.type:
                raise ActionError(f"replace of {self.op_text(op)}: result #{i} has type {old.type}, "
                                  f"its replacement {new.type}")
            if defined_inside(new, op):
                raise ActionError(f"replace of {self.op_text(op)} by its own result or a value defined inside it")
        self._check_mutable(op, "replace")
        self._forget_subtree(op)
        if self.rewriter is not None:
            self.rewriter.replace_op(op, values)
        else:
            for old, new in zip(op.results, values):
                old.replace_all_uses_with(new)
            with trusted():
                op.erase()
        _invalidate(op)
        self.changed = True

    def replace_uses(self, old: ir.Value, new: ir.Value, except_op=None) -> None:
        """Route every use of `old` (but those by `except_op`) to `new`.

        The op defining `new` keeps its own uses of `old` (routing them would make
        it use its own result), and every use routed must come after `new` is
        defined (else an ActionError, before anything changes)."""
        what = "replace_uses" if except_op is None else "replace_uses_except"
        old, new = self.live_value(old, what), self.live_value(new, what)
        if except_op is not None:
            except_op = self.live_op(except_op, what)
        if old == new:
            return
        if old.type != new.type:
            raise ActionError(f"{what} of a {old.type} value by a {new.type} value")
        kept = [except_op] if except_op is not None else []
        if not isinstance(new.owner, ir.Block):
            kept.append(operation(new.owner))
        self.redirect_uses(old, new, kept, what)

    def redirect_uses(self, old: ir.Value, new: ir.Value, kept_users: list, what: str) -> None:
        """Route every use of `old` but those inside `kept_users` to `new`; each
        routed use must be dominated by `new` (checked for all uses first)."""
        moved = [(operation(u.owner), u.operand_number) for u in old.uses]
        moved = [(user, i) for user, i in moved if not any(user == k or is_ancestor(k, user) for k in kept_users)]
        for user, _ in moved:
            if not defined_before(new, user):
                raise ActionError(f"{what}: {self.op_text(user)} uses the value before {value_text(new)} is "
                                  f"defined; routing it there would make the IR use a value before its definition "
                                  f"(or the op its own result)")
        for user, i in moved:
            user.operands[i] = new
        if moved:
            self.changed = True

    def move(self, op, other, after: bool) -> None:
        what = "move_after" if after else "move_before"
        op = self.live_op(op, what)
        other = self.live_op(other, what, "an op to move next to")
        if op == other:
            raise ActionError(f"{what} of {self.op_text(op)} next to itself")
        if is_ancestor(op, other):
            raise ActionError(f"{what} of {self.op_text(op)} into its own body (next to {self.op_text(other)})")
        self._check_mutable(op, what)
        if other == self.anchor or not is_ancestor(self.anchor, other):
            raise ActionError(f"{what} of {self.op_text(op)} next to {self.op_text(other)}, which is not inside the "
                              f"{self.anchor.name} the pass runs on")
        with trusted():
            if after:
                op.move_after(other)
            else:
                op.move_before(other)
        self.changed = True

    def create_op(self, name: str, result_types, operands, attributes: dict, regions: int = 0,
                  before=None, loc=None, after=None) -> ir.Operation:
        """A new op before `before` (default: the op being rewritten), or right
        after `after` (an op, or a value: after its op, or first in its block
        for a block argument)."""
        what = f"create of '{name}'"
        point, default_loc = (insertion_after(self, after, what) if after is not None
                              else insertion_before(self, before, what))
        operands = [self.live_value(v, what, "operand values") for v in operands]
        with point:
            new = ir.Operation.create(name, results=list(result_types), operands=operands,
                                      attributes=attributes, regions=regions,
                                      loc=loc if loc is not None else default_loc)
        late = next((i for i, v in enumerate(operands) if not defined_before(v, new)), None)
        if late is not None:  # it would use a value before its definition: undo, say where
            with trusted():
                new.erase()
            place = (f"after {value_text(after) if isinstance(after, ir.Value) else self.op_text(operation(after))}"
                     if after is not None else f"before {self.op_text(self.live_op(before or self.root, what))}")
            raise ActionError(f"{what} {place}: operand #{late} ({value_text(operands[late])}) is not defined "
                              f"there yet; create it 'after:' that value")
        # The new op may take the address of one erased before: it is live.
        if self.dead_ops or self.erased:
            at = address(new)
            self.dead_ops.discard(at)
            self.erased.discard(at)
        if self.dead_values:
            for r in new.results:
                self.dead_values.discard(address(r))
        self.changed = True
        return new

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]


_TRUSTED = [0]  # > 0 while the context's own erasures and moves run (see hook_guard)


@contextlib.contextmanager
def trusted():
    """The context's own actions: the driver knows about their changes (hook_guard
    checks only a hook's raw erasures and moves)."""
    _TRUSTED[0] += 1
    try:
        yield
    finally:
        _TRUSTED[0] -= 1


_CAPSULE_NAMES: dict[type, bytes] = {}  # the capsule name of each handle type


def address(x) -> int:
    """The address of an op or value (without reading it: the op may be freed).
    Raises RuntimeError for a handle invalidated when its op was erased."""
    capsule = operation(x)._CAPIPtr
    kind = type(x)
    name = _CAPSULE_NAMES.get(kind)
    if name is None:
        name = _CAPSULE_NAMES[kind] = _capsule_name(capsule)
    return _capsule_pointer(capsule, name)


class ActionError(Exception):
    """An IR action's precondition failed; the driver reports it at the action
    (`loc`, set by the rule loader) or else at the rule."""

    def __init__(self, message: str):
        super().__init__(message)
        self.loc = None


def _invalidate(op: ir.Operation) -> None:
    """The Python handle of an erased op now refuses every use (instead of reaching freed memory)."""
    try:
        op._set_invalid()
    except (AttributeError, RuntimeError):
        pass


def defined_inside(value: ir.Value, op: ir.Operation) -> bool:
    """Whether `value` is a result of `op` or defined in one of its regions."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        owner = owner.owner
        if owner is None:
            return False
    owner = operation(owner)
    return owner == op or is_ancestor(op, owner)


def walk_visited_before(op: ir.Operation, root: ir.Operation) -> bool:
    """Whether a post-order walk reaches `op` before `root` (neither contains the other)."""
    root_chain = [root]
    p = root.parent
    while p is not None:
        root_chain.append(operation(p))
        p = operation(p).parent
    a = op
    while a is not None:
        a = operation(a)
        for r in root_chain:
            if a.block == r.block and a != r:
                return a.is_before_in_block(r)
        a = a.parent
    return False


def describe(x) -> str:
    if x is None:
        return "none"
    if isinstance(x, ir.Value):
        return f"a value of type {x.type}"
    if isinstance(x, (list, tuple)):
        return f"a list of {len(x)}"
    return f"a {type(x).__name__}"


def insertion_before(ctx: RewriteContext, before, what: str) -> tuple[ir.InsertionPoint, ir.Location]:
    """Where an op created before BEFORE (default: the op being rewritten) goes, and its default location."""
    anchor_op = ctx.live_op(before if before is not None else ctx.root, "create", "an op to create before")
    # (the live op being rewritten is inside the anchor: the drivers never visit the anchor itself)
    rewritten = anchor_op is ctx.root and not ctx.dead_ops
    if not rewritten and (anchor_op == ctx.anchor or not is_ancestor(ctx.anchor, anchor_op)):
        raise ActionError(f"{what} before {ctx.op_text(anchor_op)}, which is not inside the "
                          f"{ctx.anchor.name} the pass runs on")
    return ir.InsertionPoint(anchor_op), anchor_op.location


def insertion_after(ctx: RewriteContext, after, what: str) -> tuple[ir.InsertionPoint, ir.Location]:
    """Where an op created right after AFTER (an op or a value) goes, and its default location."""
    if isinstance(after, ir.Value):
        value = ctx.live_value(after, what, "a value or an op to create after")
        owner = value.owner
        if isinstance(owner, ir.Block):
            parent = operation(owner.owner)
            if parent != ctx.anchor and not is_ancestor(ctx.anchor, parent):
                raise ActionError(f"{what} after an argument of {ctx.op_text(parent)}, which is not inside "
                                  f"the {ctx.anchor.name} the pass runs on")
            return ir.InsertionPoint.at_block_begin(owner), value.location
        after = owner
    op = ctx.live_op(after, what, "a value or an op to create after")
    if op == ctx.anchor or not is_ancestor(ctx.anchor, op):
        raise ActionError(f"{what} after {ctx.op_text(op)}, which is not inside the {ctx.anchor.name} "
                          f"the pass runs on")
    if is_terminator(op):
        raise ActionError(f"{what} after {ctx.op_text(op)}, which ends its block")
    return ir.InsertionPoint.after(op), op.location


def defined_before(value: ir.Value, user: ir.Operation) -> bool:
    """Whether `value` is defined where `user` may use it: `user` (or its ancestor in
    the value's block) comes after the value's op, or the value is an argument of a
    block holding `user`. (Shardy's regions have one block each.)"""
    owner = value.owner
    block = owner if isinstance(owner, ir.Block) else operation(owner).block
    at = user
    while at.block != block:
        parent = at.parent
        if parent is None:
            return False
        at = operation(parent)
    if isinstance(owner, ir.Block):
        return True
    definer = operation(owner)
    return at != definer and definer.is_before_in_block(at)


def is_terminator(op: ir.Operation) -> bool:
    """Whether `op` is the last op of its block (where a terminator is)."""
    try:
        return ir.InsertionPoint.at_block_terminator(op.block).ref_operation == op
    except (ValueError, TypeError):  # a block without a terminator, or no block
        return False


def value_text(value: ir.Value) -> str:
    """A value as a message names it: `%name` (MLIR's numbering)."""
    return value.get_name()


def printed_location(op: ir.Operation) -> str:
    return str(op.location)


def check_attr_name(name, action: str) -> None:
    if not isinstance(name, str) or not name:
        raise ActionError(f"{action} needs a non-empty attribute name, got {name!r}")
