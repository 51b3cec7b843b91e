"""`sdy-dsl opt`/`run` as sdy_opt/mlir-opt users know them (issue 13, problems 1-3)."""
from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

from sdy_dsl import cli

ROOT = Path(__file__).resolve().parent.parent

OPEN = """\
sdy.mesh @m = <["x"=2, "y"=2]>
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}]>}) -> tensor<4xf32> {
  %0 = call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %0 : tensor<4xf32>
  %2 = stablehlo.add %0, %0 : tensor<4xf32>
  %3 = stablehlo.multiply %1, %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
"""


@pytest.fixture
def model(tmp_path) -> Path:
    path = tmp_path / "m.mlir"
    path.write_text(OPEN)
    return path


def exit_and_stdout(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as e:
        cli.main(argv)
    return e.value.code, out.getvalue()


# --------------------------------------------------------------------------- problem 1: packaging


def test_wheel_holds_rules_pipelines_and_schemas(tmp_path):
    """`pip wheel .`: every rule file, hook, pipeline and schema is inside the package."""
    import shutil
    source = tmp_path / "src"  # a copy: building writes build/ and *.egg-info beside the sources
    for name in ("sdy_dsl", "rules", "pipelines"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                           str(source)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("sdy_dsl-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"sdy_dsl/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "sdy_dsl").rglob("*")
                if p.suffix in (".py", ".json")}
    expected = {n.replace("sdy_dsl/sdy_dsl/", "sdy_dsl/") for n in expected}
    for top in ("rules", "pipelines"):
        expected |= {f"sdy_dsl/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / top).rglob("*")
                     if p.suffix in (".py", ".yaml")}
    assert expected - names == set()
    assert "sdy_dsl/rules/interfaces.yaml" in names and "sdy_dsl/pipelines/shardy_full.yaml" in names


def test_a_missing_rules_directory_is_one_line_at_start_up(tmp_path):
    """A broken install: the package without its rules. One line, exit 1, no traceback."""
    import shutil
    shutil.copytree(ROOT / "sdy_dsl", tmp_path / "sdy_dsl", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", "import sys; from sdy_dsl.cli import main; sys.exit(main())",
                           "opt", "x.mlir", "-sdy-close-shardings"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 1
    assert re.fullmatch(r"sdy-dsl: error: the built-in rules directory is missing from the installation .*\n",
                        proc.stderr), proc.stderr


def test_the_command_exits_without_teardown_but_writes_everything(model, tmp_path):
    """`sdy-dsl` (cli.entry) leaves by os._exit: stdout through a pipe, an -o file
    and an error line must still be whole, with main()'s exit code."""
    command = [sys.executable, "-c", "from sdy_dsl.cli import entry; entry()"]
    in_process = run_sdy_dsl(["run", "shardy_full", str(model)])
    piped = subprocess.run(command + ["run", "shardy_full", str(model)], capture_output=True,
                           text=True, timeout=300)
    assert (piped.returncode, piped.stdout) == (0, in_process[1])
    out = tmp_path / "out.mlir"
    written = subprocess.run(command + ["run", "shardy_full", str(model), "-o", str(out)],
                             capture_output=True, text=True, timeout=300)
    assert written.returncode == 0 and out.read_text() == in_process[1]
    failed = subprocess.run(command + ["opt", str(tmp_path / "missing.mlir"), "-sdy-close-shardings"],
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1
    assert failed.stderr.startswith("sdy-dsl: error: cannot open input file") and failed.stdout == ""
    # Under a profiler the interpreter exits normally, so the profile gets written.
    stats = tmp_path / "profile.stats"
    profiled = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats), "-m", "sdy_dsl.cli",
                               "run", "shardy_full", str(model)], capture_output=True, text=True, timeout=300)
    assert profiled.returncode == 0 and profiled.stdout == in_process[1] and stats.stat().st_size > 0


def test_shipped_pipeline_by_name(model):
    by_name = run_sdy_dsl(["run", "shardy_full", str(model)])
    by_path = run_sdy_dsl(["run", str(ROOT / "pipelines" / "shardy_full.yaml"), str(model)])
    assert by_name[0] == 0, by_name[2]
    assert by_name == by_path
    rc, _, err = run_sdy_dsl(["run", "shardy_ful", str(model)])
    assert rc == 1 and "no pipeline file 'shardy_ful'" in err and "shardy_full" in err


# --------------------------------------------------------------------------- problem 2: drop-in


@pytest.mark.parametrize("flags,pipeline", [
    (["-inline", "-symbol-dce"], "builtin.module(inline,symbol-dce)"),
    (["-canonicalize", "-cse"], "builtin.module(canonicalize,cse)"),
    (["-inline", "-sdy-close-shardings"], "builtin.module(inline,sdy-close-shardings)"),
])
def test_generic_mlir_passes_as_flags(model, flags, pipeline):
    rc, out, err = run_sdy_dsl(["opt", str(model), *flags])
    assert rc == 0, err
    ok, expected = run_reference(OPEN, pipeline)
    assert ok and out == expected


@pytest.mark.parametrize("flag,message", [
    ("-sdy-convert-global-to-local", "not implemented by sdy-dsl yet: sdy-convert-global-to-local"),
    ("-sdy-no-such-pass", "unknown pass 'sdy-no-such-pass'"),
])
def test_shardy_passes_sdy_dsl_lacks(model, flag, message):
    for argv in (["opt", str(model), flag],
                 ["opt", str(model), f"--pass-pipeline=builtin.module({flag[1:]})"]):
        rc, out, err = run_sdy_dsl(argv)
        assert rc == 1 and out == ""
        assert err.startswith(f"sdy-dsl: error: {message}") and err.count("\n") == 1, err


