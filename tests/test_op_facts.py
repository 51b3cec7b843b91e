"""One home for op facts: rule data reaches propagation, users' files layer
over the built-in ones, and misspellings are located errors.

Each divergence case compares with the C++ reference on the same input; a
tuning case whose behaviour the reference cannot be told about (a user's data
file) compares with the reference on the equivalent module written with
built-in ops or an explicit `sdy.sharding_rule`.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl, write_rules_dir
from reference import run_reference

MESH = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'


def _opt(tmp_path: Path, module: str, *flags: str, rules: Path | None = None):
    source = tmp_path / "in.mlir"
    source.write_text(module)
    argv = ["opt", str(source), *flags] + (["--rules", str(rules)] if rules else [])
    return run_sdy_dsl(argv)


def _same_as_reference(tmp_path, module: str, flag: str, pipeline: str) -> str:
    rc, out, err = _opt(tmp_path, module, flag)
    assert rc == 0, err
    ok, expected = run_reference(module, pipeline)
    assert ok
    assert out == expected
    return out


def _user_dir(tmp_path: Path, files: dict[str, str]) -> Path:
    return write_rules_dir(tmp_path / "my_rules", {name: textwrap.dedent(text) for name, text in files.items()})


def _shardings(text: str) -> list[list[str]]:
    return [re.findall(r"#sdy\.sharding[^>]*>+|<@mesh[^>]*>", line) for line in text.splitlines()]


# ----------------------------------------------------------------- divergences


def test_collective_keeps_its_sharding_in_out_sharding(tmp_path):
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
          %0 = sdy.all_gather [{}, {"b"}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
          %1 = stablehlo.negate %0 : tensor<8x8xf32>
          return %1 : tensor<8x8xf32>
        }
        """)
    out = _same_as_reference(tmp_path, module, "-sdy-basic-propagate", "builtin.module(sdy-basic-propagate)")
    assert 'stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}' in out


def test_user_priority_never_writes_sdy_sharding_on_a_collective(tmp_path):
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {
          %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
          %1 = stablehlo.negate %0 : tensor<8x8xf32>
          return %1 : tensor<8x8xf32>
        }
        """)
    out = _same_as_reference(tmp_path, module, "-sdy-user-priority-propagate",
                             "builtin.module(sdy-user-priority-propagate)")
    all_reduce = next(line for line in out.splitlines() if "sdy.all_reduce" in line)
    assert "sdy.sharding" not in all_reduce


BLOCKED = MESH + textwrap.dedent("""\
    func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
      %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
      %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0]%s : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      return %1 : tensor<8x8xf32>
    }
    """)
BLOCKED_RULE = (' {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j])->([i, j]) {i=8, j=8, k=8} '
                'reduction={k} blocked_propagation={k}>}')


def test_blocked_propagation_factor_is_not_crossed(tmp_path):
    out = _same_as_reference(tmp_path, BLOCKED.replace("%s", BLOCKED_RULE), "-sdy-basic-propagate",
                             "builtin.module(sdy-basic-propagate)")
    # The contracting factor k is blocked: %arg1's "a" never reaches the negate.
    assert "%0 = stablehlo.negate %arg0 : tensor<8x8xf32>" in out


def test_blocked_propagation_declared_in_a_users_rule_file(tmp_path):
    rules = _user_dir(tmp_path, {"op_sharding_rules.yaml": """\
        stablehlo.dot_general:
          rule: "([i, k], [k, j]) -> ([i, j])"
          reduction: [k]
          blocked_propagation: [k]
        """})
    rc, out, err = _opt(tmp_path, BLOCKED.replace("%s", ""), "-sdy-basic-propagate", rules=rules)
    assert rc == 0, err
    ok, expected = run_reference(BLOCKED.replace("%s", BLOCKED_RULE), "builtin.module(sdy-basic-propagate)")
    assert ok and out == expected


def test_conservative_slice_blocks_its_sliced_dimension(tmp_path):
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<4x8xf32> {
          %0 = stablehlo.slice %arg0 [0:4, 0:8] : (tensor<8x8xf32>) -> tensor<4x8xf32>
          %1 = stablehlo.negate %0 : tensor<4x8xf32>
          return %1 : tensor<4x8xf32>
        }
        """)
    out = _same_as_reference(tmp_path, module, "-sdy-basic-propagate=conservative-propagation=true",
                             "builtin.module(sdy-basic-propagate{conservative-propagation=true})")
    assert 'stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}' in out


# ----------------------------------------------------------------- tuning paths


PASSTHROUGH = MESH + textwrap.dedent("""\
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
      %0 = %s(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %1 = stablehlo.negate %0 : tensor<8x8xf32>
      return %1 : tensor<8x8xf32>
    }
    """)
