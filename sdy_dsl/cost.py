"""What a sharding costs before compiling: the collectives Shardy's export inserts.

    report = sdy_dsl.cost.cost(text)  # pipeline="sdy-propagation-pipeline", what XLA runs
    print(report.text())            # or report.to_json()

Runs PIPELINE (propagation; `None` for a module already propagated: any
module a pipeline produced, inlined meshes and explicit collectives included), then
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
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from jaxlib.mlir import ir

from .api import _is_path, module_source, run_pipeline
from .mlir_context import make_context
from .runtime import interfaces
from .runtime.sharding import codec
from .runtime.values import MeshTable, ops_under, per_device_bytes
from .stories import _location_text as location_text  # (one home: explain names locations so)

_CANONICALIZE = "canonicalize{{enable-patterns={{{}}} max-iterations=10 region-simplify=aggressive}}"


def _explicit_collectives_pipeline(insert_reshards: bool) -> str:
    # (meshes lifted first: a pipeline may end with sdy-inline-meshes, which
    # the explicit reshards do not take)
    return ("builtin.module(sdy-lift-inlined-meshes,func.func(sdy-sharding-constraint-to-reshard),"
            "sdy-close-shardings,"
            + ("func.func(sdy-insert-explicit-reshards{enable-full-version=true})," if insert_reshards else "")
            + _CANONICALIZE.format("sdy-reshard") + ",func.func(sdy-reshard-to-collectives),"
            + _CANONICALIZE.format("sdy-collective") + ")")


EXPLICIT_COLLECTIVES = _explicit_collectives_pipeline(insert_reshards=True)
# For a module whose collectives are already explicit (the full version of
# explicit reshards ran): running it again would reduce every partial result
# a second time.
ALREADY_EXPLICIT = _explicit_collectives_pipeline(insert_reshards=False)
LOCAL_ONLY = ("all_slice",)  # collectives that move no data


@dataclass
class Collective:
    kind: str  # all_gather, all_slice, all_to_all, collective_permute, all_reduce, reduce_scatter, ...
    axes: str  # the op's axes attribute, as printed
    tensor: str  # its result type
    sharding: str  # its result sharding
    bytes: int  # per device (see the module docstring)
    loc: str = ""
    operand_bytes: int = 0  # its operand's per-device size (a reduce_scatter's is its bytes x the axes' size)
    operand: int = 0  # which value of its function it reshards (the same number: the same value)


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
    return "\n".join(_table(rows))


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """ROWS as lines of left-aligned columns."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


# --------------------------------------------------------------------------- beside XLA's program


def xla_comparison_text(report: CostReport, compiled: Mapping[str, Mapping[str, int]],
                        shapes: Mapping[str, Mapping[str, int]] | None = None) -> str:
    """REPORT's totals beside COMPILED (sdy_dsl.jax.compiled_collectives of the
    same sharding decisions), per kind, then where and why they differ
    (SHAPES: sdy_dsl.jax.collective_shapes_in_hlo of XLA's program, to say
    what it moved)."""
    ours = _hyphenated(report.totals())
    rows = [("", "sdy-dsl", "XLA")]
    for kind in sorted(set(ours) | set(compiled)):
        rows.append((f"  {kind}", _count_text(ours.get(kind)), _count_text(compiled.get(kind))))
    lines = _table(rows)
    notes = xla_differences(report, compiled, shapes)
    lines += ["where they differ:"] + [f"  {n}" for n in notes] if notes else \
        ["XLA's program moves what sdy-dsl estimated."]
    return "\n".join(lines)


