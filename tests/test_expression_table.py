"""Every operator and built-in function of the rule language, pinned by a table.

Three tables, each row a value worked out by hand:

- EVALUATED: an expression and its value on MODULE, compiled and evaluated
  the way the driver does it (parse_expr, ExprCompiler over BUILTINS, an Env
  on a RewriteContext inside the run's op registry);
- CONDITIONS: a `where:` clause and the ops it holds for, run the way a user
  runs it (a rule file under `--rules`, `sdy-dsl opt`), read off the output;
- ACTIONS: a rule whose `rewrite:` calls an action, run by `sdy-dsl opt`, and
  what the output (or the diagnostic) must show.

Cases sit at boundaries (equal values for `<` against `<=`, negative numbers,
precedence, `none`). `test_every_builtin_and_operator_has_a_row` fails when a
built-in (in interp.builtins.BUILTINS or docs/reference.md) or an operator of
the grammar has no row, so a new one needs its case here.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from jaxlib.mlir import ir

from lit_runner import run_sdy_dsl
from sdy_dsl.interp import syntax as S
from sdy_dsl.interp.builtins import BUILTINS
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.interp.expr import _ARITH, _COMPARE, Env, ExprCompiler
from sdy_dsl.interp.hook_guard import running_on
from sdy_dsl.interp.parsing import parse_expr
from sdy_dsl.mlir_context import make_context
from sdy_dsl.rule_library import builtin_library
from sdy_dsl.runtime import op_registry
from sdy_dsl.runtime.sharding import Mesh, TensorSharding, codec
from sdy_dsl.runtime.values import operation

ROOT = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------- direct evaluation

MODULE = """\
module {
  sdy.mesh @mesh = <["x"=2, "y"=4, "one"=1]>
  sdy.mesh @unused = <["z"=8]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"one"}], replicated={"y"}>},
                  %arg1: tensor<8x4xf32>, %arg2: tensor<i32>, %arg3: tensor<?x4xf32>)
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8xf32>, tensor<i32>) {
    %0 = stablehlo.negate %arg0 {n = 3 : i64, neg_n = -2 : i64, s = "hi",
                                 sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : tensor<8x4xf32>
    %1 = stablehlo.add %0, %arg1 : tensor<8x4xf32>
    %2 = stablehlo.constant dense<1.0> : tensor<f32>
    %3:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>, <@mesh, []>]>}
        %1, %arg2 : tensor<8x4xf32>, tensor<i32>
    %4 = sdy.data_flow_edge %3#0 sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xf32>
    %5 = stablehlo.multiply %4, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}, custom>} : tensor<8x4xf32>
    %6 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
        manual_axes={"x"} (%barg: tensor<4x4xf32>) {
      sdy.return %barg : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %k = stablehlo.constant dense<3> : tensor<i32>
    %7:2 = stablehlo.while(%iterArg = %6, %iterArg_1 = %3#1) : tensor<8x4xf32>, tensor<i32>
      cond {
      %9 = stablehlo.compare LT, %iterArg_1, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    } do {
      %9 = stablehlo.add %iterArg, %1 : tensor<8x4xf32>
      stablehlo.return %9, %iterArg_1 : tensor<8x4xf32>, tensor<i32>
    }
    %8 = stablehlo.reduce(%7#0 init: %2) across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
      reducer(%a: tensor<f32>, %b: tensor<f32>) {
        %9 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %9 : tensor<f32>
      }
    %10 = stablehlo.add %7#1, %k : tensor<i32>
    return %5, %8, %10 : tensor<8x4xf32>, tensor<8xf32>, tensor<i32>
  }
}
"""

OPTIONS = {"limit": 2}  # what `option(...)` reads in EVALUATED (CONDITIONS reads a declared one)


def _bindings(module: ir.Module) -> dict:
    """The metavariables EVALUATED uses: `$name` for ops, `%name` for values."""
    top = list(module.body.operations)
    func = operation(top[2])
    body = list(func.regions[0].blocks[0].operations)
    neg, add, cst, barrier, edge, mul, mc, k, loop, reduce, add_i32, ret = map(operation, body)
    args = list(func.regions[0].blocks[0].arguments)
    cond_args = list(loop.regions[0].blocks[0].arguments)
    do_args = list(loop.regions[1].blocks[0].arguments)
    return {
        "$mesh_op": operation(top[0]), "$unused_op": operation(top[1]), "$func": func,
        "$neg": neg, "$add": add, "$cst": cst, "$barrier": barrier, "$edge": edge, "$mul": mul,
        "$mc": mc, "$k": k, "$while": loop, "$reduce": reduce, "$add_i32": add_i32, "$ret": ret,
        "$body_add": operation(list(loop.regions[1].blocks[0].operations)[0]),
        "$cond_compare": operation(list(loop.regions[0].blocks[0].operations)[0]),
        **{f"%arg{i}": a for i, a in enumerate(args)},
        "%neg": neg.result, "%add": add.result, "%cst": cst.result, "%b0": barrier.results[0],
        "%b1": barrier.results[1], "%edge": edge.result, "%mul": mul.result, "%mc": mc.result,
        "%mc_arg": mc.regions[0].blocks[0].arguments[0], "%k": k.result, "%w0": loop.results[0],
        "%w1": loop.results[1], "%w_cond1": cond_args[1], "%w_body0": do_args[0],
        "%reduce": reduce.result, "%reduce_a": reduce.regions[0].blocks[0].arguments[0],
    }


def _shown(value, names: dict):
    """A value as the table writes it: ops and values by their metavariable,
    shardings and meshes as MLIR prints their attribute, lists as lists."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_shown(v, names) for v in value]
    if isinstance(value, TensorSharding):
        return str(codec.tensor_sharding_attr(value))
    if isinstance(value, Mesh):
        return str(codec.mesh_attr(value))
    if isinstance(value, (ir.Operation, ir.OpView)):
        value = operation(value)
    if isinstance(value, (ir.Operation, ir.Value)):
        kind = ir.Operation if isinstance(value, ir.Operation) else ir.Value
        found = [name for name, bound in names.items() if isinstance(bound, kind) and bound == value]
        assert found, f"no metavariable for {value}"
        return found[0]
    if isinstance(value, ir.Attribute):
        return str(value)
    raise AssertionError(f"the table cannot show a {type(value).__name__}")


@pytest.fixture(scope="module")
def parsed():
    """MODULE in its own context, parsed once (the rows only read it)."""
    context = make_context()
    with context, ir.Location.unknown():
        module = ir.Module.parse(MODULE)
    return context, module, _bindings(module)


def evaluate(parsed, text: str):
    """TEXT's value on MODULE, shown (see _shown)."""
    context, module, names = parsed
    # The codec caches decoded attributes by handle: other tests' contexts (the CLI runs
    # below) may have left entries for handles this context now reuses.
    codec.clear()
    library = builtin_library()
    anchor = module.operation
    with context, ir.Location.unknown(), op_registry.using(library.op_registry), running_on(anchor):
        ctx = RewriteContext(anchor, OPTIONS, SimpleNamespace(name="table", params={}), library)
        compiled = ExprCompiler(BUILTINS).compile(parse_expr(text), set(names))
        return _shown(compiled(Env(ctx, dict(names))), names)


MESH = '#sdy.mesh<["x"=2, "y"=4, "one"=1]>'

# (expression, value); a set: the value is a list in an order MLIR does not promise.
EVALUATED = [
    # comparisons, at the boundary and off it on both sides
    ("2 < 3", True), ("3 < 3", False), ("4 < 3", False),
    ("2 <= 3", True), ("3 <= 3", True), ("4 <= 3", False),
    ("2 > 3", False), ("3 > 3", False), ("4 > 3", True),
    ("2 >= 3", False), ("3 >= 3", True), ("4 >= 3", True),
    ("-2 < -1", True), ("-1 < -2", False), ("-2 >= -2", True),
    ("int_value(attr($neg, \"neg_n\")) < -2", False), ("int_value(attr($neg, \"neg_n\")) <= -2", True),
    ("3 == 3", True), ("3 == 4", False), ("3 != 3", False), ("3 != 4", True),
    ("\"a\" == \"a\"", True), ("\"a\" != \"b\"", True), ("\"a\" < \"b\"", True),
    ("none == none", True), ("none != none", False),
    ("attr($neg, \"missing\") == none", True), ("attr($neg, \"s\") == none", False),
    ("attr($neg, \"s\") != none", True), ("none != attr($neg, \"s\")", True),
    # a decoded sharding equals the attribute it was read from
    ("sharding(%edge) == attr($edge, \"sharding\")", True),
    ("sharding(%edge) != attr($edge, \"sharding\")", False),
    ("attr($edge, \"sharding\") == sharding(%b0)", False),
    ("2 in [1, 2]", True), ("3 in [1, 2]", False), ("3 not in [1, 2]", True), ("2 not in [1, 2]", False),
    ("\"y\" in mesh_named(\"mesh\").axis_names", True),
    # arithmetic: precedence, associativity, floor semantics
    ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20), ("10 - 2 * 3", 4), ("10 - 3 - 2", 5),
    ("7 // 2", 3), ("-7 // 2", -4), ("7 // 2 * 2", 6), ("7 % 3", 1), ("-7 % 3", 2),
    ("8 % 3 * 2", 4), ("2 * 3 % 4", 2), ("2 * 3 - 4 // 2", 4), ("1 - -1", 2),
    ("int_value(attr($neg, \"n\")) * 2 + 1", 7), ("\"a\" + \"b\"", "ab"), ("[1] + [2]", [1, 2]),
    ("1 + 1 == 2", True), ("2 * 2 > 3", True), ("3 - 1 <= 1", False),
    # boolean operators: precedence (not > and > or), short circuit, values
    ("true and false", False), ("true and true", True), ("false or true", True), ("false or false", False),
    ("not true", False), ("not false", True), ("not 1 == 2", True),
    ("true or false and false", True), ("not false and false", False),
    ("false and at([], 0)", False), ("true or at([], 0)", True),
    ("2 and 5", 5), ("0 or 7", 7), ("0 and 5", 0),
    ("1 if 2 > 1 else 2", 1), ("1 if 2 < 1 else 2", 2),
    # bindings hold unless they bind none or false; lambdas; field access; lists
    ("[$v := 3, $v * 2]", [True, 6]), ("$v := none", False), ("$v := false", False), ("$v := 0", True),
    ("[1, [2, 3]]", [1, [2, 3]]), ("sharding(%arg0).rank", 2), ("sharding(%neg).is_fully_replicated", False),
    # general built-ins
    ("option(\"limit\")", 2),
    ("name_of($neg)", "stablehlo.negate"), ("name_of($mc)", "sdy.manual_computation"),
    ("len([])", 0), ("len([1, [2, 3]])", 2), ("len(operands($add))", 2),
    ("any_of([1, 2], $v => $v > 1)", True), ("any_of([1, 2], $v => $v > 2)", False), ("any_of([], $v => true)", False),
    ("all_of([1, 2], $v => $v >= 1)", True), ("all_of([1, 2], $v => $v > 1)", False), ("all_of([], $v => false)", True),
    ("map([1, 2, 3], $v => $v * 10)", [10, 20, 30]), ("map([], $v => $v)", []),
    ("filter([1, 2, 3, 4], $v => $v % 2 == 0)", [2, 4]), ("filter([-1, 0, 1], $v => $v < 0)", [-1]),
    ("attr($neg, \"s\")", "\"hi\""), ("attr($neg, \"missing\")", None), ("attr($neg, \"n\")", "3 : i64"),
    ("has_attr($neg, \"s\")", True), ("has_attr($add, \"s\")", False),
    ("string_value(attr($neg, \"s\"))", "hi"),
    ("int_value(attr($neg, \"n\"))", 3), ("int_value(attr($neg, \"neg_n\"))", -2),
    ("range(3)", [0, 1, 2]), ("range(0)", []), ("range(1)", [0]),
    ("at([5, 6, 7], 0)", 5), ("at([5, 6, 7], 2)", 7), ("at([5, 6, 7], -1)", 7),
    ("reversed([1, 2, 3])", [3, 2, 1]), ("reversed([])", []),
    # values and ops
    ("rank(%arg0)", 2), ("rank(%arg2)", 0), ("rank(%reduce)", 1),
    ("shape(%arg0)", [8, 4]), ("shape(%mc_arg)", [4, 4]), ("shape(%arg2)", []),
    ("users(%neg)", {"$add", "$mul"}), ("users(%arg3)", []), ("users(%k)", {"$add_i32", "$cond_compare"}),
    ("num_uses(%neg)", 2), ("num_uses(%arg3)", 0), ("num_uses(%arg1)", 1), ("num_uses(%add)", 2),
    ("defining_op(%neg)", "$neg"), ("defining_op(%b1)", "$barrier"), ("defining_op(%arg0)", None),
    ("parent_op($neg)", "$func"), ("parent_op($body_add)", "$while"),
    ("operands($add)", ["%neg", "%arg1"]), ("operands($cst)", []),
    ("results($barrier)", ["%b0", "%b1"]), ("results($ret)", []),
    ("first_user_in_block($neg)", "$add"), ("first_user_in_block($k)", "$while"),
    ("first_user_in_block($add_i32)", "$ret"), ("first_user_in_block($ret)", None),
    ("is_static_shaped(%arg0)", True), ("is_static_shaped(%arg2)", True), ("is_static_shaped(%arg3)", False),
    # shardings
    ("sharding(%arg0)", '#sdy.sharding<@mesh, [{"x", ?}, {"one"}], replicated={"y"}>'),
    ("sharding(%arg1)", None), ("sharding(%neg)", '#sdy.sharding<@mesh, [{"x"}, {?}]>'),
    ("sharding(%b1)", "#sdy.sharding<@mesh, []>"), ("sharding(%edge)", '#sdy.sharding<@mesh, [{"x"}, {}]>'),
    ("sharding(%mc_arg)", '#sdy.sharding<@mesh, [{"x", "y"}, {}]>'), ("sharding(%w0)", None),
    ("has_sharding(%arg0)", True), ("has_sharding(%arg1)", False), ("has_sharding(%neg)", True),
    ("tensor_sharding(attr($edge, \"sharding\"))", '#sdy.sharding<@mesh, [{"x"}, {}]>'),
    ("tensor_sharding(none)", None),
    ("shardings(attr($barrier, \"sdy.sharding\"))", ['#sdy.sharding<@mesh, [{"y"}, {}]>', "#sdy.sharding<@mesh, []>"]),
    ("shardings(none)", []),
    ("is_custom_rule(attr($mul, \"sdy.sharding_rule\"))", True), ("is_custom_rule(op_sharding_rule($add))", False),
    ("op_sharding_rule($mul)", "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}, custom>"),
    ("op_sharding_rule($add)", "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>"),
    ("op_sharding_rule($neg)", "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>"),
    ("op_sharding_rule($ret)", None),
    ("closed(sharding(%arg0))", '#sdy.sharding<@mesh, [{"x"}, {"one"}], replicated={"y"}>'),
    ("closed(attr($edge, \"sharding\"))", '#sdy.sharding<@mesh, [{"x"}, {}]>'),
    ("drop_replicated(sharding(%arg0))", '#sdy.sharding<@mesh, [{"x", ?}, {"one"}]>'),
    ("is_fully_closed(sharding(%arg0))", False), ("is_fully_closed(sharding(%neg))", False),
    ("is_fully_closed(sharding(%edge))", True), ("is_fully_closed(closed(sharding(%neg)))", True),
    ("without_size_one_axes(sharding(%arg0), mesh_named(\"mesh\"))",
     '#sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"y"}>'),
    ("with_inline_mesh(sharding(%edge), mesh_named(\"mesh\"))",
     '#sdy.sharding<mesh<["x"=2, "y"=4, "one"=1]>, [{"x"}, {}]>'),
    ("with_mesh_symbol(with_inline_mesh(sharding(%edge), mesh_named(\"mesh\")), \"unused\")",
     '#sdy.sharding<@unused, [{"x"}, {}]>'),
    ("mesh_of(sharding(%arg0))", MESH),
    # building and editing shardings (arg0: [{"x", ?}, {"one"}] replicated y; edge: [{"x"}, {}])
    ("sharding(\"mesh\", [[\"x\"], [\"y\", \"?\"]])", '#sdy.sharding<@mesh, [{"x"}, {"y", ?}]>'),
    ("set_dim(sharding(%edge), 1, [\"y\"])", '#sdy.sharding<@mesh, [{"x"}, {"y"}]>'),
    ("set_dim(sharding(%neg), 1, [\"y\"])", '#sdy.sharding<@mesh, [{"x"}, {"y", ?}]>'),  # stays open
    ("append_axis(sharding(%edge), 0, \"y\")", '#sdy.sharding<@mesh, [{"x", "y"}, {}]>'),
    ("remove_axis(sharding(%mc_arg), 0, \"x\")", '#sdy.sharding<@mesh, [{"y"}, {}]>'),
    ("opened(sharding(%edge))", '#sdy.sharding<@mesh, [{"x", ?}, {?}]>'),
    ("open_dim(sharding(%edge), 1)", '#sdy.sharding<@mesh, [{"x"}, {?}]>'),
    ("close_dim(sharding(%neg), 1)", '#sdy.sharding<@mesh, [{"x"}, {}]>'),
    ("dim_axes(sharding(%mc_arg), 0)", ["x", "y"]), ("dim_axes(sharding(%edge), 1)", []),
    ("replicated(%arg1, \"mesh\")", "#sdy.sharding<@mesh, [{}, {}]>"),
    ("replicated(%arg0)", "#sdy.sharding<@mesh, [{}, {}]>"),
    ("replicated(%arg2, \"mesh\")", "#sdy.sharding<@mesh, []>"),
    # tensor facts: arg0 is 8x4 f32; a scalar i32; one device's shard under each sharding
    ("dim(%arg0, 0)", 8), ("dim(%arg0, -1)", 4), ("dim(%reduce, 0)", 8),
    ("element_type(%arg0)", "f32"), ("element_type(%arg2)", "i32"),
    ("element_count(%arg0)", 32), ("element_count(%arg2)", 1),
    ("bytes(%arg0)", 128), ("bytes(%arg2)", 4),
    ("shard_bytes(%arg0)", 64),   # 8/2 x 4/1 x 4 bytes ("one" splits nothing, replicated y neither)
    ("shard_bytes(%arg1)", 128),  # no sharding: all of it
    ("shard_bytes(%b0)", 32),     # 8/4 x 4 x 4
    ("block_args($func)", ["%arg0", "%arg1", "%arg2", "%arg3"]), ("block_args($neg)", []),
    # formatted strings
    ("f\"{dim(%arg0, 0)}x{dim(%arg0, 1)} {element_type(%arg0)}: {bytes(%arg0) // 2}\"", "8x4 f32: 64"),
    ("f\"{1 + 1 == 2}\"", "true"),
    ("mesh_of(with_inline_mesh(sharding(%edge), mesh_named(\"unused\")))", '#sdy.mesh<["z"=8]>'),
    ("meshes()", [MESH, '#sdy.mesh<["z"=8]>']),
    ("mesh_named(\"unused\")", '#sdy.mesh<["z"=8]>'), ("mesh_named(\"nope\")", None),
    ("symbol_used($mesh_op)", True), ("symbol_used($unused_op)", False),
    # op interfaces (rules/interfaces.yaml)
    ("is_elementwise($add)", True), ("is_elementwise($neg)", True),
    ("is_elementwise($barrier)", False), ("is_elementwise($mc)", False),
    ("is_data_flow_op($while)", True), ("is_data_flow_op($barrier)", True), ("is_data_flow_op($mc)", True),
    ("is_data_flow_op($neg)", False), ("is_data_flow_op($edge)", False),
    ("is_constant_like_op($cst)", True), ("is_constant_like_op($k)", True), ("is_constant_like_op($neg)", False),
    ("keeps_edge_owner_shardings_divisible($mc)", True),
    ("keeps_edge_owner_shardings_divisible($barrier)", False),
    ("keeps_edge_owner_shardings_divisible($neg)", False),
    ("data_flow_result_owners($barrier)", ["%b0", "%b1"]), ("data_flow_result_owners($mc)", ["%mc"]),
    ("data_flow_result_owners($neg)", []),
    ("data_flow_block_arg_owners($mc)", ["%mc_arg"]), ("data_flow_block_arg_owners($while)", []),
    ("data_flow_block_arg_owners($barrier)", []),
    ("edge_owner_sharding(%b0)", '#sdy.sharding<@mesh, [{"y"}, {}]>'),
    ("edge_owner_sharding(%mc_arg)", '#sdy.sharding<@mesh, [{"y"}, {}]>'),  # manual axis "x" stripped
    ("edge_owner_sharding(%mc)", '#sdy.sharding<@mesh, [{"x"}, {}]>'),  # outside the body: kept
    ("edge_owner_sharding(%w_body0)", None),
    ("edge_owner(%b0)", "%b0"), ("edge_owner(%mc_arg)", "%mc_arg"), ("edge_owner(%mc)", "%mc"),
    ("edge_owner(%w_body0)", "%w0"), ("edge_owner(%w_cond1)", "%w1"), ("edge_owner(%neg)", None),
    ("data_flow_edge(%b0)", "$edge"), ("data_flow_edge(%b1)", None), ("data_flow_edge(none)", None),
    ("is_data_flow_edge_target(%edge)", True), ("is_data_flow_edge_target(%b0)", True),
    ("is_data_flow_edge_target(%b1)", False), ("is_data_flow_edge_target(%neg)", False),
    ("is_data_flow_edge_target(%w_body0)", False),
    ("can_hold_sharding(%arg0)", True), ("can_hold_sharding(%mc_arg)", True),
    ("can_hold_sharding(%neg)", True), ("can_hold_sharding(%reduce_a)", False),
]


