"""Bad input of every kind: one line `where: error: ...`, a non-zero exit, no traceback,
and an existing `-o` output left untouched."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl

GOOD = textwrap.dedent("""\
    sdy.mesh @m = <["x"=2]>
    func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}]>}) -> tensor<4xf32> {
      return %a : tensor<4xf32>
    }
    """)


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return str(path)


def rules_dir(tmp_path: Path, rule_text: str, hooks: str | None = None, name: str = "t") -> tuple[Path, Path]:
    """A user rule directory holding one rule file (and its hook module): (dir, rule file)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    rule_file = rules / f"{name}.yaml"
    rule_file.write_text(rule_text)
    if hooks is not None:
        (rules / f"{name}.py").write_text(hooks)
    return rules, rule_file


def fails_with(argv, pattern: str) -> str:
    rc, out, err = run_sdy_dsl(argv)
    assert rc != 0
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines, "no error printed"
    assert all(": note: " in line for line in lines[1:]), err  # one error line, maybe notes
    assert re.search(pattern, lines[0]), lines[0]
    return lines[0]


def test_malformed_mlir_points_at_line_and_column(tmp_path):
    bad = write(tmp_path, "bad.mlir", "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                      "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n")
    fails_with(["opt", bad, "-sdy-close-shardings"], rf"^{re.escape(bad)}:2:26: error: use of undeclared SSA value")


@pytest.mark.parametrize("sharding,message", [
    ('<@nowhere, [{"x"}]>', "unknown mesh: @nowhere"),
    ('<@m, [{"y"}]>', 'unknown axis name: "y"'),
    ('<@m, [{"x"}, {}]>', "sharding doesn't match tensor rank: 2 != 1"),
])
def test_invalid_sharding(tmp_path, sharding, message):
    path = write(tmp_path, "s.mlir", GOOD.replace('<@m, [{"x", ?}]>', sharding))
    fails_with(["opt", path, "-sdy-close-shardings"], rf"^{re.escape(path)}:2:1: error: .*{re.escape(message)}")


def test_unknown_pass(tmp_path):
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "-sdy-no-such-pass"], r"^sdy-dsl: error: unknown pass 'sdy-no-such-pass'")


def test_unknown_option(tmp_path):
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "-sdy-close-shardings=bogus=1"], r"has no option 'bogus'")


def test_ill_typed_option(tmp_path):
    rules, _ = rules_dir(tmp_path, name="p", rule_text=textwrap.dedent("""\
        pass: sdy-test-typed-option
        summary: A pass with a typed option.
        options:
          flag: {type: bool, default: false}
        rules: []
        """))
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "--rules", str(rules), "-sdy-test-typed-option=flag=maybe"],
               r"option 'flag' expects a bool")


@pytest.mark.parametrize("pipeline,message", [
    ("builtin.module(sdy-close-shardings", "unbalanced"),
    ("builtin.module(func.func(sdy-close-shardings))", "cannot be nested in func.func"),
    ("builtin.module(no-such-mlir-pass)", "unknown pass 'no-such-mlir-pass'"),
    ("builtin.module( sdy-close-shardingz)", "unknown pass 'sdy-close-shardingz'"),
    ("builtin.module(sdy-close-shardings,,inline)", "empty entry"),
])
def test_bad_pipeline_string(tmp_path, pipeline, message):
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, f"--pass-pipeline={pipeline}"], re.escape(message))


def test_bad_pipeline_yaml_points_at_entry(tmp_path):
    pipeline = write(tmp_path, "p.yaml", "passes:\n  - sdy-close-shardings\n  - sdy-close-shardingz\n")
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["run", pipeline, path], rf"^{re.escape(pipeline)}:3:5: error: unknown pass 'sdy-close-shardingz'")


def test_pipeline_yaml_option_type_checked(tmp_path):
    rules, _ = rules_dir(tmp_path, name="p", rule_text="pass: sdy-test-typed-option\nsummary: s\noptions:\n"
                                                       "  flag: {type: bool, default: false}\nrules: []\n")
    pipeline = write(tmp_path, "p.yaml", "passes:\n  - sdy-test-typed-option: {flag: 3}\n")
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["run", pipeline, path, "--rules", str(rules)],
               rf"^{re.escape(pipeline)}:2:5: error: option 'flag' expects a bool")


def test_included_pipeline_errors_point_into_the_included_file(tmp_path):
    inner = write(tmp_path, "inner.yaml", "passes:\n  - sdy-close-shardingz\n")
    outer = write(tmp_path, "outer.yaml", "passes:\n  - pipeline: inner.yaml\n")
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["run", outer, path], rf"^{re.escape(inner)}:2:5: error: unknown pass 'sdy-close-shardingz'")


