"""--trace / --rule-stats inside propagation (issue 13, problem 6): each step that
changed shardings says which value, through which edge, from what to what,
numbered like sdy.propagation_edges; --trace-file and --trace-filter;
--rule-stats times propagation steps."""
from __future__ import annotations

import json
import re

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

MLP = """\
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 : tensor<8x32xf32>
  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
"""
LINE = re.compile(r"^(?P<loc>\S+:(?P<line>\d+):\d+): trace: sdy-basic-propagate/step (?P<step>\d+) "
                  r"'(?P<op>[\w.]+)' (?P<edge>(operand|result)-\d+) (?P<value>%\w+): "
                  r"(?P<before>.*) -> (?P<after>.*)$")


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "m.mlir"
    path.write_text(MLP)
    return path


def traced(model, *flags):
    rc, out, err = run_sdy_dsl(["opt", str(model), "-sdy-basic-propagate", "--trace", *flags])
    assert rc == 0, err
    return out, [LINE.match(line) for line in err.splitlines()]


def test_propagation_trace_lines_say_value_edge_before_after_and_step(model):
    out, lines = traced(model)
    assert all(lines), lines
    assert [(m["step"], m["op"], m["edge"], m["value"]) for m in lines] == [
        ("0", "stablehlo.dot_general", "result-0", "%0"),
        ("1", "stablehlo.tanh", "result-0", "%1"),
        ("2", "stablehlo.dot_general", "operand-1", "%arg2"),
        ("2", "stablehlo.dot_general", "result-0", "%2"),
        ("3", "func.func", "result-0", "%2"),
    ]
    # The last "after" of each op result is the sharding the output gives it (checked against the reference).
    ok, expected = run_reference(MLP, "builtin.module(sdy-basic-propagate)")
    assert ok and out == expected
    for m in lines:
        if m["op"] != "func.func" and m["edge"] == "result-0":
            after = m["after"].replace("#sdy.sharding<", "<")
            assert f"{m['value']} = {m['op']}" in out
            op_line = next(line for line in out.splitlines() if line.strip().startswith(f"{m['value']} = "))
            assert f"#sdy.sharding_per_value<[{after}]>" in op_line
        assert m["before"] == "<none>"


def test_step_numbers_are_those_of_sdy_propagation_edges(model):
    _, lines = traced(model)
    traced_steps = {(int(m["line"]), int(m["step"])) for m in lines}
    rc, out, err = run_sdy_dsl(["opt", str(model), "-sdy-basic-propagate=debug-propagation-edge-sharding=true"])
    assert rc == 0, err
    ok, expected = run_reference(MLP, "builtin.module(sdy-basic-propagate{debug-propagation-edge-sharding=true})")
    assert ok and out == expected
    # An op's input line, by its result name (the func op: its own line).
    line_of = {src.split("=")[0].strip(): i for i, src in enumerate(MLP.splitlines(), 1)
               if src.strip().startswith("%")}
    recorded = set()
    for text in out.splitlines():
        name = text.split("=")[0].strip()
        op_line = 2 if text.strip().startswith("func.func") else line_of.get(name)
        recorded |= {(op_line, int(step)) for step in re.findall(r"step-(\d+)", text)}
    assert recorded and recorded <= traced_steps


def test_trace_file_and_filter(model, tmp_path):
    trace_file = tmp_path / "trace.txt"
    rc, _, err = run_sdy_dsl(["opt", str(model), "-sdy-basic-propagate", "--trace-file", str(trace_file),
                              "--trace-filter", "%1"])
    assert rc == 0 and err == ""
    lines = trace_file.read_text().splitlines()
    assert len(lines) == 1 and LINE.match(lines[0])["value"] == "%1"  # not %10, not other values
    rc, _, err = run_sdy_dsl(["opt", str(model), "-sdy-basic-propagate", "--trace-json",
                              "--trace-filter", "stablehlo.dot_general"])
    rows = [json.loads(line) for line in err.splitlines()]
    assert [(r["step"], r["edge"], r["value"]) for r in rows] == [
        (0, "result-0", "%0"), (2, "operand-1", "%arg2"), (2, "result-0", "%2")]
    assert rows[0]["after"] == '#sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>'


def test_rule_stats_time_propagation_steps(model):
    rc, _, err = run_sdy_dsl(["opt", str(model), "-sdy-basic-propagate", "--rule-stats"])
    assert rc == 0, err
    rows = {m[0]: (int(m[1]), float(m[2])) for m in
            re.findall(r"^sdy-basic-propagate/(step:\S+) +(\d+) +\d+ +\d+ +\d+ +(\d+\.\d+)$", err, re.M)}
    assert set(rows) == {"step:stablehlo.dot_general", "step:stablehlo.tanh", "step:func.func"}
    assert rows["step:stablehlo.dot_general"][0] == 2
    assert sum(ms for _, ms in rows.values()) > 0.0


