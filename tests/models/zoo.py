"""A small zoo of real JAX models lowered to StableHLO + sdy MLIR.

Differential tests feed these modules to both sdy-dsl and the C++ reference
passes. Shapes are tiny on purpose: each module stays at a few hundred lines
and lowering the whole zoo takes seconds.

    from tests.models.zoo import MODELS, lowered
    text = lowered("gpt_scan_tp_2x4")

    python -m tests.models.zoo OUTDIR [NAME ...]   # writes OUTDIR/<name>.mlir

`lowered` caches modules on disk (SDY_DSL_MODEL_CACHE, default
<repo>/.model_cache), keyed by model name, jax/jaxlib versions and a digest
of this file, so repeated test runs skip JAX entirely and editing a model
invalidates its stale copies.
"""
import os
import re


def _ensure_fake_cpu_devices():
    # The meshes below need 8 devices; XLA reads this flag when the CPU
    # backend starts, so it must be in place before jax is first used.
    flags = os.environ.get("XLA_FLAGS", "")
    if "xla_force_host_platform_device_count" not in flags:
        os.environ["XLA_FLAGS"] = (
            flags + " --xla_force_host_platform_device_count=8").strip()


_ensure_fake_cpu_devices()

import functools  # noqa: E402
import hashlib  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Callable  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental.shard_alike import shard_alike  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CACHE_DIR = REPO_ROOT / ".model_cache"
F32 = jnp.float32


# --------------------------------------------------------------------------
# Helpers


def make_mesh(shape, names=("data", "model")):
    needed = int(np.prod(shape))
    if jax.device_count() < needed:
        raise RuntimeError(
            f"mesh {shape} needs {needed} devices but jax has {jax.device_count()}: the CPU "
            "backend started before XLA_FLAGS asked for 8 (import this module first)")
    return jax.make_mesh(shape, names,
                         axis_types=(jax.sharding.AxisType.Auto,) * len(names))


def spec(shape, dtype=F32):
    """An abstract argument: lowering needs shapes only, never real buffers."""
    return jax.ShapeDtypeStruct(shape, dtype)


def lower(fn, in_shardings, *args, **jit_kwargs) -> str:
    return jax.jit(fn, in_shardings=in_shardings, **jit_kwargs).lower(*args).as_text()


def shardings(mesh, tree):
    """Map a pytree of PartitionSpecs to NamedShardings."""
    return jax.tree.map(lambda s: NamedSharding(mesh, s), tree,
                        is_leaf=lambda x: isinstance(x, P))


# --------------------------------------------------------------------------
# MLP


def _mlp_forward(params, x):
    for w1, w2 in params:
        x = x + jax.nn.relu(x @ w1) @ w2
    return x


def _mlp_setup(mesh_shape, d=32, f=64, batch=16, layers=2):
    mesh = make_mesh(mesh_shape)
    # Megatron-style tensor parallelism: column- then row-parallel weights.
    params = [(spec((d, f)), spec((f, d))) for _ in range(layers)]
    param_specs = [(P(None, "model"), P("model", None)) for _ in range(layers)]
    in_shardings = (shardings(mesh, param_specs), NamedSharding(mesh, P("data", None)))
    return in_shardings, params, spec((batch, d))


def mlp_tp(mesh_shape=(2, 4)) -> str:
    in_shardings, params, x = _mlp_setup(mesh_shape)
    return lower(_mlp_forward, in_shardings, params, x)


def mlp_size_one_axis() -> str:
    # A size-1 "pipe" axis, used alone and inside a multi-axis dim sharding.
    mesh = make_mesh((2, 4, 1), ("data", "model", "pipe"))
    params = [(spec((32, 64)), spec((64, 32)))]
    param_shardings = shardings(mesh, [(P("pipe", "model"), P("model", "pipe"))])
    return lower(_mlp_forward, (param_shardings, NamedSharding(mesh, P(("data", "pipe"), None))),
                 params, spec((16, 32)))


def mlp_grad() -> str:
    in_shardings, params, x = _mlp_setup((2, 4))
    loss = lambda p, x: jnp.sum(_mlp_forward(p, x) ** 2)
    return lower(jax.grad(loss), in_shardings, params, x)


# --------------------------------------------------------------------------
# GPT blocks


def _layernorm(x, gain):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gain


