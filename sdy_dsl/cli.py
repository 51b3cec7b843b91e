"""The `sdy-dsl` command: `opt` (a drop-in for sdy_opt/mpmd_opt), `run`, `passes`.

Every failure is one line `where: error: message` on stderr and exit code 1;
`-o OUT` is written atomically, and only when everything succeeded.
"""
from __future__ import annotations

import gc
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .errors import SdyDslError, UsageError, did_you_mean
from .resources import DEFAULT_PIPELINE

# The cyclic garbage collector's default gen-0 threshold (700 allocations) makes it
# scan again and again the many small objects a run keeps until it ends (parsed
# shardings, rules, memoized steps): ~10% of the time on a 30,000-op module. A
# process of the CLI collects rarely instead (a run's garbage is freed by reference
# counting: peak memory on a 30,000-op module is the same without collections);
# the Python API (sdy_dsl.api, which does not import this module) leaves the host's
# setting. Set as the CLI loads, before the imports below: jaxlib, numpy and the
# rules' machinery allocate objects that live as long as the process, which the
# default thresholds scan again and again meanwhile (~2% of an empty module's run).
GC_THRESHOLDS = (1_000_000, 1000, 1000)
gc.set_threshold(*GC_THRESHOLDS)
# The CLI does no linear algebra, but numpy (which jaxlib loads) starts OpenBLAS's
# worker threads, which spin for a while: ~0.1 s of CPU on an empty module's run.
# Before numpy loads; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

try:  # an error while loading the built-in rules goes through main()'s one-line path
    from . import diagnostics
    from .interp import driver as driver_mod
    from .interp.driver import Observer
    from .mlir_context import MLIR_BYTECODE_MAGIC, make_context
    from .passes import GENERIC_MLIR_PASSES, PassRegistry
    from .api import run_source
    from .pipeline import (Pipeline, PipelineRunner, Step, load_pipeline_file, not_implemented_error,
                           parse_pipeline_string, resolve_pipeline_file)
    _STARTUP_ERROR: SdyDslError | None = None
except SdyDslError as _e:
    _STARTUP_ERROR = _e

USAGE = """usage:
  sdy-dsl opt INPUT.mlir [-o OUT] [-PASS[='k=v ...']]... [--pass-pipeline='builtin.module(...)'] [OPTIONS]
  sdy-dsl run PIPELINE INPUT.mlir [-o OUT] [OPTIONS]     PIPELINE: a pipeline YAML file or a shipped name
  sdy-dsl explain INPUT.mlir VALUE [--pipeline PIPELINE] [--report OUT.html] [OPTIONS]
  sdy-dsl passes [NAME] [--rules DIR] [--json]
  sdy-dsl pipelines
  sdy-dsl cost INPUT.mlir [INPUT2.mlir] [--pipeline P|none] [--rules DIR] [--options 'PASS{k=v}'] [--a-*/--b-* ...] [--xla] [--json]
  sdy-dsl builders [--rules DIR] [--json]
  sdy-dsl search MODEL.mlir SPACE.yaml [--jobs N] [-o DIR] [--json] [--verify K]
  sdy-dsl diff A.mlir B.mlir [--report OUT.html]
  sdy-dsl --version | --help"""

COMMANDS = ("opt", "run", "explain", "diff", "passes", "pipelines", "builders")
SPLIT_RE = re.compile(r"^// -----.*$", re.M)


@dataclass
class Args:
    command: str = ""
    input: str | None = None
    pipeline_file: str | None = None
    output: str = "-"
    split: bool = False
    verify: bool = False
    unregistered: bool = False
    pass_flags: list = field(default_factory=list)
    pipeline: str | None = None
    rule_dirs: list = field(default_factory=list)
    only_rule_dirs: list = field(default_factory=list)
    trace: bool = False
    trace_json: bool = False
    rule_stats: bool = False
    timing: bool = False
    explain: set = field(default_factory=set)
    disabled: set = field(default_factory=set)
    enabled: set | None = None
    dump_dir: str | None = None
    progress: bool = False
    json: bool = False
    debuginfo: bool = False
    print_after_all: bool = False
    print_before_all: bool = False
    pass_name: str | None = None  # passes NAME
    value: str | None = None  # explain VALUE
    report: str | None = None  # explain --report
    debug_sharding: bool = False
    trace_file: str | None = None
    trace_filter: str | None = None
    print_generic: bool = False
    elide_limit: str | None = None
    print_after_change: bool = False
    verify_each: bool = False
    rule_stats_sort: str | None = None


@dataclass(frozen=True)
class Flag:
    name: str
    attr: str | None  # None: accepted for sdy_opt compatibility, nothing to do
    takes_value: bool
    commands: tuple[str, ...]
    help: str
    metavar: str = ""
    repeat: bool = False  # a value flag given several times collects every value


