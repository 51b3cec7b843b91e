"""Mutation fuzzing of everything a user hands sdy-dsl: MLIR inputs, rule files
(including misused IR actions under every driver), data files, pipeline files
and command-line flags.

    python tests/fuzz_robustness.py --seed S --count N [--kinds mlir,rules,data,pipeline,flags]
                                    [--timeout SEC] [--keep DIR] [-v]

Each case runs `sdy-dsl` in a forked child (stdout/stderr to files, C++
output included; memory capped) and is classified:

    ok               exit 0
    located          exit 1, every error line `file:line:col: error: ...`
                     (`sdy-dsl: error: ...` for command-line problems)
    unlocated        exit 1 with an error line that names no position
    internal         exit 2 / "internal error"
    traceback        a Python traceback on stderr
    crash            killed by a signal (segfault, abort, ...)
    hang             still running after --timeout seconds
    output-touched   failed, but the `-o` file changed

Every class but the first two is a bug; the cases are printed (and kept
under --keep). Not a pytest module (tests/test_fuzz_samples.py runs a seeded sample).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shlex
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]
os.environ["SDY_DSL_NO_CACHE"] = "1"  # thousands of mutants must not fill the YAML cache

from sdy_dsl import cli  # noqa: E402  (imported once; every child is a fork)
from test_robustness import MODULE  # noqa: E402

LOCATED = re.compile(r"^\S.*?:\d+:\d+: (error|warning|note): ")
USAGE = re.compile(r"^sdy-dsl: error: ")
# A command-line error is located by the command line, whatever the case mutated.
COMMAND_LINE = re.compile(r"^sdy-dsl: error: unknown (option or )?pass ")
SENTINEL = "// untouched output\n"
DRIVERS = ("walk", "greedy", "once")

# Small modules the generated rules run on: multiple uses, a while, a call,
# unused ops, shardings.
MODULES = [
    MODULE,
    """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func private @callee(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %a : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %a : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = func.call @callee(%1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.add %2, %0 : tensor<8x8xf32>
  sdy.sharding_group %3 group_id=0 : tensor<8x8xf32>
  %4 = stablehlo.abs %3 : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
""",
]

# The misuses issue 15 reported (crashes before the safe action layer), tried under every driver.
ISSUE_MISUSES = [
    ("%r = stablehlo.negate(%x)", ["erase($root)"]),
    ("%r = stablehlo.abs(%x)", ["replace($root, [])"]),
    ("%r = stablehlo.negate(%x)", ["erase(parent_op($root))"]),
    ("%r = stablehlo.negate(%x)", ["erase(defining_op(%x))"]),
    ("%r = stablehlo.abs(%x)", ["erase(defining_op(%x))"]),
    ("%r = stablehlo.negate(%x)", ["for_each(users(%r), $u => erase($u))"]),
    ("%r = stablehlo.abs(%x)", ["replace_uses(%r, %x)", "erase($root)", "erase($root)"]),
    ("$op = stablehlo.abs(%x)", ["replace_uses(at(results($op), 0), %x)", "erase($op)", "set_attr($op, 'a', 1)"]),
    ("$op = stablehlo.negate(%x)", ["move_before(parent_op($op), $op)"]),
    ("$op = stablehlo.negate(%x)", ["move_after(parent_op(parent_op($op)), $op)"]),
]

MATCHES = ["%r = stablehlo.negate(%x)", "%r = stablehlo.abs(%x)", "%r = stablehlo.add(%x, %y)",
           "$w = stablehlo.while(%x, %y)", "%r = stablehlo.reshape(%x)", "$op = *",
           "%r = sdy.sharding_constraint(%x) {sharding = $s}", "$g = sdy.sharding_group(%x)",
           "$f = func.func()", "%r = stablehlo.sine(%x)", "%r = func.call(%x)"]
OPS = ["$root", "parent_op($root)", "defining_op(%x)", "at(users(%r), 0)", "first_user_in_block($root)",
       "at(users(at(operands($root), 0)), 0)", "parent_op(parent_op($root))", "%x", "none"]
VALUES = ["%x", "%r", "%y", "at(results($root), 0)", "at(operands($root), 0)", "$root", "[]", "[%x, %x]"]
NAMES = ["'a'", "''", "'sdy.sharding'", "'sym_name'", "5", "'a b'"]
LITERALS = ["1", "'s'", "true", "-3", "9" * 30, "[1]"]


# --------------------------------------------------------------------------- running


def run_case(argv: list[str], workdir: Path, timeout: float) -> tuple[str, int | None, str]:
    """(class, exit code, stderr) of one sdy-dsl run in a forked child."""
    out_path, err_path = workdir / "stdout", workdir / "stderr"
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.chdir(workdir)
            fd_out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            fd_err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd_out, 1)
            os.dup2(fd_err, 2)
            sys.stdout = open(1, "w", closefd=False)
            sys.stderr = open(2, "w", closefd=False)
            resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
            rc = cli.main(argv)
            sys.stdout.flush()
            sys.stderr.flush()
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 0
        except BaseException:
            import traceback
            traceback.print_exc()
            sys.stderr.flush()
            rc = 3
        os._exit(rc)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "hang", None, ""
        time.sleep(0.005)
    err = err_path.read_text(errors="replace")
    if os.WIFSIGNALED(status):
        return "crash", -os.WTERMSIG(status), err
    rc = os.WEXITSTATUS(status)
    if "Traceback (most recent call last)" in err:
        return "traceback", rc, err
    if rc == 0:
        return "ok", rc, err
    if rc == 2 or "internal error" in err:
        return "internal", rc, err
    if rc != 1:
        return "crash", rc, err
    return "error", rc, err


def classify_error(err: str, usage_ok: bool) -> str:
    lines = [ln for ln in err.splitlines() if ": error: " in ln or ln.startswith("sdy-dsl:")]
    if not lines:
        return "unlocated"
    for ln in lines:
        if LOCATED.match(ln):
            continue
        if (usage_ok and USAGE.match(ln)) or COMMAND_LINE.match(ln):
            continue
        return "unlocated"
    return "located"


# --------------------------------------------------------------------------- mutations


def mutate_text(r: random.Random, text: str, rounds: int = 0) -> str:
    for _ in range(rounds or r.choice([1, 1, 1, 2, 3])):
        if not text:
            return text
        i = r.randrange(len(text))
        kind = r.randrange(12)
        lines = text.split("\n")
        li = r.randrange(len(lines))
        if kind == 0:
            text = text[:i] + text[i + 1:]
        elif kind == 1:
            text = text[:i] + r.choice("(){}[]<>,:=%$@\"'#!*- \n\t0129xa?") + text[i:]
        elif kind == 2:
            del lines[li]
            text = "\n".join(lines)
        elif kind == 3:
            lines.insert(li, lines[r.randrange(len(lines))])
            text = "\n".join(lines)
        elif kind == 4:
            text = text[:i]
        elif kind == 5:
            text = text[:i] + r.choice(["\0", "\udcff", "\u00e9", "\r", "\x1b", "\ufeff"]) + text[i:]
        elif kind == 6:
            text = re.sub(r"\d+", lambda m: r.choice(["0", "-1", "99999999999999999999", "3", m.group()]),
                          text, count=r.randint(1, 3))
        elif kind == 7:
            j = r.randrange(len(lines))
            lines[li], lines[j] = lines[j], lines[li]
            text = "\n".join(lines)
        elif kind == 8:
            words = re.findall(r"[A-Za-z_][\w.-]*", text)
            if words:
                text = text.replace(r.choice(words), r.choice(words), 1)
        elif kind == 9:
            text = text[:i] + text[i:i + 40] * r.randint(2, 30) + text[i + 40:]
        elif kind == 10:
            text = text[:i] + "(" * r.choice([10, 100, 1000]) + text[i:]
        else:
            text = text[:i] + " " + text[i:]
    return text


def to_bytes(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


# --------------------------------------------------------------------------- case makers


class Cases:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.detail = ""  # what kind of rule case the last one was
        self.lit = self._lit_chunks()
        self.rule_files = sorted((ROOT / "rules").rglob("*.yaml"))
        self.pipelines = sorted((ROOT / "pipelines").glob("*.yaml"))

    @staticmethod
    def _lit_chunks():
        chunks = []
        for path in sorted((ROOT / "tests/lit").rglob("*.mlir")):
            text = path.read_text()
            m = re.search(r"// RUN: (?:not )?sdy-dsl opt %s(.*?)(\||$)", text, re.M)
            if not m or path.stat().st_size > 60_000:
                continue
            flags = [a for a in shlex.split(m.group(1)) if a not in ("2>&1",)]
            for chunk in re.split(r"^// -----.*$", text, flags=re.M):
                chunks.append((chunk, flags))
        return chunks

    # one case: (kind, argv-maker(workdir) -> argv, usage_ok, checks -o)
    def mlir(self, d: Path):
        chunk, flags = self.r.choice(self.lit)
        if self.r.random() < 0.9:
            chunk = mutate_text(self.r, chunk)
        (d / "in.mlir").write_bytes(to_bytes(chunk))
        return ["opt", "in.mlir", *flags, "-o", "out.mlir"], False

    def rules(self, d: Path):
        r = self.r
        user = d / "rules"
        user.mkdir()
        if r.random() < 0.3:
            # A built-in rule file, mutated, run on a module it is meant for.
            path = r.choice(self.rule_files)
            text = path.read_text()
            if "pass:" not in text:
                return self.data(d)
            name = re.search(r"^pass:\s*(\S+)", text, re.M).group(1)
            (user / path.name).write_bytes(to_bytes(mutate_text(r, text)))
            hook = path.with_suffix(".py")
            if hook.exists():
                shutil.copy(hook, user / hook.name)
            chunk, _ = r.choice(self.lit)
            (d / "in.mlir").write_text(chunk)
            self.detail = "built-in file mutated"
            return ["opt", "in.mlir", "--rules", "rules", f"-{name}", "-o", "out.mlir"], False
        if r.random() < 0.15:
            self.detail = "stage hook"
            return self._hook_case(d, user)
        if r.random() < 0.12:
            return self._retyped_case(d, user)
        if r.random() < 0.1:
            return self._raw_ir_rule_hook(d, user)
        driver = r.choice(DRIVERS)
        self.detail = f"{driver} driver"
        extra = ""
        if driver == "greedy" and r.random() < 0.5:
            extra += f", max-iterations: {r.choice([1, 3, 100, 100000, 2**31 + 5])}"
        if r.random() < 0.3:
            extra += f", max-rewrites: {r.choice([1, 5, 50, 0, -1])}"
        if driver != "walk" and r.random() < 0.3:
            extra += ", traversal: bottom-up"
        text = f"pass: t-pass\nsummary: fuzz\ndriver: {{kind: {driver}{extra}}}\nrules:\n"
        if r.random() < 0.3:
            match, actions = r.choice(ISSUE_MISUSES)
            self.detail += " (issue's misuse)"
            body = "".join(f"    - {a!r}\n" if "'" not in a else f'    - "{a}"\n' for a in actions)
            text += f"  - id: r0\n    match: {match!r}\n    rewrite:\n{body}"
        else:
            for k in range(r.randint(1, 3)):
                text += self._rule(k)
        if r.random() < 0.15:
            text = mutate_text(r, text)
        (user / "t.yaml").write_bytes(to_bytes(text))
        (d / "in.mlir").write_text(r.choice(MODULES))
        return ["opt", "in.mlir", "--rules", "rules", "-t-pass", "-o", "out.mlir"], False

    HOOK_BODIES = [
        "sys.exit(0)", "sys.exit('bye')", "raise ValueError('loc(\"in.mlir\":2:3): broken')",
        "raise KeyError('x')", "f = lambda n: f(n + 1)\n    f(0)", "ctx.erase(first(ctx, 'stablehlo.negate'))",
        "ctx.erase(ctx.anchor)", "ctx.replace_op(first(ctx, 'stablehlo.abs'), [])",
        "op = first(ctx, 'stablehlo.negate')\n    ctx.move(op, op, after=True)",
        "w = first(ctx, 'stablehlo.while')\n    ctx.move(w, first(ctx, 'stablehlo.negate', inside=w), after=False)",
        "op = first(ctx, 'stablehlo.sine')\n    ctx.erase(op)\n    ctx.erase(op)",
        "ctx.set_attr(first(ctx, 'stablehlo.abs'), '', ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1))",
        "ctx.emit_error(first(ctx, 'stablehlo.abs'), 'no')", "return None",
        "ctx.anchor.erase()", "first(ctx, 'stablehlo.negate').parent.erase()",
        "ctx.module.operation.erase()", "ctx.anchor.move_before(first(ctx, 'stablehlo.abs'))",
        "op = first(ctx, 'stablehlo.sine')\n    op.erase()\n    ctx.mark_changed()",
    ]

    RETYPED = [3, -1, True, None, "s", [], ["a", ["b"]], {"a": 1}, [{"a": [1]}], 1.5]

    def _retyped_case(self, d: Path, user: Path):
        """A built-in rule file with one key's value (at any depth) of another type."""
        r = self.r
        path = r.choice([p for p in self.rule_files if p.read_text().lstrip().startswith("pass:")])
        doc = yaml.safe_load(path.read_text())
        slots = []

        def visit(node):
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for key, value in items:
                slots.append((node, key))
                visit(value)
        visit(doc)
        node, key = r.choice(slots)
        node[key] = r.choice(self.RETYPED)
        (user / path.name).write_text(yaml.safe_dump(doc, sort_keys=False))
        hook = path.with_suffix(".py")
        if hook.exists():
            shutil.copy(hook, user / hook.name)
        (d / "in.mlir").write_text(r.choice(MODULES))
        self.detail = "built-in file, a value retyped"
        return ["opt", "in.mlir", "--rules", "rules", f"-{doc['pass']}", "-o", "out.mlir"], False

    RAW_IR = ["op.erase()", "op.parent.erase()", "op.parent.parent.erase()", "op.move_before(op.parent)",
              "op.operands[0].owner.erase() if isinstance(op.operands[0].owner, ir.Operation) else None",
              "[u.owner.erase() for u in op.results[0].uses]", "op.detach_from_parent()",
              "op.move_after(op.parent.regions[0].blocks[0].operations[0])"]

    def _raw_ir_rule_hook(self, d: Path, user: Path):
        """A hook called from a rule erasing / moving ops through the raw MLIR API (not the context)."""
        r = self.r
        driver = r.choice(DRIVERS)
        match = r.choice(["$c = stablehlo.negate(%x)", "$c = stablehlo.add(%x, %y)", "$c = stablehlo.abs(%x)"])
        (user / "t.yaml").write_text(f"pass: t-pass\nsummary: fuzz\ndriver: {{kind: {driver}}}\nrules:\n"
                                     f"  - id: r\n    match: {match!r}\n    rewrite:\n      - raw($c)\n")
        (user / "t.py").write_text("from jaxlib.mlir import ir\nfrom sdy_dsl.hooks import hook\n\n\n"
                                   "@hook\ndef raw(op: ir.Operation) -> None:\n    op = op.operation\n"
                                   f"    {r.choice(self.RAW_IR)}\n")
        (d / "in.mlir").write_text(r.choice(MODULES))
        self.detail = f"{driver} driver, raw-IR hook"
        return ["opt", "in.mlir", "--rules", "rules", "-t-pass", "-o", "out.mlir"], False

    def _hook_case(self, d: Path, user: Path):
        """A stage hook misbehaving: exiting, raising, recursing, misusing the ctx API."""
        body = self.r.choice(self.HOOK_BODIES)
        (user / "t.yaml").write_text("pass: t-pass\nsummary: fuzz\nstages:\n  - {name: s, call: step}\n")
        (user / "t.py").write_text(
            "import sys\nfrom jaxlib.mlir import ir\nfrom sdy_dsl.hooks import hook\n\n\n"
            "def first(ctx, name, inside=None):\n    found = []\n"
            "    (inside or ctx.anchor).walk(lambda o: (found.append(o) if o.name == name else None) "
            "or ir.WalkResult.ADVANCE)\n    return found[-1 if inside else 0].operation\n\n\n"
            f"@hook\ndef step(ctx: object) -> None:\n    {body}\n")
        (d / "in.mlir").write_text(MODULE)
        return ["opt", "in.mlir", "--rules", "rules", "-t-pass", "-o", "out.mlir"], False

    def _rule(self, k: int) -> str:
        r = self.r
        match = r.choice(MATCHES)
        actions = [self._action(depth=0) for _ in range(r.randint(1, 3))]
        where = ""
        if r.random() < 0.2:
            where = "  where: " + repr(r.choice(["num_uses(%r) > 1", "(" * r.choice([3, 70, 300]) + "true"
                                                 + ")" * 5, "rank(%x) == " + "7" * r.choice([3, 5000]),
                                                 " + ".join(["1"] * r.choice([3, 2000])) + " > 0"])) + "\n"
        body = "".join(f"    - {a}\n" for a in actions)
        return f"  - id: r{k}\n    match: {match!r}\n{where}    rewrite:\n{body}"

    def _action(self, depth: int) -> str:
        r = self.r
        op, op2, v, v2 = r.choice(OPS), r.choice(OPS), r.choice(VALUES), r.choice(VALUES)
        choices = [f"erase({op})", f"replace({op}, {v})", f"replace({op}, [])", f"replace_uses({v}, {v2})",
                   f"move_before({op}, {op2})", f"move_after({op}, {op2})",
                   f"set_attr({op}, {r.choice(NAMES)}, {r.choice(LITERALS)})", f"remove_attr({op}, {r.choice(NAMES)})",
                   f"warning({op}, 'w')", f"error({op}, 'e')", f"for_each_sharding({op}, $s => closed($s))",
                   "{create: '%z = stablehlo.negate(%x)'}", "{replace: '%r = stablehlo.abs(%x)'}",
                   f"constrain({v}, replicated(%x, 'mesh'))", f"warning({v}, 'w')",
                   "{create: '%z = stablehlo.negate(%x)', after: '%x', redirect: '%x'}",
                   "{create: '%z = stablehlo.negate(%x)', before: '" + op + "', redirect: '%x'}"]
        if depth == 0:
            inner = self._action(1).replace("$root", "$u")
            choices.append(f"for_each(users({v}), $u => {inner})")
        a = r.choice(choices)
        return a if a.startswith("{") else repr(a) if "'" not in a else '"' + a + '"'

    def data(self, d: Path):
        r = self.r
        user = d / "rules"
        user.mkdir(exist_ok=True)
        name = r.choice(["interfaces.yaml", "op_sharding_rules.yaml", "op_priority_heuristics.yaml"])
        source = (ROOT / "rules" / name) if name == "interfaces.yaml" else (ROOT / "rules/propagation" / name)
        text = source.read_text()
        if r.random() < 0.3:
            # A type error at an entry: a list, a number or a mapping where another is expected.
            text = re.sub(r": (\S+)$", lambda m: ": " + r.choice(["[1, 2]", "5", "{a: b}", "null", m.group(1)]),
                          text, count=r.randint(1, 4), flags=re.M)
        else:
            text = mutate_text(r, text)
        (user / name).write_bytes(to_bytes(text))
        chunk, _ = r.choice([c for c in self.lit if "sharding" in c[0]] or self.lit)
        (d / "in.mlir").write_text(chunk)
        p = r.choice(["-sdy-basic-propagate", "-sdy-aggressive-propagate", "-sdy-op-priority-propagate",
                      "-sdy-add-data-flow-edges", "-sdy-user-priority-propagate"])
        return ["opt", "in.mlir", "--rules", "rules", p, "-o", "out.mlir"], False

    def pipeline(self, d: Path):
        r = self.r
        if r.random() < 0.5:
            text = mutate_text(r, r.choice(self.pipelines).read_text())
        else:
            names = ["sdy-close-shardings", " sdy-close-shardings", "sdy-close-shardings ", "", "  ", "inline",
                     "symbol-dce", "sdy-nope", "loop-unroll", "5", "func.func", "'sdy-remove-size-one-axes'"]
            entries = []
            for _ in range(r.randint(1, 5)):
                k = r.randrange(5)
                if k == 0:
                    entries.append(repr(r.choice(names)))
                elif k == 1:
                    entries.append("{func.func: [" + repr(r.choice(names)) + "]}")
                elif k == 2:
                    entries.append("{" + repr(r.choice(names)) + ": {" + r.choice(
                        ["x: 1", "keep-sharding-rules: [a, b]", "module-dump-directory: [a, b]",
                         "module-dump-directory: {}", "a: '1}),sdy-close-shardings('", ""]) + "}}")
                elif k == 3:
                    n = r.choice([2, 50])
                    entries.append("{func.func: [" * n + "inline" + "]}" * n)
                else:
                    entries.append("{sdy-basic-propagate: {module-dump-directory: " + r.choice(
                        ["[a, b]", "5", "x"]) + "}}")
            text = "passes: [" + ", ".join(entries) + "]\n"
            if r.random() < 0.2:
                text = "passes:\n" + "  " * 0 + "- " * r.choice([10, 3000]) + "inline\n"
        (d / "p.yaml").write_bytes(to_bytes(text))
        chunk, _ = r.choice(self.lit)
        (d / "in.mlir").write_text(chunk)
        return ["run", "p.yaml", "in.mlir", "-o", "out.mlir"], False

    def flags(self, d: Path):
        r = self.r
        chunk, flags = r.choice(self.lit)
        (d / "in.mlir").write_text(chunk)
        (d / "afile").write_text("x")
        (d / "real.mlir").write_text(SENTINEL)
        os.symlink("real.mlir", d / "link.mlir")
        outs = ["out.mlir", str(d), "nodir/out.mlir", "", "a" * 300, "afile/x", "link.mlir", "/dev/full",
                "/dev/null", "out.mlir", "out.mlir"]
        argv = ["opt", "in.mlir"]
        pipe_names = ["sdy-close-shardings", " sdy-close-shardings", "", "inline", "sdy-x", "func.func(inline)",
                      "sdy-remove-size-one-axes{x=1}", "inline{a='1}),sdy-close-shardings('}",
                      "func.func(" * r.choice([2, 40, 3000]) + "inline" + ")" * 3]
        k = r.randrange(4)
        if k == 0:
            argv += flags
        elif k == 1:
            argv.append("--pass-pipeline=builtin.module(" + ",".join(r.choice(pipe_names)
                                                                      for _ in range(r.randint(1, 3))) + ")")
        elif k == 2:
            argv += [r.choice(["-", "--", "-=x", "--=", "- sdy-close-shardings", "-sdy-close-shardings ",
                               "-sdy-close-shardings=x", "-sdy-basic-propagate=module-dump-directory=afile",
                               "--rules", "--trace", "--rule-stats", "--split-input-file", "-loop-unroll"])
                     for _ in range(r.randint(1, 3))]
        else:
            argv += flags + [r.choice(["--dump-dir", "--dump-dir=afile", "--rules=afile", "--explain", "--trace"]),
                             r.choice(["afile", "dumps", "", "in.mlir"])]
        out = r.choice(outs)
        argv += ["-o", out]
        return argv, True


# --------------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--kinds", default="mlir,rules,data,pipeline,flags")
    ap.add_argument("--weights", default="", help="e.g. mlir=3,rules=4 (default: equal)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--keep", type=Path, help="keep the cases that found a bug here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    kinds = args.kinds.split(",")
    weights = dict((k, 1.0) for k in kinds)
    for item in filter(None, args.weights.split(",")):
        k, _, w = item.partition("=")
        weights[k] = float(w)
    cases = Cases(args.seed)
    r = random.Random(args.seed + 1)
    counts: Counter = Counter()
    by_kind: Counter = Counter()
    by_detail: Counter = Counter()
    bugs = []
    t0 = time.monotonic()
    for i in range(args.count):
        kind = r.choices(kinds, [weights[k] for k in kinds])[0]
        d = Path(tempfile.mkdtemp(prefix=f"fuzzrob-{i}-"))
        try:
            cases.detail = ""
            argv_case, usage_ok = getattr(cases, kind)(d)
            out_file = d / "out.mlir"
            out_file.write_text(SENTINEL)
            cls, rc, err = run_case(argv_case, d, args.timeout)
            if cls == "error":
                cls = classify_error(err, usage_ok or kind == "flags")
            if cls in ("located", "unlocated") and out_file.read_text(errors="replace") != SENTINEL:
                cls = "output-touched"
            if kind == "flags" and cls != "ok" and (d / "real.mlir").read_text() != SENTINEL:
                cls = "output-touched"
            counts[cls] += 1
            by_kind[(kind, cls)] += 1
            if cases.detail:
                by_detail[(cases.detail, cls)] += 1
            if cls not in ("ok", "located"):
                first = err.strip().splitlines()[-1] if err.strip() else ""
                bugs.append((i, kind, cls, argv_case, first))
                print(f"[{i}] {kind}: {cls} (rc={rc}): {' '.join(map(str, argv_case))}\n    {first[:300]}", flush=True)
                if args.keep:
                    shutil.copytree(d, args.keep / f"{i}-{kind}-{cls}", dirs_exist_ok=True)
            elif args.verbose:
                print(f"[{i}] {kind}: {cls}", flush=True)
        finally:
            shutil.rmtree(d, ignore_errors=True)
    dt = time.monotonic() - t0
    print(f"\n{args.count} cases in {dt:.0f}s (seed {args.seed})")
    for kind in kinds:
        row = {cls: n for (k, cls), n in by_kind.items() if k == kind}
        print(f"  {kind:9} {sum(row.values()):5d}  " + "  ".join(f"{c}={n}" for c, n in sorted(row.items())))
        if kind == "rules":
            for detail in sorted({k for k, _ in by_detail}):
                row = {cls: n for (k, cls), n in by_detail.items() if k == detail}
                print(f"    {detail:34} {sum(row.values()):5d}  "
                      + "  ".join(f"{c}={n}" for c, n in sorted(row.items())))
    print("  total     " + "  ".join(f"{c}={n}" for c, n in sorted(counts.items())))
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