def _attention(x, p, heads):
    b, s, d = x.shape
    split = lambda t: t.reshape(b, s, heads, d // heads)
    q, k, v = split(x @ p["wq"]), split(x @ p["wk"]), split(x @ p["wv"])
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(d // heads)
    causal = jnp.tril(jnp.ones((s, s), bool))
    probs = jax.nn.softmax(jnp.where(causal, scores, -1e9), -1)
    return jnp.einsum("bhqk,bkhd->bqhd", probs, v).reshape(b, s, d) @ p["wo"]


def _gpt_block(x, p, heads, hidden_sharding, exact_gelu):
    x = x + _attention(_layernorm(x, p["g1"]), p, heads)
    h = jax.nn.gelu(_layernorm(x, p["g2"]) @ p["w1"], approximate=not exact_gelu)
    h = lax.with_sharding_constraint(h, hidden_sharding)
    return x + h @ p["w2"]


def _gpt(mesh_shape, scan, fsdp, layers=2, d=32, f=64, heads=4, vocab=64,
         batch=8, seq=8) -> str:
    mesh = make_mesh(mesh_shape)
    # FSDP additionally shards the non-TP weight dimension over "data".
    dp = "data" if fsdp else None
    weight_specs = {"wq": (dp, "model"), "wk": (dp, "model"), "wv": (dp, "model"),
                    "wo": ("model", dp), "w1": (dp, "model"), "w2": ("model", dp),
                    "g1": (None,), "g2": (None,)}  # stacked layers get a leading None
    weight_shapes = {"wq": (d, d), "wk": (d, d), "wv": (d, d), "wo": (d, d),
                     "w1": (d, f), "w2": (f, d), "g1": (d,), "g2": (d,)}
    if scan:
        params = {k: spec((layers,) + v) for k, v in weight_shapes.items()}
        param_specs = {k: P(None, *v) for k, v in weight_specs.items()}
    else:
        params = [{k: spec(v) for k, v in weight_shapes.items()} for _ in range(layers)]
        param_specs = [{k: P(*v) for k, v in weight_specs.items()} for _ in range(layers)]
    hidden_sharding = NamedSharding(mesh, P("data", None, "model"))
    exact_gelu = fsdp  # the FSDP variants also cover chlo.erfc
    block = lambda x, p: _gpt_block(x, p, heads, hidden_sharding, exact_gelu)

    def model(params, emb, tokens):
        x = emb[tokens]
        if scan:
            x, _ = lax.scan(lambda c, p: (block(c, p), None), x, params)
        else:
            for p in params:
                x = block(x, p)
        logits = x @ emb.T
        return -jax.nn.log_softmax(logits).mean()

    in_shardings = (shardings(mesh, param_specs),
                    NamedSharding(mesh, P(None, "model")),
                    NamedSharding(mesh, P("data", None)))
    return lower(model, in_shardings, params, spec((vocab, d)),
                 spec((batch, seq), jnp.int32))


# --------------------------------------------------------------------------
# Control flow


def while_loop_model() -> str:
    mesh = make_mesh((2, 4))

    def model(x, w, steps):
        def body(carry):
            i, h = carry
            h = jnp.tanh(h @ w)
            return i + 1, lax.with_sharding_constraint(h, NamedSharding(mesh, P("data", None)))
        # `steps` is traced, so the trip count is dynamic and this stays a loop.
        _, h = lax.while_loop(lambda c: c[0] < steps, body, (jnp.int32(0), x))
        return h.sum(axis=1)

    in_shardings = (NamedSharding(mesh, P("data", None)),
                    NamedSharding(mesh, P(None, "model")), None)
    return lower(model, in_shardings, spec((16, 32)), spec((32, 32)), spec((), jnp.int32))


def fori_loop_model() -> str:
    mesh = make_mesh((2, 4))

    def model(x, w):
        def body(i, carry):
            h, acc = carry
            h = jax.nn.relu(h @ w) * (i + 1).astype(F32)
            return h, acc + h.sum(axis=0)
        return lax.fori_loop(0, 3, body, (x, jnp.zeros(x.shape[1], F32)))

    in_shardings = (NamedSharding(mesh, P("data", None)), NamedSharding(mesh, P("model", None)))
    return lower(model, in_shardings, spec((16, 32)), spec((32, 32)))


def cond_model() -> str:
    mesh = make_mesh((2, 4))

    def model(x, w, branch):
        y = lax.cond(x.sum() > 0, lambda a: jnp.tanh(a @ w), lambda a: a @ w.T + 1.0, x)
        z = lax.switch(branch, [jnp.sin, jnp.cos, lambda a: a * 2.0], y)
        return z @ w

    in_shardings = (NamedSharding(mesh, P("data", None)),
                    NamedSharding(mesh, P(None, "model")), None)
    return lower(model, in_shardings, spec((16, 32)), spec((32, 32)), spec((), jnp.int32))


# --------------------------------------------------------------------------
# Manual computations and sharding groups


def shard_map_psum() -> str:
    mesh = make_mesh((2, 4))

    @functools.partial(jax.shard_map, mesh=mesh, in_specs=(P("data", "model"), P("model", None)),
                       out_specs=P("data", None))
    def row_parallel_matmul(x, w):
        return lax.psum(x @ w, "model")

    def model(x, w, w2):
        return jnp.tanh(row_parallel_matmul(x, w)) @ w2

    in_shardings = (NamedSharding(mesh, P("data", None)), None,
                    NamedSharding(mesh, P(None, "model")))
    return lower(model, in_shardings, spec((16, 32)), spec((32, 32)), spec((32, 32)))


def shard_map_partial_manual() -> str:
    # Manual over "data" only: JAX then emits open sharding constraints on
    # values inside the body (including inside the all_reduce region).
    mesh = make_mesh((2, 4))

    @functools.partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"),
                       axis_names={"data"})
    def normalize_over_data(a):
        return a / lax.psum(a.sum(0, keepdims=True), "data")

    def model(x, w):
        y = lax.with_sharding_constraint(x @ w, NamedSharding(mesh, P("data", P.UNCONSTRAINED)))
        return normalize_over_data(y)

    in_shardings = (NamedSharding(mesh, P("data", "model")), NamedSharding(mesh, P("model", None)))
    return lower(model, in_shardings, spec((16, 32)), spec((32, 32)),
                 out_shardings=NamedSharding(mesh, P(None, "model")))


def shard_alike_model() -> str:
    mesh = make_mesh((2, 4))

    def model(x, y, w, v):
        a, b = shard_alike(jnp.sin(x), jnp.cos(y))
        # JAX reuses one lowering for shard_alike calls with identical operand
        # types, merging their groups; distinct shapes keep two groups.
        c, d = shard_alike(a @ w, b @ v)
        return c + d

    in_shardings = (NamedSharding(mesh, P("data", None)), None,
                    NamedSharding(mesh, P(None, "model")), None)
    text = lower(model, in_shardings, spec((16, 32)), spec((16, 32)), spec((32, 64)),
                 spec((32, 64)))
    return _renumber_sharding_groups(text)


def _renumber_sharding_groups(text):
    # JAX draws group ids from a process-wide counter; renumber them from 0 so
    # the text does not depend on what was lowered before.
    ids = {}
    return re.sub(r"group_id=(\d+)",
                  lambda m: "group_id=%d" % ids.setdefault(m.group(1), len(ids)), text)


# --------------------------------------------------------------------------
# Constants, iota and scalar broadcasts with several users


_OFFSETS = np.linspace(0.0, 1.0, 32, dtype=np.float32)


def constants_iota() -> str:
    mesh = make_mesh((2, 4))

    def model(x, y, scale):
        positions = jnp.arange(x.shape[1], dtype=F32)  # one iota, two users
        a = x + positions
        b = y * positions
        a = a + _OFFSETS  # one closed-over constant, two users
        b = b - _OFFSETS
        ones = jnp.ones_like(x)  # broadcast scalar constant
        return a * scale + b * scale + ones, jnp.full((4,), 2.0) * scale

    in_shardings = (NamedSharding(mesh, P("data", None)),
                    NamedSharding(mesh, P(None, "model")), None)
    return lower(model, in_shardings, spec((16, 32)), spec((16, 32)), spec(()))


# --------------------------------------------------------------------------
# Conv net


def convnet_grad() -> str:
    mesh = make_mesh((2, 4))
    dims = ("NHWC", "HWIO", "NHWC")

    def pool(x, op, init):
        return lax.reduce_window(x, init, op, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    def net(params, images):
        x = lax.conv_general_dilated(images, params["k1"], (1, 1), "SAME", dimension_numbers=dims)
        x = pool(jax.nn.relu(x), lax.max, -jnp.inf)  # max pool
        x = lax.conv_general_dilated(x, params["k2"], (1, 1), "SAME", dimension_numbers=dims)
        x = pool(jax.nn.relu(x), lax.add, 0.0) / 4.0  # avg pool
        return x.reshape(x.shape[0], -1) @ params["dense"]

    def loss(params, images, labels):
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(net(params, images)) * labels, -1))

    params = {"k1": spec((3, 3, 4, 8)), "k2": spec((3, 3, 8, 8)), "dense": spec((128, 16))}
    param_shardings = shardings(mesh, {"k1": P(), "k2": P(), "dense": P(None, "model")})
    data_parallel = NamedSharding(mesh, P("data"))
    return lower(jax.value_and_grad(loss), (param_shardings, data_parallel, data_parallel),
                 params, spec((8, 16, 16, 4)), spec((8, 16)))


