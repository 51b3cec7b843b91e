"""The MPMD dialect as the export passes see it: mesh tensor types, topologies,
entry points and the `arg_attrs` / `res_attrs` dictionaries of fragments and functions.

jaxlib's bindings have no accessors for `!mpmd.mesh_tensor` or
`#mpmd.topology`, so both are read from their printed form, once per distinct
type / attribute: MLIR uniques them, so the object keys a bounded cache (a key
keeps its context alive, so a cached handle is never reused by a new context).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import mpmd

from .mpmd_types import MeshTensorType, mesh_tensor_type, read_string, split_top_level  # noqa: F401
from .sharding import Mesh, codec, parse_mesh
from .values import operation, region_terminator as body_terminator  # noqa: F401  (its callers' name)

ARG_ATTRS = "arg_attrs"
RES_ATTRS = "res_attrs"
MEMORY_KIND_ATTR = "mhlo.memory_kind"
TOPOLOGY_ATTR = "topology"
MESH_SHAPE_ATTR = "mesh_shape"
MESH_NAME_ATTR = "mesh_name"
ORIGIN_ATTR = "origin"
# Bytes XLA must keep free besides a program's own buffers: on fragments, then on their functions.
RESERVED_HBM_BYTES_ATTR = "reserved_hbm_bytes"

_CACHE_SIZE = 4096
_TOPOLOGY_PREFIX = "#mpmd.topology<"


# --------------------------------------------------------------------------- topologies


@lru_cache(maxsize=_CACHE_SIZE)
def _topology_meshes(attr: ir.Attribute) -> tuple[tuple[str, Mesh], ...]:
    text = str(attr)
    if not text.startswith(_TOPOLOGY_PREFIX) or not text.endswith(">"):
        raise ValueError(f"not an #mpmd.topology: {text}")
    meshes = []
    for entry in split_top_level(text[len(_TOPOLOGY_PREFIX):-1]):
        # <"name" : <["x"=2], device_ids=[...]>>
        body = entry[1:-1].strip()
        name, end = read_string(body, 0)
        mesh_text = body[end:].strip()
        if not mesh_text.startswith(":"):
            raise ValueError(f"cannot read topology entry {entry}")
        meshes.append((name, parse_mesh(mesh_text[1:])))
    return tuple(meshes)


def topology(func: ir.Operation) -> dict[str, Mesh]:
    """The meshes of a function's `topology`, by name, in declaration order; empty without one."""
    attrs = operation(func).attributes
    if TOPOLOGY_ATTR not in attrs:
        return {}
    return dict(_topology_meshes(attrs[TOPOLOGY_ATTR]))


def mesh_attr(mesh: Mesh) -> ir.Attribute:
    """`#sdy.mesh<...>` of a topology mesh (in the current context)."""
    return codec.mesh_attr(mesh)


# --------------------------------------------------------------------------- functions and fragments


def mesh_name_ends_with(value: ir.Value, suffix: str) -> bool:
    """Whether `value` is a mesh tensor on a mesh whose name ends with `suffix` (e.g. "/cpu")."""
    mesh_tensor = mesh_tensor_type(value.type)
    return mesh_tensor is not None and mesh_tensor.mesh_name.endswith(suffix)


def is_public(op: ir.Operation) -> bool:
    attrs = operation(op).attributes
    return "sym_visibility" not in attrs or ir.StringAttr(attrs["sym_visibility"]).value == "public"


def is_mpmd_function(op: ir.Operation) -> bool:
    """A func.func with a `topology`."""
    op = operation(op)
    return op.name == "func.func" and TOPOLOGY_ATTR in op.attributes


def is_spmd_function(op: ir.Operation) -> bool:
    """A func.func with a `mesh_shape`."""
    op = operation(op)
    return op.name == "func.func" and MESH_SHAPE_ATTR in op.attributes


def is_entry_point_function(op: ir.Operation) -> bool:
    """A public distributed (MPMD or SPMD) function."""
    return (is_mpmd_function(op) or is_spmd_function(op)) and is_public(op)


def enclosing_function(op: ir.Operation) -> ir.Operation:
    op = operation(op)
    while op.name != "func.func":
        op = operation(op.parent)
    return op