CHAIN = "-sdy-add-data-flow-edges", "-sdy-basic-propagate", "-sdy-sink-data-flow-edges"
CHAIN_PIPELINE = "builtin.module(sdy-add-data-flow-edges,sdy-basic-propagate,func.func(sdy-sink-data-flow-edges))"


def test_custom_call_declared_data_flow_op_propagates_like_a_barrier(tmp_path):
    rules = _user_dir(tmp_path, {"interfaces.yaml": """\
        ops:
          stablehlo.custom_call:
            data-flow:
              when: {call_target_name: my_passthrough}
              owners: [results]
              sources: [operands]
        """})
    module = PASSTHROUGH.replace("%s", "stablehlo.custom_call @my_passthrough")
    rc, out, err = _opt(tmp_path, module, *CHAIN, rules=rules)
    assert rc == 0, err
    barrier = PASSTHROUGH.replace("%s(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>",
                                  "stablehlo.optimization_barrier %arg0 : tensor<8x8xf32>")
    ok, expected = run_reference(barrier, CHAIN_PIPELINE)
    assert ok
    # The two ops print differently; every sharding, line by line, is the same.
    assert _shardings(out) == _shardings(expected)
    assert 'stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}' in out


ELEMENTWISE_CALL = MESH + textwrap.dedent("""\
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
      %0 = stablehlo.custom_call @my_scale(%arg0)%s : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %1 = stablehlo.add %0, %arg1 : tensor<8x8xf32>
      return %1 : tensor<8x8xf32>
    }
    """)


def test_one_custom_call_entry_layers_over_the_builtin_rules(tmp_path):
    # The user's file holds one custom_call target only: every built-in op
    # (the add after it) keeps its rule.
    rules = _user_dir(tmp_path, {"op_sharding_rules.yaml": """\
        stablehlo.custom_call:
          by: call_target_name
          cases:
            my_scale: elementwise
        """})
    rc, out, err = _opt(tmp_path, ELEMENTWISE_CALL.replace("%s", ""), "-sdy-basic-propagate", rules=rules)
    assert rc == 0, err
    with_rule = ELEMENTWISE_CALL.replace(
        "%s", " {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}")
    ok, expected = run_reference(with_rule, "builtin.module(sdy-basic-propagate)")
    assert ok and out == expected
    assert 'stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}' in out


def test_a_case_can_be_deleted_from_the_builtin_rules(tmp_path):
    rules = _user_dir(tmp_path, {"op_sharding_rules.yaml": "stablehlo.negate: delete\n"})
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
          %0 = stablehlo.negate %arg0 : tensor<8xf32>
          %1 = stablehlo.abs %arg0 : tensor<8xf32>
          return %0, %1 : tensor<8xf32>, tensor<8xf32>
        }
        """)
    rc, out, err = _opt(tmp_path, module, "-sdy-basic-propagate", rules=rules)
    assert rc == 0, err
    assert "%0 = stablehlo.negate %arg0 : tensor<8xf32>" in out  # no rule: nothing crosses it
    assert 'stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}' in out


def test_populate_op_sharding_rules_prints_the_users_rule(tmp_path):
    rules = _user_dir(tmp_path, {"op_sharding_rules.yaml": """\
        stablehlo.custom_call:
          by: call_target_name
          cases:
            my_scale: elementwise
        """})
    rc, out, err = _opt(tmp_path, ELEMENTWISE_CALL.replace("%s", ""), "-sdy-populate-op-sharding-rules",
                        rules=rules)
    assert rc == 0, err
    assert ("stablehlo.custom_call @my_scale(%arg0) {sdy.sharding_rule = "
            "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}") in out
    assert "stablehlo.add %0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>}" in out


CLOSE_MODULE = MESH + textwrap.dedent("""\
    func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> tensor<8xf32> {
      %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>, my.tag} : tensor<8xf32>
      return %0 : tensor<8xf32>
    }
    """)


def test_extends_adds_one_rule_to_a_builtin_pass(tmp_path):
    rules = _user_dir(tmp_path, {"close_shardings.yaml": """\
        pass: sdy-close-shardings
        extends: sdy-close-shardings
        rules:
          - id: drop-my-tag
            match: "%r = stablehlo.negate(%x) {my.tag = $t}"
            rewrite: ["remove_attr($root, 'my.tag')"]
        # The walk driver fires one rule per op: the new rule gets its own stage.
        stages:
          - {name: close, rules: [close-and-drop-replicated]}
          - {name: tags, rules: [drop-my-tag]}
        """})
    rc, out, err = _opt(tmp_path, CLOSE_MODULE, "-sdy-close-shardings", rules=rules)
    assert rc == 0, err
    ok, expected = run_reference(CLOSE_MODULE.replace(", my.tag", ""), "builtin.module(sdy-close-shardings)")
    assert ok and out == expected  # the built-in rules still ran, and the new one too


def test_new_pass_runs_from_a_pipeline_file(tmp_path):
    rules = _user_dir(tmp_path, {"drop_tag.yaml": """\
        pass: my-drop-tag
        summary: Drops my.tag.
        rules:
          - id: drop-my-tag
            match: "%r = stablehlo.negate(%x) {my.tag = $t}"
            rewrite: ["remove_attr($root, 'my.tag')"]
        """})
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("passes:\n  - my-drop-tag\n  - sdy-close-shardings\n")
    source = tmp_path / "in.mlir"
    source.write_text(CLOSE_MODULE)
    rc, out, err = run_sdy_dsl(["run", str(pipeline), str(source), "--rules", str(rules)])
    assert rc == 0, err
    ok, expected = run_reference(CLOSE_MODULE.replace(", my.tag", ""), "builtin.module(sdy-close-shardings)")
    assert ok and out == expected


def test_basic_then_aggressive_schedule_in_yaml(tmp_path):
    rules = _user_dir(tmp_path, {"two_step.yaml": """\
        pass: my-basic-then-aggressive
        extends: sdy-basic-propagate
        summary: Basic propagation to a fixed point, then aggressive.
        params:
          schedule:
            - strategies: [basic, aggressive]
        """})
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x8xf32> {
          %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
          %1 = stablehlo.negate %0 : tensor<8x8xf32>
          return %1 : tensor<8x8xf32>
        }
        """)
    rc, out, err = _opt(tmp_path, module, "-my-basic-then-aggressive", rules=rules)
    assert rc == 0, err
    ok, expected = run_reference(module, "builtin.module(sdy-basic-propagate,sdy-aggressive-propagate)")
    assert ok and out == expected