# --------------------------------------------------------------------------
# Mixture of experts


def moe_expert_parallel() -> str:
    mesh = make_mesh((2, 2, 2), ("data", "expert", "model"))
    experts, top_k = 4, 2

    def layer(x, w_gate, w_in, w_out):
        probs = jax.nn.softmax(x @ w_gate, -1)
        gate, chosen = lax.top_k(probs, top_k)
        routed = jax.nn.one_hot(chosen, experts, dtype=F32)  # [tokens, k, experts]
        dispatch = routed.sum(1)
        combine = jnp.einsum("tk,tke->te", gate, routed)
        expert_in = jnp.einsum("te,td->etd", dispatch, x)
        expert_in = lax.with_sharding_constraint(
            expert_in, NamedSharding(mesh, P("expert", "data", None)))
        hidden = jax.nn.relu(jnp.einsum("etd,edf->etf", expert_in, w_in))
        expert_out = jnp.einsum("etf,efd->etd", hidden, w_out)
        return jnp.einsum("etd,te->td", expert_out, combine)

    in_shardings = shardings(mesh, (P("data", None), P(None, None),
                                    P("expert", None, "model"), P("expert", "model", None)))
    return lower(layer, in_shardings, spec((16, 32)), spec((32, experts)),
                 spec((experts, 32, 64)), spec((experts, 64, 32)))


