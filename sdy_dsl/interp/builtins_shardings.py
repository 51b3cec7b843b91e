"""The built-ins that build and edit shardings and read tensor facts (registered
under their names by builtins.py). Every sharding goes through the sharding
algebra (runtime/sharding.py) and is checked against its mesh: known axes,
none used twice."""
from __future__ import annotations

import math

from jaxlib.mlir import ir

from ..errors import did_you_mean
from ..runtime import interfaces
from ..runtime.sharding import (AxisRef, DimSharding, Mesh, ShardingSyntaxError, TensorSharding, codec,
                                parse_axis_ref)
from ..runtime.values import element_bytes, per_device_bytes, rank_of, tensor_type
from .context import RewriteContext, describe


def to_sharding(x) -> TensorSharding | None:
    """A TensorSharding from an sdy sharding attribute (or one already decoded)."""
    if x is None or isinstance(x, TensorSharding):
        return x
    return codec.tensor_sharding(x)


# --------------------------------------------------------------------------- building and editing shardings


def sharding_literal(ctx: RewriteContext, mesh, dims: list) -> TensorSharding:
    """`sharding(MESH, DIMS)`: a new closed sharding (see builtins.sharding)."""
    mesh_name, inline = _mesh_ref(ctx, mesh, "sharding")
    if not isinstance(dims, (list, tuple)):
        raise ValueError(f"sharding: DIMS must be a list of axis lists, got {describe(dims)}")
    made = TensorSharding(mesh_name, tuple(_dim_literal(d, i) for i, d in enumerate(dims)), inline_mesh=inline)
    return _checked(ctx, made, "sharding")


def _mesh_ref(ctx: RewriteContext, where, what: str) -> tuple[str | None, Mesh | None]:
    """(mesh symbol, inline mesh) of a new sharding, from a mesh name, a mesh,
    a sharding or a value that has one. A mesh the module declares is referred
    to by its symbol."""
    table = ctx.meshes()
    if isinstance(where, str):
        if where not in table.meshes:
            raise ValueError(f"{what}: the module has no sdy.mesh named '{where}'"
                             f"{did_you_mean(where, table.meshes)}")
        return where, None
    if isinstance(where, ir.Value):
        found = interfaces.sharding_of(where)
        if found is None:
            raise ValueError(f"{what}: {where.get_name()} has no sharding to take the mesh from; "
                             f"name the mesh instead (e.g. \"{next(iter(table.meshes), 'mesh')}\")")
        where = found
    if isinstance(where, ir.Attribute):
        where = to_sharding(where)
    if isinstance(where, TensorSharding):
        return where.mesh_name, where.inline_mesh
    if isinstance(where, Mesh):
        for name, mesh in table.meshes.items():
            if mesh is where:
                return name, None
        for name, mesh in table.meshes.items():
            if mesh == where:
                return name, None
        return None, where
    raise ValueError(f"{what}: expected a mesh, a mesh name, a sharding or a value, got {describe(where)}")


def _axis(text, what: str) -> AxisRef:
    if isinstance(text, AxisRef):
        return text
    if not isinstance(text, str):
        raise ValueError(f"{what}: an axis is a name such as \"x\" or a sub-axis \"x:(1)2\", got {describe(text)}")
    try:
        return parse_axis_ref(text)
    except ShardingSyntaxError:
        raise ValueError(f"{what}: '{text}' is not an axis (a name such as \"x\" or a sub-axis \"x:(1)2\")") from None


def _dim_literal(axes, index: int) -> DimSharding:
    if isinstance(axes, DimSharding):
        return axes
    if not isinstance(axes, (list, tuple)):
        raise ValueError(f"sharding: dimension {index} must be a list of axes, got {describe(axes)}")
    is_open = "?" in axes
    return DimSharding(tuple(_axis(a, "sharding") for a in axes if a != "?"), not is_open)


def _checked(ctx: RewriteContext, s: TensorSharding, what: str) -> TensorSharding:
    """S, once its axes are the mesh's and none is used twice."""
    mesh = ctx.meshes().mesh_of(s)
    seen: list[AxisRef] = []
    for axis in s.all_axes():
        if not mesh.has_axis(axis.name):
            raise ValueError(f"{what}: the mesh has no axis '{axis.name}'{did_you_mean(axis.name, mesh.axis_names)} "
                             f"(axes: {', '.join(mesh.axis_names)})")
        if any(axis.overlaps(other, mesh) for other in seen):
            raise ValueError(f"{what}: axis {axis.text()} is used twice in {s.text()}")
        seen.append(axis)
    return s


def _dim_index(s: TensorSharding, index: int, what: str) -> int:
    if not isinstance(index, int) or not -s.rank <= index < s.rank:
        raise ValueError(f"{what}: dimension {index!r} is out of range for a sharding of rank {s.rank}")
    return index % s.rank


