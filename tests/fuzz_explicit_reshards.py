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
rejects or crashes on are skipped. Not a pytest module (no `test_` prefix).
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
    print(" ".join(f"{k}={v}" for k, v in stats.items()))
    return 1 if stats["mismatch"] or stats["chain-mismatch"] else 0  # propagation parity is measured elsewhere


if __name__ == "__main__":
    sys.exit(main())
