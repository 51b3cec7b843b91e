"""Hooks of mpmd-mark-aliasing-and-donation: last uses and the greedy choice of aliased outputs."""
from __future__ import annotations

from pathlib import Path

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook, load_hook_module
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation

_shared = load_hook_module(Path(__file__).with_name("fragment_attrs.py"))
_entry, _is_pinned_host = _shared.entry, _shared.is_pinned_host
MEMORY_KIND_ATTR, PINNED_HOST = _shared.MEMORY_KIND_ATTR, _shared.PINNED_HOST

ALIASING_ATTR = "tf.aliasing_output"
DONATION_ATTR = "jax.buffer_donor"
LAYOUT_MODE_ATTR = "mhlo.layout_mode"


def _func_arg_attr(value: ir.Value, name: str) -> ir.Attribute | None:
    """`name` among the arg attributes of the function whose argument `value` is, or None."""
    if not isinstance(value.owner, ir.Block):
        return None
    func = operation(value.owner.owner)
    if func.name != "func.func" or "arg_attrs" not in func.attributes:
        return None
    entry = ir.DictAttr(ir.ArrayAttr(func.attributes["arg_attrs"])[ir.BlockArgument(value).arg_number])
    return entry[name] if name in entry else None


@hook
def last_use_operand_indices(ctx: RewriteContext, frag: ir.Operation) -> list:
    """Operand indices of `frag` that are the last use of their value among the ops of the enclosing body.

    Only the operands of the body's own ops count (not of ops nested in their
    regions); computed once per function.
    """
    frag = operation(frag)
    # A context runs over one function, so its body's last uses are computed once.
    if "last-uses" not in ctx.scratch:
        last_use = {}
        for op in operation(frag.parent).regions[0].blocks[0].operations:
            op = operation(op)
            for index, value in enumerate(op.operands):
                last_use[value] = (op, index)
        by_op: dict = {}
        for op, index in last_use.values():
            by_op.setdefault(op, []).append(index)
        ctx.scratch["last-uses"] = by_op
    return sorted(ctx.scratch["last-uses"].get(frag, []))


@hook
def is_arg_on_host(frag: ir.Operation, index: int) -> bool:
    """Whether the fragment's `arg_attrs` put operand `index` in pinned host memory."""
    return _is_pinned_host(_entry(operation(frag), "arg_attrs", index, MEMORY_KIND_ATTR))


@hook
def is_user_donated(value: ir.Value) -> bool:
    """Whether `value` is a function argument marked `jax.buffer_donor = true`."""
    attr = _func_arg_attr(value, DONATION_ATTR)
    return attr is not None and isinstance(attr, ir.BoolAttr) and ir.BoolAttr(attr).value


@hook
def is_user_aliased(value: ir.Value) -> bool:
    """Whether `value` is a function argument with an integer `tf.aliasing_output`."""
    attr = _func_arg_attr(value, ALIASING_ATTR)
    return attr is not None and isinstance(attr, ir.IntegerAttr)


def _aliased_output(frag: ir.Operation, index: int, taken: set) -> int | None:
    """The first output not in `taken` that operand `index` can share its buffer with."""
    input_type = frag.operands[index].type
    input_layout = _entry(frag, "arg_attrs", index, LAYOUT_MODE_ATTR)
    for output_index, output in enumerate(frag.results):
        if output.type != input_type or output_index in taken:
            continue
        if _is_pinned_host(_entry(frag, "res_attrs", output_index, MEMORY_KIND_ATTR)):
            continue
        output_layout = _entry(frag, "res_attrs", output_index, LAYOUT_MODE_ATTR)
        if (output_layout is None) != (input_layout is None) or (output_layout is not None and output_layout != input_layout):
            continue
        return output_index
    return None


@hook
def arg_attrs_with_aliasing_and_donation(frag: ir.Operation, donated: list, aliasable: list) -> ir.Attribute:
    """The fragment's `arg_attrs` (or empty dictionaries) with the donations and aliases added.

    Aliasable operands are handled in operand order; each output is aliased
    at most once, and an operand left without an output is donated.
    """
    frag = operation(frag)
    if "arg_attrs" in frag.attributes:
        entries = [ir.DictAttr(d) for d in ir.ArrayAttr(frag.attributes["arg_attrs"])]
    else:
        entries = [ir.DictAttr.get({}) for _ in frag.operands]
    additions: dict[int, dict] = {i: {DONATION_ATTR: ir.BoolAttr.get(True)} for i in donated}
    taken: set = set()
    for index in sorted(aliasable):
        output_index = _aliased_output(frag, index, taken)
        if output_index is None:
            additions[index] = {DONATION_ATTR: ir.BoolAttr.get(True)}
        else:
            taken.add(output_index)
            i32 = ir.IntegerType.get_signless(32)
            additions[index] = {ALIASING_ATTR: ir.IntegerAttr.get(i32, output_index)}
    for index, added in additions.items():
        merged = {named.name: named.attr for named in entries[index]}
        merged.update(added)
        entries[index] = ir.DictAttr.get(merged)
    return ir.ArrayAttr.get(entries)
