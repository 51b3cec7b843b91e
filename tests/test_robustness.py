"""A rule file can never crash, hang or bypass the product (issue 15).

One group of tests per kind of failure: IR actions misused under each driver
(a located rule error, never a crash), runaway rewrites (bounded), pipeline
entries that would reach jaxlib's C++ passes, output paths and size limits,
errors located in the input, and jaxlib's inliner abort detected first.
Every failure is one line `where: error: ...`, exit 1, `-o` untouched.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from test_cli_errors import fails_with, rules_dir, write

ROOT = Path(__file__).resolve().parent.parent

# %0 has two users (%1, %2); %2 feeds a while whose body negates its argument;
# %5 is unused.
MODULE = textwrap.dedent("""\
    func.func @main(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<2x4xf32>) {
      %0 = stablehlo.negate %a : tensor<8xf32>
      %1 = stablehlo.abs %0 : tensor<8xf32>
      %2 = stablehlo.add %0, %1 : tensor<8xf32>
      %c = stablehlo.constant dense<0> : tensor<i32>
      %3:2 = stablehlo.while(%iterArg = %2, %i = %c) : tensor<8xf32>, tensor<i32>
        cond {
          %p = stablehlo.compare LT, %i, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %p : tensor<i1>
        } do {
          %n = stablehlo.negate %iterArg : tensor<8xf32>
          stablehlo.return %n, %i : tensor<8xf32>, tensor<i32>
        }
      %4 = stablehlo.reshape %3#0 : (tensor<8xf32>) -> tensor<2x4xf32>
      %5 = stablehlo.sine %3#0 : tensor<8xf32>
      return %3#0, %4 : tensor<8xf32>, tensor<2x4xf32>
    }
    """)

DRIVERS = ["walk", "greedy", "once"]


def user_pass(tmp_path: Path, rules_yaml: str, driver: str = "walk", extra: str = "") -> tuple[Path, Path]:
    text = f"pass: t-pass\nsummary: s\ndriver: {{kind: {driver}{extra}}}\nrules:\n" + textwrap.indent(rules_yaml, "  ")
    return rules_dir(tmp_path, text)


def rule(match: str, actions: list[str], rid: str = "r") -> str:
    body = "\n".join(f"    - {a!r}" if "'" not in a else f'    - "{a}"' for a in actions)
    return f"- id: {rid}\n  match: {match!r}\n  rewrite:\n{body}\n"


def run_pass(tmp_path, rules_yaml, driver="walk", extra="", module=MODULE, out=None):
    rules, rule_file = user_pass(tmp_path, rules_yaml, driver, extra)
    path = write(tmp_path, "in.mlir", module)
    argv = ["opt", path, "--rules", str(rules), "-t-pass"] + (["-o", str(out)] if out else [])
    return (*run_sdy_dsl(argv), path, rule_file)


def located_rule_error(tmp_path, rules_yaml, driver, pattern, extra=""):
    out = tmp_path / "out.mlir"
    out.write_text("untouched")
    rc, stdout, err, path, rule_file = run_pass(tmp_path, rules_yaml, driver, extra, out=out)
    assert rc == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert re.match(rf"^{re.escape(str(rule_file))}:\d+:\d+: error: ", lines[0]), lines[0]
    assert re.search(pattern.replace("IN", re.escape(path)), lines[0]), lines[0]
    assert out.read_text() == "untouched"
    return lines[0]


# --------------------------------------------------------------------------- 1. actions


MISUSE = {
    # name: (match, actions, {driver: pattern of the error})
    "erase-with-uses": ("%r = stablehlo.negate(%x)", ["erase($root)"],
                        r"rule 'r': erase of 'stablehlo.negate' at IN:2:8, whose result still has 2 uses "
                        r"\(first: 'stablehlo.add' at IN:4:8\)"),
    "replace-by-nothing": ("%r = stablehlo.abs(%x)", ["replace($root, [])"],
                           r"replace of 'stablehlo.abs' at IN:3:8 with 1 result\(s\) by 0 value\(s\)"),
    "replace-by-own-result": ("%r = stablehlo.abs(%x)", ["replace($root, %r)"],
                              r"by its own result or a value defined inside it"),
    "replace-type-mismatch": ("%r = stablehlo.reshape(%x)", ["replace($root, %x)"],
                              r"result #0 has type tensor<2x4xf32>, its replacement tensor<8xf32>"),
    "double-erase": ("%r = stablehlo.abs(%x)", ["replace($root, %x)", "erase($root)"],
                     r"'\$root' was erased or replaced by an earlier action of this rewrite"),
    "use-after-erase": ("%r = stablehlo.abs(%x)", ["replace($root, %x)", "set_attr($root, 'a', 1)"],
                        r"'\$root' was erased or replaced by an earlier action of this rewrite"),
    "value-of-erased-op": ("%r = stablehlo.abs(%x)", ["replace($root, %x)", "replace_uses(%r, %x)"],
                           r"'%r' is a value of an op erased or replaced"),
    "move-into-own-body": ("%r = stablehlo.negate(%x)", ["move_before(parent_op($root), $root)"],
                           r"move_before of 'func.func' at IN:1:1 into its own body"),
    "move-next-to-itself": ("%r = stablehlo.abs(%x)", ["move_after($root, $root)"], r"next to itself"),
    "empty-attribute-name": ("%r = stablehlo.abs(%x)", ["set_attr($root, '', 1)"],
                             r"set_attr needs a non-empty attribute name, got ''"),
    "erase-not-an-op": ("%r = stablehlo.abs(%x)", ["erase(%x)"], r"erase expects an op, got a value"),
}


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("case", sorted(MISUSE))
def test_misused_action_is_a_located_rule_error(tmp_path, driver, case):
    match, actions, pattern = MISUSE[case]
    located_rule_error(tmp_path, rule(match, actions), driver, pattern)


@pytest.mark.parametrize("driver,pattern", [
    ("walk", r"erase of 'func.func' at IN:1:1, which contains the op being rewritten \('stablehlo.abs' at IN:3:8\)"),
    ("greedy", r"erase of 'func.func' at IN:1:1, which contains the op being rewritten"),
])
def test_erasing_the_parent_under_an_mlir_driver_is_refused(tmp_path, driver, pattern):
    located_rule_error(tmp_path, rule("%r = stablehlo.abs(%x)", ["erase(parent_op($root))"]), driver, pattern)


def test_erasing_the_parent_under_once_skips_its_ops(tmp_path):
    # The snapshot still lists the ops inside the erased function: they are skipped.
    rc, out, err, _, _ = run_pass(tmp_path, rule("%r = stablehlo.negate(%x)", ["erase(parent_op($root))"]), "once")
    assert rc == 0, err
    assert out == "module {\n}\n"


def test_erasing_users_the_walk_has_not_visited_is_refused(tmp_path):
    located_rule_error(tmp_path, rule("%r = stablehlo.negate(%x)", ["for_each(users(%r), $u => erase($u))"]),
                       "walk", r"erase of 'stablehlo.add' at IN:4:8, which the walk driver has not visited yet")


@pytest.mark.parametrize("driver", ["greedy", "once"])
def test_erasing_users_that_still_have_uses(tmp_path, driver):
    located_rule_error(tmp_path, rule("%r = stablehlo.negate(%x)", ["for_each(users(%r), $u => erase($u))"]),
                       driver, r"erase of 'stablehlo.add' at IN:4:8, whose result still has 1 use "
                               r"\(first: 'stablehlo.while' at IN:6:10\)")


def test_erasing_unused_users_works(tmp_path):
    # A rule on the while erases one of its users (the unused sine, not yet
    # visited) and marks the others.
    rc, out, err, _, _ = run_pass(tmp_path, rule("$w = stablehlo.while(%x, %y)",
                                                 ["for_each(users(at(results($root), 0)), "
                                                  "$u => erase($u) if name_of($u) == 'stablehlo.sine' "
                                                  "else set_attr($u, 'kept', 1))"]), "once")
    assert rc == 0, err
    assert "stablehlo.sine" not in out
    assert re.search(r"stablehlo.reshape %\S+ {kept = 1 : i64}", out), out
    assert "kept = 1" in out


# --------------------------------------------------------------------------- 2. bounded rewriting

PING_PONG = (rule("%r = stablehlo.abs(%x) {!a}", ["set_attr($root, 'a', 1)"], "mark")
             + rule("%r = stablehlo.abs(%x) {a}", ["remove_attr($root, 'a')"], "unmark"))


def test_greedy_non_convergence_names_the_rules(tmp_path):
    located_rule_error(tmp_path, PING_PONG, "greedy",
                       r"the greedy driver did not converge in 10 iteration\(s\).*rules that kept firing: "
                       r"'(un)?mark' \(5 times, last on 'stablehlo.abs' at IN:3:8\); '(un)?mark' \(5 times")


def test_rewrite_budget_stops_a_runaway_greedy_driver(tmp_path):
    located_rule_error(tmp_path, PING_PONG, "greedy",
                       r"rewrite budget of 10\d\d\d exhausted \(the default of 10 per op \+ 10,000.*"
                       r"rules that kept firing: '(un)?mark' \(50\d\d times",
                       extra=", max-iterations: 1000000000")


def test_rewrite_budget_is_settable_per_pass(tmp_path):
    located_rule_error(tmp_path, PING_PONG, "greedy",
                       r"rewrite budget of 25 exhausted \(its 'max-rewrites'\).*'(un)?mark' \(13 times",
                       extra=", max-rewrites: 25, max-iterations: 1000000")


@pytest.mark.parametrize("setting,message", [
    ("max-iterations: 1180591620717411303424", "max-iterations must be a positive integer below 2\\*\\*31"),
    ("max-rewrites: 0", "max-rewrites must be a positive integer"),
])
def test_driver_limits_are_checked_when_loading(tmp_path, setting, message):
    located_rule_error(tmp_path, PING_PONG, "greedy", message, extra=", " + setting)


# --------------------------------------------------------------------------- 3. nothing bypasses the product


def marking_close_shardings(tmp_path) -> Path:
    """A user's sdy-close-shardings that marks every func (to see that it ran)."""
    rules, _ = rules_dir(tmp_path, "pass: sdy-close-shardings\nsummary: s\nrules:\n"
                                   + textwrap.indent(rule("$f = func.func()", ["set_attr($f, 'mine', 1)"]), "  "))
    return rules


