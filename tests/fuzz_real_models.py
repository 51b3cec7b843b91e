"""Random differential testing of the full Shardy chain on real JAX models.

    PYTHONPATH=. python tests/fuzz_real_models.py --seed S --count N [--models a,b] [--out DIR]

Each case takes a module of the model zoo (tests/models/zoo.py: plain JAX
models and Flax nnx/linen train steps with optax), gives `@main`'s arguments
and results random valid shardings (open/closed dimensions, priorities
p0..p3, replicated axes, sub-axes such as `"model":(1)2`; every axis at most
once per tensor, each dimension divisible by its axes), then runs the chain of
pipelines/shardy_full.yaml with sdy-dsl (`sdy_dsl.run_pipeline`) and with the
C++ reference (tests/reference.py), and compares the output texts byte for
byte. A differing case is shrunk (its random shardings are reset one by one,
then simplified, while the outputs still differ) and saved under --out as
in.mlir / expected.mlir / actual.mlir / case.txt; its first differing line
is printed. Both sides run in a forked child, so a case that aborts or hangs
is counted as an error and the run goes on.

Not a pytest module; tests/test_fuzz_real_models.py runs a few seeds of it.
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import select
import signal
import sys
import time
import warnings
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

from models.zoo import MODELS, lowered  # noqa: E402  (asks for 8 CPU devices first)

from jaxlib.mlir import ir  # noqa: E402

import sdy_dsl  # noqa: E402  (loaded once here; every forked case shares it)
from reference import run_reference  # noqa: E402
from sdy_dsl.mlir_context import make_context  # noqa: E402
from test_full_chain import REFERENCE_CHAIN  # noqa: E402  (the reference's spelling of the chain)

PIPELINE = "shardy_full"
CASE_TIMEOUT = 120.0


# ================================================================ shardings


@dataclass(frozen=True)
class AxisRef:
    name: str
    pre: int = 1      # sub-axis pre-size; 0 means the full axis
    size: int = 0

    def text(self) -> str:
        return f'"{self.name}"' if self.pre == 0 else f'"{self.name}":({self.pre}){self.size}'


@dataclass
class DimSharding:
    axes: list[AxisRef] = field(default_factory=list)
    open: bool = False
    priority: int | None = None

    def text(self) -> str:
        body = ", ".join([a.text() for a in self.axes] + (["?"] if self.open else []))
        return "{" + body + "}" + ("" if self.priority is None else f"p{self.priority}")


@dataclass
class TensorSharding:
    mesh: str
    dims: list[DimSharding]
    replicated: list[AxisRef] = field(default_factory=list)

    def text(self) -> str:
        rep = ""
        if self.replicated:
            rep = ", replicated={" + ", ".join(a.text() for a in self.replicated) + "}"
        return f"#sdy.sharding<@{self.mesh}, [" + ", ".join(d.text() for d in self.dims) + "]" + rep + ">"


def axis_refs(name: str, size: int) -> list[AxisRef]:
    """The full axis and every proper sub-axis (pre)size of an axis of SIZE."""
    refs = [AxisRef(name, 0, size)]
    for pre in range(1, size):
        for sub in range(2, size + 1):
            if size % (pre * sub) == 0 and (pre, sub) != (1, size):
                refs.append(AxisRef(name, pre, sub))
    return refs


def random_sharding(rng: random.Random, mesh: str, axes: dict[str, int],
                    shape: tuple[int, ...], non_divisible: float = 0.0) -> TensorSharding:
    """NON_DIVISIBLE: the chance that one dimension ignores divisibility (opt-in)."""
    free = [n for n, s in axes.items() if s > 1 or rng.random() < 0.1]
    rng.shuffle(free)
    dims = []
    for size in shape:
        any_size = non_divisible > 0 and rng.random() < non_divisible
        dim = DimSharding(open=rng.random() < 0.35,
                          priority=rng.randrange(4) if rng.random() < 0.35 else None)
        for _ in range(rng.choice([0, 0, 1, 1, 1, 2])):
            options = [r for n in free for r in axis_refs(n, axes[n])
                       if any_size or size % (_product(dim.axes) * r.size) == 0]
            if not options:
                break
            ref = rng.choice(options)
            dim.axes.append(ref)
            free.remove(ref.name)
        if not dim.axes and not dim.open:
            dim.priority = None  # the verifier rejects a priority on an empty closed dim
        dims.append(dim)
    replicated = []
    if free and rng.random() < 0.25:
        chosen = set(rng.sample(free, rng.randint(1, len(free))))
        order = list(axes)  # replicated axes follow the mesh's order
        for name in sorted(chosen, key=order.index):
            replicated.append(rng.choice(axis_refs(name, axes[name])))
    return TensorSharding(mesh, dims, replicated)


def _product(refs: list[AxisRef]) -> int:
    p = 1
    for r in refs:
        p *= r.size
    return p


def simpler(s: TensorSharding):
    """Simpler variants of a sharding, for shrinking."""
    if s.replicated:
        yield TensorSharding(s.mesh, s.dims, [])
    for i, d in enumerate(s.dims):
        variants = []
        if d.priority is not None:
            variants.append(DimSharding(d.axes, d.open, None))
        if d.open:
            variants.append(DimSharding(d.axes, False, d.priority if d.axes else None))
        for j in range(len(d.axes)):
            axes = d.axes[:j] + d.axes[j + 1:]
            variants.append(DimSharding(axes, d.open, d.priority if axes or d.open else None))
        for v in variants:
            yield TensorSharding(s.mesh, s.dims[:i] + [v] + s.dims[i + 1:], s.replicated)


# ================================================================ modules


@dataclass
class Signature:
    mesh: str
    axes: dict[str, int]
    args: list[tuple[int, ...] | None]      # None: not a ranked tensor
    results: list[tuple[int, ...] | None]


def _shape(t) -> tuple[int, ...] | None:
    try:
        return tuple(ir.RankedTensorType(t).shape)
    except ValueError:
        return None


def _main(module: ir.Module):
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
            return op
    raise ValueError("no @main")


def signature(text: str) -> Signature:
    with make_context():
        module = ir.Module.parse(text)
        mesh = None
        for op in module.body.operations:
            if op.operation.name == "sdy.mesh":
                name = ir.StringAttr(op.attributes["sym_name"]).value
                body = str(op.attributes["mesh"])  # #sdy.mesh<["data"=2, "model"=4]>
                axes = {}
                for part in body[body.find("[") + 1:body.rfind("]")].split(","):
                    if "=" in part:
                        n, s = part.split("=")
                        axes[n.strip().strip('"')] = int(s.strip())
                if axes:
                    mesh = (name, axes)
                    break
        if mesh is None:
            raise ValueError("no non-empty sdy.mesh")
        ftype = ir.FunctionType(ir.TypeAttr(_main(module).attributes["function_type"]).value)
        return Signature(mesh[0], mesh[1], [_shape(t) for t in ftype.inputs],
                         [_shape(t) for t in ftype.results])


def with_shardings(text: str, args: dict[int, str | None], results: dict[int, str | None]) -> str:
    """TEXT with @main's arg/result `sdy.sharding`s replaced (None removes one)."""
    with make_context():
        module = ir.Module.parse(text)
        main = _main(module)
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        for key, count, changes in (("arg_attrs", len(ftype.inputs), args),
                                    ("res_attrs", len(ftype.results), results)):
            if not changes:
                continue
            old = list(ir.ArrayAttr(main.attributes[key])) if key in main.attributes else []
            old += [ir.DictAttr.get({})] * (count - len(old))
            new = []
            for i, d in enumerate(old):
                d = ir.DictAttr(d)
                entries = {d[j].name: d[j].attr for j in range(len(d))}
                if i in changes:
                    entries.pop("sdy.sharding", None)
                    if changes[i] is not None:
                        entries["sdy.sharding"] = ir.Attribute.parse(changes[i])
                new.append(ir.DictAttr.get(entries))
            main.attributes[key] = ir.ArrayAttr.get(new)
        return str(module)


