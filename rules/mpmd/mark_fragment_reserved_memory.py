"""Hook of mpmd-mark-fragment-reserved-memory: live bytes per mesh, in program order."""
from __future__ import annotations

import math

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.mpmd import ARG_ATTRS, MEMORY_KIND_ATTR, RES_ATTRS, RESERVED_HBM_BYTES_ATTR
from sdy_dsl.runtime.values import operation

is_mpmd_function = hook(mpmd.is_mpmd_function)


def _donated(func: ir.Operation, index: int) -> bool:
    # As the reference: a *string* `tf.aliasing_output` or `jax.buffer_donor = true`.
    aliasing = mpmd.attr_entry(func, ARG_ATTRS, index, "tf.aliasing_output")
    donor = mpmd.attr_entry(func, ARG_ATTRS, index, "jax.buffer_donor")
    return isinstance(aliasing, ir.StringAttr) or (isinstance(donor, ir.BoolAttr) and ir.BoolAttr(donor).value)


class _LocalSizes:
    """Local (per-device) byte sizes of the mesh tensors of one MPMD function."""

    def __init__(self, func: ir.Operation):
        self.meshes = mpmd.topology(func)
        # On a homogeneous topology every tensor is sized on the first mesh.
        self.single_mesh = next(iter(self.meshes.values())) if len(set(self.meshes.values())) == 1 else None

    def mesh_name(self, value: ir.Value) -> str:
        return mpmd.mesh_tensor_type(value.type).mesh_name

    def bytes(self, value: ir.Value) -> float:
        mesh_tensor = mpmd.mesh_tensor_type(value.type)
        mesh = self.single_mesh
        if mesh is None and mesh_tensor.sharding is not None:
            mesh = self.meshes.get(mesh_tensor.sharding.mesh_name) or self.meshes[mesh_tensor.mesh_name]
        return mesh_tensor.local_bytes(mesh)


@hook
def mark_reserved_memory(ctx: RewriteContext, func: ir.Operation, host_memory_kinds: list) -> None:
    """Mark each fragment of `func` with the bytes live on its mesh besides its own operands.

    Values whose `mhlo.memory_kind` is one of `host_memory_kinds` take no device memory.
    """
    func = operation(func)

    def on_host(op: ir.Operation, list_name: str, index: int) -> bool:
        return mpmd.string_entry(op, list_name, index, MEMORY_KIND_ATTR) in host_memory_kinds

    sizes = _LocalSizes(func)
    live = {name: 0.0 for name in sizes.meshes}
    block = func.regions[0].blocks[0]
    for arg in block.arguments:
        if not on_host(func, ARG_ATTRS, arg.arg_number) and (
                not _donated(func, arg.arg_number) or next(iter(arg.uses), None) is not None):
            live[sizes.mesh_name(arg)] += sizes.bytes(arg)

    ops = [operation(op) for op in block.operations]
    last_use_index: dict = {}  # value -> index of the last top-level op using it (nested uses included)
    for index, op in enumerate(ops):
        def record(nested, index=index):
            for operand in nested.operands:
                last_use_index[operand] = index
            return ir.WalkResult.ADVANCE
        op.walk(record)

    i64 = ir.IntegerType.get_signless(64)
    for index, op in enumerate(ops):
        if op.name == "mpmd.fragment":
            reserved = live[mpmd.fragment_mesh_name(op)]
            seen = set()
            for i, operand in enumerate(op.operands):
                if operand in seen or on_host(op, ARG_ATTRS, i):
                    continue
                seen.add(operand)
                reserved -= sizes.bytes(operand)  # XLA already knows its operands
            ctx.set_attr(op, RESERVED_HBM_BYTES_ATTR, ir.IntegerAttr.get(i64, math.ceil(reserved)))
        if op.name in ("mpmd.fragment", "mpmd.transfer"):
            seen = set()
            for i, operand in enumerate(op.operands):
                if on_host(op, ARG_ATTRS, i) or operand in seen:
                    continue
                seen.add(operand)
                if last_use_index.get(operand, -1) != index:
                    continue
                # A program argument may be referenced outside the program unless donated.
                if isinstance(operand.owner, ir.Block) and not _donated(func, ir.BlockArgument(operand).arg_number):
                    continue
                live[sizes.mesh_name(operand)] -= sizes.bytes(operand)
            for i, result in enumerate(op.results):
                if not on_host(op, RES_ATTRS, i) and next(iter(result.uses), None) is not None:
                    live[sizes.mesh_name(result)] += sizes.bytes(result)
        elif op.name != "func.return":
            ctx.emit_error(op, "Expected only TransferOp, FragmentOp, FragmentCallOp and ReturnOp in the function body.")