_OBSERVE = ("opt", "run")
# Every flag, the sub-commands it does something in, and what it does: the
# parser and --help both read this table.
FLAGS = [
    Flag("o", "output", True, _OBSERVE, "write the output module to FILE (atomically, only on success; "
         "default: stdout)", "FILE"),
    Flag("pass-pipeline", "pipeline", True, ("opt",), "an MLIR pass pipeline, e.g. "
         "'builtin.module(inline,func.func(sdy-sharding-constraint-to-reshard))'", "PIPELINE"),
    Flag("pipeline", "pipeline_file", True, ("explain",), "the pipeline explain runs (a YAML file or a "
         f"shipped name; default: {DEFAULT_PIPELINE}, what XLA runs; shardy_full: the seed chain, which "
         "treats calls as opaque)", "PIPELINE"),
    Flag("report", "report", True, ("explain", "diff"), "also write an HTML report of every value's sharding, "
         "where it came from and where it is communicated (diff: both shardings)", "OUT.html"),
    Flag("split-input-file", "split", False, _OBSERVE, "split the input at '// -----' lines and "
         "process each chunk on its own"),
    Flag("verify-diagnostics", "verify", False, ("opt",), "check the diagnostics against the "
         "'// expected-error' (warning, note, remark) comments of the input"),
    Flag("allow-unregistered-dialect", "unregistered", False, _OBSERVE, "accept ops of unregistered dialects"),
    Flag("rules", "rule_dirs", True, _OBSERVE + ("explain", "passes", "builders"), "load rule files (and data files such as "
         "op_sharding_rules.yaml) from DIR over the built-in ones", "DIR", True),
    Flag("only-rules", "only_rule_dirs", True, _OBSERVE + ("passes",), "load rule files from DIR only, "
         "without the built-in ones", "DIR", True),
    Flag("trace", "trace", False, _OBSERVE, "print which rule fired on which op, in order (stderr)"),
    Flag("trace-json", "trace_json", False, _OBSERVE, "the trace as JSON lines"),
    Flag("trace-file", "trace_file", True, _OBSERVE, "write the trace to FILE instead of stderr "
         "(implies --trace)", "FILE"),
    Flag("trace-filter", "trace_filter", True, _OBSERVE, "trace only the lines that contain TEXT "
         "(a value such as %12, an op name, a location, a pass)", "TEXT"),
    Flag("rule-stats", "rule_stats", False, _OBSERVE, "print attempts, matches, fires, no-op rewrites and "
         "time per rule"),
    Flag("rule-stats-sort", "rule_stats_sort", True, _OBSERVE, "sort the --rule-stats rows by COLUMN, largest first "
         "(attempts, matches, fired, no-op, ms; default: by rule)", "COLUMN"),
    Flag("timing", "timing", False, _OBSERVE + ("explain",), "print the time of parsing, of each pass, of "
         "printing and the total"),
    Flag("mlir-timing", "timing", False, _OBSERVE + ("explain",), "same as --timing"),
    Flag("explain", "explain", True, _OBSERVE, "for each op where RULE did not fire, print the first "
         "constraint that failed", "RULE", True),
    Flag("disable-rule", "disabled", True, _OBSERVE, "do not run RULE (ID or PASS/ID)", "RULE", True),
    Flag("enable-rule", "enabled", True, _OBSERVE, "run only the rules given by --enable-rule", "RULE", True),
    Flag("dump-dir", "dump_dir", True, _OBSERVE, "write the module after each pass to DIR "
         "(one sub-directory per chunk with --split-input-file)", "DIR"),
    Flag("mlir-print-ir-after-all", "print_after_all", False, _OBSERVE, "print the module after each "
         "pass (stderr)"),
    Flag("mlir-print-ir-before-all", "print_before_all", False, _OBSERVE, "print the module before "
         "each pass (stderr)"),
    Flag("mlir-print-debuginfo", "debuginfo", False, _OBSERVE, "print locations (loc(...)) in the "
         "output and the dumps"),
    Flag("mlir-print-op-generic", "print_generic", False, _OBSERVE, "print the output (and dumps) in "
         "MLIR's generic op form"),
    Flag("mlir-elide-elementsattrs-if-larger", "elide_limit", True, _OBSERVE, "print elements attributes "
         "with more than N elements as dense_resource<__elided__>", "N"),
    Flag("mlir-print-ir-after-change", "print_after_change", False, _OBSERVE, "print the module after each "
         "pass that changed it (stderr)"),
    Flag("verify-each", "verify_each", False, _OBSERVE, "verify the module after every pass, to find the pass "
         "that breaks it (default: once, after the last pass)"),
    Flag("mlir-disable-threading", None, False, _OBSERVE, "no effect here: sdy-dsl runs its passes on one thread"),
    Flag("debug-sharding", "debug_sharding", False, _OBSERVE, "turn on the reference's debug options "
         "(debug-sharding-origins, debug-propagation-edge-sharding, sink-debug-*) in every pass that has them"),
    Flag("progress", "progress", False, _OBSERVE + ("explain",), "print each pass as it starts and, inside propagation, "
         "its progress every half second (stderr)"),
    Flag("json", "json", False, ("passes", "builders") + _OBSERVE, "list the passes (builders) as JSON; "
         "with --rule-stats, the statistics as JSON (stderr)"),
]
FLAG_BY_NAME = {f.name: f for f in FLAGS}

