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


def _can_alias(frag: ir.Operation, index: int, output_index: int, taken: set, host_memory_kind: str) -> bool:
    """Whether operand `index` can share its buffer with an output: same type, not on host,
    same layout mode, not aliased yet."""
    return (frag.results[output_index].type == frag.operands[index].type
            and output_index not in taken
            and mpmd.string_entry(frag, RES_ATTRS, output_index, MEMORY_KIND_ATTR) != host_memory_kind
            and mpmd.same_entry(mpmd.attr_entry(frag, RES_ATTRS, output_index, LAYOUT_MODE_ATTR),
                                mpmd.attr_entry(frag, ARG_ATTRS, index, LAYOUT_MODE_ATTR)))


def _user_preferred_output(frag: ir.Operation, index: int) -> int | None:
    """For an operand that is a function argument with `tf.aliasing_output = K`: the result
    of `frag` that the function's K-th returned value comes from (through ops of one
    operand, e.g. a transfer), if it does."""
    aliasing = mpmd.function_argument_entry(frag.operands[index], ALIASING_ATTR)
    if not isinstance(aliasing, ir.IntegerAttr):
        return None
    returned = mpmd.body_terminator(mpmd.enclosing_function(frag)).operands
    k = ir.IntegerAttr(aliasing).value
    if not 0 <= k < len(returned):
        return None
    value = returned[k]
    while not isinstance(value.owner, ir.Block):
        producer = operation(value.owner)
        if producer.name == "mpmd.fragment":
            return ir.OpResult(value).result_number if producer == frag else None
        if len(producer.operands) != 1:
            return None
        value = producer.operands[0]
    return None


def _aliased_output(frag: ir.Operation, index: int, taken: set, host_memory_kind: str) -> int | None:
    """The output operand `index` shares its buffer with: the one the user's
    `tf.aliasing_output` leads to if it can, else the first output it can."""
    preferred = _user_preferred_output(frag, index)
    if preferred is not None and _can_alias(frag, index, preferred, taken, host_memory_kind):
        return preferred
    return next((output_index for output_index in range(len(frag.results))
                 if _can_alias(frag, index, output_index, taken, host_memory_kind)), None)


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