@pytest.mark.parametrize("text, expected", EVALUATED, ids=[t for t, _ in EVALUATED])
def test_expression_value(parsed, text, expected):
    value = evaluate(parsed, text)
    if isinstance(expected, set):
        assert isinstance(value, list) and len(value) == len(expected) and set(value) == expected
    else:
        assert value == expected
        assert type(value) is type(expected)  # True is not 1, [] is not none


# --------------------------------------------------------------------------- where: clauses, run by sdy-dsl opt

N = (-1, 0, 1, 2, 3)  # one negate per n, chained
CONDITION_MODULE = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n" + "".join(
    f"  %{i} = stablehlo.negate %{'a' if i == 0 else i - 1} {{n = {n} : i64}} : tensor<4xf32>\n"
    for i, n in enumerate(N)) + f"  return %{len(N) - 1} : tensor<4xf32>\n}}\n"

# (where clause, the values of `n` it holds for); `$n` is the op's `n`.
CONDITIONS = [
    ("int_value($n) < 1", {-1, 0}),
    ("int_value($n) <= 1", {-1, 0, 1}),
    ("int_value($n) > 1", {2, 3}),
    ("int_value($n) >= 1", {1, 2, 3}),
    ("int_value($n) == 1", {1}),
    ("int_value($n) != 1", {-1, 0, 2, 3}),
    ("int_value($n) < 0", {-1}),
    ("int_value($n) >= -1", set(N)),
    ("int_value($n) * 2 + 1 == 5", {2}),
    ("int_value($n) - 1 >= 1", {2, 3}),
    ("int_value($n) // 2 == -1", {-1}),
    ("int_value($n) % 2 == 1", {-1, 1, 3}),
    ("int_value($n) > 0 and int_value($n) < 3", {1, 2}),
    ("int_value($n) < 0 or int_value($n) > 2", {-1, 3}),
    ("not int_value($n) == 0", {-1, 1, 2, 3}),
    ("int_value($n) in [0, 3]", {0, 3}),
    ("int_value($n) not in [0, 3]", {-1, 1, 2}),
    ("int_value($n) >= option(\"limit\")", {2, 3}),
]


