"""`sdy-dsl cost` / sdy_dsl.cost.cost: figures checked by hand on two small
modules, the CLI forms, and the figures against the C++ route and against
XLA's compiled program."""
from __future__ import annotations

import json

import models.zoo as zoo  # noqa: F401  (first: it asks XLA for 8 CPU devices)

import jax
import jax.numpy as jnp

import sdy_dsl.jax as sj
from lit_runner import run_sdy_dsl
from reference import run_reference
from sdy_dsl.cost import EXPLICIT_COLLECTIVES, cost, measure
from test_full_chain import REFERENCE_CHAIN

# A reshard at the return: arg 0 is split by "x" on dim 0, the result wants
# "y" on dim 1.
ONE = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<6xbf16>)
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<6xbf16>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x8xf32>
  return %0, %arg1 : tensor<16x8xf32>, tensor<6xbf16>
}
"""

# A matmul contracting over "y"-split dimensions, then a pinned transpose pair.
TWO = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
"""


def _rows(report):
    return [(c.kind, c.axes, c.bytes) for f in report.functions for c in f.collectives]


def test_one_by_hand():
    report = cost(ONE, None)  # already propagated
    (main,) = report.functions
    # arg 0: 16x8 f32 = 512 bytes, dim 0 split in 2 by "x": 8x8x4 = 256.
    # arg 1 and result 1: 6 bf16, unsharded: 6x2 = 12.
    # result 0: dim 1 split in 4 by "y": 16x2x4 = 128.
    assert [v.bytes for v in main.arguments] == [256, 12]
    assert [v.bytes for v in main.results] == [128, 12]
    # The return reshards [{"x"}, {}] -> [{}, {"y"}]: first "y" is sliced into
    # dim 1 (local: 0 bytes), then "x" gathered on dim 0; the gather's result
    # is 16 x 8/4 f32 per device: 16x2x4 = 128.
    assert _rows(report) == [("all_slice", '[{}, {"y"}]', 0), ("all_gather", '[{"x"}, {}]', 128)]
    assert report.totals() == {"all_gather": {"count": 1, "bytes": 128}, "all_slice": {"count": 1, "bytes": 0}}


def test_two_by_hand():
    report = cost(TWO, "shardy_full")
    (main,) = report.functions
    # args: 8x32/4 ("y" on dim 1) x 4 = 256; 32/4 x 16/2 x 4 = 256; result 8 x 16/2 x 4 = 256.
    assert [v.bytes for v in main.arguments] == [256, 256]
    assert [v.bytes for v in main.results] == [256]
    # The dot contracts a dimension split by "y" on both sides: each device holds
    # a partial sum, all-reduced over "y"; its result is 8x16 split by "x" on dim
    # 1: 8x8x4 = 256. The pinned transpose wants "x" on dim 0 where propagation
    # left it on dim 1: an all-to-all moves it (same 256 bytes), and another one
    # moves it back for the result's sharding.
    assert _rows(report) == [("all_reduce", '{"y"}', 256), ("all_to_all", '[{"x"}: 1->0]', 256),
                             ("all_to_all", '[{"x"}: 0->1]', 256)]
    assert report.totals() == {"all_reduce": {"count": 1, "bytes": 256}, "all_to_all": {"count": 2, "bytes": 512}}


def test_cli_text_json_and_side_by_side(tmp_path):
    one, two = tmp_path / "one.mlir", tmp_path / "two.mlir"
    one.write_text(ONE)
    two.write_text(TWO)
    rc, out, err = run_sdy_dsl(["cost", str(one), "--pipeline", "none"])
    assert rc == 0, err
    assert 'all_gather [{"x"}, {}] tensor<16x8xf32> -> #sdy.sharding<@mesh, [{}, {"y"}]>: 128' in out
    assert out.rstrip().endswith("total: all_gather 1 (128 bytes), all_slice 1 (0 bytes)")
    rc, out, err = run_sdy_dsl(["cost", str(two), "--json"])
    assert rc == 0, err
    assert json.loads(out)["totals"] == {"all_reduce": {"count": 1, "bytes": 256},
                                         "all_to_all": {"count": 2, "bytes": 512}}
    rc, out, err = run_sdy_dsl(["cost", str(one), str(two), "--pipeline=shardy_full"])
    assert rc == 0, err
    total = out[out.index("\ntotal"):]
    assert "all_to_all  0 (0 bytes)" in total and "2 (512 bytes)" in total and "+512" in total
    rc, out, err = run_sdy_dsl(["cost", str(one), "--bogus"])
    assert rc == 1 and "unknown option '--bogus'" in err


def _mlp_tanh_step():
    in_sh, params, x = zoo._mlp_setup((2, 4))

    def loss(p, x):
        for w1, w2 in p:
            x = x + jnp.tanh(x @ w1) @ w2
        return (x ** 2).sum()

    def step(p, x):
        return jax.tree.map(lambda a, g: a - 0.01 * g, p, jax.grad(loss)(p, x))

    abstract = jax.tree.map(lambda a, s: jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s), (params, x), in_sh)
    return jax.jit(step, in_shardings=in_sh), abstract


def test_cost_matches_the_cpp_route_on_a_zoo_model():
    text = zoo.lowered("gpt_tp_2x4")
    ok, propagated = run_reference(text, "builtin.module(sdy-propagation-pipeline)")
    assert ok
    ok, explicit = run_reference(propagated, EXPLICIT_COLLECTIVES)
    assert ok
    ours = cost(text)
    assert [(f.name, _rows_of(f)) for f in ours.functions] == \
        [(f.name, _rows_of(f)) for f in measure(explicit).functions]
    assert ours.totals()["all_reduce"]["count"] > 0


def _rows_of(f):
    return [(c.kind, c.axes, c.tensor, c.sharding, c.bytes) for c in f.collectives]


def test_cost_against_compiled_collectives():
    """An MLP train step (Megatron weights, batch over "data"): the explicit
    collectives are all-reduces only, as in XLA's program, with the same bytes
    per device. XLA's all-reduce combiner merges independent all-reduces into
    one op, so it has fewer of them. (On CPU a reduce-scatter compiles to an
    all-reduce of its operand plus a local slice: there, compare a
    reduce_scatter's operand size with the all-reduce's bytes.)"""
    fn, args = _mlp_tanh_step()
    report = cost(fn.lower(*args).as_text()).totals()
    compiled = sj.compiled_collectives(fn, *args)
    assert set(report) == {"all_reduce"} and set(compiled) == {"all-reduce"}
    assert report["all_reduce"]["bytes"] == compiled["all-reduce"]["bytes"]
    assert report["all_reduce"]["count"] >= compiled["all-reduce"]["count"]
