"""`sdy-dsl cost`: what a module's sharding costs in collectives (sdy_dsl/cost.py).
`sdy-dsl cost --help` prints HELP."""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .api import module_source, run_pipeline
from .cost import DEFAULT_PIPELINE, compare_text, cost, unused_in_every_run, xla_comparison_text
from .errors import SdyDslError, UsageError, did_you_mean

USAGE = ("sdy-dsl cost INPUT.mlir [INPUT2.mlir] [--pipeline P|none] [--rules DIR] [--options 'PASS{k=v ...}'] "
         "[--a-*/--b-* ...] [--xla] [--json]")

HELP = f"""usage:
  {USAGE}

The collectives a module's sharding needs, per function, before compiling
anything: PIPELINE's propagation, then Shardy's export with explicit
collectives; each collective's kind, axes, tensor, bytes per device and
location, and the per-device size of every argument and result.

Two sides, A and B, side by side (their totals per function and kind):
  sdy-dsl cost A.mlir B.mlir                     two modules, the same settings
  sdy-dsl cost M.mlir --b-rules tuned/           one module, two tunings
  sdy-dsl cost M.mlir --b-options 'sdy-user-priority-propagate{{propagation-strategy=basic}}'

options (each applies to both sides; --a-NAME / --b-NAME to one side only,
added to (or, for --pipeline, replacing) the shared one):
  --pipeline P         the propagation to run first: a shipped pipeline name, a
                       pipeline file or an MLIR pipeline string (default
                       {DEFAULT_PIPELINE}, what XLA runs; `none` for a module
                       a pipeline already produced)
  --rules DIR          load rule and data files from DIR over the built-in ones
                       (repeatable)
  --options 'PASS{{k=v ...}}'
                       options of a pass the pipeline runs, e.g.
                       'sdy-user-priority-propagate{{propagation-strategy=basic}}'
                       (repeatable)
  --xla                also compile what the pipeline decided with XLA (needs
                       jax; the module pinned as sdy_dsl.jax.apply pins it) and
                       put XLA's collectives beside sdy-dsl's, per kind, with
                       where and why they differ
  --json               print JSON
  -h, --help           print this help"""

SIDE_FLAGS = ("pipeline", "rules", "options")


@dataclass
class Side:
    input: str
    pipeline: str | None = DEFAULT_PIPELINE
    rules: list[str] = field(default_factory=list)
    options: dict[str, dict] = field(default_factory=dict)
    tuning: list[str] = field(default_factory=list)  # the --a-*/--b-* flags, for its label

    def label(self) -> str:
        return self.input + (f" ({' '.join(self.tuning)})" if self.tuning else "")


def parse_options(text: str, flag: str) -> tuple[str, dict]:
    """'PASS{k=v k2=v2}' -> (PASS, {k: v, ...}); values as YAML reads them."""
    import yaml
    m = re.fullmatch(r"\s*([\w.\-]+)\s*\{(.*)\}\s*", text, re.S)
    if not m:
        raise UsageError(f"{flag}: expected 'PASS{{option=value ...}}', got '{text}'")
    values = {}
    for item in m.group(2).split():
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UsageError(f"{flag}: expected option=value in '{text}', got '{item}'")
        values[key] = yaml.safe_load(value) if value else value
    return m.group(1), values