def moe_train_step(layers=2, experts=4, d=16, f=32, tokens=16, top_k=2, scan_layers=False) -> str:
    """A Mixtral-like train step (as MaxText writes one): per layer a shared
    jitted RMS norm, a router, and an expert-parallel `shard_map` block (manual
    over "expert", tokens all-to-all'ed in and out); loss, grads and an
    adam-like update of every parameter through one shared jitted callee. So
    the module has many `func.call`s: the same small callees at many sites,
    transposed ones from the grad, and (`scan_layers`) calls inside a scan body."""
    mesh = make_mesh((2, 2, 2), ("data", "expert", "model"))

    @jax.jit
    def rms_norm(x, gain):
        return x * lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * gain

    @jax.jit
    def route(x, w_gate):
        gate, chosen = lax.top_k(jax.nn.softmax(x @ w_gate, -1), top_k)
        routed = jax.nn.one_hot(chosen, experts, dtype=F32)  # [tokens, k, experts]
        return routed.sum(1), jnp.einsum("tk,tke->te", gate, routed)

    @functools.partial(jax.shard_map, mesh=mesh, axis_names={"expert"},
                       in_specs=(P(None, "expert"), P("expert"), P("expert"), P("expert")),
                       out_specs=P(None, "expert"))
    def experts_block(expert_in, w_in, w_up, w_out):
        # expert_in: [tokens, experts/shard, d] after the all-to-all
        swiglu = jax.jit(lambda a, b: jax.nn.silu(a) * b)
        h = swiglu(jnp.einsum("ted,edf->tef", expert_in, w_in),
                   jnp.einsum("ted,edf->tef", expert_in, w_up))
        return jnp.einsum("tef,efd->ted", h, w_out)

    def moe(x, p):
        dispatch, combine = route(x, p["gate"])
        expert_in = jnp.einsum("te,td->ted", dispatch, x)
        expert_out = experts_block(expert_in, p["w_in"], p["w_up"], p["w_out"])
        return jnp.einsum("ted,te->td", expert_out, combine)

    def block(x, p):
        h = rms_norm(x, p["g1"])
        x = x + jnp.tanh(h @ p["wa"]) @ p["wb"]
        return x + moe(rms_norm(x, p["g2"]), p)

    shapes = {"g1": (d,), "g2": (d,), "wa": (d, f), "wb": (f, d), "gate": (d, experts),
              "w_in": (experts, d, f), "w_up": (experts, d, f), "w_out": (experts, f, d)}
    specs = {"g1": P(None), "g2": P(None), "wa": P(None, "model"), "wb": P("model", None),
             "gate": P(None, None), "w_in": P("expert", None, "model"),
             "w_up": P("expert", None, "model"), "w_out": P("expert", "model", None)}

    def loss(params, x):
        if scan_layers:
            x, _ = lax.scan(lambda c, p: (block(c, p), None), x, params)
        else:
            for p in params:
                x = block(x, p)
        return (x ** 2).mean()

    @jax.jit
    def adam_like(w, g, m, v):
        m = 0.9 * m + 0.1 * g
        v = 0.99 * v + 0.01 * g * g
        return w - 1e-3 * m * lax.rsqrt(v + 1e-8), m, v

    def train_step(params, moments, x):
        value, grads = jax.value_and_grad(loss)(params, x)
        leaves, tree = jax.tree.flatten(params)
        updated = [adam_like(w, g, m, v) for w, g, (m, v) in
                   zip(leaves, jax.tree.leaves(grads), moments)]
        return value, jax.tree.unflatten(tree, [u[0] for u in updated]), [u[1:] for u in updated]

    if scan_layers:
        params = {k: spec((layers,) + v) for k, v in shapes.items()}
        param_specs = {k: P(None, *s) for k, s in specs.items()}
    else:
        params = [{k: spec(v) for k, v in shapes.items()} for _ in range(layers)]
        param_specs = [dict(specs) for _ in range(layers)]
    leaves = jax.tree.leaves(params)
    leaf_specs = jax.tree.leaves(param_specs, is_leaf=lambda x: isinstance(x, P))
    moments = [(w, w) for w in leaves]
    moment_specs = [(s, s) for s in leaf_specs]
    in_shardings = (shardings(mesh, param_specs), shardings(mesh, moment_specs),
                    NamedSharding(mesh, P("data", None)))
    return lower(train_step, in_shardings, params, moments, spec((tokens, d)))


