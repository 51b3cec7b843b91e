"""Hooks of sdy-sink-data-flow-edges: the shardings (and debug info) the edges leave on their op."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import interfaces


@hook
def shardings_of_edges(owners: list) -> list:
    """The owners' edge shardings, unsharded edges fully open on the first sharded
    edge's mesh; empty when no edge has a sharding (the owners keep theirs)."""
    return interfaces.shardings_of_edges(owners)


@hook
def record_edge_debug_info(ctx: RewriteContext, op: ir.Operation, edge_attr: str, block_arg_key: str, result_key: str) -> None:
    """Set `block_arg_key` / `result_key` to the `edge_attr` of the owners' edges that have it."""
    for key, owners in ((block_arg_key, interfaces.data_flow_block_arg_owners(op)),
                        (result_key, interfaces.data_flow_result_owners(op))):
        entries = []
        for owner in owners:
            edge = interfaces.data_flow_edge_of(owner)
            if edge is not None and edge_attr in edge.attributes:
                entries.append(edge.attributes[edge_attr])
        ctx.set_attr(op, key, ir.ArrayAttr.get(entries))
