"""Open op-priority heuristics: predicates declared in a user's
op_priority_heuristics.yaml (op names and globs, traits, operand/result
counts, ranks, element counts and bytes, names declared under
`predicates:`) or registered as hooks beside it, and the warning for a
heuristic that can never act.

The module: under the default heuristics the elementwise ops propagate
first and the add's column sharding wins; when the dot propagates as early
as they do (a first heuristic that lets it go both ways), the run is one
aggressive propagation and the dot's row sharding wins: the reference's
`sdy-aggressive-propagate` output. So a predicate that selects the dot gives
the aggressive output, one that does not the default (the reference's
`sdy-op-priority-propagate`) output: each case pins which.
"""
from __future__ import annotations

import textwrap

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference
from sdy_dsl.runtime.propagation.factor_propagation import Direction
from sdy_dsl.runtime.propagation.heuristics import heuristics_from_data, saturating_index

# The dot's operands have 128 elements (512 bytes), every other tensor 64.
MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x8xf32>, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %1 = stablehlo.negate %0 : tensor<8x8xf32>
      %2 = stablehlo.add %1, %arg2 : tensor<8x8xf32>
      return %2 : tensor<8x8xf32>
    }
    """)
BUILTIN_ORDER = ("pass-through-ops-single-use, pass-through-ops, "
                 "only-pass-through-factors-broadcast-backward, any-except-broadcast-forward, any")


@pytest.fixture(scope="module")
def outputs():
    ok, default = run_reference(MODULE, "builtin.module(sdy-op-priority-propagate)")
    assert ok
    ok, aggressive = run_reference(MODULE, "builtin.module(sdy-aggressive-propagate)")
    assert ok
    assert default != aggressive  # the heuristics matter here
    assert '%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = ' \
           '#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}' in aggressive
    return {"default": default, "aggressive": aggressive}


def run(tmp_path, heuristics_yaml: str, hooks_py: str | None = None,
        rules_dir: str = "my_rules") -> tuple[int, str, str]:
    rules = tmp_path / rules_dir  # (one per hook module: a module is imported once per path)
    rules.mkdir(exist_ok=True)
    (rules / "op_priority_heuristics.yaml").write_text(heuristics_yaml)
    if hooks_py is not None:
        (rules / "op_priority_heuristics.py").write_text(hooks_py)
    module = tmp_path / "m.mlir"
    module.write_text(MODULE)
    return run_sdy_dsl(["opt", str(module), "-sdy-op-priority-propagate", "--rules", str(rules)])


def first_level(when: str, declared: str = "") -> str:
    """A user file whose first heuristic lets the ops `when` selects propagate both ways."""
    return (declared + "heuristics:\n"
            f"  - name: selected-first\n    cases: [{{when: {when}, direction: BOTH}}]\n"
            f"order: [selected-first, {BUILTIN_ORDER}]\n")


@pytest.mark.parametrize("when,expected", [
    ('{op_name: "stablehlo.dot*"}', "aggressive"),                        # a glob
    ('{op_name: "stablehlo.conv*"}', "default"),
    ("{op_name: [stablehlo.convolution, stablehlo.dot_general]}", "aggressive"),  # a list
    ("{op_name: stablehlo.dot_general, when: {dot_dimension_numbers: "                # attributes
     "'#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>'}}", "aggressive"),
    ("{op_name: 'stablehlo.dot*', when: {dot_dimension_numbers: "
     "'#stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>'}}", "default"),
    ("{trait: dot}", "aggressive"),                                         # interfaces.yaml traits
    ("{trait: [dot, elementwise]}", "default"),                             # (all of them)
    ("{all: [{operands: 2}, {not: {trait: elementwise}}]}", "aggressive"),  # counts
    ("{operands: {count: {min: 3}}}", "default"),
    ("{results: {count: 1, rank: 2}}", "aggressive"),                       # ranks
    ("{results: {rank: 1}}", "default"),
    ("{operands: {index: 1, rank: 2, elements: {min: 100}}}", "aggressive"),  # sizes: only the dot's
    ("{operands: {elements: {min: 129}}}", "default"),
    ("{operands: {bytes: {min: 512, max: 512}}}", "aggressive"),
    ("{results: {bytes: {min: 257}}}", "default"),
    ("{all: [{trait: dot}, {not: {operands: {bytes: {min: 1024}}}}]}", "aggressive"),  # combined
])
def test_a_declared_predicate_selects_the_ops_that_propagate_first(tmp_path, outputs, when, expected):
    rc, out, err = run(tmp_path, first_level(when))
    assert rc == 0, err
    assert err == ""
    assert out == outputs[expected]


def test_a_count_that_also_selects_the_add(tmp_path, outputs):
    # The dot and the add (two operands each) propagate alone at first: the
    # dot's row sharding reaches the negate, the add's column sharding its
    # own result; the negate (one operand) keeps the dot's.
    rc, out, err = run(tmp_path, first_level("{operands: 2}"))
    assert (rc, err) == (0, "")
    assert out not in outputs.values()
    assert ('%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = '
            '#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}') in out
    assert '%1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}' in out


def test_a_predicate_declared_by_name(tmp_path, outputs):
    declared = ("predicates:\n"
                "  big-operand: {operands: {elements: {min: 128}}}\n"
                "  big-dot: {all: [{op_name: stablehlo.dot_general}, big-operand]}\n")
    rc, out, err = run(tmp_path, first_level("big-dot", declared))
    assert (rc, err) == (0, "")
    assert out == outputs["aggressive"]
    rc, out, err = run(tmp_path, first_level("big-dot", declared.replace("min: 128", "min: 1000")))
    assert (rc, err) == (0, "")
    assert out == outputs["default"]


HOOKS = textwrap.dedent("""\
    from jaxlib.mlir import ir
    from sdy_dsl.hooks import hook


    @hook
    def contracts_its_operands(op: ir.Operation) -> bool:
        return "contracting_dims" in str(op) and THRESHOLD < 100
    """)


@pytest.mark.parametrize("threshold,expected", [(1, "aggressive"), (1000, "default")])
def test_a_hook_predicate_beside_the_users_file(tmp_path, outputs, threshold, expected):
    rc, out, err = run(tmp_path, first_level("contracts_its_operands"),
                       HOOKS.replace("THRESHOLD", str(threshold)))
    assert (rc, err) == (0, "")
    assert out == outputs[expected]


@pytest.mark.parametrize("when,declared,error", [
    ("contracts_its_operand", "", "3:20: error: unknown heuristic predicate 'contracts_its_operand' "
                                  "(did you mean 'contracts_its_operands'?)"),
    ("{op_nam: stablehlo.add}", "", "3:21: error: unknown heuristic predicate key 'op_nam' "
                                    "(did you mean 'op_name'?)"),
    ("{trait: elementwize}", "", "3:28: error: unknown trait 'elementwize' (did you mean 'elementwise'?)"),
    ("{op_name: stablehlo.dot_generl}", "", "3:30: error: unknown op 'stablehlo.dot_generl'; "
                                            "did you mean 'stablehlo.dot_general'?"),
    ("{results: {elements: {at-least: 3}}}", "", "3:41: error: 'elements' is a number or {min: N, max: M}"),
    ("{results: {size: 3}}", "", "3:31: error: unknown 'results' key 'size' (expected one of: count, rank, elements, bytes, index)"),
    ("{all: [elementwise], not: always}", "", "3:21: error: 'all' stands alone in its mapping"),
    ("a", "predicates:\n  a: {any: [b]}\n  b: {not: a}\n",
     "3:12: error: heuristic predicate 'a' is defined in terms of itself (a -> b -> a)"),
    ("always", "predicates:\n  unused: {trait: elementwize}\n",  # checked even if unused
     "2:19: error: unknown trait 'elementwize' (did you mean 'elementwise'?)"),
    ("elementwise", "predicates:\n  elementwise: {trait: elementwise}\n",
     "2:16: error: 'elementwise' is a built-in heuristic predicate; declare another name"),
])
def test_a_bad_predicate_is_a_located_error(tmp_path, when, declared, error):
    rc, out, err = run(tmp_path, first_level(when, declared), HOOKS.replace("THRESHOLD", "1"))
    assert rc == 1 and out == ""
    path = tmp_path / "my_rules" / "op_priority_heuristics.yaml"
    assert err.startswith(f"{path}:{error}"), err


def test_a_hook_of_the_wrong_type_or_failing_is_a_located_error(tmp_path):
    hooks = tmp_path / "my_rules" / "op_priority_heuristics.py"
    rc, out, err = run(tmp_path, first_level("contracts_its_operands"),
                       HOOKS.replace("(op: ir.Operation)", "(op: ir.Operation, factor: int)"))
    assert rc == 1 and out == ""
    assert err.startswith(f"{hooks}:5:1: error: predicate hook 'contracts_its_operands' is typed "
                          "(op: ir.Operation) -> bool"), err
    hooks = tmp_path / "failing" / "op_priority_heuristics.py"
    rc, out, err = run(tmp_path, first_level("big"), rules_dir="failing", hooks_py=textwrap.dedent("""\
        from jaxlib.mlir import ir
        from sdy_dsl.hooks import hook


        @hook
        def big(op: ir.Operation) -> bool:
            return op.attributes["size"].value > 3
        """))
    assert rc == 1 and out == ""
    assert err.startswith(f"{hooks}:5:1: error: predicate hook 'big' failed on 'stablehlo.dot_general' at "), err
    assert "KeyError" in err
    rc, out, err = run(tmp_path, first_level("big"), rules_dir="broken", hooks_py="def big(:\n")
    assert rc == 1 and out == ""
    assert err.startswith(f"{tmp_path / 'broken' / 'op_priority_heuristics.yaml'}:1:1: error: cannot load hook "
                          "module op_priority_heuristics.py: SyntaxError: "), err


# ---------------------------------------------------------------------- heuristics that can never act


def test_a_level_appended_after_the_catch_all_is_a_warning(tmp_path, outputs):
    """A new heuristic without `order:` is appended after the built-in `any`,
    from which on every op propagates every factor both ways: it can never act."""
    rc, out, err = run(tmp_path, "heuristics:\n  - name: dots-first\n"
                                 "    cases: [{when: {trait: dot}, direction: BOTH}]\n")
    assert rc == 0
    assert out == outputs["default"]
    path = tmp_path / "my_rules" / "op_priority_heuristics.yaml"
    assert err.startswith(f"{path}:2:5: warning: heuristic 'dots-first' can never act: from heuristic 'any' ("), err
    assert err.rstrip().endswith("on, every op already propagates every factor both ways; put it before "
                                 "'any' with 'order: [...]'")
    assert err.count("warning:") == 1


def test_levels_after_an_always_true_level_are_warnings(tmp_path, outputs):
    rc, out, err = run(tmp_path, "heuristics:\n  - name: everything\n"
                                 "    cases: [{when: always, direction: BOTH}]\n    default: NONE\n"
                                 f"order: [everything, {BUILTIN_ORDER}]\n")
    assert rc == 0
    assert out == outputs["aggressive"]
    warned = [line.split(": warning: heuristic ")[1].split(" ")[0] for line in err.splitlines()]
    assert warned == ["'pass-through-ops-single-use'", "'pass-through-ops'",
                      "'only-pass-through-factors-broadcast-backward'", "'any-except-broadcast-forward'",
                      "'any'"]


def test_the_builtin_schedule_warns_of_nothing(tmp_path, outputs):
    module = tmp_path / "m.mlir"
    module.write_text(MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-op-priority-propagate"])
    assert (rc, err) == (0, "")
    assert out == outputs["default"]


@pytest.mark.parametrize("levels,index", [
    ([{"default": "BOTH"}], 0),
    # forward for every op, then backward for every op: both ways from the second on
    ([{"default": "FORWARD"}, {"default": "BACKWARD"}, {"default": "NONE"}], 1),
    # a case that may not hold leaves its direction out of the floor
    ([{"cases": [{"when": "elementwise", "direction": "NONE"}], "default": "BOTH"}], None),
    # nothing after an always-true case is reached
    ([{"cases": [{"when": {"any": ["elementwise", "always"]}, "direction": "BOTH"},
                 {"when": "elementwise", "direction": "NONE"}], "default": "NONE"}], 0),
    ([{"cases": [{"when": "always", "direction": "FORWARD"}], "default": "BOTH"}], None),
])
def test_the_catch_all_is_the_first_level_that_saturates(levels, index):
    heuristics = heuristics_from_data([{"name": f"h{i}", **level} for i, level in enumerate(levels)])
    assert saturating_index(heuristics) == index
    assert heuristics[0].floor() in Direction
