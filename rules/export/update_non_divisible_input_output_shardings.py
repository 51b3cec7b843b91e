"""Hooks of sdy-update-non-divisible-input-output-shardings: the evenly sharded prefix."""
from __future__ import annotations

import math
from dataclasses import replace

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.sharding import AxisRef, TensorSharding
from sdy_dsl.runtime.values import set_func_sharding, SHARDING_ATTR, codec


def _static_shape(t: ir.Type):
    if isinstance(t, ir.RankedTensorType) and t.has_static_shape:
        return list(t.shape)
    return None


def _even(ctx: RewriteContext, s: TensorSharding, t: ir.Type) -> TensorSharding:
    shape = _static_shape(t)
    if s is None or shape is None:
        return s
    mesh = ctx.meshes().mesh_of(s)
    if all(size % dim.size(mesh) == 0 for dim, size in zip(s.dims, shape)):
        return s  # evenly sharded already
    dims = []
    for dim, size in zip(s.dims, shape):
        if size % dim.size(mesh) == 0:
            dims.append(dim)
            continue
        left, axes = size, []
        for axis in dim.axes:
            gcd = math.gcd(axis.size(mesh), left)
            if gcd == 1:
                break
            if gcd == axis.size(mesh):
                axes.append(axis)
                left //= gcd
                continue
            axes.append(AxisRef(axis.name, axis.pre_size, gcd))
            break
        dims.append(replace(dim, axes=tuple(axes), priority=None))
    return replace(s, dims=tuple(dims))


@hook
def evenly_sharded(ctx: RewriteContext, sharding: TensorSharding | ir.Attribute | None, value: ir.Value) -> TensorSharding | None:
    """The largest prefix of `sharding` that shards `value` evenly (none stays none)."""
    return _even(ctx, sharding, value.type)


@hook
def func_arguments(func: ir.Operation) -> list:
    return list(func.regions[0].blocks[0].arguments)


@hook
def make_func_result_shardings_even(ctx: RewriteContext, func: ir.Operation) -> None:
    attrs = func.attributes
    if "res_attrs" not in attrs:
        return
    types = ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value).results
    for i, d in enumerate(ir.ArrayAttr(attrs["res_attrs"])):
        d = ir.DictAttr(d)
        if SHARDING_ATTR not in d:
            continue
        old = codec.tensor_sharding(d[SHARDING_ATTR])
        new = _even(ctx, old, types[i])
        if new != old:
            set_func_sharding(func, "res_attrs", i, new)
            ctx.mark_changed()
