"""Tuned shardings back into JAX: run a pipeline on a `jax.export.Exported`,
get an `Exported` XLA partitions the way the pipeline decided.

    exported = jax.export.export(jax.jit(step))(*args)
    tuned = sdy_dsl.jax.apply(exported)   # sdy-propagation-pipeline; or a pipeline, rules=, options=
    out = jax.jit(tuned.call)(*args)
    print(sdy_dsl.jax.compiled_collectives(tuned, *args))

XLA's own Shardy import keeps only the func argument/result shardings and the
`sdy.sharding_constraint`s of a module, and propagates again from them: the
`sdy.sharding` of every other op is dropped. `apply` therefore closes every
sharding (an open dimension would let XLA add axes) and pins every op's
sharding as a closed constraint on its result (rules/export/pin_shardings_for_xla.yaml),
then re-serializes the module the way `jax.export` does. JAX is an optional
dependency (`pip install sdy-dsl[jax]`); this module imports it.
"""
from __future__ import annotations

import dataclasses
import math
import re
import tempfile
from pathlib import Path
from typing import Any, Mapping, Sequence

import jax
import jax.export
from jax.sharding import NamedSharding, PartitionSpec

from .api import run_pipeline
from .errors import SdyDslError
from .mlir_context import make_context
from .runtime.sharding import TensorSharding, codec
from .runtime.values import MeshTable

PIN_PIPELINE = "builtin.module(sdy-close-shardings,pin-shardings-for-xla)"


# --------------------------------------------------------------------------- apply


def apply(exported: jax.export.Exported, pipeline="sdy-propagation-pipeline", *, rules=None,
          options: Mapping[str, Mapping[str, Any]] | None = None,
          verify: bool = False) -> jax.export.Exported:
    """Run PIPELINE (as `sdy_dsl.run_pipeline` takes it; default what XLA
    runs, `sdy-propagation-pipeline`) with RULES and OPTIONS on EXPORTED's
    module, pin every sharding for XLA, and return the `Exported` to call
    (`jax.jit(tuned.call)(*args)`). Its input/output shardings are the
    module's after the pipeline. Explicit collectives the pipeline leaves
    (`sdy-insert-explicit-reshards{enable-full-version=true}`) reach XLA as
    the reshards they stand for (see pin_for_xla). VERIFY: compile it once
    with XLA's Shardy dump and raise `SdyDslError` listing the constraints
    XLA did not keep."""
    tuned = run_pipeline(exported.mlir_module(), pipeline, rules=rules, options=options, debuginfo=True,
                         source_name=f"<exported {exported.fun_name}>")
    result = replace_module(exported, pin_for_xla(tuned.text))
    if verify:
        problems = unkept_constraints(result)
        if problems:
            raise SdyDslError("XLA did not keep these constraints as written:\n" + "\n".join(problems))
    return result


def pin_for_xla(text: str) -> str:
    """TEXT with every sharding closed and every op sharding pinned as a
    constraint. Each `sdy.reshard` and each explicit collective
    (`sdy.all_reduce`, `sdy.all_gather`, ...) becomes a constraint to its
    result's sharding: XLA's compile path (its Shardy round-trip export) turns
    constraints and reshards into custom calls and every `sdy.mesh` into a
    module attribute, and has no form for Shardy's collectives, which it
    would leave naming a mesh that is gone ("'sdy.all_reduce' op unknown
    mesh: @mesh"); its partitioner makes each reshard with collectives of
    its own choice."""
    return run_pipeline(text, PIN_PIPELINE, debuginfo=True).text


def replace_module(exported: jax.export.Exported, text: str) -> jax.export.Exported:
    """EXPORTED with the module TEXT (serialized as jax.export does), and with
    TEXT's @main argument/result shardings where they differ from EXPORTED's."""
    return dataclasses.replace(exported, mlir_module_serialized=serialize(text),
                               **_sharding_fields(exported, exported.mlir_module(), text))


def serialize(text: str) -> bytes:
    """TEXT as a portable artifact, the way `jax.export` writes `mlir_module_serialized`."""
    from jaxlib.mlir.dialects import stablehlo
    import jax.extend.mlir as jax_mlir
    version = stablehlo.get_version_from_compatibility_requirement(
        stablehlo.StablehloCompatibilityRequirement.WEEK_4)
    try:
        return jax_mlir.serialize_portable_artifact(text, version, True)
    except Exception as e:  # noqa: BLE001 (jaxlib raises plain exceptions)
        raise SdyDslError(f"cannot serialize the tuned module for JAX: {e}") from None


def main_shardings(text: str) -> tuple[list, list, dict]:
    """(argument shardings, result shardings, meshes) of TEXT's @main (None: unsharded)."""
    from jaxlib.mlir import ir
    with make_context():
        module = ir.Module.parse(text)
        meshes = MeshTable(module.operation)
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
                return (_func_shardings(op, "arg_attrs"), _func_shardings(op, "res_attrs"), meshes.meshes)
    raise SdyDslError("the exported module has no @main function")


