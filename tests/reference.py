"""The C++ Shardy passes registered in jaxlib, as a test oracle.

Only tests use this module: the product never runs sdy-*/mpmd-* passes
through a PassManager.
"""
from __future__ import annotations

import re

from jaxlib.mlir import ir, passmanager

from sdy_dsl.mlir_context import make_context

SPLIT_RE = re.compile(r"^// -----.*$", re.M)


def _element(flag: str) -> str:
    """A pass flag (`name` or `name=opts`) as a pipeline element, nested where it must run."""
    name, eq, opts = flag.partition("=")
    element = f"{name}{{{opts.strip(chr(39))}}}" if eq else name
    with make_context():  # registers the sdy passes, so module-level ones are recognised
        try:
            passmanager.PassManager.parse(f"builtin.module({element})")
            return element
        except ValueError:
            return f"func.func({element})"


def pipeline_from_flags(flags: list[str]) -> str:
    """The pass-pipeline string of `opt` flags: -PASS[=OPTS]... or --pass-pipeline=P alone."""
    if len(flags) == 1 and flags[0].startswith("--pass-pipeline="):
        return flags[0].split("=", 1)[1]
    return "builtin.module(" + ",".join(_element(f.lstrip("-")) for f in flags) + ")"


def run_reference(text: str, pipeline: str, split: bool = False) -> tuple[bool, str]:
    """(ok, output) of the reference pipeline on `text` (chunks joined like mlir-opt)."""
    chunks = [text] if not split else SPLIT_RE.split(text)
    outputs, ok = [], True
    for chunk in chunks:
        with make_context() as ctx:
            try:
                module = ir.Module.parse(chunk)
                passmanager.PassManager.parse(pipeline).run(module.operation)
                outputs.append(str(module).rstrip("\n") + "\n")
            except ir.MLIRError:
                ok = False
    return ok, "// -----\n".join(outputs)