def xla_differences(report: CostReport, compiled: Mapping[str, Mapping[str, int]],
                    shapes: Mapping[str, Mapping[str, int]] | None = None) -> list[str]:
    """One line per way XLA's compiled collectives differ from REPORT's, with
    the reason (see xla_comparison_text)."""
    ours = _hyphenated(report.totals())
    xla = {k: dict(v) for k, v in compiled.items()}
    collectives = [c for f in report.functions for c in f.collectives]
    notes = []
    slices = ours.pop("all-slice", None)
    if slices and "all-slice" not in xla:
        notes.append(f"all-slice: sdy-dsl's {slices['count']} move no data; XLA slices locally (no collective)")
    scatters = [c for c in collectives if c.kind == "reduce_scatter"]
    reduces = ours.get("all-reduce", _NONE)
    if scatters and "reduce-scatter" not in xla:
        operands = sum(c.operand_bytes for c in scatters)
        if xla.get("all-reduce", _NONE)["bytes"] == reduces["bytes"] + operands:
            notes.append(f"reduce-scatter: XLA runs each of sdy-dsl's {len(scatters)} as an all-reduce of its operand "
                         f"({operands} bytes in all), then a local slice: this backend has no reduce-scatter")
            del ours["reduce-scatter"]
            ours["all-reduce"] = {"count": reduces["count"] + len(scatters), "bytes": reduces["bytes"] + operands}
    for kind in sorted(set(ours) | set(xla)):
        mine, theirs = ours.get(kind, _NONE), xla.get(kind, _NONE)
        if mine == theirs:
            continue
        head = f"{kind}: sdy-dsl {_count_text(mine)}, XLA {_count_text(theirs)}"
        moved = ", ".join(f"{n}x {shape}" for shape, n in sorted((shapes or {}).get(kind, {}).items(),
                                                                 key=lambda kv: -kv[1]))
        xla_moved = f"; XLA's: {moved}" if moved else ""
        if kind == "all-reduce" and mine["bytes"] == theirs["bytes"] and theirs["count"] < mine["count"]:
            notes.append(f"{head}: the same bytes in fewer ops, XLA's all-reduce combiner merges independent "
                         f"all-reduces")
        elif not mine["count"]:
            notes.append(f"{head}: XLA's partitioner chose these for reshards Shardy makes with other collectives"
                         f"{xla_moved.replace('; ', ' (', 1) + ')' if moved else ''}")
        else:
            own = [c for c in collectives if _hyphen(c.kind) == kind]
            values = len({(f.name, c.operand) for f in report.functions for c in f.collectives
                          if _hyphen(c.kind) == kind})
            if not theirs["count"]:
                why = ("XLA's program has none: its partitioner made these reshards with other collectives, or "
                       "with none where it still had the value whole")
            elif values < len(own) and theirs["count"] < mine["count"] and \
                    theirs["bytes"] * mine["count"] == mine["bytes"] * theirs["count"]:
                why = (f"Shardy reshards {values} values {len(own)} times, once for each op that uses one "
                       f"(explicit reshards fix each op's operands); XLA's partitioner reuses a resharded value")
            else:
                why = "Shardy's explicit reshards and XLA's partitioner chose different collectives"
            notes.append(f"{head}: {why} (Shardy's: {_groups_text(own)}{xla_moved})")
    return notes


_NONE = {"count": 0, "bytes": 0}


def _hyphen(kind: str) -> str:
    return kind.replace("_", "-")  # (sdy op names; XLA's HLO opcodes)


def _hyphenated(totals) -> dict:
    return {_hyphen(k): dict(v) for k, v in totals.items()}


def _count_text(entry) -> str:
    return f"{entry['count']} ({entry['bytes']} bytes)" if entry and entry["count"] else "-"


def _groups_text(collectives, limit: int = 3) -> str:
    groups: dict[tuple, int] = {}
    for c in collectives:
        key = (c.tensor, c.sharding, c.bytes, c.loc)
        groups[key] = groups.get(key, 0) + 1
    ranked = sorted(groups.items(), key=lambda kv: -kv[1])
    parts = [f"{n}x {t} -> {s.removeprefix('#sdy.sharding')} ({b} bytes){' at ' + loc if loc else ''}"
             for (t, s, b, loc), n in ranked[:limit]]
    if len(ranked) > limit:
        parts.append(f"{len(ranked) - limit} more")
    return "; ".join(parts)


# --------------------------------------------------------------------------- measuring


DEFAULT_PIPELINE = "sdy-propagation-pipeline"  # what XLA runs on a JAX module


