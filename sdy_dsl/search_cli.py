"""`sdy-dsl search`: try a space of tunings on a model, ranked by their cost (sdy_dsl/search.py).

    sdy-dsl search MODEL.mlir SPACE.yaml [--jobs N] [--json] [-o DIR] [--rules DIR]
                   [--no-cache] [--cache-dir DIR] [--engine local|dask] [--scheduler ADDRESS]
                   [--verify K] [--progress | --no-progress]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import UsageError, did_you_mean

USAGE = ("sdy-dsl search MODEL.mlir SPACE.yaml [--jobs N] [--json] [-o DIR] [--rules DIR] [--no-cache] "
         "[--cache-dir DIR] [--engine local|dask] [--scheduler ADDRESS] [--verify K] [--progress|--no-progress]")
HELP = f"""usage:
  {USAGE}

Runs every point of SPACE.yaml (options, params, rules directories, user
priorities on @main's arguments, on a pipeline; default
sdy-propagation-pipeline) on MODEL, prices each with `sdy-dsl cost`, and
prints them ranked by the space's objective (default: collective bytes per
device), the Pareto front of collective vs memory bytes marked. See
docs/search.md.

  --jobs N           worker processes (default: every local core; 1: in this process)
  -o DIR             write DIR/table.txt, results.json, pareto.svg, report.html and
                     DIR/best/ (pipeline.yaml and rules directories for run, cost, apply)
  --json             print the results as JSON instead of the table
  --rules DIR        rule files under every point (as elsewhere; repeatable)
  --no-cache         run every point (default: reuse the results of points already run,
                     stored under DIR/cache with -o, else $XDG_CACHE_HOME/sdy-dsl/search)
  --cache-dir DIR    where the results of finished points are kept
  --engine E         local (default) or dask (pip install 'sdy-dsl[dask]')
  --scheduler ADDR   the Dask scheduler to send points to (default: a local cluster)
  --verify K         compile the K best points with JAX and show XLA's collectives beside the
                     estimate (MODEL must be a file written by jax.export's Exported.serialize())
  --progress / --no-progress   the status line on stderr (default: on a terminal)
"""
VALUED = {"--jobs": "jobs", "-o": "out", "--rules": "rules", "--cache-dir": "cache_dir", "--engine": "engine",
          "--scheduler": "scheduler", "--verify": "verify"}
SWITCHES = {"--json": "json", "--no-cache": "no_cache", "--progress": "progress", "--no-progress": "no_progress"}


def parse(argv: list[str]) -> dict:
    args = {"inputs": [], "jobs": None, "out": None, "rules": [], "cache_dir": None, "engine": "local",
            "scheduler": None, "verify": "0", "json": False, "no_cache": False, "progress": False,
            "no_progress": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        if name in VALUED:
            if not eq:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"search: {name} needs a value ({USAGE})")
                value = argv[i]
            if name == "--rules":
                args["rules"].append(value)
            else:
                args[VALUED[name]] = value
        elif a in SWITCHES:
            args[SWITCHES[a]] = True
        elif a.startswith("-") and a != "-":
            raise UsageError(f"search: unknown option '{a}'{did_you_mean(name, list(VALUED) + list(SWITCHES))} "
                             f"({USAGE})")
        else:
            args["inputs"].append(a)
        i += 1
    if len(args["inputs"]) != 2:
        raise UsageError(f"search takes MODEL.mlir and SPACE.yaml ({USAGE})")
    for key in ("jobs", "verify"):
        if args[key] is not None:
            try:
                args[key] = int(args[key])
            except ValueError:
                raise UsageError(f"search: --{key} takes a number, got '{args[key]}'") from None
            if args[key] < (1 if key == "jobs" else 0):
                raise UsageError(f"search: --{key} takes a {'positive' if key == 'jobs' else 'non-negative'} number")
    return args


def _model(path: str, verify: int):
    """MODEL as the search takes it: a path, or an Exported read from a serialized one."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"search: no model file '{path}'")
    data = p.read_bytes()
    from .mlir_context import MLIR_BYTECODE_MAGIC
    is_mlir = data.startswith(MLIR_BYTECODE_MAGIC) or _is_text(data)
    if is_mlir:
        if verify:
            raise UsageError("search: --verify compiles with JAX and needs MODEL as a serialized jax.export "
                             "(Exported.serialize()), not MLIR")
        return p
    try:
        import jax.export
        return jax.export.deserialize(bytearray(data))
    except ImportError:
        raise UsageError(f"search: '{path}' is not MLIR; reading a serialized jax.export needs jax "
                         "(pip install 'sdy-dsl[jax]')") from None
    except Exception:
        raise UsageError(f"search: '{path}' is neither MLIR (text or bytecode) nor a serialized jax.export") from None


def _is_text(data: bytes) -> bool:
    try:
        data[:4096].decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(HELP, end="")
        return 0
    args = parse(argv)
    from .search import search
    model = _model(args["inputs"][0], args["verify"])
    progress = args["progress"] or (not args["no_progress"] and sys.stderr.isatty())
    result = search(model, args["inputs"][1], rules=args["rules"], jobs=args["jobs"], out_dir=args["out"],
                    cache_dir=args["cache_dir"], use_cache=not args["no_cache"], engine=args["engine"],
                    scheduler=args["scheduler"], progress=progress, verify=args["verify"])
    if args["json"]:
        print(json.dumps(result.to_json(), indent=1, default=str))
    else:
        print(result.table())
        if args["out"]:
            print(f"wrote {args['out']}/: table.txt, results.json, pareto.svg, report.html"
                  + (", best/ (pipeline.yaml: sdy-dsl cost MODEL --pipeline "
                     f"{args['out']}/best/pipeline.yaml)" if result.best else ""))
    return 0