@pytest.mark.parametrize("entry", ["' sdy-close-shardings'", "'sdy-close-shardings  '", "\"\\tsdy-close-shardings\""])
def test_pipeline_file_entries_are_trimmed_and_run_the_product(tmp_path, entry):
    rules = marking_close_shardings(tmp_path)
    pipeline = write(tmp_path, "p.yaml", f"passes:\n  - {entry}\n")
    rc, out, err = run_sdy_dsl(["run", pipeline, write(tmp_path, "in.mlir", MODULE), "--rules", str(rules)])
    assert rc == 0, err
    assert "mine = 1" in out


def test_pipeline_string_entries_are_trimmed_and_run_the_product(tmp_path):
    rules = marking_close_shardings(tmp_path)
    rc, out, err = run_sdy_dsl(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules),
                                "--pass-pipeline=builtin.module( sdy-close-shardings )"])
    assert rc == 0, err
    assert "mine = 1" in out


@pytest.mark.parametrize("entries,pattern", [
    ("[inline, '']", r"p.yaml:1:18: error: empty pass name"),
    ("[inline, '   ']", r"p.yaml:1:18: error: empty pass name"),
    ("[sdy-close shardings]", r"p.yaml:1:10: error: invalid pass name 'sdy-close shardings'"),
    ("[loop-unroll]", r"p.yaml:1:10: error: unknown pass 'loop-unroll'"),
    ("[{inline: {x: '1}),sdy-close-shardings('}}]", r"p.yaml:1:11: error: invalid option 'x' of pass 'inline'"),
    ("[{func.func: [{func.func: [inline]}]}]", r"p.yaml:1:24: error: func.func cannot be nested in func.func"),
    ("[{5: {}}]", r"p.yaml:1:11: error: a pass name is a string, got 5"),
])
def test_bad_pipeline_file_entries(tmp_path, entries, pattern):
    pipeline = write(tmp_path, "p.yaml", f"passes: {entries}\n")
    fails_with(["run", pipeline, write(tmp_path, "in.mlir", MODULE)], pattern)


