"""`sdy-dsl cost` / sdy_dsl.cost.cost: figures checked by hand on two small
modules, the CLI forms, and the figures against the C++ route and against
XLA's compiled program."""
from __future__ import annotations

import json

import models.zoo as zoo  # noqa: F401  (first: it asks XLA for 8 CPU devices)

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import PartitionSpec as P

import sdy_dsl.jax as sj
from lit_runner import run_sdy_dsl
from reference import run_reference
from sdy_dsl.api import run_pipeline
from sdy_dsl.cost import EXPLICIT_COLLECTIVES, cost, measure, xla_differences
from sdy_dsl.resources import shipped_pipeline_names
from train_steps import TRAIN_STEPS, export, mlp, relu_forward

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


# --------------------------------------------------------------------------- JAX programs with calls (issue 31)

JAX_PROGRAMS = {"relu": relu_forward, "nested_jit": TRAIN_STEPS["nested_jit"]}


def _lowered(model) -> str:
    fn, _, args = export(model())
    return fn.lower(*args).as_text()


@pytest.fixture(scope="module")
def relu_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("cost") / "mine.mlir"
    path.write_text(_lowered(relu_forward))
    return path


@pytest.fixture(scope="module", params=sorted(JAX_PROGRAMS))
def jax_program(request) -> str:
    return _lowered(JAX_PROGRAMS[request.param])


def _location_of(path, op: str, nth: int) -> str:
    """FILE:LINE:COL of the NTH op named OP in the file (MLIR locates an op at its name)."""
    lines = path.read_text().splitlines()
    line = [i for i, text in enumerate(lines) if op in text][nth]
    return f"{path}:{line + 1}:{lines[line].index(op) + 1}"


def test_cost_defaults_to_the_pipeline_xla_runs_and_names_the_input_file(relu_file):
    """relu(x @ w1) @ w2 through sdy-propagation-pipeline: the relu call's
    result keeps [{"data"}, {"model"}], so the only collective is the
    all-reduce of the second matmul's partial sums over "model", its 8x16 f32
    result split over "data": 4x16x4 = 256 bytes, located at that matmul in
    the input file. The seed chain (shardy_full) treats the call as opaque:
    it gathers the 8x32 f32 first matmul whole (1024 bytes) and all-reduces
    an unsharded result (8x16x4 = 512)."""
    rc, out, err = run_sdy_dsl(["cost", str(relu_file)])
    assert rc == 0, err
    second_dot = _location_of(relu_file, "stablehlo.dot_general", 1)
    assert f'all_reduce {{"model"}} tensor<8x16xf32> -> #sdy.sharding<@mesh, [{{"data"}}, {{}}]>: 256  {second_dot}' \
        in out
    assert out.rstrip().endswith("total: all_reduce 1 (256 bytes)")
    rc, out, err = run_sdy_dsl(["cost", str(relu_file), "--pipeline", "shardy_full"])
    assert rc == 0, err
    assert f"1024  {_location_of(relu_file, 'stablehlo.dot_general', 0)}" in out
    assert out.rstrip().endswith("total: all_gather 1 (1024 bytes), all_reduce 1 (512 bytes)")


def test_cost_takes_every_shipped_pipeline(relu_file):
    """Each shipped pipeline's output is costed (shardy_full_reshards ends with
    inlined meshes); the seed chains cost what the shardy_full line of
    test_cost_defaults_to_the_pipeline_xla_runs_and_names_the_input_file says."""
    totals = {name: cost(relu_file, name).totals() for name in shipped_pipeline_names()}
    assert totals["shardy_full_reshards"] == totals["shardy_full"] == \
        {"all_gather": {"count": 1, "bytes": 1024}, "all_reduce": {"count": 1, "bytes": 512}}
    assert totals["sdy_propagation_pipeline"] == {"all_reduce": {"count": 1, "bytes": 256}}


def test_cost_of_the_seed_chain_with_explicit_reshards_and_inlined_meshes(jax_program):
    """shardy_full_reshards (the seed chain, then explicit reshards and inlined
    meshes) costs what its seed chain does: its reshards are the ones cost
    would insert."""
    assert cost(jax_program, "shardy_full_reshards").totals() == cost(jax_program, "shardy_full").totals()


def test_cost_of_a_module_whose_collectives_are_already_explicit(jax_program):
    """The full version of explicit reshards leaves the all-reduces in the
    module: cost counts them once, as on the propagated module."""
    full = {"sdy-insert-explicit-reshards": {"enable-full-version": True}}
    explicit = run_pipeline(jax_program, "sdy-propagation-pipeline", options=full).text
    assert "sdy.all_reduce" in explicit
    assert cost(explicit, None).totals() == cost(jax_program).totals()