def cost(module_or_text, pipeline=DEFAULT_PIPELINE, *, rules=None,
         options: Mapping[str, Mapping[str, Any]] | None = None, source_name: str | None = None) -> CostReport:
    """Run PIPELINE (None: none), make the collectives explicit and measure them.

    MODULE_OR_TEXT: what `run_pipeline` takes. SOURCE_NAME names the input in
    errors and collective locations (default: the path, for a file)."""
    if source_name is None and _is_path(module_or_text):
        source_name = str(module_or_text)
    text = module_source(module_or_text)
    runs = []
    if pipeline is not None:
        runs.append(run_pipeline(text, pipeline, rules=rules, options=options, debuginfo=True,
                                 source_name=source_name))
        text = runs[-1].text
    # (the output keeps the input's locations: errors and locations still name it)
    runs.append(explicit_collectives_run(text, rules=rules, source_name=source_name))
    report = measure(runs[-1].text, source_name)
    report.warnings = unused_in_every_run([run.warnings for run in runs])
    return report


def unused_in_every_run(warnings_per_run: list[list[str]]) -> list[str]:
    """The first run's warnings about a tuning file that every run warns about:
    a file that one of the runs reads is not unused."""
    def file_of(warning: str) -> str:
        return warning.split(": warning: ")[0].rsplit(":", 2)[0]

    files = [{file_of(w) for w in warnings} for warnings in warnings_per_run]
    return [w for w in warnings_per_run[0] if all(file_of(w) in f for f in files)]


def make_collectives_explicit(text: str | bytes, *, rules=None, source_name: str | None = None) -> str:
    """TEXT (a propagated module) with its communication as explicit
    collectives, as Shardy's export makes it (EXPLICIT_COLLECTIVES, or
    ALREADY_EXPLICIT for a module that has collectives)."""
    return explicit_collectives_run(text, rules=rules, source_name=source_name).text


def explicit_collectives_run(text: str | bytes, *, rules=None, source_name: str | None = None):
    """make_collectives_explicit's run (its PipelineResult: text and warnings)."""
    pipeline = ALREADY_EXPLICIT if _has_collectives(text) else EXPLICIT_COLLECTIVES
    return run_pipeline(text, pipeline, rules=rules, debuginfo=True, source_name=source_name)


def _has_collectives(text: str | bytes) -> bool:
    table = interfaces.table()
    with make_context():
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError:
            return False  # (run_pipeline reports it, located)
        return any(table.is_collective(op.name) for op in ops_under(module.operation))


def measure(text: str, source_name: str | None = None) -> CostReport:
    """The cost report of a module whose collectives are explicit; SOURCE_NAME
    replaces the unnamed file (`-`) of its locations."""
    with make_context():
        module = ir.Module.parse(text)
        meshes = MeshTable(module.operation)
        functions = []
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func":
                functions.append(_function_cost(op, meshes, source_name))
        return CostReport(functions, text)


def _function_cost(func, meshes: MeshTable, source_name: str | None) -> FunctionCost:
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
    operands: dict = {}
    for op in ops_under(func):
        if op is not func and table.is_collective(op.name):
            out.collectives.append(collective(op, meshes, source_name))
            out.collectives[-1].operand = operands.setdefault(op.operands[0], len(operands))
    return out


def collective(op, meshes: MeshTable, source_name: str | None = None) -> Collective:
    """The Collective of an `sdy` collective op."""
    sharding = codec.tensor_sharding(op.attributes["out_sharding"])
    axes = " ".join(str(op.attributes[n]) for n in op.attributes if n != "out_sharding")
    kind = op.name.partition(".")[2]
    size = 0 if kind in LOCAL_ONLY else per_device_bytes(op.results[0].type, sharding, meshes)
    operand = op.operands[0]
    return Collective(kind, _strip_attr(axes), str(op.results[0].type), sharding.text(), size,
                      location_text(op.location, source_name or "-"),
                      per_device_bytes(operand.type, interfaces.sharding_of(operand), meshes))


def _strip_attr(text: str) -> str:
    m = re.match(r"#sdy<\w+(.*)>$", text)
    return m.group(1) if m else text




def report_json(report: CostReport) -> str:
    return json.dumps(report.to_json(), indent=2)
