"""`sdy_dsl.explain` against the reference's debug attributes, read by this file alone.

tests/test_explain.py runs one story reader (sdy_dsl/stories.py) over the
reference's output and over ours, so a bug in that reader shows on both sides
alike and passes. Here the reference's `sdy.sharding_origins` and
`sdy.propagation_edges` are read from its output text by the few regular
expressions below, the chain of steps that carried each axis to a value is
worked out from those edges here, and what `explain` prints for the value
must name the same origin per axis and the same steps, in order.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

import sdy_dsl
from reference import run_reference
from sdy_dsl.mlir_context import make_context
from test_explain import REFERENCE_DEBUG  # shardy_full with the reference's debug options

ROOT = Path(__file__).resolve().parent.parent
MLP = (ROOT / "examples" / "mlp_grad_2x4.mlir").read_text()  # a JAX-lowered MLP's forward and backward pass
# Sub-axes, which the reference names `"x":(1)2` in its edges and `x:(1)2` in its origins.
SUB_AXES = """\
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}, {"y"}]>},
                %arg1: tensor<8x8x8xf32>,
                %arg2: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(2)2}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8x8xf32>
  %1 = stablehlo.multiply %0, %arg2 : tensor<8x8x8xf32>
  return %1 : tensor<8x8x8xf32>
}
"""
# A data-flow op: sdy-sink-data-flow-edges moves its edges' debug info onto it as
# `sdy.result_sharding_origins` / `sdy.result_propagation_edges` (one per result).
BARRIER = """\
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.optimization_barrier %0 : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
"""
MODULES = {"mlp": MLP, "sub-axes": SUB_AXES, "barrier": BARRIER}
# In the MLP: a value with two axes from two arguments, one reached through a
# step that moved an axis from an op's operand to another operand, one at the
# end of a chain of several ops (steps numbered past 9). With sub-axes: an op's
# result and an argument, each with a sub-axis and an axis.
VALUES = [("mlp", "main:%3"), ("mlp", "main:%7"), ("mlp", "main:%64"),
          ("sub-axes", "main:%1"), ("sub-axes", "main:%arg1"),
          ("barrier", "main:%1"), ("barrier", "main:%2")]

# An axis as the reference prints it: a name, quoted or not, maybe a sub-axis `"x":(1)2`.
AXIS = r'"[^"]*"(?::\(\d+\)\d+)?|[\w.]+'
ORIGIN_ENTRY = re.compile(rf'({AXIS}) = "([^"]*)"')
# The tokens of `#sdy.propagation_edges<[{step-N = [{AXIS = SOURCE -> [TARGET, ...]}, ...]}, ...]>`, in order.
EDGE_TOKEN = re.compile(rf'step-(\d+)|\{{({AXIS}) = ((?:operand|result)-\d+) -> \[([^\]]*)\]\}}')
# What explain prints.
PRINTED_AXIS = re.compile(r'^  axis (\S+): from .*\[origin "([^"]*)"\]$')
PRINTED_STEP = re.compile(r"^    step (\d+): (.+?): ((?:operand|result)-\d+) \((\S+)\) -> "
                          r"((?:operand|result)-\d+) \((\S+)\)(?:  \(.*\))?$")


def _axis(text: str) -> str:
    """`"x":(1)2` (an edge's) and `"x:(1)2"` (an origin's) are the axis explain calls `x:(1)2`."""
    return text.replace('"', "")


@dataclass(frozen=True)
class Edge:
    step: int
    axis: str
    source: str  # "operand-1"
    targets: tuple[str, ...]


@dataclass
class RefOp:
    label: str  # "%3 = stablehlo.dot_general", as explain names an op
    operands: list[str]
    results: list[str]
    edges: list[Edge]

    def value(self, ref: str) -> str:
        kind, _, index = ref.partition("-")
        return (self.operands if kind == "operand" else self.results)[int(index)]


def edges_of(text: str) -> list[Edge]:
    edges, step = [], None
    for token in EDGE_TOKEN.finditer(text):
        if token.group(1) is not None:
            step = int(token.group(1))
        else:
            targets = tuple(t.strip() for t in token.group(4).split(",") if t.strip())
            edges.append(Edge(step, _axis(token.group(2)), token.group(3), targets))
    return edges


def origins_of(text: str) -> list[dict[str, str]]:
    """One {axis: origin} per `{...}` of an origins attribute (a dictionary, or an array of them)."""
    return [{_axis(a): o for a, o in ORIGIN_ENTRY.findall(d)} for d in re.findall(r"\{[^{}]*\}", text)]


class Reference:
    """The reference's output: per value of @main its sharding and origins, per op its edges."""

    def __init__(self, text: str):
        self.ops: list[RefOp] = []
        self.shardings: dict[str, str] = {}
        self.origins: dict[str, dict[str, str]] = {}
        with make_context():
            module = ir.Module.parse(text)
            state = ir.AsmState(module.operation)
            main = next(op for op in module.body.operations
                        if op.operation.name == "func.func" and str(op.operation.attributes["sym_name"]) == '"main"')
            block = main.operation.regions[0].blocks[0]
            for arg, attrs in zip(block.arguments, ir.ArrayAttr(main.operation.attributes["arg_attrs"])):
                attrs = ir.DictAttr(attrs)
                name = arg.get_name(state)
                self.shardings[name] = str(attrs["sdy.sharding"])
                if "sdy.sharding_origins" in attrs:
                    self.origins[name] = origins_of(str(attrs["sdy.sharding_origins"]))[0]
            for op in block.operations:
                op = op.operation
                results = [r.get_name(state) for r in op.results]
                attrs = op.attributes
                edges = [e for key in ("sdy.propagation_edges", "sdy.result_propagation_edges") if key in attrs
                         for e in edges_of(str(attrs[key]))]
                self.ops.append(RefOp(f"{results[0]} = {op.name}" if results else op.name,
                                      [v.get_name(state) for v in op.operands], results, edges))
                if "sdy.sharding" in attrs:
                    for name, sharding in zip(results, sdy.TensorShardingPerValueAttr(attrs["sdy.sharding"]).shardings):
                        self.shardings[name] = str(sharding)
                for key in ("sdy.sharding_origins", "sdy.result_sharding_origins"):
                    if key in attrs:
                        self.origins.update(zip(results, origins_of(str(attrs[key]))))

    def chain(self, value: str, axis: str) -> list[tuple]:
        """The steps that carried AXIS to VALUE, oldest first: from VALUE, the latest
        edge of AXIS that reached it (an edge's target naming it), then the latest
        earlier one that reached that edge's source, and so on."""
        hops, current, before = [], value, math.inf
        while True:
            reached = [(e.step, op, e, target) for op in self.ops for e in op.edges
                       if e.axis == axis and e.step < before for target in e.targets if op.value(target) == current]
            if not reached:
                return hops[::-1]
            step, op, edge, target = max(reached, key=lambda r: r[0])
            hops.append((step, op.label, edge.source, op.value(edge.source), target, current))
            current, before = op.value(edge.source), step


