"""Hook of mpmd-mark-fragment-reserved-memory: live bytes per mesh, in program order."""
from __future__ import annotations

import math
import re

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import operation

RESERVED_HBM_BYTES = "xla_tpu_user_reserved_hbm_bytes"
MEMORY_KIND = "mhlo.memory_kind"
HOST_MEMORY_KINDS = ("pinned_host", "unpinned_host")

_MESH_TENSOR = re.compile(r'!mpmd\.mesh_tensor<"((?:[^"\\]|\\.)*)", (tensor<[^>]*>)(?:, sharding=(<.*>))?(?:, memory_kind=[^>]*)?>$')


def _entry(op, list_name: str, index: int, name: str):
    """`name` in the `index`-th dictionary of an op's `arg_attrs`/`res_attrs` (ops and funcs alike)."""
    attrs = operation(op).attributes
    if list_name not in attrs:
        return None
    entry = ir.DictAttr(ir.ArrayAttr(attrs[list_name])[index])
    return entry[name] if name in entry else None


def _on_host(op, list_name: str, index: int) -> bool:
    kind = _entry(op, list_name, index, MEMORY_KIND)
    return isinstance(kind, ir.StringAttr) and ir.StringAttr(kind).value in HOST_MEMORY_KINDS


def _donated(func, index: int) -> bool:
    # As the reference: a *string* `tf.aliasing_output` or `jax.buffer_donor = true`.
    aliasing = _entry(func, "arg_attrs", index, "tf.aliasing_output")
    donor = _entry(func, "arg_attrs", index, "jax.buffer_donor")
    return isinstance(aliasing, ir.StringAttr) or (isinstance(donor, ir.BoolAttr) and ir.BoolAttr(donor).value)


class _Sizes:
    """Local (per-device) byte sizes of mesh tensors of one function."""

    def __init__(self, func, module):
        text = str(operation(func).attributes["topology"])
        self.meshes = {name: codec.mesh(ir.Attribute.parse(f"#sdy.mesh{body}"))
                       for name, body in re.findall(r'<"((?:[^"\\]|\\.)*)" : (<[^<>]*(?:<[^<>]*>[^<>]*)*>)>', text)}
        self.homogeneous = len({m.text() for m in self.meshes.values()}) == 1
        self.module = module

    def mesh_name(self, type_: ir.Type) -> str:
        return _MESH_TENSOR.match(str(type_)).group(1)

    def bytes(self, type_: ir.Type) -> float:
        found = _MESH_TENSOR.match(str(type_))
        tensor = ir.RankedTensorType(ir.Type.parse(found.group(2)))
        shape = list(tensor.shape)
        if found.group(3):
            sharding = codec.tensor_sharding(ir.Attribute.parse(f"#sdy.sharding{found.group(3)}"))
            if self.homogeneous:
                mesh = next(iter(self.meshes.values()))
            else:
                mesh = self.meshes.get(sharding.mesh_name) or self.meshes[found.group(1)]
            shape = [-(-size // dim.size(mesh)) for size, dim in zip(shape, sharding.dims)]
        return math.prod(shape) * (tensor.element_type.width / 8)


@hook
def mark_reserved_memory(ctx: RewriteContext) -> None:
    func = ctx.anchor
    if "topology" not in func.attributes:
        return
    sizes = _Sizes(func, ctx.module)
    live = {name: 0.0 for name in sizes.meshes}
    block = func.regions[0].blocks[0]
    for arg in block.arguments:
        if not _on_host(func, "arg_attrs", arg.arg_number) and (
                not _donated(func, arg.arg_number) or next(iter(arg.uses), None) is not None):
            live[sizes.mesh_name(arg.type)] += sizes.bytes(arg.type)

    ops = [operation(op) for op in block.operations]
    last_use_index: dict = {}  # value -> index of the last top-level op using it (nested uses included)
    for index, op in enumerate(ops):
        def record(nested, index=index):
            for operand in nested.operands:
                last_use_index[operand] = index
            return ir.WalkResult.ADVANCE
        op.walk(record)

    def last_use(value) -> int:
        return last_use_index.get(value, -1)

    i64 = ir.IntegerType.get_signless(64)
    for index, op in enumerate(ops):
        if op.name == "mpmd.fragment":
            reserved = live[ir.StringAttr(op.attributes["mesh_name"]).value]
            seen = set()
            for i, operand in enumerate(op.operands):
                if operand in seen or _on_host(op, "arg_attrs", i):
                    continue
                seen.add(operand)
                reserved -= sizes.bytes(operand.type)  # XLA already knows its operands
            ctx.set_attr(op, RESERVED_HBM_BYTES, ir.IntegerAttr.get(i64, math.ceil(reserved)))
        if op.name in ("mpmd.fragment", "mpmd.transfer"):
            seen = set()
            for i, operand in enumerate(op.operands):
                if _on_host(op, "arg_attrs", i) or operand in seen:
                    continue
                seen.add(operand)
                if last_use(operand) != index:
                    continue
                # A program argument may be referenced outside the program unless donated.
                if isinstance(operand.owner, ir.Block) and not _donated(func, ir.BlockArgument(operand).arg_number):
                    continue
                live[sizes.mesh_name(operand.type)] -= sizes.bytes(operand.type)
            for i, result in enumerate(op.results):
                if not _on_host(op, "res_attrs", i) and next(iter(result.uses), None) is not None:
                    live[sizes.mesh_name(result.type)] += sizes.bytes(result.type)
        elif op.name != "func.return":
            ctx.emit_error(op, "Expected only TransferOp, FragmentOp, FragmentCallOp and ReturnOp in the function body.")
