"""The HTML report of `sdy-dsl explain --report` and `sdy-dsl diff --report`.

The page gets the module once, compactly: every value (name, type, sharding,
origins, where it is defined and used), every op (operands, results, and the
propagation edges `sdy.propagation_edges` recorded on it, each edge stored
once). The origin chain of a value is built in the page when it is shown (the
same walk as stories.ModuleStories._chain), so the page grows with the module,
not with the module times its depth. Shardings, types, op names, locations
and origin texts are interned.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path

from jaxlib.mlir import ir

from .errors import SdyDslError
from .report_comm import Communication, communication, tagged_text
from .report_page import PAGE
from .runtime.debug_info import PROPAGATION_EDGES_ATTR
from .stories import ModuleStories, _attr, _location_text, parse_edges


def _ref(text: str) -> int:
    """`operand-i` -> i, `result-i` -> ~i (a negative number)."""
    kind, _, n = text.partition("-")
    return int(n) if kind == "operand" else ~int(n)


class _Model:
    """The report's data for one module (the stories of its values without chains)."""

    def __init__(self, stories: ModuleStories):
        self.stories = stories
        self.strings: list[str] = []
        self._string_ids: dict[str, int] = {}
        self.ids: dict[ir.Value, int] = {}
        self.values: list[dict] = []
        self.ops: list[list] = []
        self.funcs: list[dict] = []
        self.keys: dict[str, int] = {}  # "@main %3" -> value id (the rows of the table)
        self._result_rows: dict[tuple[int, int], int] = {}  # (func index, result number) -> value id
        self.comm: list[list] = []  # [kind, axes, tensor, sharding, bytes, where, value id or -1]
        self.comm_error = ""
        self.calls: dict[int, int] = {}  # op index of a func.call -> its callee's function index

    def s(self, text: str) -> int:
        found = self._string_ids.get(text)
        if found is None:
            found = self._string_ids[text] = len(self.strings)
            self.strings.append(text)
        return found

    def vid(self, value: ir.Value) -> int:
        found = self.ids.get(value)
        if found is None:
            found = self.ids[value] = len(self.values)
            self.values.append({"n": self.stories._name(value), "t": self.s(str(value.type))})
        return found

    def add_story(self, func_index: int, func, kind: str, what, value_id: int) -> None:
        story = self.stories.story(func, kind, what, with_chains=False)
        entry = self.values[value_id]
        entry.update({"f": func_index, "w": self.s(story.what)})
        if story.sharding:
            entry["s"] = self.s(story.sharding)
        if story.jax_name:
            entry["j"] = story.jax_name
        if story.location:
            entry["l"] = self.s(story.location)
        if story.axes:
            entry["o"] = [[a.axis, self.s(a.origin), self.s(a.origin_text)] for a in story.axes]
        key = story.key
        if key in self.keys:  # sibling regions reuse SSA numbers: the n-th one in program order
            n = 2
            while f"{story.key} #{n}" in self.keys:
                n += 1
            key = f"{story.key} #{n}"
        self.keys[key] = value_id

    def build(self) -> None:
        st = self.stories
        self._op_objects = []
        for fi, func in enumerate(st.funcs):
            rows = []
            block = func.operation.regions[0].blocks[0]
            for i, arg in enumerate(block.arguments):
                vid = self.vid(arg)
                self.add_story(fi, func, "arg", i, vid)
                self.values[vid]["a"] = i  # an argument: the page's chains cross to the call's operand
                rows.append(vid)
            returned = []
            for op in st._ops(func):
                index = len(self.ops)
                self._op_objects.append(op.operation)
                record = [self.s(op.name), self.s(_location_text(op.location, st.source_name)),
                          [self.vid(v) for v in op.operands], [self.vid(r) for r in op.results]]
                edges = [[e.step, e.axis, _ref(e.source), [_ref(t) for t in e.targets]] for e in st._edges(op)]
                if edges:
                    record.append(edges)
                self.ops.append(record)
                for n, r in enumerate(op.results):
                    vid = self.ids[r]
                    self.values[vid].update({"d": index, "r": n})
                    self.add_story(fi, func, "value", r, vid)
                    rows.append(vid)
                if op.parent is not None and op.parent == func and op.name == "func.return":
                    returned = record[2]
            for i, result_type in enumerate(st._results_types(func)):
                vid = len(self.values)
                self.values.append({"n": f"result {i}", "t": self.s(str(result_type))})
                if i < len(returned):
                    self.values[vid]["ret"] = returned[i]
                self.add_story(fi, func, "result", i, vid)
                self._result_rows[(fi, i)] = vid
                rows.append(vid)
            entry = {"name": st._func_name(func), "rows": rows, "returned": returned}
            attrs = st._func_arg_attrs(func, "res_attrs")
            edges = _attr(ir.DictAttr(attrs[0]), PROPAGATION_EDGES_ATTR) if attrs else None
            if edges is not None and len(st._results_types(func)) == 1:
                entry["ret_edges"] = [[e.step, e.axis, e.source, e.targets] for e in parse_edges(str(edges))]
            self.funcs.append(entry)
        # Uses in the order the IR lists them (the chain walk breaks ties by it).
        op_index = {op: i for i, op in enumerate(self._op_objects)}
        # The call graph, for chains through calls (stories.ModuleStories._across_call).
        func_index = {f.operation: i for i, f in enumerate(st.funcs)}
        self.calls = {op_index[call]: func_index[callee.operation] for call, callee in st.callee_of.items()}
        for fi, func in enumerate(st.funcs):
            sites = st.call_sites.get(func.operation)
            if sites:
                self.funcs[fi]["sites"] = [op_index[call] for call in sites]
        for value, vid in self.ids.items():
            uses = [[op_index[use.owner.operation], use.operand_number] for use in value.uses
                    if use.owner.operation in op_index]
            if uses:
                self.values[vid]["u"] = uses
            else:
                self.values[vid].pop("u", None)

    def add_communication(self, comm: Communication) -> None:
        """Each collective of COMM on the row of the value it is placed at (report_comm.py)."""
        self.comm_error = comm.error
        func_index = {f["name"]: i for i, f in enumerate(self.funcs)}
        for p in comm.placed:
            vid, where = self._row_of(p.at)
            c = p.collective
            self.comm.append([c.kind, c.axes, c.tensor, c.sharding, c.bytes, where, vid])
            if vid >= 0:
                self.values[vid].setdefault("c", []).append(len(self.comm) - 1)
            fi = func_index.get(p.func)
            if fi is not None:
                totals = self.funcs[fi].setdefault("comm", {})
                entry = totals.setdefault(c.kind, [0, 0])
                entry[0] += 1
                entry[1] += c.bytes

    def _row_of(self, at) -> tuple[int, str]:
        if at is None:
            return -1, ""
        index, kind, n = at
        op = self._op_objects[index]
        if kind == "result":
            return self.ids[op.results[n]], f"reduces result {n} of {op.name}"
        parent = op.parent
        if op.name == "func.return" and parent is not None and parent.name == "func.func":
            fi = next((i for i, f in enumerate(self.stories.funcs) if f.operation == parent), None)
            if (fi, n) in self._result_rows:
                return self._result_rows[(fi, n)], f"before function result {n}"
        target = op.results[0] if len(op.results) else op.operands[n]
        return self.ids.get(target, -1), f"before operand {n} of {op.name}"

    def data(self, focus: str | None, title: str) -> dict:
        return {"title": title, "meshes": [{"name": n, "axes": axes} for n, axes in self.stories.meshes],
                "mesh_axes": self.stories.mesh_axes, "strings": self.strings, "values": self.values,
                "ops": self.ops, "funcs": self.funcs, "focus": self.keys.get(focus or "", -1),
                "comm": self.comm, "comm_error": self.comm_error, "calls": self.calls}