# --------------------------------------------------------------------------
# Custom calls


def custom_calls() -> str:
    # Nested jit (private funcs + calls), a LAPACK custom call that carries its
    # own sdy.sharding_rule, and ApproxTopK with a comparator computation.
    mesh = make_mesh((2, 4))

    @jax.jit
    def gram(x):
        return x.T @ x + jnp.eye(x.shape[1])

    def model(x, scores):
        chol = jnp.linalg.cholesky(gram(x))
        values, _ = lax.approx_max_k(scores, 4)
        return chol, values

    in_shardings = (NamedSharding(mesh, P("data", None)), NamedSharding(mesh, P("data", "model")))
    return lower(model, in_shardings, spec((16, 8)), spec((16, 32)))


# --------------------------------------------------------------------------
# User priorities

_PRIORITY_SOURCE = "gpt_fsdp_2x4"  # weights mix "data" and "model" dims
_ARG_SHARDING_RE = re.compile(r"(%arg(\d+): [^{,]*\{sdy\.sharding = #sdy\.sharding<@\w+, \[)(.*?)(\]>)")
_DIM_SHARDING_RE = re.compile(r"\{([^{}]*)\}")


def _with_priorities(dims_text, arg_index):
    def annotate(match):
        axes = match.group(1)
        if not axes:
            # Open every replicated dim of odd args, with a low priority.
            return "{?}p1" if arg_index % 2 else "{}"
        return "{%s}%s" % (axes, "p0" if '"data"' in axes else "p1")
    return _DIM_SHARDING_RE.sub(annotate, dims_text)


def user_priorities() -> str:
    """gpt_fsdp_2x4 with user priorities added to the arguments of @main.

    JAX has no way to emit priorities, so this rewrites the lowered text:
    in each argument sharding of @main, dims sharded on "data" get p0, other
    sharded dims get p1, and on odd-numbered arguments replicated dims become
    open with p1 (`{}` -> `{?}p1`). Shardings elsewhere are left as lowered.
    """
    text = MODELS[_PRIORITY_SOURCE]()
    header_start = text.index("func.func public @main(")
    header_end = text.index("\n", header_start)
    header = _ARG_SHARDING_RE.sub(
        lambda m: m.group(1) + _with_priorities(m.group(3), int(m.group(2))) + m.group(4),
        text[header_start:header_end])
    return text[:header_start] + header + text[header_end:]


# --------------------------------------------------------------------------
# Flax train steps: models built from Flax's own modules (flax.nnx and
# flax.linen), parameters annotated with partitioning metadata, one optax
# adamw step. flax and optax are imported here only, so the rest of the zoo
# needs neither.


def _abstract(tree):
    return jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), tree)


def _nnx_train_step(mesh_shape, make_model, inputs, input_specs, loss_fn):
    """Lower one adamw step of the nnx model `make_model(rngs)`: the sharded
    (model, optimizer) state, then `inputs`; `loss_fn(model, *inputs)`."""
    import optax
    from flax import nnx
    mesh = make_mesh(mesh_shape)

    def create():
        model = make_model(nnx.Rngs(0))
        return model, nnx.Optimizer(model, optax.adamw(1e-3), wrt=nnx.Param)

    with jax.set_mesh(mesh):  # partitioned variables need a mesh to be created
        graphdef, state = nnx.split(nnx.eval_shape(create))

    def train_step(state, *batch):
        model, optimizer = nnx.merge(graphdef, state)
        loss, grads = nnx.value_and_grad(lambda m: loss_fn(m, *batch))(model)
        optimizer.update(model, grads)
        return loss, nnx.state((model, optimizer))

    in_shardings = (shardings(mesh, nnx.get_partition_spec(state)),
                    *(NamedSharding(mesh, s) for s in input_specs))
    return lower(train_step, in_shardings, _abstract(state), *inputs)


