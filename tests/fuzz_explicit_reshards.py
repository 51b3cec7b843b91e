"""Random differential testing of sdy-insert-explicit-reshards on real modules.

    python tests/fuzz_explicit_reshards.py --seed S --count N [--chain K] [--keep DIR]

Takes the real JAX-lowered modules (every model of tests/models/zoo.py and
every bundled example), gives `@main`'s arguments and results random valid
shardings (open/closed dimensions, priorities, sub-axes such as
`"model":(1)2`, replicated axes), runs the reference's full chain
(pipelines/shardy_full.yaml) on each, then sdy-insert-explicit-reshards in
both modes (default and enable-full-version=true) with the reference and with
`sdy-dsl opt` on that same propagated module, and reports every difference
(an error must be an error on both sides). With `--chain K`, the first K
modules also go through the whole shipped seed chain
(pipelines/shardy_full_reshards.yaml) on both sides; a module whose output
already differs after pipelines/shardy_full.yaml counts as
`chain-propagation-differs`, not as a mismatch of this pass. Inputs the reference
rejects or crashes on are skipped. With `--ops N`, N random one-op modules
(dot, reshape with overflow, concatenate, cholesky, ... with sub-axes and
unreduced axes) go through the pass in both modes too; where the reference
crashes, sdy-dsl must report an error. Not a pytest module (tests/test_fuzz_samples.py
runs a seeded sample).
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from jaxlib.mlir import ir  # noqa: E402

from fuzz_passes import in_child  # noqa: E402
from lit_runner import run_sdy_dsl  # noqa: E402
from models.zoo import MODELS, lowered  # noqa: E402
from reference import run_reference  # noqa: E402
from sdy_dsl.mlir_context import make_context  # noqa: E402
from sdy_dsl.runtime.sharding import AxisRef, DimSharding, TensorSharding  # noqa: E402
from sdy_dsl.runtime.values import MeshTable, set_func_sharding  # noqa: E402
from test_full_chain import REFERENCE_CHAIN, RESHARDS_CHAIN, RESHARDS_PIPELINE_FILE  # noqa: E402

ROOT = HERE.parent
STEPS = {
    "default": "builtin.module(func.func(sdy-insert-explicit-reshards))",
    "full-version": "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))",
}


def sources() -> list[tuple[str, str]]:
    out = [(name, lowered(name)) for name in sorted(MODELS)]
    out += [(p.name, p.read_text()) for p in sorted((ROOT / "examples").glob("*.mlir"))]
    return out


def _axis_pieces(name: str, size: int, rng: random.Random) -> list[AxisRef]:
    """The axis whole, or split into consecutive sub-axes (a random factorization)."""
    if size < 4 or rng.random() < 0.6:
        return [AxisRef(name)]
    pieces, pre = [], 1
    while pre < size:
        options = [d for d in range(2, size // pre + 1) if (size // pre) % d == 0]
        d = rng.choice(options)
        pieces.append(AxisRef(name, pre, d) if not (pre == 1 and d == size) else AxisRef(name))
        pre *= d
    return pieces


def random_sharding(mesh_name: str, axes: dict[str, int], rank: int, rng: random.Random) -> TensorSharding:
    pool: list[AxisRef] = []
    for name, size in axes.items():
        if size > 1:
            pieces = _axis_pieces(name, size, rng)
            # A prefix of the pieces (a sub-axis without its predecessor is fine, but keep
            # them in order so no two adjacent ones could merge within one dimension).
            pool.extend(pieces[:rng.randint(0, len(pieces))])
    rng.shuffle(pool)
    dims = []
    for _ in range(rank):
        take = []
        while pool and rng.random() < 0.45:
            axis = pool.pop()
            last = take[-1] if take else None
            if last is not None and last.is_sub_axis and axis.is_sub_axis and last.name == axis.name \
                    and last.pre_size * last.sub_size == axis.pre_size:
                pool.insert(0, axis)  # two consecutive sub-axes would have to be merged
                break
            take.append(axis)
        closed = rng.random() < 0.5
        priority = rng.choice([None, None, 0, 1, 2]) if take or not closed else None
        dims.append(DimSharding(tuple(take), closed, priority))
    replicated = tuple(sorted((a for a in pool if rng.random() < 0.3 and not a.is_sub_axis),
                              key=lambda a: list(axes).index(a.name)))
    return TensorSharding(mesh_name, tuple(dims), replicated)


def randomize(text: str, rng: random.Random) -> str | None:
    """`text` with random shardings on @main's arguments and results (None: no mesh)."""
    with make_context():
        module = ir.Module.parse(text)
        meshes = MeshTable(module.operation)
        named = [(n, m) for n, m in meshes.meshes.items() if m.axes]
        main = next((op.operation for op in module.body.operations
                     if op.operation.name == "func.func"
                     and ir.StringAttr(op.operation.attributes["sym_name"]).value == "main"), None)
        if not named or main is None:
            return None
        mesh_name, mesh = rng.choice(named)
        axes = {a.name: a.size for a in mesh.axes}
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        for key, types in (("arg_attrs", ftype.inputs), ("res_attrs", ftype.results)):
            for i, t in enumerate(types):
                if not isinstance(t, ir.RankedTensorType) or rng.random() < 0.15:
                    continue
                set_func_sharding(main, key, i, random_sharding(mesh_name, axes, t.rank, rng))
        return str(module)


