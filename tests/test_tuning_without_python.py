"""Propagation changes only because a rule file changed: a new custom_call
sharding rule, and a reordered op-priority heuristics list. No Python involved.

Expected outputs come from the C++ reference: for the custom_call, the same
module with the equivalent rule attached to the op as a custom
`sdy.sharding_rule` (which the reference honours); for the heuristics, a
list whose only heuristic lets every op propagate both ways makes
op-priority propagation the same as one aggressive propagation.
"""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

BUILTIN = Path(__file__).resolve().parent.parent / "rules" / "propagation"

CUSTOM_CALL_MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2, "y"=4]>
    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
      %0 = stablehlo.custom_call @my_scale(%arg0) ATTRS: (tensor<8x16xf32>) -> tensor<8x16xf32>
      %1 = stablehlo.negate %0 : tensor<8x16xf32>
      return %1 : tensor<8x16xf32>
    }
    """)
CUSTOM_RULE_ATTR = "{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} "


def user_rules_with_custom_call(tmp_path: Path) -> Path:
    rules = tmp_path / "my_rules"
    rules.mkdir()
    text = (BUILTIN / "op_sharding_rules.yaml").read_text()
    anchor = "  cases:\n"
    at = text.index(anchor, text.index("stablehlo.custom_call:")) + len(anchor)
    text = text[:at] + '    my_scale: "([i, j]) -> ([i, j])"   # a user\'s kernel: pointwise\n' + text[at:]
    (rules / "op_sharding_rules.yaml").write_text(text)
    return rules


def test_new_custom_call_rule_changes_propagation(tmp_path):
    module = tmp_path / "m.mlir"
    module.write_text(CUSTOM_CALL_MODULE.replace("ATTRS", ""))

    rc, before, err = run_sdy_dsl(["opt", str(module), "-sdy-basic-propagate"])
    assert rc == 0, err
    ok, reference_before = run_reference(module.read_text(), "builtin.module(sdy-basic-propagate)")
    assert ok and before == reference_before
    assert "custom_call @my_scale(%arg0) :" in before  # unknown target: nothing propagates through it

    rules = user_rules_with_custom_call(tmp_path)
    rc, after, err = run_sdy_dsl(["opt", str(module), "-sdy-basic-propagate", "--rules", str(rules)])
    assert rc == 0, err
    ok, reference_after = run_reference(CUSTOM_CALL_MODULE.replace("ATTRS", CUSTOM_RULE_ATTR),
                                        "builtin.module(sdy-basic-propagate)")
    assert ok
    custom_rule = ", sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>"
    assert custom_rule in reference_after
    assert after == reference_after.replace(custom_rule, "")
    assert after != before
    assert '<@mesh, [{"x", ?}, {"y", ?}]>' in after


# Elementwise ops propagate first under the default heuristics, so the add's
# column sharding wins; all at once (aggressive), the dot's row sharding wins.
HEURISTICS_MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      %1 = stablehlo.negate %0 : tensor<8x8xf32>
      %2 = stablehlo.add %1, %arg2 : tensor<8x8xf32>
      return %2 : tensor<8x8xf32>
    }
    """)


def test_reordered_heuristics_change_op_priority_propagation(tmp_path):
    imported = tmp_path / "m.mlir"
    imported.write_text(HEURISTICS_MODULE)
    text = HEURISTICS_MODULE

    rc, default_out, err = run_sdy_dsl(["opt", str(imported), "-sdy-op-priority-propagate"])
    assert rc == 0, err
    ok, op_priority = run_reference(text, "builtin.module(sdy-op-priority-propagate)")
    assert ok and default_out == op_priority
    assert '%2 = stablehlo.add %1, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}' in default_out
    ok, aggressive = run_reference(text, "builtin.module(sdy-aggressive-propagate)")
    assert ok
    assert default_out != aggressive  # the heuristics matter on this module

    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "op_priority_heuristics.yaml").write_text(
        "# The catch-all heuristic first: every op propagates both ways from the start.\n"
        "order: [any, pass-through-ops-single-use, pass-through-ops,\n"
        "        only-pass-through-factors-broadcast-backward, any-except-broadcast-forward]\n")
    rc, tuned, err = run_sdy_dsl(["opt", str(imported), "-sdy-op-priority-propagate", "--rules", str(rules)])
    assert rc == 0, err
    assert tuned == aggressive


def test_bad_heuristics_file_points_at_its_line(tmp_path):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    bad = rules / "op_priority_heuristics.yaml"
    bad.write_text("heuristics:\n  - name: any\n    default: SIDEWAYS\n")
    module = tmp_path / "m.mlir"
    module.write_text(CUSTOM_CALL_MODULE.replace("ATTRS", ""))
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-op-priority-propagate", "--rules", str(rules)])
    assert rc == 1 and out == ""
    assert err.startswith(f"{bad}:2:5: error: heuristic 'any'")