# ----------------------------------------------------------------- errors


@pytest.mark.parametrize("files, where, message", [
    ({"op_sharding_rules.yaml": "stablehlo.custom_cal: elementwise\n"}, "op_sharding_rules.yaml:1:1",
     "unknown op 'stablehlo.custom_cal'; did you mean 'stablehlo.custom_call'?"),
    ({"op_sharding_rules.yaml": "stablehlo.custom_call:\n  by: call_target\n  cases: {x: elementwise}\n"},
     "op_sharding_rules.yaml:2:7", "op 'stablehlo.custom_call' has no attribute 'call_target'"),
    ({"interfaces.yaml": "ops:\n  stablehlo.custom_call:\n    data-flow:\n      when: {target: x}\n"
                         "      owners: [results]\n"},
     "interfaces.yaml:4:14", "op 'stablehlo.custom_call' has no attribute 'target'"),
    ({"a.yaml": "pass: my-pass\nsummary: a\nrules: []\n", "b.yaml": "pass: my-pass\nsummary: b\nrules: []\n"},
     "b.yaml:1:7", "pass 'my-pass' is defined twice"),
])
def test_misspellings_are_located_errors(tmp_path, files, where, message):
    rules = _user_dir(tmp_path, files)
    rc, out, err = _opt(tmp_path, ELEMENTWISE_CALL.replace("%s", ""), "-sdy-basic-propagate", rules=rules)
    assert rc == 1
    assert f"{where}: error: {message}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", ["--disable-rule", "--enable-rule", "--explain"])
def test_misspelled_rule_id_is_an_error(tmp_path, flag):
    rc, out, err = _opt(tmp_path, CLOSE_MODULE, "-sdy-close-shardings", flag, "close-and-drop-replicatd")
    assert rc == 1 and out == ""
    assert err == (f"sdy-dsl: error: {flag}: no rule 'close-and-drop-replicatd' in the pipeline's passes; "
                   "did you mean 'close-and-drop-replicated'?\n")


CLEAR_PASS = """\
    pass: my-clear
    summary: Clears shardings and one entry of a func's result attributes.
    rules:
      - id: clear-arg
        match: "%r = stablehlo.negate(%x)"
        where: ["has_sharding(%x)"]
        rewrite: ["set_sharding(%x, none)", "remove_result_attr(parent_op($root), 0, 'sdy.sharding')"]
      - id: clear-op
        match: "%r = stablehlo.abs(%x)"
        where: ["has_sharding(%r)"]
        rewrite: ["set_sharding(%r, none)"]
    """


