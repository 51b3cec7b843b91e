"""Pipelines: which passes run, with which options, nested where.

Three spellings build the same `Pipeline`:
- `sdy-dsl opt` flags: `-sdy-close-shardings -sdy-basic-propagate='keep-sharding-rules=true'`;
- an MLIR pipeline string: `builtin.module(inline,sdy-close-shardings,func.func(sdy-sink-data-flow-edges))`;
- a pipeline YAML file: `passes: [sdy-close-shardings, {sdy-basic-propagate: {conservative-propagation: true}}]`.
"""
from __future__ import annotations

import functools
import re
import sys
import time
from pathlib import Path

from jaxlib.mlir import ir, passmanager
from jaxlib.mlir._mlir_libs import _jax_mlir_ext

from .errors import RuleFileError, SdyDslError, UsageError, did_you_mean
from .interp.driver import Observer, PassRunner
from .interp.syntax import unquoted
from . import pipeline_files
from .passes import GENERIC_MLIR_PASSES, PassRegistry
from .pipeline_model import PASS_NAME, Pipeline, Step, check_pass_name  # noqa: F401  (their home)
from .resources import builtin_pipelines_dir, shipped_pipeline, shipped_pipeline_names
from .runtime.sharding import codec
from .runtime.values import operation


# --------------------------------------------------------------------------- parsing


def split_top_level(text: str, sep: str = ",") -> list[str]:
    parts, depth, start, last = [], 0, 0, None
    for i, ch, depth in unquoted(text, "({", ")}"):
        last = i
        if depth < 0:
            raise UsageError(f"invalid pass pipeline '{text}': unbalanced ')' or '}}'")
        if ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth != 0 or (text and last != len(text) - 1):
        raise UsageError(f"invalid pass pipeline '{text}': unbalanced brackets or quotes")
    parts.append(text[start:].strip())
    if parts == [""]:
        return []
    if "" in parts:
        raise UsageError(f"invalid pass pipeline '{text}': empty entry")
    return parts


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


MAX_NESTING = 32  # func.func(func.func(...)) levels in a pipeline string


def parse_element(text: str, nested_in: str | None, out: list[Step], depth: int = 0) -> None:
    text = text.strip()
    if depth > MAX_NESTING:
        raise UsageError(f"pass pipeline nested more than {MAX_NESTING} levels deep")
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
            parse_element(part, None if anchor == "builtin.module" else anchor, out, depth + 1)
        return
    name, brace, rest = text.partition("{")
    name = name.strip()
    options = {}
    if brace:
        if not rest.endswith("}"):
            raise UsageError(f"invalid pass options in '{text}'")
        options = parse_option_string(rest[:-1])
    try:
        name = check_pass_name(name)
    except ValueError as e:
        raise UsageError(f"invalid pass pipeline element '{text}': {e}") from None
    out.extend(expand_step(Step(name, options, nested_in)))


def expand_step(step: Step) -> list[Step]:
    """STEP, or the passes of the named pipeline it names (pipelines/*.yaml)."""
    if not pipeline_files.is_named_pipeline(step.name):
        return [step]
    return pipeline_files.named_pipeline_steps(step.name, step.options, typed=step.typed, nested_in=step.nested_in,
                                where=step.loc)


def parse_pipeline_string(text: str) -> Pipeline:
    text = text.strip()
    steps: list[Step] = []
    for part in split_top_level(text):
        parse_element(part, None, steps)
    return Pipeline(steps)


def load_pipeline_file(path: Path | str) -> Pipeline:
    """The passes of a pipeline file (sdy_dsl/pipeline_files.py reads the format)."""
    return pipeline_files.load_pipeline_file(path)


def resolve_pipeline_file(spec: str | Path) -> Path:
    """A pipeline file path, or the shipped pipeline of that name (`shardy_full`)."""
    path = Path(spec)
    try:
        if path.is_file():
            return path
    except OSError:  # e.g. a name too long to be a file
        pass
    shipped = shipped_pipeline(str(spec))
    if shipped is not None:
        return shipped
    raise UsageError(f"no pipeline file '{spec}' and no shipped pipeline of that name"
                     f"{did_you_mean(str(spec), pipeline_files.pipeline_names())} "
                     f"(shipped: {', '.join(shipped_pipeline_names())}, in {builtin_pipelines_dir()}; "
                     f"'sdy-dsl pipelines' describes them)")


# --------------------------------------------------------------------------- MLIR's own pass registry