# MLIR's own options that mean nothing here, and why (any other --mlir-* is refused too).
REFUSED_MLIR_FLAGS = {
    "mlir-pass-statistics": "rule passes have no MLIR pass statistics; --rule-stats counts each rule",
    "mlir-print-ir-module-scope": "sdy-dsl always prints the whole module",
    "mlir-print-ir-before": "sdy-dsl prints around every pass only (--mlir-print-ir-before-all)",
    "mlir-print-ir-after": "sdy-dsl prints around every pass only (--mlir-print-ir-after-all)",
    "mlir-print-local-scope": "sdy-dsl prints whole modules, never a local scope",
    "mlir-enable-debugger-hook": "sdy-dsl is not a debuggable MLIR pass manager",
    "mlir-print-stacktrace-on-diagnostic": "diagnostics come from rules; --explain and --trace show why",
}

SUBCOMMAND_HELP = {
    "opt": "run passes given as flags (-PASS, -PASS='opt=v ...') or --pass-pipeline, like sdy_opt; "
           "generic MLIR passes (-inline, -symbol-dce, -canonicalize, -cse, ...) work too",
    "run": "run a pipeline file, or a shipped pipeline by name (e.g. 'sdy_propagation_pipeline', what XLA "
           "runs; 'sdy-dsl pipelines' lists them)",
    "explain": f"run a pipeline (default {DEFAULT_PIPELINE}) with the debug options and print where "
               "VALUE's sharding came from, through calls; VALUE: %name, FUNC:arg N, FUNC:result N, "
               "FILE:LINE:COL, or a JAX name (result_info, arg loc)",
    "diff": "print each value whose sharding differs between two output modules (two runs, e.g. tuned "
            "and untuned), values paired by op and position in their function (an op only one side has "
            "is listed as inserted or removed); --report writes them as a page",
    "passes": "list the passes (or show one, or a shipped pipeline: description and options)",
    "pipelines": "list the shipped pipelines, a line each ('sdy-dsl passes NAME' shows one's passes)",
    "cost": "the collectives a module's sharding needs, per function (two inputs or two tunings side by "
            "side; --xla: beside XLA's compiled program; default pipeline sdy-propagation-pipeline)",
    "search": "try a space of tunings (options, params, rules, priorities) and rank them by their cost; "
              "-o DIR writes the best as a pipeline file (sdy-dsl search --help)",
    "builders": "list the sharding-rule builders of op_sharding_rules.yaml: arguments, factor roles, ops",
}


def _flag_lines(flags) -> list[str]:
    lines = []
    for f in flags:
        spelling = f"--{f.name}" if len(f.name) > 1 else f"-{f.name}"
        if f.takes_value:
            spelling += f" {f.metavar}"
        lines.append(f"  {spelling:{max(34, len(spelling) + 1)}} {f.help} [{', '.join(f.commands)}]")
    return lines


def help_text(command: str | None = None) -> str:
    """The global help, or COMMAND's: its usage, what it does and its options."""
    if command == "cost":  # its options are cost_cli's, described there
        from . import cost_cli
        return "\n".join(["usage:", f"  {cost_cli.USAGE}", "", SUBCOMMAND_HELP[command], "",
                          (cost_cli.__doc__ or "").strip(), "", f"  {'-h, --help':34} print this help"])
    if command is not None:
        usage = [line for line in USAGE.splitlines() if (line.strip() + " ").startswith(f"sdy-dsl {command} ")]
        lines = ["usage:", *usage, "", SUBCOMMAND_HELP[command], "", "options:"]
        lines += _flag_lines(f for f in FLAGS if command in f.commands)
        lines.append(f"  {'-h, --help':34} print this help")
        return "\n".join(lines)
    lines = [f"sdy-dsl {__version__}: Shardy's sharding passes as declarative rule files.", "", USAGE, "",
             "sub-commands ('sdy-dsl COMMAND --help' for one):"]
    lines += [f"  {name:8} {text}" for name, text in SUBCOMMAND_HELP.items()]
    lines += ["", "options:"] + _flag_lines(FLAGS)
    lines.append(f"  {'--version':34} print the version")
    lines.append(f"  {'-h, --help':34} print this help")
    return "\n".join(lines)


