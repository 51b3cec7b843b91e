"""Hooks of sdy-manual-axes-cleanup: manual axes as lists, in mesh order."""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.sharding import AxisRef, ManualAxes, Mesh, TensorSharding, codec


@hook
def manual_axes(attr: ir.Attribute) -> list[str]:
    return list(codec.manual_axes(attr).axes)


@hook
def manual_axes_attr(axes: list) -> ir.Attribute:
    return codec.manual_axes_attr(ManualAxes(tuple(axes)))


@hook
def sorted_in_mesh_order(axes: list, mesh: Mesh) -> list[str]:
    return sorted(axes, key=mesh.axis_index)


@hook
def body_is_empty(op: ir.Operation) -> bool:
    """Whether the body holds nothing but its terminator."""
    block = op.regions[0].blocks[0]
    return len(block.operations) <= 1


@hook
def common_mesh_sharding(ctx: RewriteContext, shardings: list) -> TensorSharding:
    """The first sharding whose mesh is not empty (else the first one): its mesh is the op's mesh."""
    meshes = ctx.meshes()
    for s in shardings:
        mesh = meshes.mesh_of(s)
        if mesh.axes or mesh.device_ids:
            return s
    return shardings[0]


@hook
def with_unused_manual_axes_replicated(ctx: RewriteContext, shardings: list, values: list, manual: list,
                                       mesh: Mesh, common: TensorSharding) -> list:
    meshes = ctx.meshes()
    out = []
    for s, v in zip(shardings, values):
        used = {a.name for a in s.all_axes()}
        unused = [a for a in manual if a not in used]
        if not isinstance(v.type, ir.ShapedType) or not unused:
            out.append(s)
            continue
        replicated = sorted(s.replicated + tuple(AxisRef(a) for a in unused), key=lambda a: a.sort_key(mesh))
        s = replace(s, replicated=tuple(replicated))
        if not meshes.mesh_of(s).axes and not meshes.mesh_of(s).device_ids:
            s = s.with_mesh(common.mesh_name, common.inline_mesh)
        out.append(s)
    return out