def test_cost_compares_two_tunings_of_one_module(relu_file):
    rc, out, err = run_sdy_dsl(["cost", str(relu_file), "--b-pipeline", "shardy_full"])
    assert rc == 0, err
    header, *rows = out.splitlines()
    assert header.split() == [str(relu_file), str(relu_file), "(--b-pipeline=shardy_full)", "change", "(bytes)"]
    total = [r.split() for r in rows[rows.index("total"):]]
    assert total[1:] == [["all_gather", "0", "(0", "bytes)", "1", "(1024", "bytes)", "+1024"],
                         ["all_reduce", "1", "(256", "bytes)", "1", "(512", "bytes)", "+256"]]
    # Options per side: the same module, both sides on the seed chain, B with the basic strategy.
    rc, out, err = run_sdy_dsl(["cost", str(relu_file), "--pipeline", "shardy_full",
                                "--b-options", "sdy-user-priority-propagate{propagation-strategy=basic}"])
    assert rc == 0, err
    assert "(--b-options=sdy-user-priority-propagate{propagation-strategy=basic})" in out.splitlines()[0]


def test_cost_help_and_usage_errors(relu_file):
    rc, out, err = run_sdy_dsl(["cost", "--help"])
    assert rc == 0 and err == ""
    assert "--b-rules" in out and "default\n                       sdy-propagation-pipeline" in out
    rc, _, err = run_sdy_dsl(["cost", str(relu_file), "--b-rule", "x"])
    assert rc == 1 and "unknown option '--b-rule'; did you mean '--b-rules'?" in err
    rc, _, err = run_sdy_dsl(["cost", str(relu_file), "--options", "sdy-user-priority-propagate"])
    assert rc == 1 and err.startswith("sdy-dsl: error: --options: expected 'PASS{option=value ...}'")
    rc, _, err = run_sdy_dsl(["cost", str(relu_file), "--options", "sdy-user-priority-propagate{strategy=basic}"])
    assert rc == 1 and err.startswith("sdy-dsl: error: cost: --options: options['sdy-user-priority-propagate']: "
                                      "pass 'sdy-user-priority-propagate' has no option 'strategy'")


def test_cost_beside_xla(relu_file):
    """--xla: on the pipeline XLA runs, XLA's program moves what sdy-dsl
    estimated; on the seed chain, Shardy gathers the whole 8x32 f32 matmul
    result before the opaque call (1024 bytes) where XLA's partitioner
    gathers a 8x8 f32 (256 bytes), and the line says which."""
    rc, out, err = run_sdy_dsl(["cost", str(relu_file), "--xla"])
    assert rc == 0, err
    assert out.rstrip().endswith("all-reduce  1 (256 bytes)  1 (256 bytes)\nXLA's program moves what sdy-dsl estimated.")
    rc, out, err = run_sdy_dsl(["cost", str(relu_file), "--pipeline", "shardy_full", "--xla"])
    assert rc == 0, err
    assert out.rstrip().endswith(
        "all-gather: sdy-dsl 1 (1024 bytes), XLA 1 (256 bytes): Shardy's explicit reshards and XLA's partitioner "
        "chose different collectives (Shardy's: 1x tensor<8x32xf32> -> <@mesh, [{}, {}]> (1024 bytes) at "
        f"{_location_of(relu_file, 'stablehlo.dot_general', 0)}; XLA's: 1x f32[8,8])")


def test_xla_differences_name_each_reason():
    """The MLP train step with x split over both axes (the README's): Shardy's
    3 reduce-scatters have 16x32 f32 results split [data, model] (8x8x4 = 256
    bytes) from [data, {}] operands (8x32x4 = 1024 bytes): XLA on CPU
    all-reduces those operands, 3072 bytes, which with Shardy's 8192 bytes of
    all-reduces is XLA's 11264; Shardy gathers 4 activations twice each."""
    fn, exported, args = export(mlp(P("data", "model")))
    report = cost(exported.mlir_module())
    compiled = sj.compiled_collectives(fn, *args)
    assert compiled == {"all-gather": {"count": 4, "bytes": 4096}, "all-reduce": {"count": 4, "bytes": 11264}}
    notes = xla_differences(report, compiled)
    assert [n.split(":")[0] for n in notes] == ["reduce-scatter", "all-gather", "all-reduce"]
    assert notes[0] == ("reduce-scatter: XLA runs each of sdy-dsl's 3 as an all-reduce of its operand (3072 bytes "
                        "in all), then a local slice: this backend has no reduce-scatter")
    assert notes[1].startswith("all-gather: sdy-dsl 8 (8192 bytes), XLA 4 (4096 bytes): Shardy reshards 4 values "
                               "8 times, once for each op that uses one")
    assert notes[2] == ("all-reduce: sdy-dsl 7 (11264 bytes), XLA 4 (11264 bytes): the same bytes in fewer ops, "
                        "XLA's all-reduce combiner merges independent all-reduces")