@functools.cache
def _register_mlir_passes() -> None:
    # Registering jax's dialects registers MLIR's passes (and Shardy's C++ ones)
    # for every context; without it no pass name parses.
    _jax_mlir_ext.register_dialects(ir.DialectRegistry())


def parse_mlir_pipeline(text: str) -> passmanager.PassManager | None:
    """MLIR's pass manager for `builtin.module(...)` TEXT, or None when MLIR rejects it."""
    _register_mlir_passes()
    try:
        with ir.Context():
            return passmanager.PassManager.parse(text)
    except ValueError:
        return None


def mlir_pass_nesting(name: str) -> str | None:
    """How MLIR accepts pass NAME as a flag: 'builtin.module', 'func.func', or None (unknown)."""
    if parse_mlir_pipeline(f"builtin.module({name})") is not None:
        return "builtin.module"
    if parse_mlir_pipeline(f"builtin.module(func.func({name}))") is not None:
        return "func.func"
    return None


def _pass_names_in(pipeline_text: str) -> list[str]:
    """The pass names of a printed MLIR pipeline, options and anchors dropped, in order."""
    depth, kept = 0, []
    for ch in pipeline_text:
        depth += ch == "{"
        if depth == 0:
            kept.append(ch)
        depth -= ch == "}"
    names = re.split(r"[(),\s]+", "".join(kept))
    return [n for n in names if n and n not in ("builtin.module", "func.func")]


def not_implemented_error(name: str, registry: PassRegistry, where=None) -> SdyDslError:
    """The error for an sdy-*/mpmd-* pass sdy-dsl has no rule file for.

    A pass or pipeline that C++ Shardy has (MLIR's pass registry parses the
    name; nothing is run) is "not implemented by sdy-dsl yet", naming every
    pass of a pipeline that sdy-dsl lacks; any other name is unknown.
    """
    from .rule_library import builtin_library
    if not registry.library.includes_builtin and name in builtin_library().pass_files:
        return _error_at(where, f"pass '{name}' is built in, and --only-rules leaves the built-in passes out "
                                f"(--rules DIR loads yours over them)")
    nesting = mlir_pass_nesting(name)
    if nesting is None:
        return _error_at(where, f"unknown pass '{name}'{did_you_mean(name, runnable_names(registry))} "
                                f"(see 'sdy-dsl passes')")
    text = f"builtin.module({name})" if nesting == "builtin.module" else f"builtin.module(func.func({name}))"
    expanded = _pass_names_in(str(parse_mlir_pipeline(text)))
    missing = list(dict.fromkeys(n for n in expanded if n.startswith(("sdy-", "mpmd-"))
                                 and not registry.has(n)))
    if missing == [name] or not missing:
        return _error_at(where, f"not implemented by sdy-dsl yet: {name}")
    return _error_at(where, f"not implemented by sdy-dsl yet: {name} needs {', '.join(missing)}")


def runnable_names(registry: PassRegistry) -> list[str]:
    """The passes and the shipped pipelines: what a misspelled pass or pipeline is matched against."""
    return list(registry.names()) + pipeline_files.pipeline_names()


def _error_at(where, message: str) -> SdyDslError:
    if where is not None:
        return RuleFileError(where.path, where.line, where.col, message)
    return UsageError(message)


# --------------------------------------------------------------------------- running


