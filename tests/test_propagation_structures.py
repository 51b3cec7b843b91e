"""Ops alike share their rule, heuristic directions and step keys in propagation
(sdy_dsl/runtime/values.py structure_key): an op with small regions is alike
another only when their bodies are too. Checked on the key itself and against
the reference with the built-in rule registry (whose scatter rule reads the
update computation)."""
from __future__ import annotations

from jaxlib.mlir import ir, passmanager

from propagation_support import pass_schedule
from sdy_dsl.mlir_context import make_context
from sdy_dsl.rule_library import builtin_library
from sdy_dsl.runtime.propagation import propagate
from sdy_dsl.runtime.sharding import codec
from sdy_dsl.runtime.values import SMALL_BODY_OPS, structure_key

SCATTER = """
  %{name} = "stablehlo.scatter"(%{operand}, %i, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
{body}
    }}) : (tensor<8x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<8x16xf32>"""

BODIES = {
    "set": "      stablehlo.return %y : tensor<f32>",
    "keep": "      stablehlo.return %x : tensor<f32>",
    "add": "      %r = stablehlo.add %x, %y : tensor<f32>\n      stablehlo.return %r : tensor<f32>",
    "add_swapped": "      %r = stablehlo.add %y, %x : tensor<f32>\n      stablehlo.return %r : tensor<f32>",
}


def scatter_module(kinds: list[str]) -> str:
    ops, operand = [], "a"
    for n, kind in enumerate(kinds):
        ops.append(SCATTER.format(name=f"s{n}", operand=operand, body=BODIES[kind]))
        operand = f"s{n}"
    return ("sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"
            "func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>},\n"
            "                %i: tensor<10x1xi32>,\n"
            "                %u: tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {\"y\"}]>})\n"
            "    -> tensor<8x16xf32> {" + "".join(ops) + f"\n  return %{operand} : tensor<8x16xf32>\n}}\n")


def scatter_keys(text: str) -> list:
    module = ir.Module.parse(text)
    func = module.body.operations[1]
    return [structure_key(op) for op in func.regions[0].blocks[0].operations
            if op.operation.name == "stablehlo.scatter"]


def test_scatters_with_other_update_computations_are_not_alike():
    with make_context():
        set_, keep, add, swapped, add_again = scatter_keys(
            scatter_module(["set", "keep", "add", "add_swapped", "add"]))
    assert add == add_again
    assert len({set_, keep, add, swapped}) == 4  # (the operands' order is wiring too)


def test_an_op_with_a_large_body_has_no_key():
    body = "\n".join(f"      %r{n} = stablehlo.add %x, %y : tensor<f32>" for n in range(SMALL_BODY_OPS))
    BODIES["large"] = body + "\n      stablehlo.return %r0 : tensor<f32>"
    try:
        with make_context():
            assert scatter_keys(scatter_module(["large"])) == [None]
    finally:
        del BODIES["large"]


def run_ours_with_registry(text: str, strategy: str) -> str:
    """Propagate with the built-in rule registry (rules shared by structure),
    keeping the rules (so each op's rule is in the output)."""
    codec.clear()
    schedule, values = pass_schedule(strategy, keep_sharding_rules=True)
    with make_context():
        module = ir.Module.parse(text)
        propagate(module.operation, schedule, values, registry=builtin_library().op_registry)
        out = str(module)
    codec.clear()
    return out


def run_reference_pass(text: str, strategy: str) -> str:
    with make_context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(
            f"builtin.module(sdy-{strategy}-propagate{{keep-sharding-rules=true}})").run(
            module.operation)
        return str(module)


def test_scatters_alike_but_for_their_body_propagate_like_the_reference():
    text = scatter_module(["add", "set", "add", "keep", "set"])
    for strategy in ("basic", "user-priority"):
        assert run_ours_with_registry(text, strategy) == run_reference_pass(text, strategy)