def test_clearing_shardings_and_one_dictionary_entry(tmp_path):
    rules = _user_dir(tmp_path, {"clear.yaml": CLEAR_PASS})
    module = 'sdy.mesh @mesh = <["a"=2]>\n' + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, my.keep}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, my.keep}) {
          %0 = stablehlo.negate %arg0 : tensor<8xf32>
          %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
          return %1 : tensor<8xf32>
        }
        """)
    rc, out, err = _opt(tmp_path, module, "-my-clear", rules=rules)
    assert rc == 0, err
    assert "func.func @main(%arg0: tensor<8xf32> {my.keep}) -> (tensor<8xf32> {my.keep})" in out
    assert "%1 = stablehlo.abs %0 : tensor<8xf32>" in out


def test_clearing_one_of_several_results_is_a_located_error(tmp_path):
    rules = _user_dir(tmp_path, {"clear.yaml": """\
        pass: my-clear-one
        summary: Clears one result's sharding of a two-result op.
        rules:
          - id: clear-first
            match: "%a, %b = stablehlo.optimization_barrier(%x, %y)"
            rewrite: ["set_sharding(%a, none)"]
        """})
    module = 'sdy.mesh @mesh = <["a"=2]>\n' + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
          %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{}]>]>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
          return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
        }
        """)
    rc, out, err = _opt(tmp_path, module, "-my-clear-one", rules=rules)
    assert rc == 1
    assert "clear.yaml:4:5: error: rule 'clear-first' failed on 'stablehlo.optimization_barrier' at " in err
    assert "in.mlir:3:10: ValueError: one of the 2 shardings of 'stablehlo.optimization_barrier' kept in " \
           "'sdy.sharding' cannot be cleared alone" in err


def test_a_copied_propagation_pass_runs_without_its_data_files(tmp_path):
    # A user copies one propagation pass file and edits it: its hooks and
    # data files (heuristics, op sharding rules, interfaces) come from the run.
    rules = tmp_path / "my_rules"
    rules.mkdir()
    builtin = Path(__file__).parent.parent / "rules" / "propagation" / "basic_propagate.yaml"
    (rules / "basic_propagate.yaml").write_text(builtin.read_text())
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
          %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
          return %0 : tensor<8x8xf32>
        }
        """)
    for flag in ("-sdy-basic-propagate", "-sdy-user-priority-propagate"):
        rc, out, err = _opt(tmp_path, module, flag, rules=rules)
        assert rc == 0, err
        ok, expected = run_reference(module, f"builtin.module({flag[1:]})")
        assert ok and out == expected


def test_unknown_op_warning_names_the_op(tmp_path):
    module = MESH + textwrap.dedent("""\
        func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x2xf32> {
          %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<8x4xf32> -> (tensor<8x2xf32>, tensor<8x2xi32>)
          return %values : tensor<8x2xf32>
        }
        """)
    rc, out, err = _opt(tmp_path, module, "-sdy-basic-propagate")
    assert rc == 0
    assert err.startswith(f"{tmp_path / 'in.mlir'}:3:23: warning: op 'chlo.top_k' is unknown to SDY sharding rule registry")


# A user's pass file is loaded or rejected, never skipped for the built-in one.
@pytest.mark.parametrize("text, flag, expected", [
    ('{pass: sdy-close-shardings, summary: "Flow style.", rules: [{id: tag, '
     'match: "$op = stablehlo.negate", rewrite: ["set_attr($op, \\"my.seen\\", 1)"]}]}\n',
     "-sdy-close-shardings", "stablehlo.negate %arg0 {my.seen = 1 : i64}"),
    ('pass: >-\n  my-block-pass\nsummary: A block scalar name.\nrules:\n  - id: tag\n'
     '    match: "$op = stablehlo.negate"\n    rewrite: ["set_attr($op, \\"my.seen\\", 1)"]\n',
     "-my-block-pass", "stablehlo.negate %arg0 {my.seen = 1 : i64}"),
])
def test_any_yaml_form_of_a_pass_file_is_found(tmp_path, text, flag, expected):
    rules = _user_dir(tmp_path, {"p.yaml": text})
    module = MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n" \
        "  %0 = stablehlo.negate %arg0 : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n"
    rc, out, err = _opt(tmp_path, module, flag, rules=rules)
    assert rc == 0, err
    assert expected in out


def test_a_rule_file_that_is_not_utf8_is_a_located_error(tmp_path):
    rules = tmp_path / "my_rules"
    rules.mkdir()
    (rules / "p.yaml").write_bytes(b"pass: my-bad\nsummary: caf\xe9\nrules: []\n")
    rc, out, err = _opt(tmp_path, MESH, "-sdy-close-shardings", rules=rules)
    assert rc == 1 and out == ""
    assert err == f"{rules / 'p.yaml'}:2:13: error: file is not UTF-8 text (byte 0xe9)\n"
