"""The expression language on concrete IR: absent optional attributes compare with `none`."""
import textwrap

from lit_runner import run_sdy_dsl

RULE = textwrap.dedent("""\
    pass: sdy-test-none-compare
    summary: Removes `tag` where present.
    rules:
      - id: drop-tag
        match: "$op = stablehlo.negate {tag = $t?}"
        where: $t != none
        rewrite:
          - remove_attr($op, "tag")
    """)
MODULE = textwrap.dedent("""\
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stablehlo.negate %a {tag = 1 : i64} : tensor<4xf32>
      %1 = stablehlo.negate %0 : tensor<4xf32>
      return %1 : tensor<4xf32>
    }
    """)


def test_optional_attribute_compares_with_none(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "t.yaml").write_text(RULE)
    (tmp_path / "m.mlir").write_text(MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(tmp_path / "m.mlir"), "--rules", str(rules),
                                "-sdy-test-none-compare", "--rule-stats"])
    assert rc == 0, err
    assert "tag" not in out
    assert out.count("stablehlo.negate") == 2
    stats = [line.split() for line in err.splitlines() if "drop-tag" in line][0]
    assert stats[1:5] == ["2", "1", "1", "0"]  # attempts, matches (where held), fired, no-op
