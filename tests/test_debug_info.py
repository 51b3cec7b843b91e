"""sdy_dsl.runtime.debug_info (shared by sdy-apply-sharding-constraints and the
propagation passes) against the reference.

The expected attributes of the first test are what the C++ reference prints for

    python ref_opt.py IN -sdy-aggressive-propagate='debug-propagation-edge-sharding=true debug-sharding-origins=true'

on the module below: its step 1 is the update of the add from the argument /
result shardings to `[{"a"}, {"b"}, {"c"}]` on all three tensors.
(Whole passes: tests/lit/import/apply_sharding_constraints.mlir,
tests/lit/propagation/debug_*.mlir, tests/test_propagation_debug.py.)
"""
from __future__ import annotations

from jaxlib.mlir import ir

from lit_runner import run_sdy_dsl
from reference import run_reference
from sdy_dsl.mlir_context import make_context
from sdy_dsl.runtime import debug_info as dbg
from sdy_dsl.runtime.op_sharding_rule_registry import sharding_rule_for
from sdy_dsl.runtime.sharding_projection import ShardingProjection
from sdy_dsl.runtime.sharding import AxisRef, Mesh, MeshAxis, parse_tensor_sharding
from sdy_dsl.runtime.values import MeshTable, operation

MODULE = """
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>
func.func @f(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}, {?}]>},
             %arg1: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}, {"c", ?}]>})
    -> (tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}, {?}]>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}
"""


def _sharding(text: str):
    return parse_tensor_sharding(text)


def test_update_records_edges_and_origins_like_the_reference():
    with make_context():
        module = ir.Module.parse(MODULE)
        func = operation(module.body.operations[1])
        add = operation(func.regions[0].blocks[0].operations[0])
        mesh = MeshTable(module.operation).meshes["mesh"]
        rule = sharding_rule_for(add)

        info = dbg.ShardingDebugInfo(sharding_origins=True, propagation_edges=True)
        info.seed_origins(module.operation)  # input: 0 / input: 1 / output: 0
        info.step = 1  # the reference's step 0 was the func result's update

        old = ShardingProjection.build(
            [_sharding('<@mesh, [{"a", ?}, {?}, {?}]>'), _sharding('<@mesh, [{?}, {?}, {"c", ?}]>')],
            [_sharding('<@mesh, [{?}, {"b", ?}, {?}]>')], rule, mesh)
        full = _sharding('<@mesh, [{"a", ?}, {"b", ?}, {"c", ?}]>')
        new = ShardingProjection.build([full, full], [full], rule, mesh)
        assert dbg.projection_changed(old, new) and not dbg.projection_changed(new, new)
        info.record_update(add, list(add.operands), list(add.results), rule, mesh, info.snapshot(old), new)
        assert info.step == 2

        info.save(module.operation)
        assert str(add.attributes["sdy.propagation_edges"]) == (
            '#sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [operand-1, result-0]}, '
            '{"b" = result-0 -> [operand-0, operand-1]}, {"c" = operand-1 -> [operand-0, result-0]}]}]>')
        assert str(add.attributes["sdy.sharding_origins"]) == (
            '[{a = "input: 0", b = "output: 0", c = "input: 1"}]')
        # Function arguments / results: their own origin reads "self".
        assert str(dbg.func_attr(func, "arg_attrs", 0, "sdy.sharding_origins")) == (
            '{a = "self", b = "output: 0", c = "input: 1"}')
        assert str(dbg.func_attr(func, "arg_attrs", 1, "sdy.sharding_origins")) == (
            '{a = "input: 0", b = "output: 0", c = "self"}')
        assert str(dbg.func_attr(func, "res_attrs", 0, "sdy.sharding_origins")) == (
            '{a = "input: 0", b = "self", c = "input: 1"}')


def test_first_origin_wins_sub_axes_fall_back_and_unknown_reads_like_the_reference():
    mesh = Mesh((MeshAxis("c", 8),))
    with make_context():
        module = ir.Module.parse(MODULE)
        arg0 = operation(module.body.operations[1]).regions[0].blocks[0].arguments[0]
        info = dbg.ShardingDebugInfo(sharding_origins=True)
        info.record_origins(arg0, _sharding('<@mesh, [{"c"}, {}, {}]>'), "constraint_0")
        info.record_origins(arg0, _sharding('<@mesh, [{"c"}, {}, {}]>'), "input: 0")
        assert info.origins[arg0] == {AxisRef("c"): "constraint_0"}
        assert info.origin_of(arg0, AxisRef("c", 2, 4), mesh) == "constraint_0"
        assert info.origin_of(arg0, AxisRef("b"), mesh) == dbg.UNKNOWN_ORIGIN == ": 0"


def test_edge_attribute_text():
    node = dbg.EdgeNode
    edges = {
        AxisRef("c", 2, 4): [dbg.PropagationEdge(node(dbg.RESULT, 0), node(dbg.OPERAND, 0), 3)],
        AxisRef("c", 1, 2): [dbg.PropagationEdge(node(dbg.RESULT, 0), node(dbg.OPERAND, 1), 3)],
        AxisRef("a"): [dbg.PropagationEdge(node(dbg.OPERAND, 1), node(dbg.RESULT, 0), 0),
                       dbg.PropagationEdge(node(dbg.OPERAND, 1), node(dbg.OPERAND, 0), 0),
                       # A second source of "a" in the same step: the reference prints one.
                       dbg.PropagationEdge(node(dbg.RESULT, 0), node(dbg.OPERAND, 2), 0)],
    }
    text = dbg.propagation_edges_text(edges)
    # Axes by name, then sub-axis (not recording order); targets operands first.
    assert text == ('#sdy.propagation_edges<[{step-0 = [{"a" = operand-1 -> [operand-0, result-0]}]}, '
                    '{step-3 = [{"c":(1)2 = result-0 -> [operand-1]}, {"c":(2)4 = result-0 -> [operand-0]}]}]>')
    with make_context():
        assert str(ir.Attribute.parse(text)) == text  # MLIR prints it back unchanged
    assert dbg.propagation_edges_text({}) is None
    assert dbg.axis_key(AxisRef("c", 1, 2)) == "c:(1)2"


CLOSED_EMPTY_CONSTRAINT = """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}]> : tensor<8xf32>
  %2 = stablehlo.negate %arg1 : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a"}]> : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
}
"""


def test_a_rule_file_update_that_only_closes_takes_a_step_like_the_reference(tmp_path):
    # `[{}]` moves no axis but changes the projection (closed): step 0, no edge;
    # the second constraint's edge is step 1.
    options = "debug-sharding-origins=true debug-propagation-edge-sharding=true"
    ok, expected = run_reference(CLOSED_EMPTY_CONSTRAINT,
                                 f"builtin.module(sdy-apply-sharding-constraints{{{options}}})")
    source = tmp_path / "input.mlir"
    source.write_text(CLOSED_EMPTY_CONSTRAINT)
    rc, out, err = run_sdy_dsl(["opt", str(source), f"-sdy-apply-sharding-constraints={options}"])
    assert ok and rc == 0, err
    assert '{step-1 = [{"a" = result-0 -> [operand-0]}]}' in out
    assert out == expected
