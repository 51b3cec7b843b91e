"""Hooks of sdy-propagate-to-func-results."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import call_graph_export
from sdy_dsl.runtime.sharding import TensorSharding
from sdy_dsl.runtime.values import set_func_sharding


def _main(ctx: RewriteContext) -> ir.Operation:
    main = ctx.run_state("main-func", lambda: call_graph_export.main_func(ctx.module))
    if main is None:
        raise ValueError(f"the module has no main function (no '@{call_graph_export.MAIN_FUNC_NAME}' "
                         f"and more than one function)")
    return main


@hook
def is_main_func(ctx: RewriteContext, func: ir.Operation) -> bool:
    return func == _main(ctx)


@hook
def set_func_result_sharding(ctx: RewriteContext, func: ir.Operation, index: int,
                             sharding: TensorSharding | None) -> None:
    """Set result `index`'s `sdy.sharding` of `func` (none: remove it)."""
    if call_graph_export.func_result_sharding(func, index) == sharding:
        return
    set_func_sharding(func, "res_attrs", index, sharding)
    ctx.mark_changed()
