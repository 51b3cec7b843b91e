"""Shrink a module that shows a difference with the reference (the fuzzers' --reduce).

    reduce(text, still_fails) -> smaller text for which still_fails(text) holds

Greedy line-level delta debugging: drop chunks of lines (halving the chunk
size down to one line), then simplify sharding attributes (drop priorities,
open dimensions, replicated/unreduced lists, a dimension's last axis), keeping
each change while the module still fails the same way. Invalid candidates
are rejected by still_fails itself (the reference skips them).
"""
from __future__ import annotations

import re
from typing import Callable

_SIMPLIFY = [
    (re.compile(r"\}p\d"), "}"),
    (re.compile(r", \?\}"), "}"),
    (re.compile(r"\{\?\}"), "{}"),
    (re.compile(r", replicated=\{[^}]*\}"), ""),
    (re.compile(r", unreduced=\{[^}]*\}"), ""),
    (re.compile(r', "[^"]*"(:\(\d+\)\d+)?\}'), "}"),
    (re.compile(r'\{"[^"]*"(:\(\d+\)\d+)?\}'), "{}"),
    (re.compile(r" loc\([^()]*\)"), ""),
]


def _drop_lines(lines: list[str], fails: Callable[[str], bool]) -> list[str]:
    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i = 0
        while i < len(lines):
            candidate = lines[:i] + lines[i + chunk:]
            if candidate and fails("\n".join(candidate) + "\n"):
                lines = candidate
            else:
                i += chunk
        chunk //= 2
    return lines


def _simplify(text: str, fails: Callable[[str], bool]) -> str:
    for pattern, repl in _SIMPLIFY:
        pos = 0
        while True:
            m = pattern.search(text, pos)
            if not m:
                break
            candidate = text[:m.start()] + repl + text[m.end():]
            if fails(candidate):
                text, pos = candidate, m.start()
            else:
                pos = m.end()
    return text


def reduce(text: str, still_fails: Callable[[str], bool], rounds: int = 3) -> str:
    for _ in range(rounds):
        before = text
        text = "\n".join(_drop_lines(text.splitlines(), still_fails)) + "\n"
        text = _simplify(text, still_fails)
        if text == before:
            break
    return text
