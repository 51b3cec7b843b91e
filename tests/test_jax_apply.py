"""sdy_dsl.jax.apply on small train steps (grads and an SGD update), on 8
CPU devices: the tuned Exported runs under jax.jit with the same numbers as
the untouched function, and XLA's compiled collectives are those of the
reference route (the C++ passes on the same pipeline, the same pinning, the
same re-serialization)."""
from __future__ import annotations

import models.zoo as zoo  # noqa: F401  (first: it asks XLA for 8 CPU devices)

import jax
import jax.export
import pytest
from jax.sharding import PartitionSpec as P

import sdy_dsl.jax as sj
from sdy_dsl.errors import SdyDslError
from test_full_chain import REFERENCE_CHAIN
from train_steps import TRAIN_STEPS, assert_allclose, export, mlp, reference_route, relu_forward, scan

BASIC = {"sdy-user-priority-propagate": {"propagation-strategy": "basic"}}
# The C++ passes of sdy-dsl's shipped pipelines, for the reference route.
PROPAGATION_PIPELINE = "builtin.module(sdy-propagation-pipeline)"


def _shardy_full(strategy: str) -> str:
    return REFERENCE_CHAIN.replace("sdy-user-priority-propagate",
                                   f"sdy-user-priority-propagate{{propagation-strategy={strategy}}}")


# x sharded over both axes conflicts with the weights' "model" axis: the
# basic strategy resolves it differently from XLA's own propagation. On
# nested_jit (calls) the basic strategy alone changes the program.
CASES = {"mlp_conflicting_input": lambda: mlp(P("data", "model")),
         "scan_conflicting_input": lambda: scan(P("data", "model")),
         "nested_jit": TRAIN_STEPS["nested_jit"]}
DIFFERS_FROM_JIT = ("mlp_conflicting_input", "nested_jit")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tuned_exported_runs_and_communicates_like_the_reference_route(name):
    fn, exported, args = export(CASES[name]())
    tuned = sj.apply(exported, "shardy_full", options=BASIC)
    assert_allclose(jax.jit(tuned.call)(*args), fn(*args))
    ours = sj.compiled_collectives(tuned, *args)
    assert ours == sj.compiled_collectives(reference_route(exported, _shardy_full("basic")), *args)
    if name in DIFFERS_FROM_JIT:
        # The tuning reaches XLA: its program differs from jax.jit's own.
        assert ours != sj.compiled_collectives(fn, *args)


@pytest.mark.parametrize("x_spec", [P("data", None), P("data", "model")], ids=str)
def test_untuned_apply_keeps_jits_collectives(x_spec):
    """With the shipped pipeline and no tuning, XLA's program is jax.jit's."""
    fn, exported, args = export(mlp(x_spec))
    tuned = sj.apply(exported, "shardy_full")
    ours = sj.compiled_collectives(tuned, *args)
    assert ours == sj.compiled_collectives(fn, *args)
    assert ours["all-reduce"]["count"] > 0


# Where the untouched jax.jit program and apply's differ (both measured), while
# apply's is the reference route's. nested_jit: the shipped pipeline (as the
# C++ sdy-propagation-pipeline) propagates through the calls: project's
# out_shardings constraint ([{"data"}, {"model"}]) gives w3 the sharding
# [{}, {"model"}] inside the callees (a local slice at the call), so the
# backward dot cotangent @ w3.T contracts over "model"-sharded operands: a
# partial 8x32 f32 result all-reduced, 1024 bytes per device. XLA's own Shardy
# pass (jax.jit) sees the module after its HLO call inliner (its input dump has
# @main only): w3 stays the replicated argument there and the partitioner
# all-gathers the 8x8 cotangent shard to 8x32 instead, the same 1024 bytes.
UNTUNED_DIFFERS = {"nested_jit": ({"all-reduce": {"count": 4, "bytes": 12288}, "all-gather": {"count": 1, "bytes": 1024}},
                                  {"all-reduce": {"count": 5, "bytes": 13312}})}


@pytest.mark.parametrize("name", sorted(TRAIN_STEPS))
def test_untuned_propagation_pipeline_keeps_jits_collectives(name):
    """apply with the shipped sdy-propagation-pipeline and no tuning: XLA's
    program is the reference route's and, except where UNTUNED_DIFFERS says
    why, jax.jit's own."""
    fn, exported, args = export(TRAIN_STEPS[name]())
    ours = sj.compiled_collectives(sj.apply(exported, "sdy-propagation-pipeline"), *args)
    assert ours == sj.compiled_collectives(reference_route(exported, PROPAGATION_PIPELINE), *args)
    jit = sj.compiled_collectives(fn, *args)
    assert ours["all-reduce"]["count"] > 0
    if name in UNTUNED_DIFFERS:
        assert (jit, ours) == UNTUNED_DIFFERS[name]
    else:
        assert ours == jit


