"""Snapshots of whole-pipeline outputs on the bundled examples.

Each snapshot is also checked against the C++ reference on the same pipeline,
so a snapshot never records a wrong output. The pipeline snapshots go through
sdy-dsl's pytest plugin (`sdy_dsl_snapshot`), as a user's would.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

ROOT = Path(__file__).parent.parent
PIPELINE = ROOT / "pipelines" / "import_export.yaml"
REFERENCE_PIPELINE = ("builtin.module(inline,symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,"
                      "sdy-remove-sharding-groups,func.func(sdy-sharding-constraint-to-reshard),sdy-close-shardings)")
EXAMPLES = ["mlp_grad_2x4", "shard_map_2x4", "gpt2l_grad_2x4"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_import_export_pipeline_snapshot(name, sdy_dsl_snapshot):
    """Through the installed pytest plugin: a readable __snapshots__/test_snapshots/*.mlir per example."""
    example = ROOT / "examples" / f"{name}.mlir"
    result = sdy_dsl_snapshot(example, PIPELINE)
    ok, expected = run_reference(example.read_text(), REFERENCE_PIPELINE)
    assert ok and result.text == expected
    rc, out, err = run_sdy_dsl(["run", str(PIPELINE), str(example)])  # the CLI gives the same output
    assert rc == 0 and out == result.text, err


TRACED = """\
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <mesh<["a"=4]>, [{"a"}, {?}]> : tensor<8x8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""


def test_trace_snapshot(tmp_path, snapshot):
    """--trace names the rule, the op and its location, in firing order; --trace-json too."""
    source = tmp_path / "m.mlir"
    source.write_text(TRACED)
    passes = ["-sdy-lift-inlined-meshes", "-sdy-close-shardings", "-sdy-sharding-constraint-to-reshard"]
    rc, _, err = run_sdy_dsl(["opt", str(source), *passes, "--trace"])
    assert rc == 0
    text_trace = [line.replace(str(source), "m.mlir") for line in err.splitlines()]
    rc, _, err = run_sdy_dsl(["opt", str(source), *passes, "--trace-json"])
    assert rc == 0
    json_trace = [line.replace(str(source), "m.mlir") for line in err.splitlines()]
    assert (text_trace, json_trace) == snapshot
