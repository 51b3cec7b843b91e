"""`sdy-dsl cost`: what a module's sharding costs in collectives (sdy_dsl/cost.py).

    sdy-dsl cost M.mlir [--pipeline P] [--rules DIR] [--json]
    sdy-dsl cost A.mlir B.mlir [--pipeline P] [--rules DIR] [--json]   (side by side)

--pipeline: the propagation to run first (a pipeline file, a shipped name or
an MLIR pipeline string; default shardy_full; `none` for a module already
propagated).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .cost import compare_text, cost
from .errors import UsageError

USAGE = "sdy-dsl cost INPUT.mlir [INPUT2.mlir] [--pipeline PIPELINE|none] [--rules DIR] [--json]"


def parse(argv: list[str]) -> dict:
    args = {"inputs": [], "pipeline": "shardy_full", "rules": [], "json": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        if name in ("--pipeline", "--rules"):
            if not eq:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"{name} needs a value ({USAGE})")
                value = argv[i]
            if name == "--pipeline":
                args["pipeline"] = value
            else:
                args["rules"].append(value)
        elif a == "--json":
            args["json"] = True
        elif a.startswith("-") and a != "-":
            raise UsageError(f"cost: unknown option '{a}' ({USAGE})")
        else:
            args["inputs"].append(a)
        i += 1
    if len(args["inputs"]) not in (1, 2):
        raise UsageError(f"cost takes one or two input files ({USAGE})")
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    pipeline = None if args["pipeline"] == "none" else args["pipeline"]
    reports = []
    for name in args["inputs"]:
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"cost: no input file '{name}'")
        reports.append(cost(path, pipeline, rules=args["rules"]))
        for warning in reports[-1].warnings:
            print(warning, file=sys.stderr)
    if args["json"]:
        doc = reports[0].to_json() if len(reports) == 1 else \
            {"inputs": args["inputs"], "reports": [r.to_json() for r in reports]}
        print(json.dumps(doc, indent=2))
    elif len(reports) == 1:
        print(reports[0].text())
    else:
        print(compare_text(reports[0], reports[1], *args["inputs"]))
    return 0
