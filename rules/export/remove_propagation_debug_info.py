"""Hooks of sdy-remove-propagation-debug-info: which attributes, and a function's argument/result entries."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import remove_dict_entry

# What propagation's debug options attach: on an op, and per block argument /
# result on a data-flow op.
DEBUG_ATTRIBUTES = ("sdy.propagation_edges", "sdy.block_arg_propagation_edges", "sdy.result_propagation_edges",
                    "sdy.sharding_origins", "sdy.block_arg_sharding_origins", "sdy.result_sharding_origins")


@hook
def debug_attributes() -> list[str]:
    return list(DEBUG_ATTRIBUTES)


@hook
def remove_argument_and_result_attrs(ctx: RewriteContext, func: ir.Operation, names: list) -> None:
    """Remove NAMES from every argument and result dictionary of FUNC."""
    for key in ("arg_attrs", "res_attrs"):
        if key not in func.attributes:
            continue
        for index in range(len(ir.ArrayAttr(func.attributes[key]))):
            for name in names:
                if remove_dict_entry(func, key, index, name):
                    ctx.mark_changed()