# ================================================================ running


def in_child(fn, *args, timeout=CASE_TIMEOUT):
    """fn(*args) in a forked child: ('ok', value) | ('raised', repr) | ('died', why)."""
    rd, wr = os.pipe()
    with warnings.catch_warnings():
        # JAX warns when it has started threads (a model lowered in this process,
        # not from the cache); the child runs MLIR passes only, never JAX.
        warnings.filterwarnings("ignore", "os.fork", RuntimeWarning)
        pid = os.fork()
    if pid == 0:
        os.close(rd)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # MLIR diagnostics of rejected inputs
        try:
            data = pickle.dumps(("ok", fn(*args)))
        except BaseException as e:  # noqa: BLE001 -- reported to the parent
            data = pickle.dumps(("raised", f"{type(e).__name__}: {e}"))
        with os.fdopen(wr, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(wr)
    chunks, deadline = [], time.monotonic() + timeout
    with os.fdopen(rd, "rb") as f:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([f], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return ("died", "timeout")
            chunk = os.read(f.fileno(), 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not chunks:
        return ("died", f"status {status}")
    return pickle.loads(b"".join(chunks))


def _reference(text):
    return run_reference(text, REFERENCE_CHAIN)


def _sdy_dsl(text):
    return sdy_dsl.run_pipeline(text, PIPELINE).text


def compare(text: str):
    """('invalid'|'identical'|'differ'|'error', expected, actual-or-message)."""
    kind, ref = in_child(_reference, text)
    if kind != "ok":
        return "error", "", f"reference {kind}: {ref}"
    ok, expected = ref
    if not ok:
        return "invalid", "", ""
    kind, out = in_child(_sdy_dsl, text)
    if kind != "ok":
        return "error", expected, f"sdy-dsl {kind}: {out}"
    return ("identical" if out == expected else "differ"), expected, out


def first_difference(expected: str, actual: str, width: int = 160) -> str:
    """The first differing line of two outputs, both cut around the first differing character."""
    e, a = expected.splitlines(), actual.splitlines()
    for i, (x, y) in enumerate(zip(e, a)):
        if x != y:
            col = next((j for j, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            lo = max(0, col - width // 2)
            cut = lambda s: ("..." if lo else "") + s[lo:lo + width].strip() + ("..." if len(s) > lo + width else "")
            return f"line {i + 1}:\n  reference: {cut(x)}\n  sdy-dsl:   {cut(y)}"
    return f"line {min(len(e), len(a)) + 1}: one output is longer ({len(e)} vs {len(a)} lines)"


# ================================================================ cases


@dataclass
class Case:
    model: str
    seed: int
    args: dict[int, TensorSharding | None]
    results: dict[int, TensorSharding | None]

    def text(self) -> str:
        t = lambda m: {i: (s.text() if s is not None else None) for i, s in m.items()}
        return with_shardings(lowered(self.model), t(self.args), t(self.results))

    def describe(self) -> str:
        lines = [f"model {self.model} seed {self.seed}"]
        for what, m in (("arg", self.args), ("result", self.results)):
            for i, s in sorted(m.items()):
                lines.append(f"  {what} {i}: {s.text() if s else '(none)'}")
        return "\n".join(lines)


def make_case(model: str, seed: int, non_divisible: float = 0.0) -> Case:
    rng = random.Random(seed)
    sig = signature(lowered(model))

    def pick(shapes):
        out = {}
        for i, shape in enumerate(shapes):
            if shape is None:
                continue
            r = rng.random()
            if r < 0.15:
                continue  # keep the lowering's own sharding
            out[i] = None if r < 0.3 else random_sharding(rng, sig.mesh, sig.axes, shape, non_divisible)
        return out

    return Case(model, seed, pick(sig.args), pick(sig.results))


def shrink(case: Case, budget: int = 150) -> Case:
    """A case with fewer/simpler random shardings that still differs."""
    def still_differs(c: Case) -> bool:
        nonlocal budget
        budget -= 1
        try:
            return compare(c.text())[0] == "differ"
        except Exception:  # noqa: BLE001 -- an unparsable variant is not kept
            return False

    for which in ("args", "results"):
        for i in sorted(getattr(case, which)):
            if budget <= 0:
                return case
            m = dict(getattr(case, which))
            del m[i]  # back to the lowering's own sharding
            trial = Case(case.model, case.seed, **{**_maps(case), which: m})
            if still_differs(trial):
                case = trial
    changed = True
    while changed and budget > 0:
        changed = False
        for which in ("args", "results"):
            for i, s in sorted(getattr(case, which).items()):
                if s is None:
                    continue
                for v in simpler(s):
                    if budget <= 0:
                        return case
                    trial = Case(case.model, case.seed, **{**_maps(case), which: {**getattr(case, which), i: v}})
                    if still_differs(trial):
                        case, s, changed = trial, v, True
    return case


def _maps(case: Case):
    return {"args": case.args, "results": case.results}


def save(case: Case, out: Path, expected: str, actual: str, note: str) -> Path:
    d = out / f"{case.model}_seed{case.seed}"
    d.mkdir(parents=True, exist_ok=True)
    (d / "in.mlir").write_text(case.text())
    (d / "expected.mlir").write_text(expected)
    (d / "actual.mlir").write_text(actual)
    (d / "case.txt").write_text(case.describe() + "\n" + note + "\n")
    return d


# ================================================================ reducing a module


def _sig_update(main, block, result_types):
    ftype = ir.FunctionType.get([a.type for a in block.arguments], result_types)
    main.attributes["function_type"] = ir.TypeAttr.get(ftype)


def _attr_list(main, key, count):
    old = list(ir.ArrayAttr(main.attributes[key])) if key in main.attributes else []
    return old + [ir.DictAttr.get({})] * (count - len(old))


def _edit(text: str, fn) -> str | None:
    """fn(main, block) applied to a fresh parse of TEXT; None if it refused or broke."""
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        main = _main(module)
        block = main.regions[0].blocks[0]
        if fn(main, block) is False:
            return None
        _dce(main, block)
        return str(module) if module.operation.verify() else None


def _dce(main, block):
    """Erase @main's top-level ops whose results are all unused, then unused arguments."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.operations)):
            if len(op.results) and not any(len(list(r.uses)) for r in op.results):
                op.erase()
                changed = True
    attrs = _attr_list(main, "arg_attrs", len(block.arguments))
    for i in reversed(range(len(block.arguments))):
        if not len(list(block.arguments[i].uses)):
            block.erase_argument(i)
            del attrs[i]
    main.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    _sig_update(main, block, list(ftype.results))


def _keep_results(keep: list[int]):
    def fn(main, block):
        from jaxlib.mlir.dialects import func
        ret = list(block.operations)[-1]
        values = [ret.operands[i] for i in keep]
        attrs = _attr_list(main, "res_attrs", len(ret.operands))
        with ir.InsertionPoint(ret):
            func.ReturnOp(values)
        ret.erase()
        main.attributes["res_attrs"] = ir.ArrayAttr.get([attrs[i] for i in keep])
        _sig_update(main, block, [v.type for v in values])
    return fn


def _cut(indices: set[int]):
    """Replace the top-level ops at INDICES by new (unsharded) arguments of @main."""
    def fn(main, block):
        ops = _cuttable(block)
        attrs = _attr_list(main, "arg_attrs", len(block.arguments))
        for i in sorted(indices, reverse=True):
            op = ops[i]
            for r in op.results:
                r.replace_all_uses_with(block.add_argument(r.type, ir.Location.unknown()))
                attrs.append(ir.DictAttr.get({}))
            op.erase()
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        _sig_update(main, block, list(ftype.results))
    return fn


def _bypass(indices: set[int]):
    """Replace each top-level op at INDICES by its first operand of the result's type."""
    def fn(main, block):
        ops = _cuttable(block)
        done = False
        for i in sorted(indices, reverse=True):
            op = ops[i]
            if len(op.results) != 1:
                continue
            same = [v for v in op.operands if v.type == op.results[0].type]
            if same:
                op.results[0].replace_all_uses_with(same[0])
                op.erase()
                done = True
        return None if done else False
    return fn


def _cuttable(block):
    return [op for op in block.operations if len(op.results)]


def _count(text: str) -> tuple[int, int]:
    with make_context():
        module = ir.Module.parse(text)
        main = _main(module)
        block = main.regions[0].blocks[0]
        ret = list(block.operations)[-1]
        return len(_cuttable(block)), len(ret.operands)


def reduce_module(text: str, still_differs) -> str:
    """A smaller module (fewer results, ops cut into arguments) that still differs."""
    def attempt(fn):
        nonlocal text
        new = _edit(text, fn)
        if new is not None and new != text and still_differs(new):
            text = new
            return True
        return False

    def remove_chunks(count, make_edit):
        """Delta-debugging style: drop ever smaller chunks of COUNT() items."""
        chunks = 2
        while True:
            n = count()
            if n == 0:
                return
            size = max(1, -(-n // chunks))
            if any(attempt(make_edit(set(range(start, min(start + size, n)))))
                   for start in range(0, n, size)):
                continue
            if size == 1:
                return
            chunks = min(n, chunks * 2)

    before = None
    while before != text:  # results first (dead code goes with them), then ops
        before = text
        for i in range(_count(text)[1]):  # one result is often enough
            if attempt(_keep_results([i])):
                break
        else:
            remove_chunks(lambda: _count(text)[1],
                          lambda drop: _keep_results([i for i in range(_count(text)[1]) if i not in drop]))
        remove_chunks(lambda: _count(text)[0], _cut)
        remove_chunks(lambda: _count(text)[0], _bypass)
    for key in ("arg_attrs", "res_attrs"):  # shardings that do not matter
        for i in range(max(_count(text)[1], len(_signature_args(text)))):
            attempt(_drop_sharding(key, i))
    attempt(_drop_private_functions)
    return text


def _signature_args(text):
    return signature(text).args


def _drop_sharding(key, index):
    def fn(main, block):
        attrs = _attr_list(main, key, len(block.arguments) if key == "arg_attrs" else
                           len(list(block.operations)[-1].operands))
        if index >= len(attrs):
            return False
        d = ir.DictAttr(attrs[index])
        entries = {d[j].name: d[j].attr for j in range(len(d)) if d[j].name != "sdy.sharding"}
        attrs[index] = ir.DictAttr.get(entries)
        main.attributes[key] = ir.ArrayAttr.get(attrs)
    return fn


def _drop_private_functions(main, block):
    module_body = main.operation.parent.regions[0].blocks[0]
    called = str(main)
    for op in list(module_body.operations):
        if op.operation.name == "func.func" and op is not main and \
                "@" + ir.StringAttr(op.attributes["sym_name"]).value + "(" not in called:
            op.erase()


def warm_up():
    """Load sdy-dsl's rules once in this process, so that forked cases start warm."""
    _sdy_dsl(lowered("mlp_tp_2x4"))


def reduce_saved(d: Path) -> int:
    text = (d / "in.mlir").read_text()
    if compare(text)[0] != "differ":
        print(f"{d}: does not differ (any more)")
        return 0
    small = reduce_module(text, lambda t: compare(t)[0] == "differ")
    _, expected, actual = compare(small)
    (d / "reduced.mlir").write_text(small)
    (d / "reduced.expected.mlir").write_text(expected)
    (d / "reduced.actual.mlir").write_text(actual)
    print(small + "\n" + first_difference(expected, actual))
    return 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--models", default="", help="comma-separated zoo names (default: all)")
    ap.add_argument("--out", default="fuzz-real-models", help="directory for differing cases")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--non-divisible", type=float, default=0.0, metavar="P",
                    help="chance that a dimension's axes need not divide it (default 0: always divide)")
    ap.add_argument("--print", action="store_true", help="only print each case's shardings")
    ap.add_argument("--reduce", metavar="CASE_DIR", help="reduce a saved case's in.mlir (ops cut into "
                    "arguments, results dropped) to CASE_DIR/reduced*.mlir, and stop")
    args = ap.parse_args(argv)
    warm_up()
    if args.reduce:
        return reduce_saved(Path(args.reduce))
    models = args.models.split(",") if args.models else sorted(MODELS)
    # Flax train steps are the largest modules: drawn three times as often.
    weighted = [m for m in models for _ in range(3 if m.startswith("flax_") else 1)]
    stats: Counter = Counter()
    by_model: dict[str, Counter] = defaultdict(Counter)
    start = time.time()
    for i in range(args.count):
        seed = args.seed * 1_000_003 + i
        model = random.Random(seed).choice(weighted)
        case = make_case(model, seed, args.non_divisible)
        if args.print:
            print(case.describe())
            continue
        kind, expected, actual = compare(case.text())
        stats[kind] += 1
        by_model[model][kind] += 1
        if kind == "differ":
            if not args.no_shrink:
                case = shrink(case)
                kind2, expected, actual = compare(case.text())
            note = first_difference(expected, actual)
            d = save(case, Path(args.out), expected, actual, note)
            print(f"DIFFER {model} seed={seed} -> {d}\n{note}", flush=True)
        elif kind == "error":
            d = save(case, Path(args.out), expected, actual, actual)
            print(f"ERROR {model} seed={seed}: {actual.splitlines()[0] if actual else ''} -> {d}", flush=True)
        if (i + 1) % 100 == 0:
            print(f"... {i + 1} cases, {dict(stats)}, {time.time() - start:.0f}s", flush=True)
    if args.print:
        return 0
    print(f"modules={args.count} " + " ".join(f"{k}={stats[k]}" for k in ("identical", "differ", "error", "invalid")))
    for model in sorted(by_model):
        c = by_model[model]
        print(f"  {model}: " + " ".join(f"{k}={c[k]}" for k in ("identical", "differ", "error", "invalid") if c[k]))
    return 1 if stats["differ"] or stats["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
