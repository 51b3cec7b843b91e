"""Benchmark: sdy-dsl vs the C++ Shardy passes on JAX-lowered GPT modules of growing depth.

For each module: op count, whole-process wall time of `sdy-dsl run PIPELINE MODULE`
and of the reference runner (benchmarks/ref_runner.py, jaxlib's PassManager), each a
fresh subprocess; their ratio; microseconds per op; whether both outputs are
byte-identical; and sdy-dsl's per-pass times (`--timing`).

    python benchmarks/bench_pipeline.py [--layers 1,2,4,8,16,32] [--pipeline FILE]
                                        [--repeat N] [--out DIR] [--profile-top N]

Modules are lowered here with jax (GPT grad, d=128, f=512, 4 heads, vocab 512,
batch 8, seq 32, 2x4 mesh ("data", "model")) and cached in --out.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

# 8 fake CPU devices for the 2x4 mesh; must be set before jax is imported.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")  # no PjRt device listing

REPO = Path(__file__).resolve().parent.parent
REF_RUNNER = Path(__file__).resolve().parent / "ref_runner.py"
DEFAULT_PIPELINE = REPO / "pipelines" / "shardy_full_reshards.yaml"  # the whole seed chain
DEFAULT_CACHE = Path("/tmp/sdy_dsl_bench_modules")
GPT = dict(d=128, f=512, heads=4, vocab=512, batch=8, seq=32)


# --------------------------------------------------------------------------- module generation


def lower_gpt_grad(layers: int) -> str:
    """StableHLO+sdy text of grad(GPT loss) w.r.t. params and embedding, jitted on a 2x4 mesh."""
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

    shapes = {"wq": (d, d), "wk": (d, d), "wv": (d, d), "wo": (d, d),
              "w1": (d, f), "w2": (f, d), "g1": (d,), "g2": (d,)}
    specs = {"wq": (None, "model"), "wk": (None, "model"), "wv": (None, "model"), "wo": ("model", None),
             "w1": (None, "model"), "w2": ("model", None), "g1": (None,), "g2": (None,)}
    params = [{k: jnp.ones(shape, jnp.float32) for k, shape in shapes.items()} for _ in range(layers)]
    param_shardings = [{k: on_mesh(*spec) for k, spec in specs.items()} for _ in range(layers)]
    embedding, tokens = jnp.ones((vocab, d), jnp.float32), jnp.ones((batch, seq), jnp.int32)
    jitted = jax.jit(jax.grad(loss, argnums=(0, 1)),
                     in_shardings=(param_shardings, on_mesh(None, "model"), on_mesh("data", None)))
    return jitted.lower(params, embedding, tokens).as_text()


def module_path(cache: Path, layers: int) -> Path:
    """Cached module; generated on first use."""
    config = "_".join(f"{k}{v}" for k, v in GPT.items())
    path = cache / f"gpt{layers}l_grad_2x4_{config}.mlir"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        text = lower_gpt_grad(layers)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
        print(f"# generated {path.name} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return path


def count_ops(path: Path) -> int:
    """Every operation in the module, nested ones included (module and funcs too)."""
    from jaxlib.mlir import ir
    from jaxlib.mlir._mlir_libs import _jax_mlir_ext
    from jaxlib.mlir.dialects import sdy, stablehlo

    ctx = ir.Context()
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    sdy.register_dialect(ctx)
    stablehlo.register_dialect(ctx)
    with ctx:
        module = ir.Module.parse(path.read_text())
        count = 0

        def visit(_op):
            nonlocal count
            count += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return count


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


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(cmd: list[str], out: str) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall time of a fresh process. `-o -` into DEVNULL rather than `-o /dev/null`:
    sdy-dsl writes -o targets atomically (temp file + rename), which would replace
    the /dev/null device node itself when run as root."""
    cpu0, t0 = children_cpu(), time.perf_counter()
    done = subprocess.run(cmd + ["-o", out], stdout=subprocess.DEVNULL if out == "-" else None,
                          stderr=subprocess.PIPE, text=True, cwd=REPO)
    return time.perf_counter() - t0, children_cpu() - cpu0, done