class PipelineRunner:
    def __init__(self, registry: PassRegistry, pipeline: Pipeline, observer: Observer | None = None,
                 dump_dir: Path | None = None, progress: bool = False, timing: bool = False,
                 print_before_all: bool = False, print_after_all: bool = False, debuginfo: bool = False,
                 print_after_change: bool = False, asm_options: dict | None = None,
                 verify_each: bool = False, plan: list | None = None):
        """PLAN: the `plan` of an earlier runner of this registry and pipeline
        (the CLI validates the pipeline before reading its input, then runs it
        on each chunk): validated once, not again."""
        self.registry = registry
        # Verify after every pass (mlir-opt's default), or once after the last:
        # MLIR's verifier is most of the C++ pipeline's own time on large modules,
        # and the output is verified either way.
        self.verify_each = verify_each
        # --mlir-print-ir-after-change; MLIR printer flags (print_generic_op_form, large_elements_limit)
        self.print_after_change, self.asm_options = print_after_change, dict(asm_options or {})
        self.print_before_all, self.print_after_all, self.debuginfo = print_before_all, print_after_all, debuginfo
        self.observer = observer or Observer()
        self.dump_dir = Path(dump_dir) if dump_dir else None
        self.progress, self.timing = progress, timing
        self.plan = self._plan(pipeline) if plan is None else plan
        self.timings: list[tuple[str, float]] = []
        self._verified = False  # whether the module is known to verify as it is now

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
                        raise self._step_error(step, f"pass '{step.name}' has no option '{key}'"
                                                     f"{did_you_mean(key, passdef.options)} (options: {known})")
                    try:
                        options[key] = decl.check_value(value) if step.typed else decl.parse(value)
                    except ValueError as e:
                        raise self._step_error(step, str(e)) from None
                plan.append(("rules", step, passdef, options))
            elif step.name == "canonicalize" and "enable-patterns" in step.options:
                if step.pipeline is not None and self._lacks_patterns(step):
                    raise self._missing_in_pipeline(step.pipeline, pipeline)
                plan.extend(self._plan_canonicalize_patterns(step))
            elif step.name.startswith(("sdy-", "mpmd-")):
                if step.pipeline is not None:
                    raise self._missing_in_pipeline(step.pipeline, pipeline)
                raise not_implemented_error(step.name, self.registry, step.loc)
            elif step.name not in GENERIC_MLIR_PASSES:
                # Only MLIR's generic passes run through its PassManager: any
                # other name there could run jaxlib's C++ passes.
                raise self._step_error(step, f"unknown pass '{step.name}' (see 'sdy-dsl passes'; MLIR passes "
                                             f"allowed: {', '.join(GENERIC_MLIR_PASSES)})")
            else:
                plan.append(self._plan_mlir(step))
        return plan

    def unused_tuning(self) -> list[str]:
        """What the user's rules directories tune that this run never reads (PassRegistry.unused_tuning)."""
        return self.registry.unused_tuning([what for kind, _, what, _ in self.plan if kind == "rules"])

    def _plan_mlir(self, step: Step, raw: dict | None = None):
        """MLIR's own pass STEP (options RAW: already MLIR text, braces allowed)."""
        for k, v in step.options.items():
            if not PASS_NAME.match(str(k)) or re.search(r"[(){}'\",]", _mlir_option(v)):
                raise self._step_error(step, f"invalid option '{k}' of pass '{step.name}'")
        text = step.name
        options = [f"{k}={_mlir_option(v) if step.typed else v}" for k, v in step.options.items()]
        options += [f"{k}={v}" for k, v in (raw or {}).items()]
        if options:
            text += "{" + " ".join(options) + "}"
        if step.nested_in:
            text = f"{step.nested_in}({text})"
        if parse_mlir_pipeline(f"builtin.module({text})") is None:
            raise self._step_error(step, f"unknown pass or bad options: '{step.name}'")
        return ("mlir", step, text, None)

    def _plan_canonicalize_patterns(self, step: Step) -> list:
        """`canonicalize{enable-patterns={L,...}}`: the rule pass `canonicalize-L`
        of each sdy label L (the sdy patterns as rules), then MLIR's canonicalize
        (folding, dead code, region simplification) with only the other labels,
        so that none of jaxlib's C++ sdy patterns runs. That MLIR canonicalize
        also runs first: MLIR's greedy driver hoists every constant to the front
        of its block (reversing the order of non-adjacent ones) before it erases
        any dead op, and the rule pass's own greedy driver erases dead ops."""
        value = step.options["enable-patterns"]
        labels = [str(v).strip() for v in value] if isinstance(value, (list, tuple)) else \
            [v.strip() for v in str(value).strip("{}").split(",") if v.strip()]
        plan, others = [], []
        for label in labels:
            name = f"canonicalize-{label}"
            if self.registry.has(name):
                passdef = self.registry.get(name)
                plan.append(("rules", Step(name, {}, step.nested_in, step.loc), passdef,
                             passdef.default_options()))
            elif label.startswith(("sdy-", "mpmd-")):
                raise self._step_error(step, f"not implemented by sdy-dsl yet: canonicalization patterns '{label}'")
            else:
                others.append(label)
        # A label no pattern has: MLIR then applies none of its patterns.
        rest = Step(step.name, {k: v for k, v in step.options.items() if k != "enable-patterns"},
                    step.nested_in, step.loc, step.typed)
        mlir = self._plan_mlir(rest, {"enable-patterns": "{" + (",".join(others) or "sdy-dsl-none") + "}"})
        return [mlir, *plan, mlir] if plan else [mlir]

    def _missing_in_pipeline(self, name: str, pipeline: Pipeline) -> SdyDslError:
        """A named pipeline some of whose passes sdy-dsl lacks: all of them, in order. A name
        no Shardy pass has (a typo in an edited pipeline file) is an unknown pass, at its line."""
        for s in pipeline.steps:
            if (s.pipeline == name and s.name.startswith(("sdy-", "mpmd-")) and not self.registry.has(s.name)
                    and mlir_pass_nesting(s.name) is None):
                return not_implemented_error(s.name, self.registry, s.loc)
        missing = dict.fromkeys(
            f"{s.name}{{enable-patterns={shardy_patterns_of(s)}}}" if shardy_patterns_of(s) else s.name
            for s in pipeline.steps if s.pipeline == name
            and (self._lacks_patterns(s) if shardy_patterns_of(s)
                 else s.name.startswith(("sdy-", "mpmd-")) and not self.registry.has(s.name)))
        return UsageError(f"not implemented by sdy-dsl yet: {name} needs {', '.join(missing)}")

    def _lacks_patterns(self, step: Step) -> bool:
        """Some Shardy pattern label of a canonicalize step has no rule pass `canonicalize-LABEL`."""
        labels = (shardy_patterns_of(step) or "").split(",")
        return any(label and not self.registry.has(f"canonicalize-{label}") for label in labels)

    @staticmethod
    def _step_error(step: Step, message: str):
        return _error_at(step.loc, message)

    def run(self, module: ir.Module, verified: bool = False) -> None:
        """Run the plan on MODULE; VERIFIED: MODULE is known to verify (e.g. it
        was just parsed), so a first pass that changes nothing need not verify it."""
        module_op = module.operation
        self._verified = verified
        total = len(self.plan)
        for i, (kind, step, what, options) in enumerate(self.plan):
            t0 = time.perf_counter()
            if self.progress:
                print(f"[{i + 1}/{total}] {step.name} ...", file=sys.stderr, flush=True)
            if self.print_before_all:
                self._print_ir("Before", step.name, module)
            before = self.module_text(module) if self.print_after_change else None
            if kind == "mlir":
                if step.name in ("inline", "canonicalize"):
                    check_manual_computations_canonicalizable(module_op)
                pm = passmanager.PassManager.parse(f"builtin.module({what})")
                pm.enable_verifier(self.verify_each)
                self._verified = False  # until the pass is done
                try:
                    pm.run(module_op)
                except ir.MLIRError as e:
                    # Its diagnostics (located in the input) are reported by the caller.
                    raise MlirPassFailure(step.name, e) from None
                self._verified = self.verify_each  # MLIR's pass manager verified the result
            else:
                self._run_rule_pass(what, options, module_op)
            codec.clear_if_large()
            dt = time.perf_counter() - t0
            self.timings.append((step.name, dt))
            self.observer.pass_seconds[step.name] = self.observer.pass_seconds.get(step.name, 0.0) + dt
            if self.print_after_all or (before is not None and self.module_text(module) != before):
                self._print_ir("After", step.name, module)
            if self.dump_dir is not None:
                path = self.dump_dir / f"{i + 1:02d}_{step.name}.mlir"
                try:
                    self.dump_dir.mkdir(parents=True, exist_ok=True)
                    path.write_text(self.module_text(module))
                except OSError as e:
                    raise SdyDslError(f"--dump-dir: cannot write '{path}': {e.strerror}") from None
        if not self._verified and self.plan:
            verify_or_raise(module_op, self.plan[-1][1].name, after_last_pass=True)
            self._verified = True

    def module_text(self, module: ir.Module) -> str:
        """The module as text, with locations when --mlir-print-debuginfo asked for them
        (MLIR's printer verifies the module first unless it is known to verify)."""
        return module.operation.get_asm(enable_debug_info=self.debuginfo, assume_verified=self._verified,
                                        **self.asm_options)

    def _print_ir(self, when: str, pass_name: str, module: ir.Module) -> None:
        # mlir-opt's --mlir-print-ir-before-all / --mlir-print-ir-after-all banner.
        print(f"// -----// IR Dump {when} {pass_name} //----- //\n{self.module_text(module)}",
              file=sys.stderr, flush=True)

    def _run_rule_pass(self, passdef, options, module_op):
        verified_before, self._verified = self._verified, False  # until the pass is done
        runner = PassRunner(passdef, options, self.observer, self.registry.library)
        if passdef.anchor == "func.func":
            for op in list(module_op.regions[0].blocks[0].operations):
                op = operation(op)
                if op.name == "func.func":
                    runner.run(op)
        else:
            runner.run(module_op)
        # A pass that changed nothing leaves a module known to verify as it was.
        if not runner.modified and verified_before:
            self._verified = True
        elif self.verify_each:
            verify_or_raise(module_op, passdef.name)
            self._verified = True


