"""The `!mpmd.mesh_tensor` type, read from its printed form (jaxlib's
bindings have no accessors for it), once per distinct type: MLIR uniques
types, so the type keys a bounded cache. The MPMD dialect's other facts are
mpmd.py's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from jaxlib.mlir import ir

from .sharding import Mesh, TensorSharding, parse_tensor_sharding

_MESH_TENSOR_PREFIX = "!mpmd.mesh_tensor<"
_CACHE_SIZE = 4096


def read_string(text: str, start: int) -> tuple[str, int]:
    """The string literal opening at `text[start]` (a `"`), unescaped, and the index after it."""
    out, i = [], start + 1
    while text[i] != '"':
        if text[i] == "\\":
            escaped = text[i + 1]
            if escaped in '\\"':
                out.append(escaped)
                i += 2
            else:  # MLIR's \XX hex escape
                out.append(chr(int(text[i + 1:i + 3], 16)))
                i += 3
        else:
            out.append(text[i])
            i += 1
    return "".join(out), i + 1


def split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside brackets and string literals, each part stripped."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        char = text[i]
        if char == '"':
            i = read_string(text, i)[1]
            continue
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    parts.append(text[start:].strip())
    return parts


def _unquote(text: str) -> str:
    value, end = read_string(text, 0)
    if end != len(text):
        raise ValueError(f"expected a string literal, got {text}")
    return value


# --------------------------------------------------------------------------- mesh tensor types


@dataclass(frozen=True)
class MeshTensorType:
    """`!mpmd.mesh_tensor<"mesh", tensor<...>[, sharding=<...>][, memory_kind="..."]>`."""

    mesh_name: str
    global_type: ir.RankedTensorType
    sharding: TensorSharding | None = None
    memory_kind: str | None = None
    sharding_text: str | None = field(default=None, repr=False, compare=False)  # `<...>` as printed

    def local_shape(self, mesh: Mesh | None) -> list[int]:
        """The per-device shape on `mesh` (None only if unsharded): each dimension divided,
        rounded up, by its sharding."""
        shape = list(self.global_type.shape)
        if self.sharding is None:
            return shape
        return [-(-size // dim.size(mesh)) for size, dim in zip(shape, self.sharding.dims)]

    def local_type(self, mesh: Mesh | None) -> ir.RankedTensorType:
        return ir.RankedTensorType.get(self.local_shape(mesh), self.global_type.element_type)

    def local_bytes(self, mesh: Mesh | None) -> float:
        """Bytes of the per-device tensor (a fraction for sub-byte element types)."""
        return math.prod(self.local_shape(mesh)) * self.global_type.element_type.width / 8

    def sharding_attr(self) -> ir.Attribute | None:
        """The sharding as a `#sdy.sharding<...>` attribute, exactly as printed in the type."""
        if self.sharding_text is None:
            return None
        return ir.Attribute.parse("#sdy.sharding" + self.sharding_text, context=self.global_type.context)


@lru_cache(maxsize=_CACHE_SIZE)
def mesh_tensor_type(type_: ir.Type) -> MeshTensorType | None:
    """The parts of a `!mpmd.mesh_tensor` type, or None for any other type."""
    text = str(type_)
    if not text.startswith(_MESH_TENSOR_PREFIX) or not text.endswith(">"):
        return None
    name, tensor, *keyed = split_top_level(text[len(_MESH_TENSOR_PREFIX):-1])
    parameters = dict(part.split("=", 1) for part in keyed)
    sharding_text = parameters.get("sharding")
    memory_kind = parameters.get("memory_kind")
    return MeshTensorType(
        mesh_name=_unquote(name),
        global_type=ir.RankedTensorType(ir.Type.parse(tensor, context=type_.context)),
        sharding=parse_tensor_sharding(sharding_text) if sharding_text is not None else None,
        memory_kind=_unquote(memory_kind) if memory_kind is not None else None,
        sharding_text=sharding_text,
    )