def flax_nnx_transformer(mesh_shape=(2, 4), vocab=64, d=32, heads=4, batch=8, seq=8) -> str:
    """nnx.Embed, nnx.LayerNorm, nnx.MultiHeadAttention (causal), an MLP;
    Megatron-style partitioning of the weights, tied embeddings."""
    from flax import nnx
    import optax
    part, init = nnx.with_partitioning, nnx.initializers.lecun_normal()

    class Transformer(nnx.Module):
        def __init__(self, rngs):
            self.embed = nnx.Embed(vocab, d, rngs=rngs, embedding_init=part(
                nnx.initializers.normal(), ("model", None)))
            self.ln1 = nnx.LayerNorm(d, rngs=rngs, scale_init=part(nnx.initializers.ones, (None,)))
            self.attn = nnx.MultiHeadAttention(
                heads, d, decode=False, rngs=rngs, kernel_init=part(init, (None, "model", None)),
                out_kernel_init=part(init, ("model", None, None)))
            self.ln2 = nnx.LayerNorm(d, rngs=rngs)
            self.up = nnx.Linear(d, 2 * d, rngs=rngs, kernel_init=part(init, (None, "model")))
            self.down = nnx.Linear(2 * d, d, rngs=rngs, kernel_init=part(init, ("model", None)))

        def __call__(self, tokens):
            x = self.embed(tokens)
            x = x + self.attn(self.ln1(x), mask=nnx.make_causal_mask(tokens))
            x = x + self.down(jax.nn.gelu(self.up(self.ln2(x))))
            return self.embed.attend(x)

    def loss(model, tokens, labels):
        return optax.softmax_cross_entropy_with_integer_labels(model(tokens), labels).mean()

    tokens = spec((batch, seq), jnp.int32)
    return _nnx_train_step(mesh_shape, Transformer, (tokens, tokens), (P("data"), P("data")), loss)


def flax_nnx_convnet(batch=8, size=8, classes=8) -> str:
    """nnx.Conv + nnx.BatchNorm (batch statistics) + nnx.Linear; channels over "model"."""
    from flax import nnx
    import optax
    part, init = nnx.with_partitioning, nnx.initializers.lecun_normal()

    class ConvNet(nnx.Module):
        def __init__(self, rngs):
            self.conv1 = nnx.Conv(3, 8, (3, 3), rngs=rngs, kernel_init=part(init, (None, None, None, "model")))
            self.bn1 = nnx.BatchNorm(8, rngs=rngs)
            self.conv2 = nnx.Conv(8, 8, (3, 3), strides=2, rngs=rngs,
                                  kernel_init=part(init, (None, None, "model", None)))
            self.bn2 = nnx.BatchNorm(8, rngs=rngs)
            self.head = nnx.Linear(8, classes, rngs=rngs, kernel_init=part(init, (None, "model")))

        def __call__(self, x):
            x = nnx.relu(self.bn1(self.conv1(x)))
            x = nnx.relu(self.bn2(self.conv2(x)))
            return self.head(x.mean(axis=(1, 2)))

    def loss(model, images, labels):
        return optax.softmax_cross_entropy_with_integer_labels(model(images), labels).mean()

    return _nnx_train_step((4, 2), ConvNet, (spec((batch, size, size, 3)), spec((batch,), jnp.int32)),
                           (P("data"), P("data")), loss)


def _linen_train_step(mesh_shape, module, init_inputs, inputs, input_specs, loss_fn, mutable=()):
    """Lower one adamw step of the linen `module`: the sharded (variables,
    optimizer state), then `inputs`; `loss_fn(logits, *inputs)`."""
    import optax
    from flax import linen as nn
    mesh = make_mesh(mesh_shape)
    tx = optax.adamw(1e-3)

    def create(*init_inputs):
        variables = module.init(jax.random.key(0), *init_inputs)
        return variables, tx.init(variables["params"])

    boxed = jax.eval_shape(create, *init_inputs)  # nn.Partitioned boxes carry the partitioning
    state_specs = nn.get_partition_spec(boxed)

    def train_step(state, *batch):
        variables, opt_state = state
        def loss(params):
            out = module.apply({**variables, "params": params}, batch[0], mutable=list(mutable) or False)
            logits, updates = out if mutable else (out, {})
            return loss_fn(logits, *batch[1:]), updates
        (value, updates), grads = jax.value_and_grad(loss, has_aux=True)(variables["params"])
        step, opt_state = tx.update(grads, opt_state, variables["params"])
        params = optax.apply_updates(variables["params"], step)
        return value, ({**variables, **updates, "params": params}, opt_state)

    in_shardings = (shardings(mesh, state_specs), *(NamedSharding(mesh, s) for s in input_specs))
    return lower(train_step, in_shardings, _abstract(nn.meta.unbox(boxed)), *inputs)


