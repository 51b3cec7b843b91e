"""Nothing tuned is ignored in silence (issue #30): a `--rules` file that
redefines or extends a pass the run never executes, or sets a param that the
pass the run executes sets again (its own `schedule:` shadowing the one of
the pass it extends), is a located warning naming the file and why."""
from __future__ import annotations

import textwrap
from pathlib import Path

from lit_runner import run_sdy_dsl, write_rules_dir
from sdy_dsl import api
from sdy_dsl.resources import builtin_rules_dir

MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
      %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
      return %0 : tensor<8x16xf32>
    }
    """)
AGGRESSIVE_SCHEDULE = "extends: sdy-aggressive-propagate\nparams:\n  schedule:\n    - strategies: [basic]\n"
OP_PRIORITY_FILE = builtin_rules_dir() / "propagation" / "op_priority_propagate.yaml"


def _inputs(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path]:
    """The module and the rules directory holding FILES."""
    rules = write_rules_dir(tmp_path / "rules", files)
    source = tmp_path / "in.mlir"
    source.write_text(MODULE)
    return source, rules


def _run(tmp_path: Path, files: dict[str, str], *passes: str) -> tuple[int, str, str]:
    source, rules = _inputs(tmp_path, files)
    return run_sdy_dsl(["opt", str(source), *passes, "--rules", str(rules)])


def test_a_param_shadowed_by_the_pass_that_runs_is_a_warning(tmp_path):
    rc, out, err = _run(tmp_path, {"aggressive.yaml": AGGRESSIVE_SCHEDULE}, "-sdy-user-priority-propagate")
    assert rc == 0 and out
    assert err.splitlines() == [
        f"{tmp_path}/rules/aggressive.yaml:3:3: warning: param 'schedule' of 'sdy-aggressive-propagate' is shadowed: "
        "the run executes sdy-user-priority-propagate, and 'sdy-op-priority-propagate' sets its own 'schedule' "
        f"({OP_PRIORITY_FILE}:12:3)"]
    # The same file, when the run executes the pass it tunes: no warning.
    rc, _, err = _run(tmp_path, {}, "-sdy-aggressive-propagate")
    assert (rc, err) == (0, "")


def test_a_param_the_running_pass_inherits_is_not_a_warning(tmp_path):
    rc, _, err = _run(tmp_path, {"aggressive.yaml": "extends: sdy-aggressive-propagate\n"
                                 "params:\n  factor-ranking: [factor-index]\n"}, "-sdy-propagation-pipeline")
    assert (rc, err) == (0, "")


def test_a_file_for_a_pass_the_run_never_executes_is_a_warning(tmp_path):
    rc, _, err = _run(tmp_path, {"collectives.yaml": "extends: sdy-reshard-to-collectives\n"
                                 "params:\n  permute: never\n"}, "-sdy-close-shardings", "-sdy-basic-propagate")
    assert rc == 0
    assert err.splitlines() == [
        f"{tmp_path}/rules/collectives.yaml:1:1: warning: this file tunes 'sdy-reshard-to-collectives', which the "
        "run never executes nor builds on (the run executes: sdy-close-shardings, sdy-basic-propagate)"]


def test_a_pass_of_the_users_own_not_run_is_no_warning(tmp_path):
    rc, _, err = _run(tmp_path, {"mine.yaml": "pass: my-close\nextends: sdy-close-shardings\n"},
                      "-sdy-close-shardings")
    assert (rc, err) == (0, "")


def test_a_broken_file_for_a_pass_not_run_is_still_an_error(tmp_path):
    rc, _, err = _run(tmp_path, {"collectives.yaml": "extends: sdy-reshard-to-collectives\n"
                                 "params:\n  permut: never\n"}, "-sdy-close-shardings")
    assert rc == 1
    assert err.strip() == (f"{tmp_path}/rules/collectives.yaml:3:3: error: unknown param 'permut' "
                           "(did you mean 'permute'?)")


def test_the_python_api_returns_the_warning(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "aggressive.yaml").write_text(AGGRESSIVE_SCHEDULE)
    result = api.run_pipeline(MODULE, "sdy-user-priority-propagate", rules=tmp_path / "rules")
    assert [w.split(": warning: ")[1].split(":")[0] for w in result.warnings] == [
        "param 'schedule' of 'sdy-aggressive-propagate' is shadowed"]


def test_cost_warns_of_what_neither_of_its_runs_reads(tmp_path):
    """`sdy-dsl cost` runs the propagation pipeline, then the export with explicit
    collectives: a file either run reads is no warning, one both ignore is."""
    source, rules = _inputs(tmp_path, {"aggressive.yaml": AGGRESSIVE_SCHEDULE,
                                       "collectives.yaml": "extends: sdy-reshard-to-collectives\n"
                                                           "params:\n  permute: never\n"})
    rc, out, err = run_sdy_dsl(["cost", str(source), "--rules", str(rules)])
    assert rc == 0 and "total:" in out
    assert [line.split(": warning: ")[0] for line in err.splitlines()] == [f"{tmp_path}/rules/aggressive.yaml:3:3"]


def test_explain_warns_too(tmp_path):
    source, rules = _inputs(tmp_path, {"aggressive.yaml": AGGRESSIVE_SCHEDULE})
    rc, out, err = run_sdy_dsl(["explain", str(source), "main:result 0", "--rules", str(rules)])
    assert rc == 0 and out
    assert [line.split(": warning: ")[0] for line in err.splitlines()] == [f"{tmp_path}/rules/aggressive.yaml:3:3"]
