"""Hook of sdy-constant-or-scalar-merger: each op of a kind replaced by the
first one of its key seen in its block.

Only ops of the kinds' names are visited (MLIR's walk finds them without
calling Python for the others); the key of an op is read once.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.interp.kernels import attribute_items
from sdy_dsl.runtime import interfaces
from sdy_dsl.runtime.values import PostOrderFinder


class Kinds:
    """The kinds of the rule file's `params:`: op names by kind, and whether
    a constant's name has the trait always (else ask the op)."""

    def __init__(self, params):
        table = interfaces.table()
        self.trait = str(params.constant_trait)
        self.constants = {name: table.trait_by_name(name, self.trait) for name in table.ops
                          if table.trait_by_name(name, self.trait) is not False}
        self.scalar_expansions = frozenset(str(name) for name in params.scalar_expansions)
        self.find = PostOrderFinder(set(self.constants) | self.scalar_expansions)

    def is_constant(self, op: ir.Operation, name: str) -> bool:
        always = self.constants.get(name, False)
        return always if always is not None else interfaces.table().has_trait(op, self.trait)


def _attributes(op: ir.Operation, name: str) -> tuple:
    return tuple(attribute_items(name, op.attributes))


def _is_scalar(value: ir.Value) -> bool:
    t = value.type
    return isinstance(t, ir.RankedTensorType) and t.rank == 0


def _key(op: ir.Operation, name: str, kinds: Kinds) -> tuple | None:
    """What must be equal for two ops to merge (None: the op merges with none):
    the attribute dictionary and the block, and for a scalar expansion its
    result type and operand."""
    if kinds.is_constant(op, name):
        return ("constant", op.block, _attributes(op, name))
    if name in kinds.scalar_expansions and len(op.operands) == 1:
        operand = op.operands[0]
        if _is_scalar(operand):
            return ("scalar-expansion", op.block, _attributes(op, name), op.result.type, operand)
    return None


def _replace(op: ir.Operation, first: ir.Operation) -> None:
    results = op.results
    if len(results) == 1:
        results[0].replace_all_uses_with(first.result)
    else:
        for old, new in zip(results, first.results):
            old.replace_all_uses_with(new)
    op.erase()


@hook
def merge_equal_ops(ctx: RewriteContext) -> None:
    """Replace every constant or scalar expansion by the first equal one visited before it."""
    kinds = ctx.pass_state("merger-kinds", lambda: Kinds(ctx.params))
    first_of: dict = {}
    for op in kinds.find(ctx.anchor):
        key = _key(op, op.name, kinds)
        if key is None:
            continue
        first = first_of.setdefault(key, op)
        if first is op:
            continue
        ctx.record_change("merge", op)
        _replace(op, first)
        ctx.mark_changed()