def _condition_rules() -> str:
    rules, stages = [], []
    for i, (where, _) in enumerate(CONDITIONS):
        rules.append(f"  - id: c{i}\n    match: \"$op = stablehlo.negate {{n = $n}}\"\n"
                     f"    where: {where!r}\n    rewrite: ['set_attr($op, \"c{i}\", true)']\n")
        stages.append(f"  - {{name: s{i}, rules: [c{i}]}}\n")
    return ("pass: test-conditions\nsummary: Marks each negate with the conditions that hold for its n.\n"
            "options:\n  limit: {type: int, default: 2, help: a bound}\n"
            "rules:\n" + "".join(rules) + "stages:\n" + "".join(stages))


def _run_conditions(tmp_path, *pass_args) -> dict[int, set[int]]:
    """{condition index: the n of the ops it fired on}."""
    rules = tmp_path / "rules"
    rules.mkdir(exist_ok=True)
    (rules / "conditions.yaml").write_text(_condition_rules())
    (tmp_path / "m.mlir").write_text(CONDITION_MODULE)
    rc, out, err = run_sdy_dsl(["opt", str(tmp_path / "m.mlir"), "--rules", str(rules), *pass_args])
    assert rc == 0, err
    fired: dict[int, set[int]] = {i: set() for i in range(len(CONDITIONS))}
    for line in out.splitlines():
        if "stablehlo.negate" in line:
            n = int(re.search(r"\bn = (-?\d+) : i64", line).group(1))
            for i in re.findall(r"\bc(\d+)(?: = true)?\b", line):
                fired[int(i)].add(n)
    return fired


