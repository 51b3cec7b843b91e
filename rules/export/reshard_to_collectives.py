"""Hooks of sdy-reshard-to-collectives: which reshards become collectives,
and building them; the chain itself is sdy_dsl/runtime/collectives.py."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import interfaces
from sdy_dsl.runtime.collectives import CollectiveChain, Step, all_to_all_params_text, axes_per_dim_text
from sdy_dsl.runtime.explicit_reshards_util import is_equivalent
from sdy_dsl.runtime.sharding import Mesh, TensorSharding, codec
from sdy_dsl.runtime.values import operation


def bypass_barriers(value: ir.Value) -> ir.Value:
    """The value a chain of propagation barriers forwards."""
    table = interfaces.table()
    while isinstance(value, ir.OpResult) and table.barrier_attr(operation(value.owner).name) is not None:
        value = operation(value.owner).operands[0]
    return value


def _mesh(ctx: RewriteContext, sharding: TensorSharding | None) -> Mesh | None:
    if sharding is None:
        return None
    if sharding.mesh_name is None:
        return sharding.inline_mesh
    return ctx.meshes().meshes.get(sharding.mesh_name)


def _maximal(ctx: RewriteContext, sharding: TensorSharding | None) -> bool:
    mesh = _mesh(ctx, sharding)
    return mesh is not None and mesh.is_maximal


def _same_mesh(ctx: RewriteContext, a: TensorSharding, b: TensorSharding) -> bool:
    """Shardy's isEquivalentOnMesh: one mesh, or meshes that differ only in device order."""
    if a.mesh_text() == b.mesh_text():
        return True
    ma, mb = _mesh(ctx, a), _mesh(ctx, b)
    return ma is not None and mb is not None and ma.is_maximal == mb.is_maximal and ma.axes == mb.axes


@hook
def needs_collectives(ctx: RewriteContext, op: ir.Operation) -> bool:
    """Whether the reshard OP is lowered (the C++ pass's dynamic legality, negated)."""
    src = interfaces.sharding_of(bypass_barriers(op.operands[0]))
    out = codec.tensor_sharding(op.attributes["sharding"])
    if ctx.options["keep-redundant-reshards"] and is_equivalent(src, out):
        return False
    if _maximal(ctx, src) or _maximal(ctx, out):
        return False
    if out.is_fully_replicated:
        return True
    return src is None or _same_mesh(ctx, src, out)


def _attributes(step: Step) -> dict:
    attrs = {"out_sharding": codec.tensor_sharding_attr(step.sharding)}
    if step.kind == "all_gather":
        attrs["gathering_axes"] = codec.attr(axes_per_dim_text(step.axes))
    elif step.kind == "all_slice":
        attrs["slicing_axes"] = codec.attr(axes_per_dim_text(step.axes))
    elif step.kind == "all_to_all":
        attrs["params"] = codec.attr(all_to_all_params_text([(step.axes, step.src_dim, step.tgt_dim)]))
    return attrs


@hook
def reshard_to_collectives(ctx: RewriteContext, op: ir.Operation) -> None:
    """Replace the reshard OP by its chain of collectives (none: by its operand)."""
    source = bypass_barriers(op.operands[0])
    out = codec.tensor_sharding(op.attributes["sharding"])
    src = interfaces.sharding_of(source)
    rank = len(out.dims)
    if src is None:
        src = TensorSharding.replicated_like(out.mesh_name, rank, is_closed=False, inline_mesh=out.inline_mesh)
    if src.rank != rank:
        ctx.emit_error(op, "failed to legalize operation 'sdy.reshard' that was explicitly marked illegal")
        return
    if out.is_fully_replicated:
        if src.is_fully_replicated:
            ctx.replace_op(op, [op.operands[0]])
            return
        out = TensorSharding.replicated_like(src.mesh_name, rank, is_closed=True, inline_mesh=src.inline_mesh)
    if not _same_mesh(ctx, src, out):
        ctx.emit_error(op, "failed to legalize operation 'sdy.reshard' that was explicitly marked illegal")
        return
    shape = ir.ShapedType(op.results[0].type).shape
    value = source
    for step in CollectiveChain(src, out, _mesh(ctx, src), shape, ctx.params.step_order, ctx.params.permute).run():
        new = ctx.create_op(f"sdy.{step.kind}", [value.type], [value], _attributes(step), before=op,
                            loc=op.location)
        value = new.results[0]
    ctx.replace_op(op, [value])
