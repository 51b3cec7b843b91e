"""A builder-made sharding rule takes factor kinds by the builder's role names
(issue #23): `stablehlo.dot_general: {builder: dot_general, blocked_propagation:
[contracting]}` behaves as the reference does with the same rule, written out
with `blocked_propagation`, attached to the op, on any dot_general (here a
batched, transposed one)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from lit_runner import run_sdy_dsl
from reference import run_reference

MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["a"=2, "b"=2]>
    func.func @main(%arg0: tensor<4x16x8xf32>, %arg1: tensor<4x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}, {"a"}]>}) -> tensor<4x8x32xf32> {
      %0 = stablehlo.negate %arg0 : tensor<4x16x8xf32>
      %1 = stablehlo.dot_general %0, %arg1, batching_dims = [0] x [0], contracting_dims = [1] x [2]%s : (tensor<4x16x8xf32>, tensor<4x32x16xf32>) -> tensor<4x8x32xf32>
      return %1 : tensor<4x8x32xf32>
    }
    """)
# The same factors the builder makes (batch, lhs/rhs non-contracting, contracting).
RULE = (' {sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j],[i, k, l])->([i, j, k]) '
        '{i=4, j=8, k=32, l=16} reduction={l}%s, custom>}')


def _opt(tmp_path: Path, declaration: str | None) -> str:
    module = tmp_path / "m.mlir"
    module.write_text(MODULE.replace("%s", ""))
    argv = ["opt", str(module), "-sdy-basic-propagate"]
    if declaration is not None:
        rules = tmp_path / "my_rules"
        rules.mkdir(exist_ok=True)
        (rules / "op_sharding_rules.yaml").write_text(f"stablehlo.dot_general: {declaration}\n")
        argv += ["--rules", str(rules)]
    rc, out, err = run_sdy_dsl(argv)
    assert rc == 0, err
    return out


def _reference(kinds: str) -> str:
    """The reference's output with the rule (its factor kinds: KINDS) on the dot_general, the rule dropped."""
    ok, out = run_reference(MODULE.replace("%s", RULE.replace(" reduction={l}%s", kinds)),
                            "builtin.module(sdy-basic-propagate)")
    assert ok, out
    return re.sub(r"(, )?sdy\.sharding_rule = #sdy\.op_sharding_rule<.*?, custom>", "", out)


def test_blocked_contracting_factor_by_role_matches_the_reference(tmp_path):
    out = _opt(tmp_path, "{builder: dot_general, blocked_propagation: [contracting]}")
    assert out == _reference(" reduction={l} blocked_propagation={l}")
    # Blocked: the rhs's contracting "a" does not reach the negate; "b" still reaches the result.
    assert "%0 = stablehlo.negate %arg0 : tensor<4x16x8xf32>" in out


def test_without_roles_the_contracting_factor_propagates(tmp_path):
    out = _opt(tmp_path, None)
    assert out == _reference(" reduction={l}")
    assert '%0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}, {?}]>]>}' in out


def test_kinds_by_role_in_the_populated_rule(tmp_path):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "op_sharding_rules.yaml").write_text(
        "stablehlo.dot_general: {builder: dot_general, need_replication: [contracting], "
        "blocked_propagation: [batch]}\n")
    module = tmp_path / "m.mlir"
    module.write_text(MODULE.replace("%s", ""))
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-populate-op-sharding-rules", "--rules", str(rules)])
    assert rc == 0, err
    assert ("{sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j], [i, k, l])->([i, j, k]) "
            "{i=4, j=8, k=32, l=16} need_replication={l} blocked_propagation={i}>}") in out


def test_unknown_role_is_a_located_error(tmp_path):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "op_sharding_rules.yaml").write_text(
        "stablehlo.dot_general: {builder: dot_general, blocked_propagation: [contractin]}\n")
    module = tmp_path / "m.mlir"
    module.write_text(MODULE.replace("%s", ""))
    rc, _, err = run_sdy_dsl(["opt", str(module), "-sdy-basic-propagate", "--rules", str(rules)])
    assert rc == 1
    assert err.strip() == (f"{rules}/op_sharding_rules.yaml:1:69: error: builder 'dot_general' has no factor "
                           "role 'contractin'; its roles: batch, lhs_non_contracting, rhs_non_contracting, "
                           "contracting")


def test_reduce_kinds_by_role(tmp_path):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "op_sharding_rules.yaml").write_text("stablehlo.reduce: {builder: reduce, need_replication: [reduced]}\n")
    module = tmp_path / "m.mlir"
    module.write_text(textwrap.dedent("""\
        func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4xf32> {
          %c = stablehlo.constant dense<0.0> : tensor<f32>
          %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
          return %0 : tensor<4xf32>
        }
        """))
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-populate-op-sharding-rules", "--rules", str(rules)])
    assert rc == 0, err
    assert "#sdy.op_sharding_rule<([i, j], [])->([i]) {i=4, j=8} need_replication={j}>" in out
