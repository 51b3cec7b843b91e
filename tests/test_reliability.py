"""Issue 24: every rule-file shape gets a located error, hooks cannot crash
the process by erasing what the driver holds, and `-o` is written safely."""
from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl import output_file
from test_cli_errors import fails_with, rules_dir, write

ROOT = Path(__file__).resolve().parent.parent

MODULE = textwrap.dedent("""\
    func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
      %0 = stablehlo.add %a, %a : tensor<8xf32>
      %1 = stablehlo.negate %0 : tensor<8xf32>
      return %1 : tensor<8xf32>
    }
    """)

RULE = "  - id: r\n    match: \"$c = stablehlo.add(%x, %y)\"\n    rewrite:\n      - set_attr($c, \"t\", 1)\n"
STAGE = "stages:\n  - {name: s1, rules: [r]}\n"


def _pass(body: str, rules: str = RULE, stages: str = STAGE) -> str:
    return f"pass: t-pass\nsummary: s\nanchor: func.func\n{body}{stages}" + (f"rules:\n{rules}" if rules else "")


# (rule file text, the located message expected at its position)
SHAPES = {
    "option values an integer": (_pass("options:\n  o:\n    type: enum\n    values: 3\n    default: a\n"),
                                 r"t\.yaml:7:13: error: option 'o': 'values' must be a list of strings"),
    "option values a list of lists": (_pass("options:\n  o:\n    type: enum\n    values: [[a]]\n    default: a\n"),
                                      r"t\.yaml:7:13: error: option 'o': 'values' must be a list of strings"),
    "option help a list": (_pass("options:\n  o:\n    type: bool\n    default: true\n    help: [x]\n"),
                           r"error: option 'o': 'help' must be a string"),
    "stage call a list": (_pass("", stages="stages:\n  - {name: s1, call: [x]}\n", rules=""),
                          r"t\.yaml:5:22: error: stage 's1': 'call' names one hook"),
    "stage call a mapping": (_pass("", stages="stages:\n  - {name: s1, call: {a: 1}}\n", rules=""),
                             r"error: stage 's1': 'call' names one hook"),
    "stage rules a mapping": (_pass("", stages="stages:\n  - {name: s1, rules: {a: 1}}\n"),
                              r"t\.yaml:5:5: error: stage 's1': 'rules' must be a list of rule ids"),
    "stage rule id a list": (_pass("", stages="stages:\n  - {name: s1, rules: [[r]]}\n"),
                             r"error: stage 's1': a rule id is a string"),
    "stage name a mapping": (_pass("", stages="stages:\n  - {name: {a: 1}, rules: [r]}\n"),
                             r"error: a stage's 'name' must be a string"),
    "anchor a list": ("pass: t-pass\nsummary: s\nanchor: [func.func]\nrules:\n" + RULE,
                      r"t\.yaml:3:9: error: 'anchor' must be a string"),
    "summary a mapping": ("pass: t-pass\nsummary: {a: 1}\nrules:\n" + RULE, r"t\.yaml:2:10: error: 'summary' must be a string"),
    "hooks a list": ("pass: t-pass\nsummary: s\nhooks: [a.py]\nrules:\n" + RULE, r"error: 'hooks' must be a string"),
    "benefit a bool": ("pass: t-pass\nsummary: s\nrules:\n" + RULE + "    benefit: true\n",
                       r"error: benefit must be a non-negative integer"),
    "disable-rules of lists": ("pass: t-pass\nextends: sdy-close-shardings\ndisable-rules: [[a]]\n",
                               r"error: 'disable-rules' is a list of rule ids"),
}


@pytest.mark.parametrize("case", sorted(SHAPES))
def test_every_rule_file_shape_gets_a_located_error(tmp_path, case):
    text, pattern = SHAPES[case]
    rules, _ = rules_dir(tmp_path, text)
    mlir = write(tmp_path, "in.mlir", MODULE)
    line = fails_with(["opt", mlir, "--rules", str(rules), "-t-pass"], pattern)
    assert "internal error" not in line


RULE_HOOK = textwrap.dedent("""\
    from jaxlib.mlir import ir
    from sdy_dsl.hooks import hook
    from sdy_dsl.interp.context import RewriteContext


    @hook
    def kill_parent(op: ir.Operation) -> None:
        op.operation.parent.erase()


    @hook
    def erase_self(op: ir.Operation) -> None:
        op.operation.erase()


    @hook
    def move_out(op: ir.Operation) -> None:
        func = op.operation.parent
        op.operation.move_before(func)


    @hook
    def erase_own(ctx: RewriteContext, op: ir.Operation) -> None:
        ctx.erase(op.operation.operands[0].owner) if False else None
        made = ir.Operation.create("stablehlo.constant", results=[ir.RankedTensorType.get([], ir.F32Type.get())],
                                   attributes={"value": ir.DenseElementsAttr.get_splat(
                                       ir.RankedTensorType.get([], ir.F32Type.get()), ir.FloatAttr.get_f32(1.0))},
                                   loc=op.location)
        made.erase()
        ctx.set_attr(op, "t", ir.UnitAttr.get())


    @hook
    def kill_anchor(ctx: RewriteContext) -> None:
        ctx.anchor.erase()


    @hook
    def kill_module(ctx: RewriteContext) -> None:
        ctx.module.operation.erase()


    @hook
    def erase_inside(ctx: RewriteContext) -> None:
        body = ctx.anchor.regions[0].blocks[0]
        neg = body.operations[1]
        neg.results[0].replace_all_uses_with(neg.operands[0])
        neg.erase()
        ctx.mark_changed()
    """)


