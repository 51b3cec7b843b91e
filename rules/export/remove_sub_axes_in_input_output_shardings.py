"""Hooks of sdy-remove-sub-axes-in-input-output-shardings: the main function, and a sharding without sub-axes."""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.sharding import DimSharding, TensorSharding
from sdy_dsl.runtime.values import SHARDING_ATTR, codec, operation, set_func_sharding

MAIN = "main"


def _functions(module: ir.Operation) -> list[ir.Operation]:
    return [op for op in map(operation, module.regions[0].blocks[0].operations) if op.name == "func.func"]


@hook
def main_func_of(module: ir.Operation) -> ir.Operation | None:
    """`@main`, else the module's only function, else none."""
    functions = _functions(operation(module))
    for func in functions:
        if ir.StringAttr(func.attributes["sym_name"]).value == MAIN:
            return func
    return functions[0] if len(functions) == 1 else None


@hook
def is_main_func(ctx: RewriteContext, func: ir.Operation) -> bool:
    func = operation(func)
    parent = func.parent
    if parent is None or parent.name != "builtin.module":
        return False
    # Once per run for the pass's module (the pass changes no function list), not per function.
    main = ctx.run_state("main-func", lambda: main_func_of(ctx.module)) if parent == ctx.module \
        else main_func_of(parent)
    return main is not None and main == func


@hook
def require_main_func(ctx: RewriteContext) -> None:
    """A module without a main function is an error (the reference aborts)."""
    if main_func_of(ctx.module) is None:
        ctx.emit_error(ctx.module, "Failed to lookup function: main")


def _open_dim_without_sub_axes(dim: DimSharding) -> DimSharding:
    if dim.is_closed:
        return dim
    first_sub_axis = next((i for i, axis in enumerate(dim.axes) if axis.is_sub_axis), len(dim.axes))
    return replace(dim, axes=dim.axes[:first_sub_axis])


@hook
def without_open_sub_axes(sharding: TensorSharding | ir.Attribute) -> TensorSharding:
    """SHARDING with each open dimension cut before its first sub-axis."""
    if isinstance(sharding, ir.Attribute):
        sharding = codec.tensor_sharding(sharding)
    return replace(sharding, dims=tuple(_open_dim_without_sub_axes(d) for d in sharding.dims))


@hook
def remove_sub_axes_in_io_shardings(ctx: RewriteContext, func: ir.Operation) -> None:
    """Cut the open dimensions of FUNC's argument and result shardings before their first sub-axis."""
    for key in ("arg_attrs", "res_attrs"):
        if key not in func.attributes:
            continue
        for i, entry in enumerate(ir.ArrayAttr(func.attributes[key])):
            entry = ir.DictAttr(entry)
            if SHARDING_ATTR not in entry:
                continue
            old = codec.tensor_sharding(entry[SHARDING_ATTR])
            new = without_open_sub_axes(old)
            if new != old:
                set_func_sharding(func, key, i, new)
                ctx.mark_changed()