def shardy_patterns_of(step: Step) -> str | None:
    """The Shardy pattern labels (`sdy-collective`) a `canonicalize` step enables, or None.
    MLIR's canonicalizer would run jaxlib's C++ Shardy patterns for them: such a
    step is not run through MLIR."""
    if step.name != "canonicalize":
        return None
    labels = [p for p in re.split(r"[{},\s]+", _mlir_option(step.options.get("enable-patterns", ""))) if p]
    return ",".join(labels) if any(p.startswith(("sdy-", "mpmd-")) for p in labels) else None


def check_manual_computations_canonicalizable(module_op) -> None:
    """jaxlib's canonicalization of sdy.manual_computation (run by `inline`
    and `canonicalize`) aborts the whole process when a manual axis is not in
    the mesh its in/out shardings share once unused inputs are dropped (the
    first non-empty mesh among them, else an empty one). Such a module is
    reported as an error at the op instead, before jaxlib is called."""
    from .diagnostics import PassFailure
    from .runtime.values import MeshTable, ops_named
    manual_computations = ops_named(module_op, ["sdy.manual_computation"], pre_order=False)
    if not manual_computations:
        return
    meshes = MeshTable(module_op)
    problems = []

    def visit(op):
        if "manual_axes" not in op.attributes:
            return
        axes = codec.manual_axes(op.attributes["manual_axes"]).axes
        args = op.regions[0].blocks[0].arguments if op.regions and op.regions[0].blocks else []
        ins = codec.sharding_per_value(op.attributes["in_shardings"]) if "in_shardings" in op.attributes else ()
        outs = codec.sharding_per_value(op.attributes["out_shardings"]) if "out_shardings" in op.attributes else ()
        kept = [s for s, a in zip(ins, args) if next(iter(a.uses), None) is not None] + list(outs)
        common = None
        for s in kept:
            if s.mesh_name is not None and s.mesh_name not in meshes.meshes:
                return  # the verifier reports an unknown mesh
            mesh = meshes.mesh_of(s)
            if common is None or not common.axes:
                common = mesh
        missing = [a for a in axes if common is not None and not common.has_axis(a)]
        if missing:
            problems.append((op, missing[0]))

    for op in manual_computations:
        visit(op)
    for op, axis in problems:
        op.location.emit_error(f"manual axis '{axis}' is not in the mesh that the in/out shardings of this "
                               f"sdy.manual_computation share; MLIR's inliner/canonicalizer in jaxlib "
                               f"would abort the process on it")
    if problems:
        raise PassFailure("sdy.manual_computation with a manual axis outside its mesh")


