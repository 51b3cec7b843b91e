"""Unit tests of the op-priority heuristics (Shardy's op_priority_propagation.cc
heuristics; here rules/propagation/op_priority_heuristics.yaml read into
`Heuristic`s): the direction each built-in heuristic gives an op's factor,
table-driven over ops of a small module. Named after what they pin: the
heuristics' `__call__` (Shardy's `GetDirectionToPropagateFn`s) and their
running union per priority (`HeuristicDirections.unions`, the op-priority
level's union of heuristics 0..p)."""
from __future__ import annotations

import pytest

from jaxlib.mlir import ir

from sdy_dsl.mlir_context import make_context
from sdy_dsl.rule_library import builtin_library
from sdy_dsl.runtime.propagation.factor_propagation import Direction, union_directions
from sdy_dsl.runtime.propagation.heuristics import HeuristicOp

MODULE = """
func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %w: tensor<16x4xf32>, %v: tensor<16xf32>,
                %i: tensor<i32>) -> tensor<8x16xf32> {
  %add = stablehlo.add %x, %y : tensor<8x16xf32>
  %neg = stablehlo.negate %y : tensor<8x16xf32>
  %rsh = stablehlo.reshape %neg : (tensor<8x16xf32>) -> tensor<128xf32>
  %bcast = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %dot = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %ds = stablehlo.dynamic_slice %add, %i, %i, sizes = [4, 4] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
  return %bcast : tensor<8x16xf32>
}
"""

N, F, B, X = Direction.NONE, Direction.FORWARD, Direction.BACKWARD, Direction.BOTH
HEURISTICS = ["pass-through-ops-single-use", "pass-through-ops",
              "only-pass-through-factors-broadcast-backward", "any-except-broadcast-forward", "any"]

# (op, factor) -> the direction of each built-in heuristic, in order
CASES = {
    # %x and %y have other uses (the dot, the negate): not single-use; elementwise otherwise
    ("add", 0): [N, X, X, X, X],
    ("negate", 0): [N, X, X, X, X],
    ("reshape", 0): [X, X, X, X, X],
    ("broadcast_in_dim", 0): [N, N, B, B, X],
    ("dot_general", 0): [N, N, X, X, X],  # a pass-through factor (the lhs rows)
    ("dot_general", 2): [N, N, N, X, X],  # the contracting factor: a reduction
    # its operand %add has no other use (the scalar indices do not count); a
    # sliced dimension (8 -> 4) is a permutation factor, not a pass-through one
    ("dynamic_slice", 0): [F, F, N, X, X],
}


@pytest.fixture(scope="module")
def ops():
    with make_context():
        module = ir.Module.parse(MODULE)
        body = module.body.operations[0].regions[0].blocks[0]
        found = {op.operation.name.split(".")[1]: op.operation for op in body.operations}
        yield found


def view(op) -> HeuristicOp:
    return HeuristicOp(op.name, op, builtin_library().op_registry.rule_for(op))


def test_the_builtin_heuristics_in_order():
    assert [h.name for h in builtin_library().heuristics] == HEURISTICS


@pytest.mark.parametrize("op_name,factor", sorted(CASES))
def test_heuristic_call(ops, op_name, factor):
    got = [h(view(ops[op_name]), factor) for h in builtin_library().heuristics]
    assert got == CASES[(op_name, factor)]


@pytest.mark.parametrize("op_name,factor", sorted(CASES))
def test_heuristic_unions_per_priority(ops, op_name, factor):
    # At priority p an op propagates along the union of heuristics 0..p; the
    # last ("any") lets every factor go both ways.
    directions = [h(view(ops[op_name]), factor) for h in builtin_library().heuristics]
    running, acc = [], N
    for d in directions:
        acc = union_directions(acc, d)
        running.append(acc)
    assert running[-1] == X
    assert all(union_directions(a, b) == b for a, b in zip(running, running[1:]))  # only widens
