"""Hooks of mpmd-mark-aliasing-and-donation: last uses and the greedy choice of aliased outputs."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.mpmd import ARG_ATTRS, MEMORY_KIND_ATTR, RES_ATTRS
from sdy_dsl.runtime.values import operation

ALIASING_ATTR = "tf.aliasing_output"
DONATION_ATTR = "jax.buffer_donor"
LAYOUT_MODE_ATTR = "mhlo.layout_mode"

is_mpmd_function = hook(mpmd.is_mpmd_function)


@hook
def last_use_operand_indices(ctx: RewriteContext, frag: ir.Operation) -> list:
    """Operand indices of `frag` that are the last use of their value among the ops of the enclosing body.

    Only the operands of the body's own ops count (not of ops nested in their
    regions); computed once per function.
    """
    frag = operation(frag)
    # A context runs over one function, so its body's last uses are computed once.
    by_op = ctx.run_state("last-uses", lambda: _last_use_indices_by_op(operation(frag.parent)))
    return sorted(by_op.get(frag, []))


def _last_use_indices_by_op(func: ir.Operation) -> dict:
    last_use = {}
    for op in func.regions[0].blocks[0].operations:
        op = operation(op)
        for index, value in enumerate(op.operands):
            last_use[value] = (op, index)
    by_op: dict = {}
    for op, index in last_use.values():
        by_op.setdefault(op, []).append(index)
    return by_op


@hook
def arg_memory_kind(frag: ir.Operation, index: int) -> str | None:
    """The `mhlo.memory_kind` the fragment's `arg_attrs` give operand `index`, if any."""
    return mpmd.string_entry(frag, ARG_ATTRS, index, MEMORY_KIND_ATTR)


@hook
def is_user_donated(value: ir.Value) -> bool:
    """Whether `value` is a function argument marked `jax.buffer_donor = true`."""
    attr = mpmd.function_argument_entry(value, DONATION_ATTR)
    return isinstance(attr, ir.BoolAttr) and ir.BoolAttr(attr).value


@hook
def is_user_aliased(value: ir.Value) -> bool:
    """Whether `value` is a function argument with an integer `tf.aliasing_output`."""
    return isinstance(mpmd.function_argument_entry(value, ALIASING_ATTR), ir.IntegerAttr)


def _aliased_output(frag: ir.Operation, index: int, taken: set, host_memory_kind: str) -> int | None:
    """The first output not in `taken` that operand `index` can share its buffer with."""
    input_type = frag.operands[index].type
    input_layout = mpmd.attr_entry(frag, ARG_ATTRS, index, LAYOUT_MODE_ATTR)
    for output_index, output in enumerate(frag.results):
        if output.type != input_type or output_index in taken:
            continue
        if mpmd.string_entry(frag, RES_ATTRS, output_index, MEMORY_KIND_ATTR) == host_memory_kind:
            continue
        if not mpmd.same_entry(mpmd.attr_entry(frag, RES_ATTRS, output_index, LAYOUT_MODE_ATTR), input_layout):
            continue
        return output_index
    return None


@hook
def arg_attrs_with_aliasing_and_donation(frag: ir.Operation, donated: list, aliasable: list,
                                         host_memory_kind: str) -> ir.Attribute:
    """The fragment's `arg_attrs` (or empty dictionaries) with the donations and aliases added.

    Aliasable operands are handled in operand order; each output is aliased
    at most once (never one in `host_memory_kind`), and an operand left
    without an output is donated.
    """
    frag = operation(frag)
    donation = {DONATION_ATTR: ir.BoolAttr.get(True)}
    additions: dict[int, dict] = {index: donation for index in donated}
    taken: set = set()
    i32 = ir.IntegerType.get_signless(32)
    for index in sorted(aliasable):
        output_index = _aliased_output(frag, index, taken, host_memory_kind)
        if output_index is None:
            additions[index] = donation
        else:
            taken.add(output_index)
            additions[index] = {ALIASING_ATTR: ir.IntegerAttr.get(i32, output_index)}
    return mpmd.with_entries(frag, ARG_ATTRS, additions)
