"""Callable JAX train steps (grads and an SGD update) on 8 CPU devices, for
the tests that compile and run what sdy_dsl.jax.apply returns. The zoo
(models/zoo.py) keeps lowered text only; these are its models as functions,
with small concrete arguments.

    step, mesh, specs, args = TRAIN_STEPS["mlp"]()
    fn, exported, args = export(TRAIN_STEPS["mlp"]())
"""
from __future__ import annotations

import models.zoo as zoo  # noqa: F401  (first: it asks XLA for 8 CPU devices)

import jax
import jax.export
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

import sdy_dsl.jax as sj
from reference import run_reference


def _update(loss):
    def step(params, *inputs):
        grads = jax.grad(loss)(params, *inputs)
        return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)
    return step


def _mlp_loss(params, x):
    return jnp.sum(zoo._mlp_forward(params, x) ** 2)


def _scan_loss(params, x):
    def layer(h, w):
        return h + jnp.tanh(h @ w["a"]) @ w["b"], None
    h, _ = lax.scan(layer, x, params)
    return jnp.sum(h ** 2)


def _normal(rng, *shape):
    return (0.1 * rng.normal(size=shape)).astype(np.float32)


def mlp(x_spec=P("data", None)):
    """zoo's mlp_grad_2x4 as a train step: two Megatron-style layers."""
    rng = np.random.default_rng(0)
    params = [(_normal(rng, 32, 64), _normal(rng, 64, 32)) for _ in range(2)]
    specs = ([(P(None, "model"), P("model", None))] * 2, x_spec)
    return _update(_mlp_loss), zoo.make_mesh((2, 4)), specs, (params, 10 * _normal(rng, 16, 32))


def scan(x_spec=P("data", None)):
    """Three tanh layers under lax.scan (stacked weights, "model" on the hidden dim)."""
    rng = np.random.default_rng(1)
    params = {"a": _normal(rng, 3, 32, 64), "b": _normal(rng, 3, 64, 32)}
    specs = ({"a": P(None, None, "model"), "b": P(None, "model", None)}, x_spec)
    return _update(_scan_loss), zoo.make_mesh((2, 4)), specs, (params, 10 * _normal(rng, 16, 32))


def gpt():
    """zoo's gpt_tp_2x4: two GPT blocks (attention, a constrained hidden
    layer, tied embeddings), tensor parallel over "model"."""
    mesh = zoo.make_mesh((2, 4))
    rng = np.random.default_rng(2)
    shapes = {"wq": (32, 32), "wk": (32, 32), "wv": (32, 32), "wo": (32, 32), "w1": (32, 64), "w2": (64, 32),
              "g1": (32,), "g2": (32,)}
    weight_specs = {"wq": P(None, "model"), "wk": P(None, "model"), "wv": P(None, "model"),
                    "wo": P("model", None), "w1": P(None, "model"), "w2": P("model", None), "g1": P(), "g2": P()}
    params = ([{k: (1 + _normal(rng, *s)) if k[0] == "g" else _normal(rng, *s) for k, s in shapes.items()}
               for _ in range(2)], _normal(rng, 64, 32))
    tokens = rng.integers(0, 64, size=(8, 8)).astype(np.int32)
    hidden = NamedSharding(mesh, P("data", None, "model"))

    def loss(params, tokens):
        blocks, emb = params
        x = emb[tokens]
        for p in blocks:
            x = zoo._gpt_block(x, p, 4, hidden, False)
        return -jax.nn.log_softmax(x @ emb.T).mean()
    return _update(loss), mesh, (([weight_specs] * 2, P(None, "model")), P("data", None)), (params, tokens)


def nested_jit():
    """zoo's nested_jit as a train step: one jitted callee at two call sites
    and an inner jit with its own out_shardings (calls in the module)."""
    mesh = zoo.make_mesh((2, 4))
    rng = np.random.default_rng(3)
    ffn = jax.jit(lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2)
    project = jax.jit(lambda x, w: x @ w, out_shardings=NamedSharding(mesh, P("data", "model")))

    def loss(params, x):
        w1, w2, w3 = params
        h = x + ffn(x, w1, w2)
        h = h + ffn(h, w1, w2)
        return jnp.sum(project(h, w3) ** 2)
    params = (_normal(rng, 32, 64), _normal(rng, 64, 32), _normal(rng, 32, 32))
    specs = ((P(None, "model"), P("model", None), P(None, None)), P("data", None))
    return _update(loss), mesh, specs, (params, 10 * _normal(rng, 16, 32))


TRAIN_STEPS = {"mlp": mlp, "scan": scan, "gpt": gpt, "nested_jit": nested_jit}


def relu_forward():
    """The first program a user tries (issue 31): `relu(x @ w1) @ w2`, batch on
    "data", Megatron weights on "model"; `jax.nn.relu` is a `func.call`."""
    rng = np.random.default_rng(4)
    specs = (P("data", None), P(None, "model"), P("model", None))
    return (lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2), zoo.make_mesh((2, 4)), specs, \
        (_normal(rng, 8, 16), _normal(rng, 16, 32), _normal(rng, 32, 16))


def export(model):
    """(the jitted step, its Exported, the arguments placed on their shardings)."""
    step, mesh, specs, args = model
    shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), specs, is_leaf=lambda s: isinstance(s, P))
    args = jax.device_put(args, shardings)
    fn = jax.jit(step, in_shardings=shardings)
    return fn, jax.export.export(fn)(*args), args


def reference_route(exported, pipeline: str):
    """EXPORTED through the C++ passes of PIPELINE (a pass-pipeline string),
    then pinned and re-serialized as sdy_dsl.jax.apply does."""
    ok, text = run_reference(exported.mlir_module(), pipeline)
    assert ok, "the reference rejected the exported module"
    return sj.replace_module(exported, sj.pin_for_xla(text))


def assert_allclose(a, b):
    for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-4, atol=1e-5)