@pytest.mark.parametrize("argv,pattern", [
    (["--pass-pipeline=builtin.module(inline,,symbol-dce)"], r"empty entry"),
    (["--pass-pipeline=builtin.module(inline,)"], r"empty entry"),
    (["--pass-pipeline=" + "func.func(" * 3000 + "inline" + ")" * 3000], r"nested more than 32 levels deep"),
    (["--=x"], r"invalid option or pass '--=x': empty pass name"),
    (["-loop-unroll"], r"unknown option or pass '-loop-unroll'"),
])
def test_bad_pipeline_strings_and_flags(tmp_path, argv, pattern):
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), *argv], r"^sdy-dsl: error: .*" + pattern)


# --------------------------------------------------------------------------- 4. located errors, exit 1


def test_output_path_problems_are_found_before_any_work(tmp_path):
    path = write(tmp_path, "in.mlir", MODULE)
    (tmp_path / "file").write_text("x")
    cases = [
        (str(tmp_path), "is a directory"),
        (str(tmp_path / "no" / "out.mlir"), "does not exist"),
        ("", "empty file name"),
        (str(tmp_path / ("a" * 300)), "file name longer than 255 bytes"),
        (str(tmp_path / "file" / "out.mlir"), "does not exist"),
    ]
    for out, why in cases:
        line = fails_with(["opt", path, "-sdy-close-shardings", "-o", out], r"^sdy-dsl: error: cannot write output")
        assert why in line
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_output_to_a_full_device_is_an_error():
    fails_with(["opt", str(ROOT / "tests/lit/export/close_shardings.mlir"), "-split-input-file",
                "-sdy-close-shardings", "-o", "/dev/full"],
               r"^sdy-dsl: error: cannot write output file '/dev/full': No space left on device")