def _unknown_option(a: str, name: str, command: str) -> UsageError:
    if name.startswith("mlir-"):
        reason = REFUSED_MLIR_FLAGS.get(name, "no equivalent in sdy-dsl")
        supported = ", ".join(f"--{f.name}" for f in FLAGS if f.name.startswith("mlir-"))
        return UsageError(f"MLIR option '{a}' is not supported by sdy-dsl: {reason} (supported: {supported})")
    hint = did_you_mean(f"--{name}", [f"--{f.name}" for f in FLAGS if command in f.commands])
    return UsageError(f"unknown option '{a}'{hint} (see 'sdy-dsl {command} --help')")


def parse_args(argv: list[str]) -> Args:
    if not argv or argv[0] in ("-h", "--help", "help"):
        topic = argv[1] if len(argv) > 1 and argv[0] == "help" and argv[1] in SUBCOMMAND_HELP else None
        print(help_text(topic))
        raise SystemExit(0)
    if argv[0] in ("--version", "-version"):
        print(f"sdy-dsl {__version__}")
        raise SystemExit(0)
    args = Args(command=argv[0])
    if args.command not in COMMANDS:
        raise UsageError(f"unknown command '{args.command}'{did_you_mean(args.command, SUBCOMMAND_HELP)} "
                         f"(expected {', '.join(SUBCOMMAND_HELP)})")
    positional = []
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-h", "--help", "-help"):
            print(help_text(args.command))
            raise SystemExit(0)
        if a in ("--version", "-version"):
            print(f"sdy-dsl {__version__}")
            raise SystemExit(0)
        if not a.startswith("-") or a == "-":
            positional.append(a)
            continue
        name, eq, value = a.lstrip("-").partition("=")
        flag = FLAG_BY_NAME.get(name)
        if flag is None and name == "mlir-diagnostic-verbosity-level" and args.command == "opt":
            if not eq:
                i += 1
            continue  # accepted for sdy_opt compatibility
        if flag is None:
            if args.command == "opt" and not name.startswith("mlir-"):
                # A pass flag: -PASS or -PASS='k=v k2=v2' (validated against the registry later).
                args.pass_flags.append((name, value if eq else None, a))
                continue
            raise _unknown_option(a, name, args.command)
        if args.command not in flag.commands:
            raise UsageError(f"option '{a}' does nothing in '{args.command}' "
                             f"(it is an option of: {', '.join(flag.commands)})")
        if flag.takes_value:
            if not eq:
                if i >= len(argv):
                    raise UsageError(f"option '{a}' needs a value")
                value, i = argv[i], i + 1
            current = getattr(args, flag.attr)
            if not flag.repeat:
                setattr(args, flag.attr, value)
            elif isinstance(current, list):
                current.append(value)
            else:
                setattr(args, flag.attr, (current or set()) | {value})
        elif flag.attr is not None:
            setattr(args, flag.attr, value not in ("false", "0"))
        elif value in ("false", "0"):
            reason = flag.help.split(": ", 1)[-1]
            raise UsageError(f"option '{a}': {reason} (it cannot be turned off)")
    _check_flag_values(args)
    if args.command == "opt":
        if len(positional) > 1:
            raise UsageError(f"unexpected argument '{positional[1]}'")
        args.input = positional[0] if positional else "-"
        if args.pipeline and args.pass_flags:
            raise UsageError("--pass-pipeline cannot be combined with pass flags")
    elif args.command == "run":
        if len(positional) != 2:
            raise UsageError("run takes PIPELINE INPUT.mlir (PIPELINE: a pipeline file or a shipped name)")
        args.pipeline_file, args.input = positional
    elif args.command == "explain":
        if len(positional) != 2:
            raise UsageError("explain takes INPUT.mlir VALUE")
        args.input, args.value = positional
    elif args.command == "diff":
        if len(positional) != 2:
            raise UsageError("diff takes A.mlir B.mlir (two output modules)")
        args.input, args.value = positional
    elif len(positional) > (1 if args.command == "passes" else 0):
        raise UsageError(f"unexpected argument '{positional[-1]}'")
    elif positional:
        args.pass_name = positional[0]
    return args


STATS_COLUMNS = {"attempts": "attempts", "matches": "matches", "fired": "fired", "no-op": "noop",
                 "ms": "seconds", "rule": None}