@pytest.fixture(scope="module")
def conditions_fired(tmp_path_factory):
    return _run_conditions(tmp_path_factory.mktemp("conditions"), "-test-conditions")


@pytest.mark.parametrize("index", range(len(CONDITIONS)), ids=[w for w, _ in CONDITIONS])
def test_where_clause_fires_where_it_holds(conditions_fired, index):
    assert conditions_fired[index] == CONDITIONS[index][1]


def test_where_clause_reads_the_option_given_on_the_command_line(tmp_path):
    last = len(CONDITIONS) - 1
    assert _run_conditions(tmp_path, "-test-conditions=limit=3")[last] == {3}


# --------------------------------------------------------------------------- actions, run by sdy-dsl opt

ACTION_MODULE = """\
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>},
             %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0:2 = stablehlo.optimization_barrier %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = stablehlo.negate %a {tag = "first"} : tensor<8xf32>
  %2 = stablehlo.abs %1 {tag = "second"} : tensor<8xf32>
  %3 = stablehlo.add %2, %0#0 : tensor<8xf32>
  return %3, %0#1 : tensor<8xf32>, tensor<8xf32>
}
"""

# (match, rewrite, what the output shows, in this order, what it must not show).
# Each is the one rule of a pass.
NEGATE = "$op = stablehlo.negate(%x) {tag = $t}"
ABS = "$op = stablehlo.abs(%x)"
ADD = "$op = stablehlo.add(%l, %r)"
FUNC = "$op = func.func"
BARRIER = "$op = stablehlo.optimization_barrier(%p, %q)"
ACTIONS = [
    (NEGATE, ['set_attr($op, "k", 2 * 3 + 1)', 'set_attr($op, "flag", 1 < 1)', 'set_attr($op, "word", "w")',
              'set_attr($op, "s", sharding(%x))', 'set_attr($op, "t2", $t)'],
     ['{flag = false, k = 7 : i64, s = #sdy.sharding<@mesh, [{"x", ?}]>, t2 = "first", tag = "first", word = "w"}'],
     []),
    (NEGATE, ['remove_attr($op, "tag")'], ["stablehlo.negate %arg0 : tensor<8xf32>", 'tag = "second"'],
     ['"first"']),
    (NEGATE, ["set_sharding(at(results($op), 0), closed(sharding(%x)))", "set_sharding(%x, none)"],
     ["%arg0: tensor<8xf32>, %arg1",
      'stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, tag = "first"}'], []),
    (FUNC, ['remove_arg_attr($op, 1, "sdy.sharding")'],
     ['%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}, %arg1: tensor<8xf32>)'], []),
    (FUNC, ['remove_result_attr($op, 0, "sdy.sharding")'],
     ['-> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})'], []),
    (ABS, ["replace_uses(at(results($op), 0), %x)"], ["%2 = stablehlo.abs %1", "stablehlo.add %1, %0#0"], []),
    (ABS, ["replace($op, %x)"], ["stablehlo.add %1, %0#0"], ["stablehlo.abs"]),
    (NEGATE, ["replace_uses(at(results($op), 0), %x)", "erase($op)"], ["stablehlo.abs %arg0"],
     ["stablehlo.negate"]),
    (ADD, ["move_after(defining_op(%r), defining_op(%l))"],
     ["stablehlo.negate", "stablehlo.abs", "stablehlo.optimization_barrier", "stablehlo.add"], []),
    (ADD, ["move_before(defining_op(%r), $op)"],
     ["stablehlo.negate", "stablehlo.abs", "stablehlo.optimization_barrier", "stablehlo.add"], []),
    (FUNC, ["for_each_sharding($op, $s => drop_replicated(closed($s)))"],
     ['%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}'], ['{"x", ?}']),
    (BARRIER, ["for_each(results($op), $v => set_sharding($v, sharding(%q)))"],
     ['stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, '
      '<@mesh, [{"y"}]>]>}'], []),
    (BARRIER, ["set_edge_owner_shardings($op, data_flow_result_owners($op), [sharding(%q), sharding(%p)])"],
     ['stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, '
      '<@mesh, [{"x", ?}]>]>}'], []),
    # a constraint right after the negate, which every other use (the abs) now reads
    (NEGATE, ['constrain(at(results($op), 0), sharding("mesh", [["y"]]))'],
     ['%1 = stablehlo.negate %arg0 {tag = "first"}', '%2 = sdy.sharding_constraint %1 <@mesh, [{"y"}]>',
      '%3 = stablehlo.abs %2'], ["stablehlo.abs %1"]),
]