# ---------------------------------------------------------------- single ops (--ops N)


OPS_MESH = {"x": 2, "y": 2, "z": 4}
OPS_MESH_TEXT = 'sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>'


def _axis_pool(rng: random.Random) -> list[str]:
    """The mesh's axes (an axis of size 4 sometimes as its two sub-axes), shuffled."""
    pool = []
    for name, size in OPS_MESH.items():
        if size == 4 and rng.random() < 0.3:
            pool += [f'"{name}":(1)2', f'"{name}":(2)2']
        else:
            pool.append(f'"{name}"')
    rng.shuffle(pool)
    return pool


def _op_sharding(rng: random.Random, rank: int) -> str:
    """`<@mesh, [...]>` with random dimension axes and sometimes an unreduced axis."""
    pool = _axis_pool(rng)
    dims = []
    for _ in range(rank):
        take: list[str] = []
        while pool and rng.random() < 0.4:
            axis = pool.pop()
            if take and take[-1].split(":")[0] == axis.split(":")[0]:
                pool.insert(0, axis)  # two pieces of one axis in a dimension would merge
                break
            take.append(axis)
        dims.append("{" + ", ".join(take) + "}")
    unreduced = [a for a in pool if ":" not in a][:1] if rng.random() < 0.15 else []
    extra = ", unreduced={" + unreduced[0] + "}" if unreduced else ""
    return "<@mesh, [" + ", ".join(dims) + "]" + extra + ">"


