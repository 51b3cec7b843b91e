"""Hook of sdy-sink-func-data-flow-edges: one stage over the function's edges
(the function's own argument shardings are written once, at the end)."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph_export, interfaces
from sdy_dsl.runtime.sharding import TensorSharding, codec
from sdy_dsl.runtime.values import SHARDING_ATTR, ops_named

EDGE = "sdy.func_data_flow_edge"


@hook
def sink_func_data_flow_edges(ctx: RewriteContext) -> None:
    """Each edge hands its sharding to its input (an unsharded edge leaves a
    sharded input fully open on its mesh) and is replaced by that input."""
    func = ctx.anchor
    entry = func.regions[0].blocks[0] if len(func.regions) and len(func.regions[0].blocks) else None
    arg_shardings: dict[int, TensorSharding] = {}
    for edge in ops_named(func, [EDGE]):
        source = edge.operands[0]
        result = edge.results[0]
        sharding = interfaces.sharding_of(result)
        if sharding is None:
            current = interfaces.sharding_of(source)
            sharding = call_graph_export.fully_open_like(current) if current is not None else None
        if sharding is not None:
            if isinstance(source.owner, ir.Block) and source.owner == entry:
                arg_shardings[ir.BlockArgument(source).arg_number] = sharding
            else:
                interfaces.set_sharding(source, sharding)
        ctx.record_change("sink-edge", edge)
        result.replace_all_uses_with(source)
        edge.erase()
        ctx.mark_changed()
    if arg_shardings:
        _set_arg_shardings(func, len(entry.arguments), arg_shardings)


def _set_arg_shardings(func: ir.Operation, count: int, shardings: dict[int, TensorSharding]) -> None:
    """`sdy.sharding` of each argument of `shardings` in the function's `arg_attrs`."""
    attrs = func.attributes
    dicts = list(ir.ArrayAttr(attrs["arg_attrs"])) if "arg_attrs" in attrs else [ir.DictAttr.get({})] * count
    for index, sharding in shardings.items():
        entries = {n.name: n.attr for n in ir.DictAttr(dicts[index])}
        entries[SHARDING_ATTR] = codec.tensor_sharding_attr(sharding)
        dicts[index] = ir.DictAttr.get(entries)
    attrs["arg_attrs"] = ir.ArrayAttr.get(dicts)