def verify_or_raise(module_op, pass_name: str, after_last_pass: bool = False) -> None:
    """Verify the IR after PASS_NAME; AFTER_LAST_PASS: the passes were not verified one by one."""
    try:
        module_op.verify()
    except ir.MLIRError as e:
        raise (PipelineVerificationError if after_last_pass else PassVerificationError)(pass_name, e) from None


class PassVerificationError(SdyDslError):
    def __init__(self, pass_name: str, error: ir.MLIRError):
        super().__init__(f"pass '{pass_name}' produced invalid IR: {error}")
        self.mlir_error = error
        self.hint = f"pass '{pass_name}' produced this invalid IR"


class PipelineVerificationError(PassVerificationError):
    """The module does not verify after the last pass (passes were not verified one by one)."""
    def __init__(self, last_pass: str, error: ir.MLIRError):
        self.hint = (f"the module does not verify after the last pass ('{last_pass}'); "
                     f"-verify-each finds the pass that broke it")
        SdyDslError.__init__(self, f"{self.hint}: {error}")
        self.mlir_error = error


class MlirPassFailure(PassVerificationError):
    def __init__(self, pass_name: str, error: ir.MLIRError):
        SdyDslError.__init__(self, f"pass '{pass_name}' failed: {error}")
        self.mlir_error = error
        self.hint = None  # MLIR's own diagnostics say it


def _mlir_option(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
