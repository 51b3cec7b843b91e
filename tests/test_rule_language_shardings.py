"""The rule language builds, edits and places shardings (issue #30): each
built-in and action through a small rule file on a small module, asserting the
output text; a constraint pass's result through propagation against the
reference's on the same constraints written by hand."""
from __future__ import annotations

import textwrap

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["data"=2, "model"=4]>
    func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> tensor<8x32xf32> {
      %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %1 = stablehlo.tanh %0 : tensor<8x32xf32>
      %2 = stablehlo.add %0, %1 : tensor<8x32xf32>
      return %2 : tensor<8x32xf32>
    }
    """)


def run(tmp_path, rule_file: str, *flags, module: str = MODULE) -> tuple[int, str, str]:
    rules = tmp_path / "rules"
    rules.mkdir(exist_ok=True)
    (rules / "t.yaml").write_text(textwrap.dedent(rule_file))
    (tmp_path / "in.mlir").write_text(module)
    return run_sdy_dsl(["opt", str(tmp_path / "in.mlir"), "--rules", str(rules), *flags])


def constrain_pass(sharding_expr: str) -> str:
    return f"""\
        pass: t
        summary: Constrains every dot_general result.
        rules:
          - id: constrain-dot
            match: "%r = stablehlo.dot_general(%a, %b)"
            rewrite:
              - constrain(%r, {sharding_expr})
        """


def constraint_line(out: str) -> str:
    return next(line.strip() for line in out.splitlines() if "sdy.sharding_constraint" in line)


def test_constrain_puts_the_constraint_after_the_value_and_routes_the_other_uses(tmp_path):
    rc, out, err = run(tmp_path, constrain_pass('sharding("mesh", [["data"], []])'), "-t")
    assert rc == 0, err
    body = [line.strip() for line in out.splitlines()[3:8]]
    assert body == [
        "%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : "
        "(tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>",
        '%1 = sdy.sharding_constraint %0 <@mesh, [{"data"}, {}]> : tensor<8x32xf32>',
        "%2 = stablehlo.tanh %1 : tensor<8x32xf32>",
        "%3 = stablehlo.add %1, %2 : tensor<8x32xf32>",
        "return %3 : tensor<8x32xf32>"]


@pytest.mark.parametrize("expr, printed", [
    ('sharding("mesh", [["data"], []])', '<@mesh, [{"data"}, {}]>'),
    ('sharding(mesh_named("mesh"), [["data", "?"], ["model:(1)2"]])', '<@mesh, [{"data", ?}, {"model":(1)2}]>'),
    ('sharding(%b, [[], ["model"]])', '<@mesh, [{}, {"model"}]>'),  # the mesh of %b's sharding
    ('replicated(%r, "mesh")', "<@mesh, [{}, {}]>"),
    ('set_dim(replicated(%r, "mesh"), 1, ["model", "data"])', '<@mesh, [{}, {"model", "data"}]>'),
    ('append_axis(sharding("mesh", [["data"], []]), 0, "model")', '<@mesh, [{"data", "model"}, {}]>'),
    ('remove_axis(sharding("mesh", [["data", "model"], []]), 0, "data")', '<@mesh, [{"model"}, {}]>'),
    ('opened(replicated(%r, "mesh"))', "<@mesh, [{?}, {?}]>"),
    ('close_dim(opened(sharding("mesh", [["data"], []])), -1)', '<@mesh, [{"data", ?}, {}]>'),
    ('open_dim(sharding("mesh", [["data"], []]), 0)', '<@mesh, [{"data", ?}, {}]>'),
    ('set_dim(sharding("mesh", [["data"], []]), 1, dim_axes(sharding(%b), 1))', '<@mesh, [{"data"}, {"model"}]>'),
])
def test_sharding_builders(tmp_path, expr, printed):
    rc, out, err = run(tmp_path, constrain_pass(expr), "-t")
    assert rc == 0, err
    assert constraint_line(out) == f"%1 = sdy.sharding_constraint %0 {printed} : tensor<8x32xf32>"


@pytest.mark.parametrize("expr, message", [
    ('sharding("mseh", [["data"], []])', "sharding: the module has no sdy.mesh named 'mseh'; did you mean 'mesh'?"),
    ('sharding("mesh", [["dta"], []])', "sharding: the mesh has no axis 'dta'; did you mean 'data'? (axes: data, model)"),
    ('append_axis(sharding("mesh", [["data"], []]), 1, "data")',
     'append_axis: axis "data" is used twice in #sdy.sharding<@mesh, [{"data"}, {"data"}]>'),
    ('remove_axis(sharding("mesh", [["data"], []]), 1, "data")',
     'remove_axis: dimension 1 of #sdy.sharding<@mesh, [{"data"}, {}]> has no axis "data"'),
    ('set_dim(replicated(%r, "mesh"), 2, [])', "set_dim: dimension 2 is out of range for a sharding of rank 2"),
    ("replicated(%r)", 'replicated: %0 has no sharding to take the mesh from; name the mesh instead (e.g. "mesh")'),
])
def test_sharding_builder_errors_are_located_at_the_rule(tmp_path, expr, message):
    rc, out, err = run(tmp_path, constrain_pass(expr), "-t")
    assert rc == 1 and out == ""
    assert err.splitlines()[0].endswith(
        f"t.yaml:4:5: error: rule 'constrain-dot' failed on 'stablehlo.dot_general' at {tmp_path}/in.mlir:3:8: "
        f"ValueError: {message}"), err


def test_constrain_twice_leaves_the_constraint_alone(tmp_path):
    """A value whose only user is already the same constraint is left as it is (a greedy driver converges)."""
    rule = constrain_pass('sharding("mesh", [["data"], []])').replace("rules:", "driver: {kind: greedy}\n        rules:")
    rc, out, err = run(tmp_path, rule, "-t", "--rule-stats")
    assert rc == 0, err
    assert out.count("sdy.sharding_constraint") == 1
    stats = [line.split() for line in err.splitlines() if line.startswith("t/constrain-dot ")][0]
    assert stats[1:5] == ["2", "2", "1", "1"]  # attempts, matches, fired, no-op: the second visit changed nothing


def test_constrain_a_block_argument_goes_first_in_the_block(tmp_path):
    rule = """\
        pass: t
        summary: Constrains @main's first argument.
        rules:
          - id: constrain-arg
            match: '$f = func.func {sym_name = "main"}'
            rewrite:
              - constrain(at(block_args($f), 0), sharding("mesh", [["data"], []]))
        """
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 0, err
    lines = [line.strip() for line in out.splitlines()]
    assert lines[3] == '%0 = sdy.sharding_constraint %arg0 <@mesh, [{"data"}, {}]> : tensor<8x16xf32>'
    assert lines[4].startswith("%1 = stablehlo.dot_general %0, %arg1,")


def test_constrain_then_propagate_is_the_references_propagation_of_the_same_constraint(tmp_path):
    rc, constrained, err = run(tmp_path, constrain_pass('sharding("mesh", [["data"], []])'), "-t")
    assert rc == 0, err
    by_hand = MODULE.replace(
        "  %1 = stablehlo.tanh %0 : tensor<8x32xf32>\n  %2 = stablehlo.add %0, %1 : tensor<8x32xf32>\n"
        "  return %2 : tensor<8x32xf32>",
        '  %c = sdy.sharding_constraint %0 <@mesh, [{"data"}, {}]> : tensor<8x32xf32>\n'
        "  %1 = stablehlo.tanh %c : tensor<8x32xf32>\n  %2 = stablehlo.add %c, %1 : tensor<8x32xf32>\n"
        "  return %2 : tensor<8x32xf32>")
    ok, expected = run_reference(by_hand, "builtin.module(sdy-propagation-pipeline)")
    assert ok
    (tmp_path / "constrained.mlir").write_text(constrained)
    rc, ours, err = run_sdy_dsl(["opt", str(tmp_path / "constrained.mlir"), "-sdy-propagation-pipeline"])
    assert rc == 0, err
    assert ours == expected
    assert '<@mesh, [{"data"}, {}]>' in ours and 'sharding = #sdy.sharding<@mesh, [{"data"}, {}]>' in ours


@pytest.mark.parametrize("actions", [
    # `replace_uses(%r, %c)` with %c built from %r: every OTHER use reads %c (it used to route %c's own
    # operand too, and the verifier failed at the end with no located error).
    ["{create: '%c = stablehlo.negate(%r)', after: \"%r\"}", "replace_uses(%r, %c)"],
    ["{create: '%c = stablehlo.negate(%r)', after: \"%r\", redirect: \"%r\"}"],
])
def test_a_created_op_takes_over_the_other_uses(tmp_path, actions):
    rule = """\
        pass: t
        summary: Negates tanh results where they are used.
        rules:
          - id: negate-tanh
            match: "%r = stablehlo.tanh(%a)"
            rewrite:
        """.rstrip(" ") + "".join(f"              - {a}\n" for a in actions)
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 0, err
    lines = [line.strip() for line in out.splitlines()[4:7]]
    assert lines == ["%1 = stablehlo.tanh %0 : tensor<8x32xf32>", "%2 = stablehlo.negate %1 : tensor<8x32xf32>",
                     "%3 = stablehlo.add %0, %2 : tensor<8x32xf32>"]


def test_a_redirect_that_would_use_a_value_before_its_definition_is_an_error_at_the_action(tmp_path):
    rule = """\
        pass: t
        summary: Negates the first operand of add before the add, for all its users.
        rules:
          - id: r
            match: "%r = stablehlo.add(%a, %b)"
            rewrite:
              - {create: '%n = stablehlo.negate(%a)', before: "$root", redirect: "%a"}
        """
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 1 and out == ""
    assert err.splitlines() == [
        f"{tmp_path}/rules/t.yaml:7:9: error: rule 'r': redirect: 'stablehlo.tanh' at {tmp_path}/in.mlir:4:8 uses "
        "the value before %2 is defined; routing it there would make the IR use a value before its definition "
        "(or the op its own result)"]


def test_the_issues_constraint_before_its_operand_is_an_error_at_the_action(tmp_path):
    """Issue #30's trick: a constraint created (before the root) on the root's own result, then
    replace_uses. It used to fail only at the end ("operand #0 does not dominate this use", at no
    rule); now the create action says where and why."""
    rule = """\
        pass: t
        summary: x
        rules:
          - id: constrain-dot
            match: "%r = stablehlo.dot_general(%a, %b)"
            rewrite:
              - {create: '%c = sdy.sharding_constraint(%r) {sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}'}
              - replace_uses(%r, %c)
        """
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 1 and out == ""
    assert err.splitlines() == [
        f"{tmp_path}/rules/t.yaml:7:9: error: rule 'constrain-dot': create of 'sdy.sharding_constraint' before "
        f"'stablehlo.dot_general' at {tmp_path}/in.mlir:3:8: operand #0 (%0) is not defined there yet; "
        "create it 'after:' that value"]


def test_create_action_keys_are_checked(tmp_path):
    rule = """\
        pass: t
        summary: x
        rules:
          - id: r
            match: "%r = stablehlo.tanh(%a)"
            rewrite:
              - {create: '%c = stablehlo.negate(%r)', aftre: "%r"}
        """
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 1
    assert err.strip() == (f"{tmp_path}/rules/t.yaml:7:47: error: unknown key 'aftre' of a create action "
                           "(expected: create, after, before, redirect)")


CHECK = """\
    pass: t
    summary: Warns on large replicated @main arguments.
    rules:
      - id: large-replicated-arg
        match: '$f = func.func {sym_name = "main"}'
        where: $large := filter(block_args($f), $a => not has_sharding($a) and bytes($a) >= 512)
        rewrite:
          - for_each($large, $a => warning($a, f"{$a} is replicated, {element_count($a)} x {element_type($a)} = {bytes($a)} bytes, dim 1 is {dim($a, -1)}; {{ok}}"))
    """


def test_warning_on_a_block_argument_with_a_formatted_message(tmp_path):
    rc, out, err = run(tmp_path, CHECK, "-t")
    assert rc == 0, err
    assert err.splitlines() == [
        f"{tmp_path}/in.mlir:2:17: warning: %arg0 is replicated, 128 x f32 = 512 bytes, dim 1 is 16; {{ok}}"]


def test_warning_on_a_block_argument_under_verify_diagnostics(tmp_path):
    module = MODULE.replace("func.func @main", "// expected-warning @+1 {{%arg0 is replicated, 128 x f32}}\nfunc.func @main")
    rc, out, err = run(tmp_path, CHECK, "-t", "-verify-diagnostics", module=module)
    assert rc == 0, err


@pytest.mark.parametrize("action", ["error", "fail"])
def test_an_error_on_a_block_argument_fails_the_pass_there(tmp_path, action):
    rule = CHECK.replace("warning($a,", f"{action}($a,")
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 1 and out == ""
    assert err.splitlines() == [
        f"{tmp_path}/in.mlir:2:17: error: %arg0 is replicated, 128 x f32 = 512 bytes, dim 1 is 16; {{ok}}"]


def test_shard_bytes_follows_the_sharding(tmp_path):
    rule = """\
        pass: t
        summary: Reports each @main argument's shard size.
        rules:
          - id: sizes
            match: '$f = func.func {sym_name = "main"}'
            rewrite:
              - 'for_each(block_args($f), $a => warning($a, f"{$a}: {shard_bytes($a)} of {bytes($a)} bytes, {sharding($a)}"))'
        """
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 0, err
    assert err.splitlines() == [
        f"{tmp_path}/in.mlir:2:17: warning: %arg0: 512 of 512 bytes, none",
        f"{tmp_path}/in.mlir:2:39: warning: %arg1: 512 of 2048 bytes, #sdy.sharding<@mesh, [{{}}, {{\"model\"}}]>"]


def test_a_diagnostic_names_the_file_its_location_names(tmp_path):
    """An op whose location names another file is reported at that file's line and column, as MLIR prints
    it (it used to print the input's name with the other file's numbers); a name without a file prints as is."""
    module = MODULE.replace("%1 = stablehlo.tanh %0 : tensor<8x32xf32>",
                            '%1 = stablehlo.tanh %0 : tensor<8x32xf32> loc("model.py":12:8)').replace(
        "%2 = stablehlo.add %0, %1 : tensor<8x32xf32>",
        '%2 = stablehlo.add %0, %1 : tensor<8x32xf32> loc("residual")')
    rule = """\
        pass: t
        summary: Warns on every tanh and add.
        rules:
          - id: w
            match: "$op = stablehlo.tanh|stablehlo.add"
            rewrite:
              - warning($op, f"{name_of($op)} here")
        """
    rc, out, err = run(tmp_path, rule, "-t", module=module)
    assert rc == 0, err
    assert err.splitlines() == ["model.py:12:8: warning: stablehlo.tanh here",
                                'loc("residual"): warning: stablehlo.add here']


@pytest.mark.parametrize("expr, column, message", [
    ('f"{%x"', 30, "unclosed '{' in an f-string"),  # at the brace
    ('f"a}b"', 31, "unmatched '}' in an f-string (write '}}' for a brace)"),
    ('f"{rank(%r) +}"', 40, "in an f-string: cannot parse from here"),  # at the '+' inside the braces
])
def test_f_string_errors_are_located(tmp_path, expr, column, message):
    rule = f"""\
        pass: t
        summary: x
        rules:
          - id: r
            match: "%r = stablehlo.tanh(%a)"
            rewrite: ['warning(%r, {expr})']
        """.replace("%x", "%r")
    rc, out, err = run(tmp_path, rule, "-t")
    assert rc == 1
    assert err.startswith(f"{tmp_path}/rules/t.yaml:6:{column}: error: invalid expression: {message}"), err
