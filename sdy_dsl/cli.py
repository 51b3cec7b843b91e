"""The `sdy-dsl` command: `opt` (a drop-in for sdy_opt/mpmd_opt), `run`, `passes`.

Every failure is one line `where: error: message` on stderr and exit code 1;
`-o OUT` is written atomically, and only when everything succeeded.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from jaxlib.mlir import ir

from . import diagnostics
from .errors import SdyDslError, UsageError
from .interp import driver as driver_mod
from .interp.driver import Observer
from .mlir_context import make_context
from .passes import GENERIC_MLIR_PASSES, PassRegistry
from .pipeline import Pipeline, PipelineRunner, Step, load_pipeline_file, parse_pipeline_string
from .pipeline import PassVerificationError

USAGE = """usage:
  sdy-dsl opt INPUT.mlir [-o OUT] [-PASS[='k=v ...']]... [--pass-pipeline='builtin.module(...)']
              [--split-input-file] [--verify-diagnostics] [--allow-unregistered-dialect] [COMMON]
  sdy-dsl run PIPELINE.yaml INPUT.mlir [-o OUT] [--split-input-file] [COMMON]
  sdy-dsl passes [--rules DIR] [--json]
COMMON: [--rules DIR]... [--only-rules DIR]... [--trace] [--trace-json] [--rule-stats] [--timing]
        [--explain RULE] [--disable-rule RULE] [--enable-rule RULE] [--dump-dir DIR] [--progress]"""

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


VALUE_FLAGS = {"o", "pass-pipeline", "rules", "only-rules", "explain", "disable-rule", "enable-rule", "dump-dir"}
BOOL_FLAGS = {"split-input-file": "split", "verify-diagnostics": "verify",
              "allow-unregistered-dialect": "unregistered", "trace": "trace", "trace-json": "trace_json",
              "rule-stats": "rule_stats", "timing": "timing", "progress": "progress", "json": "json",
              "mlir-print-debuginfo": None, "mlir-diagnostic-verbosity-level": None}


def parse_args(argv: list[str]) -> Args:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        raise SystemExit(0)
    args = Args(command=argv[0])
    if args.command not in ("opt", "run", "passes"):
        raise UsageError(f"unknown command '{args.command}' (expected opt, run or passes)")
    positional = []
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-h", "--help"):
            print(USAGE)
            raise SystemExit(0)
        if not a.startswith("-") or a == "-":
            positional.append(a)
            continue
        name, eq, value = a.lstrip("-").partition("=")
        if name in VALUE_FLAGS:
            if not eq:
                if i >= len(argv):
                    raise UsageError(f"option '{a}' needs a value")
                value, i = argv[i], i + 1
            if name == "o":
                args.output = value
            elif name == "pass-pipeline":
                args.pipeline = value
            elif name == "rules":
                args.rule_dirs.append(value)
            elif name == "only-rules":
                args.only_rule_dirs.append(value)
            elif name == "explain":
                args.explain.add(value)
            elif name == "disable-rule":
                args.disabled.add(value)
            elif name == "enable-rule":
                args.enabled = (args.enabled or set()) | {value}
            elif name == "dump-dir":
                args.dump_dir = value
        elif name in BOOL_FLAGS:
            attr = BOOL_FLAGS[name]
            if attr is not None:
                setattr(args, attr, value not in ("false", "0"))
        elif args.command == "opt" and a.startswith("-"):
            # A pass flag: -PASS or -PASS='k=v k2=v2' (validated against the registry later).
            args.pass_flags.append((name, value if eq else None, a))
        else:
            raise UsageError(f"unknown option '{a}'")
    if args.command == "opt":
        if len(positional) > 1:
            raise UsageError(f"unexpected argument '{positional[1]}'")
        args.input = positional[0] if positional else "-"
        if args.pipeline and args.pass_flags:
            raise UsageError("--pass-pipeline cannot be combined with pass flags")
    elif args.command == "run":
        if len(positional) != 2:
            raise UsageError("run takes PIPELINE.yaml INPUT.mlir")
        args.pipeline_file, args.input = positional
    elif positional:
        raise UsageError(f"unexpected argument '{positional[0]}'")
    return args


def build_pipeline(args: Args, registry: PassRegistry) -> Pipeline:
    if args.command == "run":
        return load_pipeline_file(args.pipeline_file)
    if args.pipeline is not None:
        text = args.pipeline.strip()
        return parse_pipeline_string(text)
    steps = []
    from .pipeline import check_pass_name, parse_option_string
    for name, value, flag in args.pass_flags:
        try:
            name = check_pass_name(name)
        except ValueError as e:
            raise UsageError(f"invalid option or pass '{flag}': {e}") from None
        if not registry.has(name) and not name.startswith(("sdy-", "mpmd-")) and name not in GENERIC_MLIR_PASSES:
            raise UsageError(f"unknown option or pass '{flag}' (see 'sdy-dsl passes')")
        options = parse_option_string(value) if value else {}
        steps.append(Step(name, options))
    return Pipeline(steps)


def read_input(path: str) -> tuple[str, str]:
    """(display name, text)."""
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
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise SdyDslError("input is not UTF-8 text", name, line, 1) from None


def chunks_of(source: str, split: bool):
    if not split:
        yield source, 1
        return
    start = 0
    for m in SPLIT_RE.finditer(source):
        yield source[start:m.start()], source.count("\n", 0, start) + 1
        start = m.end() + 1
    yield source[start:], source.count("\n", 0, start) + 1


def process_chunk(text: str, first_line: int, fname: str, args: Args, registry, pipeline, observer):
    """Returns (ok, output_or_None, messages)."""
    padded = "\n" * (first_line - 1) + text
    diags: list = []
    output = None
    ctx = make_context(args.unregistered)
    with ctx, ir.Location.unknown(), diagnostics.collecting_warnings(diags):
        handler = ctx.attach_diagnostic_handler(lambda d: diags.extend(diagnostics.flatten(d)) or True)
        try:
            module = ir.Module.parse(padded)
            runner = PipelineRunner(registry, pipeline, observer,
                                    dump_dir=args.dump_dir, progress=args.progress, timing=args.timing)
            runner.run(module)
            output = str(module).rstrip("\n") + "\n"
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
        except diagnostics.PassFailure:
            pass  # the failing rule already emitted its diagnostics
        finally:
            handler.detach()
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
    # A symlink is written through: the file it names is replaced, the link stays.
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        # A device or pipe (e.g. /dev/null): write through it; renaming over it would replace it.
        with open(target, "w") as f:
            f.write(text)
        return
    fd, tmp = tempfile.mkstemp(prefix=".sdy-dsl-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def cmd_passes(args: Args, registry: PassRegistry) -> int:
    rows = []
    for name in registry.names():
        p = registry.get(name)
        rows.append({"name": name, "summary": p.summary, "anchor": p.anchor, "file": str(p.path),
                     "options": {o.name: {"type": o.type, "default": o.default, "help": o.help,
                                          **({"values": list(o.values)} if o.values else {})}
                                 for o in p.options.values()}})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(f"{row['name']}  ({row['anchor']})\n    {row['summary']}")
        for oname, o in row["options"].items():
            extra = f" one of {{{', '.join(o['values'])}}}" if o.get("values") else ""
            print(f"    --{oname}: {o['type']}{extra} = {json.dumps(o['default'])}  {o['help']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
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


_parsing = False


def _main(argv: list[str]) -> int:
    global _parsing
    _parsing = True
    args = parse_args(argv)
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
    pipeline = build_pipeline(args, registry)
    # Validate the pipeline (passes, options) before reading any input.
    with make_context():
        PipelineRunner(registry, pipeline)
    fname, source = read_input(args.input)
    driver_mod.SOURCE_NAME = fname
    observer = Observer(trace=args.trace or args.trace_json, trace_json=args.trace_json,
                        collect_stats=args.rule_stats, explain=args.explain, disabled=args.disabled,
                        only_enabled=args.enabled)
    all_ok, outputs = True, []
    for text, first_line in chunks_of(source, args.split):
        ok, out, messages = process_chunk(text, first_line, fname, args, registry, pipeline, observer)
        all_ok &= ok
        for m in messages:
            print(m, file=sys.stderr)
        if out is not None:
            outputs.append(out)
    if args.rule_stats:
        print_stats(observer)
    if args.timing:
        for name, seconds in observer.pass_seconds.items():
            print(f"timing: {name}: {seconds * 1000:.1f} ms", file=sys.stderr)
    result = "// -----\n".join(outputs)
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


def print_stats(observer: Observer) -> None:
    out = sys.stderr
    print(f"{'rule':60} {'attempts':>9} {'matches':>8} {'fired':>7} {'no-op':>6} {'ms':>9}", file=out)
    for (pass_name, rule_id), st in sorted(observer.stats.items()):
        print(f"{pass_name + '/' + rule_id:60} {st.attempts:9d} {st.matches:8d} {st.fired:7d} "
              f"{st.noop:6d} {st.seconds * 1000:9.2f}", file=out)


if __name__ == "__main__":
    sys.exit(main())
