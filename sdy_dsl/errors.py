"""User-facing errors. Each prints as one line `where: error: message` and exits 1."""
from __future__ import annotations


class SdyDslError(Exception):
    """An error reported to the user as one line, without a traceback."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 col: int | None = None, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.message, self.path, self.line, self.col, self.notes = message, path, line, col, notes

    def location(self) -> str:
        if self.path is None:
            return "sdy-dsl"
        if self.line is None:
            return str(self.path)
        return f"{self.path}:{self.line}:{self.col or 1}"

    def __str__(self) -> str:
        text = f"{self.location()}: error: {self.message}"
        for note in self.notes:
            text += f"\n{self.location()}: note: {note}"
        return text


class RuleFileError(SdyDslError):
    """A bad rule file or pipeline file; line/col are 1-based."""

    def __init__(self, path, line, col, message, notes=()):
        super().__init__(message, str(path), line, col, notes)


class UsageError(SdyDslError):
    """A bad command line: unknown pass, option, flag or pipeline string."""

    def __init__(self, message: str):
        super().__init__(message)


class DiagnosticsError(SdyDslError):
    """Diagnostics that MLIR or a rule emitted, each already `where: severity: message`."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines) or "the pipeline failed")
        self.lines = lines

    def __str__(self) -> str:
        return self.message


class InputError(SdyDslError):
    """A bad input module (diagnostics already formatted by MLIR)."""


def did_you_mean(word: str, choices, cutoff: float = 0.6) -> str:
    """"; did you mean 'X'?" for the closest of CHOICES, or nothing."""
    from difflib import get_close_matches
    close = get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return f"; did you mean '{close[0]}'?" if close else ""
