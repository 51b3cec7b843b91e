"""Run a pipeline YAML with the C++ Shardy passes registered in jaxlib (the reference).

Usage: python ref_runner.py PIPELINE.yaml INPUT.mlir [-o OUT]   (OUT defaults to stdout)
       python ref_runner.py PASS-PIPELINE INPUT.mlir [-o OUT]   (e.g. sdy-propagation-pipeline)

Benchmarks only: product code never runs sdy-* passes through a PassManager.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sdy_dsl.mlir_context import make_context  # the same dialects and threading as sdy-dsl

import yaml
from jaxlib.mlir import ir, passmanager


def option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def pass_text(entry) -> str:
    """`name` or `{name: {opt: value}}` -> `name{opt=value ...}`."""
    if isinstance(entry, str):
        return entry
    (name, options), = entry.items()
    if not options:
        return name
    return name + "{" + " ".join(f"{k}={option_text(v)}" for k, v in options.items()) + "}"


def pass_texts(yaml_path: Path) -> list[str]:
    """The YAML's passes, func.func groups nested as written, `{pipeline: FILE}` expanded."""
    parts = []
    for entry in yaml.safe_load(open(yaml_path))["passes"]:
        if isinstance(entry, dict) and "func.func" in entry:
            parts.append("func.func(" + ",".join(pass_text(e) for e in entry["func.func"]) + ")")
        elif isinstance(entry, dict) and "pipeline" in entry:
            parts.extend(pass_texts(yaml_path.parent / entry["pipeline"]))
        else:
            parts.append(pass_text(entry))
    return parts


def pipeline_string(pipeline: str) -> str:
    """The YAML's passes as `builtin.module(...)`; anything not a .yaml/.yml path is taken
    as the passes themselves (e.g. `sdy-propagation-pipeline`, a registered pass pipeline)."""
    if not pipeline.endswith((".yaml", ".yml")):
        return pipeline if pipeline.startswith("builtin.module(") else f"builtin.module({pipeline})"
    return "builtin.module(" + ",".join(pass_texts(Path(pipeline))) + ")"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pipeline")
    ap.add_argument("input")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--timing", action="store_true",
                    help="print MLIR's pass timing report (stderr), the reference's own per-pass times")
    ap.add_argument("--print-pipeline", action="store_true", help="print the MLIR pipeline string and exit")
    args = ap.parse_args(argv)
    pipeline = pipeline_string(args.pipeline)
    if args.print_pipeline:
        print(pipeline)
        return 0
    with make_context():
        module = ir.Module.parse(open(args.input).read())
        try:
            manager = passmanager.PassManager.parse(pipeline)
            if args.timing:
                manager.enable_timing()
            manager.run(module.operation)
        except ir.MLIRError as e:
            print(f"ref_runner: error: {e}", file=sys.stderr)
            return 1
        text = str(module).rstrip("\n") + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