@pytest.mark.parametrize("driver", ["walk", "greedy", "once"])
@pytest.mark.parametrize("hook,what", [("kill_parent", "erase 'func.func'"), ("erase_self", "erase 'stablehlo.add'"),
                                       ("move_out", "move 'stablehlo.add'")])
def test_a_rule_hook_erasing_what_the_driver_holds_is_a_located_error(tmp_path, driver, hook, what):
    text = (f"pass: t-pass\nsummary: s\ndriver: {{kind: {driver}}}\nrules:\n"
            f"  - id: r\n    match: \"$c = stablehlo.add(%x, %y)\"\n    rewrite:\n      - {hook}($c)\n")
    rules, _ = rules_dir(tmp_path, text, hooks=RULE_HOOK)
    mlir = write(tmp_path, "in.mlir", MODULE)
    out = tmp_path / "out.mlir"
    out.write_text("previous\n")
    fails_with(["opt", mlir, "--rules", str(rules), "-t-pass", "-o", str(out)],
               rf"t\.yaml:8:9: error: rule 'r': hook '{hook}' tried to {what}.* through the raw MLIR API")
    assert out.read_text() == "previous\n"


def test_a_rule_hook_may_erase_the_detached_ops_it_built(tmp_path):
    text = ("pass: t-pass\nsummary: s\nrules:\n"
            "  - id: r\n    match: \"$c = stablehlo.add(%x, %y)\"\n    rewrite:\n      - erase_own($c)\n")
    rules, _ = rules_dir(tmp_path, text, hooks=RULE_HOOK)
    rc, out, err = run_sdy_dsl(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass"])
    assert rc == 0, err
    assert "stablehlo.add %arg0, %arg0 {t} : tensor<8xf32>" in out


@pytest.mark.parametrize("hook,anchor,where", [("kill_anchor", "func.func", "the anchor of the pass"),
                                               ("kill_module", "func.func", "not inside the func.func"),
                                               ("kill_anchor", "builtin.module", "the anchor of the pass")])
def test_a_stage_hook_erasing_its_anchor_is_a_located_error(tmp_path, hook, anchor, where):
    text = f"pass: t-pass\nsummary: s\nanchor: {anchor}\nstages:\n  - {{name: s1, call: {hook}}}\n"
    rules, _ = rules_dir(tmp_path, text, hooks=RULE_HOOK)
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass"],
               rf"t\.yaml:5:5: error: pass 't-pass', stage 's1': hook '{hook}': refused to erase .*\({where}")


def test_a_stage_hook_may_erase_ops_inside_its_anchor(tmp_path):
    text = "pass: t-pass\nsummary: s\nanchor: func.func\nstages:\n  - {name: s1, call: erase_inside}\n"
    rules, _ = rules_dir(tmp_path, text, hooks=RULE_HOOK)
    rc, out, err = run_sdy_dsl(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass"])
    assert rc == 0, err
    assert "negate" not in out and "return %0 : tensor<8xf32>" in out


# ---------------------------------------------------------------- -o FILE
INPUT = Path(__file__).parent / "data" / "element_types" / "every_element_type.mlir"


def _opt_to(out: Path) -> tuple[int, str, str]:
    return run_sdy_dsl(["opt", str(INPUT), "-sdy-close-shardings", "-o", str(out)])


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_output_file_gets_the_umask_mode(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        rc, _, err = _opt_to(tmp_path / "out.mlir")
    finally:
        os.umask(old)
    assert rc == 0, err
    assert stat.S_IMODE((tmp_path / "out.mlir").stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


def test_a_replaced_output_file_keeps_its_mode(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("previous\n")
    out.chmod(0o640)
    rc, _, err = _opt_to(out)
    assert rc == 0, err
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_text().startswith("module @element_types")


@pytest.mark.parametrize("unnamed", [True, False], ids=["o_tmpfile", "named-temporary"])
def test_a_full_disk_while_writing_leaves_the_previous_file_and_no_temporary(tmp_path, monkeypatch, unnamed):
    out = tmp_path / "out.mlir"
    out.write_text("previous\n")
    real_write = output_file._write_all

    def half_then_full(fd, data):
        real_write(fd, data[:len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(output_file, "_write_all", half_then_full)
    if not unnamed:
        monkeypatch.setattr(output_file, "_unnamed", lambda directory: None)
    line = fails_with(["opt", str(INPUT), "-sdy-close-shardings", "-o", str(out)],
                      r"^sdy-dsl: error: cannot write output file '.*out\.mlir': No space left on device")
    assert "Traceback" not in line
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


KILLED_WHILE_WRITING = """
import os, signal, sys
sys.path[:0] = [{root!r}]
from sdy_dsl import cli, output_file
real = output_file._write_all
def write_then_die(fd, data):
    real(fd, data[:len(data) // 2])
    os.kill(os.getpid(), signal.{signal})
    real(fd, data[len(data) // 2:])
output_file._write_all = write_then_die
{fallback}
sys.exit(cli.main(["opt", {input!r}, "-sdy-close-shardings", "-o", {out!r}]))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_a_signal_while_writing_leaves_the_previous_file_and_no_temporary(tmp_path, sig):
    out = tmp_path / "out.mlir"
    out.write_text("previous\n")
    script = KILLED_WHILE_WRITING.format(root=str(ROOT), signal=sig, fallback="", input=str(INPUT), out=str(out))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode != 0
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


def test_without_o_tmpfile_a_signal_waits_until_the_file_is_complete(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("previous\n")
    script = KILLED_WHILE_WRITING.format(root=str(ROOT), signal="SIGTERM", input=str(INPUT), out=str(out),
                                         fallback="output_file._unnamed = lambda directory: None")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == -signal.SIGTERM
    assert out.read_text().startswith("module @element_types") and out.read_text().endswith("}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]