def _func_shardings(func, key: str) -> list:
    from jaxlib.mlir import ir
    if key not in func.attributes:
        return []
    out = []
    for entry in ir.ArrayAttr(func.attributes[key]):
        entry = ir.DictAttr(entry)
        out.append(codec.tensor_sharding(entry["sdy.sharding"]) if "sdy.sharding" in entry else None)
    return out


def _sharding_fields(exported, before: str, after: str) -> dict:
    """The Exported's sharding fields for AFTER, when they differ from BEFORE's."""
    args0, res0, _ = main_shardings(before)
    args1, res1, meshes = main_shardings(after)
    fields = {}
    for name, old, new, current in (("_in_named_shardings", args0, args1, exported._in_named_shardings),
                                    ("_out_named_shardings", res0, res1, exported._out_named_shardings)):
        # (@main may have extra leading arguments, e.g. platform index or tokens)
        new = new[len(new) - len(current):] if len(new) >= len(current) else new
        old = old[len(old) - len(current):] if len(old) >= len(current) else old
        if [_key(s) for s in old] == [_key(s) for s in new]:
            continue
        if not exported._has_named_shardings:
            raise SdyDslError("the pipeline changed the shardings of @main, and this Exported has no named "
                              "shardings to carry them (export it with a newer JAX)")
        fields[name] = tuple(_named(s, meshes, exported, c) for s, c in zip(new, current))
    return fields


def _key(sharding: TensorSharding | None):
    if sharding is None or sharding.is_fully_replicated and not sharding.unreduced:
        return None
    return tuple(d.axes for d in sharding.dims), sharding.unreduced


def _named(sharding: TensorSharding | None, meshes: dict, exported, current):
    if sharding is None:
        return current
    mesh = _jax_mesh(sharding, meshes, exported)
    spec = []
    for dim in sharding.dims:
        if any(a.is_sub_axis for a in dim.axes):
            raise SdyDslError(f"the sharding {sharding.text()} of @main has a sub-axis, which a JAX "
                              f"PartitionSpec cannot express")
        names = tuple(a.name for a in dim.axes)
        spec.append(None if not names else names[0] if len(names) == 1 else names)
    if sharding.unreduced:
        return NamedSharding(mesh, PartitionSpec(*spec, unreduced={a.name for a in sharding.unreduced}))
    return NamedSharding(mesh, PartitionSpec(*spec))


def _jax_mesh(sharding: TensorSharding, meshes: dict, exported):
    mesh = meshes.get(sharding.mesh_name) if sharding.mesh_name else sharding.inline_mesh
    for known in tuple(exported._in_named_shardings) + tuple(exported._out_named_shardings):
        if known is not None and tuple(known.mesh.axis_names) == mesh.axis_names and \
                tuple(known.mesh.axis_sizes) == tuple(a.size for a in mesh.axes):
            return known.mesh
    return jax.sharding.AbstractMesh(tuple(a.size for a in mesh.axes), mesh.axis_names)


# --------------------------------------------------------------------------- what XLA communicates

COLLECTIVE_KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
_DTYPE_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4,
                "f32": 4, "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}
_HLO_OP = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(.*?)\s(" + "|".join(COLLECTIVE_KINDS) +
                     r")(-start)?\(", re.M)
_ARRAY = re.compile(r"\b([a-z]+\d*)\[([\d,]*)\]")


def array_bytes(type_text: str) -> int:
    """Bytes of the arrays in an HLO type (`f32[8,32]{1,0}` or a tuple of them)."""
    total = 0
    for dtype, dims in _ARRAY.findall(type_text):
        size = _DTYPE_BYTES.get(dtype, 4)
        total += size * math.prod(int(d) for d in dims.split(",") if d)
    return total


def _hlo_collectives(hlo_text: str):
    """(kind, result type) of each collective of a compiled HLO module (an
    async `-start` op by its last array, the result)."""
    for m in _HLO_OP.finditer(hlo_text):
        type_text, kind, start = m.groups()
        if start:
            arrays = list(_ARRAY.finditer(type_text))
            type_text = arrays[-1].group(0) if arrays else type_text
        yield kind, type_text


def collectives_in_hlo(hlo_text: str) -> dict[str, dict[str, int]]:
    """Per collective kind in a compiled (partitioned) HLO module: how many
    ops, and the bytes of their results per device."""
    out: dict[str, dict[str, int]] = {}
    for kind, type_text in _hlo_collectives(hlo_text):
        entry = out.setdefault(kind, {"count": 0, "bytes": 0})
        entry["count"] += 1
        entry["bytes"] += array_bytes(type_text)
    return out


