"""Writes the two small JAX programs with calls that the explain / diff / CLI
tests read (issue #31): every JAX program has calls, and `shardy_full` treats
them as opaque where `sdy-propagation-pipeline` (what XLA runs) goes through.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 python tests/data/jax_calls/generate.py

- relu_mlp.mlir: `jax.nn.relu(x @ w1) @ w2` on a 2x4 Auto mesh, x on "data",
  w1 / w2 Megatron-style on "model" (`relu` is a `func.call @relu`);
- nested_jit.mlir: the same MLP whose hidden layer is a nested `jax.jit`
  (`func.call @layer`), called twice;
- relu_square.mlir: relu_mlp and its square (`chlo.square`, which Shardy's
  registry does not know: a warning);
- scan_square.mlir: a relu layer under `lax.scan` (16x16 weights) and an RMS norm with `chlo.square`.
Locations are kept (`debug_info=True`) so `explain` can name `file:line:col`.
"""
from __future__ import annotations

import os
from pathlib import Path

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8").strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

HERE = Path(__file__).resolve().parent


def _args(mesh):
    def arg(shape, spec):
        return jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(mesh, spec))
    return arg((8, 16), P("data", None)), arg((16, 32), P(None, "model")), arg((32, 16), P("model", None))


def _square_args(mesh):
    def arg(shape, spec):
        return jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(mesh, spec))
    return arg((8, 16), P("data", None)), arg((16, 16), P(None, "model")), arg((16, 16), P("model", None))


def relu_mlp(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


@jax.jit
def layer(h, w):
    return jnp.tanh(h @ w)


def nested_jit(x, w1, w2):
    h = layer(x, w1)
    return layer(h, w2) + layer(h, w2)


def relu_square(x, w1, w2):
    y = relu_mlp(x, w1, w2)
    return y, jax.lax.square(y)  # chlo.square: an op Shardy's registry does not know (it warns)


def scan_square(x, w1, w2):
    def body(h, _):
        return jax.nn.relu(h @ w1) @ w2, None
    h, _ = jax.lax.scan(body, x, None, length=2)
    return h * jax.lax.rsqrt(jnp.mean(jax.lax.square(h), axis=-1, keepdims=True) + 1e-6)  # an RMS norm


def main() -> None:
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    for name, fn in (("relu_mlp", relu_mlp), ("nested_jit", nested_jit), ("relu_square", relu_square),
                     ("scan_square", scan_square)):
        args = _square_args(mesh) if fn is scan_square else _args(mesh)
        text = jax.jit(fn).lower(*args).as_text(debug_info=True)
        # Locations name this script by its path from the repository root, wherever it is run.
        text = text.replace(str(HERE.parents[2]) + "/", "")
        (HERE / f"{name}.mlir").write_text(text)


if __name__ == "__main__":
    main()
