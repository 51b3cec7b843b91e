"""sdy_dsl.jax.apply on small train steps (grads and an SGD update), on 8
CPU devices: the tuned Exported runs under jax.jit with the same numbers as
the untouched function, and XLA's compiled collectives are those of the
reference route (the C++ passes on the same pipeline, the same pinning, the
same re-serialization)."""
from __future__ import annotations

import models.zoo as zoo  # noqa: F401  (first: it asks XLA for 8 CPU devices)

import jax
import jax.export
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

import sdy_dsl.jax as sj
from reference import run_reference
from sdy_dsl.errors import SdyDslError
from test_full_chain import REFERENCE_CHAIN

BASIC = {"sdy-user-priority-propagate": {"propagation-strategy": "basic"}}


def _update(loss):
    def step(params, x):
        grads = jax.grad(loss)(params, x)
        return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)
    return step


def _mlp_loss(params, x):
    for w1, w2 in params:
        x = x + jax.nn.relu(x @ w1) @ w2
    return jnp.sum(x ** 2)


def _scan_loss(params, x):
    def layer(h, w):
        return h + jnp.tanh(h @ w["a"]) @ w["b"], None
    h, _ = lax.scan(layer, x, params)
    return jnp.sum(h ** 2)


def _mlp(x_spec):
    mesh = zoo.make_mesh((2, 4))
    rng = np.random.default_rng(0)
    params = [(0.1 * rng.normal(size=(32, 64)).astype(np.float32), 0.1 * rng.normal(size=(64, 32)).astype(np.float32))
              for _ in range(2)]
    x = rng.normal(size=(16, 32)).astype(np.float32)
    specs = ([(P(None, "model"), P("model", None))] * 2, x_spec)
    return _update(_mlp_loss), mesh, specs, (params, x)


def _scan(x_spec):
    mesh = zoo.make_mesh((2, 4))
    rng = np.random.default_rng(1)
    params = {"a": rng.normal(size=(3, 32, 64)).astype(np.float32) * 0.1,
              "b": rng.normal(size=(3, 64, 32)).astype(np.float32) * 0.1}
    x = rng.normal(size=(16, 32)).astype(np.float32)
    specs = ({"a": P(None, None, "model"), "b": P(None, "model", None)}, x_spec)
    return _update(_scan_loss), mesh, specs, (params, x)


def _export(model):
    step, mesh, specs, args = model
    shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), specs, is_leaf=lambda s: isinstance(s, P))
    args = jax.device_put(args, shardings)
    fn = jax.jit(step, in_shardings=shardings)
    return fn, jax.export.export(fn)(*args), args


def _reference_route(exported, strategy: str):
    chain = REFERENCE_CHAIN.replace("sdy-user-priority-propagate",
                                    f"sdy-user-priority-propagate{{propagation-strategy={strategy}}}")
    ok, text = run_reference(exported.mlir_module(), chain)
    assert ok
    return sj.replace_module(exported, sj.pin_for_xla(text))


def _allclose(a, b):
    for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-4, atol=1e-5)


# x sharded over both axes conflicts with the weights' "model" axis: the
# basic strategy resolves it differently from XLA's own propagation.
CASES = {"mlp_conflicting_input": (_mlp, P("data", "model")), "scan_conflicting_input": (_scan, P("data", "model"))}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tuned_exported_runs_and_communicates_like_the_reference_route(name):
    make, x_spec = CASES[name]
    fn, exported, args = _export(make(x_spec))
    tuned = sj.apply(exported, "shardy_full", options=BASIC)
    _allclose(jax.jit(tuned.call)(*args), fn(*args))
    ours = sj.compiled_collectives(tuned, *args)
    assert ours == sj.compiled_collectives(_reference_route(exported, "basic"), *args)
    if name == "mlp_conflicting_input":
        # The tuning reaches XLA: its program differs from jax.jit's own.
        assert ours != sj.compiled_collectives(fn, *args)


@pytest.mark.parametrize("x_spec", [P("data", None), P("data", "model")], ids=str)
def test_untuned_apply_keeps_jits_collectives(x_spec):
    """With the shipped pipeline and no tuning, XLA's program is jax.jit's."""
    fn, exported, args = _export(_mlp(x_spec))
    tuned = sj.apply(exported, "shardy_full")
    ours = sj.compiled_collectives(tuned, *args)
    assert ours == sj.compiled_collectives(fn, *args)
    assert ours["all-reduce"]["count"] > 0


def test_untuned_apply_on_a_scan_is_the_reference_routes_program():
    """Not jax.jit's on a scan: jit's program has 3 all-reduces; with every op
    sharding of the loop body pinned as Shardy's chain decided it (the C++
    route pinned the same way gives the same program), XLA all-gathers each
    layer's weight slices and some activations inside the loop instead."""
    fn, exported, args = _export(_scan(P("data", None)))
    ours = sj.compiled_collectives(sj.apply(exported, "shardy_full"), *args)
    assert ours == sj.compiled_collectives(_reference_route(exported, "aggressive"), *args)
    assert ours != sj.compiled_collectives(fn, *args) == {"all-reduce": {"count": 3, "bytes": 6144}}


def test_pinning_constrains_every_op_result_including_nested_regions():
    _, exported, _ = _export(_scan(P("data", None)))
    pinned = sj.pin_for_xla(sj.run_pipeline(exported.mlir_module(), "shardy_full").text)
    body = pinned[pinned.index("stablehlo.while"):]
    assert "sdy.sharding_constraint" in body[body.index("do {"):]
    assert "?" not in "".join(line for line in pinned.splitlines() if "sdy.sharding" in line)
    assert "sdy.reshard" not in pinned


def test_changed_input_sharding_is_carried():
    """A pipeline that changes @main's argument shardings: the Exported says so."""
    _, exported, args = _export(_mlp(P("data", None)))
    text = exported.mlir_module().replace('[{"data"}, {}]>}', '[{}, {"model"}]>}', 1)
    tuned = sj.replace_module(exported, text)
    assert tuned._in_named_shardings[-1].spec == P(None, "model")
    assert exported._in_named_shardings[-1].spec == P("data", None)
    jax.jit(tuned.call)(*args)  # runs: JAX reshards x to the new input sharding


def test_verify_reports_nothing_for_pinned_module():
    _, exported, _ = _export(_mlp(P("data", "model")))
    tuned = sj.apply(exported, "shardy_full", options=BASIC, verify=True)
    assert sj.unkept_constraints(tuned) == []


def test_pipeline_errors_are_sdy_dsl_errors():
    _, exported, _ = _export(_mlp(P("data", None)))
    with pytest.raises(SdyDslError, match="no option 'nope'"):
        sj.apply(exported, "shardy_full", options={"sdy-close-shardings": {"nope": True}})