@pytest.mark.parametrize("body,message", [
    ("passes:\n  - pipeline: missing.yaml\n", "pipeline file 'missing.yaml' not found"),
    ("passes:\n  - pipeline: p.yaml\n", "pipeline file 'p.yaml' includes itself"),
])
def test_bad_pipeline_include(tmp_path, body, message):
    pipeline = write(tmp_path, "p.yaml", body)
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["run", pipeline, path], rf"^{re.escape(pipeline)}:2:\d+: error: {re.escape(message)}")


def test_invalid_yaml_syntax(tmp_path):
    pipeline = write(tmp_path, "p.yaml", "passes: [sdy-close-shardings\n")
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["run", pipeline, path], rf"^{re.escape(pipeline)}:\d+:\d+: error: invalid YAML")


RULE_FILE_ERRORS = [
    # (rule file body, expected line:col, message)
    ("pass: sdy-t\nsummary: s\nrules:\n  - id: r\n    match: \"$op = *\"\n    rewrite:\n      - sett_attr($op, \"a\", 1)\n",
     "7:9", "unknown function 'sett_attr'"),
    ("pass: sdy-t\nsummary: s\nrules:\n  - id: r\n    match: \"%r = sdy.reshard(%x\"\n    rewrite: []\n",
     "5:29", "invalid pattern: cannot parse from here"),
    ("pass: sdy-t\nsummary: s\nrulez: []\n", "3:1", "unknown key 'rulez'"),
    ("pass: sdy-t\nsummary: s\nrules:\n  - id: r\n    match: \"$op = *\"\n    where: has_sharding($nope)\n    rewrite: []\n",
     "6:25", "unbound metavariable '$nope'"),
    ("pass: sdy-t\nsummary: s\nrules:\n  - id: r\n    match: \"$op = *\"\n    where: erase($op)\n    rewrite: []\n",
     "6:12", "belongs in 'rewrite:'"),
    ("pass: sdy-t\nsummary: s\nrules:\n  - id: r\n    match: \"$op = *\"\n    rewrite:\n      - remove_attr($op)\n",
     "7:9", "'remove_attr' takes 2 argument"),
    ("pass: sdy-t\nsummary: s\nrules:\n  - {id: r, match: \"$a = *\", rewrite: []}\n  - {id: r, match: \"$a = *\", rewrite: []}\n",
     "5:5", "duplicate rule id 'r'"),
    ("pass: sdy-t\nsummary: s\ndriver: {kind: fast}\nrules: []\n", "3:16", "unknown driver kind 'fast'"),
]


@pytest.mark.parametrize("body,position,message", RULE_FILE_ERRORS, ids=[m for _, _, m in RULE_FILE_ERRORS])
def test_bad_rule_file_points_at_its_node(tmp_path, body, position, message):
    rules, rule_file = rules_dir(tmp_path, body)
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "--rules", str(rules), "-sdy-t"],
               rf"^{re.escape(str(rule_file))}:{position}: error: .*{re.escape(message)}")


def test_missing_input_file(tmp_path):
    fails_with(["opt", str(tmp_path / "nope.mlir"), "-sdy-close-shardings"], r"cannot open input file .*No such file")


def test_binary_garbage(tmp_path):
    path = write(tmp_path, "g.mlir", bytes(range(256)) * 4)
    fails_with(["opt", path, "-sdy-close-shardings"], r"error: input is (binary|not UTF-8)")


def test_unknown_cli_flag(tmp_path):
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "--frobnicate"], r"unknown option or pass '--frobnicate'")
    fails_with(["run", "p.yaml", path, "--frobnicate"], r"unknown option '--frobnicate'")


def test_output_written_atomically_and_only_on_success(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("previous content\n")
    bad = write(tmp_path, "bad.mlir", "func.func @f( {\n")
    fails_with(["opt", bad, "-sdy-close-shardings", "-o", str(out)], "error")
    assert out.read_text() == "previous content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "out.mlir"]  # no temp file left

    good = write(tmp_path, "good.mlir", GOOD)
    rc, stdout, err = run_sdy_dsl(["opt", good, "-sdy-close-shardings", "-o", str(out)])
    assert rc == 0, err
    assert stdout == ""
    assert '#sdy.sharding<@m, [{"x"}]>' in out.read_text()


def test_output_to_a_device_writes_through_it(tmp_path):
    """`-o /dev/null` must not replace the device with a regular file."""
    import os
    import stat
    good = write(tmp_path, "good.mlir", GOOD)
    rc, _, err = run_sdy_dsl(["opt", good, "-sdy-close-shardings", "-o", os.devnull])
    assert rc == 0, err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_user_rule_file_with_invalid_pass_name_is_reported(tmp_path):
    # Registered under its literal name, so running it reports the name's
    # location instead of "unknown pass".
    rules, rule_file = rules_dir(tmp_path, "pass: sdy_T\nsummary: s\nrules: []\n")
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "--rules", str(rules), "-sdy_T"],
               rf"^{re.escape(str(rule_file))}:1:7: error: invalid pass name 'sdy_T'")


