"""Propagation pass options that do not change the output module."""
from __future__ import annotations

from pathlib import Path

from lit_runner import run_sdy_dsl

ROOT = Path(__file__).resolve().parent.parent


def test_module_dump_directory_holds_the_module_before_and_after(tmp_path):
    example = ROOT / "examples" / "mlp_grad_2x4.mlir"
    dump = tmp_path / "dump"
    rc, before, err = run_sdy_dsl(["opt", str(example)])
    assert rc == 0, err
    rc, after, err = run_sdy_dsl(["opt", str(example), f"-sdy-basic-propagate=module-dump-directory={dump}"])
    assert rc == 0, err
    assert before != after
    assert (dump / "sdy_module_before_propagation.mlir").read_text().strip() == before.strip()
    assert (dump / "sdy_module_after_propagation.mlir").read_text().strip() == after.strip()


SMALL = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""


def test_trace_and_rule_stats_show_propagation_steps(tmp_path):
    path = tmp_path / "m.mlir"
    path.write_text(SMALL)
    rc, plain, err = run_sdy_dsl(["opt", str(path), "-sdy-basic-propagate"])
    assert rc == 0, err
    rc, out, err = run_sdy_dsl(["opt", str(path), "-sdy-basic-propagate", "--trace"])
    assert rc == 0 and out == plain  # observing does not change the result
    # One line per tensor a step changed: step number, op, edge, value, before -> after.
    open_a = '#sdy.sharding<@mesh, [{"a", ?}, {?}]>'
    assert err.splitlines() == [
        f"{path}:3:8: trace: sdy-basic-propagate/step 0 'stablehlo.add' operand-1 %arg1: <none> -> {open_a}",
        f"{path}:3:8: trace: sdy-basic-propagate/step 0 'stablehlo.add' result-0 %0: <none> -> {open_a}",
        f"{path}:4:8: trace: sdy-basic-propagate/step 1 'stablehlo.negate' result-0 %1: <none> -> {open_a}",
        f"{path}:2:1: trace: sdy-basic-propagate/step 2 'func.func' result-0 %1: <none> -> {open_a}",
    ]
    rc, out, err = run_sdy_dsl(["opt", str(path), "-sdy-basic-propagate", "--rule-stats"])
    rows = {line.split()[0]: line.split()[1:5] for line in err.splitlines()[1:]}
    # attempts, matches, changed, no-op per op kind
    assert rows["sdy-basic-propagate/step:stablehlo.add"][2] == "1"
    assert rows["sdy-basic-propagate/step:stablehlo.negate"][2] == "1"
    assert rows["sdy-basic-propagate/step:func.func"][2] == "1"