def test_output_through_a_symlink_keeps_the_link(tmp_path):
    target = tmp_path / "real.mlir"
    target.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    rc, _, err = run_sdy_dsl(["opt", write(tmp_path, "in.mlir", MODULE), "-sdy-close-shardings", "-o", str(link)])
    assert rc == 0, err
    assert link.is_symlink()
    assert target.read_text().startswith("module {")


def test_dump_dir_that_is_a_file(tmp_path):
    dump = write(tmp_path, "dump", "x")
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "-sdy-close-shardings", "--dump-dir", dump],
               rf"^sdy-dsl: error: --dump-dir '{re.escape(dump)}' is not a directory")


@pytest.mark.parametrize("where,pattern", [
    ("(" * 100 + "true" + ")" * 100, r":7:77: error: expression nested more than 64 levels deep"),
    ("rank(%x) == " + "1" * 5000, r":7:13: error: invalid expression: Exceeds the limit \(4300 digits\)"),
    (" + ".join(["1"] * 3000) + " == 1", r":7:\d+: error: expression nested too deeply"),
])
def test_expression_size_limits(tmp_path, where, pattern):
    rules, rule_file = user_pass(tmp_path, f"- id: r\n  match: '%r = stablehlo.abs(%x)'\n  where: '{where}'\n"
                                           f"  rewrite: ['set_attr($root, \"a\", 1)']\n")
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass"],
               "^" + re.escape(str(rule_file)) + pattern)


def test_pattern_of_a_thousand_lines(tmp_path):
    lines = "\n".join(f"      %v{i} = stablehlo.negate(%v{i + 1})" for i in reversed(range(1000)))
    rules, rule_file = user_pass(tmp_path, f"- id: r\n  match: |\n{lines}\n  rewrite: ['erase($root)']\n")
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass"],
               rf"^{re.escape(str(rule_file))}:\d+:\d+: error: pattern nested too deeply")


