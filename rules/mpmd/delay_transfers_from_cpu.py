"""Hooks of mpmd-delay-transfers-from-cpu: where a mesh tensor lives.

The Python bindings have no accessors for `!mpmd.mesh_tensor`, so its mesh
name and memory kind are read from the printed type:
`!mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>[, sharding=<...>][, memory_kind="pinned_host"]>`.
"""
from __future__ import annotations

import re

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook

_MESH_NAME = re.compile(r'^!mpmd\.mesh_tensor<"((?:[^"\\]|\\.)*)"')
# The memory kind is the type's last parameter (after any sharding).
_MEMORY_KIND = re.compile(r', memory_kind="((?:[^"\\]|\\.)*)">$')


@hook
def mesh_name_ends_with(value: ir.Value, suffix: str) -> bool:
    """Whether `value` is a mesh tensor on a mesh whose name ends with `suffix`."""
    found = _MESH_NAME.match(str(value.type))
    return bool(found) and found.group(1).endswith(suffix)


@hook
def memory_kind(value: ir.Value) -> str | None:
    """The memory kind of a mesh tensor, or none when the type names none."""
    found = _MEMORY_KIND.search(str(value.type))
    return found.group(1) if found else None
