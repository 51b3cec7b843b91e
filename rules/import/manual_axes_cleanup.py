"""Hooks of sdy-manual-axes-cleanup: manual axes as lists, in mesh order."""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.sharding import AxisRef, ManualAxes, Mesh, TensorSharding, codec, axis_set_difference, sort_and_merge_axes


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
    out = []
    for s, v in zip(shardings, values):
        # The parts of the manual axes the sharding does not use (sub-axes too).
        unused = axis_set_difference([AxisRef(a) for a in manual], s.all_axes(), mesh)
        if not isinstance(v.type, ir.ShapedType) or not unused:
            out.append(s)
            continue
        replicated = sort_and_merge_axes(s.replicated + tuple(unused), mesh)
        # An updated sharding moves to the op's common mesh (a symbol or an
        # inlined mesh, as the first sharding on a non-empty mesh writes it).
        out.append(replace(s, replicated=tuple(replicated)).with_mesh(common.mesh_name, common.inline_mesh))
    return out
