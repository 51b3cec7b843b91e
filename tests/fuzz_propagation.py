"""Random differential testing of propagation against the C++ reference.

    python tests/fuzz_propagation.py --seed S --count N [--out DIR] [--strategies ...]

Generates N seeded random (valid) sdy modules, runs the reference import
pipeline on each, then every propagation strategy in the reference and in
ours, and reports every module whose output differs. Cases the reference
rejects are skipped. The cases run in a child process that is restarted past
a case that kills it (the reference can abort the process).

Not a pytest module (tests/test_fuzz_samples.py runs its default run); regressions found here
go to tests/data/propagation/*.mlir.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

STRATEGIES = ["basic", "aggressive", "op-priority", "user-priority"]


# ================================================================= generator


class ModuleGenerator:
    """One random module: a mesh, @main with a few args and a chain of ops."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []
        self.values: list[tuple[str, tuple[int, ...]]] = []  # (name, shape), f32 only
        self.counter = 0
        self.group_count = 0
        names = ["a", "b", "c"][:rng.choice([2, 2, 3])]
        self.axes = {n: rng.choice([2, 2, 4, 4, 1] if i else [2, 4]) for i, n in enumerate(names)}

    # ------------------------------------------------------------ shardings

    def sub_axes_pool(self):
        """Every full axis and, for size-4 axes, the two size-2 sub-axes."""
        pool = []
        for name, size in self.axes.items():
            if size == 1:
                continue
            pool.append((name, f'"{name}"'))
            if size == 4:
                pool.append((name + "#1", f'"{name}":(1)2'))
                pool.append((name + "#2", f'"{name}":(2)2'))
        return pool

    def sharding(self, shape, allow_priority=True, for_constraint=False) -> str:
        rng = self.rng
        pool = self.sub_axes_pool()
        rng.shuffle(pool)
        used_names: set[str] = set()

        def take():
            for key, text in pool:
                base = key.split("#")[0]
                # A full axis excludes its sub-axes and vice versa.
                clash = key in used_names or (base in used_names) or (
                    "#" not in key and any(u.startswith(base + "#") for u in used_names))
                if not clash:
                    used_names.add(key)
                    return text
            return None

        dims = []
        for _ in shape:
            axes = []
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                t = take()
                if t is not None:
                    axes.append(t)
            is_open = rng.random() < 0.4
            body = ", ".join(axes + (["?"] if is_open else []))
            prio = ""
            if allow_priority and axes and rng.random() < 0.3:
                prio = f"p{rng.choice([0, 1, 2])}"
            dims.append("{" + body + "}" + prio)
        replicated = []
        if rng.random() < 0.25:
            for _ in range(rng.choice([1, 2])):
                t = take()
                if t is not None:
                    replicated.append(t)
        rep = f", replicated={{{', '.join(sorted(replicated))}}}" if replicated else ""
        return f"<@mesh, [{', '.join(dims)}]{rep}>"

    # ------------------------------------------------------------ helpers

    @staticmethod
    def ty(shape, elem="f32") -> str:
        return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def emit(self, text: str, shape, keep=True) -> str:
        name = self.fresh()
        self.lines.append(f"    {name} = {text}")
        if keep:
            self.values.append((name, tuple(shape)))
        return name

    def pick(self, pred=lambda s: True):
        rng = self.rng
        candidates = [v for v in self.values if pred(v[1])]
        if not candidates:
            return None
        # Prefer recent values so chains form.
        return candidates[-1] if rng.random() < 0.5 else rng.choice(candidates)

    def random_shape(self, rank=None):
        rng = self.rng
        rank = rng.choice([0, 1, 2, 2, 2, 3, 3]) if rank is None else rank
        return tuple(rng.choice([1, 2, 4, 8, 8, 16, 6, 3, 12]) for _ in range(rank))

    def scalar_const(self) -> str:
        return self.emit("stablehlo.constant dense<0.0> : tensor<f32>", (), keep=False)

    # ------------------------------------------------------------ ops

    def op_elementwise(self):
        rng = self.rng
        x = self.pick()
        name, shape = x
        kind = rng.choice(["add", "multiply", "negate", "negate", "add"])
        if kind == "negate":
            return self.emit(f"stablehlo.negate {name} : {self.ty(shape)}", shape)
        other = self.pick(lambda s: s == shape) if rng.random() < 0.8 else None
        if other is None:
            other = x
        return self.emit(f"stablehlo.{kind} {name}, {other[0]} : {self.ty(shape)}", shape)

    def op_broadcast(self):
        rng = self.rng
        name, shape = self.pick(lambda s: len(s) < 3)
        pos = rng.randint(0, len(shape))
        new_dim = rng.choice([2, 4, 8, 3])
        out = shape[:pos] + (new_dim,) + shape[pos:]
        dims = [i if i < pos else i + 1 for i in range(len(shape))]
        # Sometimes broadcast a size-1 dim to a larger one.
        out = list(out)
        for i, d in enumerate(dims):
            if shape[i] == 1 and rng.random() < 0.5:
                out[d] = rng.choice([4, 8])
        return self.emit(f"stablehlo.broadcast_in_dim {name}, dims = {dims} : "
                         f"({self.ty(shape)}) -> {self.ty(out)}", out)

    def op_reshape(self):
        rng = self.rng
        x = self.pick(lambda s: len(s) >= 1)
        if x is None:
            return None
        name, shape = x
        shape = list(shape)
        if len(shape) >= 2 and rng.random() < 0.5:
            i = rng.randrange(len(shape) - 1)
            out = shape[:i] + [shape[i] * shape[i + 1]] + shape[i + 2:]
        else:
            i = rng.randrange(len(shape))
            d = shape[i]
            splits = [f for f in range(2, d) if d % f == 0]
            if not splits or len(shape) >= 3:
                out = [d for d in shape if d != 1] if 1 in shape else shape + [1]
            else:
                f = rng.choice(splits)
                out = shape[:i] + [f, d // f] + shape[i + 1:]
        return self.emit(f"stablehlo.reshape {name} : ({self.ty(shape)}) -> {self.ty(out)}", out)

    def op_transpose(self):
        x = self.pick(lambda s: len(s) >= 2)
        if x is None:
            return None
        name, shape = x
        perm = list(range(len(shape)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        out = [shape[p] for p in perm]
        return self.emit(f"stablehlo.transpose {name}, dims = {perm} : "
                         f"({self.ty(shape)}) -> {self.ty(out)}", out)

    def op_dot(self):
        rng = self.rng
        x = self.pick(lambda s: 1 <= len(s) <= 3)
        if x is None:
            return None
        lhs, ls = x
        # rhs: a value whose some dims match, else lhs itself.
        y = self.pick(lambda s: 1 <= len(s) <= 3 and any(d in ls for d in s)) or x
        rhs, rs = y
        pairs = [(i, j) for i in range(len(ls)) for j in range(len(rs)) if ls[i] == rs[j]]
        rng.shuffle(pairs)
        batch, contract, used_l, used_r = [], [], set(), set()
        for i, j in pairs:
            if i in used_l or j in used_r:
                continue
            r = rng.random()
            if r < 0.3:
                batch.append((i, j))
            elif r < 0.8:
                contract.append((i, j))
            else:
                continue
            used_l.add(i)
            used_r.add(j)
        batch.sort()
        out = ([ls[i] for i, _ in batch] + [d for i, d in enumerate(ls) if i not in used_l]
               + [d for j, d in enumerate(rs) if j not in used_r])
        if len(out) > 4:
            return None
        parts = []
        if batch:
            parts.append(f"batching_dims = {[i for i, _ in batch]} x {[j for _, j in batch]}")
        parts.append(f"contracting_dims = {[i for i, _ in contract]} x {[j for _, j in contract]}")
        return self.emit(f"stablehlo.dot_general {lhs}, {rhs}, {', '.join(parts)} : "
                         f"({self.ty(ls)}, {self.ty(rs)}) -> {self.ty(out)}", out)

    def op_reduce(self):
        x = self.pick(lambda s: len(s) >= 1)
        if x is None:
            return None
        name, shape = x
        dims = sorted(self.rng.sample(range(len(shape)), self.rng.choice([1, 1, 2]) if len(shape) > 1 else 1))
        out = [d for i, d in enumerate(shape) if i not in dims]
        init = self.scalar_const()
        return self.emit(f"stablehlo.reduce({name} init: {init}) applies stablehlo.add across "
                         f"dimensions = {dims} : ({self.ty(shape)}, tensor<f32>) -> {self.ty(out)}",
                         out)

    def op_concatenate(self):
        x = self.pick(lambda s: len(s) >= 1)
        if x is None:
            return None
        name, shape = x
        dim = self.rng.randrange(len(shape))
        y = self.pick(lambda s: len(s) == len(shape) and all(
            a == b for i, (a, b) in enumerate(zip(s, shape)) if i != dim)) or x
        out = list(shape)
        out[dim] += y[1][dim]
        return self.emit(f"stablehlo.concatenate {name}, {y[0]}, dim = {dim} : "
                         f"({self.ty(shape)}, {self.ty(y[1])}) -> {self.ty(out)}", out)

    def op_slice(self):
        x = self.pick(lambda s: len(s) >= 1)
        if x is None:
            return None
        name, shape = x
        ranges, out = [], []
        for d in shape:
            if self.rng.random() < 0.5 or d == 1:
                ranges.append(f"0:{d}")
                out.append(d)
            else:
                lo = self.rng.randrange(d // 2 + 1)
                hi = self.rng.randint(lo + 1, d)
                ranges.append(f"{lo}:{hi}")
                out.append(hi - lo)
        return self.emit(f"stablehlo.slice {name} [{', '.join(ranges)}] : "
                         f"({self.ty(shape)}) -> {self.ty(out)}", out)

    def op_pad(self):
        x = self.pick(lambda s: len(s) >= 1)
        if x is None:
            return None
        name, shape = x
        low = [self.rng.choice([0, 0, 1, 2]) for _ in shape]
        high = [self.rng.choice([0, 0, 1]) for _ in shape]
        out = [d + lo + hi for d, lo, hi in zip(shape, low, high)]
        pad = self.scalar_const()
        zeros = [0] * len(shape)
        return self.emit(f"stablehlo.pad {name}, {pad}, low = {low}, high = {high}, "
                         f"interior = {zeros} : ({self.ty(shape)}, tensor<f32>) -> {self.ty(out)}",
                         out)

    def op_select(self):
        name, shape = self.pick()
        other = self.pick(lambda s: s == shape)
        pred = self.emit(f"stablehlo.compare GT, {name}, {other[0]} : "
                         f"({self.ty(shape)}, {self.ty(shape)}) -> {self.ty(shape, 'i1')}",
                         shape, keep=False)
        return self.emit(f"stablehlo.select {pred}, {other[0]}, {name} : "
                         f"{self.ty(shape, 'i1')}, {self.ty(shape)}", shape)

    def op_iota_or_constant(self):
        shape = self.random_shape(self.rng.choice([1, 2]))
        if self.rng.random() < 0.5:
            iota = self.emit(f"stablehlo.iota dim = 0 : {self.ty(shape)}", shape)
        else:
            iota = self.emit(f"stablehlo.constant dense<1.0> : {self.ty(shape)}", shape)
        return iota

    def op_constraint(self):
        name, shape = self.pick()
        return self.emit(f"sdy.sharding_constraint {name} {self.sharding(shape, False, True)} : "
                         f"{self.ty(shape)}", shape)

    def op_group(self):
        name, shape = self.pick()
        members = [v for v in self.values if v[1] == shape and v[0] != name]
        if not members:
            return None
        other = self.rng.choice(members)[0]
        gid = self.group_count
        self.group_count += 1
        for v in (name, other):
            self.lines.append(f"    sdy.sharding_group {v} group_id={gid} : {self.ty(shape)}")
        return None

    def op_while(self):
        name, shape = self.pick()
        it = self.emit("stablehlo.constant dense<0> : tensor<i32>", (), keep=False)
        w = self.fresh()
        t = self.ty(shape)
        body_constraint = ""
        inner = "%wv_n"
        if self.rng.random() < 0.5:
            body_constraint = (f"      %wv_c = sdy.sharding_constraint %wv_n "
                               f"{self.sharding(shape, False)} : {t}\n")
            inner = "%wv_c"
        self.lines.append(
            f"    {w}:2 = stablehlo.while(%wi = {it}, %wv = {name}) : tensor<i32>, {t}\n"
            f"      cond {{\n"
            f"      %wc = stablehlo.compare LT, %wi, %wi : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            f"      stablehlo.return %wc : tensor<i1>\n"
            f"    }} do {{\n"
            f"      %wv_n = stablehlo.negate %wv : {t}\n"
            + body_constraint +
            f"      stablehlo.return %wi, {inner} : tensor<i32>, {t}\n"
            f"    }}")
        self.values.append((f"{w}#1", tuple(shape)))
        return w

    def op_case(self):
        name, shape = self.pick()
        other = self.pick(lambda s: s == shape)
        idx = self.emit("stablehlo.constant dense<0> : tensor<i32>", (), keep=False)
        c = self.fresh()
        t = self.ty(shape)
        self.lines.append(
            f"    {c} = \"stablehlo.case\"({idx}) ({{\n"
            f"      stablehlo.return {name} : {t}\n"
            f"    }}, {{\n"
            f"      %cn = stablehlo.negate {other[0]} : {t}\n"
            f"      stablehlo.return %cn : {t}\n"
            f"    }}) : (tensor<i32>) -> {t}")
        self.values.append((c, tuple(shape)))
        return c

    # ------------------------------------------------------------ module

    def module(self) -> str:
        rng = self.rng
        args = []
        for i in range(rng.randint(1, 4)):
            shape = self.random_shape()
            attr = ""
            if rng.random() < 0.7:
                attr = f" {{sdy.sharding = #sdy.sharding{self.sharding(shape)}}}"
            args.append(f"%arg{i}: {self.ty(shape)}{attr}")
            self.values.append((f"%arg{i}", shape))
        ops = [(self.op_elementwise, 5), (self.op_broadcast, 2), (self.op_reshape, 3),
               (self.op_transpose, 2), (self.op_dot, 3), (self.op_reduce, 2),
               (self.op_concatenate, 1), (self.op_slice, 1), (self.op_pad, 1),
               (self.op_select, 1), (self.op_iota_or_constant, 1), (self.op_constraint, 2),
               (self.op_group, 1), (self.op_while, 0.5), (self.op_case, 0.5)]
        fns, weights = zip(*ops)
        for _ in range(rng.randint(2, 9)):
            fn = rng.choices(fns, weights)[0]
            try:
                fn()
            except TypeError:  # pick() found nothing suitable
                pass
        outs = [self.values[-1]]
        if len(self.values) > 2 and rng.random() < 0.4:
            outs.append(rng.choice(self.values[:-1]))
        res_types = []
        for _, shape in outs:
            attr = ""
            if rng.random() < 0.4:
                attr = f" {{sdy.sharding = #sdy.sharding{self.sharding(shape)}}}"
            res_types.append(self.ty(shape) + attr)
        mesh = ", ".join(f'"{n}"={s}' for n, s in self.axes.items())
        return (f"sdy.mesh @mesh = <[{mesh}]>\n"
                f"func.func @main({', '.join(args)}) -> ({', '.join(res_types)}) {{\n"
                + "\n".join(self.lines) + "\n"
                f"    return {', '.join(v for v, _ in outs)} : "
                f"{', '.join(self.ty(s) for _, s in outs)}\n}}\n")


def generate(seed: int, index: int) -> str:
    return ModuleGenerator(random.Random(seed * 1_000_003 + index)).module()


# ================================================================= checking


def run_ours(text: str, strategy: str) -> str:
    """Ours with the reference's rules, and the registry's for ops propagation
    itself inserts (the reference provider only knows the input's ops)."""
    from jaxlib.mlir import ir
    from propagation_support import pass_schedule, reference_rule_provider
    from sdy_dsl.rule_library import builtin_library
    from sdy_dsl.mlir_context import make_context
    from sdy_dsl.runtime.propagation import propagate
    from sdy_dsl.runtime.op_registry import active
    from sdy_dsl.runtime.sharding import codec
    codec.clear()
    with make_context():
        module = ir.Module.parse(text)
        known = {}
        reference = reference_rule_provider(text, module)
        for op in _preorder(module):
            known[op] = reference(op, False)

        def provider(op, conservative):
            return known[op] if op in known else active().rule_for(op, conservative)

        schedule, options = pass_schedule(strategy)
        propagate(module.operation, schedule, options, registry=builtin_library().op_registry,
                  rule_provider=provider)
        out = str(module)
    codec.clear()
    return out


def _preorder(module):
    from jaxlib.mlir import ir
    out = []
    module.operation.walk(lambda op: out.append(op.operation) or ir.WalkResult.ADVANCE,
                          ir.WalkOrder.PRE_ORDER)
    return out


def check_case(text: str, strategies) -> list[tuple[str, str, str]]:
    """Differences as (strategy, reference, ours); None when the reference rejects it."""
    from propagation_support import reference_import, run_reference
    try:
        imported = reference_import(text)
    except Exception:
        return None  # invalid for the reference: skip
    diffs = []
    for strategy in strategies:
        try:
            expected = run_reference(imported, strategy)
        except Exception:
            continue
        try:
            actual = run_ours(imported, strategy)
        except Exception as e:  # noqa: BLE001 - any crash of ours is a finding
            actual = f"<ours raised {type(e).__name__}: {e}>"
        if expected != actual:
            diffs.append((strategy, expected, actual))
    return diffs


def child(args) -> None:
    out = Path(args.out)
    for index in range(args.start, args.count):
        print(f"START {index}", flush=True)
        text = generate(args.seed, index)
        diffs = check_case(text, args.strategies)
        if diffs is None:
            print(f"SKIP {index}", flush=True)
        elif diffs:
            path = out / f"seed{args.seed}_case{index}.mlir"
            with open(path, "w") as f:
                f.write(text)
                for strategy, expected, actual in diffs:
                    f.write(f"\n// ===== {strategy}: reference\n{expected}\n"
                            f"// ===== {strategy}: ours\n{actual}\n")
            print(f"MISMATCH {index} {','.join(s for s, _, _ in diffs)} {path}", flush=True)
        print(f"DONE {index}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", default="/tmp/fuzz_propagation")
    parser.add_argument("--strategies", nargs="*", default=STRATEGIES)
    parser.add_argument("--print", action="store_true", help="print the generated cases only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent)]
    if args.print:
        for index in range(args.start, args.count):
            print(f"// case {index}\n{generate(args.seed, index)}// -----")
        return 0
    Path(args.out).mkdir(parents=True, exist_ok=True)
    if args.child:
        child(args)
        return 0
    start, ran, skipped, mismatches, crashed = args.start, 0, 0, 0, []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(here.parent), str(here)]))
    while start < args.count:
        cmd = [sys.executable, __file__, "--child", "--seed", str(args.seed), "--count",
               str(args.count), "--start", str(start), "--out", args.out, "--strategies",
               *args.strategies]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
        current = None
        for line in proc.stdout:
            kind, index, *rest = line.split()
            index = int(index)
            if kind == "START":
                current = index
            elif kind == "SKIP":
                skipped += 1
            elif kind == "DONE":
                ran += 1
                current = None
            else:
                mismatches += 1
                print(line.rstrip(), flush=True)
        proc.wait()
        if current is None:
            break
        crashed.append(current)  # the process died in this case: skip it
        print(f"CRASH {current} (exit {proc.returncode})", flush=True)
        start = current + 1
    print(f"seed {args.seed}: {ran} cases x {len(args.strategies)} strategies, "
          f"{skipped} of them rejected by the reference, {mismatches} mismatching cases, "
          f"{len(crashed)} crashed {crashed}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