def _run_rule(tmp_path, match: str, rewrite: list[str]) -> tuple[int, str, str]:
    rules = tmp_path / "rules"
    rules.mkdir()
    body = "".join(f"      - {a!r}\n" for a in rewrite)
    (rules / "t.yaml").write_text(f"pass: test-action\nsummary: One rule.\nrules:\n  - id: act\n"
                                  f"    match: {match!r}\n    rewrite:\n{body}")
    (tmp_path / "m.mlir").write_text(ACTION_MODULE)
    return run_sdy_dsl(["opt", str(tmp_path / "m.mlir"), "--rules", str(rules), "-test-action"])


@pytest.mark.parametrize("match, rewrite, shown, absent", ACTIONS, ids=[" ; ".join(a[1]) for a in ACTIONS])
def test_action(tmp_path, match, rewrite, shown, absent):
    rc, out, err = _run_rule(tmp_path, match, rewrite)
    assert rc == 0, err
    at = 0
    for text in shown:
        found = out.find(text, at)
        assert found >= 0, f"{text!r} not in the output (after offset {at}):\n{out}"
        at = found + len(text)
    for text in absent:
        assert text not in out


EITHER = "$op = stablehlo.negate|stablehlo.abs"
# (rewrite on the negate and the abs, exit code, the diagnostics' lines on stderr)
DIAGNOSTICS = [
    (['warning($op, "look at " + name_of($op))'], 0,
     ["m.mlir:6:8: warning: look at stablehlo.negate", "m.mlir:7:8: warning: look at stablehlo.abs"]),
    (['error($op, "bad " + name_of($op))'], 1,
     ["m.mlir:6:8: error: bad stablehlo.negate", "m.mlir:7:8: error: bad stablehlo.abs"]),
    (['fail($op, "stop at " + name_of($op))'], 1, ["m.mlir:6:8: error: stop at stablehlo.negate"]),
]


