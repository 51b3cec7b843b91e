"""The rewrite context: what rule actions and hooks see while a pass runs."""
from __future__ import annotations

from typing import Callable, TypeVar

from jaxlib.mlir import ir

from ..runtime.sharding import codec
from ..runtime.values import MeshTable, module_of, operation

T = TypeVar("T")


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
        self.params = passdef.params  # the pass's data for its hooks (rule file `params:`)
        self.library = library  # the run's RuleLibrary: data files, op registry, heuristics
        self.observer = observer  # the run's trace / statistics settings (driver.Observer), for stage hooks
        self.codec = codec
        self.rewriter = None  # the MLIR PatternRewriter while inside its driver
        self.root = None  # the op the current rule matched
        self.changed = False
        # ids of the Python handles of ops erased by actions (an erased handle
        # cannot be hashed or used); the handles are kept so ids stay unique.
        self.erased: dict[int, object] = {}
        self._meshes: MeshTable | None = None
        self.scratch: dict = {}  # per-run state for hooks that need it
        self.errors: list[str] = []  # error diagnostics emitted; the stage fails after its run

    def run_state(self, key: str, make: Callable[[], T]) -> T:
        """Per-run state of a hook module (`ctx.scratch[key]`), made on first use."""
        try:
            return self.scratch[key]
        except KeyError:
            state = self.scratch[key] = make()
            return state

    # ------------------------------------------------------------------ meshes
    def meshes(self) -> MeshTable:
        if self._meshes is None:
            self._meshes = MeshTable(self.module)
        return self._meshes

    def invalidate_meshes(self) -> None:
        self._meshes = None

    # ------------------------------------------------------------------ mutations
    def mark_changed(self) -> None:
        self.changed = True

    def emit_error(self, op, message: str) -> None:
        """Emit an error diagnostic at `op`; the driver fails the pass once the stage is done."""
        operation(op).location.emit_error(message)
        self.errors.append(message)
        self.changed = True

    def set_attr(self, op, name: str, attr: ir.Attribute) -> None:
        op = operation(op)
        attrs = op.attributes
        if name in attrs and attrs[name] == attr:
            return
        attrs[name] = attr
        self.changed = True

    def remove_attr(self, op, name: str) -> None:
        op = operation(op)
        if name in op.attributes:
            del op.attributes[name]
            self.changed = True

    def erase(self, op) -> None:
        op = operation(op)
        self.erased[id(op)] = op
        if self.rewriter is not None:
            self.rewriter.erase_op(op)
        else:
            op.erase()
        self.changed = True

    def replace_op(self, op, values) -> None:
        op = operation(op)
        values = list(values)
        self.erased[id(op)] = op
        if self.rewriter is not None:
            self.rewriter.replace_op(op, values)
        else:
            for old, new in zip(op.results, values):
                old.replace_all_uses_with(new)
            op.erase()
        self.changed = True

    def is_erased(self, op) -> bool:
        return id(operation(op)) in self.erased

    def replace_uses(self, old: ir.Value, new: ir.Value) -> None:
        if old == new:
            return
        if next(iter(old.uses), None) is None:
            return
        old.replace_all_uses_with(new)
        self.changed = True

    def insertion_point_before(self, op) -> ir.InsertionPoint:
        return ir.InsertionPoint(operation(op))

    def create_op(self, name: str, result_types, operands, attributes: dict, regions: int = 0,
                  before=None, loc=None) -> ir.Operation:
        anchor_op = operation(before if before is not None else self.root)
        with ir.InsertionPoint(anchor_op):
            new = ir.Operation.create(name, results=list(result_types), operands=list(operands),
                                      attributes=attributes, regions=regions,
                                      loc=loc if loc is not None else anchor_op.location)
        self.changed = True
        return new