def test_string_option_given_a_list(tmp_path):
    pipeline = write(tmp_path, "p.yaml", "passes:\n  - sdy-basic-propagate: {module-dump-directory: [a, b]}\n")
    fails_with(["run", pipeline, write(tmp_path, "in.mlir", MODULE)],
               rf"^{re.escape(pipeline)}:2:5: error: option 'module-dump-directory' expects a string, got a list")
    assert not (Path.cwd() / "['a', 'b']").exists()


def test_interfaces_file_with_a_list_of_ops(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "interfaces.yaml").write_text("ops: [1, 2]\n")
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-sdy-basic-propagate"],
               rf"^{re.escape(str(rules / 'interfaces.yaml'))}:1:6: error: 'ops' is a mapping")


# --------------------------------------------------------------------------- 5. errors located in the input


def test_error_inside_propagation_is_located_in_the_input(tmp_path):
    path = write(tmp_path, "in.mlir", MODULE.replace(
        "%5 = stablehlo.sine %3#0 : tensor<8xf32>",
        '%5 = "stablehlo.custom_call"(%3#0) {call_target_name = "x"} : (tensor<8xf32>) -> tensor<?xf32>'))
    fails_with(["opt", path, "-sdy-basic-propagate"],
               rf"^{re.escape(path)}:15:8: error: .*only supports ranked tensors with a static shape")


def test_nul_between_tokens_is_accepted_like_the_reference(tmp_path):
    path = write(tmp_path, "in.mlir", MODULE.replace("%0 = stablehlo.negate %a :", "%0 = stablehlo.negate %a :\0")
                 .encode())
    rc, out, err = run_sdy_dsl(["opt", path, "-sdy-close-shardings"])
    assert rc == 0, err
    assert "stablehlo.negate %arg0 : tensor<8xf32>" in out


def test_nul_inside_a_token_is_an_error_with_a_line(tmp_path):
    path = write(tmp_path, "in.mlir", MODULE.replace("stablehlo.abs", "stablehlo.a\0bs").encode())
    fails_with(["opt", path, "-sdy-close-shardings"], rf"^{re.escape(path)}:3:8: error: ")


@pytest.mark.parametrize("data,pattern", [
    (b"pass: t-pass\nsummary: s\x00\nrules: []\n", r":2:11: error: invalid YAML: special characters are not allowed"),
    (b"pass: t-pass\nsummary: s\xff\nrules: []\n", r":2:11: error: file is not UTF-8 text \(byte 0xff\)"),
])
def test_bad_bytes_in_yaml_have_a_line(tmp_path, data, pattern):
    pipeline = write(tmp_path, "p.yaml", data)
    fails_with(["run", pipeline, write(tmp_path, "in.mlir", MODULE)], "^" + re.escape(pipeline) + pattern)


# --------------------------------------------------------------------------- 6. jaxlib's inliner abort


def test_inliner_abort_is_detected_before_jaxlib_runs(tmp_path):
    # In a child process: should the check regress, the abort must not take pytest down.
    chunk = (ROOT / "tests/lit/import/manual_axes_cleanup.mlir").read_text().split("// -----")[4]
    path = write(tmp_path, "in.mlir", chunk)
    proc = subprocess.run([sys.executable, "-m", "sdy_dsl.cli", "opt", path, "-inline"], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 1, proc.stderr
    assert re.match(rf"^{re.escape(path)}:\d+:8: error: manual axis 'a' is not in the mesh that the in/out "
                    r"shardings of this sdy.manual_computation share", proc.stderr), proc.stderr


# --------------------------------------------------------------------------- 7. hooks exiting


@pytest.mark.parametrize("code", ["0", "3", "'bye'"])
def test_hook_calling_sys_exit(tmp_path, code):
    rules, rule_file = rules_dir(tmp_path, "pass: t-pass\nsummary: s\nstages:\n  - {name: s, call: leave}\n",
                                 hooks=f"import sys\nfrom sdy_dsl.hooks import hook\n\n\n@hook\n"
                                       f"def leave(ctx: object) -> None:\n    sys.exit({code})\n")
    out = tmp_path / "out.mlir"
    out.write_text("untouched")
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass", "-o", str(out)],
               rf"^{re.escape(str(rule_file))}:4:5: error: pass 't-pass', stage 's': hook 'leave' called sys.exit")
    assert out.read_text() == "untouched"