def report_model(stories: ModuleStories) -> _Model:
    model = _Model(stories)
    model.build()
    return model


def render(data: dict) -> str:
    page = PAGE.replace("__TITLE__", html.escape(data["title"]))
    return page.replace("__DATA__", json.dumps(data, separators=(",", ":")).replace("</", "<\\/"))


def write_page(path: str, page: str) -> None:
    try:
        Path(path).write_text(page)
    except OSError as e:
        raise SdyDslError(f"cannot write report '{path}': {e.strerror}") from None


def explain_report_data(stories: ModuleStories, source_name: str, focus: str | None = None,
                        rules=None) -> dict:
    """The page's data: the module's values and shardings, and the collectives
    the cost analysis finds, each on the row of the value it is placed at."""
    model = report_model(stories)
    model.add_communication(communication(tagged_text(model._op_objects, stories.module), rules))
    return model.data(focus, f"sdy-dsl: shardings of {source_name}")


def write_report(stories: ModuleStories, path: str, source_name: str, focus: str | None = None,
                 rules=None) -> None:
    """The module's values, their shardings, where they came from (on click) and where they are communicated."""
    write_page(path, render(explain_report_data(stories, source_name, focus, rules)))


# --------------------------------------------------------------------------- diff
#
# Two outputs of one input are compared value by value; a value is paired with
# its counterpart by what it is, not by its SSA number (a pass that inserts an
# op renumbers every later value): per function, the values in program order,
# each as (op, result number, type, location) (an argument by its number, a
# function result by its name), aligned as a sequence diff aligns lines. A
# value that only one side has is listed as inserted (only in B) or removed
# (only in A).


def _identity(model: _Model, vid: int) -> tuple:
    """What value VID is, independent of its SSA name (see above). A location
    in the compared file itself (an output printed without debug info) is
    only where the op was printed, so it is no part of what the value is."""
    v = model.values[vid]
    what = model.strings[v["w"]] if "w" in v else ""
    location = model.strings[v["l"]] if "l" in v else ""
    if location.startswith(model.stories.source_name + ":"):
        location = ""
    return (what, v.get("a"), v.get("r"), model.strings[v["t"]], location, v["n"] if what == "result" else "")


