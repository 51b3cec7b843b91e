"""Random differential testing of sdy-reshard-to-collectives (and the
collective canonicalization after it) against the C++ reference.

    python tests/fuzz_reshard_to_collectives.py --seed S --count N [--funcs K] [--keep DIR]
    python tests/fuzz_reshard_to_collectives.py --zoo

Each case is a module with a random mesh (1-4 axes of sizes 1, 2, 3, 4, 6, 8;
sometimes a second mesh with the same axes in another device order) and K
functions, each resharding its argument (a random closed sharding: whole
axes or sub-axes of a random factorization, shared unreduced axes, sometimes
through a propagation barrier) to another random sharding of the same
tensor (dimension sizes that the axes divide or not). Both sides run
`-sdy-reshard-to-collectives` (with and without keep-redundant-reshards) and
the export pipeline's `canonicalize{enable-patterns={sdy-collective}}` after
it; the outputs must be identical. A module the reference crashes on is
split into its functions and each one compared on its own. `--zoo`: every
zoo model and example, propagated by the reference, through Shardy's export
with explicit collectives on both sides (see zoo_case). Not a pytest
module (tests/test_reshard_to_collectives.py runs a seeded sample).
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from fuzz_passes import in_child  # noqa: E402
from reference import run_reference  # noqa: E402
from sdy_dsl.api import run_pipeline  # noqa: E402
from sdy_dsl.errors import SdyDslError  # noqa: E402
from sdy_dsl.runtime.sharding import AxisRef, DimSharding, TensorSharding  # noqa: E402

CANONICALIZE = ("canonicalize{cse-between-iterations=false  enable-patterns={sdy-collective}  max-iterations=10 "
                "max-num-rewrites=-1 region-simplify=aggressive test-convergence=false top-down=false}")
PIPELINES = {
    "default": "builtin.module(func.func(sdy-reshard-to-collectives))",
    "keep-redundant": "builtin.module(func.func(sdy-reshard-to-collectives{keep-redundant-reshards=true}))",
    "canonicalized": f"builtin.module(func.func(sdy-reshard-to-collectives),{CANONICALIZE})",
}
SIZES = [1, 2, 2, 2, 3, 4, 4, 6, 8]
DIM_SIZES = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]


def random_mesh(rng: random.Random) -> dict[str, int]:
    names = ["x", "y", "z", "w"][:rng.randint(1, 4)]
    return {n: rng.choice(SIZES) for n in names}


def factorization(name: str, size: int, rng: random.Random) -> list[AxisRef]:
    """The axis as consecutive sub-axes of a random factorization (one per
    module: two factorizations of a 6 as 2x3 and 3x2 cannot coexist)."""
    if size < 4:
        return [AxisRef(name)]
    out, pre = [], 1
    while pre < size:
        rest = size // pre
        d = rng.choice([f for f in range(2, rest + 1) if rest % f == 0])
        out.append(AxisRef(name) if pre == 1 and d == size else AxisRef(name, pre, d))
        pre *= d
    return out


def random_dims(axes: dict[str, int], rank: int, rng: random.Random, factors: dict,
                exclude: tuple = ()) -> tuple[DimSharding, ...]:
    """Closed dimension shardings using a random subset of the mesh's (sub-)axes:
    an axis whole, or pieces of its module-wide factorization."""
    pool = []
    for name, size in axes.items():
        if size > 1 and name not in exclude:
            pieces = factors[name] if rng.random() < 0.5 else [AxisRef(name)]
            pool += [p for p in pieces if rng.random() < 0.7]
    rng.shuffle(pool)
    dims: list[list[AxisRef]] = [[] for _ in range(rank)]
    for axis in pool:
        if rank == 0 or rng.random() < 0.2:
            continue
        d = dims[rng.randrange(rank)]
        if d and d[-1].is_sub_axis and axis.is_sub_axis and d[-1].name == axis.name \
                and d[-1].pre_size * d[-1].sub_size == axis.pre_size:
            continue  # two mergeable sub-axes in a row are invalid
        d.append(axis)
    return tuple(DimSharding(tuple(d), True) for d in dims)


def random_func(i: int, meshes: list[str], axes: dict[str, int], factors: dict, rng: random.Random) -> str:
    rank = rng.randint(1, 3)
    shape = [rng.choice(DIM_SIZES) for _ in range(rank)]
    ttype = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    unreduced = ()
    if rng.random() < 0.15:
        big = [n for n, s in axes.items() if s > 1]
        if big:
            unreduced = (AxisRef(rng.choice(big)),)
    excl = tuple(a.name for a in unreduced)
    src_mesh = meshes[0]
    dst_mesh = rng.choice(meshes)
    src = TensorSharding(src_mesh, random_dims(axes, rank, rng, factors, excl), unreduced=unreduced)
    if rng.random() < 0.15:
        dst_dims = src.dims  # a redundant reshard
    elif rng.random() < 0.1:
        dst_dims = tuple(DimSharding((), True) for _ in range(rank))
    else:
        dst_dims = random_dims(axes, rank, rng, factors, excl)
    dst = TensorSharding(dst_mesh, dst_dims, unreduced=unreduced)
    body = [f"func.func @f{i}(%arg0: {ttype} {{sdy.sharding = {src.text()}}}) -> {ttype} {{"]
    operand = "%arg0"
    if rng.random() < 0.15:
        body.append(f"  %b = sdy.propagation_barrier %arg0 allowed_direction=NONE : {ttype}")
        operand = "%b"
    body.append(f"  %r = sdy.reshard {operand} <@{dst.body_text()[1:]}> : {ttype}")
    body.append(f"  return %r : {ttype}")
    body.append("}")
    return "\n".join(body)


def random_module(rng: random.Random, funcs: int) -> tuple[str, list[str]]:
    """(module text, its functions' texts)."""
    axes = random_mesh(rng)
    total = 1
    for s in axes.values():
        total *= s
    body = ", ".join(f'"{n}"={s}' for n, s in axes.items())
    header = [f"sdy.mesh @mesh = <[{body}]>"]
    meshes = ["mesh"]
    if total > 1 and rng.random() < 0.3:
        ids = list(range(total))
        rng.shuffle(ids)
        if ids != sorted(ids):
            header.append(f"sdy.mesh @mesh_p = <[{body}], device_ids=[{', '.join(map(str, ids))}]>")
            meshes.append("mesh_p")
    factors = {n: factorization(n, s, rng) for n, s in axes.items()}
    fs = [random_func(i, meshes, axes, factors, rng) for i in range(funcs)]
    return "\n".join(header), fs


def merged_module(modules: list[tuple[str, list[str]]]) -> str:
    """One module holding the functions of several random modules, each with
    its own meshes (renamed `@mesh_<k>`, `@mesh_p_<k>`) and functions
    (`@m<k>_f<i>`): many meshes, as in many small modules, for one pipeline
    run (most of a small module's time is the run's fixed cost)."""
    parts = []
    for k, (header, funcs) in enumerate(modules):
        text = header + "\n" + "\n".join(funcs)
        text = re.sub(r"@(mesh(?:_p)?)\b", rf"@\1_{k}", text)
        parts.append(re.sub(r"@f(\d+)\(", rf"@m{k}_f\1(", text))
    return "\n".join(parts)


def ours(text: str, pipeline: str) -> tuple[bool, str]:
    try:
        out = run_pipeline(text, pipeline)
    except SdyDslError as e:
        return False, str(e)
    return True, out.text.rstrip("\n") + "\n"


def compare(text: str, pipeline: str, isolate: bool = True) -> str:
    """'same', 'crash' (the reference dies), or 'mismatch'. ISOLATE: run the
    reference in a forked child (False: in-process, for inputs known not to
    crash it; a fork after JAX started its threads may deadlock)."""
    alive, ref = in_child(run_reference, text, pipeline) if isolate else (True, run_reference(text, pipeline))
    return verdict(text, pipeline, ref if alive else None)


def verdict(text: str, pipeline: str, ref) -> str:
    """compare's answer given the reference's result REF (None: it died)."""
    if not isinstance(ref, tuple) or ref[0] == "exception":
        return "crash"
    ok, out = ours(text, pipeline)
    if ref[0] is not True:
        return "same" if not ok else "mismatch"
    return "same" if ok and out == ref[1] else "mismatch"


def check_case(header: str, funcs: list[str], pipeline: str, isolate: bool = True) -> list[tuple[str, str]]:
    """[(kind, module text)] per compared unit: the whole module, or each function when the reference crashes."""
    text = header + "\n" + "\n".join(funcs)
    kind = compare(text, pipeline, isolate)
    if kind != "crash":
        return [(kind, text)]
    out = []
    for f in funcs:
        single = header + "\n" + f
        out.append((compare(single, pipeline), single))
    return out


def check_merged(modules: list[tuple[str, list[str]]], pipeline: str) -> list[tuple[str, str]]:
    """[(kind, module text)]: MODULES merged into one (merged_module) and
    compared in-process; a merge the reference rejects is halved until the
    modules it rejects stand alone, so one rejected function does not hide
    the rest."""
    text = merged_module(modules)
    ref = run_reference(text, pipeline)
    if ref[0] is True or len(modules) == 1:
        return [(verdict(text, pipeline, ref), text)]
    half = len(modules) // 2
    return check_merged(modules[:half], pipeline) + check_merged(modules[half:], pipeline)


def zoo_case(text: str, isolate: bool = True) -> str:
    """A real module through the C++ propagation chain, then Shardy's export
    with explicit collectives (sdy_dsl/cost.py's chain: explicit reshards,
    both canonicalizations, reshard-to-collectives) on both sides: 'same',
    'mismatch' or 'skip' (the reference fails)."""
    from sdy_dsl.cost import EXPLICIT_COLLECTIVES
    from test_full_chain import REFERENCE_CHAIN
    alive, res = in_child(run_reference, text, REFERENCE_CHAIN) if isolate else \
        (True, run_reference(text, REFERENCE_CHAIN))
    if not alive or not isinstance(res, tuple) or res[0] is not True:
        return "skip"
    return compare(res[1], EXPLICIT_COLLECTIVES, isolate).replace("crash", "skip")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--funcs", type=int, default=20)
    ap.add_argument("--keep", default="")
    ap.add_argument("--modes", default=",".join(PIPELINES))
    ap.add_argument("--zoo", action="store_true", help="every zoo model and example through the export chain")
    args = ap.parse_args()
    if args.zoo:
        from models.zoo import MODELS, lowered
        sources = [(n, lambda n=n: lowered(n)) for n in sorted(MODELS)]
        sources += [(p.name, p.read_text) for p in sorted((HERE.parent / "examples").glob("*.mlir"))]
        kinds = {}
        for name, text in sources:
            kind = zoo_case(text())
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind != "same":
                print(kind.upper(), name)
        print(kinds)
        return 1 if kinds.get("mismatch") else 0
    rng = random.Random(args.seed)
    stats: dict[str, int] = {}
    for i in range(args.count):
        header, funcs = random_module(rng, args.funcs)
        for mode in args.modes.split(","):
            pipeline = PIPELINES[mode]
            for kind, text in check_case(header, funcs, pipeline):
                stats[kind] = stats.get(kind, 0) + 1
                if kind == "mismatch":
                    print(f"MISMATCH case {i} {mode}")
                    if args.keep:
                        d = Path(args.keep)
                        d.mkdir(parents=True, exist_ok=True)
                        (d / f"{i}_{mode}.mlir").write_text(text)
    print(stats)
    return 1 if stats.get("mismatch") else 0


if __name__ == "__main__":
    sys.exit(main())