def replicated(ctx: RewriteContext, value: ir.Value, mesh=None) -> TensorSharding:
    """The closed, fully replicated sharding of VALUE's rank, on MESH (a name, a
    mesh, a sharding, a value) or else on the mesh of VALUE's own sharding."""
    if not isinstance(value, ir.Value):
        raise ValueError(f"replicated: expected a value, got {describe(value)}")
    mesh_name, inline = _mesh_ref(ctx, value if mesh is None else mesh, "replicated")
    return TensorSharding.replicated_like(mesh_name, rank_of(value.type), inline_mesh=inline)


def opened(s) -> TensorSharding:
    """Every dimension open (`{...?}`): propagation may add axes."""
    return to_sharding(s).opened()


def open_dim(s, dim: int) -> TensorSharding:
    """Dimension DIM open (`{...?}`), its axes and priority kept."""
    s = to_sharding(s)
    d = s.dims[_dim_index(s, dim, "open_dim")]
    return s.with_dim(dim, DimSharding(d.axes, False, d.priority))


def close_dim(s, dim: int) -> TensorSharding:
    """Dimension DIM closed, its axes and priority kept."""
    s = to_sharding(s)
    d = s.dims[_dim_index(s, dim, "close_dim")]
    return s.with_dim(dim, DimSharding(d.axes, True, d.priority))


def dim_axes(s, dim: int) -> list[str]:
    """The axes sharding dimension DIM, major first, as text (`"x"`, `"x:(1)2"`)."""
    s = to_sharding(s)
    return [a.text().replace('"', "") for a in s.dims[_dim_index(s, dim, "dim_axes")].axes]


def set_dim(ctx: RewriteContext, s, dim: int, axes: list) -> TensorSharding:
    """Dimension DIM sharded along AXES (a list of axis names, major first); its
    open/closed state and priority are kept."""
    s = to_sharding(s)
    d = s.dims[_dim_index(s, dim, "set_dim")]
    if not isinstance(axes, (list, tuple)):
        raise ValueError(f"set_dim: AXES must be a list of axis names, got {describe(axes)}")
    return _checked(ctx, s.with_dim(dim, DimSharding(tuple(_axis(a, "set_dim") for a in axes), d.is_closed,
                                                     d.priority)), "set_dim")


def append_axis(ctx: RewriteContext, s, dim: int, axis: str) -> TensorSharding:
    """Dimension DIM sharded along one more axis, minor-most."""
    s = to_sharding(s)
    d = s.dims[_dim_index(s, dim, "append_axis")]
    new = DimSharding(d.axes + (_axis(axis, "append_axis"),), d.is_closed, d.priority)
    return _checked(ctx, s.with_dim(dim, new), "append_axis")


def remove_axis(s, dim: int, axis: str) -> TensorSharding:
    """Dimension DIM without AXIS (an axis it does not have is an error)."""
    s = to_sharding(s)
    d = s.dims[_dim_index(s, dim, "remove_axis")]
    ref = _axis(axis, "remove_axis")
    if ref not in d.axes:
        raise ValueError(f"remove_axis: dimension {dim} of {s.text()} has no axis {ref.text()}")
    return s.with_dim(dim, DimSharding(tuple(a for a in d.axes if a != ref), d.is_closed, d.priority))


# --------------------------------------------------------------------------- tensor facts


def _shaped(value, what: str) -> ir.ShapedType:
    if not isinstance(value, ir.Value):
        raise ValueError(f"{what}: expected a value, got {describe(value)}")
    t = tensor_type(value.type)
    if t is None:
        raise ValueError(f"{what}: {value.get_name()} of type {value.type} is not a ranked tensor")
    return t


def dim(value: ir.Value, index: int) -> int:
    """The size of dimension INDEX of a tensor (negative: from the end)."""
    t = _shaped(value, "dim")
    if not -t.rank <= index < t.rank:
        raise ValueError(f"dim: dimension {index} is out of range for {t}")
    return list(t.shape)[index]


def element_type(value: ir.Value) -> str:
    """The element type of a tensor, as MLIR prints it (`f32`, `bf16`, `i1`)."""
    return str(_shaped(value, "element_type").element_type)


def element_count(value: ir.Value) -> int:
    """The number of elements of a tensor with a static shape."""
    t = _shaped(value, "element_count")
    if not t.has_static_shape:
        raise ValueError(f"element_count: {t} has a dynamic shape")
    return math.prod(t.shape)


def tensor_bytes(value: ir.Value) -> int:
    """The bytes of a whole tensor (elements times element bytes; an i1 takes a byte)."""
    return element_count(value) * element_bytes(_shaped(value, "bytes").element_type)


def shard_bytes(ctx: RewriteContext, value: ir.Value) -> int:
    """The bytes of one device's shard of a tensor, under its sharding (all of it when it has none)."""
    return per_device_bytes(_shaped(value, "shard_bytes"), interfaces.sharding_of(value), ctx.meshes())