def parse(argv: list[str]) -> dict:
    shared: dict = {"pipeline": None, "rules": [], "options": {}}
    per_side: dict = {s: {"pipeline": None, "rules": [], "options": {}, "tuning": []} for s in "ab"}
    inputs, xla, as_json = [], False, False
    known = [f"--{n}" for n in SIDE_FLAGS] + [f"--{s}-{n}" for s in "ab" for n in SIDE_FLAGS] + \
        ["--xla", "--json", "--help"]
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        m = re.fullmatch(r"--(?:([ab])-)?(pipeline|rules|options)", name)
        if m:
            if not eq:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"cost: {name} needs a value (see 'sdy-dsl cost --help')")
                value = argv[i]
            side, what = m.groups()
            target = per_side[side] if side else shared
            if what == "pipeline":
                target["pipeline"] = value
            elif what == "rules":
                target["rules"].append(value)
            else:
                pass_name, values = parse_options(value, name)
                target["options"].setdefault(pass_name, {}).update(values)
            if side:
                target["tuning"].append(f"{name}={value}")
        elif a in ("-h", "--help"):
            return {"help": True}
        elif a == "--xla":
            xla = True
        elif a == "--json":
            as_json = True
        elif a.startswith("-") and a != "-":
            raise UsageError(f"cost: unknown option '{a}'{did_you_mean(name, known)} (see 'sdy-dsl cost --help')")
        else:
            inputs.append(a)
        i += 1
    tuned = any(per_side[s]["tuning"] for s in "ab")
    if len(inputs) not in (1, 2):
        raise UsageError(f"cost takes one or two input files (see 'sdy-dsl cost --help')")
    if len(inputs) == 1 and tuned:
        inputs = inputs * 2  # one module, two tunings
    sides = []
    for name, which in zip(inputs, "ab"):
        own = per_side[which] if len(inputs) == 2 else per_side["a"]
        pipeline = own["pipeline"] or shared["pipeline"] or DEFAULT_PIPELINE
        options = {p: dict(v) for p, v in shared["options"].items()}
        for p, v in own["options"].items():
            options.setdefault(p, {}).update(v)
        sides.append(Side(name, None if pipeline == "none" else pipeline, shared["rules"] + own["rules"],
                          options, own["tuning"]))
    return {"sides": sides, "xla": xla, "json": as_json}


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.get("help"):
        print(HELP)
        return 0
    sides: list[Side] = args["sides"]
    for side in sides:
        if not Path(side.input).is_file():
            raise UsageError(f"cost: no input file '{side.input}'")
        _check_options(side)
    if args["xla"]:
        _prepare_jax(sides[0].input)
    reports, compiled = [], []
    for side in sides:
        text, warnings = module_source(Path(side.input)), []
        if side.pipeline is not None:
            run = run_pipeline(text, side.pipeline, rules=side.rules, options=side.options or None,
                               debuginfo=True, source_name=side.input)
            text, warnings = run.text, run.warnings
        reports.append(cost(text, None, rules=side.rules, source_name=side.input))
        for warning in unused_in_every_run([warnings or reports[-1].warnings, reports[-1].warnings]):
            print(warning, file=sys.stderr)
        if args["xla"]:
            compiled.append(_xla_collectives(text))
    if args["json"]:
        docs = [dict(r.to_json(), xla=compiled[i][0]) if compiled else r.to_json() for i, r in enumerate(reports)]
        doc = docs[0] if len(docs) == 1 else {"inputs": [s.label() for s in sides], "reports": docs}
        print(json.dumps(doc, indent=2))
        return 0
    if len(reports) == 1:
        print(reports[0].text())
    else:
        print(compare_text(reports[0], reports[1], *(s.label() for s in sides)))
    for side, report, xla in zip(sides, reports, compiled):
        print(f"\n{side.label()}: sdy-dsl's estimate beside XLA's compiled program (bytes per device)")
        print(xla_comparison_text(report, *xla))
    return 0


def _check_options(side: Side) -> None:
    """A side's --options name passes its pipeline runs and options they have (a usage error)."""
    if not side.options:
        return
    if side.pipeline is None:
        raise UsageError("cost: --options needs a pipeline to give them to (not --pipeline none)")
    from .api import check_options, pipeline_of
    from .passes import PassRegistry
    registry = PassRegistry([Path(d) for d in side.rules])
    try:
        check_options(side.options, pipeline_of(side.pipeline, registry), registry)
    except UsageError:
        raise
    except SdyDslError as e:  # (located at a Python caller: here the command line is the caller)
        raise UsageError(f"cost: --options: {e.message}") from None


def _prepare_jax(path: str) -> None:
    """On CPU, XLA has one device unless asked before jax starts: ask for the
    module's partitions; and keep XLA's start-up info lines off stderr."""
    m = re.search(r"mhlo\.num_partitions = (\d+)", Path(path).read_text(errors="replace")[:4096])
    flags = os.environ.get("XLA_FLAGS", "")
    if m and "xla_force_host_platform_device_count" not in flags:
        os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={m.group(1)}".strip()
    if "TF_CPP_MIN_LOG_LEVEL" not in os.environ:
        try:  # (jaxlib read the variable when sdy-dsl's MLIR bindings loaded: set the level itself)
            from jax._src.lib import utils
            utils.absl_set_min_log_level(1)
        except (ImportError, AttributeError):
            pass


def _xla_collectives(propagated: str) -> tuple[dict, dict]:
    """XLA's compiled collectives for PROPAGATED, pinned as sdy_dsl.jax.apply
    pins it: per kind, (count and bytes, count per shape)."""
    try:
        import sdy_dsl.jax as sj
    except ImportError:
        raise SdyDslError("cost --xla needs jax (pip install 'sdy-dsl[jax]')") from None
    hlo = sj.compiled_module_hlo(sj.pin_for_xla(propagated))
    return sj.collectives_in_hlo(hlo), sj.collective_shapes_in_hlo(hlo)
