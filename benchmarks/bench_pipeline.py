"""Benchmark: sdy-dsl vs the C++ Shardy passes on JAX-lowered GPT grads and Flax LM train steps.

For each module: op count; whole-process wall time, CPU time and peak RSS of
`sdy-dsl run PIPELINE MODULE` and of the reference runner (benchmarks/ref_runner.py,
jaxlib's PassManager), each a fresh subprocess, median of --repeat runs; their
ratios; microseconds per op; whether both outputs are byte-identical; and
sdy-dsl's per-pass times (`--timing`). The `empty` row is the fixed start-up cost.

    python benchmarks/bench_pipeline.py [--layers 1,8,32,96] [--distinct 96] [--flax 4]
                                        [--funcs 2000,8000] [--shared 2000]
                                        [--pipeline FILE | --pass sdy-propagation-pipeline]
                                        [--repeat 3] [--out DIR] [--profile-top N]

Modules are lowered here with jax and cached in --out: GPT grad (d=128, f=512,
4 heads, vocab 512, batch 8, seq 32, 2x4 mesh ("data", "model")), and a Flax
linen LM train step (same sizes, value_and_grad + optax adamw, 4x2 mesh; needs
flax and optax). Both tools import sdy_dsl from this checkout.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# 8 fake CPU devices for the 2x4 mesh; must be set before jax is imported.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")  # no PjRt device listing

REPO = Path(__file__).resolve().parent.parent
# Both tools' processes import sdy_dsl from this checkout, whatever is installed.
CHILD_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
# Steady state, as an installed package runs (pip writes bytecode at install): a
# PYTHONDONTWRITEBYTECODE in this shell would make every run compile sdy_dsl again.
CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
REF_RUNNER = Path(__file__).resolve().parent / "ref_runner.py"
DEFAULT_PIPELINE = REPO / "pipelines" / "shardy_full_reshards.yaml"  # the whole seed chain
DEFAULT_CACHE = Path("/tmp/sdy_dsl_bench_modules")
GPT = dict(d=128, f=512, heads=4, vocab=512, batch=8, seq=32)


# --------------------------------------------------------------------------- module generation


def lower_gpt_grad(layers: int, distinct: bool = False) -> str:
    """StableHLO+sdy text of grad(GPT loss) w.r.t. params and embedding, jitted on a 2x4 mesh.
    `distinct`: layer i's MLP is f + 16*i wide, so no two layers share op structures."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    d, f, heads, vocab, batch, seq = (GPT[k] for k in ("d", "f", "heads", "vocab", "batch", "seq"))
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    on_mesh = lambda *spec: NamedSharding(mesh, P(*spec))

    def norm(x, gain):
        centered = x - x.mean(-1, keepdims=True)
        return centered * jax.lax.rsqrt((centered ** 2).mean(-1, keepdims=True) + 1e-5) * gain

    def self_attention(x, p):
        b, s, _ = x.shape
        split = lambda t: t.reshape(b, s, heads, d // heads)
        q, k, v = split(x @ p["wq"]), split(x @ p["wk"]), split(x @ p["wv"])
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d // heads)
        scores = jnp.where(jnp.tril(jnp.ones((s, s), bool)), scores, -1e9)
        mixed = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, -1), v)
        return mixed.reshape(b, s, d) @ p["wo"]

    def layer(x, p):
        x = x + self_attention(norm(x, p["g1"]), p)
        hidden = jax.nn.gelu(norm(x, p["g2"]) @ p["w1"])
        # A user constraint per layer, as real models have: exercises constraint import/export.
        hidden = jax.lax.with_sharding_constraint(hidden, on_mesh("data", None, "model"))
        return x + hidden @ p["w2"]

    def loss(params, embedding, tokens):
        x = embedding[tokens]
        for p in params:
            x = layer(x, p)
        return -jax.nn.log_softmax(x @ embedding.T).mean()

    shapes_of = lambda width: {"wq": (d, d), "wk": (d, d), "wv": (d, d), "wo": (d, d),
                               "w1": (d, width), "w2": (width, d), "g1": (d,), "g2": (d,)}
    specs = {"wq": (None, "model"), "wk": (None, "model"), "wv": (None, "model"), "wo": ("model", None),
             "w1": (None, "model"), "w2": ("model", None), "g1": (None,), "g2": (None,)}
    params = [{k: jnp.ones(shape, jnp.float32) for k, shape in shapes_of(f + 16 * i if distinct else f).items()}
              for i in range(layers)]
    param_shardings = [{k: on_mesh(*spec) for k, spec in specs.items()} for _ in range(layers)]
    embedding, tokens = jnp.ones((vocab, d), jnp.float32), jnp.ones((batch, seq), jnp.int32)
    jitted = jax.jit(jax.grad(loss, argnums=(0, 1)),
                     in_shardings=(param_shardings, on_mesh(None, "model"), on_mesh("data", None)))
    return jitted.lower(params, embedding, tokens).as_text()


