"""Pipelines: which passes run, with which options, nested where.

Three spellings build the same `Pipeline`:
- `sdy-dsl opt` flags: `-sdy-close-shardings -sdy-basic-propagate='keep-sharding-rules=true'`;
- an MLIR pipeline string: `builtin.module(inline,sdy-close-shardings,func.func(sdy-sink-data-flow-edges))`;
- a pipeline YAML file: `passes: [sdy-close-shardings, {sdy-basic-propagate: {conservative-propagation: true}}]`.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from jaxlib.mlir import ir, passmanager

from .errors import RuleFileError, SdyDslError, UsageError
from .interp.driver import Observer, PassRunner
from .interp.yaml_loader import Loc, load_yaml
from .passes import PassRegistry
from .runtime.sharding import codec
from .runtime.values import operation


@dataclass
class Step:
    name: str
    options: dict = field(default_factory=dict)  # raw: str values (strings) or typed (YAML)
    nested_in: str | None = None  # "func.func" when written inside func.func(...)
    loc: Loc | None = None
    typed: bool = False  # options already typed (from YAML)


@dataclass
class Pipeline:
    steps: list[Step]


# --------------------------------------------------------------------------- parsing


def split_top_level(text: str, sep: str = ",") -> list[str]:
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth < 0:
                raise UsageError(f"invalid pass pipeline '{text}': unbalanced ')' or '}}'")
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth != 0 or quote:
        raise UsageError(f"invalid pass pipeline '{text}': unbalanced brackets or quotes")
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def parse_option_string(text: str) -> dict[str, str]:
    """`k=v k2='a b'` (MLIR's pass option syntax; commas also separate)."""
    options, i, n = {}, 0, len(text)
    while i < n:
        while i < n and text[i] in " ,\t":
            i += 1
        if i >= n:
            break
        j = i
        while j < n and text[j] not in "= ,\t":
            j += 1
        key = text[i:j]
        value = "true"
        if j < n and text[j] == "=":
            j += 1
            if j < n and text[j] in "'\"{":
                close = "}" if text[j] == "{" else text[j]
                k = text.find(close, j + 1)
                if k < 0:
                    raise UsageError(f"invalid pass options '{text}': unterminated value of '{key}'")
                value = text[j + 1:k]
                j = k + 1
            else:
                k = j
                while k < n and text[k] not in " ,\t":
                    k += 1
                value = text[j:k]
                j = k
        if not key:
            raise UsageError(f"invalid pass options '{text}'")
        options[key] = value
        i = j
    return options


def parse_element(text: str, nested_in: str | None, out: list[Step]) -> None:
    text = text.strip()
    if "(" in text and (text.index("(") < text.index("{") if "{" in text else True):
        anchor, _, rest = text.partition("(")
        anchor = anchor.strip()
        if not rest.endswith(")"):
            raise UsageError(f"invalid pass pipeline element '{text}'")
        if anchor not in ("builtin.module", "func.func"):
            raise UsageError(f"unsupported pipeline anchor '{anchor}' (expected builtin.module or func.func)")
        if nested_in == "func.func" and anchor == "builtin.module":
            raise UsageError("cannot nest builtin.module(...) inside func.func(...)")
        for part in split_top_level(rest[:-1]):
            parse_element(part, None if anchor == "builtin.module" else anchor, out)
        return
    name, brace, rest = text.partition("{")
    name = name.strip()
    options = {}
    if brace:
        if not rest.endswith("}"):
            raise UsageError(f"invalid pass options in '{text}'")
        options = parse_option_string(rest[:-1])
    if not name:
        raise UsageError(f"invalid pass pipeline element '{text}'")
    out.append(Step(name, options, nested_in))


def parse_pipeline_string(text: str) -> Pipeline:
    text = text.strip()
    steps: list[Step] = []
    for part in split_top_level(text):
        parse_element(part, None, steps)
    return Pipeline(steps)


def load_pipeline_file(path: Path | str) -> Pipeline:
    doc = load_yaml(path)
    top = Loc(str(path), 1, 1)
    if not isinstance(doc, dict) or "passes" not in doc:
        raise top.error("a pipeline file is a mapping with a 'passes' list")
    for key in doc:
        if key not in ("passes", "description"):
            raise doc.key_loc(key).error(f"unknown key '{key}' (expected 'passes' or 'description')")
    raw = doc["passes"]
    if not isinstance(raw, list):
        raise doc.loc_of("passes").error("'passes' must be a list")
    steps: list[Step] = []
    for i, item in enumerate(raw):
        loc = raw.item_locs[i]
        _pipeline_item(item, loc, None, steps, Path(path).parent, (Path(path).resolve(),))
    return Pipeline(steps)


def _pipeline_item(item, loc: Loc, nested_in, steps, base: Path, including: tuple = ()):
    if isinstance(item, dict) and len(item) == 1 and "pipeline" in item and nested_in is None:
        # {pipeline: FILE}: the passes of another pipeline file (relative to this one).
        target = (base / str(item["pipeline"])).resolve()
        if not target.is_file():
            raise item.loc_of("pipeline").error(f"pipeline file '{item['pipeline']}' not found")
        if target in including:
            raise item.loc_of("pipeline").error(f"pipeline file '{item['pipeline']}' includes itself")
        doc = load_yaml(target)
        if not isinstance(doc, dict) or not isinstance(doc.get("passes"), list):
            raise Loc(str(target), 1, 1).error("a pipeline file is a mapping with a 'passes' list")
        for j, sub in enumerate(doc["passes"]):
            _pipeline_item(sub, doc["passes"].item_locs[j], None, steps, target.parent, including + (target,))
        return
    if isinstance(item, str):
        steps.append(Step(str(item), {}, nested_in, loc))
        return
    if isinstance(item, dict) and len(item) == 1:
        name, body = next(iter(item.items()))
        bloc = item.loc_of(name)
        if name == "func.func":
            if not isinstance(body, list):
                raise bloc.error("func.func takes a list of passes")
            for j, sub in enumerate(body):
                _pipeline_item(sub, body.item_locs[j], "func.func", steps, base, including)
            return
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise bloc.error(f"options of '{name}' must be a mapping of option to value")
        steps.append(Step(str(name), dict(body), nested_in, item.key_loc(name), typed=True))
        return
    raise loc.error("a pipeline entry is a pass name, {pass: {option: value}}, {func.func: [passes]} "
                    "or {pipeline: FILE}")


# --------------------------------------------------------------------------- running


class PipelineRunner:
    def __init__(self, registry: PassRegistry, pipeline: Pipeline, observer: Observer | None = None,
                 dump_dir: Path | None = None, progress: bool = False, timing: bool = False):
        self.registry = registry
        self.observer = observer or Observer()
        self.dump_dir = Path(dump_dir) if dump_dir else None
        self.progress, self.timing = progress, timing
        self.plan = self._plan(pipeline)
        self.timings: list[tuple[str, float]] = []

    def _plan(self, pipeline: Pipeline):
        """Validate every step up front: unknown passes and options fail before any work."""
        plan = []
        for step in pipeline.steps:
            if self.registry.has(step.name):
                passdef = self.registry.get(step.name)
                if step.nested_in == "func.func" and passdef.anchor == "builtin.module":
                    raise self._step_error(step, f"pass '{step.name}' runs on builtin.module and cannot be "
                                                 f"nested in func.func(...)")
                options = passdef.default_options()
                for key, value in step.options.items():
                    decl = passdef.options.get(key)
                    if decl is None:
                        known = ", ".join(sorted(passdef.options)) or "none"
                        raise self._step_error(step, f"pass '{step.name}' has no option '{key}' (options: {known})")
                    try:
                        options[key] = decl.check_value(value) if step.typed else decl.parse(value)
                    except ValueError as e:
                        raise self._step_error(step, str(e)) from None
                plan.append(("rules", step, passdef, options))
            elif step.name.startswith(("sdy-", "mpmd-")):
                raise self._step_error(step, f"unknown pass '{step.name}' (see 'sdy-dsl passes')")
            else:
                text = step.name
                if step.options:
                    if step.typed:
                        opts = " ".join(f"{k}={_mlir_option(v)}" for k, v in step.options.items())
                    else:
                        opts = " ".join(f"{k}={v}" for k, v in step.options.items())
                    text += "{" + opts + "}"
                if step.nested_in:
                    text = f"{step.nested_in}({text})"
                try:
                    with ir.Context():
                        passmanager.PassManager.parse(f"builtin.module({text})")
                except ValueError:
                    raise self._step_error(step, f"unknown pass or bad options: '{step.name}'") from None
                plan.append(("mlir", step, text, None))
        return plan

    @staticmethod
    def _step_error(step: Step, message: str):
        if step.loc is not None:
            return RuleFileError(step.loc.path, step.loc.line, step.loc.col, message)
        return UsageError(message)

    def run(self, module: ir.Module) -> None:
        module_op = module.operation
        total = len(self.plan)
        for i, (kind, step, what, options) in enumerate(self.plan):
            t0 = time.perf_counter()
            if self.progress:
                print(f"[{i + 1}/{total}] {step.name} ...", file=sys.stderr, flush=True)
            if kind == "mlir":
                pm = passmanager.PassManager.parse(f"builtin.module({what})")
                try:
                    pm.run(module_op)
                except ir.MLIRError as e:
                    raise SdyDslError(f"pass '{step.name}' failed: {e}") from None
            else:
                self._run_rule_pass(what, options, module_op)
            codec.clear_if_large()
            dt = time.perf_counter() - t0
            self.timings.append((step.name, dt))
            self.observer.pass_seconds[step.name] = self.observer.pass_seconds.get(step.name, 0.0) + dt
            if self.dump_dir is not None:
                self.dump_dir.mkdir(parents=True, exist_ok=True)
                (self.dump_dir / f"{i + 1:02d}_{step.name}.mlir").write_text(str(module))

    def _run_rule_pass(self, passdef, options, module_op):
        runner = PassRunner(passdef, options, self.observer)
        if passdef.anchor == "func.func":
            for op in list(module_op.regions[0].blocks[0].operations):
                op = operation(op)
                if op.name == "func.func":
                    runner.run(op)
        else:
            runner.run(module_op)
        verify_or_raise(module_op, passdef.name)


def verify_or_raise(module_op, pass_name: str) -> None:
    """Like MLIR's pass manager: verify the IR after each pass."""
    try:
        module_op.verify()
    except ir.MLIRError as e:
        raise PassVerificationError(pass_name, e) from None


class PassVerificationError(SdyDslError):
    def __init__(self, pass_name: str, error: ir.MLIRError):
        super().__init__(f"pass '{pass_name}' produced invalid IR: {error}")
        self.mlir_error = error


def _mlir_option(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
