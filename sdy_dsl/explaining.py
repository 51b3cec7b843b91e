"""`sdy-dsl explain` and `sdy_dsl.explain`: run a pipeline with the debug
options, then tell a value's story (sdy_dsl/stories.py) and write the HTML
report (sdy_dsl/report.py). Above the API it uses (sdy_dsl/api.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from jaxlib.mlir import ir

from .api import ModuleLike, PipelineLike, _is_path, module_source, pipeline_of, run_pipeline, with_options
from .errors import DiagnosticsError
from .mlir_context import make_context
from .passes import PassRegistry
from .pipeline import Pipeline
from .report import write_report
from .resources import DEFAULT_PIPELINE
from .stories import ModuleStories, debug_options


def explain(module_or_text: ModuleLike, value: str, pipeline: PipelineLike = DEFAULT_PIPELINE, *,
            rules: str | Path | Sequence[str | Path] | None = None, report: str | Path | None = None,
            source_name: str | None = None) -> str:
    """Why VALUE got its sharding: `sdy-dsl explain` from Python.

    Runs PIPELINE (as `run_pipeline` takes it; default what XLA runs) with the reference's debug
    options and returns, per axis of VALUE's sharding, the user sharding it
    came from and the propagation steps that carried it (the text the CLI
    prints). VALUE: `%name`, `main:arg 3`, `main:result 0`, `file.py:12:8` or
    a JAX name. REPORT: also write the HTML report of every value there."""
    source = module_source(module_or_text)
    if source_name is None:
        source_name = str(module_or_text) if _is_path(module_or_text) else "<python>"
    rule_dirs = [Path(d) for d in ([rules] if isinstance(rules, (str, Path)) else list(rules or []))]
    pipe = pipeline_of(pipeline, PassRegistry(rule_dirs))
    return explain_source(source, value, pipe, rules=rule_dirs, source_name=source_name,
                         report=str(report) if report is not None else None)


def explain_source(source: str | bytes, value_spec: str, pipeline: Pipeline, *, rules: list | None = None,
            source_name: str = "<python>", report: str | None = None, progress: bool = False,
            timings: dict | None = None) -> str:
    """The explanation of VALUE_SPEC's sharding after PIPELINE (and REPORT written, if given);
    PROGRESS prints each pass as it starts; TIMINGS (a dict) receives each pass's seconds."""
    options = debug_options(pipeline, PassRegistry(pipeline.rule_dirs + [Path(d) for d in rules or []]))
    note = ""

    def run(debug: dict, verify_each: bool):
        return run_pipeline(source, with_options(pipeline, {p: o for p, o in debug.items() if o}), rules=rules,
                            debuginfo=True, source_name=source_name, progress=progress, verify_each=verify_each)
    try:
        # Verified after each pass as in the reference, whose verifier rejects
        # recorded edges that a later pass would sink out of sight.
        result = run(options, True)
    except DiagnosticsError as e:
        # The reference's propagation edges cannot always be recorded: on a
        # data-flow edge with several sources (a while loop's: a scan) its
        # verifier rejects them, in the reference too. Unverified, the run keeps
        # every other step (those are sunk out of sight with their edges), so a
        # chain stops at such a loop; failing that, the origins alone.
        try:
            result = run(options, False)
            note = ("note: the propagation steps through some data-flow edges (a while loop's, e.g. a scan's) "
                    f"could not be recorded, and a chain stops there ({first_error(e)})")
        except DiagnosticsError:
            result = run({p: {k: v for k, v in o.items() if "origins" in k} for p, o in options.items()}, False)
            note = ("note: origins only: the propagation steps could not be recorded on this module "
                    f"({first_error(e)})")
    if timings is not None:
        timings.update(result.pass_seconds)
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(result.text)
        stories = ModuleStories(module, source_name)
        func, kind, what = stories.find(value_spec)
        text = stories.story(func, kind, what).as_text() + (f"\n{note}" if note else "")
        if report is not None:
            write_report(stories, report, source_name, focus=stories.story(func, kind, what).key, rules=rules)
    return text


def first_error(e: DiagnosticsError) -> str:
    """The error that failed a run: its first `error:` line (warnings come before it
    in program order, e.g. the registry's about an op it does not know, and are no reason)."""
    return next((line for line in e.lines if ": error: " in line), e.lines[0] if e.lines else str(e))