def test_version_and_help_describe_every_flag():
    code, out = exit_and_stdout(["--version"])
    assert code == 0 and out == "sdy-dsl 0.1.0\n"
    code, out = exit_and_stdout(["--help"])
    assert code == 0
    for flag in cli.FLAGS:
        spelling = f"--{flag.name}" if len(flag.name) > 1 else f"-{flag.name}"
        assert re.search(rf"^  {re.escape(spelling)}\b[^\n]*?\s{{2,}}\w+ \w+", out, re.M), spelling
    for command in ("opt", "run", "explain", "passes"):
        assert re.search(rf"^  {command} +\w", out, re.M)


def test_passes_name_shows_description_and_options():
    rc, out, err = run_sdy_dsl(["passes", "sdy-basic-propagate"])
    assert rc == 0, err
    assert out.startswith("sdy-basic-propagate  (builtin.module)\n")
    assert "--debug-sharding-origins: bool" in out and "rule file: " in out
    rc, out, _ = run_sdy_dsl(["passes", "sdy-close-shardings"])
    assert "no `?` dimension can" in out  # the description, not only the summary
    rc, _, err = run_sdy_dsl(["passes", "sdy-convert-global-to-local"])
    assert rc == 1 and "not implemented by sdy-dsl yet: sdy-convert-global-to-local" in err


def test_bytecode_input(tmp_path):
    from jaxlib.mlir import ir
    from sdy_dsl.mlir_context import make_context
    with make_context():
        module = ir.Module.parse(OPEN)
        with open(tmp_path / "m.mlirbc", "wb") as f:
            module.operation.write_bytecode(f)
    rc, out, err = run_sdy_dsl(["opt", str(tmp_path / "m.mlirbc"), "-sdy-close-shardings"])
    assert rc == 0, err
    ok, expected = run_reference(OPEN, "builtin.module(sdy-close-shardings)")
    assert ok and out == expected


# --------------------------------------------------------------------------- problem 3: debugging flags


def test_mlir_print_debuginfo_keeps_jax_locations(tmp_path):
    from models import zoo  # noqa: F401  (fake devices)
    import jax
    import jax.numpy as jnp

    def f(x):
        return jnp.sin(x) * 2

    text = jax.jit(f).lower(jnp.ones((4,), jnp.float32)).as_text(debug_info=True)
    path = tmp_path / "f.mlir"
    path.write_text(text)
    rc, plain, err = run_sdy_dsl(["run", "shardy_full", str(path)])
    assert rc == 0, err
    assert "loc(" not in plain
    rc, out, err = run_sdy_dsl(["run", "shardy_full", str(path), "--mlir-print-debuginfo"])
    assert rc == 0, err
    assert re.search(r"stablehlo\.sine .* loc\(#loc\d+\)", out)
    assert re.search(r'^#loc\d+ = loc\(".*test_cli_drop_in.py":\d+', out, re.M)


def test_flags_that_do_nothing_in_a_subcommand_are_errors(model):
    for argv, flag in ((["run", "shardy_full", str(model), "--pass-pipeline=builtin.module(cse)"], "--pass-pipeline"),
                       (["run", "shardy_full", str(model), "--verify-diagnostics"], "--verify-diagnostics"),
                       (["passes", "--trace"], "--trace")):
        rc, _, err = run_sdy_dsl(argv)
        assert rc == 1
        assert re.fullmatch(rf"sdy-dsl: error: option '{flag}[^']*' does nothing in '\w+' .*\n", err), err


def test_dump_dir_with_split_input_file_keeps_every_chunk(tmp_path, model):
    two = tmp_path / "two.mlir"
    two.write_text(OPEN + "// -----\n" + OPEN.replace("@m", "@n"))
    dumps = tmp_path / "dumps"
    rc, _, err = run_sdy_dsl(["opt", str(two), "-split-input-file", "-inline", "-sdy-close-shardings",
                              "--dump-dir", str(dumps)])
    assert rc == 0, err
    files = sorted(p.relative_to(dumps).as_posix() for p in dumps.rglob("*.mlir"))
    assert files == ["chunk001/01_inline.mlir", "chunk001/02_sdy-close-shardings.mlir",
                     "chunk002/01_inline.mlir", "chunk002/02_sdy-close-shardings.mlir"]
    assert "sdy.mesh @n" in (dumps / "chunk002/02_sdy-close-shardings.mlir").read_text()
    assert "sdy.mesh @m" in (dumps / "chunk001/02_sdy-close-shardings.mlir").read_text()


def test_print_ir_before_and_after_all(model):
    rc, out, err = run_sdy_dsl(["opt", str(model), "-inline", "-sdy-close-shardings",
                                "--mlir-print-ir-after-all", "--mlir-print-ir-before-all"])
    assert rc == 0, err
    banners = re.findall(r"^// -----// IR Dump (\w+ [\w-]+) //----- //$", err, re.M)
    assert banners == ["Before inline", "After inline", "Before sdy-close-shardings", "After sdy-close-shardings"]
    after_close = err.split("IR Dump After sdy-close-shardings //----- //\n")[1]
    assert after_close.strip() == out.strip()


def test_timing_has_parse_passes_print_and_total(model):
    rc, _, err = run_sdy_dsl(["opt", str(model), "-inline", "-sdy-close-shardings", "--mlir-timing"])
    assert rc == 0, err
    rows = re.findall(r"^timing: ([\w-]+): (\d+\.\d) ms$", err, re.M)
    assert [name for name, _ in rows] == ["parse", "inline", "sdy-close-shardings", "print", "total"]
    times = {name: float(ms) for name, ms in rows}
    assert times["total"] >= times["parse"] + times["inline"] + times["sdy-close-shardings"] + times["print"] - 0.5
