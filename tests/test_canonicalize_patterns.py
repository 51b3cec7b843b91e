"""`canonicalize{enable-patterns={L}}` runs the sdy patterns of label L from
their rule files (rules/canonicalize/), then MLIR's canonicalize without any
of jaxlib's C++ sdy patterns."""
from __future__ import annotations

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl.api import run_pipeline
from sdy_dsl.errors import SdyDslError

MODULE = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  %1 = stablehlo.negate %arg0 : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
"""
PRINTED = ("builtin.module(canonicalize{cse-between-iterations=false  enable-patterns={sdy-collective}  "
           "max-iterations=10 max-num-rewrites=-1 region-simplify=aggressive test-convergence=false "
           "top-down=false})")


def test_printed_export_step_runs_rules_and_mlir_dead_code():
    out = run_pipeline(MODULE, PRINTED).text
    assert "sdy.all_gather" not in out  # the rule all-gather-noop
    assert "stablehlo.negate" not in out  # MLIR's canonicalize: dead code
    assert "return %arg0" in out


def test_no_cpp_sdy_pattern_runs(tmp_path):
    """With the rule disabled, the no-op all-gather stays: jaxlib's own
    AllGatherNoopPattern (same label) did not run."""
    path = tmp_path / "m.mlir"
    path.write_text(MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(path), f"--pass-pipeline={PRINTED}", "--disable-rule", "all-gather-noop"])
    assert rc == 0, err
    assert "sdy.all_gather [{}, {}]" in out and "stablehlo.negate" not in out


def test_yaml_pipeline_list_form(tmp_path):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("passes:\n  - canonicalize: {enable-patterns: [sdy-collective, sdy-reshard], "
                        "max-iterations: 10}\n")
    out = run_pipeline(MODULE, pipeline).text
    assert "sdy.all_gather" not in out


def test_unknown_sdy_label_is_an_error():
    with pytest.raises(SdyDslError, match="not implemented by sdy-dsl yet: canonicalization patterns 'sdy-other'"):
        run_pipeline(MODULE, "builtin.module(canonicalize{enable-patterns={sdy-other}})")
