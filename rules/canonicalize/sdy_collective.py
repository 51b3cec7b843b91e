"""Hooks of the `sdy-collective` canonicalization patterns: reading the
collectives' axis attributes, and the reduce-scatter fusion."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import interfaces
from sdy_dsl.runtime.collectives import (
    all_to_all_params_text, axes_per_dim_text, parse_all_to_all_params, parse_axes, parse_axes_per_dim)
from sdy_dsl.runtime.explicit_reshards_util import is_equivalent
from sdy_dsl.runtime.sharding import DimSharding, TensorSharding, add_or_merge, codec, sort_and_merge_axes
from sdy_dsl.runtime.values import MeshTable, operation


@hook
def no_axes(axes: ir.Attribute) -> bool:
    """Whether a collective's axis attribute (a list, or one list per dimension) names no axis."""
    return not parse_axes(str(axes))


@hook
def same_sharding_as(value: ir.Value, sharding: ir.Attribute) -> bool:
    """Whether VALUE already has (an equivalent of) SHARDING."""
    current = interfaces.sharding_of(value)
    return current is not None and is_equivalent(current, codec.tensor_sharding(sharding))


@hook
def same_axes_in_mesh_order(ctx: RewriteContext, per_dim: ir.Attribute, axes: ir.Attribute,
                            sharding: ir.Attribute) -> bool:
    """Whether the axes of PER_DIM, sorted in mesh order and merged, are AXES."""
    mesh = ctx.meshes().mesh_of(codec.tensor_sharding(sharding))
    flat = [a for dim in parse_axes_per_dim(str(per_dim)) for a in dim]
    return tuple(sort_and_merge_axes(flat, mesh)) == parse_axes(str(axes))


@hook
def fused_all_to_all_params(inner: ir.Attribute, outer: ir.Attribute) -> ir.Attribute | None:
    """Both parameter lists as one, ordered by source dimension; None when they share a dimension."""
    params = parse_all_to_all_params(str(inner)) + parse_all_to_all_params(str(outer))
    dims = [d for _, src, tgt in params for d in (src, tgt)]
    if len(dims) != len(set(dims)):
        return None
    return codec.attr(all_to_all_params_text(sorted(params, key=lambda p: p[1])))


@hook
def reduce_scatter_fusion(ctx: RewriteContext, op: ir.Operation) -> tuple | None:
    """For the all-slice OP of an all-reduce: (reduce-scatter axes, residual
    slicing axes or None, the reduce-scatter's sharding) when every user of
    the all-reduce is this all-slice (the first) or its twin, and every
    reduction axis starts some dimension's slicing axes; else None."""
    all_reduce = operation(op.operands[0].owner)
    slicing = op.attributes["slicing_axes"]
    for use in all_reduce.results[0].uses:
        user = operation(use.owner)
        if user.name != "sdy.all_slice" or user.attributes["slicing_axes"] != slicing:
            return None
        if user != op and user.block == op.block and user.is_before_in_block(op):
            return None
    remaining = list(parse_axes(str(all_reduce.attributes["reduction_axes"])))
    scatter, residual = [], []
    for axes in parse_axes_per_dim(str(slicing)):
        i = 0
        while i < len(axes) and axes[i] in remaining:
            remaining.remove(axes[i])
            i += 1
        scatter.append(axes[:i])
        residual.append(axes[i:])
    if remaining:
        return None
    ar_out = codec.tensor_sharding(all_reduce.attributes["out_sharding"])
    mesh = ctx.meshes().mesh_of(ar_out)
    source = interfaces.sharding_of(all_reduce.operands[0])
    if source is None:
        source = TensorSharding.replicated_like(ar_out.mesh_name, len(scatter), inline_mesh=ar_out.inline_mesh)
    dims = []
    for dim, extra in zip(source.dims, scatter):
        axes = list(dim.axes)
        for a in extra:
            add_or_merge(axes, a, mesh)
        dims.append(DimSharding(tuple(axes), True))
    slice_out = codec.tensor_sharding(op.attributes["out_sharding"])
    out = TensorSharding(ar_out.mesh_name, tuple(dims), slice_out.replicated, slice_out.unreduced,
                         ar_out.inline_mesh)
    return tuple(scatter), (tuple(residual) if any(residual) else None), out


@hook
def fuse_reduce_scatter(ctx: RewriteContext, op: ir.Operation, fusion: tuple) -> None:
    """Replace the all-reduce and its all-slice users (OP first) by the reduce-scatter (+ all-slice) of FUSION."""
    scatter, residual, out = fusion
    all_reduce = operation(op.operands[0].owner)
    attrs = {"reduce_scatter_axes": codec.attr(axes_per_dim_text(scatter)),
             "out_sharding": codec.tensor_sharding_attr(out)}
    if "reduction_op" in all_reduce.attributes:
        attrs["reduction_op"] = all_reduce.attributes["reduction_op"]
    source = all_reduce.operands[0]
    rs = ctx.create_op("sdy.reduce_scatter", [source.type], [source], attrs, before=op, loc=all_reduce.location)
    result = rs.results[0]
    if residual is not None:
        result = ctx.create_op("sdy.all_slice", [result.type], [result], {
            "slicing_axes": codec.attr(axes_per_dim_text(residual)),
            "out_sharding": op.attributes["out_sharding"]}, before=op, loc=op.location).results[0]
    for user in [operation(u.owner) for u in all_reduce.results[0].uses]:
        ctx.replace_op(user, [result])
    ctx.erase(all_reduce)
