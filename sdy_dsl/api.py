"""The Python API: run a pipeline on MLIR text, an `ir.Module` or a JAX `Lowered`.

    import jax, sdy_dsl
    lowered = jax.jit(f).lower(x)
    result = sdy_dsl.run_pipeline(lowered)   # sdy-propagation-pipeline, what XLA runs
    print(result.text)

`run_pipeline` builds its own MLIR context (every dialect real modules use),
copies the input into it, and never touches the caller's module.
"""
from __future__ import annotations

import io
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence, Union

from jaxlib.mlir import ir

from . import diagnostics
from .errors import DiagnosticsError, SdyDslError, did_you_mean
from .interp import driver as driver_mod
from .interp.driver import Observer, RuleStats
from .mlir_context import MLIR_BYTECODE_MAGIC, make_context
from .passes import PassRegistry
from .pipeline import (PassVerificationError, Pipeline, PipelineRunner, load_pipeline_file,
                       parse_pipeline_string, resolve_pipeline_file)
from .resources import DEFAULT_PIPELINE, shipped_pipeline

ModuleLike = Union[str, bytes, Path, ir.Module, Any]  # Any: a JAX `Lowered` (has `compiler_ir`)
PipelineLike = Union[str, Path, Pipeline]


@dataclass
class PipelineResult:
    """The output module's text and what the CLI's observers would have reported."""

    text: str
    pass_seconds: dict[str, float] = field(default_factory=dict)
    rule_stats: dict[str, RuleStats] = field(default_factory=dict)  # "pass/rule" -> counts and time
    trace: list[str] = field(default_factory=list)  # --trace lines, when asked for
    warnings: list[str] = field(default_factory=list)  # `where: warning: message`

    def module(self, context: ir.Context | None = None) -> ir.Module:
        """The output as a new module, in CONTEXT (default: a fresh sdy-dsl context)."""
        with context or make_context(), ir.Location.unknown():
            return ir.Module.parse(self.text)


def run_pipeline(module_or_text: ModuleLike, pipeline: PipelineLike = DEFAULT_PIPELINE, *,
                 rules: str | Path | Sequence[str | Path] | None = None,
                 options: Mapping[str, Mapping[str, Any]] | None = None,
                 trace: bool = False, rule_stats: bool = False, debuginfo: bool = False,
                 source_name: str | None = None, progress: bool = False,
                 verify_each: bool = False) -> PipelineResult:
    """Run PIPELINE on a module and return the result as text.

    module_or_text: MLIR text (or bytecode bytes), a `Path` to a .mlir file,
        an `ir.Module` (copied, left unchanged) or a JAX `Lowered`
        (`jax.jit(f).lower(x)`).
    pipeline: a pass-pipeline string (`"builtin.module(sdy-close-shardings)"`
        or `"inline,sdy-close-shardings"`), a pipeline YAML file, a shipped
        pipeline name or a `Pipeline`. Default: `sdy-propagation-pipeline`,
        what XLA runs (`"shardy_full"` is the seed chain, which leaves every
        call opaque).
    rules: one or more directories of the user's rule and data files, loaded
        over the built-in ones (the CLI's `--rules`).
    options: per-pass option overrides, e.g.
        `{"sdy-user-priority-propagate": {"debug-sharding-origins": True}}`;
        a pass named here that the pipeline does not run is an error.
    trace / rule_stats: collect the CLI's `--trace` lines / `--rule-stats`.
    debuginfo: keep locations (`loc(...)`) in the output text.
    progress: print each pass as it starts (stderr), as the CLI's `--progress`.
    verify_each: verify the module after every pass, not only after the last
        (the CLI's `-verify-each`).

    Raises `SdyDslError` when a pass or the input is invalid (a
    `DiagnosticsError`, one `where: error: message` line per diagnostic, when
    MLIR or a rule reported it).
    """
    source = module_source(module_or_text)
    if source_name is None:
        source_name = str(module_or_text) if _is_path(module_or_text) else "<python>"
    rule_dirs = [Path(d) for d in ([rules] if isinstance(rules, (str, Path)) else list(rules or []))]
    registry = PassRegistry(rule_dirs)
    pipe = pipeline_of(pipeline, registry)
    if pipe.rule_dirs:  # a pipeline file's own `rules:`, under the caller's
        registry = PassRegistry(pipe.rule_dirs + rule_dirs)
    if options:
        check_options(options, pipe, registry)
        pipe = with_options(pipe, options)
    stream = io.StringIO()
    observer = Observer(trace=trace, stream=stream, collect_stats=rule_stats)
    with make_context():
        unused_tuning = PipelineRunner(registry, pipe).unused_tuning()  # validate passes and options first
    previous_name, driver_mod.SOURCE_NAME = driver_mod.SOURCE_NAME, source_name
    try:
        output, diags = run_source(source, registry, pipe, observer, debuginfo=debuginfo, progress=progress,
                                   verify_each=verify_each)
    finally:
        driver_mod.SOURCE_NAME = previous_name
    messages = [diagnostics.format(source_name, *d) for d in diags if not diagnostics.is_op_dump_note(*d)]
    if output is None:
        raise DiagnosticsError(messages or [f"{source_name}: error: the pipeline failed"])
    return PipelineResult(
        text=output, pass_seconds=dict(observer.pass_seconds),
        rule_stats={f"{p}/{r}": st for (p, r), st in observer.stats.items()},
        trace=stream.getvalue().splitlines(),
        warnings=unused_tuning + [m for m in messages if ": warning: " in m])


