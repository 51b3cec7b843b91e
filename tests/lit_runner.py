"""Runs lit-style `.mlir` test files: `// RUN:` lines piping `sdy-dsl` into `filecheck`.

`sdy-dsl` runs in-process (fast: no interpreter start-up per file);
`filecheck` is the `filecheck` package's command, found by `filecheck_path`.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from sdy_dsl import cli

RUN_RE = re.compile(r"^\s*//\s*RUN:\s*(.*)$")


@dataclass
class RunResult:
    ok: bool
    message: str


def run_lines(path: Path) -> list[str]:
    lines, current = [], ""
    for text in path.read_text().splitlines():
        m = RUN_RE.match(text)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        lines.append(current + part)
        current = ""
    return lines


FILECHECK_MISSING = "filecheck not found beside {python} or on PATH: pip install -e '.[test]'"


def filecheck_path() -> str:
    """The `filecheck` installed with the running interpreter (a venv used without
    activating it has its scripts beside its python, not on PATH), else PATH's;
    without either, the test fails with one line saying how to install it."""
    beside = Path(sys.executable).parent / "filecheck"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("filecheck")
    if found is None:
        import pytest  # (only on this path: the fuzzers import this module without pytest)
        pytest.fail(FILECHECK_MISSING.format(python=sys.executable), pytrace=False)
    return found


def run_sdy_dsl(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(argv)
    return rc, out.getvalue(), err.getvalue()


def write_rules_dir(rules: Path, files: dict[str, str]) -> Path:
    """A user's `--rules` directory holding FILES (name -> text); existing files are kept."""
    rules.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (rules / name).parent.mkdir(parents=True, exist_ok=True)
        (rules / name).write_text(text)
    return rules


def run_file(path: Path) -> list[RunResult]:
    results = []
    for line in run_lines(path):
        line = line.replace("%s", str(path))
        stages = [shlex.split(s) for s in line.split("|")]
        first = stages[0]
        expect_fail = False
        if first and first[0] == "not":
            expect_fail, first = True, first[1:]
        if not first or first[0] != "sdy-dsl":
            results.append(RunResult(False, f"RUN line must start with sdy-dsl: {line}"))
            continue
        rc, out, err = run_sdy_dsl(first[1:])
        if (rc != 0) != expect_fail:
            results.append(RunResult(False, f"sdy-dsl exited {rc}: {line}\n{err}"))
            continue
        data = out if len(stages) == 1 or "2>&1" not in line else out + err
        ok, message = True, ""
        for stage in stages[1:]:
            stage = [a for a in stage if a != "2>&1"]
            if stage[0] != "filecheck":
                ok, message = False, f"unsupported RUN stage {stage[0]}"
                break
            proc = subprocess.run([filecheck_path(), *stage[1:]], input=data, capture_output=True, text=True)
            if proc.returncode != 0:
                ok, message = False, f"filecheck failed: {line}\n{proc.stderr[-4000:]}"
                break
        results.append(RunResult(ok, message))
    return results