def test_progress_inside_propagation(model, monkeypatch):
    from sdy_dsl.trace import PropagationTrace
    monkeypatch.setattr(PropagationTrace, "PROGRESS_SECONDS", 0.0)  # a line per step
    rc, _, err = run_sdy_dsl(["opt", str(model), "-sdy-basic-propagate", "--progress"])
    assert rc == 0, err
    rows = re.findall(r"^progress: sdy-basic-propagate: (\d+) steps, (\d+) changed shardings, "
                      r"(\d+) of (\d+) ops visited \(\d+\.\d s\)$", err, re.M)
    steps = [int(r[0]) for r in rows]
    assert steps == list(range(1, len(rows) + 1)) and len(rows) >= 4
    # Every step that changed shardings is counted (4 of them, numbered 0-3 in the trace above).
    assert int(rows[-1][1]) == 4
    assert {int(r[3]) for r in rows} == {7}  # the module, the mesh, the func, its 3 ops and return
    assert int(rows[-1][2]) <= 7


SHARED_CONSTANT = """\
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  %1 = stablehlo.multiply %arg0, %c : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
"""


def test_splitter_and_merger_hooks_trace_and_count_their_changes(tmp_path):
    """The splitter and merger run as stage hooks, not a rule per op: each change
    still shows in --trace (where) and --rule-stats (how many), like a rule."""
    path = tmp_path / "m.mlir"
    path.write_text(SHARED_CONSTANT)
    rc, out, err = run_sdy_dsl(["opt", str(path), "-sdy-constant-or-scalar-splitter",
                                "-sdy-constant-or-scalar-merger", "--trace", "--rule-stats"])
    assert rc == 0, err
    lines = err.splitlines()
    assert lines[:3] == [
        f"{path}:3:8: trace: sdy-constant-or-scalar-splitter/split fired on 'stablehlo.add'",
        f"{path}:4:8: trace: sdy-constant-or-scalar-splitter/split fired on 'stablehlo.multiply'",
        f"{path}:2:8: trace: sdy-constant-or-scalar-merger/merge fired on 'sdy.constant'"]
    stats = {line.split()[0]: line.split()[1:4] for line in lines[4:]}
    assert stats == {"sdy-constant-or-scalar-merger/merge": ["1", "1", "1"],
                     "sdy-constant-or-scalar-splitter/split": ["2", "2", "2"]}
    assert out.count("sdy.constant dense<1.000000e+00>") == 1  # split in two, merged back


TWO_CALLS = """\
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def traced_pipeline(tmp_path, pass_flag: str) -> tuple[str, list[str]]:
    """TWO_CALLS through PASS_FLAG with --trace: (output, trace lines as 'WHAT @LINE')."""
    path = tmp_path / "m.mlir"
    path.write_text(TWO_CALLS)
    rc, out, err = run_sdy_dsl(["opt", str(path), pass_flag, "--trace"])
    assert rc == 0, err
    traced = [re.match(r"^.*:(\d+):\d+: trace: (.*)$", line).groups() for line in err.splitlines()]
    return out, [f"{what} @{line}" for line, what in traced]


def test_call_graph_hooks_trace_each_call(tmp_path):
    """The call-graph passes run as stage hooks: the pipeline's trace still shows
    the second call getting a copy of @f, both calls becoming named computations and
    back, and the copy deduplicated away; the output is the reference's."""
    out, lines = traced_pipeline(tmp_path, "-sdy-propagation-pipeline")
    call_graph = [line for line in lines if re.search(r"'(func.call|sdy.named_computation)' @", line)]
    assert call_graph == [
        "sdy-flatten-call-graph/copy-callee fired on 'func.call' @4",
        "sdy-import-func-calls/import fired on 'func.call' @3",
        "sdy-import-func-calls/import fired on 'func.call' @4",
        "sdy-export-named-computations/export fired on 'sdy.named_computation' @3",
        "sdy-export-named-computations/export fired on 'sdy.named_computation' @4",
        "sdy-unflatten-call-graph/call-deduplicated fired on 'func.call' @4"]
    ok, reference = run_reference(TWO_CALLS, "builtin.module(sdy-propagation-pipeline)")
    assert ok and out == reference


def test_func_data_flow_edge_hooks_trace_each_owner_and_edge(tmp_path):
    """With dedup-functions-fully the pipeline adds func data-flow edges (on @f's
    argument, on each call's result) and sinks them again: each shows in the trace."""
    out, lines = traced_pipeline(tmp_path, "-sdy-propagation-pipeline=dedup-functions-fully=true")
    edges = [line for line in lines if "func-data-flow-edges/" in line]
    assert edges == [
        "sdy-add-func-data-flow-edges/add-edges fired on 'func.func' @7",
        "sdy-add-func-data-flow-edges/add-edges fired on 'func.call' @3",
        "sdy-add-func-data-flow-edges/add-edges fired on 'func.call' @4",
        "sdy-sink-func-data-flow-edges/sink-edge fired on 'sdy.func_data_flow_edge' @3",
        "sdy-sink-func-data-flow-edges/sink-edge fired on 'sdy.func_data_flow_edge' @4",
        "sdy-sink-func-data-flow-edges/sink-edge fired on 'sdy.func_data_flow_edge' @7"]
    ok, reference = run_reference(TWO_CALLS, "builtin.module(sdy-propagation-pipeline{dedup-functions-fully=true})")
    assert ok and out == reference
