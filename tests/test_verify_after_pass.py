"""The module is verified once, after the last pass, when a pass may have
changed it (issue 22: MLIR's verifier is most of the C++ pipeline's own time);
with -verify-each, after every pass that may have changed it (as MLIR's pass
manager does), and never after a pass that changed nothing."""
from __future__ import annotations

import textwrap

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl import pipeline

MODULE = textwrap.dedent("""\
    sdy.mesh @m = <["x"=2]>
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stablehlo.negate %a : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    """)

# Gives the negate a sharding of the wrong rank: only the verifier notices.
BAD_RANK = textwrap.dedent("""\
    pass: demo-bad-rank
    summary: Sets a rank-2 sharding on a rank-1 tensor.
    rules:
      - id: bad-rank
        match: "%r = stablehlo.negate(%x)"
        rewrite:
          - set_attr($root, "sdy.sharding", shardings_attr())
    """)
BAD_RANK_HOOKS = textwrap.dedent("""\
    from jaxlib.mlir import ir
    from sdy_dsl.hooks import hook

    @hook
    def shardings_attr() -> ir.Attribute:
        return ir.Attribute.parse('#sdy.sharding_per_value<[<@m, [{}, {}]>]>')
    """)


@pytest.fixture
def verify_calls(monkeypatch):
    calls = []
    real = pipeline.verify_or_raise

    def counting(module_op, pass_name, after_last_pass=False):
        calls.append(("after the last pass: " if after_last_pass else "") + pass_name)
        real(module_op, pass_name, after_last_pass)
    monkeypatch.setattr(pipeline, "verify_or_raise", counting)
    return calls


def write_rules(tmp_path, text, hooks):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "demo.yaml").write_text(text)
    (rules / "demo.py").write_text(hooks)
    return rules


def test_a_pass_that_changes_nothing_is_not_verified(tmp_path, verify_calls):
    path = tmp_path / "m.mlir"
    path.write_text(MODULE)
    # Nothing to close (no sharding), nothing to convert: both leave the module as it is.
    rc, out, err = run_sdy_dsl(["opt", str(path), "-sdy-close-shardings", "-sdy-sharding-constraint-to-reshard"])
    assert rc == 0, err
    assert verify_calls == []
    assert "stablehlo.negate %arg0" in out


def test_a_changed_module_is_verified_once_after_the_last_pass(tmp_path, verify_calls):
    path = tmp_path / "m.mlir"
    path.write_text(MODULE.replace("tensor<4xf32>) ->", 'tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}]>}) ->'))
    argv = ["opt", str(path), "-sdy-close-shardings", "-sdy-sharding-constraint-to-reshard"]
    rc, out, err = run_sdy_dsl(argv)
    assert rc == 0, err
    assert verify_calls == ["after the last pass: sdy-sharding-constraint-to-reshard"]
    assert '#sdy.sharding<@m, [{"x"}]>' in out
    verify_calls.clear()
    rc, out_each, err = run_sdy_dsl(argv + ["-verify-each"])
    assert rc == 0 and out_each == out, err
    assert verify_calls == ["sdy-close-shardings"]  # the second pass changed nothing


@pytest.mark.parametrize("flags, calls, note", [
    ([], ["after the last pass: demo-bad-rank"],
     "note: the module does not verify after the last pass ('demo-bad-rank'); -verify-each finds the pass"),
    (["-verify-each"], ["demo-bad-rank"], "note: pass 'demo-bad-rank' produced this invalid IR"),
])
def test_invalid_ir_from_a_pass_is_still_reported(tmp_path, verify_calls, flags, calls, note):
    path = tmp_path / "m.mlir"
    path.write_text(MODULE)
    rules = write_rules(tmp_path, BAD_RANK, BAD_RANK_HOOKS)
    rc, out, err = run_sdy_dsl(["opt", str(path), "-demo-bad-rank", "--rules", str(rules)] + flags)
    assert rc != 0 and out == ""
    assert verify_calls == calls
    assert "error:" in err and "rank" in err and note in err, err