def _ttype(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


RESHAPES = [((4, 6), (24,)), ((24,), (2, 12)), ((8, 3), (4, 6)), ((6, 4), (3, 8)), ((12,), (3, 4)),
            ((2, 3, 4), (6, 4)), ((16,), (4, 4)), ((4, 4), (2, 8))]


def single_op_module(rng: random.Random) -> str:
    """One random op (dot, batched dot, reshape, transpose, concatenate, reduce,
    cholesky, slice, add, broadcast) with random shardings, sub-axes and unreduced axes."""
    kind = rng.choice(["dot", "bdot", "reshape", "transpose", "concat", "reduce", "cholesky", "slice",
                       "add", "bcast"])
    args: list[tuple] = []

    def arg(shape) -> str:
        args.append((shape, _op_sharding(rng, len(shape)) if rng.random() < 0.85 else None))
        return f"%arg{len(args) - 1}"

    def attrs(shape) -> str:
        if rng.random() < 0.1:
            return ""
        return f"{{sdy.sharding = #sdy.sharding_per_value<[{_op_sharding(rng, len(shape))}]>}}"

    def size() -> int:
        return rng.choice([2, 4, 8, 6, 3])

    t = _ttype
    if kind == "dot":
        m, k, n = size(), size(), size()
        a, b, out = arg((m, k)), arg((k, n)), (m, n)
        body = (f"stablehlo.dot_general {a}, {b}, contracting_dims = [1] x [0] {attrs(out)} : "
                f"({t((m, k))}, {t((k, n))}) -> {t(out)}")
    elif kind == "bdot":
        bb, m, k, n = size(), size(), size(), size()
        a, b, out = arg((bb, m, k)), arg((bb, k, n)), (bb, m, n)
        body = (f"stablehlo.dot_general {a}, {b}, batching_dims = [0] x [0], contracting_dims = [2] x [1] "
                f"{attrs(out)} : ({t((bb, m, k))}, {t((bb, k, n))}) -> {t(out)}")
    elif kind == "reshape":
        shape, out = rng.choice(RESHAPES)
        if rng.random() < 0.5:
            shape, out = out, shape
        body = f"stablehlo.reshape {arg(shape)} {attrs(out)} : ({t(shape)}) -> {t(out)}"
    elif kind == "transpose":
        shape = (size(), size(), size())
        out = (shape[2], shape[0], shape[1])
        body = f"stablehlo.transpose {arg(shape)}, dims = [2, 0, 1] {attrs(out)} : ({t(shape)}) -> {t(out)}"
    elif kind == "concat":
        shape = (size(), 4)
        a, b, out = arg(shape), arg(shape), (shape[0], 8)
        body = f"stablehlo.concatenate {a}, {b}, dim = 1 {attrs(out)} : ({t(shape)}, {t(shape)}) -> {t(out)}"
    elif kind == "reduce":
        shape = (size(), size())
        a, out = arg(shape), (shape[0],)
        args.append(((), None))
        body = (f"stablehlo.reduce({a} init: %arg{len(args) - 1}) applies stablehlo.add across dimensions = [1] "
                f"{attrs(out)} : ({t(shape)}, tensor<f32>) -> {t(out)}")
    elif kind == "cholesky":
        n = rng.choice([2, 4, 8])
        shape = out = (size(), n, n)
        body = f"stablehlo.cholesky {arg(shape)}, lower = true {attrs(out)} : {t(shape)}"
    elif kind == "slice":
        shape, out = (8, 8), (4, 8)
        body = f"stablehlo.slice {arg(shape)} [2:6, 0:8] {attrs(out)} : ({t(shape)}) -> {t(out)}"
    elif kind == "add":
        shape = out = (size(), size())
        body = f"stablehlo.add {arg(shape)}, {arg(shape)} {attrs(out)} : {t(shape)}"
    else:
        shape = (size(),)
        out = (shape[0], size())
        body = f"stablehlo.broadcast_in_dim {arg(shape)}, dims = [0] {attrs(out)} : ({t(shape)}) -> {t(out)}"
    signature = ", ".join(f"%arg{i}: {t(shape)}" + (f" {{sdy.sharding = #sdy.sharding{s}}}" if s else "")
                          for i, (shape, s) in enumerate(args))
    result = f" {{sdy.sharding = #sdy.sharding{_op_sharding(rng, len(out))}}}" if rng.random() < 0.5 else ""
    return (f"{OPS_MESH_TEXT}\nfunc.func @f({signature}) -> ({t(out)}{result}) {{\n"
            f"  %0 = {body}\n  return %0 : {t(out)}\n}}\n")


def fuzz_single_ops(rng: random.Random, count: int, tmp: Path, keep: str) -> dict:
    """Random one-op modules through the pass in both modes; an error must be an error on both sides."""
    stats = {"ops-same": 0, "ops-both-error": 0, "ops-reference-crash": 0, "ops-mismatch": 0}
    for i in range(count):
        text = single_op_module(rng)
        for step in STEPS.values():
            alive, res = _ref(text, step)
            rc, out = _ours(text, ["opt", f"--pass-pipeline={step}"], tmp)
            if not alive or not isinstance(res, tuple):
                stats["ops-reference-crash"] += 1  # ours must then report an error
                key = "ops-both-error" if rc else "ops-mismatch"
            elif res[0] is not True:
                key = "ops-both-error" if rc else "ops-mismatch"
            else:
                key = "ops-same" if rc == 0 and out == res[1] else "ops-mismatch"
            stats[key] += 1
            if key == "ops-mismatch":
                print(f"OPS MISMATCH #{i} {step}\n{text}")
                if keep:
                    d = Path(keep) / f"ops_{i}"
                    d.mkdir(parents=True, exist_ok=True)
                    (d / "in.mlir").write_text(text)
                    (d / "actual.mlir").write_text(out)
                    (d / "stderr.txt").write_text(LAST_ERROR[0])
    return stats


def _ref(text: str, pipeline: str):
    return in_child(run_reference, text, pipeline)


LAST_ERROR = [""]


def _ours(text: str, argv: list[str], tmp: Path) -> tuple[int, str]:
    """`sdy-dsl COMMAND [PIPELINE_FILE] IN [FLAGS]` in-process: (exit code, stdout)."""
    path = tmp / "in.mlir"
    path.write_text(text)
    command, rest = argv[0], argv[1:]
    files = [a for a in rest if not a.startswith("-")]
    flags = [a for a in rest if a.startswith("-")]
    rc, out, err = run_sdy_dsl([command, *files, str(path), *flags])
    LAST_ERROR[0] = err
    return rc, out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--chain", type=int, default=0, help="also compare the whole seed chain on the first K")
    ap.add_argument("--keep", default="", help="directory for mismatching inputs/outputs")
    ap.add_argument("--ops", type=int, default=0, help="also N random one-op modules (no real module)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    mods = sources()
    stats = {"modules": 0, "invalid": 0, "same": 0, "mismatch": 0, "reshards": 0,
             "chain-same": 0, "chain-mismatch": 0, "chain-propagation-differs": 0, "chain-skip": 0}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for i in range(args.count):
            name, text = mods[rng.randrange(len(mods))]
            case = randomize(text, rng)
            stats["modules"] += 1
            alive, res = _ref(case, REFERENCE_CHAIN) if case else (False, None)
            if not alive or not isinstance(res, tuple) or res[0] is not True:
                stats["invalid"] += 1
                continue
            propagated = res[1]
            for mode, step in STEPS.items():
                alive, res = _ref(propagated, step)
                ref_ok = alive and isinstance(res, tuple) and res[0] is True
                rc, out = _ours(propagated, ["opt", f"--pass-pipeline={step}"], tmp)
                if ref_ok and rc == 0 and out == res[1]:
                    stats["same"] += 1
                    stats["reshards"] += out.count("sdy.reshard ") + out.count("sdy.all_reduce ")
                    continue
                if not ref_ok and rc != 0:
                    stats["same"] += 1
                    continue
                stats["mismatch"] += 1
                print(f"MISMATCH #{i} {name} {mode}: reference {'ok' if ref_ok else 'failed'}, ours rc={rc}")
                if args.keep:
                    d = Path(args.keep) / f"{i}_{mode}"
                    d.mkdir(parents=True, exist_ok=True)
                    (d / "in.mlir").write_text(propagated)
                    (d / "expected.mlir").write_text(res[1] if ref_ok else "<error>")
                    (d / "actual.mlir").write_text(out)
                    (d / "stderr.txt").write_text(LAST_ERROR[0])
            if i < args.chain:
                alive, res = _ref(case, RESHARDS_CHAIN)
                if not alive or not isinstance(res, tuple) or res[0] is not True:
                    stats["chain-skip"] += 1
                    continue
                rc, out = _ours(case, ["run", str(RESHARDS_PIPELINE_FILE)], tmp)
                chain_error = LAST_ERROR[0]
                key = "chain-same" if rc == 0 and out == res[1] else "chain-mismatch"
                if key == "chain-mismatch":
                    # Already different before the explicit reshards (propagation parity)?
                    rc2, before = _ours(case, ["run", str(RESHARDS_PIPELINE_FILE.parent / "shardy_full.yaml")], tmp)
                    if rc2 != 0 or before != propagated:
                        key = "chain-propagation-differs"
                stats[key] += 1
                if key == "chain-mismatch":
                    print(f"CHAIN MISMATCH #{i} {name}")
                    if args.keep:
                        d = Path(args.keep) / f"{i}_chain"
                        d.mkdir(parents=True, exist_ok=True)
                        (d / "in.mlir").write_text(case)
                        (d / "expected.mlir").write_text(res[1])
                        (d / "actual.mlir").write_text(out)
                        (d / "stderr.txt").write_text(chain_error)
            if (i + 1) % 50 == 0:
                print(f"[{i + 1}/{args.count}] " + " ".join(f"{k}={v}" for k, v in stats.items()), flush=True)
        if args.ops:
            stats.update(fuzz_single_ops(rng, args.ops, tmp, args.keep))
    print(" ".join(f"{k}={v}" for k, v in stats.items()))
    return 1 if stats["mismatch"] or stats["chain-mismatch"] or stats.get("ops-mismatch") else 0  # propagation parity is measured elsewhere


if __name__ == "__main__":
    sys.exit(main())
