"""What a sharding costs before compiling: the collectives Shardy's export inserts.

    report = sdy_dsl.cost(text, pipeline="shardy_full")
    print(report.text())            # or report.to_json()

Runs PIPELINE (propagation; `None` for a module already propagated), then
the export steps that make communication explicit, as Shardy's export
pipeline does with explicit collectives: sharding constraints become
reshards, shardings close, explicit reshards (full version), the
`sdy-reshard` canonicalization, reshard-to-collectives and the
`sdy-collective` canonicalization. Then it lists, per function, every
collective (kind, axes, tensor, bytes per device) and the per-device size
of every argument and result.

Bytes per device: the per-device size of the collective's result (its
tensor's shape divided by the result sharding, rounded up per dimension,
times the element size). An `all_slice` only slices locally: it is listed
but moves 0 bytes. `compiled_collectives` (sdy_dsl/jax.py) counts XLA's
compiled collectives the same way.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping

from jaxlib.mlir import ir

from .api import run_pipeline
from .mlir_context import make_context
from .runtime import interfaces
from .runtime.sharding import TensorSharding, codec
from .runtime.values import MeshTable, ops_under

_CANONICALIZE = "canonicalize{{enable-patterns={{{}}} max-iterations=10 region-simplify=aggressive}}"
EXPLICIT_COLLECTIVES = ("builtin.module(func.func(sdy-sharding-constraint-to-reshard),sdy-close-shardings,"
                        "func.func(sdy-insert-explicit-reshards{enable-full-version=true}),"
                        + _CANONICALIZE.format("sdy-reshard") + ",func.func(sdy-reshard-to-collectives),"
                        + _CANONICALIZE.format("sdy-collective") + ")")
LOCAL_ONLY = ("all_slice",)  # collectives that move no data


@dataclass
class Collective:
    kind: str  # all_gather, all_slice, all_to_all, collective_permute, all_reduce, reduce_scatter, ...
    axes: str  # the op's axes attribute, as printed
    tensor: str  # its result type
    sharding: str  # its result sharding
    bytes: int  # per device (see the module docstring)
    loc: str = ""


@dataclass
class Value:
    index: int
    tensor: str
    sharding: str
    bytes: int  # per device


@dataclass
class FunctionCost:
    name: str
    arguments: list[Value] = field(default_factory=list)
    results: list[Value] = field(default_factory=list)
    collectives: list[Collective] = field(default_factory=list)

    def totals(self) -> dict[str, dict[str, int]]:
        return _totals(self.collectives)


@dataclass
class CostReport:
    functions: list[FunctionCost]
    module: str = ""  # the module with explicit collectives
    warnings: list = field(default_factory=list)  # what the rules directories tune that neither run reads

    def totals(self) -> dict[str, dict[str, int]]:
        return _totals([c for f in self.functions for c in f.collectives])

    def to_json(self) -> dict[str, Any]:
        return {"functions": [dict(asdict(f), totals=f.totals()) for f in self.functions],
                "totals": self.totals()}

    def text(self) -> str:
        lines = []
        for f in self.functions:
            lines.append(f"func @{f.name}")
            for title, values in (("arguments", f.arguments), ("results", f.results)):
                if values:
                    lines.append(f"  {title} (bytes per device):")
                    for v in values:
                        lines.append(f"    #{v.index} {v.tensor} {v.sharding or 'unsharded'}: {v.bytes}")
            if f.collectives:
                lines.append("  collectives (bytes per device):")
                for c in f.collectives:
                    where = f"  {c.loc}" if c.loc else ""
                    lines.append(f"    {c.kind} {c.axes} {c.tensor} -> {c.sharding}: {c.bytes}{where}")
            lines.append("  total: " + _totals_text(f.totals()))
        lines.append("total: " + _totals_text(self.totals()))
        return "\n".join(lines)


def _totals(collectives) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for c in collectives:
        entry = out.setdefault(c.kind, {"count": 0, "bytes": 0})
        entry["count"] += 1
        entry["bytes"] += c.bytes
    return dict(sorted(out.items()))


def _totals_text(totals) -> str:
    if not totals:
        return "no collectives"
    return ", ".join(f"{k} {v['count']} ({v['bytes']} bytes)" for k, v in totals.items())


def compare_text(a: CostReport, b: CostReport, name_a: str = "A", name_b: str = "B") -> str:
    """The two reports' totals side by side, per function and in total."""
    rows = [("", name_a, name_b, "change (bytes)")]

    def add(title, ta, tb):
        rows.append((title, "", "", ""))
        for kind in sorted(set(ta) | set(tb)):
            ca, cb = ta.get(kind, {"count": 0, "bytes": 0}), tb.get(kind, {"count": 0, "bytes": 0})
            rows.append((f"  {kind}", f"{ca['count']} ({ca['bytes']} bytes)", f"{cb['count']} ({cb['bytes']} bytes)",
                         f"{cb['bytes'] - ca['bytes']:+d}"))

    fa, fb = {f.name: f for f in a.functions}, {f.name: f for f in b.functions}
    for name in list(fa) + [n for n in fb if n not in fa]:
        add(f"func @{name}", fa[name].totals() if name in fa else {}, fb[name].totals() if name in fb else {})
    add("total", a.totals(), b.totals())
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


