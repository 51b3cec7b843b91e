"""sdy-constant-or-scalar-splitter leaves the uses of every value in the
reference's order: later passes walk use lists (sharding groups follow a
value's uses, propagation visits users), so another order could change their
answers without changing this pass's printed output. A constant is converted
before its users get copies, as the reference does: converting it after the
copies would reverse its use list."""
from __future__ import annotations

from jaxlib.mlir import ir, passmanager

from sdy_dsl import api
from sdy_dsl.interp.driver import Observer
from sdy_dsl.mlir_context import make_context
from sdy_dsl.passes import PassRegistry
from sdy_dsl.pipeline import PipelineRunner

PASS = "sdy-constant-or-scalar-splitter"

# A scalar constant shared by three copies of its broadcast, and a constant
# used twice by one chain.
MODULE = """
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %c8 = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %b : tensor<8xf32>
  %1 = stablehlo.multiply %b, %arg0 : tensor<8xf32>
  %2 = stablehlo.subtract %b, %c8 : tensor<8xf32>
  %3 = stablehlo.add %2, %c8 : tensor<8xf32>
  return %0, %1, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
"""


def _use_lists(module: ir.Module) -> list[tuple[int, list[int]]]:
    """(op position, its users' positions in use-list order) for every result."""
    ops = []
    module.operation.walk(lambda op: (ops.append(op), ir.WalkResult.ADVANCE)[1], ir.WalkOrder.PRE_ORDER)
    position = {op: i for i, op in enumerate(ops)}
    return [(i, [position[use.owner.operation] for use in result.uses])
            for i, op in enumerate(ops) for result in op.results]


def _ours(text: str) -> list:
    registry = PassRegistry([])
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        PipelineRunner(registry, api.pipeline_of(PASS, registry), Observer()).run(module, verified=True)
        return _use_lists(module)


def _reference(text: str) -> list:
    with make_context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(f"builtin.module({PASS})").run(module.operation)
        return _use_lists(module)


def test_uses_of_a_shared_scalar_constant_stay_in_the_reference_order():
    ours = _ours(MODULE)
    assert ours == _reference(MODULE)
    # (the scalar constant, op 2, has its three broadcast copies as users, last first)
    assert (2, [5, 4, 3]) in ours