# --------------------------------------------------------------------------- found by tests/fuzz_robustness.py


def test_failing_mlir_pass_is_located_in_the_input(tmp_path):
    # `inline` nested in func.func fails inside MLIR's pass manager: its
    # diagnostic (not "Failure while executing pass pipeline") is the error.
    pipeline = write(tmp_path, "p.yaml", "passes: [{func.func: [inline]}]\n")
    path = write(tmp_path, "in.mlir", MODULE)
    fails_with(["run", pipeline, path],
               rf"^{re.escape(path)}:1:1: error: 'func.func' op +was scheduled to run under the inliner")


def test_greedy_driver_erasing_dead_ops_alone_is_not_non_convergence(tmp_path):
    # With max-iterations 1, MLIR's greedy driver reports non-convergence after
    # erasing the dead sine itself; no rule fired, so the rules are at a fixed point.
    rc, out, err, _, _ = run_pass(tmp_path, rule("%r = stablehlo.abs(%x) {never}", ["erase($root)"]), "greedy",
                                  extra=", max-iterations: 1")
    assert rc == 0, err
    assert "stablehlo.sine" not in out and "stablehlo.abs" in out


def test_hook_module_calling_sys_exit_when_loaded(tmp_path):
    rules, rule_file = rules_dir(tmp_path, "pass: t-pass\nsummary: s\nrules: []\n", hooks="import sys\nsys.exit(4)\n")
    fails_with(["opt", write(tmp_path, "in.mlir", MODULE), "--rules", str(rules), "-t-pass"],
               rf"^{re.escape(str(rule_file))}:1:1: error: cannot load hook module t.py: SystemExit: 4")


def test_error_emitted_by_a_stage_hook_fails_the_pass(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("untouched")
    rules, _ = rules_dir(tmp_path, "pass: t-pass\nsummary: s\nstages:\n  - {name: s, call: complain}\n",
                         hooks="from sdy_dsl.hooks import hook\n\n\n@hook\ndef complain(ctx: object) -> None:\n"
                               "    sine = ctx.anchor.regions[0].blocks[0].operations[0].regions[0].blocks[0]"
                               ".operations[6]\n    ctx.emit_error(sine, 'no sines here')\n")
    path = write(tmp_path, "in.mlir", MODULE)
    fails_with(["opt", path, "--rules", str(rules), "-t-pass", "-o", str(out)],
               rf"^{re.escape(path)}:15:8: error: no sines here")
    assert out.read_text() == "untouched"


@pytest.mark.parametrize("body,pattern", [
    ("raise ValueError('loc(\"-\":2:3): broken')", r"^IN:2:3: error: pass 't-pass', stage 's': hook 'step': broken"),
    ("ctx.erase(ctx.anchor)", r"^RULES:4:5: error: pass 't-pass', stage 's': hook 'step': erase of 'builtin.module'"),
])
def test_stage_hook_errors(tmp_path, body, pattern):
    rules, rule_file = rules_dir(tmp_path, "pass: t-pass\nsummary: s\nstages:\n  - {name: s, call: step}\n",
                                 hooks=f"from sdy_dsl.hooks import hook\n\n\n@hook\ndef step(ctx: object) -> None:\n"
                                       f"    {body}\n")
    path = write(tmp_path, "in.mlir", MODULE)
    fails_with(["opt", path, "--rules", str(rules), "-t-pass"],
               pattern.replace("IN", re.escape(path)).replace("RULES", re.escape(str(rule_file))))