FLAX = dict(d=128, f=512, heads=4, vocab=512, batch=8, seq=32)


def lower_flax_train_step(layers: int) -> str:
    """StableHLO+sdy text of a Flax (linen) LM train step: loss, grad, optax adamw update and
    apply, jitted on a 4x2 mesh with params and optimizer state sharded by name."""
    import flax.linen as nn
    import jax
    import jax.numpy as jnp
    import optax
    from jax.sharding import NamedSharding, PartitionSpec as P

    d, f, heads, vocab, batch, seq = (FLAX[k] for k in ("d", "f", "heads", "vocab", "batch", "seq"))
    mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            causal = nn.make_causal_mask(jnp.ones(x.shape[:2]))
            x = x + nn.MultiHeadDotProductAttention(num_heads=heads, name="attn")(nn.LayerNorm()(x), mask=causal)
            return x + nn.Dense(d, name="down")(nn.gelu(nn.Dense(f, name="up")(nn.LayerNorm()(x))))

    class LM(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            embed = nn.Embed(vocab, d, name="embed")
            x = embed(tokens)
            for i in range(layers):
                x = Block(name=f"block{i}")(x)
            return embed.attend(nn.LayerNorm()(x))

    model, optimizer = LM(), optax.adamw(1e-3)
    params = jax.eval_shape(model.init, jax.random.key(0), jnp.ones((batch, seq), jnp.int32))["params"]
    opt_state = jax.eval_shape(optimizer.init, params)

    def sharding(path, leaf):
        """Megatron-style: embedding and in-projections split their output dim on "model",
        out-projections their input dim; norms, biases and counters replicated. Applies to
        the optimizer's moments too (same key paths)."""
        names = [getattr(k, "key", getattr(k, "name", None)) for k in path]
        if leaf.ndim >= 2 and ("out" in names or "down" in names):
            return NamedSharding(mesh, P("model", *(None,) * (leaf.ndim - 1)))
        if leaf.ndim == 2 and "embed" in names:
            return NamedSharding(mesh, P(None, "model"))
        if leaf.ndim >= 2 and names[-1] == "kernel":  # up: [d, f]; q/k/v: [d, heads, d/heads]
            return NamedSharding(mesh, P(None, "model", *(None,) * (leaf.ndim - 2)))
        return NamedSharding(mesh, P())

    def train_step(params, opt_state, tokens):
        def loss(p):
            logits = model.apply({"params": p}, tokens[:, :-1])
            return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()

        value, grads = jax.value_and_grad(loss)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, value

    shard_tree = lambda tree: jax.tree_util.tree_map_with_path(sharding, tree)
    jitted = jax.jit(train_step, donate_argnums=(0, 1),
                     in_shardings=(shard_tree(params), shard_tree(opt_state), NamedSharding(mesh, P("data", None))))
    return jitted.lower(params, opt_state, jax.ShapeDtypeStruct((batch, seq + 1), jnp.int32)).as_text()


SHARED_CALLEES = 10  # the "shared" module's N call sites call this many functions, round robin


def small_funcs_module(n: int, callees: int | None = None) -> str:
    """@main calling n small private functions in a chain (a dot, a tanh, an add each), each
    called once, or (`callees`) n call sites over that many functions; 2x4 mesh, sharded args."""
    t, w = "tensor<8x16xf32>", "tensor<16x16xf32>"
    count = n if callees is None else callees
    lines = ['module @small_funcs {', '  sdy.mesh @mesh = <["data"=2, "model"=4]>',
             f'  func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{}}]>}}, '
             f'%arg1: {w} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"model"}}]>}}) -> {t} {{']
    previous = "%arg0"
    for i in range(n):
        lines.append(f"    %{i} = call @f{i % count}({previous}, %arg1) : ({t}, {w}) -> {t}")
        previous = f"%{i}"
    lines += [f"    return {previous} : {t}", "  }"]
    for i in range(count):
        lines += [f"  func.func private @f{i}(%arg0: {t}, %arg1: {w}) -> {t} {{",
                  f"    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : ({t}, {w}) -> {t}",
                  f"    %1 = stablehlo.tanh %0 : {t}",
                  f"    %2 = stablehlo.add %1, %arg0 : {t}",
                  f"    return %2 : {t}", "  }"]
    return "\n".join(lines + ["}", ""])


MOE = dict(experts=8, d=64, f=128, tokens=64)


def lower_moe_train_step(layers: int, scan_layers: bool = False) -> str:
    """tests/models/zoo.py's Mixtral-like train step (expert-parallel shard_map per layer, shared
    jitted callees, grads, an adam-like update per parameter) with `layers` layers, wider."""
    sys.path.insert(0, str(REPO))
    from tests.models import zoo

    return zoo.moe_train_step(layers=layers, scan_layers=scan_layers, **MOE)


def zoo_modules(names: str) -> list[tuple[str, str, str]]:
    """(row name, "zoo", model name) for tests/models/zoo.py's models NAMES ("all": every one)."""
    if not names:
        return []
    sys.path.insert(0, str(REPO))
    from tests.models import zoo

    wanted = list(zoo.MODELS) if names == "all" else names.split(",")
    unknown = [n for n in wanted if n not in zoo.MODELS]
    if unknown:
        sys.exit(f"bench: unknown zoo model(s) {', '.join(unknown)}; known: {', '.join(zoo.MODELS)}")
    return [(name, "zoo", name) for name in wanted]


def module_path(cache: Path, kind: str, layers) -> Path:
    """Cached module, generated on first use: kind "gpt", "gptd" (GPT, every layer a different
    MLP width), "flax", "funcs" (`layers` small functions each called once) or "shared"
    (`layers` calls to SHARED_CALLEES functions); "zoo": `layers` names a tests/models/zoo.py model."""
    if kind == "zoo":
        from tests.models import zoo

        path, lower = cache / f"zoo_{layers}.mlir", zoo.lowered
    elif kind in ("gpt", "gptd"):
        config = "_".join(f"{k}{v}" for k, v in GPT.items())
        distinct = kind == "gptd"
        path = cache / f"{kind}{layers}l_grad_2x4_{config}.mlir"
        lower = lambda n: lower_gpt_grad(n, distinct)
    elif kind in ("moe", "moescan"):
        config = "_".join(f"{k}{v}" for k, v in MOE.items())
        path = cache / f"{kind}{layers}l_train_2x2x2_{config}.mlir"
        lower = lambda n: lower_moe_train_step(n, scan_layers=kind == "moescan")
    elif kind == "funcs":
        path, lower = cache / f"funcs{layers}.mlir", small_funcs_module
    elif kind == "shared":
        path, lower = cache / f"shared{layers}_{SHARED_CALLEES}.mlir", lambda n: small_funcs_module(n, SHARED_CALLEES)
    else:
        config = "_".join(f"{k}{v}" for k, v in FLAX.items())
        path, lower = cache / f"flax{layers}l_adamw_4x2_{config}.mlir", lower_flax_train_step
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        text = lower(layers)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
        print(f"# generated {path.name} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return path


def count_ops(path: Path) -> int:
    """Every operation in the module, nested ones included (module and funcs too)."""
    from jaxlib.mlir import ir

    from sdy_dsl.mlir_context import make_context
    from sdy_dsl.runtime.values import count_ops as count_ops_under

    ctx = make_context()
    with ctx:
        return count_ops_under(ir.Module.parse(path.read_text()).operation)


# --------------------------------------------------------------------------- runners


def sdy_dsl_command() -> list[str]:
    """The installed entry script run by this python: no pyenv shim in the measured time."""
    script = Path(sys.executable).parent / "sdy-dsl"
    if not script.exists():
        found = shutil.which("sdy-dsl")
        if found is None:
            sys.exit("bench: sdy-dsl is not installed (pip install -e .)")
        return [found]
    return [sys.executable, str(script)]


@dataclass
class Run:
    wall: float      # seconds
    cpu: float       # user + sys seconds of the child
    peak_mb: float   # the child's peak resident set size (ru_maxrss)
    returncode: int
    stderr: str


GNU_TIME = Path("/usr/bin/time")


def env_for(checkout: Path) -> dict:
    """The children's environment, importing sdy_dsl from `checkout`."""
    return {**CHILD_ENV, "PYTHONPATH": os.pathsep.join(filter(None, [str(checkout), os.environ.get("PYTHONPATH")]))}


def timed_run(cmd: list[str], out: str, env: dict | None = None) -> Run:
    """A fresh process, timed; its rusage (os.wait4) gives CPU time. Peak RSS comes from
    GNU time's %M when it is installed: a forked child's ru_maxrss starts at this (large,
    jax-importing) process's RSS, so the child must be forked from a small process.
    `-o -` into DEVNULL rather than `-o /dev/null`: sdy-dsl writes -o targets atomically
    (temp file + rename), which would replace the /dev/null device node itself when run as root."""
    with tempfile.TemporaryFile("w+") as err, tempfile.NamedTemporaryFile("r") as peak:
        wrapper = [str(GNU_TIME), "-f", "%M", "-o", peak.name] if GNU_TIME.exists() else []
        t0 = time.perf_counter()
        child = subprocess.Popen(wrapper + cmd + ["-o", out], stdout=subprocess.DEVNULL if out == "-" else None,
                                 stderr=err, text=True, cwd=REPO, env=env or CHILD_ENV)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        peak_kb = usage.ru_maxrss
        if wrapper:
            text = peak.read().split()
            peak_kb = int(text[-1]) if text and text[-1].isdigit() else peak_kb
        return Run(wall, usage.ru_utime + usage.ru_stime, peak_kb / 1024, child.returncode, err.read())


def median_runs(cmds: list[list[str]], repeat: int, envs: list | None = None) -> list[Run | None]:
    """Per command, the median wall, CPU and peak RSS (each on its own) over `repeat` fresh
    processes; the commands alternate (a b a b ...) so both see the same machine load.
    `envs`: per command, its environment (default: this checkout's)."""
    runs: list[list[Run] | None] = [[] for _ in cmds]
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            if runs[i] is None:
                continue
            run = timed_run(cmd, "-", envs[i] if envs else None)
            if run.returncode != 0:
                print(f"# failed: {' '.join(cmd)}: {run.stderr.strip()[-2000:]}", file=sys.stderr)
                runs[i] = None
            else:
                runs[i].append(run)
    return [Run(statistics.median(r.wall for r in rs), statistics.median(r.cpu for r in rs),
                statistics.median(r.peak_mb for r in rs), 0, "") if rs else None for rs in runs]


def fmt(value, width, places=2) -> str:
    return f"{value:>{width}.{places}f}" if value is not None else f"{'fail':>{width}}"


NOT_PASSES = ("parse", "print", "total")  # --timing rows that are not passes
# The reference's pass timing report (ref_runner.py --timing): `  SECONDS ( PERCENT%)  NAME`.
REF_TIMING_RE = re.compile(r"^\s+([\d.]+) \(\s*[\d.]+%\)\s+(\S.*?)\s*$", re.M)
# The passes issue #29 compares one by one: sdy-dsl's name -> the reference's pass class.
COMPARED_PASSES = {"sdy-user-priority-propagate": "UserPriorityPropagationPass",
                   "sdy-import-func-calls": "ImportFuncCallsPass",
                   "sdy-export-named-computations": "ExportNamedComputationsPass",
                   "sdy-flatten-call-graph": "FlattenCallGraphPass",
                   "sdy-propagate-to-func-results": "PropagateToFuncResultsPass",
                   "sdy-constant-or-scalar-splitter": "ConstantOrScalarSplitterPass"}
PASS_TIMING_RE = re.compile(r"^timing: (\S+): ([\d.]+) ms$", re.M)


def compare(a: Path, b: Path) -> str:
    if not a.exists() or not b.exists():
        return "n/a"
    la, lb = a.read_text().splitlines(), b.read_text().splitlines()
    if la == lb:
        return "identical"
    first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
    differing = sum(x != y for x, y in zip(la, lb)) + abs(len(la) - len(lb))
    return f"DIFFERENT ({differing} lines, first at line {first + 1})"


def missing_passes(pipeline: Path) -> list[str]:
    """sdy-*/mpmd-* passes of the pipeline that sdy-dsl does not have (yet)."""
    import json

    listed = subprocess.run(sdy_dsl_command() + ["passes", "--json"], capture_output=True, text=True, cwd=REPO, env=CHILD_ENV)
    have = {row["name"] for row in json.loads(listed.stdout)}
    from ref_runner import pipeline_string  # the YAML as one pipeline string, includes expanded

    names = re.findall(r"[\w.-]+", re.sub(r"\{[^}]*\}", "", pipeline_string(str(pipeline))))
    return [n for n in names if n.startswith(("sdy-", "mpmd-")) and n not in have]


def profile(cmd: list[str], name: str, work: Path, top: int) -> None:
    import pstats

    stats_file = work / f"{name}.prof"
    script_and_args = cmd[1:] if cmd[0] == sys.executable else cmd
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats_file)] + script_and_args + ["-o", "-"],
                   stdout=subprocess.DEVNULL, cwd=REPO, env=CHILD_ENV, check=True)
    print(f"\n## cProfile of sdy-dsl on {name} ({stats_file})")
    for order in ("cumulative", "tottime"):
        print(f"-- top {top} by {order}")
        pstats.Stats(str(stats_file)).sort_stats(order).print_stats(top)