# --------------------------------------------------------------------------- measuring


def cost(module_or_text, pipeline="shardy_full", *, rules=None,
         options: Mapping[str, Mapping[str, Any]] | None = None) -> CostReport:
    """Run PIPELINE (None: none), make the collectives explicit and measure them."""
    text, name = module_or_text, None
    if isinstance(module_or_text, Path):
        text, name = module_or_text.read_text(), str(module_or_text)
    runs = []
    if pipeline is not None:
        runs.append(run_pipeline(text, pipeline, rules=rules, options=options, debuginfo=True, source_name=name))
        text, name = runs[-1].text, None
    runs.append(run_pipeline(text, EXPLICIT_COLLECTIVES, rules=rules, debuginfo=True, source_name=name))
    report = measure(runs[-1].text)
    # A tuning file that one of the two runs reads is not unused: keep the first run's
    # warnings about a file that every run warns about.
    def file_of(warning: str) -> str:
        return warning.split(": warning: ")[0].rsplit(":", 2)[0]

    files = [{file_of(w) for w in run.warnings} for run in runs]
    report.warnings = [w for w in runs[0].warnings if all(file_of(w) in f for f in files)]
    return report


def measure(text: str) -> CostReport:
    """The cost report of a module whose collectives are explicit."""
    with make_context():
        module = ir.Module.parse(text)
        meshes = MeshTable(module.operation)
        functions = []
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func":
                functions.append(_function_cost(op, meshes))
        return CostReport(functions, text)


def _function_cost(func, meshes: MeshTable) -> FunctionCost:
    ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    out = FunctionCost(ir.StringAttr(func.attributes["sym_name"]).value)
    for key, types, values in (("arg_attrs", ftype.inputs, out.arguments), ("res_attrs", ftype.results, out.results)):
        attrs = list(ir.ArrayAttr(func.attributes[key])) if key in func.attributes else []
        for i, t in enumerate(types):
            entry = ir.DictAttr(attrs[i]) if i < len(attrs) else None
            sharding = codec.tensor_sharding(entry["sdy.sharding"]) \
                if entry is not None and "sdy.sharding" in entry else None
            values.append(Value(i, str(t), sharding.text() if sharding else "",
                                per_device_bytes(t, sharding, meshes)))
    table = interfaces.table()
    for op in ops_under(func):
        if op is not func and table.is_collective(op.name):
            out.collectives.append(collective(op, meshes))
    return out


def collective(op, meshes: MeshTable) -> Collective:
    """The Collective of an `sdy` collective op."""
    sharding = codec.tensor_sharding(op.attributes["out_sharding"])
    axes = " ".join(str(op.attributes[n]) for n in op.attributes if n != "out_sharding")
    kind = op.name.partition(".")[2]
    size = 0 if kind in LOCAL_ONLY else per_device_bytes(op.results[0].type, sharding, meshes)
    return Collective(kind, _strip_attr(axes), str(op.results[0].type), sharding.text(), size, _loc(op))


def _strip_attr(text: str) -> str:
    m = re.match(r"#sdy<\w+(.*)>$", text)
    return m.group(1) if m else text


def _loc(op) -> str:
    m = re.search(r'"([^"]+)":(\d+):(\d+)', str(op.location))
    return f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else ""


def element_bytes(element_type: ir.Type) -> int:
    text = str(element_type)
    m = re.fullmatch(r"complex<[a-z]*?(\d+)>", text)
    if m:
        return 2 * max(1, int(m.group(1)) // 8)
    m = re.search(r"(\d+)", text)
    return max(1, int(m.group(1)) // 8) if m else 4


def per_device_bytes(value_type: ir.Type, sharding: TensorSharding | None, meshes: MeshTable) -> int:
    """Bytes of one device's shard of a tensor of VALUE_TYPE sharded SHARDING."""
    try:
        value_type = ir.ShapedType(value_type)
    except (ValueError, TypeError):
        return 0  # a token, tuple, ...
    if not value_type.has_static_shape:
        return 0
    shape = list(value_type.shape)
    if sharding is not None and sharding.dims:
        mesh = meshes.mesh_of(sharding)
        for i, dim in enumerate(sharding.dims[:len(shape)]):
            shape[i] = math.ceil(shape[i] / dim.size(mesh))
    return math.prod(shape) * element_bytes(value_type.element_type)


def report_json(report: CostReport) -> str:
    return json.dumps(report.to_json(), indent=2)