def _check_flag_values(args: Args) -> None:
    if args.elide_limit is not None and not args.elide_limit.isdigit():
        raise UsageError(f"--mlir-elide-elementsattrs-if-larger expects a number of elements, got '{args.elide_limit}'")
    if args.rule_stats_sort is not None:
        if args.rule_stats_sort not in STATS_COLUMNS:
            raise UsageError(f"--rule-stats-sort: no column '{args.rule_stats_sort}'"
                             f"{did_you_mean(args.rule_stats_sort, STATS_COLUMNS)} "
                             f"(columns: {', '.join(STATS_COLUMNS)})")
        if not args.rule_stats:
            raise UsageError("--rule-stats-sort sorts --rule-stats, which is not given")
    if args.json and args.command in _OBSERVE and not args.rule_stats:
        raise UsageError(f"--json in '{args.command}' writes --rule-stats as JSON, which is not given")


def asm_options(args: Args) -> dict:
    """MLIR printer options from --mlir-print-op-generic / --mlir-elide-elementsattrs-if-larger."""
    options = {}
    if args.print_generic:
        options["print_generic_op_form"] = True
    if args.elide_limit is not None:
        options["large_elements_limit"] = int(args.elide_limit)
    return options


def build_pipeline(args: Args, registry: PassRegistry) -> Pipeline:
    if args.command in ("run", "explain"):
        return load_pipeline_file(resolve_pipeline_file(args.pipeline_file or DEFAULT_PIPELINE))
    if args.pipeline is not None:
        text = args.pipeline.strip()
        return parse_pipeline_string(text)
    steps = []
    from .pipeline import check_pass_name, expand_step, mlir_pass_nesting, parse_option_string, runnable_names
    from .pipeline_files import is_named_pipeline
    for name, value, flag in args.pass_flags:
        try:
            name = check_pass_name(name)
        except ValueError as e:
            raise UsageError(f"invalid option or pass '{flag}': {e}") from None
        if registry.has(name) or is_named_pipeline(name):
            nesting = None
        elif name.startswith(("sdy-", "mpmd-")):
            raise not_implemented_error(name, registry)
        else:
            nesting = mlir_pass_nesting(name) if name in GENERIC_MLIR_PASSES else None
            if nesting is None:
                hint = did_you_mean(name, runnable_names(registry) + list(GENERIC_MLIR_PASSES)
                                    + [f.name for f in FLAGS if "opt" in f.commands])
                raise UsageError(f"unknown option or pass '{flag}'{hint} (see 'sdy-dsl opt --help' and "
                                 f"'sdy-dsl passes'; MLIR passes allowed: {', '.join(GENERIC_MLIR_PASSES)})")
        options = parse_option_string(value) if value else {}
        steps.extend(expand_step(Step(name, options, "func.func" if nesting == "func.func" else None)))
    return Pipeline(steps)


def read_input(path: str) -> tuple[str, str | bytes]:
    """(display name, text), or the bytes of an MLIR bytecode file."""
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise SdyDslError(f"cannot open input file '{path}': No such file or directory") from None
        except IsADirectoryError:
            raise SdyDslError(f"cannot open input file '{path}': Is a directory") from None
        except OSError as e:
            raise SdyDslError(f"cannot open input file '{path}': {e.strerror}") from None
        name = path
    if data.startswith(MLIR_BYTECODE_MAGIC):
        return name, data
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise SdyDslError("input is not UTF-8 text", name, line, 1) from None


def chunks_of(source: str | bytes, split: bool):
    if not split or isinstance(source, bytes):
        yield source, 1
        return
    start = 0
    for m in SPLIT_RE.finditer(source):
        yield source[start:m.start()], source.count("\n", 0, start) + 1
        start = m.end() + 1
    yield source[start:], source.count("\n", 0, start) + 1


def process_chunk(text: str | bytes, first_line: int, fname: str, args: Args, registry, pipeline, observer,
                  dump_dir: str | None = None, seconds: dict | None = None, context=None, plan=None):
    """Returns (ok, output_or_None, messages); adds parse and print times to SECONDS.
    CONTEXT: where to parse it (default: a fresh context); PLAN: the pipeline as
    validated already (PipelineRunner.plan; default: validated again)."""
    padded = text if isinstance(text, bytes) else "\n" * (first_line - 1) + text
    output, diags = run_source(padded, registry, pipeline, observer, unregistered=args.unregistered,
                               seconds=seconds, context=context, dump_dir=dump_dir, progress=args.progress,
                               timing=args.timing, print_before_all=args.print_before_all,
                               print_after_all=args.print_after_all, debuginfo=args.debuginfo,
                               print_after_change=args.print_after_change, asm_options=asm_options(args),
                               verify_each=args.verify_each, plan=plan)
    ok = output is not None
    if not args.verify:
        # Notes that only dump the failing op span many lines; the error says enough.
        shown = [d for d in diags if not diagnostics.is_op_dump_note(*d)]
        return ok, output, [diagnostics.format(fname, *d) for d in shown]
    errors = diagnostics.verify(diags, text, first_line, fname)
    return not errors, output, errors


