"""Attribute kernels (sdy_dsl/interp/kernels.py): a rule that only edits its
root's attributes, with constraints and arguments that are pure functions of
them, is applied by its kernel (its verdict and arguments evaluated once per
distinct attribute) unless a trace, statistics or --explain asks about its
attempts; both ways give the same module and the same errors."""
from __future__ import annotations

import textwrap

from lit_runner import run_sdy_dsl
from test_driver_costs import counting_closed
from sdy_dsl.interp.rulefile import load_rule_file

MODULE = textwrap.dedent("""\
    sdy.mesh @m = <["x"=2, "y"=4]>
    func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
      %0 = stablehlo.negate %a {demo.s = #sdy.sharding<@m, [{"x", ?}]>} : tensor<8xf32>
      %1 = stablehlo.negate %0 {demo.s = #sdy.sharding<@m, [{"x", ?}]>} : tensor<8xf32>
      %2 = stablehlo.abs %1 {demo.s = #sdy.sharding<@m, [{"y", ?}]>} : tensor<8xf32>
      %3 = stablehlo.abs %2 {demo.s = #sdy.sharding<@m, [{"y"}]>} : tensor<8xf32>
      %4 = stablehlo.abs %3 {demo.s = 1 : i64} : tensor<8xf32>
      return %4 : tensor<8xf32>
    }
    """)

CLOSE = textwrap.dedent("""\
    pass: demo-close-attr
    summary: Closes `demo.s` where it is open.
    anchor: func.func
    rules:
      - id: close
        match: "$op = stablehlo.negate|stablehlo.abs {demo.s = $s}"
        where: not is_fully_closed($s)
        rewrite:
          - set_attr($op, "demo.s", closed($s))
          - remove_attr($op, "demo.gone")
    """)


def run(tmp_path, rule_text: str, *flags, module: str = MODULE):
    rules = tmp_path / "rules"
    rules.mkdir(exist_ok=True)
    (rules / "t.yaml").write_text(rule_text)
    (tmp_path / "m.mlir").write_text(module)
    return run_sdy_dsl(["opt", str(tmp_path / "m.mlir"), "--rules", str(rules), *flags])


def test_a_kernel_evaluates_each_distinct_attribute_once_with_the_generic_result(tmp_path, monkeypatch):
    module = MODULE.replace("%4 = stablehlo.abs %3 {demo.s = 1 : i64}", "%4 = stablehlo.abs %3")
    calls = counting_closed(monkeypatch)
    rc, fast, err = run(tmp_path, CLOSE, "-demo-close-attr", module=module)
    assert rc == 0, err
    assert len(calls) == 2  # {"x", ?} and {"y", ?}
    assert fast.count('demo.s = #sdy.sharding<@m, [{"x"}]>') == 2
    assert fast.count('demo.s = #sdy.sharding<@m, [{"y"}]>') == 2
    calls.clear()
    rc, traced, err = run(tmp_path, CLOSE, "-demo-close-attr", "--trace", module=module)
    assert rc == 0, err
    assert len(calls) == 3  # the generic path: on every op whose sharding is open
    assert traced == fast
    assert err.count("fired on") == 3


def test_a_kernel_fails_like_the_generic_path(tmp_path):
    rc, _, fast = run(tmp_path, CLOSE, "-demo-close-attr")
    assert rc != 0
    assert "rule 'close' failed on 'stablehlo.abs' at" in fast, fast
    rc, _, traced = run(tmp_path, CLOSE, "-demo-close-attr", "--trace")
    assert rc != 0
    assert [line for line in traced.splitlines() if "error" in line] == fast.splitlines()


def test_a_walk_of_kernels_on_any_op_skips_the_anchor_and_keeps_the_order(tmp_path):
    # The any-op kernel runs in Python's own post-order walk; the function
    # (the anchor) keeps its attribute, errors come from the first op in that order.
    rule = CLOSE.replace("stablehlo.negate|stablehlo.abs", "*")
    module = MODULE.replace("func.func @f(", 'func.func @f(').replace(
        "-> tensor<8xf32> {", '-> tensor<8xf32> attributes {demo.s = #sdy.sharding<@m, [{"x", ?}]>} {', 1)
    rc, _, err = run(tmp_path, rule, "-demo-close-attr", module=module)
    assert rc != 0 and "failed on 'stablehlo.abs' at" in err and ":7:" in err, err
    ok = module.replace("%4 = stablehlo.abs %3 {demo.s = 1 : i64}", "%4 = stablehlo.abs %3")
    rc, out, err = run(tmp_path, rule, "-demo-close-attr", module=ok)
    assert rc == 0, err
    assert 'attributes {demo.s = #sdy.sharding<@m, [{"x", ?}]>}' in out
    assert out.count('[{"x"}]') == 2 and out.count('[{"y"}]') == 2


def test_only_rules_about_their_root_attributes_have_kernels(tmp_path):
    impure = CLOSE.replace("- id: close", "- id: close").replace(
        "where: not is_fully_closed($s)", "where: not is_fully_closed($s) and has_sharding(%x)").replace(
        "$op = stablehlo.negate|stablehlo.abs {demo.s = $s}", "$op = stablehlo.negate|stablehlo.abs(%x) {demo.s = $s}")
    hooked = CLOSE.replace('set_attr($op, "demo.s", closed($s))', 'set_attr($op, "demo.s", attr($op, "demo.s"))')
    for text, has_kernel in ((CLOSE, True), (impure, False), (hooked, False)):
        path = tmp_path / "k.yaml"
        path.write_text(text)
        assert (load_rule_file(path).rules[0].kernel is not None) == has_kernel, text


def test_a_pure_hook_is_called_once_per_distinct_sharding(tmp_path):
    from test_driver_costs import COUNTING, COUNTING_HOOKS, run as run_counting
    impure_rule = COUNTING.replace("closed($s)", "counted_closed($s)")
    _, impure = run_counting(tmp_path, impure_rule, "-demo-close", hooks=COUNTING_HOOKS)
    pure_hooks = COUNTING_HOOKS.replace("@hook\n", "@hook(pure=True)\n")
    (tmp_path / "pure").mkdir()  # (hook modules load once per path)
    out, pure = run_counting(tmp_path / "pure", impure_rule, "-demo-close", hooks=pure_hooks)
    assert impure.count("counted_closed") == 3  # on every sharding
    # once per distinct sharding (the argument's attribute and the per-value ones hold the same)
    assert pure.count("counted_closed") == 1
    assert '?' not in out.split("func.func")[1]


def test_a_kernel_of_builtins_evaluates_an_attribute_once_for_all_functions(tmp_path, monkeypatch):
    # CLOSE runs on each function (anchor: func.func); its constraint and
    # arguments call built-in functions only: its plans hold for the whole pass.
    two = MODULE.split("func.func")[0] + "".join(
        f"""func.func @f{i}(%a: tensor<8xf32>) -> tensor<8xf32> {{
          %0 = stablehlo.negate %a {{demo.s = #sdy.sharding<@m, [{{"x", ?}}]>}} : tensor<8xf32>
          return %0 : tensor<8xf32>
        }}
        """ for i in range(2))
    calls = counting_closed(monkeypatch)
    rc, out, err = run(tmp_path, CLOSE, "-demo-close-attr", module=two)
    assert rc == 0, err
    assert out.count('demo.s = #sdy.sharding<@m, [{"x"}]>') == 2
    assert len(calls) == 1
    assert load_rule_file(tmp_path / "rules" / "t.yaml").rules[0].kernel.pass_wide
