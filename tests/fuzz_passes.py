"""Random differential testing of the import/export passes against the C++ reference.

    python tests/fuzz_passes.py --seed S --count N [--passes a,b] [--calls] [--keep DIR] [-v]

Generates N seeded random sdy modules (meshes with size-one axes, inlined
meshes, shardings with sub-axes / priorities / replicated and unreduced axes,
constraint chains, sharding groups, while / case / optimization_barrier,
named and manual computations, constants / iotas / broadcasts, func.call),
runs every pass on each with `sdy-dsl opt` (in-process) and with the
reference (in a forked child, since some reference passes abort on some
inputs), and reports every difference. Inputs the reference rejects
(parse/verify errors, crashes) are skipped; a pass error must be an error on
both sides. Not a pytest module (tests/test_fuzz_samples.py runs a seeded sample).
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from lit_runner import run_sdy_dsl  # noqa: E402
from reduce_module import reduce  # noqa: E402
from reference import pipeline_from_flags, run_reference  # noqa: E402

# pass flag (with options) -> reference passes run first to make its input
PASSES: dict[str, list[str]] = {
    "sdy-apply-sharding-constraints": [],
    "sdy-apply-sharding-constraints=debug-propagation-edge-sharding=true": [],
    "sdy-apply-sharding-constraints=debug-sharding-origins=true": ["sdy-add-data-flow-edges"],
    "sdy-apply-sharding-constraints@edges": ["sdy-add-data-flow-edges"],
    "sdy-sharding-group-import": [],
    "sdy-add-data-flow-edges": [],
    "sdy-sink-data-flow-edges": ["sdy-add-data-flow-edges"],
    "sdy-sink-data-flow-edges@noedges": [],
    "sdy-sink-data-flow-edges=sink-debug-sharding-origins=true": [
        "sdy-add-data-flow-edges", "sdy-apply-sharding-constraints=debug-sharding-origins=true"],
    "sdy-sink-data-flow-edges=sink-debug-propagation-edge-sharding=true": [
        "sdy-add-data-flow-edges", "sdy-apply-sharding-constraints=debug-propagation-edge-sharding=true"],
    "sdy-apply-sharding-constraints=debug-propagation-edge-sharding=true@edges": ["sdy-add-data-flow-edges"],
    "sdy-manual-axes-cleanup": [],
    "sdy-update-non-divisible-input-output-shardings": [],
    "sdy-close-shardings": [],
    "sdy-remove-size-one-axes": [],
    "sdy-lift-inlined-meshes": [],
    "sdy-sharding-constraint-to-reshard": [],
    "sdy-constant-or-scalar-splitter": [],
    "sdy-insert-explicit-reshards": [],
    "sdy-insert-explicit-reshards=enable-full-version=true": [],
    # The export side of the call graph.
    "sdy-export-named-computations": [],
    "sdy-export-named-computations@edges": ["sdy-add-data-flow-edges"],
    "sdy-propagate-to-func-results": [],
    "sdy-propagate-to-func-results@exported": ["sdy-export-named-computations"],
    "sdy-insert-func-call-reshards": [],
    "sdy-insert-func-call-reshards@exported": ["sdy-export-named-computations"],
    "sdy-unflatten-call-graph@exported": ["sdy-export-named-computations"],
    "sdy-unflatten-call-graph=dedup-functions-fully=true@exported": ["sdy-export-named-computations"],
    "sdy-sink-func-data-flow-edges@edges": ["sdy-add-func-data-flow-edges"],
    "sdy-constant-or-scalar-merger": ["sdy-constant-or-scalar-splitter"],
    "sdy-remove-sub-axes-in-input-output-shardings": [],
    "sdy-remove-propagation-debug-info": [
        "sdy-add-data-flow-edges", "sdy-apply-sharding-constraints=debug-sharding-origins=true",
        "sdy-sink-data-flow-edges=sink-debug-sharding-origins=true"],
}

SHAPES = [(8, 8), (4, 6), (8,), (3,), (), (2, 4), (6, 4), (12,), (6, 6), (24, 2)]


def ttype(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


class Gen:
    call_weight = 1.0  # --calls: more named computations and calls (call-graph passes)

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.n = 0
        self.group_ids = [self.r.randint(0, 6) for _ in range(3)]
        choices = [
            [("a", 2), ("b", 2)],
            [("a", 4), ("b", 2)],
            [("x", 4), ("y", 1), ("z", 2)],
            [("a", 2), ("b", 1)],
            [("a", 2), ("b", 2), ("c", 2)],
            [("p", 3), ("x", 4)],
            [("a", 8), ("b", 3)],
            [("x", 8), ("y", 2), ("u", 1)],
        ]
        self.axes = self.r.choice(choices)
        self.mesh2 = self.r.random() < 0.3
        self.inline = self.r.random() < 0.25
        self.funcs: list[str] = []
        self.bound: set[str] = set()  # manual axes of the enclosing manual computation
        self.callees: list[tuple[str, tuple]] = []

    # ------------------------------------------------------------ names
    def fresh(self, base="v"):
        self.n += 1
        return f"%{base}{self.n}"

    # ------------------------------------------------------------ shardings
    SPLITS = {4: [[(1, 2), (2, 2)]], 8: [[(1, 2), (2, 4)], [(1, 4), (4, 2)], [(1, 2), (2, 2), (4, 2)]]}

    @staticmethod
    def ref(name, piece, size):
        pre, n = piece
        return f'"{name}"' if (pre, n) == (1, size) else f'"{name}":({pre}){n}'

    def axis_refs(self, avail, k):
        """Up to k axis references taken from `avail` (name -> free pieces (pre, size)), consumed."""
        r, out = self.r, []
        for _ in range(k):
            names = [a for a, pieces in avail.items() if pieces]
            if not names:
                break
            name = r.choice(names)
            piece = avail[name].pop(r.randrange(len(avail[name])))
            out.append((name, piece))
        return out

    def sharding_body(self, shape, axes=None, manual=None, manual_axes=None, allow_open=True, closed=False):
        """`[dims], replicated=..., unreduced=...` over `axes`; `manual[i]`: axes forced first in dim i."""
        r = self.r
        axes = list(self.axes if axes is None else axes)
        sizes = dict(axes)
        avail = {}
        for a, n in axes:
            # Manual axes only where the layout puts them (the local shape depends on it).
            if a in self.bound or a in (manual_axes or []):
                continue
            avail[a] = list(r.choice(self.SPLITS[n])) if n in self.SPLITS and r.random() < 0.3 else [(1, n)]
        dims = []
        for i, d in enumerate(shape):
            pre = [f'"{a}"' for a in (manual[i] if manual else [])]
            refs = pre + [self.ref(a, p, sizes[a]) for a, p in self.axis_refs(avail, r.choice([0, 0, 1, 1, 2]))]
            is_open = allow_open and not closed and r.random() < 0.3
            body = ", ".join(refs + (["?"] if is_open else []))
            prio = f"p{r.randint(0, 2)}" if r.random() < 0.15 and (refs or is_open) else ""
            dims.append("{" + body + "}" + prio)
        text = "[" + ", ".join(dims) + "]"
        order = [a for a, _ in axes]
        rest = [(a, p) for a in order for p in sorted(avail.get(a, []))]
        rest += [(a, (1, sizes[a])) for a in (manual_axes or []) if not any(a in m for m in manual)]
        rest.sort(key=lambda ap: (order.index(ap[0]), ap[1]))
        rep = [ap for ap in rest if r.random() < 0.2]
        unred = [ap for ap in rest if ap not in rep and r.random() < 0.12]
        if rep:
            text += ", replicated={" + ", ".join(self.ref(a, p, sizes[a]) for a, p in rep) + "}"
        if unred:
            text += ", unreduced={" + ", ".join(self.ref(a, p, sizes[a]) for a, p in unred) + "}"
        return text

    def mesh_ref(self):
        r = self.r
        if self.inline and r.random() < 0.4:
            return r.choice([
                "mesh<[" + ", ".join(f'"{a}"={s}' for a, s in self.axes) + "]>",
                "mesh<[]>",
                'mesh<["a"=2]>',
                'mesh<["a"=2, "b"=1]>',
                "mesh<[], device_ids=[3]>",
                'mesh<["a"=2], device_ids=[1, 0]>',
            ])
        if self.mesh2 and r.random() < 0.25:
            return "@mesh2"
        return "@mesh"

    def sharding(self, shape, **kw):
        mesh = self.mesh_ref()
        if mesh == "mesh<[], device_ids=[3]>":
            return f"<{mesh}, []>"  # a maximal sharding has no dimensions
        if mesh == "mesh<[]>":
            return f"<{mesh}, [" + ", ".join("{}" for _ in shape) + "]>"
        if mesh.startswith('mesh<["a"=2'):
            return f"<{mesh}, {self.sharding_body(shape, axes=[('a', 2)], **kw)}>"
        if mesh == "@mesh2":
            return f"<@mesh2, {self.sharding_body(shape, axes=[('k', 2), ('l', 1)], **kw)}>"
        return f"<{mesh}, {self.sharding_body(shape, **kw)}>"

    def per_value(self, shapes):
        return "#sdy.sharding_per_value<[" + ", ".join(self.sharding(s) for s in shapes) + "]>"

    # ------------------------------------------------------------ blocks
    def block(self, env, depth, n_ops, allow_manual=True):
        """Random ops using values of `env` (list of (name, shape)); returns lines, extends env."""
        r, lines = self.r, []
        for _ in range(n_ops):
            kind = r.choices(
                ["elt", "sc", "chain", "group", "const", "iota", "bcast", "while", "case",
                 "barrier", "named", "manual", "call", "sharded_elt", "reduce", "if", "scalar_sc", "multi_sc", "custom", "sdy_const"],
                [6, 5, 2, 3, 3, 2, 3, 1.5, 1, 1.5, 1.5 * self.call_weight, 1.5, self.call_weight, 2, 0.7, 0.5,
                 0.7, 1, 0.7, 0.5])[0]
            if kind in ("while", "case", "barrier", "named", "manual", "if") and depth >= 2:
                kind = "elt"
            if kind == "manual" and not allow_manual:
                kind = "named"
            getattr(self, "op_" + kind)(env, depth, lines)
        return lines

    def pick(self, env, shape=None):
        cands = [e for e in env if shape is None or e[1] == shape]
        return self.r.choice(cands) if cands else None

    def op_elt(self, env, depth, lines, sharded=False):
        x = self.pick(env)
        y = self.pick(env, x[1])
        op = self.r.choice(["add", "multiply", "abs", "negate"])
        v = self.fresh()
        attr = f" {{sdy.sharding = {self.per_value([x[1]])}}}" if sharded else ""
        if op in ("abs", "negate"):
            lines.append(f"{v} = stablehlo.{op} {x[0]}{attr} : {ttype(x[1])}")
        else:
            lines.append(f"{v} = stablehlo.{op} {x[0]}, {y[0]}{attr} : {ttype(x[1])}")
        env.append((v, x[1]))

    def op_sharded_elt(self, env, depth, lines):
        self.op_elt(env, depth, lines, sharded=True)

    def op_sc(self, env, depth, lines, x=None):
        x = x or self.pick(env)
        v = self.fresh()
        closed = self.r.random() < 0.6
        lines.append(f"{v} = sdy.sharding_constraint {x[0]} {self.sharding(x[1], closed=closed)} : {ttype(x[1])}")
        env.append((v, x[1]))
        return (v, x[1])

    def op_chain(self, env, depth, lines):
        x = self.pick(env)
        for _ in range(self.r.randint(2, 3)):
            x = self.op_sc(env, depth, lines, x)
        if self.r.random() < 0.5:
            self.op_elt(env, depth, lines)

    def op_multi_sc(self, env, depth, lines):
        """Several constraints (maybe equal) on one value, sometimes with other users between."""
        x = self.pick(env)
        same = self.sharding(x[1], closed=True)
        for _ in range(self.r.randint(2, 3)):
            v = self.fresh()
            sh = same if self.r.random() < 0.5 else self.sharding(x[1], closed=self.r.random() < 0.7)
            lines.append(f"{v} = sdy.sharding_constraint {x[0]} {sh} : {ttype(x[1])}")
            env.append((v, x[1]))
            if self.r.random() < 0.3:
                self.op_elt(env, depth, lines)

    def op_scalar_sc(self, env, depth, lines):
        x = self.pick(env, ()) or self.pick(env)
        self.op_sc(env, depth, lines, x)

    def op_reduce(self, env, depth, lines):
        x = self.pick(env)
        if not x[1]:
            return self.op_elt(env, depth, lines)
        init = self.fresh("c")
        a, b, v, res = self.fresh("ra"), self.fresh("rb"), self.fresh(), self.fresh("r")
        lines.append(f"{init} = stablehlo.constant dense<0.000000e+00> : tensor<f32>")
        sc = (f"  {self.fresh()} = sdy.sharding_constraint {a} <@mesh, []> : tensor<f32>"
              if self.r.random() < 0.7 else None)
        out_shape = x[1][1:]
        lines.append(f'{res} = "stablehlo.reduce"({x[0]}, {init}) ({{')
        lines.append(f"^bb0({a}: tensor<f32>, {b}: tensor<f32>):")
        if sc:
            lines.append(sc)
        lines.append(f"  {v} = stablehlo.add {a}, {b} : tensor<f32>")
        lines.append(f"  stablehlo.return {v} : tensor<f32>")
        lines.append(f"}}) {{dimensions = array<i64: 0>}} : ({ttype(x[1])}, tensor<f32>) -> {ttype(out_shape)}")
        env.append((res, out_shape))

    def op_if(self, env, depth, lines):
        shape = self.pick(env)[1]
        pred = self.fresh("c")
        lines.append(f"{pred} = stablehlo.constant dense<true> : tensor<i1>")
        res = self.fresh("if")
        branches = []
        for _ in range(2):
            benv = list(env)
            body = self.block(benv, depth + 1, self.r.randint(0, 2), allow_manual=False)
            branches.append(["  " + line for line in body]
                            + [f"  stablehlo.return {self.pick(benv, shape)[0]} : {ttype(shape)}"])
        lines.append(f'{res} = "stablehlo.if"({pred}) ({{')
        lines += branches[0]
        lines.append("}, {")
        lines += branches[1]
        lines.append(f"}}){self.maybe_attr([shape])} : (tensor<i1>) -> {ttype(shape)}")
        env.append((res, shape))

    def op_custom(self, env, depth, lines):
        """A two-result op that is no data-flow op."""
        x = self.pick(env)
        res = self.fresh("cc")
        t = ttype(x[1])
        lines.append(f'{res}:2 = stablehlo.custom_call @foo({x[0]}){self.maybe_attr([x[1], x[1]], 0.3)}'
                     f' : ({t}) -> ({t}, {t})')
        env += [(f"{res}#0", x[1]), (f"{res}#1", x[1])]

    def op_sdy_const(self, env, depth, lines):
        shape = self.r.choice(SHAPES)
        v = self.fresh("c")
        lines.append(f"{v} = sdy.constant dense<3.000000e+00> : {ttype(shape)}")
        env.append((v, shape))

    def op_group(self, env, depth, lines):
        x = self.pick(env)
        gid = self.r.choice(self.group_ids + [self.r.randint(0, 9)])
        lines.append(f"sdy.sharding_group {x[0]} group_id={gid} : {ttype(x[1])}")

    def op_const(self, env, depth, lines):
        shape = self.r.choice(SHAPES)
        v = self.fresh("c")
        lines.append(f"{v} = stablehlo.constant dense<1.000000e+00> : {ttype(shape)}")
        env.append((v, shape))

    def op_iota(self, env, depth, lines):
        shape = self.r.choice([s for s in SHAPES if s])
        v = self.fresh("i")
        lines.append(f"{v} = stablehlo.iota dim = 0 : {ttype(shape)}")
        env.append((v, shape))

    def op_bcast(self, env, depth, lines):
        scalars = [e for e in env if e[1] == ()]
        if not scalars or self.r.random() < 0.4:
            s = self.fresh("c")
            lines.append(f"{s} = stablehlo.constant dense<2.000000e+00> : tensor<f32>")
            scalars = [(s, ())]
        s = self.r.choice(scalars)
        shape = self.r.choice([sh for sh in SHAPES if sh])
        v = self.fresh("b")
        lines.append(f"{v} = stablehlo.broadcast_in_dim {s[0]}, dims = [] : (tensor<f32>) -> {ttype(shape)}")
        env.append((v, shape))

    def values(self, env, k):
        return [self.pick(env) for _ in range(k)]

    def maybe_attr(self, shapes, p=0.5):
        return f" {{sdy.sharding = {self.per_value(shapes)}}}" if self.r.random() < p else ""

    def results(self, vs, shapes):
        names = [self.fresh() for _ in shapes]
        return names

    def op_while(self, env, depth, lines):
        xs = self.values(env, self.r.randint(1, 2))
        types = ", ".join(ttype(s) for _, s in xs)
        res = self.fresh("w")
        bargs = [self.fresh("it") for _ in xs]
        cargs = [self.fresh("ct") for _ in xs]
        c = self.fresh("c")
        sig = lambda names: ", ".join(f"{n}: {ttype(s)}" for n, (_, s) in zip(names, xs))
        benv = [(n, s) for n, (_, s) in zip(bargs, xs)]
        body = self.block(benv, depth + 1, self.r.randint(0, 3))
        outs = [self.pick(benv, s) for _, s in xs]
        lines.append(f'{res}:{len(xs)} = "stablehlo.while"({", ".join(x for x, _ in xs)}) ({{')
        lines.append(f"^bb0({sig(cargs)}):")
        lines.append(f"  {c} = stablehlo.constant dense<true> : tensor<i1>")
        lines.append(f"  stablehlo.return {c} : tensor<i1>")
        lines.append("}, {")
        lines.append(f"^bb0({sig(bargs)}):")
        lines += ["  " + line for line in body]
        lines.append(f"  stablehlo.return {', '.join(o for o, _ in outs)} : {types}")
        lines.append(f"}}){self.maybe_attr([s for _, s in xs])} : ({types}) -> ({types})")
        env += [(f"{res}#{i}", s) for i, (_, s) in enumerate(xs)]

    def op_case(self, env, depth, lines):
        shapes = [self.pick(env)[1] for _ in range(self.r.randint(1, 2))]
        idx = self.fresh("c")
        lines.append(f"{idx} = stablehlo.constant dense<0> : tensor<i32>")
        res = self.fresh("k")
        types = ", ".join(ttype(s) for s in shapes)
        branches = []
        for _ in range(2):
            benv = list(env)
            body = self.block(benv, depth + 1, self.r.randint(0, 2), allow_manual=False)
            outs = [self.pick(benv, s)[0] for s in shapes]
            branches.append(["  " + line for line in body] + [f"  stablehlo.return {', '.join(outs)} : {types}"])
        lines.append(f'{res}:{len(shapes)} = "stablehlo.case"({idx}) ({{')
        lines += branches[0]
        lines.append("}, {")
        lines += branches[1]
        lines.append(f"}}){self.maybe_attr(shapes)} : (tensor<i32>) -> ({types})")
        env += [(f"{res}#{i}", s) for i, s in enumerate(shapes)]

    def op_barrier(self, env, depth, lines):
        xs = self.values(env, self.r.randint(1, 2))
        types = ", ".join(ttype(s) for _, s in xs)
        res = self.fresh("o")
        names, attr = [x for x, _ in xs], self.maybe_attr([s for _, s in xs])
        if self.r.random() < 0.25 and not attr:
            tok = self.fresh("t")
            lines.append(f"{tok} = stablehlo.after_all : !stablehlo.token")
            names.append(tok)
            types += ", !stablehlo.token"
        lines.append(f'{res}:{len(names)} = "stablehlo.optimization_barrier"({", ".join(names)})'
                     f'{attr} : ({types}) -> ({types})')
        env += [(f"{res}#{i}", s) for i, (_, s) in enumerate(xs)]

    def op_named(self, env, depth, lines):
        xs = self.values(env, self.r.randint(1, 2))
        args = [self.fresh("n") for _ in xs]
        benv = [(a, s) for a, (_, s) in zip(args, xs)]
        body = self.block(benv, depth + 1, self.r.randint(0, 3), allow_manual=False)
        out_shapes = [self.pick(benv)[1] for _ in range(self.r.randint(1, 2))]
        outs = [self.pick(benv, s)[0] for s in out_shapes]
        ins = f" in_shardings=[{', '.join(self.sharding(s) for _, s in xs)}]" if self.r.random() < 0.5 else ""
        outsh = f" out_shardings=[{', '.join(self.sharding(s) for s in out_shapes)}]" if self.r.random() < 0.5 else ""
        res = self.fresh("nc")
        name = self.r.choice(["foo", "bar"])
        otypes = ", ".join(ttype(s) for s in out_shapes)
        lines.append(f'{res}:{len(out_shapes)} = sdy.named_computation<"{name}">({", ".join(x for x, _ in xs)})'
                     f'{ins}{outsh} ({", ".join(f"{a}: {ttype(s)}" for a, (_, s) in zip(args, xs))}) {{')
        lines += ["  " + line for line in body]
        lines.append(f"  sdy.return {', '.join(outs)} : {otypes}")
        lines.append(f"}} : ({', '.join(ttype(s) for _, s in xs)}) -> ({otypes})")
        env += [(f"{res}#{i}", s) for i, s in enumerate(out_shapes)]

    def manual_layout(self, shape, manual_axes):
        """Per dim, the manual axes that shard it (dividing it evenly), and the local shape."""
        sizes = dict(self.axes)
        free = [a for a in manual_axes]
        self.r.shuffle(free)
        layout, local = [], []
        for d in shape:
            dim = []
            for a in list(free):
                if d % sizes[a] == 0 and self.r.random() < 0.5:
                    dim.append(a)
                    free.remove(a)
                    d //= sizes[a]
            layout.append(dim)
            local.append(d)
        return layout, tuple(local)

    def op_manual(self, env, depth, lines):
        if self.inline:
            return self.op_named(env, depth, lines)
        names = [a for a, _ in self.axes]
        manual = [a for a in names if self.r.random() < 0.5]
        if self.r.random() < 0.5:
            manual.sort(key=names.index)
        xs = self.values(env, self.r.randint(1, 2))
        layouts = [self.manual_layout(s, manual) for _, s in xs]
        free_axes = [(a, s) for a, s in self.axes if a not in manual]
        def msh(shape, layout, closed=False):
            body = self.sharding_body(shape, axes=self.axes, manual=layout, manual_axes=manual, closed=closed)
            return f"<@mesh, {body}>"
        # in/out shardings: manual axes first in each dim, free axes after.
        ins = [msh(s, lay) for (_, s), (lay, _) in zip(xs, layouts)]
        outs = [msh(s, lay) for (_, s), (lay, _) in zip(xs, layouts)]
        args = [self.fresh("m") for _ in xs]
        benv = [(a, loc) for a, (_, loc) in zip(args, layouts)]
        self.bound = set(manual)
        body = self.block(benv, depth + 1, self.r.randint(0, 3), allow_manual=False)
        self.bound = set()
        rets = [self.pick(benv, loc)[0] for _, loc in layouts]
        res = self.fresh("mc")
        gtypes = ", ".join(ttype(s) for _, s in xs)
        ltypes = ", ".join(ttype(loc) for _, loc in layouts)
        empty = self.r.random() < 0.1
        lines.append(f"{res}:{len(xs)} = sdy.manual_computation({', '.join(x for x, _ in xs)})"
                     f" in_shardings=[{', '.join(ins)}] out_shardings=[{', '.join(outs)}]"
                     f" manual_axes={{{', '.join(f'{chr(34)}{a}{chr(34)}' for a in manual)}}}"
                     f" ({', '.join(f'{a}: {ttype(loc)}' for a, (_, loc) in zip(args, layouts))}) {{")
        lines += ["  " + line for line in ([] if empty else body)]
        lines.append(f"  sdy.return {', '.join(a if empty else rv for a, rv in zip(args, rets))} : {ltypes}")
        lines.append(f"}} : ({gtypes}) -> ({gtypes})")
        env += [(f"{res}#{i}", s) for i, (_, s) in enumerate(xs)]

    def op_call(self, env, depth, lines):
        x = self.pick(env)
        shared = [n for n, s in self.callees if s == x[1]]
        if shared and self.r.random() < 0.4:
            name = self.r.choice(shared)  # one callee, several call sites
        else:
            name = f"callee{len(self.callees)}"
            self.callees.append((name, x[1]))
        v = self.fresh()
        lines.append(f"{v} = func.call @{name}({x[0]}){self.maybe_attr([x[1]], 0.3)} : ({ttype(x[1])}) -> {ttype(x[1])}")
        env.append((v, x[1]))

    # ------------------------------------------------------------ module
    def func(self, name, shapes, n_ops, private=False):
        args = [f"%arg{i}" for i in range(len(shapes))]
        env = list(zip(args, shapes))
        arg_text = ", ".join(
            f"{a}: {ttype(s)}" + (f" {{sdy.sharding = #sdy.sharding{self.sharding(s)}}}" if self.r.random() < 0.5 else "")
            for a, s in env)
        body = self.block(env, 0, n_ops)
        outs = [self.pick(env) for _ in range(self.r.randint(1, 2))] if not private else [self.pick(env, shapes[0])]
        res_text = ", ".join(
            ttype(s) + (f" {{sdy.sharding = #sdy.sharding{self.sharding(s)}}}" if self.r.random() < 0.4 else "")
            for _, s in outs)
        vis = "private " if private else ""
        text = [f"func.func {vis}@{name}({arg_text}) -> ({res_text}) {{"]
        text += ["  " + line for line in body]
        text.append(f"  return {', '.join(o for o, _ in outs)} : {', '.join(ttype(s) for _, s in outs)}")
        text.append("}")
        return "\n".join(text)

    def module(self):
        r = self.r
        parts = ["sdy.mesh @mesh = <[" + ", ".join(f'"{a}"={s}' for a, s in self.axes) + "]>"]
        if self.mesh2:
            parts.append('sdy.mesh @mesh2 = <["k"=2, "l"=1]>')
        if self.inline and r.random() < 0.5:
            parts.append('sdy.mesh @other = <["a"=2]>')
        if self.inline and r.random() < 0.4:
            parts.append('sdy.mesh @dup = <["a"=2], device_ids=[1, 0]>')
        if r.random() < 0.2:
            parts.append("sdy.mesh @mesh_copy = " + parts[0].split(" = ", 1)[1])
        if r.random() < 0.15:
            parts.append("sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>")
        funcs = []
        for fi in range(r.randint(1, 2)):
            shapes = [r.choice(SHAPES) for _ in range(r.randint(1, 3))]
            funcs.append(self.func("main" if fi == 0 else f"f{fi}", shapes, r.randint(2, 9)))
        done = 0
        while done < len(self.callees):
            name, shape = self.callees[done]
            funcs.append(self.func(name, [shape], r.randint(0, 3), private=True))
            done += 1
        return "\n".join(parts + funcs) + "\n"


# ---------------------------------------------------------------- running
def in_child(fn, *args):
    """fn(*args) in a forked child: (True, value), or (False, None) if the child died."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            data = pickle.dumps(fn(*args))
        except BaseException as e:  # noqa: BLE001
            data = pickle.dumps(("exception", repr(e)))
        with os.fdopen(wr, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(wr)
    with os.fdopen(rd, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return False, None
    return True, pickle.loads(data)


def reference(text, flags):
    return in_child(run_reference, text, pipeline_from_flags(flags))


def pass_flag(key):
    return "-" + key.split("@")[0]


CHANGED: dict[str, int] = {}  # with -v: how often the reference changed its input, per pass
VERBOSE = False


def check(text, key, prefix, tmp):
    """'skip' | 'ok' | (kind, input, expected, actual)."""
    if prefix:
        alive, res = reference(text, prefix)
        if not alive or res[0] is not True:
            return "skip"
        text = res[1]
    alive, res = reference(text, [pass_flag(key)])
    if not alive or res == "exception":
        return "skip"
    ok, expected = res
    if VERBOSE and ok and expected != reference(text, [])[1][1]:
        CHANGED[key] = CHANGED.get(key, 0) + 1
    path = Path(tmp) / "in.mlir"
    path.write_text(text)
    rc, out, err = run_sdy_dsl(["opt", str(path), pass_flag(key)])
    if not ok:
        return "ok" if rc != 0 else ("ref-error-only", text, "<error>", out)
    if rc != 0:
        return ("dsl-error-only", text, expected, err)
    return "ok" if out == expected else ("diff", text, expected, out)


def _fails(text, key, tmp, kind):
    """Whether `text` (a module before the prefix passes) still shows a `kind` difference on `key`."""
    alive, res = reference(text, [])
    if not alive or res[0] is not True:
        return False
    result = check(text, key, PASSES[key], tmp)
    return not isinstance(result, str) and result[0] == kind


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--passes", default="", help="comma-separated subset of the pass keys")
    ap.add_argument("--keep", default="", help="directory for mismatching inputs/outputs")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--print", action="store_true", help="only print the generated modules")
    ap.add_argument("--reduce", action="store_true",
                    help="shrink each mismatching module (written to --keep as reduced.mlir, else printed)")
    ap.add_argument("--calls", action="store_true", help="call-heavy modules (shared callees, nested calls)")
    args = ap.parse_args(argv)
    if args.calls:
        Gen.call_weight = 6.0
    global VERBOSE
    VERBOSE = args.v
    keys = [k for k in PASSES if not args.passes or k.split("=")[0].split("@")[0] in args.passes.split(",") or k in args.passes.split(",")]
    stats = {"ok": 0, "skip": 0, "invalid": 0, "mismatch": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            seed = args.seed * 100003 + i
            text = Gen(seed).module()
            if args.print:
                print(f"// seed {seed}\n{text}")
                continue
            alive, res = reference(text, [])
            if not alive or res[0] is not True:
                stats["invalid"] += 1
                continue
            for key in keys:
                result = check(text, key, PASSES[key], tmp)
                if isinstance(result, str):
                    stats[result] += 1
                    continue
                stats["mismatch"] += 1
                kind, inp, exp, act = result
                print(f"MISMATCH seed={seed} pass={key} ({kind})")
                small = reduce(text, lambda t, key=key, kind=kind: _fails(t, key, tmp, kind)) if args.reduce else ""
                if args.keep:
                    d = Path(args.keep) / f"{seed}_{key.replace('=', '_')}"
                    d.mkdir(parents=True, exist_ok=True)
                    (d / "in.mlir").write_text(inp)
                    (d / "expected.mlir").write_text(exp)
                    (d / "actual.mlir").write_text(act)
                    if small:
                        (d / "reduced.mlir").write_text(small)
                elif small:
                    print(small)
                if args.v:
                    print(inp, "\n--- expected\n", exp, "\n--- actual\n", act)
    if args.v:
        print("reference changed the module:", CHANGED)
    print(f"modules={args.count} passes={len(keys)} " + " ".join(f"{k}={v}" for k, v in stats.items()))
    return 1 if stats["mismatch"] else 0


if __name__ == "__main__":
    sys.exit(main())