def printed_story(text: str) -> tuple[str, dict[str, str], dict[str, list[tuple]]]:
    """(sharding, {axis: origin}, {axis: hops}) of what explain printed."""
    sharding = re.search(r"^  sharding: (.*)$", text, re.M).group(1)
    origins, chains, axis = {}, {}, None
    for line in text.splitlines():
        if m := PRINTED_AXIS.match(line):
            axis = m.group(1)
            origins[axis], chains[axis] = m.group(2), []
        elif line.startswith("    step "):
            m = PRINTED_STEP.match(line)
            assert m, f"a step line this test cannot read: {line!r}"
            chains[axis].append((int(m.group(1)), *m.group(2, 3, 4, 5, 6)))
    return sharding, origins, chains


@pytest.fixture(scope="module")
def references() -> dict[str, Reference]:
    found = {}
    for name, text in MODULES.items():
        ok, output = run_reference(text, REFERENCE_DEBUG)
        assert ok
        found[name] = Reference(output)
    return found


@pytest.mark.parametrize("module, spec", VALUES)
def test_explain_names_the_reference_origins_and_steps(references, module, spec):
    printed = sdy_dsl.explain(MODULES[module], spec, "shardy_full")  # the chain REFERENCE_DEBUG runs
    sharding, origins, chains = printed_story(printed)
    reference, name = references[module], spec.split(":")[1]
    assert sharding == reference.shardings[name]
    assert origins == reference.origins[name], printed
    for axis in origins:
        assert chains[axis] == reference.chain(name, axis), printed


def test_the_oracle_reads_what_it_must(references):
    """Not vacuous: the reference recorded origins and edges, and the values
    checked above have chains, of several steps, from two arguments."""
    reference = references["mlp"]
    assert reference.origins["%arg8"] == {"data": "self"}
    assert reference.origins["%3"] == {"data": "input: 8", "model": "input: 0"}
    assert reference.chain("%3", "model") == [(9, "%3 = stablehlo.dot_general", "operand-1", "%arg0", "result-0", "%3")]
    assert reference.chain("%7", "data") == [(0, "%8 = stablehlo.add", "operand-0", "%arg8", "operand-1", "%7")]
    assert [hop[0] for hop in reference.chain("%64", "model")] == [9, 10, 34, 35, 36]
    sub_axes = references["sub-axes"]
    assert sub_axes.origins["%1"] == {"x:(1)2": "input: 0", "x:(2)2": "input: 2", "y": "input: 0"}
    assert sub_axes.chain("%1", "x:(1)2") == [(0, "%0 = stablehlo.add", "operand-0", "%arg0", "result-0", "%0"),
                                              (1, "%1 = stablehlo.multiply", "operand-0", "%0", "result-0", "%1")]
    assert edges_of('#sdy.propagation_edges<[{step-3 = [{"x":(1)2 = operand-0 -> [operand-1, result-0]}]}, '
                    '{step-12 = [{y = result-0 -> [operand-0]}]}]>') == [
        Edge(3, "x:(1)2", "operand-0", ("operand-1", "result-0")), Edge(12, "y", "result-0", ("operand-0",))]
