"""Writes step.mlir: an MLP train step (grads and an SGD update) on a 2x4 mesh
whose shardings conflict — both weights split their output dimension on
"model", and so does the batch of x. Run from the checkout:

    python examples/search/make_step.py      # (needs jax: pip install -e '.[jax]')
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402


def loss(params, x):
    for a, b in params:
        x = x + jnp.tanh(x @ a) @ b
    return jnp.sum(x ** 2)


def step(params, x):
    grads = jax.grad(loss)(params, x)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


def lowered_text() -> str:
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    f32 = jnp.float32
    params = [(jax.ShapeDtypeStruct((32, 64), f32), jax.ShapeDtypeStruct((64, 32), f32)) for _ in range(2)]
    specs = ([(P(None, "model"), P(None, "model"))] * 2, P("model", None))
    shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), specs, is_leaf=lambda s: isinstance(s, P))
    return jax.jit(step, in_shardings=shardings).lower(params, jax.ShapeDtypeStruct((16, 32), f32)).as_text()


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("step.mlir")
    out.write_text(lowered_text())
