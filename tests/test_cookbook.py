"""The cookbook's recipes (docs/cookbook/*.md) run as written, one test per recipe.

A recipe is prose with fenced blocks, run top to bottom in a fresh directory:

- a block whose info string is `yaml file=PATH`, `mlir file=PATH` or
  `python file=PATH` is written to PATH (relative to that directory);
- a `console` block holds commands (lines starting `$ `), each followed by
  the exact stdout it prints (compared line by line, trailing whitespace
  ignored). `sdy-dsl` is this checkout's CLI. A command's stderr is part of
  its output only when the command says `2>&1`; a command without `2>&1`
  must succeed (its stderr is shown when it does not);
- any other block is prose.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECIPES = sorted((ROOT / "docs" / "cookbook").glob("*.md"))
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
_FILE_INFO = re.compile(r"^(yaml|mlir|python)\s+file=(\S+)\s*$")
COMMAND_SECONDS = 300


@dataclass
class Command:
    line: int  # where the command is written in the recipe
    text: str
    expected: list[str]


def steps(recipe: Path):
    """The recipe's files to write, ("file", line, path, text), and commands, ("run", Command), in order."""
    doc = recipe.read_text()
    for m in _FENCE.finditer(doc):
        info, body = m.group(1).strip(), m.group(2)
        first_line = doc.count("\n", 0, m.start()) + 2
        written = _FILE_INFO.match(info)
        if written:
            yield "file", first_line, written.group(2), body
        elif info == "console":
            command = None
            for i, text in enumerate(body.splitlines()):
                if text.startswith("$ "):
                    if command is not None:
                        yield "run", command
                    command = Command(first_line + i, text[2:], [])
                elif command is None:
                    raise AssertionError(f"{recipe.name}:{first_line + i}: output before any `$ ` command")
                else:
                    command.expected.append(text)
            if command is not None:
                yield "run", command


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _environment(workdir: Path) -> dict:
    bin_dir = workdir / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "sdy-dsl"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m sdy_dsl \"$@\"\n")
    shim.chmod(0o755)
    python = bin_dir / "python"  # `python` is the interpreter running the tests
    python.symlink_to(sys.executable)
    # A recipe shows what a user's terminal prints; under CI (CI / BUILD_NUMBER set)
    # pytest prints each failure's message in full a second time in its summary.
    inherited = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    return {**inherited, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p),
            "COLUMNS": "80"}


@pytest.mark.parametrize("recipe", RECIPES, ids=[r.stem for r in RECIPES])
def test_recipe(recipe, tmp_path):
    env = _environment(tmp_path)
    ran = 0
    for kind, *rest in steps(recipe):
        if kind == "file":
            line, path, text = rest
            target = (tmp_path / path).resolve()
            assert target.is_relative_to(tmp_path), f"{recipe.name}:{line}: {path} is outside the recipe's directory"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            continue
        (command,) = rest
        ran += 1
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", command.text], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=COMMAND_SECONDS)
        where = f"{recipe.name}:{command.line}: $ {command.text}"
        if "2>&1" not in command.text:
            assert proc.returncode == 0, f"{where}\nexited {proc.returncode}; stderr:\n{proc.stderr}"
        got, want = _lines(proc.stdout), _lines("\n".join(command.expected))
        assert got == want, (f"{where}\nprinted (left) is not what the recipe shows (right)\n"
                             f"stderr:\n{proc.stderr}")
    assert ran, f"{recipe.name} runs no command"


def test_every_recipe_is_collected():
    """A recipe's blocks are found: each recipe writes a file or runs a command (a typo in a fence's info
    string, e.g. `yml file=`, would silently skip a block)."""
    assert RECIPES, "docs/cookbook has no recipe"
    for recipe in RECIPES:
        infos = [m.group(1).strip() for m in _FENCE.finditer(recipe.read_text())]
        for info in infos:
            if "file=" in info:
                assert _FILE_INFO.match(info), f"{recipe.name}: fence '{info}' is not yaml/mlir/python file=PATH"