def compare_passes(slowest, dsl_of, ref_of, before_env) -> None:
    """Per pass on the module slowest against the reference (CPU ratio): sdy-dsl's --timing
    (and the before checkout's) beside the reference's own pass timing report (MLIR's, in its process; its verifier runs after
    each pass and is counted in it). One run each, back to back: wall times, so compare
    them on an idle machine."""
    module, _, name, dsl_ms = slowest
    ref_done = timed_run([*ref_of(module), "--timing"], "-")
    ref_ms: dict = {}
    for seconds, pass_name in REF_TIMING_RE.findall(ref_done.stderr):
        ref_ms[pass_name] = ref_ms.get(pass_name, 0.0) + float(seconds) * 1e3
    before_ms = {}
    if before_env is not None:
        done = timed_run([*dsl_of(module), "--timing"], "-", before_env)
        before_ms = {p: float(ms) for p, ms in PASS_TIMING_RE.findall(done.stderr)}
    print(f"\n# per pass on the module slowest against the reference, {name} (ms, one run each; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())})")
    print(f"{'pass':40} {'sdy-dsl':>9} {'reference':>9} {'ratio':>6}" + (f" {'before':>9}" if before_ms else ""))
    for dsl_name, ref_name in COMPARED_PASSES.items():
        dsl_value, ref_value = dsl_ms.get(dsl_name), ref_ms.get(ref_name)
        print(f"{dsl_name:40} {fmt(dsl_value, 9, 1)} {fmt(ref_value, 9, 1)} "
              + (f"{dsl_value / ref_value:>6.1f}" if dsl_value and ref_value else f"{'n/a':>6}")
              + (f" {fmt(before_ms.get(dsl_name), 9, 1)}" if before_ms else ""))
    print(f"{'(whole run)':40} {fmt(dsl_ms.get('total'), 9, 1)} {fmt(ref_ms.get('Total'), 9, 1)}"
          + (f" {'':6} {fmt(before_ms.get('total'), 9, 1)}" if before_ms else ""))


