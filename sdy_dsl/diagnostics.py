"""MLIR diagnostics: formatting as `file:line:col: error: msg`, emitting from
rules, and checking `// expected-error @+1 {{...}}` annotations as
`mlir-opt -verify-diagnostics` does."""
from __future__ import annotations

import re

from jaxlib.mlir import ir

SEVERITIES = {ir.DiagnosticSeverity.ERROR: "error", ir.DiagnosticSeverity.WARNING: "warning",
              ir.DiagnosticSeverity.NOTE: "note", ir.DiagnosticSeverity.REMARK: "remark"}
_LOC = re.compile(r'"[^"]*":(\d+):(\d+)')
# Notes that only print the failing op: -verify-diagnostics does not report them.
_OP_DUMP_NOTE = re.compile(r'^(see current operation|(%\S+ = )?"?[a-z_]+\.[\w.]+)')


class PassFailure(Exception):
    """A rule emitted an error diagnostic; the pass (and the chunk) failed."""


def emit_error(op, message: str) -> None:
    """Emit an error at an op's location through MLIR's diagnostic engine and fail the pass."""
    op = op.operation if hasattr(op, "operation") else op
    op.location.emit_error(message)
    raise PassFailure(message)


def emit_error_at(path: str, line: int, col: int, message: str) -> None:
    """Emit an error at a position of the input (e.g. one an exception named)."""
    ir.Location.file(path, line, col).emit_error(message)


# jaxlib's Python bindings emit only errors through MLIR's engine; warnings
# from rules go to the diagnostics list of the chunk being processed (the CLI
# sets it), formatted and verified like MLIR's own.
_warning_sinks: list[list] = []


class collecting_warnings:
    """`with collecting_warnings(diags):` warnings emitted inside land in `diags`."""

    def __init__(self, sink: list):
        self.sink = sink

    def __enter__(self):
        _warning_sinks.append(self.sink)
        return self.sink

    def __exit__(self, *exc):
        _warning_sinks.pop()


def emit_warning(where, message: str) -> None:
    """A warning at an op's or a value's location (the pass goes on)."""
    where = where.operation if hasattr(where, "operation") else where
    entry = ("warning", line_col(where.location), message)
    if _warning_sinks:
        _warning_sinks[-1].append(entry)
    else:
        import sys
        print(format("-", *entry), file=sys.stderr)


def line_col(loc) -> tuple[int, int] | None:
    m = _LOC.search(str(loc))
    return (int(m.group(1)), int(m.group(2))) if m else None


def flatten(diag) -> list[tuple[str, tuple[int, int] | None, str]]:
    out = [(SEVERITIES[diag.severity], line_col(diag.location), diag.message)]
    for note in diag.notes:
        out.extend(flatten(note))
    return out


def format(fname: str, severity: str, pos, message: str) -> str:  # noqa: A001 - module-level name
    where = f"{fname}:{pos[0]}:{pos[1]}" if pos else f"{fname}:0:0"
    return f"{where}: {severity}: {message}"


# --------------------------------------------------------------------------- -verify-diagnostics

_EXPECTED = re.compile(r"expected-(error|warning|note|remark)(-re)?\s*(@([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}\s*$")


class Expected:
    def __init__(self, kind: str, line: int | None, text: str, is_regex: bool, written_at: int):
        self.kind, self.line, self.text, self.written_at = kind, line, text, written_at
        self.seen = False
        self.regex = None
        if is_regex:
            # `{{re}}` parts are regexes, the rest is literal text.
            parts = re.split(r"\{\{(.*?)\}\}", text)
            self.regex = re.compile("".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts)), re.S)

    def matches(self, message: str) -> bool:
        return bool(self.regex.search(message)) if self.regex else self.text in message


def expectations(text: str, first_line: int) -> list[Expected]:
    found, waiting_below, last_code_line = [], [], first_line - 1
    for i, line in enumerate(text.split("\n")):
        lineno = first_line + i
        m = _EXPECTED.search(line)
        if not m:
            if line.strip() and not line.strip().startswith("//"):
                for e in waiting_below:
                    e.line = lineno
                waiting_below = []
                last_code_line = lineno
            continue
        kind, is_re, where, message = m.group(1), bool(m.group(2)), m.group(4), m.group(5)
        e = Expected(kind, lineno, message, is_re, lineno)
        if where == "unknown":
            e.line = None
        elif where == "above":
            e.line = last_code_line
        elif where == "below":
            waiting_below.append(e)
        elif where is not None:
            e.line = lineno + int(where)
        found.append(e)
    return found


class ToolNote(str):
    """A note of sdy-dsl's own, not MLIR's (which pass broke the module):
    -verify-diagnostics does not check it, as sdy_opt prints none."""


def is_op_dump_note(severity: str, pos, message: str) -> bool:
    return severity == "note" and bool(_OP_DUMP_NOTE.match(message))


def verify(diags, text: str, first_line: int, fname: str) -> list[str]:
    """Errors (formatted) for unexpected diagnostics and unmet expectations."""
    wanted = expectations(text, first_line)
    errors = []
    for severity, pos, message in diags:
        if severity == "note" and (_OP_DUMP_NOTE.match(message) or isinstance(message, ToolNote)):
            continue
        line = pos[0] if pos else None
        hits = [e for e in wanted if e.kind == severity and e.line == line and e.matches(message)]
        for e in hits:
            e.seen = True
        if not hits:
            errors.append(format(fname, "error", pos, f"unexpected {severity}: {message}"))
    for e in wanted:
        if not e.seen:
            errors.append(format(fname, "error", (e.written_at, 1), f'expected {e.kind} "{e.text}" was not produced'))
    return errors