def min_times(cmd: list[str], repeat: int) -> tuple[float | None, float | None]:
    """(min wall, min CPU) seconds over `repeat` fresh processes; CPU time (user+sys)
    is the steadier figure on a machine shared with other jobs."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu, done = timed_run(cmd, "-")
        if done.returncode != 0:
            return None, None
        walls.append(wall)
        cpus.append(cpu)
    return min(walls), min(cpus)


def fmt(value, width, places=2) -> str:
    return f"{value:>{width}.{places}f}" if value is not None else f"{'fail':>{width}}"


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

    listed = subprocess.run(sdy_dsl_command() + ["passes", "--json"], capture_output=True, text=True, cwd=REPO)
    have = {row["name"] for row in json.loads(listed.stdout)}
    from ref_runner import pipeline_string  # the YAML as one pipeline string, includes expanded

    names = re.findall(r"[\w.-]+", re.sub(r"\{[^}]*\}", "", pipeline_string(str(pipeline))))
    return [n for n in names if n.startswith(("sdy-", "mpmd-")) and n not in have]


def profile(cmd: list[str], layers: int, work: Path, top: int) -> None:
    import pstats

    stats_file = work / f"gpt{layers}l.prof"
    script_and_args = cmd[1:] if cmd[0] == sys.executable else cmd
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats_file)] + script_and_args + ["-o", "-"],
                   stdout=subprocess.DEVNULL, cwd=REPO, check=True)
    print(f"\n## cProfile of sdy-dsl on {layers} layers ({stats_file})")
    for order in ("cumulative", "tottime"):
        print(f"-- top {top} by {order}")
        pstats.Stats(str(stats_file)).sort_stats(order).print_stats(top)


# --------------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="sdy-dsl vs C++ Shardy on GPT modules of 1..32 layers.")
    ap.add_argument("--layers", default="1,2,4,8,16,32", help="comma-separated layer counts")
    ap.add_argument("--pipeline", type=Path, default=DEFAULT_PIPELINE, help="pipeline YAML (both tools run it)")
    ap.add_argument("--repeat", type=int, default=1, help="timed runs per tool and module; the min is kept")
    ap.add_argument("--out", type=Path, default=DEFAULT_CACHE, help="cache dir for generated modules and outputs")
    ap.add_argument("--profile-top", type=int, default=0,
                    help="also cProfile sdy-dsl per module and print the top N functions")
    args = ap.parse_args(argv)
    layer_counts = [int(x) for x in args.layers.split(",")]
    pipeline = args.pipeline.resolve()

    missing = missing_passes(pipeline)
    if missing:
        print(f"bench: sdy-dsl lacks {', '.join(missing)}; try --pipeline pipelines/propagation_only.yaml",
              file=sys.stderr)
        return 1

    sdy_dsl = sdy_dsl_command()
    work = args.out / "outputs" / pipeline.stem
    work.mkdir(parents=True, exist_ok=True)
    print(f"# pipeline {pipeline.name}, min of {args.repeat} run(s), whole-process wall time")
    header = (f"{'layers':>6} {'ops':>7} {'sdy-dsl s':>10} {'ref s':>7} {'ratio':>7} {'us/op':>7} "
              f"{'dsl cpu s':>10} {'ref cpu s':>10} {'cpu ratio':>10} {'cpu us/op':>10} {'passes us/op':>12}  output")
    print(header)
    # Fixed cost per process (interpreter, imports, rule loading): an empty main
    # (the C++ propagation aborts on a module without @main).
    empty = args.out / "empty.mlir"
    empty.write_text("module {\n  func.func @main() {\n    return\n  }\n}\n")
    dsl_empty = min_times(sdy_dsl + ["run", str(pipeline), str(empty)], args.repeat)
    ref_empty = min_times([sys.executable, str(REF_RUNNER), str(pipeline), str(empty)], args.repeat)
    print(f"{'empty':>6} {0:>7} {fmt(dsl_empty[0], 10)} {fmt(ref_empty[0], 7)} {'':>7} {'':>7} "
          f"{fmt(dsl_empty[1], 10)} {fmt(ref_empty[1], 10)}", flush=True)
    per_pass_rows = []
    for layers in layer_counts:
        module = module_path(args.out, layers)
        ops = count_ops(module)
        dsl_cmd = sdy_dsl + ["run", str(pipeline), str(module)]
        ref_cmd = [sys.executable, str(REF_RUNNER), str(pipeline), str(module)]

        # One untimed run each that keeps the outputs (and sdy-dsl's per-pass times).
        dsl_out, ref_out = work / f"gpt{layers}l.sdy_dsl.mlir", work / f"gpt{layers}l.ref.mlir"
        for path in (dsl_out, ref_out):
            path.unlink(missing_ok=True)
        *_, dsl_done = timed_run(dsl_cmd + ["--timing"], str(dsl_out))
        *_, ref_done = timed_run(ref_cmd, str(ref_out))
        for name, done in (("sdy-dsl", dsl_done), ("reference", ref_done)):
            if done.returncode != 0:
                print(f"# {name} failed on {module.name}: {done.stderr.strip()[-2000:]}", file=sys.stderr)
        pass_ms = {name: float(ms) for name, ms in PASS_TIMING_RE.findall(dsl_done.stderr)}

        dsl_s, dsl_cpu = min_times(dsl_cmd, args.repeat) if dsl_done.returncode == 0 else (None, None)
        ref_s, ref_cpu = min_times(ref_cmd, args.repeat) if ref_done.returncode == 0 else (None, None)
        ratio = lambda a, b: a / b if a and b else None
        per_op = lambda seconds: seconds * 1e6 / ops if seconds else None
        passes_us_per_op = sum(pass_ms.values()) * 1e3 / ops if pass_ms else None
        print(f"{layers:>6} {ops:>7} {fmt(dsl_s, 10)} {fmt(ref_s, 7)} {fmt(ratio(dsl_s, ref_s), 7, 1)} "
              f"{fmt(per_op(dsl_s), 7, 0)} {fmt(dsl_cpu, 10)} {fmt(ref_cpu, 10)} "
              f"{fmt(ratio(dsl_cpu, ref_cpu), 10, 1)} {fmt(per_op(dsl_cpu), 10, 0)} "
              f"{fmt(passes_us_per_op, 12, 0)}  {compare(dsl_out, ref_out)}", flush=True)
        per_pass_rows.append((layers, pass_ms))

    names = list(dict.fromkeys(n for _, ms in per_pass_rows for n in ms))
    if names:
        print("\n# sdy-dsl per-pass time (ms, from --timing)")
        print(f"{'pass':50} " + " ".join(f"{str(l) + 'L':>9}" for l, _ in per_pass_rows))
        for name in names:
            print(f"{name:50} " + " ".join(f"{ms.get(name, float('nan')):>9.1f}" for _, ms in per_pass_rows))
        print(f"{'(sum)':50} " + " ".join(f"{sum(ms.values()):>9.1f}" for _, ms in per_pass_rows))

    if args.profile_top:
        for layers in layer_counts:
            module = module_path(args.out, layers)
            profile(sdy_dsl + ["run", str(pipeline), str(module)], layers, work, args.profile_top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