def fragment_mesh_name(op: ir.Operation) -> str:
    """The `mesh_name` of a fragment or fragment call."""
    return ir.StringAttr(operation(op).attributes[MESH_NAME_ATTR]).value


def origins(fragment: ir.Operation) -> list[tuple[str, int]]:
    """(user name, transpose count) of each `#mpmd.user_origin` of a fragment's `origin`."""
    result = []
    for attr in ir.ArrayAttr(operation(fragment).attributes[ORIGIN_ATTR]):
        if not mpmd.UserOriginAttr.isinstance(attr):
            raise ValueError(f"cannot read origin {attr}")
        origin = mpmd.UserOriginAttr(attr)
        result.append((origin.user_name, origin.transpose_count))
    return result




def optional_int(op: ir.Operation, name: str) -> int | None:
    """The value of an integer attribute, or None when absent or not an integer."""
    attrs = operation(op).attributes
    if name not in attrs or not isinstance(attrs[name], ir.IntegerAttr):
        return None
    return ir.IntegerAttr(attrs[name]).value


# --------------------------------------------------------------------------- arg_attrs / res_attrs


def entry_count(op: ir.Operation, list_name: str) -> int:
    """How many dictionaries `list_name` holds: one per argument / result (of the op, or a func's type)."""
    op = operation(op)
    is_args = list_name == ARG_ATTRS
    if op.name == "func.func":
        function_type = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        return len(function_type.inputs if is_args else function_type.results)
    return len(op.operands if is_args else op.results)


def attr_dicts(op: ir.Operation, list_name: str) -> list[ir.DictAttr]:
    """The op's `arg_attrs` / `res_attrs` dictionaries; empty ones when it has none."""
    attrs = operation(op).attributes
    if list_name in attrs:
        return [ir.DictAttr(d) for d in ir.ArrayAttr(attrs[list_name])]
    return [ir.DictAttr.get({}) for _ in range(entry_count(op, list_name))]


def attr_entry(op: ir.Operation, list_name: str, index: int, name: str) -> ir.Attribute | None:
    """`name` in the `index`-th dictionary of the op's `arg_attrs` / `res_attrs`, or None."""
    attrs = operation(op).attributes
    if list_name not in attrs:
        return None
    dictionary = ir.DictAttr(ir.ArrayAttr(attrs[list_name])[index])
    return dictionary[name] if name in dictionary else None


def same_entry(a: ir.Attribute | None, b: ir.Attribute | None) -> bool:
    """Whether two entries (None: absent) are equal; ir.Attribute cannot be compared with None."""
    return a is None and b is None or a is not None and b is not None and a == b


def diagnostic_text(attr: ir.Attribute | None) -> str:
    """An entry as MLIR prints an attribute in a diagnostic (an absent one included)."""
    return "<<NULL ATTRIBUTE>>" if attr is None else str(attr)


def string_entry(op: ir.Operation, list_name: str, index: int, name: str) -> str | None:
    """A string entry's value; None when absent or not a string."""
    entry = attr_entry(op, list_name, index, name)
    return ir.StringAttr(entry).value if isinstance(entry, ir.StringAttr) else None


def function_argument_entry(value: ir.Value, name: str) -> ir.Attribute | None:
    """`name` among the `arg_attrs` of the function whose argument `value` is; None for other values."""
    if not isinstance(value.owner, ir.Block):
        return None
    func = operation(value.owner.owner)
    if func.name != "func.func":
        return None
    return attr_entry(func, ARG_ATTRS, ir.BlockArgument(value).arg_number, name)


def with_entries(op: ir.Operation, list_name: str,
                 updates: Mapping[int, Mapping[str, ir.Attribute | None]]) -> ir.ArrayAttr:
    """The op's `arg_attrs` / `res_attrs` (empty dictionaries if absent) with `updates`
    applied: index -> {name: value}, a None value removing the entry."""
    dicts = attr_dicts(op, list_name)
    for index, changes in updates.items():
        entries = {named.name: named.attr for named in dicts[index]}
        for name, value in changes.items():
            if value is None:
                entries.pop(name, None)
            else:
                entries[name] = value
        dicts[index] = ir.DictAttr.get(entries)
    return ir.ArrayAttr.get(dicts)