# sdy-insert-explicit-reshards: which ops always get the full resolution is
# data in the pass's rule file. Listing `stablehlo.add` there makes the
# default mode resolve the add as the reference's full version does.
EXPLICIT_RESHARDS_MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=4, "y"=2]>
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
      %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
      return %0 : tensor<8x8xf32>
    }
    """)
EXPORT_RULES = BUILTIN.parent / "export"


def user_copy_of_explicit_reshards(tmp_path: Path, edit) -> Path:
    """A copy of the pass file in a user's rule directory (it finds the built-in hooks)."""
    rules = tmp_path / "my_rules"
    rules.mkdir()
    text = (EXPORT_RULES / "insert_explicit_reshards.yaml").read_text()
    (rules / "insert_explicit_reshards.yaml").write_text(edit(text))
    return rules


def test_listed_op_gets_the_full_resolution(tmp_path):
    module = tmp_path / "m.mlir"
    module.write_text(EXPLICIT_RESHARDS_MODULE)
    rc, before, err = run_sdy_dsl(["opt", str(module), "-sdy-insert-explicit-reshards"])
    assert rc == 0, err
    ok, reference_default = run_reference(EXPLICIT_RESHARDS_MODULE,
                                          "builtin.module(func.func(sdy-insert-explicit-reshards))")
    assert ok and before == reference_default
    assert "sdy.reshard" not in before

    # One entry changed, the rest of the pass extended as it is.
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "explicit_reshards.yaml").write_text(
        "pass: sdy-insert-explicit-reshards\nextends: sdy-insert-explicit-reshards\n"
        "params:\n  full-version-ops: [func.call, mhlo.ragged_dot, stablehlo.add]\n")
    rc, after, err = run_sdy_dsl(["opt", str(module), "-sdy-insert-explicit-reshards", "--rules", str(rules)])
    assert rc == 0, err
    ok, reference_full = run_reference(
        EXPLICIT_RESHARDS_MODULE, "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))")
    assert ok and after == reference_full
    assert 'sdy.reshard %arg1 <@mesh, [{"x"}, {}]>' in after


@pytest.mark.parametrize("old,new,key,message", [
    ("candidate-ranking: [source-tensor-size,", "candidate-ranking: [size,", "candidate-ranking",
     "'candidate-ranking': unknown candidate ranking field 'size'"),
    ("after-op: [all-reduces, result-reshards]", "after-op: [all-reduces]", "after-op",
     "'after-op' names each of: all-reduces, result-reshards once (missing: result-reshards)"),
    ("  full-version-ops: [func", "  full-version-op: [func", "full-version-op",
     "unknown param 'full-version-op' (did you mean 'full-version-ops'?)"),
    ("factor-type-precedence: {pass_through: 3,", "factor-type-precedence: {pass_thru: 3,",
     "factor-type-precedence", "unknown factor type 'pass_thru' (did you mean 'pass_through'?)"),
])
def test_bad_explicit_reshards_data_points_at_its_line(tmp_path, old, new, key, message):
    rules = user_copy_of_explicit_reshards(tmp_path, lambda t: t.replace(old, new))
    module = tmp_path / "m.mlir"
    module.write_text(EXPLICIT_RESHARDS_MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-insert-explicit-reshards", "--rules", str(rules)])
    lines = (rules / "insert_explicit_reshards.yaml").read_text().splitlines()
    params = lines.index("params:")  # (the param, not its declared type, is at fault)
    line = next(i for i, t in enumerate(lines, 1) if i > params and t.startswith(f"  {key}:"))
    assert rc == 1 and out == ""
    assert err.startswith(f"{rules / 'insert_explicit_reshards.yaml'}:{line}:")
    assert message in err


@pytest.mark.parametrize("line,error", [
    # a misspelled key: located, with the closest declared param
    ("factor-type-precedenc: {pass_through: 0}",
     ":4:3: error: unknown param 'factor-type-precedenc' (did you mean 'factor-type-precedence'?)\n"),
    # a mapping a file extends is merged over the base's, then checked whole
    ("factor-type-precedence: {pass_through: 0}", None),
], ids=["misspelled", "partial-table"])
def test_an_extending_files_params_are_checked_against_the_declared_types(tmp_path, line, error):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "explicit_reshards.yaml").write_text(
        f"pass: sdy-insert-explicit-reshards\nextends: sdy-insert-explicit-reshards\nparams:\n  {line}\n")
    module = tmp_path / "m.mlir"
    module.write_text(EXPLICIT_RESHARDS_MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-insert-explicit-reshards", "--rules", str(rules)])
    if error is None:
        assert rc == 0, err
    else:
        assert rc == 1 and out == "" and err == f"{rules / 'explicit_reshards.yaml'}{error}"