def test_untuned_apply_on_a_scan_is_the_reference_routes_program():
    """Not jax.jit's on a scan: jit's program has 3 all-reduces; with every op
    sharding of the loop body pinned as Shardy's chain decided it (the C++
    route pinned the same way gives the same program), XLA all-gathers each
    layer's weight slices and some activations inside the loop instead."""
    fn, exported, args = export(scan(P("data", None)))
    ours = sj.compiled_collectives(sj.apply(exported, "shardy_full"), *args)
    assert ours == sj.compiled_collectives(reference_route(exported, _shardy_full("aggressive")), *args)
    assert ours != sj.compiled_collectives(fn, *args) == {"all-reduce": {"count": 3, "bytes": 6144}}


def test_apply_defaults_to_the_pipeline_xla_runs():
    """relu(x @ w1) @ w2: with no pipeline named, apply runs
    sdy-propagation-pipeline and XLA's program is jax.jit's (one all-reduce of
    the 8x16 f32 result, batch-split over "data": 4x16x4 = 256 bytes). The
    seed chain treats the relu call as opaque, leaves it replicated and
    compiles to an extra all-gather."""
    fn, exported, args = export(relu_forward())
    jit = sj.compiled_collectives(fn, *args)
    assert jit == {"all-reduce": {"count": 1, "bytes": 256}}
    tuned = sj.apply(exported)
    assert_allclose(jax.jit(tuned.call)(*args), fn(*args))
    assert sj.compiled_collectives(tuned, *args) == jit
    assert sj.compiled_collectives(sj.apply(exported, "shardy_full"), *args) != jit


FULL_VERSION = {"sdy-insert-explicit-reshards": {"enable-full-version": True}}
# What XLA compiles from apply(exported) without the full version: relu's
# (test_apply_defaults_to_the_pipeline_xla_runs), nested_jit's (UNTUNED_DIFFERS).
WITHOUT_FULL_VERSION = {"relu": {"all-reduce": {"count": 1, "bytes": 256}},
                        "nested_jit": UNTUNED_DIFFERS["nested_jit"][1]}


@pytest.mark.parametrize("name", sorted(WITHOUT_FULL_VERSION))
def test_explicit_collectives_reach_xla_as_the_reshards_they_stand_for(name):
    """The full version of explicit reshards leaves sdy.all_reduce ops, which
    XLA's compile path has no form for ('unknown mesh: @mesh'): apply hands
    each to XLA as a constraint to its result sharding. The program runs with
    jax.jit's numbers and communicates as the same pipeline without the full
    version (the reshards are in the same places)."""
    fn, exported, args = export({"relu": relu_forward, "nested_jit": TRAIN_STEPS["nested_jit"]}[name]())
    explicit = sj.run_pipeline(exported.mlir_module(), "sdy-propagation-pipeline", options=FULL_VERSION).text
    assert "sdy.all_reduce" in explicit
    tuned = sj.apply(exported, options=FULL_VERSION, verify=name == "relu")
    assert "sdy.all_reduce" not in tuned.mlir_module()
    assert_allclose(jax.jit(tuned.call)(*args), fn(*args))
    assert sj.compiled_collectives(tuned, *args) == WITHOUT_FULL_VERSION[name]


def test_pinning_constrains_every_op_result_including_nested_regions():
    _, exported, _ = export(scan(P("data", None)))
    pinned = sj.pin_for_xla(sj.run_pipeline(exported.mlir_module(), "shardy_full").text)
    body = pinned[pinned.index("stablehlo.while"):]
    assert "sdy.sharding_constraint" in body[body.index("do {"):]
    assert "?" not in "".join(line for line in pinned.splitlines() if "sdy.sharding" in line)
    assert "sdy.reshard" not in pinned


def test_changed_input_sharding_is_carried():
    """A pipeline that changes @main's argument shardings: the Exported says so."""
    _, exported, args = export(mlp(P("data", None)))
    text = exported.mlir_module().replace('[{"data"}, {}]>}', '[{}, {"model"}]>}', 1)
    tuned = sj.replace_module(exported, text)
    assert tuned._in_named_shardings[-1].spec == P(None, "model")
    assert exported._in_named_shardings[-1].spec == P("data", None)
    jax.jit(tuned.call)(*args)  # runs: JAX reshards x to the new input sharding


def test_verify_reports_nothing_for_pinned_module():
    _, exported, _ = export(mlp(P("data", "model")))
    tuned = sj.apply(exported, "shardy_full", options=BASIC, verify=True)
    assert sj.unkept_constraints(tuned) == []


def test_pipeline_errors_are_sdy_dsl_errors():
    _, exported, _ = export(mlp(P("data", None)))
    with pytest.raises(SdyDslError, match="no option 'nope'"):
        sj.apply(exported, "shardy_full", options={"sdy-close-shardings": {"nope": True}})