def check_output_path(path: str) -> None:
    """Refuse an output path that cannot be written, before any work."""
    def fail(why: str):
        raise SdyDslError(f"cannot write output file '{path}': {why}")
    if path == "":
        fail("empty file name")
    if "\x00" in path:
        fail("file name contains a NUL byte")
    target = Path(os.path.realpath(path))  # a symlink is written through
    try:
        name_max = os.pathconf(target.parent if target.parent.is_dir() else ".", "PC_NAME_MAX")
    except OSError:
        name_max = 255
    if len(os.fsencode(target.name)) > name_max:
        fail(f"file name longer than {name_max} bytes")
    if target.is_dir():
        fail("is a directory")
    if target.exists():
        if not os.access(target, os.W_OK):
            fail("permission denied")
        return
    if not target.parent.is_dir():
        fail(f"directory '{target.parent}' does not exist")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        fail(f"directory '{target.parent}' is not writable")


def write_atomically(path: str, text: str) -> None:
    try:
        _write_atomically(path, text)
    except OSError as e:
        raise SdyDslError(f"cannot write output file '{path}': {e.strerror or e}") from None


def _write_atomically(path: str, text: str) -> None:
    from .output_file import write_file_atomically
    write_file_atomically(path, text)


def cmd_passes(args: Args, registry: PassRegistry) -> int:
    import json  # (imported where JSON is written: not on a run's path)

    from .interp.param_types import type_text
    rows = []
    if args.pass_name is not None and not registry.has(args.pass_name):
        from .pipeline import runnable_names
        from .pipeline_files import describe_named_pipeline, is_shipped_pipeline
        if is_shipped_pipeline(args.pass_name) and not args.json:
            print(describe_named_pipeline(args.pass_name))
            return 0
        if args.pass_name.startswith(("sdy-", "mpmd-")):
            raise not_implemented_error(args.pass_name, registry)
        raise UsageError(f"unknown pass '{args.pass_name}'{did_you_mean(args.pass_name, runnable_names(registry))} "
                         f"(see 'sdy-dsl passes' and 'sdy-dsl pipelines')")
    for name in [args.pass_name] if args.pass_name else registry.names():
        p = registry.get(name)
        rows.append({"name": name, "summary": p.summary, "description": p.description.strip(),
                     "anchor": p.anchor, "file": str(p.path),
                     "options": {o.name: {"type": o.type, "default": o.default, "help": o.help,
                                          **({"values": list(o.values)} if o.values else {})}
                                 for o in p.options.values()},
                     "params": {d.name: {"type": type_text(d.type), "default": p.param_values[d.name], "help": d.help}
                                for d in p.param_decls.values()}})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(f"{row['name']}  ({row['anchor']})\n    {row['summary']}")
        if args.pass_name and row["description"]:
            print("\n".join("    " + line for line in row["description"].splitlines()))
            print(f"    rule file: {row['file']}")
        for oname, o in row["options"].items():
            extra = f" one of {{{', '.join(o['values'])}}}" if o.get("values") else ""
            print(f"    --{oname}: {o['type']}{extra} = {json.dumps(o['default'])}  {o['help']}")
        if args.pass_name and row["params"]:
            print("    params (rule file `params:`; tune in a --rules file that `extends:` the pass):")
            for pname, d in row["params"].items():
                print(f"      {pname}: {d['type']} = {json.dumps(d['default'])}"
                      + (f"\n          {d['help']}" if d["help"] else ""))
    return 0


def cmd_pipelines() -> int:
    """`sdy-dsl pipelines`: each shipped pipeline, a line each."""
    from .pipeline_files import shipped_pipelines
    rows = shipped_pipelines()
    width = max(len(name) for name, _ in rows)
    for name, description in rows:
        print(f"{name:{width}}  {description}")
    return 0


