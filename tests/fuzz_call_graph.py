"""Random differential testing of what the call-graph passes see, against the C++ reference.

    python tests/fuzz_call_graph.py --seed S --count N [--passes a,b] [--keep DIR] [--reduce] [-v]

Generates N seeded random modules made of `func.call` graphs: callees shared
by several calls, nested calls (a callee calling deeper callees), calls inside
`while` bodies and `case` branches and inside `sdy.named_computation`s, calls
with result shardings, sharded and unsharded function signatures, constants,
and every element type the dialects allow (complex, integers of every width
and signedness, bool, f8 / bf16 / f16 / f32 / f64). Each module goes through
every pass (sdy-dsl in-process, the reference in a forked child) and through
the pipelines: the shipped `pipelines/shardy_full*.yaml` against their
reference chains and the reference's own `sdy-*-pipeline`s.

A pass or pipeline sdy-dsl does not have yet ("not implemented by sdy-dsl
yet") is counted as `not-implemented`, not as a mismatch: as the call-graph
passes land, the same seeds start comparing them. Inputs the reference
rejects are `invalid`, a pass the reference fails or crashes on is `skip`.
A `ref-error-only` (or skip) of sdy-import-func-calls alone on a callee called
more than once with some argument unsharded is the reference defect described
in fuzz_call_graph_import.py (test_call_graph_passes pins sdy-dsl's answer).
Not a pytest module; tests/test_fuzz_samples.py runs a seeded sample of it.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

from fuzz_passes import PASSES as SEED_PASSES, in_child, pass_flag  # noqa: E402
from lit_runner import run_sdy_dsl  # noqa: E402
from reduce_module import reduce  # noqa: E402
from reference import pipeline_from_flags, run_reference  # noqa: E402
from test_full_chain import REFERENCE_CHAIN, RESHARDS_CHAIN  # noqa: E402

# pass flag (with options) -> reference passes run first to make its input
PASSES: dict[str, list[str]] = dict(SEED_PASSES)
PASSES.update({
    "sdy-user-priority-propagate": [],
    "sdy-aggressive-propagate": [],
    "sdy-op-priority-propagate": [],
    "sdy-populate-op-sharding-rules": [],
    "sdy-propagate-sharding-from-func-to-call": [],
    "sdy-flatten-call-graph": [],
    "sdy-import-func-calls": [],
    "sdy-pre-order-funcs": [],
    "sdy-export-named-computations": ["sdy-import-func-calls"],
    "sdy-unflatten-call-graph": ["sdy-flatten-call-graph"],
    "sdy-unflatten-call-graph=dedup-functions-fully=true": ["sdy-flatten-call-graph"],
    "sdy-propagate-to-func-results": [],
    "sdy-insert-func-call-reshards": [],
    "sdy-add-func-data-flow-edges": [],
    "sdy-sink-func-data-flow-edges": ["sdy-add-func-data-flow-edges"],
    "sdy-constant-or-scalar-merger": ["sdy-constant-or-scalar-splitter"],
    "sdy-remove-sub-axes-in-input-output-shardings": [],
    "sdy-remove-propagation-debug-info": [],
    "sdy-reshard-to-collectives": ["sdy-insert-explicit-reshards"],
})
# name -> (sdy-dsl argv after the input, reference pipeline)
PIPELINES: dict[str, tuple[list[str], str]] = {
    "shardy_full": (["run", str(ROOT / "pipelines" / "shardy_full.yaml")], REFERENCE_CHAIN),
    "shardy_full_reshards": (["run", str(ROOT / "pipelines" / "shardy_full_reshards.yaml")], RESHARDS_CHAIN),
}
PIPELINES.update({name: (["opt", f"--pass-pipeline=builtin.module({name})"], f"builtin.module({name})")
                  for name in ("sdy-import-pipeline", "sdy-propagation-pipeline", "sdy-export-pipeline",
                               "sdy-import-pipeline{dedup-functions-fully=true}",
                               "sdy-propagation-pipeline{dedup-functions-fully=true}")})

ELEMENT_TYPES = ["f32", "bf16", "f16", "f64", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "complex<f32>", "complex<f64>",
                 "i1", "i2", "i4", "i8", "i16", "i32", "i64", "ui4", "ui8", "ui32", "ui64"]
MESHES = [[("a", 2), ("b", 2)], [("x", 4), ("y", 2)], [("a", 2), ("b", 1), ("c", 2)], [("x", 8)]]


class CallGraphGen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.elt = self.r.choice(ELEMENT_TYPES)
        self.axes = self.r.choice(MESHES)
        self.shape = self.r.choice([(8, 4), (4, 8), (8,), (16, 2)])
        self.n = 0

    @property
    def t(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.elt + ">"

    def fresh(self, base: str = "v") -> str:
        self.n += 1
        return f"%{base}{self.n}"

    def constant(self) -> str:
        e = self.elt
        if e.startswith("complex"):
            return f"dense<({self.r.choice(['0.0', '1.5'])},{self.r.choice(['1.0', '-2.0'])})>"
        if e == "i1":
            return f"dense<{self.r.choice(['true', 'false'])}>"
        if e.startswith(("i", "ui")):
            return f"dense<{self.r.randint(0, 3)}>"
        return f"dense<{self.r.choice(['0.0', '1.0', '-0.5'])}>"

    def sharding(self, closed: bool = False) -> str:
        r = self.r
        free = [a for a, _ in self.axes]
        r.shuffle(free)
        dims = []
        for _ in self.shape:
            refs = [f'"{free.pop()}"' for _ in range(r.choice([0, 0, 1, 1, 2])) if free]
            is_open = not closed and r.random() < 0.25
            prio = f"p{r.randint(0, 2)}" if not closed and refs and r.random() < 0.15 else ""
            dims.append("{" + ", ".join(refs + (["?"] if is_open else [])) + "}" + prio)
        return "<@mesh, [" + ", ".join(dims) + "]>"

    def maybe_attr(self, p: float = 0.4, closed: bool = False) -> str:
        return f" {{sdy.sharding = #sdy.sharding{self.sharding(closed)}}}" if self.r.random() < p else ""

    # ------------------------------------------------------------ bodies
    def body(self, env: list[str], callees: list[tuple[str, int, int]], depth: int, lines: list[str]) -> None:
        """Random ops over `env` (values of type self.t), appended to `lines` (env grows)."""
        r, t = self.r, self.t
        for _ in range(r.randint(1, 4)):
            kind = r.choices(["elt", "const", "call", "while", "case", "named", "constraint"],
                             [3, 1, 4, 1, 1, 1, 1])[0]
            if kind in ("while", "case", "named") and depth >= 2:
                kind = "call"
            if kind == "call" and not callees:
                kind = "elt"
            if kind == "elt":
                v = self.fresh()
                lines.append(f"{v} = stablehlo.{r.choice(['add', 'multiply'])} {r.choice(env)}, {r.choice(env)} : {t}")
                env.append(v)
            elif kind == "const":
                v = self.fresh("c")
                lines.append(f"{v} = stablehlo.constant {self.constant()} : {t}")
                env.append(v)
            elif kind == "constraint":
                v = self.fresh()
                lines.append(f"{v} = sdy.sharding_constraint {r.choice(env)} {self.sharding()} : {t}")
                env.append(v)
            elif kind == "call":
                env.extend(self.call(env, callees, lines))
            elif kind == "while":
                self.while_op(env, callees, depth, lines)
            elif kind == "case":
                self.case_op(env, callees, depth, lines)
            else:
                self.named(env, callees, depth, lines)

    def call(self, env, callees, lines) -> list[str]:
        r, t = self.r, self.t
        name, n_args, n_res = r.choice(callees)
        args = ", ".join(r.choice(env) for _ in range(n_args))
        v = self.fresh("r")
        attr = ""
        if r.random() < 0.3:
            attr = " {sdy.sharding = #sdy.sharding_per_value<[" + ", ".join(
                self.sharding() for _ in range(n_res)) + "]>}"
        res = f"{v}:{n_res}" if n_res > 1 else v
        lines.append(f"{res} = func.call @{name}({args}){attr} : ({', '.join([t] * n_args)}) -> "
                     f"({', '.join([t] * n_res)})")
        return [f"{v}#{i}" for i in range(n_res)] if n_res > 1 else [v]

    def while_op(self, env, callees, depth, lines) -> None:
        t, x = self.t, self.r.choice(env)
        v, it, c = self.fresh("w"), self.fresh("it"), self.fresh("c")
        inner = [it]
        body: list[str] = []
        self.body(inner, callees, depth + 1, body)
        attr = (f" attributes {{sdy.sharding = #sdy.sharding_per_value<[{self.sharding()}]>}}"
                if self.r.random() < 0.3 else "")
        lines += [f"{v} = stablehlo.while({it} = {x}) : {t}{attr}", "cond {",
                  f"  {c} = stablehlo.constant dense<true> : tensor<i1>", f"  stablehlo.return {c} : tensor<i1>",
                  "} do {", *("  " + b for b in body), f"  stablehlo.return {inner[-1]} : {t}", "}"]
        env.append(v)

    def case_op(self, env, callees, depth, lines) -> None:
        t = self.t
        idx, v = self.fresh("i"), self.fresh("k")
        lines.append(f"{idx} = stablehlo.constant dense<{self.r.randint(0, 1)}> : tensor<i32>")
        branches = []
        for _ in range(self.r.randint(1, 2)):
            inner = list(env)
            body: list[str] = []
            self.body(inner, callees, depth + 1, body)
            branches.append("{\n" + "".join(f"  {b}\n" for b in body) + f"  stablehlo.return {inner[-1]} : {t}\n}}")
        lines.append(f'{v} = "stablehlo.case"({idx}) (' + ", ".join(branches) + f") : (tensor<i32>) -> {t}")
        env.append(v)

    def named(self, env, callees, depth, lines) -> None:
        t = self.t
        x = self.r.choice(env)
        v, a = self.fresh("n"), self.fresh("na")
        inner = [a]
        body: list[str] = []
        self.body(inner, callees, depth + 1, body)
        shard = ""
        if self.r.random() < 0.4:
            shard = f" in_shardings=[{self.sharding()}] out_shardings=[{self.sharding()}]"
        name = self.r.choice(["foo", "bar", "foo"])
        lines += [f'{v} = sdy.named_computation<"{name}">({x}){shard} ({a}: {t}) {{', *("  " + b for b in body),
                  f"  sdy.return {inner[-1]} : {t}", f"}} : ({t}) -> {t}"]
        env.append(v)

    def func(self, name: str, n_args: int, n_res: int, callees, private: bool) -> str:
        t = self.t
        args = [f"%arg{i}: {t}{self.maybe_attr()}" for i in range(n_args)]
        results = [f"{t}{self.maybe_attr(0.3)}" for _ in range(n_res)]
        env = [f"%arg{i}" for i in range(n_args)]
        lines: list[str] = []
        self.body(env, callees, 0, lines)
        rets = [self.r.choice(env[n_args:] or env) for _ in range(n_res)]
        vis = "private " if private else ""
        return (f"func.func {vis}@{name}({', '.join(args)}) -> ({', '.join(results)}) {{\n"
                + "".join(f"  {ln}\n" for ln in lines)
                + f"  return {', '.join(rets)} : {', '.join([t] * n_res)}\n}}\n")

    def module(self) -> str:
        r = self.r
        mesh = "sdy.mesh @mesh = <[" + ", ".join(f'"{a}"={s}' for a, s in self.axes) + "]>\n"
        n = r.randint(1, 4)
        sigs = [(f"f{i}", r.randint(1, 2), r.randint(1, 2)) for i in range(n)]
        funcs = []
        for i in reversed(range(n)):  # callee i calls only deeper callees j > i (no recursion)
            name, n_args, n_res = sigs[i]
            funcs.insert(0, self.func(name, n_args, n_res, sigs[i + 1:], private=True))
        main = self.func("main", r.randint(1, 2), r.randint(1, 2), sigs, private=False)
        return mesh + main + "".join(funcs)


# ---------------------------------------------------------------- running
NOT_IMPLEMENTED = "not implemented by sdy-dsl yet"


def _reference(text: str, pipeline: str):
    return in_child(run_reference, text, pipeline)


def check(text: str, key: str, tmp: str):
    """'skip' | 'ok' | 'not-implemented' | (kind, input, expected, actual)."""
    if key in PIPELINES:
        argv, pipeline = PIPELINES[key]
    else:
        if PASSES[key]:
            alive, res = _reference(text, pipeline_from_flags(PASSES[key]))
            if not alive or res[0] is not True:
                return "skip"
            text = res[1]
        argv, pipeline = ["opt", pass_flag(key)], pipeline_from_flags([pass_flag(key)])
    path = Path(tmp) / "in.mlir"
    path.write_text(text)
    argv = [argv[0], *argv[1:2], str(path), *argv[2:]] if argv[0] == "run" else [argv[0], str(path), *argv[1:]]
    rc, out, err = run_sdy_dsl(argv)
    if rc != 0 and NOT_IMPLEMENTED in err:
        return "not-implemented"
    alive, res = _reference(text, pipeline)
    if not alive or res == "exception" or not isinstance(res, tuple):
        return "skip"
    ok, expected = res
    if not ok:
        return "ok" if rc != 0 else ("ref-error-only", text, "<error>", out)
    if rc != 0:
        return ("dsl-error-only", text, expected, err)
    return "ok" if out == expected else ("diff", text, expected, out)


def _fails(text: str, key: str, tmp: str, kind: str) -> bool:
    alive, res = _reference(text, "builtin.module()")
    if not alive or not isinstance(res, tuple) or res[0] is not True:
        return False
    result = check(text, key, tmp)
    return not isinstance(result, str) and result[0] == kind


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--passes", default="", help="comma-separated subset of the pass / pipeline keys")
    ap.add_argument("--keep", default="", help="directory for mismatching inputs/outputs")
    ap.add_argument("--reduce", action="store_true", help="shrink each mismatching module")
    ap.add_argument("--print", action="store_true", help="only print the generated modules")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args(argv)
    wanted = [k for k in args.passes.split(",") if k]
    keys = [k for k in [*PASSES, *PIPELINES]
            if not wanted or k in wanted or k.split("=")[0].split("@")[0] in wanted]
    stats = {"ok": 0, "skip": 0, "invalid": 0, "not-implemented": 0, "mismatch": 0}
    missing: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            seed = args.seed * 100003 + i
            text = CallGraphGen(seed).module()
            if args.print:
                print(f"// seed {seed}\n{text}")
                continue
            alive, res = _reference(text, "builtin.module()")
            if not alive or not isinstance(res, tuple) or res[0] is not True:
                stats["invalid"] += 1
                if args.v:
                    print(f"INVALID seed={seed}\n{text}")
                continue
            for key in keys:
                result = check(text, key, tmp)
                if isinstance(result, str):
                    stats[result] += 1
                    if result == "not-implemented":
                        missing.add(key.split("=")[0].split("@")[0])
                    continue
                stats["mismatch"] += 1
                kind, inp, exp, act = result
                print(f"MISMATCH seed={seed} pass={key} ({kind})", flush=True)
                small = reduce(text, lambda t, key=key, kind=kind: _fails(t, key, tmp, kind)) if args.reduce else ""
                if args.keep:
                    d = Path(args.keep) / f"{seed}_{key.replace('=', '_')}"
                    d.mkdir(parents=True, exist_ok=True)
                    for name, content in (("in.mlir", inp), ("expected.mlir", exp), ("actual.mlir", act),
                                          ("reduced.mlir", small)):
                        if content:
                            (d / name).write_text(content)
                elif small:
                    print(small)
                if args.v:
                    print(inp, "\n--- expected\n", exp, "\n--- actual\n", act)
    if missing:
        print("not implemented by sdy-dsl yet:", ", ".join(sorted(missing)))
    print(f"modules={args.count} passes={len(keys)} " + " ".join(f"{k}={v}" for k, v in stats.items()))
    return 1 if stats["mismatch"] else 0


if __name__ == "__main__":
    sys.exit(main())
