"""A tuner's mistake is an error or works as documented, never a silent no-op
(issue #23): unknown files in a rules directory, a rule file with `extends:`
and no `pass:`, a misspelled `disable-rules:` entry, and rule order in an
extending file (ties go to the rule written first: the built-in one)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from lit_runner import run_sdy_dsl, write_rules_dir

MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>} : tensor<8xf32>
      return %0 : tensor<8xf32>
    }
    """)
MARK_NEGATE = textwrap.dedent("""\
    rules:
      - id: mark-negate
        match: "$op = stablehlo.negate(%x)"
        rewrite:
          - set_attr($op, "tuned", "yes")
    """)


def _run(tmp_path: Path, files: dict[str, str], *flags: str):
    rules = write_rules_dir(tmp_path / "my_rules", files)
    module = tmp_path / "m.mlir"
    module.write_text(MODULE)
    return run_sdy_dsl(["opt", str(module), "-sdy-close-shardings", "--rules", str(rules), *flags])


def test_misspelled_data_file_is_an_error_with_a_suggestion(tmp_path):
    rc, _, err = _run(tmp_path, {"op_sharding_rule.yaml": "stablehlo.negate: delete\n"})
    assert rc == 1
    assert err.strip() == (f"{tmp_path}/my_rules/op_sharding_rule.yaml:1:1: error: not a rule file (no 'pass:' "
                           "nor 'extends:') nor a data file (interfaces.yaml, op_sharding_rules.yaml, "
                           "op_priority_heuristics.yaml); did you mean 'op_sharding_rules.yaml'?")


def test_yml_and_unknown_files_are_reported(tmp_path):
    rc, _, err = _run(tmp_path, {"close.yml": "extends: sdy-close-shardings\n"})
    assert rc == 1 and "close.yml:1:1: error: rule and data files end in '.yaml'" in err
    (tmp_path / "my_rules" / "close.yml").unlink()
    rc, _, err = _run(tmp_path, {"interfaces.yaml.bak": "{}\n"})
    assert rc == 1 and "interfaces.yaml.bak:1:1: error: not a rule file, data file, hook module" in err


def test_readme_and_hooks_are_accepted(tmp_path):
    rc, out, err = _run(tmp_path, {"README.md": "my tuning\n", "helpers.py": "X = 1\n"})
    assert rc == 0, err


def test_extends_without_pass_adds_to_that_pass_and_keeps_builtin_order(tmp_path):
    # The built-in `*` rule is written first: it wins the tie on the negate.
    rc, out, err = _run(tmp_path, {"close.yaml": "extends: sdy-close-shardings\n" + MARK_NEGATE})
    assert rc == 0, err
    assert '[<@mesh, [{}]>]>} : tensor<8xf32>' in out and "tuned" not in out
    # A higher benefit puts the added rule first: the file is not ignored.
    rc, out, err = _run(tmp_path, {"close.yaml": "extends: sdy-close-shardings\n"
                                   + MARK_NEGATE.replace("    match:", "    benefit: 2\n    match:")})
    assert rc == 0, err
    assert '[<@mesh, [{?}]>]>, tuned = "yes"}' in out


def test_extends_with_pass_keeps_builtin_order_too(tmp_path):
    rc, out, err = _run(tmp_path, {"close.yaml": "pass: sdy-close-shardings\nextends: sdy-close-shardings\n"
                                   + MARK_NEGATE})
    assert rc == 0, err
    assert "tuned" not in out


def test_misspelled_disable_rules_entry_in_extends_only_file(tmp_path):
    rc, _, err = _run(tmp_path, {"close.yaml": "extends: sdy-close-shardings\n"
                                 "disable-rules: [close-and-drop-replicate]\n"})
    assert rc == 1
    assert err.strip() == (f"{tmp_path}/my_rules/close.yaml:2:17: error: 'sdy-close-shardings' has no rule "
                           "'close-and-drop-replicate' to disable; its rules: close-and-drop-replicated")


def test_disable_rules_in_extends_only_file_takes_effect(tmp_path):
    rc, out, err = _run(tmp_path, {"close.yaml": "extends: sdy-close-shardings\n"
                                   "disable-rules: [close-and-drop-replicated]\n"})
    assert rc == 0, err
    assert "[{?}]" in out


CONSTRAINED = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
      %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
      %1 = sdy.sharding_constraint %0 <@mesh, [{}]> : tensor<8xf32>
      return %1 : tensor<8xf32>
    }
    """)
SAME_SHARDING_PASS = textwrap.dedent("""\
    pass: mark-redundant-constraints
    summary: Marks a constraint its operand already satisfies.
    anchor: func.func
    rules:
      - id: mark-redundant
        match: "%r = sdy.sharding_constraint(%x) {sharding = $s}"
        where: sharding(%x) == $s and not has_attr(defining_op(%r), "redundant")
        rewrite:
          - set_attr(defining_op(%r), "redundant", true)
    """)


def test_decoded_sharding_compares_with_a_sharding_attribute(tmp_path):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "mark.yaml").write_text(SAME_SHARDING_PASS)
    module = tmp_path / "m.mlir"
    module.write_text(CONSTRAINED)
    rc, out, err = run_sdy_dsl(["opt", str(module), "-mark-redundant-constraints", "--rules", str(rules),
                                "--explain", "mark-redundant"])
    assert rc == 0, err
    assert '%0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> {redundant = true}' in out
    assert "%1 = sdy.sharding_constraint %0 <@mesh, [{}]> : tensor<8xf32>" in out
    # --explain shows the two values the failing comparison saw.
    assert (f"{module}:4:8: explain: mark-redundant-constraints/mark-redundant did not fire on "
            "'sdy.sharding_constraint': constraint 1 failed: sharding(%x) == $s and not "
            'has_attr(defining_op(%r), "redundant") (compared #sdy.sharding<@mesh, [{"x"}]> with '
            "#sdy.sharding<@mesh, [{}]>)") in err
