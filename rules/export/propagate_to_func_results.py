"""Hook of sdy-propagate-to-func-results: one stage over the module's functions."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph_export, interfaces
from sdy_dsl.runtime.sharding import TensorSharding, codec
from sdy_dsl.runtime.values import SHARDING_ATTR, block_terminator


@hook
def set_func_result_shardings(ctx: RewriteContext) -> None:
    """Every function but the main one whose entry block ends in `return-op`:
    each result takes the sharding of the value it returns (none: removed)."""
    funcs = call_graph_export.funcs_of(ctx.module)
    main = call_graph_export.main_func(ctx.module)
    return_op = ctx.params.return_op
    memo: dict[tuple, ir.Attribute | None] = {}
    for func in funcs:
        if (main is not None and func == main) or not len(func.regions[0].blocks):
            continue
        terminator = _last_op(func.regions[0].blocks[0])
        if terminator is None or terminator.name != return_op:
            continue
        if main is None:
            ctx.emit_error(func, f"the module has no main function (no '@{call_graph_export.MAIN_FUNC_NAME}' "
                                 f"and more than one function)")
            return
        attrs = func.attributes
        old = attrs["res_attrs"] if "res_attrs" in attrs else None
        shardings = tuple(interfaces.sharding_of(v) for v in terminator.operands)
        key = (old, shardings)
        if key not in memo:
            memo[key] = _with_shardings(old, shardings)
        new = memo[key]
        if new is not None:
            ctx.record_change("set-result-shardings", func)
            attrs["res_attrs"] = new
            ctx.mark_changed()


def _last_op(block: ir.Block) -> ir.Operation | None:
    try:
        return block_terminator(block)
    except IndexError:  # an empty block
        return None


def _with_shardings(old: ir.Attribute | None, shardings: tuple[TensorSharding | None, ...]) -> ir.Attribute | None:
    """`res_attrs` whose entry i has `shardings[i]` as `sdy.sharding` (None: without one);
    None when `old` has them already."""
    dicts = list(ir.ArrayAttr(old)) if old is not None else [ir.DictAttr.get({})] * len(shardings)
    changed = False
    for i, sharding in enumerate(shardings):
        entry = ir.DictAttr(dicts[i])
        current = codec.tensor_sharding(entry[SHARDING_ATTR]) if SHARDING_ATTR in entry else None
        if current == sharding:
            continue
        entries = {n.name: n.attr for n in entry}
        if sharding is None:
            del entries[SHARDING_ATTR]
        else:
            entries[SHARDING_ATTR] = codec.tensor_sharding_attr(sharding)
        dicts[i] = ir.DictAttr.get(entries)
        changed = True
    return ir.ArrayAttr.get(dicts) if changed else None
