"""Hooks of mpmd-delay-transfers-from-cpu: where a mesh tensor lives."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.runtime import mpmd

is_mpmd_function = hook(mpmd.is_mpmd_function)
is_entry_point_function = hook(mpmd.is_entry_point_function)
mesh_name_ends_with = hook(mpmd.mesh_name_ends_with)


@hook
def memory_kind(value: ir.Value) -> str | None:
    """The memory kind of a mesh tensor, or none when the type names none."""
    mesh_tensor = mpmd.mesh_tensor_type(value.type)
    return mesh_tensor.memory_kind if mesh_tensor is not None else None