@dataclass
class Pairing:
    pairs: list[tuple[int, int]]  # (value id in A, value id in B)
    only_a: list[int]  # removed: in A, not in B
    only_b: list[int]  # inserted: in B, not in A


def pair_values(a: _Model, b: _Model) -> Pairing:
    from difflib import SequenceMatcher
    pairing = Pairing([], [], [])
    b_funcs = {f["name"]: f for f in b.funcs}
    for fa in a.funcs:
        rows_a, rows_b = fa["rows"], b_funcs.pop(fa["name"], {"rows": []})["rows"]
        matcher = SequenceMatcher(None, [_identity(a, v) for v in rows_a], [_identity(b, v) for v in rows_b],
                                  autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                pairing.pairs += zip(rows_a[i1:i2], rows_b[j1:j2])
            else:
                pairing.only_a += rows_a[i1:i2]
                pairing.only_b += rows_b[j1:j2]
    for fb in b_funcs.values():  # functions only B has
        pairing.only_b += fb["rows"]
    return pairing


def _sharding(model: _Model, vid: int) -> str:
    v = model.values[vid]
    return model.strings[v["s"]] if "s" in v else ""


def differing(a: _Model, b: _Model) -> list[tuple[str, str, str, str]]:
    """(key, op, sharding in A, sharding in B) for each value whose sharding differs
    (a value only one side has shows 'missing' on the other, and its key says which)."""
    keys_a, keys_b = _keys_by_value(a), _keys_by_value(b)
    pairing = pair_values(a, b)
    out = []
    for va, vb in pairing.pairs:
        sa, sb = _sharding(a, va), _sharding(b, vb)
        if sa != sb:
            key = keys_a[va] + (f"  (B: {b.values[vb]['n']})" if b.values[vb]["n"] != a.values[va]["n"] else "")
            out.append((key, a.strings[a.values[va]["w"]], sa, sb))
    for vid in pairing.only_a:
        out.append((f"{keys_a[vid]}  (only in A: removed)", a.strings[a.values[vid]["w"]], _sharding(a, vid),
                    "missing"))
    for vid in pairing.only_b:
        out.append((f"{keys_b[vid]}  (only in B: inserted)", b.strings[b.values[vid]["w"]], "missing",
                    _sharding(b, vid)))
    return out


def _keys_by_value(model: _Model) -> dict[int, str]:
    return {vid: key for key, vid in model.keys.items()}


def diff_text(a: _Model, b: _Model, name_a: str, name_b: str) -> str:
    rows = differing(a, b)
    if not rows:
        return f"no sharding differs between {name_a} and {name_b} ({len(a.keys)} values)"
    changed = sum(1 for _, _, sa, sb in rows if "missing" not in (sa, sb))
    head = f"{changed} of {len(a.keys)} values have different shardings (A: {name_a}, B: {name_b})"
    inserted = sum(1 for _, _, sa, _ in rows if sa == "missing")
    removed = len(rows) - changed - inserted
    if inserted or removed:
        head += f"; {inserted} values only in B (inserted), {removed} only in A (removed)"
    lines = [head]
    for key, what, sa, sb in rows:
        name, _, note = key.partition("  (")
        lines.append(name + (f" = {what}" if what not in ("argument", "result") else f" ({what})")
                     + (f"  ({note}" if note else ""))
        lines.append(f"  A: {_shown(sa)}")
        lines.append(f"  B: {_shown(sb)}")
    return "\n".join(lines)


def _shown(sharding: str) -> str:
    return {"": "replicated (no sharding)", "missing": "-"}.get(sharding, sharding)


def diff_report_data(a: _Model, b: _Model, name_a: str, name_b: str) -> dict:
    """A's report with B's sharding beside each value (`s2`: its counterpart's, paired
    as `differing` pairs them; "only in A" for a removed one), the differing ones marked."""
    data = a.data(None, f"sdy-dsl: shardings of {name_a} (A) and {name_b} (B)")
    values = [dict(v) for v in data["values"]]
    strings = list(a.strings)
    index = {text: i for i, text in enumerate(strings)}

    def intern(text: str) -> int:
        if text not in index:
            index[text] = len(strings)
            strings.append(text)
        return index[text]
    pairing = pair_values(a, b)
    counterpart = dict(pairing.pairs)
    for vid in a.keys.values():
        other = counterpart.get(vid)
        sb = "only in A" if other is None else _sharding(b, other)
        if sb:
            values[vid]["s2"] = intern(sb)
        if _sharding(a, vid) != sb:
            values[vid]["x"] = 1
    data.update(values=values, strings=strings, diff=[name_a, name_b])
    return data