def test_action_on_an_op_erased_earlier_in_the_rewrite(tmp_path):
    # The handle dangles after erase(): a clear error at the rule, not a crash.
    rules, rule_file = rules_dir(tmp_path, textwrap.dedent("""\
        pass: sdy-t
        summary: s
        rules:
          - id: erase-then-annotate
            match: "$op = stablehlo.negate(%x)"
            rewrite:
              - erase($op)
              - set_attr($op, "foo", 1)
        """))
    path = write(tmp_path, "g.mlir", GOOD.replace("return %a", "%0 = stablehlo.negate %a : tensor<4xf32>\n  return %a"))
    fails_with(["opt", path, "--rules", str(rules), "-sdy-t"],
               rf"^{re.escape(str(rule_file))}:8:9: error: rule 'erase-then-annotate': "
               r"'\$op' was erased or replaced by an earlier action of this rewrite")


def test_untyped_hook_is_a_rule_file_error(tmp_path):
    rules, rule_file = rules_dir(tmp_path, "pass: sdy-t\nsummary: s\nstages:\n  - {name: s, call: announce}\n",
                                 hooks="from sdy_dsl.hooks import hook\n\n\n@hook\ndef announce(ctx) -> None:\n    pass\n")
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "--rules", str(rules), "-sdy-t"],
               rf"^{re.escape(str(rule_file))}:1:1: error: cannot load hook module t.py: "
               r"TypeError: hook 'announce' \(t.py:4\) must annotate ctx")


def test_hook_called_with_wrong_arity_quotes_its_typed_signature(tmp_path):
    rules, rule_file = rules_dir(tmp_path, textwrap.dedent("""\
        pass: sdy-t
        summary: s
        rules:
          - id: r
            match: "%r = stablehlo.negate(%x)"
            where: is_wide(%x, 1, 2)
            rewrite: []
        """))
    (rules / "t.py").write_text(textwrap.dedent("""\
        from __future__ import annotations
        from jaxlib.mlir import ir
        from sdy_dsl.hooks import hook


        @hook
        def is_wide(value: ir.Value, threshold: int = 4) -> bool:
            return False
        """))
    path = write(tmp_path, "g.mlir", GOOD)
    fails_with(["opt", path, "--rules", str(rules), "-sdy-t"],
               rf"^{re.escape(str(rule_file))}:6:12: error: 'is_wide' takes 1 to 2 argument\(s\), got 3; "
               r"signature: is_wide\(value: ir.Value, threshold: int = 4\) -> bool$")


SPLIT_WITH_BAD_CHUNK = """\
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// -----
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %y : tensor<4xf32>
}
// -----
func.func @c(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
"""


def test_split_input_file_prints_the_good_chunks_like_mlir_opt(tmp_path):
    path = write(tmp_path, "s.mlir", SPLIT_WITH_BAD_CHUNK)
    rc, out, err = run_sdy_dsl(["opt", path, "-sdy-close-shardings", "-split-input-file"])
    assert rc == 1
    assert err.strip() == f"{path}:6:10: error: use of undeclared SSA value name"
    assert [line for line in out.splitlines() if "func.func" in line or line == "// -----"] == [
        "  func.func @a(%arg0: tensor<4xf32>) -> tensor<4xf32> {", "// -----",
        "  func.func @c(%arg0: tensor<4xf32>) -> tensor<4xf32> {"]
    # An output file is never written in part.
    target = write(tmp_path, "out.mlir", "previous\n")
    rc, out, err = run_sdy_dsl(["opt", path, "-sdy-close-shardings", "-split-input-file", "-o", target])
    assert rc == 1 and out == "" and Path(target).read_text() == "previous\n"


def test_rule_warning_is_a_located_diagnostic_and_the_pass_goes_on(tmp_path):
    rules, _ = rules_dir(tmp_path, name="t", rule_text=textwrap.dedent("""\
        pass: sdy-t
        summary: s
        rules:
          - id: warn-negate
            match: "$op = stablehlo.negate(%x)"
            rewrite:
              - warning($op, "negate seen")
        """))
    body = "  %0 = stablehlo.negate %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n"
    path = write(tmp_path, "w.mlir", "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n" + body)
    rc, out, err = run_sdy_dsl(["opt", path, "--rules", str(rules), "-sdy-t"])
    assert rc == 0 and "stablehlo.negate" in out
    assert err.strip() == f"{path}:2:8: warning: negate seen"
    expected = write(tmp_path, "e.mlir", "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "  // expected-warning @+1 {{negate seen}}\n" + body)
    rc, out, err = run_sdy_dsl(["opt", expected, "--rules", str(rules), "-sdy-t", "-verify-diagnostics"])
    assert rc == 0, err
    rc, out, err = run_sdy_dsl(["opt", path, "--rules", str(rules), "-sdy-t", "-verify-diagnostics"])
    assert rc == 1 and "unexpected warning: negate seen" in err