def module_source(module_or_text: ModuleLike) -> str | bytes:
    """The input as MLIR text or bytecode, independent of the caller's context."""
    if _is_path(module_or_text):
        module_or_text = Path(module_or_text)
    if isinstance(module_or_text, str) and _names_a_file(module_or_text):
        raise SdyDslError(f"cannot open input file '{module_or_text}': No such file or directory "
                          f"(the string is not MLIR text, so it was taken for a path)")
    if isinstance(module_or_text, (str, bytes)):
        return module_or_text
    if isinstance(module_or_text, Path):
        try:
            data = module_or_text.read_bytes()
        except OSError as e:
            raise SdyDslError(f"cannot open input file '{module_or_text}': {e.strerror}") from None
        return data if data.startswith(MLIR_BYTECODE_MAGIC) else data.decode("utf-8")
    if hasattr(module_or_text, "compiler_ir"):  # a JAX Lowered
        module_or_text = module_or_text.compiler_ir("stablehlo")
    operation = getattr(module_or_text, "operation", None)
    if operation is None or not hasattr(operation, "write_bytecode"):
        raise SdyDslError(f"cannot run a pipeline on a {type(module_or_text).__name__}: expected MLIR text, "
                          f"an ir.Module or a JAX Lowered")
    buffer = io.BytesIO()
    operation.write_bytecode(buffer)  # keeps locations; the caller's module is only read
    return buffer.getvalue()


def _names_a_file(text: str) -> bool:
    """TEXT is one line without any of MLIR's punctuation: a path (`no_such.mlir`), never a module."""
    return "\n" not in text and text.strip() != "" and not any(c in text for c in '{}()<>%@="')


def _is_path(module_or_text) -> bool:
    """A `Path`, or a string naming an existing file (MLIR text is never one line naming a file)."""
    if isinstance(module_or_text, Path):
        return True
    if not isinstance(module_or_text, str) or "\n" in module_or_text or len(module_or_text) > 4096:
        return False
    try:
        return Path(module_or_text).is_file()
    except OSError:
        return False


def _caller_location() -> tuple[str, int | None]:
    """(file, line) of the first frame outside sdy_dsl (the user's call)."""
    import sys
    package = str(Path(__file__).resolve().parent)
    frame = sys._getframe(1)
    while frame is not None:
        if not str(Path(frame.f_code.co_filename).resolve()).startswith(package):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return "<python>", None


def check_options(options: Mapping[str, Mapping[str, Any]], pipe: Pipeline, registry: PassRegistry) -> None:
    """The caller's `options=`: each pass in the pipeline, each option declared, each value of its
    type; an error is located at the caller's call, not in the pipeline file."""
    names = {step.name for step in pipe.steps}
    for pass_name, values in options.items():
        problem = None
        if pass_name not in names:
            problem = (f"options given for '{pass_name}', which the pipeline does not run "
                       f"(it runs: {', '.join(dict.fromkeys(s.name for s in pipe.steps))})")
        elif not isinstance(values, Mapping):
            problem = f"options['{pass_name}'] must be a mapping of option name to value"
        elif registry.has(pass_name):
            decls = registry.get(pass_name).options
            for key, value in values.items():
                if key not in decls:
                    problem = (f"options['{pass_name}']: pass '{pass_name}' has no option '{key}'"
                               f"{did_you_mean(key, decls)} (options: {', '.join(sorted(decls)) or 'none'})")
                    break
                try:
                    decls[key].check_value(value)
                except ValueError as e:
                    problem = f"options['{pass_name}']: {e}"
                    break
        if problem:
            raise SdyDslError(problem, *_caller_location())