# --------------------------------------------------------------------------- main


def parse_modules(**counts: str) -> list[tuple[str, str, int]]:
    """(row name, kind, layers) for every module to run; counts: kind -> "n,m,..." ('' for none)."""
    return [(f"{kind}{n}", kind, int(n)) for kind, listed in counts.items() for n in listed.split(",") if n]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="sdy-dsl vs C++ Shardy on GPT grads and Flax LM train steps.")
    ap.add_argument("--layers", default="1,8,32,96", help="comma-separated GPT layer counts")
    ap.add_argument("--distinct", default="", help="comma-separated GPT layer counts, every layer a different MLP width")
    ap.add_argument("--flax", default="4", help="comma-separated Flax LM train-step layer counts ('' for none)")
    ap.add_argument("--funcs", default="", help="comma-separated counts of small private functions, each called once")
    ap.add_argument("--shared", default="",
                    help=f"comma-separated counts of call sites over {SHARED_CALLEES} small private functions")
    ap.add_argument("--moe", default="", help="comma-separated layer counts of the zoo's Mixtral-like MoE "
                    "train step, wider (hundreds of calls)")
    ap.add_argument("--moe-scan", default="", help="the same, layers in a scan (calls inside its body)")
    ap.add_argument("--zoo", default="", help="comma-separated models of tests/models/zoo.py ('all' for every one)")
    ap.add_argument("--pipeline", type=Path, default=DEFAULT_PIPELINE, help="pipeline YAML (both tools run it)")
    ap.add_argument("--pass", dest="pass_name", default=None,
                    help="instead of --pipeline: a registered pass (pipeline), `sdy-dsl opt M -PASS` against the "
                         "reference's builtin.module(PASS), e.g. sdy-propagation-pipeline")
    ap.add_argument("--before", type=Path, default=None,
                    help="another checkout of sdy-dsl (e.g. `git worktree add /tmp/sdy-before main`), timed "
                         "beside this one in the same run: the before/after columns")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per tool and module; the median is kept")
    ap.add_argument("--out", type=Path, default=DEFAULT_CACHE, help="cache dir for generated modules and outputs")
    ap.add_argument("--profile-top", type=int, default=0,
                    help="also cProfile sdy-dsl per module and print the top N functions")
    args = ap.parse_args(argv)
    modules = parse_modules(gpt=args.layers, gptd=args.distinct, flax=args.flax, funcs=args.funcs, shared=args.shared,
                            moe=args.moe, moescan=args.moe_scan)
    modules += zoo_modules(args.zoo)
    pipeline = args.pipeline.resolve()

    missing = [] if args.pass_name else missing_passes(pipeline)
    if missing:
        print(f"bench: sdy-dsl lacks {', '.join(missing)}; try --pipeline pipelines/propagation_only.yaml",
              file=sys.stderr)
        return 1

    sdy_dsl = sdy_dsl_command()
    if args.pass_name:
        dsl_of = lambda module: sdy_dsl + ["opt", str(module), f"-{args.pass_name}"]
        ref_of = lambda module: [sys.executable, str(REF_RUNNER), args.pass_name, str(module)]
    else:
        dsl_of = lambda module: sdy_dsl + ["run", str(pipeline), str(module)]
        ref_of = lambda module: [sys.executable, str(REF_RUNNER), str(pipeline), str(module)]
    label = args.pass_name or pipeline.stem
    work = args.out / "outputs" / label
    work.mkdir(parents=True, exist_ok=True)
    print(f"# {'pass ' + args.pass_name if args.pass_name else 'pipeline ' + pipeline.name}, median of "
          f"{args.repeat} fresh process(es) per tool, alternating; time = wall, cpu = user+sys, MB = peak RSS; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(f"{'module':>22} {'ops':>7} {'dsl s':>7} {'ref s':>7} {'ratio':>6} {'dsl us/op':>9} {'ref us/op':>9} "
          f"{'dsl cpu':>8} {'ref cpu':>8} {'cpu ratio':>9} {'dsl MB':>7} {'ref MB':>7} {'MB ratio':>8} "
          f"{'passes us/op':>12}  output" + (f"   {'before s':>8} {'before cpu':>10} {'before MB':>9} "
                                               f"{'cpu after/before':>16}" if args.before else ""))
    ratio = lambda a, b: a / b if a and b else None

    def row(name, ops, dsl, ref, passes_us_per_op=None, output="", before=None):
        per_op = lambda seconds: seconds * 1e6 / ops if seconds and ops else None
        get = lambda run, field: getattr(run, field) if run else None
        print(f"{name:>22} {ops:>7} {fmt(get(dsl, 'wall'), 7)} {fmt(get(ref, 'wall'), 7)} "
              f"{fmt(ratio(get(dsl, 'wall'), get(ref, 'wall')), 6, 1)} "
              f"{fmt(per_op(get(dsl, 'wall')), 9, 0) if ops else '':>9} "
              f"{fmt(per_op(get(ref, 'wall')), 9, 0) if ops else '':>9} "
              f"{fmt(get(dsl, 'cpu'), 8)} {fmt(get(ref, 'cpu'), 8)} "
              f"{fmt(ratio(get(dsl, 'cpu'), get(ref, 'cpu')), 9, 1)} "
              f"{fmt(get(dsl, 'peak_mb'), 7, 0)} {fmt(get(ref, 'peak_mb'), 7, 0)} "
              f"{fmt(ratio(get(dsl, 'peak_mb'), get(ref, 'peak_mb')), 8, 1)} "
              f"{fmt(passes_us_per_op, 12, 0) if passes_us_per_op else '':>12}  {output}"
              + (f"   {fmt(get(before, 'wall'), 8)} {fmt(get(before, 'cpu'), 10)} {fmt(get(before, 'peak_mb'), 9, 0)} "
                 f"{fmt(ratio(get(dsl, 'cpu'), get(before, 'cpu')), 16, 2)}" if args.before else ""), flush=True)

    # Fixed cost per process (interpreter, imports, rule loading): an empty main
    # (the C++ propagation aborts on a module without @main).
    empty = args.out / "empty.mlir"
    empty.write_text("module {\n  func.func @main() {\n    return\n  }\n}\n")
    before_env = env_for(args.before.resolve()) if args.before else None
    envs = [None, None, before_env] if args.before else None

    def timed(module):
        """(sdy-dsl, reference[, sdy-dsl before]) medians, alternating."""
        cmds = [dsl_of(module), ref_of(module)] + ([dsl_of(module)] if args.before else [])
        runs = median_runs(cmds, args.repeat, envs)
        return runs[0], runs[1], (runs[2] if args.before else None)

    dsl, ref, before = timed(empty)
    row("empty", 0, dsl, ref, before=before)

    per_pass_rows = []
    # (module, CPU ratio, row name, its --timing) of the module slowest against the reference
    slowest = None
    get_cpu = lambda run: run.cpu if run else None
    for name, kind, layers in modules:
        module = module_path(args.out, kind, layers)
        ops = count_ops(module)
        dsl_cmd, ref_cmd = dsl_of(module), ref_of(module)

        # One untimed run each that keeps the outputs (and sdy-dsl's per-pass times).
        dsl_out, ref_out = work / f"{name}.sdy_dsl.mlir", work / f"{name}.ref.mlir"
        for path in (dsl_out, ref_out):
            path.unlink(missing_ok=True)
        dsl_done = timed_run(dsl_cmd + ["--timing"], str(dsl_out))
        ref_done = timed_run(ref_cmd, str(ref_out))
        for tool, done in (("sdy-dsl", dsl_done), ("reference", ref_done)):
            if done.returncode != 0:
                print(f"# {tool} failed on {module.name}: {done.stderr.strip()[-2000:]}", file=sys.stderr)
        pass_ms = {p: float(ms) for p, ms in PASS_TIMING_RE.findall(dsl_done.stderr)}

        dsl, ref, before = timed(module)
        dsl, ref = (dsl if dsl_done.returncode == 0 else None), (ref if ref_done.returncode == 0 else None)
        passes_ms = sum(ms for p, ms in pass_ms.items() if p not in NOT_PASSES)
        row(name, ops, dsl, ref, passes_ms * 1e3 / ops if pass_ms else None, compare(dsl_out, ref_out), before)
        per_pass_rows.append((name, pass_ms))
        cpu_ratio = ratio(get_cpu(dsl), get_cpu(ref))
        if cpu_ratio and (slowest is None or cpu_ratio > slowest[1]):
            slowest = (module, cpu_ratio, name, pass_ms)

    names = list(dict.fromkeys(n for _, ms in per_pass_rows for n in ms))
    if names:
        print("\n# sdy-dsl per-pass time (ms, from --timing)")
        widths = [max(9, len(m)) for m, _ in per_pass_rows]
        print(f"{'pass':50} " + " ".join(f"{m:>{w}}" for (m, _), w in zip(per_pass_rows, widths)))
        for name in names:
            print(f"{name:50} " + " ".join(f"{ms.get(name, float('nan')):>{w}.1f}"
                                           for (_, ms), w in zip(per_pass_rows, widths)))
        print(f"{'(passes only)':50} " + " ".join(f"{sum(v for p, v in ms.items() if p not in NOT_PASSES):>{w}.1f}"
                                                  for (_, ms), w in zip(per_pass_rows, widths)))

    if slowest is not None:
        compare_passes(slowest, dsl_of, ref_of, before_env)

    if args.profile_top:
        for name, kind, layers in modules:
            module = module_path(args.out, kind, layers)
            profile(dsl_of(module), name, work, args.profile_top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