def collective_shapes_in_hlo(hlo_text: str) -> dict[str, dict[str, int]]:
    """Per collective kind: how many of its ops have each result shape (`f32[32,64]`)."""
    out: dict[str, dict[str, int]] = {}
    for kind, type_text in _hlo_collectives(hlo_text):
        shape = " ".join(a.group(0) for a in _ARRAY.finditer(type_text)) or type_text
        shapes = out.setdefault(kind, {})
        shapes[shape] = shapes.get(shape, 0) + 1
    return out


def _jitted(fn_or_exported):
    if isinstance(fn_or_exported, jax.export.Exported):
        return jax.jit(fn_or_exported.call)
    return fn_or_exported if hasattr(fn_or_exported, "lower") else jax.jit(fn_or_exported)


def compiled_collectives(fn_or_exported, *args, **kwargs) -> dict[str, dict[str, int]]:
    """Compile FN_OR_EXPORTED (a function, a jitted function or an Exported)
    for ARGS and count, per collective kind, the collectives of XLA's
    partitioned program and their bytes per device (see collectives_in_hlo)."""
    compiled = _jitted(fn_or_exported).lower(*args, **kwargs).compile()
    return collectives_in_hlo(compiled.as_text())


def module_collectives(text: str) -> dict[str, dict[str, int]]:
    """Compile the module TEXT (see compiled_module_hlo) and count its
    collectives as compiled_collectives does."""
    return collectives_in_hlo(compiled_module_hlo(text))


def compiled_module_hlo(text: str) -> str:
    """Compile the module TEXT (StableHLO + sdy, as JAX lowers it; pin it
    first with pin_for_xla for XLA to keep its op shardings) for its
    `mhlo.num_partitions` devices, as `jax.jit` compiles; XLA's partitioned
    HLO module as text."""
    import numpy as np
    from jax._src import compiler  # (no public API compiles module text for a device mesh)
    from jax._src.lib import xla_client
    m = re.search(r"mhlo\.num_partitions = (\d+)", text)
    partitions = int(m.group(1)) if m else 1
    devices = jax.devices()
    if len(devices) < partitions:
        raise SdyDslError(f"the module is partitioned over {partitions} devices and jax has {len(devices)} "
                          f"(on CPU: XLA_FLAGS=--xla_force_host_platform_device_count={partitions})")
    devices = devices[:partitions]
    options = compiler.get_compile_options(num_replicas=1, num_partitions=partitions,
                                           device_assignment=np.array(devices).reshape(1, partitions))
    try:
        executable = devices[0].client.compile_and_load(text, xla_client.DeviceList(tuple(devices)), options)
    except Exception as e:  # noqa: BLE001 (jaxlib raises its own runtime errors)
        raise SdyDslError(f"XLA did not compile the module: {str(e).splitlines()[0]}") from None
    return "\n".join(m.to_string() for m in executable.hlo_modules())


# --------------------------------------------------------------------------- verify


def _abstract_args(exported: jax.export.Exported):
    shardings = exported.in_shardings_jax(_concrete_mesh(exported)) if exported._has_named_shardings else \
        (None,) * len(exported.in_avals)
    flat = [jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s) for a, s in zip(exported.in_avals, shardings)]
    return jax.tree.unflatten(exported.in_tree, flat)


def _concrete_mesh(exported):
    abstract = next(s.mesh for s in exported._in_named_shardings if s is not None)
    return jax.make_mesh(tuple(abstract.axis_sizes), tuple(abstract.axis_names),
                         axis_types=tuple(abstract.axis_types))


_CONSTRAINT = re.compile(r"sdy\.sharding_constraint %\S+ (<.*?>) :")
_RESHARD = re.compile(r"sdy\.reshard %\S+ (<.*?>)(?: \{sdy\.sharding_rule.*?\})? :")


def unkept_constraints(exported: jax.export.Exported) -> list[str]:
    """Compile EXPORTED with XLA's Shardy dump; one line per constraint whose
    sharding XLA changed during its own propagation (empty: all kept)."""
    args, kwargs = _abstract_args(exported)
    with tempfile.TemporaryDirectory() as tmp:
        jax.jit(exported.call).lower(*args, **kwargs).compile(
            compiler_options={"xla_dump_to": tmp, "xla_dump_hlo_pass_re": "shardy-xla"})
        before = sorted(Path(tmp).rglob("*before_propagation.mlir"))
        after = sorted(Path(tmp).rglob("*after_propagation.mlir"))
        if not before or not after:
            raise SdyDslError("XLA wrote no Shardy dump (is the Shardy partitioner off?)")
        given = _CONSTRAINT.findall(before[-1].read_text())
        kept = _RESHARD.findall(after[-1].read_text())
    problems = []
    if len(given) != len(kept):
        problems.append(f"{len(given)} constraints went in, {len(kept)} came out of XLA's propagation")
    for i, (g, k) in enumerate(zip(given, kept)):
        # (an open constraint, such as those JAX's call wrapper adds, is XLA's to fill)
        if g != k and "?" not in g:
            problems.append(f"constraint #{i}: {g} became {k}")
    return problems

