"""sdy_dsl.runtime.debug_info on a propagation-like update, against the reference.

The expected attributes are what the C++ reference prints for

    python ref_opt.py IN -sdy-aggressive-propagate='debug-propagation-edge-sharding=true debug-sharding-origins=true'

on the module below: its step 1 is the update of the add from the argument /
result shardings to `[{"a"}, {"b"}, {"c"}]` on all three tensors.
(sdy-apply-sharding-constraints' use is covered by
tests/lit/import/apply_sharding_constraints.mlir.)
"""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.mlir_context import make_context
from sdy_dsl.runtime import debug_info as dbg
from sdy_dsl.runtime.op_sharding_rule_registry import sharding_rule_for
from sdy_dsl.runtime.propagation.projection import ShardingProjection
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
        arg0, arg1 = func.regions[0].blocks[0].arguments
        mesh = MeshTable(module.operation).meshes["mesh"]
        rule = sharding_rule_for(add)

        info = dbg.ShardingDebugInfo(sharding_origins=True, propagation_edges=True)
        info.record_origins(arg0, _sharding('<@mesh, [{"a", ?}, {?}, {?}]>'), dbg.input_origin(0))
        info.record_origins(arg1, _sharding('<@mesh, [{?}, {?}, {"c", ?}]>'), dbg.input_origin(1))
        info.record_origins(add.results[0], _sharding('<@mesh, [{?}, {"b", ?}, {?}]>'), dbg.output_origin(0))
        info.step = 1  # the reference's step 0 was the func result's update

        old = ShardingProjection.build(
            [_sharding('<@mesh, [{"a", ?}, {?}, {?}]>'), _sharding('<@mesh, [{?}, {?}, {"c", ?}]>')],
            [_sharding('<@mesh, [{?}, {"b", ?}, {?}]>')], rule, mesh)
        full = _sharding('<@mesh, [{"a", ?}, {"b", ?}, {"c", ?}]>')
        new = ShardingProjection.build([full, full], [full], rule, mesh)
        assert info.record_update(add, list(add.operands), list(add.results), rule, mesh, old, new)
        # Nothing changed the second time: no step.
        assert not info.record_update(add, list(add.operands), list(add.results), rule, mesh, new, new)
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


def test_first_origin_wins_and_sub_axes_fall_back_to_their_axis():
    mesh = Mesh((MeshAxis("c", 8),))
    with make_context():
        module = ir.Module.parse(MODULE)
        arg0 = operation(module.body.operations[1]).regions[0].blocks[0].arguments[0]
        info = dbg.ShardingDebugInfo(sharding_origins=True)
        info.record_origins(arg0, _sharding('<@mesh, [{"c"}, {}, {}]>'), "constraint_0")
        info.record_origins(arg0, _sharding('<@mesh, [{"c"}, {}, {}]>'), "input: 0")
        assert info.origins[arg0] == {AxisRef("c"): "constraint_0"}
        assert info.origin_of(arg0, AxisRef("c", 2, 4), mesh) == "constraint_0"
        assert info.origin_of(arg0, AxisRef("b"), mesh) is None


def test_edge_attribute_text():
    edges = {
        AxisRef("c", 1, 2): [dbg.PropagationEdge(dbg.EdgeNode(dbg.RESULT, 0), dbg.EdgeNode(dbg.OPERAND, 0), 3)],
        AxisRef("a"): [dbg.PropagationEdge(dbg.EdgeNode(dbg.OPERAND, 1), dbg.EdgeNode(dbg.RESULT, 0), 0),
                       dbg.PropagationEdge(dbg.EdgeNode(dbg.OPERAND, 1), dbg.EdgeNode(dbg.OPERAND, 0), 0)],
    }
    text = dbg.propagation_edges_text(edges)
    assert text == ('#sdy.propagation_edges<[{step-0 = [{"a" = operand-1 -> [operand-0, result-0]}]}, '
                    '{step-3 = [{"c":(1)2 = result-0 -> [operand-0]}]}]>')
    with make_context():
        assert str(ir.Attribute.parse(text)) == text  # MLIR prints it back unchanged
    assert dbg.propagation_edges_text({}) is None
    assert dbg.axis_key(AxisRef("c", 1, 2)) == "c:(1)2"