@pytest.mark.parametrize("rewrite, rc, lines", DIAGNOSTICS, ids=[d[0][0] for d in DIAGNOSTICS])
def test_diagnostic_action(tmp_path, rewrite, rc, lines):
    code, out, err = _run_rule(tmp_path, EITHER, rewrite)
    assert code == rc, err
    found = [line for line in err.splitlines() if re.search(r": (warning|error): ", line)]
    assert [line[line.index("m.mlir:"):] for line in found] == lines


# --------------------------------------------------------------------------- completeness


def _nodes(node):
    yield node
    for child in vars(node).values():
        for item in child if isinstance(child, list) else [child]:
            if isinstance(item, S.Expr):
                yield from _nodes(item)


def _tables_nodes():
    texts = [t for t, _ in EVALUATED] + [w for w, _ in CONDITIONS]
    texts += [a for _, rewrite, _, _ in ACTIONS for a in rewrite] + [d[0][0] for d in DIAGNOSTICS]
    return [n for t in texts for n in _nodes(parse_expr(t))]


def _documented_builtins() -> set[str]:
    page = (ROOT / "docs" / "reference.md").read_text()
    section = page.split("## Built-in functions", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)\(", section, re.M))


def test_every_builtin_and_operator_has_a_row():
    nodes = _tables_nodes()
    called = {n.func for n in nodes if isinstance(n, S.Call)}
    documented = _documented_builtins()
    assert len(documented) > 50 and documented == set(BUILTINS)  # the page lists the registry
    assert sorted(set(BUILTINS) - called) == []
    operators = {n.op for n in nodes if isinstance(n, (S.Compare, S.Arith, S.BoolOp))}
    assert sorted((set(_COMPARE) | set(_ARITH) | {"and", "or"}) - operators) == []
    kinds = {type(n) for n in nodes}
    assert sorted(c.__name__ for c in S.Expr.__subclasses__() if c not in kinds) == []
