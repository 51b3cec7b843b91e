"""MLIR diagnostics: formatting as `file:line:col: error: msg`, emitting from
rules, and checking `// expected-error @+1 {{...}}` annotations as
`mlir-opt -verify-diagnostics` does."""
from __future__ import annotations

import re
from typing import NamedTuple

from jaxlib.mlir import ir

SEVERITIES = {ir.DiagnosticSeverity.ERROR: "error", ir.DiagnosticSeverity.WARNING: "warning",
              ir.DiagnosticSeverity.NOTE: "note", ir.DiagnosticSeverity.REMARK: "remark"}
_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
# Notes that only print the failing op: -verify-diagnostics does not report them.
_OP_DUMP_NOTE = re.compile(r'^(see current operation|(%\S+ = )?"?[a-z_]+\.[\w.]+)')


class PassFailure(Exception):
    """A rule emitted an error diagnostic; the pass (and the chunk) failed."""


def location_of(where) -> ir.Location:
    """The location of a location, an op or a value."""
    if isinstance(where, ir.Location):
        return where
    return (where.operation if hasattr(where, "operation") else where).location


def emit_error(where, message: str) -> None:
    """Emit an error at a location (or an op's) through MLIR's diagnostic engine and fail the pass."""
    location_of(where).emit_error(message)
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
    """A warning at a location, or an op's or a value's (the pass goes on)."""
    entry = ("warning", line_col(location_of(where)), message)
    if _warning_sinks:
        _warning_sinks[-1].append(entry)
    else:
        import sys
        print(format("-", *entry), file=sys.stderr)


class Position(NamedTuple):
    """Where a diagnostic is: a line and column of the input (`file` None: MLIR's
    "-") or of another file (`file`: its name); or, for a location naming no
    file, `shown`: the location as MLIR prints it (`loc("x")`)."""
    line: int
    col: int
    file: str | None = None
    shown: str | None = None


def line_col(loc) -> Position | None:
    """The position MLIR shows for a location: its first file position (a name's,
    a call site's callee's, a fused location's first); a location with none is
    shown as printed (`loc("x")`), an unknown one not at all."""
    text = str(loc)
    m = _LOC.search(text)
    if m:
        name = m.group(1)
        return Position(int(m.group(2)), int(m.group(3)), None if name == "-" else name)
    return None if text == "loc(unknown)" else Position(0, 0, shown=text)


def flatten(diag) -> list[tuple[str, tuple[int, int] | None, str]]:
    out = [(SEVERITIES[diag.severity], line_col(diag.location), diag.message)]
    for note in diag.notes:
        out.extend(flatten(note))
    return out


def format(fname: str, severity: str, pos, message: str) -> str:  # noqa: A001 - module-level name
    """`file:line:col: severity: message`, the file being the input FNAME unless the
    position names another; a location without a file as MLIR prints it."""
    if not pos:
        where = f"{fname}:0:0"
    elif not isinstance(pos, Position):  # (a plain (line, col) of the input)
        where = f"{fname}:{pos[0]}:{pos[1]}"
    else:
        where = pos.shown or f"{pos.file or fname}:{pos.line}:{pos.col}"
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
        line = pos[0] if pos and not (isinstance(pos, Position) and (pos.file or pos.shown)) else None  # (input lines only)
        hits = [e for e in wanted if e.kind == severity and e.line == line and e.matches(message)]
        for e in hits:
            e.seen = True
        if not hits:
            errors.append(format(fname, "error", pos, f"unexpected {severity}: {message}"))
    for e in wanted:
        if not e.seen:
            errors.append(format(fname, "error", (e.written_at, 1), f'expected {e.kind} "{e.text}" was not produced'))
    return errors
