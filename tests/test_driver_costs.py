"""A rule that cannot apply to an op costs (almost) nothing there (issue 12),
with the same results as trying it everywhere:

- a `*` rule whose first constraint is a predicate with declared op names
  (`is_data_flow_op($op)`) is tried on those ops only;
- a stage none of whose rules can fire (a leading constraint about no
  metavariable fails) is not walked, unless --explain asks about one;
- a pure lambda given to for_each_sharding is evaluated once per distinct
  sharding attribute and stage, an impure one (a hook) on every sharding;
- the `once` driver finds named roots without visiting the other ops, still
  in pre-order (an op before the ops nested in it).
"""
from __future__ import annotations

import textwrap

from lit_runner import run_sdy_dsl
from sdy_dsl.runtime.sharding import TensorSharding

MODULE = textwrap.dedent("""\
    sdy.mesh @m = <["x"=2, "y"=4]>
    func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}]>}) -> tensor<8xf32> {
      %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}]>]>} : tensor<8xf32>
      %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}]>]>} : tensor<8xf32>
      %2 = stablehlo.optimization_barrier %1 : tensor<8xf32>
      %3 = sdy.named_computation<"inner">(%2) (%b: tensor<8xf32>) {
        %4 = stablehlo.abs %b : tensor<8xf32>
        sdy.return %4 : tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      return %3 : tensor<8xf32>
    }
    """)


def run(tmp_path, rule_text: str, *flags, hooks: str | None = None, name: str = "t"):
    rules = tmp_path / "rules"
    rules.mkdir(exist_ok=True)
    (rules / f"{name}.yaml").write_text(rule_text)
    if hooks is not None:
        (rules / f"{name}.py").write_text(hooks)
    (tmp_path / "m.mlir").write_text(MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(tmp_path / "m.mlir"), "--rules", str(rules), *flags])
    assert rc == 0, err
    return out, err


def stats_of(err: str, rule: str) -> list[str]:
    """attempts, matches, fired, no-op of one rule in --rule-stats."""
    return [line.split() for line in err.splitlines() if line.split() and line.split()[0].endswith(rule)][0][1:5]


GUARDED = textwrap.dedent("""\
    pass: demo-tag-data-flow-ops
    summary: Tags every data-flow op.
    driver: {kind: once}
    rules:
      - id: tag
        match: "$op = *"
        where:
          - is_data_flow_op($op)
        rewrite:
          - set_attr($op, "demo.tag", 1)
    """)


def test_a_guarded_any_op_rule_is_tried_on_the_ops_it_names(tmp_path):
    out, err = run(tmp_path, GUARDED, "-demo-tag-data-flow-ops", "--rule-stats")
    # optimization_barrier and named_computation are data-flow ops (rules/interfaces.yaml).
    assert out.count("demo.tag = 1") == 2
    assert "stablehlo.optimization_barrier {demo.tag = 1 : i64} %1" in out
    assert stats_of(err, "tag") == ["2", "2", "2", "0"]


def assert_explained(err: str, count: int, why: str) -> None:
    explained = [line for line in err.splitlines() if "explain:" in line]
    assert len(explained) == count, err
    assert all(why in line for line in explained), err


def test_explain_still_sees_every_op_of_a_guarded_rule(tmp_path):
    _, err = run(tmp_path, GUARDED, "-demo-tag-data-flow-ops", "--explain", "tag")
    # sdy.mesh, func.func, negate, negate, abs, sdy.return, func.return: the predicate fails on each.
    assert_explained(err, 7, "constraint 1 failed: is_data_flow_op($op)")


NEVER = textwrap.dedent("""\
    pass: demo-only-with-size-one-axes
    summary: Tags ops when some mesh has a size-one axis.
    rules:
      - id: tag
        match: "$op = stablehlo.negate"
        where: any_of(meshes(), $m => any_of($m.axes, $a => $a.size == 1))
        rewrite:
          - set_attr($op, "demo.tag", 1)
    """)


def test_a_stage_whose_rules_cannot_fire_is_not_walked(tmp_path):
    out, err = run(tmp_path, NEVER, "-demo-only-with-size-one-axes", "--rule-stats")
    assert "demo.tag" not in out
    assert not any("tag" in line.split()[0] for line in err.splitlines()[1:] if line.split()), err
    # With a size-one axis the rule fires on both negates.
    (tmp_path / "rules").joinpath("t.yaml").write_text(NEVER)
    module = MODULE.replace('"y"=4', '"y"=1')
    (tmp_path / "m1.mlir").write_text(module)
    rc, out, err = run_sdy_dsl(["opt", str(tmp_path / "m1.mlir"), "--rules", str(tmp_path / "rules"),
                                "-demo-only-with-size-one-axes"])
    assert rc == 0, err
    assert out.count("demo.tag = 1") == 2


