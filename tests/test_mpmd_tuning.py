"""A user tunes an mpmd pass from YAML alone: a pass file in `--rules DIR`
that `extends:` mpmd-mark-offloaded-input-output and adds ops to its
`params: buffer-keeping-ops` table (merged per op and per custom_call target
over the built-in table) changes which fragment results are found on host.

The reference has no mpmd passes; the expectations are the pass's spec
(rules/mpmd/mark_offloaded_input_output.yaml): a result is on host when the
value returned traces back, through buffer-keeping ops, to a placement on
host, and a function result declared on host must come from such a result.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl

HOST = '{mhlo.memory_kind = "pinned_host"}'

# Four results declared on host, each returned through a different op after
# a placement on host: a transpose, a custom_call @MyKeep (neither keeps the
# buffer in the built-in table), a custom_call @Sharding and an optimization
# barrier (both do).
MODULE = textwrap.dedent("""\
    !t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
    !u = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
    func.func @main(%arg0: !t) -> (!u {mhlo.memory_kind = "pinned_host"}, !t {mhlo.memory_kind = "pinned_host"},
                                   !t {mhlo.memory_kind = "pinned_host"}, !t {mhlo.memory_kind = "pinned_host"})
        attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
      %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4x8xf32>) {
        %h = stablehlo.custom_call @annotate_device_placement(%a) {has_side_effect = true,
            mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
        %t = stablehlo.transpose %h, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
        %m = stablehlo.custom_call @MyKeep(%h) : (tensor<4x8xf32>) -> tensor<4x8xf32>
        %s = stablehlo.custom_call @Sharding(%h) : (tensor<4x8xf32>) -> tensor<4x8xf32>
        %b:2 = stablehlo.optimization_barrier %a, %h : tensor<4x8xf32>, tensor<4x8xf32>
        mpmd.return %t, %m, %s, %b#1 : tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
      } : (!t) -> (!u, !t, !t, !t)
      return %0#0, %0#1, %0#2, %0#3 : !u, !t, !t, !t
    }
    """)

EXTENSION = """\
pass: mpmd-mark-offloaded-input-output
extends: mpmd-mark-offloaded-input-output
params:
  buffer-keeping-ops:
{entries}
"""


def _run(tmp_path: Path, entries: str | None):
    source = tmp_path / "in.mlir"
    source.write_text(MODULE)
    argv = ["opt", str(source), "-mpmd-mark-offloaded-input-output"]
    if entries is not None:
        rules = tmp_path / "my_rules"
        rules.mkdir()
        (rules / "offload.yaml").write_text(EXTENSION.format(entries=textwrap.indent(textwrap.dedent(entries), "    ")))
        argv += ["--rules", str(rules)]
    return run_sdy_dsl(argv)


def _mismatched_results(err: str) -> list[int]:
    return [int(n) for n in re.findall(r"Memory kind mismatch between result (\d+) and defining op", err)]


def test_builtin_table_misses_transpose_and_unlisted_target(tmp_path):
    rc, _, err = _run(tmp_path, None)
    assert rc != 0
    assert _mismatched_results(err) == [0, 1]
    assert 'error: Memory kind mismatch between result 0 and defining op: "pinned_host" vs <<NULL ATTRIBUTE>>' in err


@pytest.mark.parametrize("entries, mismatched", [
    # A new op and a new custom_call target; the built-in entries still apply.
    ("""\
     stablehlo.transpose: {keeps: {operand: 0}}
     stablehlo.custom_call:
       cases:
         MyKeep: {keeps: {operand: 0}}
     """, []),
    # Only the transpose: @MyKeep still stops the search.
    ("stablehlo.transpose: {keeps: same-index-operand}\n", [1]),
    # Removing built-in entries: the barrier and the @Sharding target.
    ("""\
     stablehlo.transpose: {keeps: {operand: 0}}
     stablehlo.optimization_barrier: delete
     stablehlo.custom_call:
       cases:
         Sharding: delete
         MyKeep: {keeps: {operand: 0}}
     """, [2, 3]),
])
def test_extension_changes_which_results_are_on_host(tmp_path, entries, mismatched):
    rc, out, err = _run(tmp_path, entries)
    assert _mismatched_results(err) == mismatched
    if mismatched:
        assert rc != 0
        return
    assert rc == 0, err
    fragment = next(line for line in out.splitlines() if "mpmd.fragment" in line)
    assert f"res_attrs = [{HOST}, {HOST}, {HOST}, {HOST}]" in fragment
    assert "arg_attrs = [{}]" in fragment


@pytest.mark.parametrize("entries, where, message", [
    ("stablehlo.transpos: {keeps: {operand: 0}}\n", "offload.yaml:5:5",
     "unknown op 'stablehlo.transpos'; did you mean 'stablehlo.transpose'?"),
    ("stablehlo.transpose: {keeps: {operand: first}}\n", "offload.yaml:5:34",
     "'stablehlo.transpose': 'keeps: operand' takes {operand: int}, not negative"),
    ("stablehlo.transpose: {keeps: first-operand}\n", "offload.yaml:5:34",
     "'stablehlo.transpose': 'keeps' is one of: same-index-operand, {operand: int}, {region-result: int}, "
     "callee-result"),
    ("stablehlo.transpose: {keeps: {operand: 0}, when: same-rank}\n", "offload.yaml:5:54",
     "'stablehlo.transpose': 'when' is {ATTR: VALUE} or one of: only-unit-dims-differ"),
])
def test_bad_table_entries_are_located_errors(tmp_path, entries, where, message):
    rc, out, err = _run(tmp_path, entries)
    assert rc != 0 and out == ""
    assert f"{where}: error: {message}" in err, err
    assert "Traceback" not in err