def flax_linen_transformer(mesh_shape=(2, 4), vocab=64, d=32, heads=4, batch=8, seq=8) -> str:
    """nn.Embed, nn.LayerNorm, nn.MultiHeadDotProductAttention, nn.Dense; FSDP
    on "data" and tensor parallelism on "model"."""
    from flax import linen as nn
    import optax
    part, init = nn.with_partitioning, nn.initializers.lecun_normal()

    class Transformer(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            embed = nn.Embed(vocab, d, embedding_init=part(nn.initializers.normal(), ("model", "data")))
            x = embed(tokens)
            y = nn.LayerNorm(scale_init=part(nn.initializers.ones, ("model",)))(x)
            x = x + nn.MultiHeadDotProductAttention(
                heads, kernel_init=part(init, ("data", "model", None)),
                out_kernel_init=part(init, ("model", None, "data")))(y, mask=nn.make_causal_mask(tokens))
            y = nn.Dense(2 * d, kernel_init=part(init, ("data", "model")))(nn.LayerNorm()(x))
            x = x + nn.Dense(d, kernel_init=part(init, ("model", "data")))(nn.gelu(y))
            return embed.attend(x)

    def loss(logits, labels):
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    tokens = spec((batch, seq), jnp.int32)
    return _linen_train_step(mesh_shape, Transformer(), (tokens,), (tokens, tokens),
                             (P("data"), P("data")), loss)


def flax_linen_resnet(batch=8, size=8, classes=8) -> str:
    """nn.Conv + nn.BatchNorm (mutable batch_stats) in a residual block, nn.Dense head."""
    from flax import linen as nn
    import optax
    part, init = nn.with_partitioning, nn.initializers.lecun_normal()

    class ResNet(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.Conv(8, (3, 3), kernel_init=part(init, (None, None, None, "model")))(x)
            x = nn.relu(nn.BatchNorm(use_running_average=False)(x))
            y = nn.Conv(8, (3, 3), kernel_init=part(init, (None, None, "model", None)))(x)
            x = nn.relu(x + nn.BatchNorm(use_running_average=False)(y))
            return nn.Dense(classes, kernel_init=part(init, ("model", None)))(x.mean(axis=(1, 2)))

    def loss(logits, labels):
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    images = spec((batch, size, size, 3))
    return _linen_train_step((2, 4), ResNet(), (images,), (images, spec((batch,), jnp.int32)),
                             (P("data"), P("data")), loss, mutable=("batch_stats",))


# --------------------------------------------------------------------------
# Calls: nested jits, a jit in a scan body, host computations, complex constants


def nested_jit() -> str:
    """One jitted callee at two call sites, and an inner jit with its own out_shardings."""
    mesh = make_mesh((2, 4))
    ffn = jax.jit(lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2)
    project = jax.jit(lambda x, w: x @ w, out_shardings=NamedSharding(mesh, P("data", "model")))

    def model(x, w1, w2, w3):
        h = x + ffn(x, w1, w2)
        h = h + ffn(h, w1, w2)
        return project(h, w3).sum()

    in_shardings = shardings(mesh, (P("data", None), P(None, "model"), P("model", None), P(None, None)))
    return lower(model, in_shardings, spec((16, 32)), spec((32, 64)), spec((64, 32)), spec((32, 32)))


def jit_in_scan() -> str:
    mesh = make_mesh((2, 4))
    layer = jax.jit(lambda x, w: jnp.tanh(x @ w))

    def model(x, ws):
        x, _ = lax.scan(lambda c, w: (layer(c, w), None), x, ws)
        return x

    return lower(model, shardings(mesh, (P("data", None), P(None, None, "model"))),
                 spec((16, 32)), spec((3, 32, 32)))


def compute_on_host() -> str:
    from jax.experimental.compute_on import compute_on
    mesh = make_mesh((2, 4))

    def model(x, w):
        with compute_on("device_host"):
            scale = jax.jit(lambda t: jnp.exp(t.mean(axis=0, keepdims=True)))(x)
        return (x * scale) @ w

    return lower(model, shardings(mesh, (P("data", None), P(None, "model"))), spec((16, 32)), spec((32, 32)))


def rope_complex(batch=8, seq=16, heads=4, dim=16) -> str:
    """Rotary embeddings through complex numbers: a complex dense constant (the rotations)."""
    mesh = make_mesh((2, 4))
    angles = np.outer(np.arange(seq), 1.0 / 10000 ** (np.arange(0, dim, 2) / dim))
    rotations = np.exp(1j * angles).astype(np.complex64)[None, :, None, :]

    def model(q, k):
        def rotate(t):
            pairs = lax.complex(t[..., ::2], t[..., 1::2]) * rotations
            return jnp.stack([jnp.real(pairs), jnp.imag(pairs)], -1).reshape(t.shape)
        return jnp.einsum("bqhd,bkhd->bhqk", rotate(q), rotate(k))

    qk = NamedSharding(mesh, P("data", None, "model", None))
    return lower(model, (qk, qk), spec((batch, seq, heads, dim)), spec((batch, seq, heads, dim)))


# --------------------------------------------------------------------------
# Registry and cache


MODELS: dict[str, Callable[[], str]] = {
    "mlp_tp_2x4": lambda: mlp_tp((2, 4)),
    "mlp_tp_4x2": lambda: mlp_tp((4, 2)),
    "mlp_tp_2x4x1": mlp_size_one_axis,
    "mlp_grad_2x4": mlp_grad,
    "gpt_tp_2x4": lambda: _gpt((2, 4), scan=False, fsdp=False),
    "gpt_fsdp_2x4": lambda: _gpt((2, 4), scan=False, fsdp=True),
    "gpt_scan_tp_2x4": lambda: _gpt((2, 4), scan=True, fsdp=False),
    "gpt_scan_fsdp_4x2": lambda: _gpt((4, 2), scan=True, fsdp=True),
    "while_loop_2x4": while_loop_model,
    "fori_loop_2x4": fori_loop_model,
    "cond_switch_2x4": cond_model,
    "shard_map_psum_2x4": shard_map_psum,
    "shard_map_partial_2x4": shard_map_partial_manual,
    "shard_alike_2x4": shard_alike_model,
    "constants_iota_2x4": constants_iota,
    "convnet_grad_2x4": convnet_grad,
    "moe_2x2x2": moe_expert_parallel,
    "moe_train_step_2x2x2": moe_train_step,
    "moe_train_step_scan_2x2x2": lambda: moe_train_step(scan_layers=True),
    "custom_calls_2x4": custom_calls,
    "user_priorities_2x4": user_priorities,
    "flax_nnx_transformer_2x4": flax_nnx_transformer,
    # a size-8 axis (sub-axes (1)2, (2)2, (4)2, (1)4, (2)4) beside a size-1 one
    "flax_nnx_transformer_1x8": lambda: flax_nnx_transformer((1, 8), heads=8),
    "flax_nnx_convnet_4x2": flax_nnx_convnet,
    "flax_linen_transformer_2x4": flax_linen_transformer,
    "flax_linen_transformer_4x2": lambda: flax_linen_transformer((4, 2)),
    "flax_linen_resnet_2x4": flax_linen_resnet,
    "nested_jit_2x4": nested_jit,
    "jit_in_scan_2x4": jit_in_scan,
    "compute_on_host_2x4": compute_on_host,
    "rope_complex_2x4": rope_complex,
}


def cache_dir() -> Path:
    return Path(os.environ.get("SDY_DSL_MODEL_CACHE") or DEFAULT_CACHE_DIR)


@functools.cache
def _cache_key() -> str:
    # The digest of this file makes edits to any model invalidate old copies.
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
    return f"jax{jax.__version__}-jaxlib{jaxlib.__version__}-{digest}"


@functools.cache
def lowered(name: str) -> str:
    """The lowered module text of model `name`, from the disk cache if present."""
    if name not in MODELS:
        raise KeyError(f"unknown model {name!r}; known: {', '.join(MODELS)}")
    path = cache_dir() / f"{name}.{_cache_key()}.mlir"
    try:
        return path.read_text()
    except FileNotFoundError:
        pass
    text = MODELS[name]()
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write then rename, so concurrent test workers never read a partial file.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.", suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return text


def main(argv) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python -m tests.models.zoo OUTDIR [NAME ...]", file=sys.stderr)
        return 2
    out_dir, names = Path(argv[0]), argv[1:] or list(MODELS)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        start = time.perf_counter()
        text = lowered(name)
        (out_dir / f"{name}.mlir").write_text(text)
        print(f"{name}: {text.count(chr(10))} lines, {time.perf_counter() - start:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