def test_explain_of_a_rule_that_cannot_fire_names_the_constraint(tmp_path):
    _, err = run(tmp_path, NEVER, "-demo-only-with-size-one-axes", "--explain", "tag")
    assert_explained(err, 2, "constraint 1 failed: any_of(meshes()")


COUNTING = textwrap.dedent("""\
    pass: demo-close
    summary: Closes every sharding.
    rules:
      - id: close-pure
        match: "$op = *"
        rewrite:
          - for_each_sharding($op, $s => closed($s))
    """)
COUNTING_IMPURE = COUNTING.replace("closed($s)", "counted_closed($s)").replace("close-pure", "close-impure")
COUNTING_HOOKS = textwrap.dedent("""\
    import sys
    from sdy_dsl.hooks import hook
    from sdy_dsl.runtime.sharding import TensorSharding

    @hook
    def counted_closed(s: TensorSharding) -> TensorSharding:
        print("counted_closed", file=sys.stderr)
        return s.closed()
    """)


def counting_closed(monkeypatch) -> list:
    calls = []
    real = TensorSharding.closed

    def closed(self):
        calls.append(self)
        return real(self)
    monkeypatch.setattr(TensorSharding, "closed", closed)
    return calls


def test_a_pure_transform_is_evaluated_once_per_distinct_sharding(tmp_path, monkeypatch):
    calls = counting_closed(monkeypatch)
    pure, _ = run(tmp_path, COUNTING, "-demo-close")
    # The argument's sharding attribute, and the per-value attribute both negates
    # hold, hold the same sharding.
    assert len(calls) == 1
    assert '?' not in pure.split("func.func")[1]  # every sharding is closed
    assert pure.count('[{"x"}]') == 3


def test_an_impure_transform_is_called_for_every_sharding(tmp_path, monkeypatch):
    pure, _ = run(tmp_path, COUNTING, "-demo-close")
    impure, err = run(tmp_path, COUNTING_IMPURE, "-demo-close", hooks=COUNTING_HOOKS)
    assert impure == pure
    assert err.count("counted_closed") == 3


ORDER = textwrap.dedent("""\
    pass: demo-order
    summary: Visits named ops (one nested in another) in pre-order.
    driver: {kind: once}
    rules:
      - id: visit
        match: "$op = sdy.named_computation|stablehlo.abs|stablehlo.negate"
        rewrite:
          - set_attr($op, "demo.tag", 1)
    """)
ORDER_BOTTOM_UP = ORDER.replace("{kind: once}", "{kind: once, traversal: bottom-up}")


def fired_on(err: str) -> list[str]:
    return [line.rsplit("'", 2)[1] for line in err.splitlines() if "fired on" in line]


def test_the_once_driver_visits_named_roots_in_pre_order(tmp_path):
    _, err = run(tmp_path, ORDER, "-demo-order", "--trace")
    assert fired_on(err) == ["stablehlo.negate", "stablehlo.negate", "sdy.named_computation", "stablehlo.abs"]
    _, err = run(tmp_path, ORDER_BOTTOM_UP, "-demo-order", "--trace")
    assert fired_on(err) == ["stablehlo.abs", "sdy.named_computation", "stablehlo.negate", "stablehlo.negate"]


MARKED = textwrap.dedent("""\
    pass: demo-unmark
    summary: Drops `demo.mark` wherever it is.
    anchor: func.func
    rules:
      - id: unmark
        match: "$op = * {demo.mark}"
        rewrite:
          - remove_attr($op, "demo.mark")
    """)


def test_a_walk_over_any_op_needing_an_attribute_still_finds_every_op_that_has_it(tmp_path):
    module = MODULE.replace("%a {sdy.sharding", "%a {demo.mark, sdy.sharding").replace(
        "%4 = stablehlo.abs %b", "%4 = stablehlo.abs %b {demo.mark}")
    (tmp_path / "m.mlir").write_text(module)
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "t.yaml").write_text(MARKED)
    rc, out, err = run_sdy_dsl(["opt", str(tmp_path / "m.mlir"), "--rules", str(rules), "-demo-unmark", "--trace"])
    assert rc == 0, err
    assert "demo.mark" not in out
    assert fired_on(err) == ["stablehlo.negate", "stablehlo.abs"]