def pipeline_of(spec: PipelineLike, registry: PassRegistry) -> Pipeline:
    """A Pipeline from a pipeline string, a pipeline file or a shipped pipeline name."""
    if isinstance(spec, Pipeline):
        return spec
    text = str(spec).strip()
    if not isinstance(spec, Path) and ("(" in text or "," in text or "{" in text
                                       or registry.has(text.split("{")[0].strip())):
        return parse_pipeline_string(text)
    return load_pipeline_file(resolve_pipeline_file(text))  # a file, else a shipped name


def with_options(pipe: Pipeline, options: Mapping[str, Mapping[str, Any]]) -> Pipeline:
    """PIPE with OPTIONS (pass -> {option: value}) added to the steps of those passes."""
    from dataclasses import replace
    names = {step.name for step in pipe.steps}
    for name in options:
        if name not in names:
            raise SdyDslError(f"options given for '{name}', which the pipeline does not run "
                              f"(it runs: {', '.join(dict.fromkeys(s.name for s in pipe.steps))})")
    steps = []
    for step in pipe.steps:
        extra = options.get(step.name)
        if extra:
            merged = {k: _typed(v) for k, v in step.options.items()} if not step.typed else dict(step.options)
            merged.update(extra)
            step = replace(step, options=merged, typed=True)
        steps.append(step)
    return replace(pipe, steps=steps)


def _typed(value: str) -> Any:
    """A pass option written as text in a pipeline string, as the YAML value it means."""
    import yaml
    return yaml.safe_load(value) if value else value


def run_source(source: str | bytes, registry: PassRegistry, pipeline: Pipeline, observer: Observer, *,
               unregistered: bool = False, seconds: dict | None = None, context: ir.Context | None = None,
               **runner_options) -> tuple[str | None, list]:
    """Parse SOURCE in a fresh context (or CONTEXT, one make_context(UNREGISTERED)
    made that nothing was parsed in yet), run PIPELINE, print the result.

    Returns (output text or None when something failed, diagnostics as
    (severity, (line, col) | None, message)); adds "parse" and "print" times
    to SECONDS. RUNNER_OPTIONS go to PipelineRunner (dump_dir, progress, ...).
    """
    seconds = {} if seconds is None else seconds
    diags: list = []
    output = None
    ctx = context or make_context(unregistered)
    with ctx, ir.Location.unknown(), diagnostics.collecting_warnings(diags):
        handler = ctx.attach_diagnostic_handler(lambda d: diags.extend(diagnostics.flatten(d)) or True)
        try:
            t0 = time.perf_counter()
            module = ir.Module.parse(source)
            seconds["parse"] = seconds.get("parse", 0.0) + time.perf_counter() - t0
            runner = PipelineRunner(registry, pipeline, observer, **runner_options)
            runner.run(module, verified=True)  # Module.parse verified it
            t0 = time.perf_counter()
            output = runner.module_text(module).rstrip("\n") + "\n"
            seconds["print"] = seconds.get("print", 0.0) + time.perf_counter() - t0
        except ir.MLIRError as e:
            for d in e.error_diagnostics:
                diags.extend(diagnostics.flatten(d))
            if not any(sev == "error" for sev, _, _ in diags):
                diags.append(("error", None, str(e)))
        except PassVerificationError as e:
            for d in e.mlir_error.error_diagnostics:
                diags.extend(diagnostics.flatten(d))
            if not diags:
                diags.append(("error", None, e.message))
            elif e.hint:
                diags.append(("note", None, diagnostics.ToolNote(e.hint)))
        except diagnostics.PassFailure:
            pass  # the failing rule already emitted its diagnostics
        finally:
            handler.detach()
    return output, diags