def cmd_diff(args: Args) -> int:
    from .report import diff_report_data, diff_text, render, report_model, write_page
    from .stories import ModuleStories
    from jaxlib.mlir import ir
    models = []
    with make_context(args.unregistered), ir.Location.unknown():
        for path in (args.input, args.value):
            name, source = read_input(path)
            try:
                module = ir.Module.parse(source)
            except ir.MLIRError as e:
                raise SdyDslError(f"cannot parse: {e}", name) from None
            models.append(report_model(ModuleStories(module, name)))
        print(diff_text(models[0], models[1], args.input, args.value))
        if args.report is not None:
            write_page(args.report, render(diff_report_data(models[0], models[1], args.input, args.value)))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    gc.set_threshold(*GC_THRESHOLDS)  # (again: a test may have changed it since the import)
    try:
        return _main(argv)
    except SdyDslError as e:
        print(str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sdy-dsl: error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except RecursionError:
        print("sdy-dsl: error: input nested too deeply", file=sys.stderr)
        return 1
    except SystemExit as e:
        if e.code in (0, None) and _parsing:
            raise  # --help
        print(f"sdy-dsl: error: sys.exit({e.code!r}) was called while running (by a hook?)", file=sys.stderr)
        return 1
    except Exception as e:  # a bug in sdy-dsl: still one line, no traceback unless asked
        if os.environ.get("SDY_DSL_DEBUG"):
            raise
        print(f"sdy-dsl: internal error: {type(e).__name__}: {e} (set SDY_DSL_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return 2


def check_rule_ids(args: Args, passdefs) -> None:
    """A rule id given to --explain / --disable-rule / --enable-rule must name a
    rule of a pass in the pipeline (`ID` or `PASS/ID`): a misspelling would
    silently explain, disable or keep nothing."""
    known = set()
    for passdef in passdefs:
        for rule in passdef.rules:
            known.update((rule.id, f"{passdef.name}/{rule.id}"))
    for flag, ids in (("explain", args.explain), ("disable-rule", args.disabled),
                      ("enable-rule", args.enabled or ())):
        for rule_id in sorted(ids):
            if rule_id not in known:
                hint = did_you_mean(rule_id, known)
                if not hint:
                    hint = f" ({len([k for k in known if '/' in k])} rules; 'sdy-dsl passes PASS' lists a pass's)"
                raise UsageError(f"--{flag}: no rule '{rule_id}' in the pipeline's passes{hint}")


_parsing = False


def _main(argv: list[str]) -> int:
    global _parsing
    _parsing = True
    if argv[:1] == ["cost"]:  # its own small parser and --help (sdy_dsl/cost_cli.py)
        _parsing = False
        from .cost_cli import main as cost_main
        return cost_main(argv[1:])
    if argv[:1] == ["search"]:  # its own small parser and --help (sdy_dsl/search_cli.py)
        _parsing = False
        from .search_cli import main as search_main
        return search_main(argv[1:])
    args = parse_args(argv)
    if _STARTUP_ERROR is not None:
        raise _STARTUP_ERROR
    started = time.perf_counter()
    _parsing = False
    if args.command != "passes" and args.output != "-":
        check_output_path(args.output)
    if args.dump_dir is not None:
        if args.dump_dir == "" or (os.path.exists(args.dump_dir) and not os.path.isdir(args.dump_dir)):
            raise SdyDslError(f"--dump-dir '{args.dump_dir}' is not a directory")
    registry = PassRegistry([Path(d) for d in args.rule_dirs + args.only_rule_dirs],
                            include_builtin=not args.only_rule_dirs)
    if args.command == "passes":
        return cmd_passes(args, registry)
    if args.command == "pipelines":
        return cmd_pipelines()
    if args.command == "diff":
        return cmd_diff(args)
    if args.command == "builders":
        import json

        from .language_reference import builder_rows, builders_text
        print(json.dumps(builder_rows(args.rule_dirs), indent=2) if args.json else builders_text(args.rule_dirs))
        return 0
    pipeline = build_pipeline(args, registry)
    if pipeline.rule_dirs:  # a pipeline file's own `rules:`, under the command line's
        registry = PassRegistry(pipeline.rule_dirs + [Path(d) for d in args.rule_dirs + args.only_rule_dirs],
                                include_builtin=not args.only_rule_dirs)
    if args.debug_sharding:
        from .api import with_options
        from .stories import debug_options
        pipeline = with_options(pipeline, debug_options(pipeline, registry))
    if args.command == "explain":
        from .explaining import explain_source as explain
        with make_context():
            for warning in PipelineRunner(registry, pipeline).unused_tuning():
                print(warning, file=sys.stderr)
        fname, source = read_input(args.input)
        timings: dict[str, float] = {}
        print(explain(source, args.value, pipeline, rules=args.rule_dirs, source_name=fname, report=args.report,
                      progress=args.progress, timings=timings if args.timing else None))
        if args.timing:
            for name, pass_seconds in timings.items():
                print(f"timing: {name}: {pass_seconds * 1000:.1f} ms", file=sys.stderr)
            print(f"timing: total: {(time.perf_counter() - started) * 1000:.1f} ms", file=sys.stderr)
        return 0
    # Validate the pipeline (passes, options) before reading any input. The
    # (first) input is then parsed in this context: one context less to build.
    context = make_context(args.unregistered)
    with context:
        runner = PipelineRunner(registry, pipeline)
    check_rule_ids(args, [what for kind, _, what, _ in runner.plan if kind == "rules"])
    for warning in runner.unused_tuning():
        print(warning, file=sys.stderr)
    fname, source = read_input(args.input)
    driver_mod.SOURCE_NAME = fname
    trace_stream = None
    if args.trace_file is not None:
        try:
            trace_stream = open(args.trace_file, "w")
        except OSError as e:
            raise SdyDslError(f"cannot write trace file '{args.trace_file}': {e.strerror}") from None
    observer = Observer(trace=args.trace or args.trace_json or trace_stream is not None,
                        trace_json=args.trace_json, stream=trace_stream, trace_filter=args.trace_filter,
                        progress=args.progress,
                        collect_stats=args.rule_stats, explain=args.explain, disabled=args.disabled,
                        only_enabled=args.enabled)
    try:
        return _run_chunks(args, registry, pipeline, observer, fname, source, started, context, runner.plan)
    finally:
        if trace_stream is not None:
            trace_stream.close()


def _run_chunks(args: Args, registry, pipeline, observer, fname: str, source, started: float,
                context=None, plan=None) -> int:
    """CONTEXT: a context for the first chunk (each other chunk gets a fresh one);
    PLAN: the pipeline as validated (PipelineRunner.plan), for every chunk."""
    all_ok, outputs, seconds = True, [], {}
    chunks = list(chunks_of(source, args.split))
    for n, (text, first_line) in enumerate(chunks):
        dump_dir = args.dump_dir
        if dump_dir is not None and len(chunks) > 1:
            dump_dir = str(Path(dump_dir) / f"chunk{n + 1:03d}")  # every chunk keeps its dumps
        ok, out, messages = process_chunk(text, first_line, fname, args, registry, pipeline, observer,
                                          dump_dir, seconds, context if n == 0 else None, plan)
        all_ok &= ok
        for m in messages:
            print(m, file=sys.stderr)
        if out is not None:
            outputs.append(out)
    if args.rule_stats:
        print_stats(observer, args.rule_stats_sort, args.json)
    result = "// -----\n".join(outputs)
    if args.timing:
        print(f"timing: parse: {seconds.get('parse', 0.0) * 1000:.1f} ms", file=sys.stderr)
        for name, pass_seconds in observer.pass_seconds.items():
            print(f"timing: {name}: {pass_seconds * 1000:.1f} ms", file=sys.stderr)
        print(f"timing: print: {seconds.get('print', 0.0) * 1000:.1f} ms", file=sys.stderr)
        print(f"timing: total: {(time.perf_counter() - started) * 1000:.1f} ms", file=sys.stderr)
    if not all_ok:
        # Like mlir-opt -split-input-file, the chunks that passed still print
        # on stdout; an output file is only ever written whole.
        if args.split and args.output == "-":
            sys.stdout.write(result)
        return 1
    if args.output == "-":
        sys.stdout.write(result)
    else:
        write_atomically(args.output, result)
    return 0


def print_stats(observer: Observer, sort: str | None = None, as_json: bool = False) -> None:
    """--rule-stats: a row per rule, columns aligned to the longest rule name;
    SORT: a column, largest first; AS_JSON: one JSON list instead."""
    rows = [(f"{pass_name}/{rule_id}", st) for (pass_name, rule_id), st in sorted(observer.stats.items())]
    field_name = STATS_COLUMNS.get(sort or "rule")
    if field_name is not None:
        rows.sort(key=lambda row: -getattr(row[1], field_name))
    out = sys.stderr
    if as_json:
        import json
        print(json.dumps([{"rule": name, "attempts": st.attempts, "matches": st.matches, "fired": st.fired,
                           "noop": st.noop, "ms": round(st.seconds * 1000, 3)} for name, st in rows], indent=1),
              file=out)
        return
    width = max([len("rule")] + [len(name) for name, _ in rows])
    print(f"{'rule':{width}} {'attempts':>9} {'matches':>8} {'fired':>7} {'no-op':>6} {'ms':>9}", file=out)
    for name, st in rows:
        print(f"{name:{width}} {st.attempts:9d} {st.matches:8d} {st.fired:7d} {st.noop:6d} "
              f"{st.seconds * 1000:9.2f}", file=out)


def entry() -> None:
    """The `sdy-dsl` command: `main()`, then exit without tearing the
    interpreter down. Freeing every op, attribute and cache of a large module
    one by one takes ~0.2 s on a 10,000-op module, which the OS reclaims at
    once; by now every file `main` wrote is closed, and the standard streams
    are flushed here."""
    rc = main()
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(rc)  # a profiler, debugger or coverage tool writes its report at exit
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        rc = rc or 1
    os._exit(rc)


if __name__ == "__main__":
    entry()
