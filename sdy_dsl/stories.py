"""`sdy-dsl explain MODEL VALUE`: why did this value get this sharding?

Runs a pipeline with the reference's debug options turned on in every pass
that has them (`debug-sharding-origins`, `debug-propagation-edge-sharding`
and the sink's `sink-debug-*`), then reads what they recorded on the output:

- `sdy.sharding_origins`: per axis of a value's sharding, the user sharding it
  came from (`input: i`, `output: i`, `constraint_N`, `mc_N_...`, `self`);
- `sdy.propagation_edges`: per op, the numbered propagation steps that moved
  an axis from one operand/result to others.

For one value it prints the final sharding and, per axis, the origin and the
chain of steps (followed backwards from the value to the origin, printed in
step order), through `func.call`s: a call's result comes from what its callee
returns, a callee's argument from its call's operand (`call:` lines; the
pipeline records no step there, see Hop). `--report out.html` writes every value of the module that way,
as a page: functions, each value's sharding coloured per mesh axis, the origin
chain on click.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jaxlib.mlir import ir

from .errors import UsageError
from .passes import PassRegistry
from .pipeline import Pipeline
from .runtime.debug_info import (ORIGIN_NAME_ATTR, PROPAGATION_EDGES_ATTR, RESULT_PROPAGATION_EDGES_ATTR,
                                 RESULT_SHARDING_ORIGINS_ATTR, SHARDING_ORIGINS_ATTR)
from .runtime.interfaces import table
from .runtime.values import SHARDING_ATTR, ops_under

# The reference's debug options (pass option names of Shardy's passes).
DEBUG_OPTIONS = ("debug-sharding-origins", "debug-propagation-edge-sharding",
                 "sink-debug-sharding-origins", "sink-debug-propagation-edge-sharding")

_FILE_LINE_COL = re.compile(r'"([^"]*)":(\d+):(\d+)')
_NAME_LOC = re.compile(r'^loc\("([^"]*)"(?!:)')
_STEP = re.compile(r"step-(\d+)")
_AXIS_NAME = re.compile(r'[^":]*')  # "data" of an origin's key `data` or `data":(1)2`
_EDGE = re.compile(r'\{\s*("[^"]*"(?::\(\d+\)\d+)?|[\w.]+(?::\(\d+\)\d+)?)\s*=\s*((?:operand|result)-\d+)'
                   r'\s*->\s*\[([^\]]*)\]\s*\}')


def debug_options(pipeline: Pipeline, registry: PassRegistry) -> dict[str, dict[str, bool]]:
    """{pass: {debug option: True}} for every pass of PIPELINE that declares one."""
    options: dict[str, dict[str, bool]] = {}
    for step in pipeline.steps:
        if registry.has(step.name):
            declared = registry.get(step.name).options
            wanted = {name: True for name in DEBUG_OPTIONS if name in declared}
            if wanted:
                options[step.name] = wanted
    return options


# --------------------------------------------------------------------------- reading the output


@dataclass
class Edge:
    step: int
    axis: str
    source: str  # "operand-0" / "result-1"
    targets: list[str]


@dataclass
class Hop:
    """One propagation step of a chain: AXIS moved from SOURCE to TARGET through OP.

    STEP is None where the chain crosses a `func.call` (call operand -> callee
    argument, callee result -> call result): the pipeline propagates through a
    call as a named computation and exports it as a call again, and the steps
    it recorded on the way in and out do not survive that export."""
    step: int | None
    op: str  # "%2 = stablehlo.dot_general"
    location: str
    source: str  # "operand-0 (%1)"
    target: str


@dataclass
class AxisStory:
    axis: str
    origin: str  # as recorded: "input: 0"
    origin_text: str  # readable: "argument 0 of @main (JAX name 'x')"
    chain: list[Hop] = field(default_factory=list)


@dataclass
class ValueStory:
    key: str  # "@main %0", "@main arg 0", "@main result 0"
    func: str
    name: str  # SSA name or "result N"
    what: str  # "stablehlo.dot_general", "argument", "result"
    jax_name: str
    location: str
    sharding: str
    axes: list[AxisStory] = field(default_factory=list)

    def as_text(self) -> str:
        head = f"{self.key}"
        if self.what not in ("argument", "result"):
            head += f" = {self.what}"
        if self.jax_name:
            head += f"  (JAX name '{self.jax_name}')"
        lines = [head]
        if self.location:
            lines.append(f"  at {self.location}")
        lines.append(f"  sharding: {self.sharding or '(none)'}")
        if not self.axes:
            lines.append("  no axis has a recorded origin (replicated, or set before the pipeline's propagation)")
        for story in self.axes:
            lines.append(f"  axis {story.axis}: from {story.origin_text}  [origin \"{story.origin}\"]")
            for hop in story.chain:
                where = f"  ({hop.location})" if hop.location else ""
                lines.append(f"    {step_text(hop.step)}: {hop.op}: {hop.source} -> {hop.target}{where}")
            if not story.chain and story.origin != "self":
                lines.append("    (no propagation step recorded on the way)")
        return "\n".join(lines)


def step_text(step: int | None) -> str:
    """`step 4`, or `call` where a chain crosses a call (Hop.step)."""
    return "call" if step is None else f"step {step}"


def _location_text(loc: ir.Location, source_name: str) -> str:
    found = _FILE_LINE_COL.findall(str(loc))
    if not found:
        return ""
    path, line, col = found[0]
    return f"{source_name if path in ('-', '<python>') else path}:{line}:{col}"


def _jax_arg_name(loc: ir.Location) -> str:
    m = _NAME_LOC.match(str(loc))
    return m.group(1) if m else ""


def _edges(op: ir.Operation) -> list[Edge]:
    """The steps recorded on OP: its own, and those sdy-sink-data-flow-edges moved
    onto it from its data-flow edges (`sdy.result_propagation_edges`, one per result)."""
    edges = []
    if PROPAGATION_EDGES_ATTR in op.attributes:
        edges += parse_edges(str(op.attributes[PROPAGATION_EDGES_ATTR]))
    if RESULT_PROPAGATION_EDGES_ATTR in op.attributes:
        for per_result in ir.ArrayAttr(op.attributes[RESULT_PROPAGATION_EDGES_ATTR]):
            edges += parse_edges(str(per_result))
    return edges


def parse_edges(text: str) -> list[Edge]:
    """The edges of a `#sdy.propagation_edges<[{step-N = [{axis = src -> [dst, ...]}]}]>` attribute."""
    edges = []
    marks = list(_STEP.finditer(text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        for e in _EDGE.finditer(text, m.end(), end):
            targets = [t.strip() for t in e.group(3).split(",") if t.strip()]
            # `"x":(1)2` names the axis `sdy.sharding_origins` calls `x:(1)2`.
            edges.append(Edge(int(m.group(1)), e.group(1).replace('"', ""), e.group(2), targets))
    return edges


def _origins(attr: ir.Attribute | None) -> dict[str, str]:
    if attr is None:
        return {}
    out = {}
    for named in ir.DictAttr(attr):
        value = named.attr
        out[named.name.strip('"')] = ir.StringAttr(value).value if isinstance(value, ir.StringAttr) else str(value)
    return out


def _attr(attrs, name: str):
    return attrs[name] if name in attrs else None


class ModuleStories:
    """Every value of a module that ran with the debug options, and the story of its sharding."""

    def __init__(self, module: ir.Module, source_name: str):
        self.module = module
        self.source_name = source_name
        self.state = ir.AsmState(module.operation)
        self.funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        self.by_origin_name = {}
        self._edges_of: dict[ir.Operation, list[Edge]] = {}  # the module is only read: ops hash stably
        self.mesh_axes: list[str] = []
        self._jax_names: dict | None = None
        self._origin_texts: dict[tuple[str, str], str] = {}
        self._result_types: dict = {}
        self._arg_attrs: dict = {}
        self._returns: dict = {}
        self.meshes: list[tuple[str, list[tuple[str, int]]]] = []  # (name, [(axis, size)])
        self.callee_of: dict[ir.Operation, Any] = {}  # func.call -> its callee's func.func
        self.call_sites: dict[ir.Operation, list[ir.Operation]] = {}  # func.func -> its calls, in program order
        for op in module.body.operations:
            if op.operation.name == "sdy.mesh":
                axes = [(a, int(n)) for a, n in re.findall(r'"([^"]+)"=(\d+)', str(op.operation.attributes["mesh"]))]
                self.meshes.append((ir.StringAttr(op.operation.attributes["sym_name"]).value, axes))
                self.mesh_axes += [a for a, _ in axes if a not in self.mesh_axes]
        by_name = {self._func_name(func): func for func in self.funcs}
        self._func_of: dict[ir.Operation, Any] = {}  # a call -> the function it is in
        for func in self.funcs:
            for op in self._ops(func):
                if ORIGIN_NAME_ATTR in op.attributes:
                    self.by_origin_name[ir.StringAttr(op.attributes[ORIGIN_NAME_ATTR]).value] = op
                if op.name == "func.call":
                    callee = by_name.get("@" + ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
                    if callee is not None:
                        self.callee_of[op] = callee
                        self._func_of[op] = func
                        self.call_sites.setdefault(callee.operation, []).append(op)
        # The functions whose arguments and results the origins `input: i` / `output: i`
        # of a callee's values name: propagation saw one flattened entry function.
        self.entry_funcs = [f for f in self.funcs if "sym_visibility" not in f.operation.attributes
                            or ir.StringAttr(f.operation.attributes["sym_visibility"]).value == "public"]

    @staticmethod
    def _func_name(func) -> str:
        return "@" + ir.StringAttr(func.operation.attributes["sym_name"]).value

    @staticmethod
    def _ops(func) -> list[ir.Operation]:
        return ops_under(func)[1:]

    def _name(self, value: ir.Value) -> str:
        return value.get_name(self.state)

    def _returned(self, func) -> list:
        """The values FUNC returns (its block's terminator, found once: counting a block's ops walks them)."""
        found = self._returns.get(func.operation)
        if found is None:
            ops = func.operation.regions[0].blocks[0].operations
            found = self._returns[func.operation] = list(ops[len(ops) - 1].operands)
        return found

    def _func_arg_attrs(self, func, key: str) -> list:
        """The function's `arg_attrs` / `res_attrs` (read once: the module is only read)."""
        found = self._arg_attrs.get((func.operation, key))
        if found is None:
            attrs = func.operation.attributes
            found = self._arg_attrs[(func.operation, key)] = list(ir.ArrayAttr(attrs[key])) if key in attrs else []
        return found

    # ------------------------------------------------------------------ values

    def all_values(self) -> list[tuple[Any, str, Any]]:
        """(func, kind, what) for every argument, op result and function result."""
        out = []
        for func in self.funcs:
            block = func.operation.regions[0].blocks[0]
            for i in range(len(block.arguments)):
                out.append((func, "arg", i))
            for op in self._ops(func):
                for r in op.results:
                    out.append((func, "value", r))
            for i in range(len(self._results_types(func))):
                out.append((func, "result", i))
        return out

    def _results_types(self, func) -> list:
        found = self._result_types.get(func.operation)
        if found is None:
            found = self._result_types[func.operation] = list(
                ir.FunctionType(ir.TypeAttr(func.operation.attributes["function_type"]).value).results)
        return found

    def find(self, spec: str) -> tuple[Any, str, Any]:
        """The value SPEC names: %name, [@]FUNC:arg N, [@]FUNC:result N, FILE:LINE[:COL] or a JAX name."""
        m = re.fullmatch(r"@?([\w.$-]+):(arg|result)\s*(\d+)", spec.strip())
        if m:
            func = self._func(m.group(1))
            index = int(m.group(3))
            count = (len(func.operation.regions[0].blocks[0].arguments) if m.group(2) == "arg"
                     else len(self._results_types(func)))
            if index >= count:
                raise UsageError(f"@{m.group(1)} has {count} {m.group(2)}s; no {m.group(2)} {index}")
            return func, m.group(2), index
        m = re.fullmatch(r"(?:@?([\w.$-]+):)?(%[\w#.$-]+)", spec.strip())
        if m:
            funcs = [self._func(m.group(1))] if m.group(1) else self.funcs
            found = [(f, k, w) for f, k, w in self.all_values() if f in funcs and self._ssa(f, k, w) == m.group(2)]
            if len(found) > 1:
                raise UsageError(f"'{m.group(2)}' is in several functions ("
                                 f"{', '.join(self._func_name(f) for f, _, _ in found)}); write FUNC:{m.group(2)}")
            if found:
                return found[0]
            raise UsageError(f"no value '{spec}' in the output module")
        m = re.fullmatch(r"(.+?):(\d+)(?::(\d+))?", spec.strip())
        if m and not m.group(1).startswith("@"):
            path, line, col = m.group(1), m.group(2), m.group(3)
            for f, k, w in self.all_values():
                if k != "value":
                    continue
                for p, ln, c in _FILE_LINE_COL.findall(str(w.owner.location)):
                    p = self.source_name if p in ("-", "<python>") else p
                    same_file = p == path or Path(p).name == Path(path).name
                    if same_file and ln == line and (col is None or c == col):
                        return f, k, w
            raise UsageError(f"no op at {spec} in the output module")
        names = self.jax_names()
        if spec in names:
            return names[spec]
        known = ", ".join(sorted(names)) or "none"
        raise UsageError(f"no value '{spec}': expected %name, FUNC:arg N, FUNC:result N, FILE:LINE:COL "
                         f"or a JAX name (JAX names here: {known})")

    def jax_names(self) -> dict[str, tuple]:
        if self._jax_names is None:
            self._jax_names = self._find_jax_names()
        return self._jax_names

    def _find_jax_names(self) -> dict[str, tuple]:
        names = {}
        for func in self.funcs:
            block = func.operation.regions[0].blocks[0]
            for i, arg in enumerate(block.arguments):
                name = _jax_arg_name(arg.location)
                if name:
                    names.setdefault(name, (func, "arg", i))
            for i, attrs in enumerate(self._func_arg_attrs(func, "res_attrs")):
                info = _attr(ir.DictAttr(attrs), "jax.result_info")
                if info is not None:
                    name = ir.StringAttr(info).value
                    names.setdefault(name, (func, "result", i))
                    if name.startswith("result["):  # JAX's pytree path also answers without "result"
                        names.setdefault(name[len("result"):], (func, "result", i))
        return names

    def _func(self, name: str):
        for func in self.funcs:
            if self._func_name(func) == "@" + name.lstrip("@"):
                return func
        raise UsageError(f"no function @{name.lstrip('@')} (functions: "
                         f"{', '.join(self._func_name(f) for f in self.funcs)})")

    def _ssa(self, func, kind, what) -> str:
        if kind == "arg":
            return self._name(func.operation.regions[0].blocks[0].arguments[what])
        if kind == "value":
            return self._name(what)
        return f"result {what}"

    # ------------------------------------------------------------------ stories

    def story(self, func, kind: str, what, with_chains: bool = True) -> ValueStory:
        fname = self._func_name(func)
        if kind == "arg":
            arg = func.operation.regions[0].blocks[0].arguments[what]
            attrs = self._func_arg_attrs(func, "arg_attrs")
            d = ir.DictAttr(attrs[what]) if what < len(attrs) else None
            sharding = _attr(d, SHARDING_ATTR) if d is not None else None
            value = arg
            origins = self.origins_of(value)
            story = ValueStory(f"{fname} {self._name(arg)}", fname, self._name(arg), "argument",
                               _jax_arg_name(arg.location), "", str(sharding) if sharding else "")
        elif kind == "result":
            attrs = self._func_arg_attrs(func, "res_attrs")
            d = ir.DictAttr(attrs[what]) if what < len(attrs) else None
            sharding = _attr(d, SHARDING_ATTR) if d is not None else None
            origins = _origins(_attr(d, SHARDING_ORIGINS_ATTR)) if d is not None else {}
            info = _attr(d, "jax.result_info") if d is not None else None
            story = ValueStory(f"{fname} result {what}", fname, f"result {what}", "result",
                               ir.StringAttr(info).value if info is not None else "", "",
                               str(sharding) if sharding else "")
            value = self._returned(func)[what]
            if not origins:  # a callee's result: what it returns
                origins = _on_axes_of(story.sharding, self.origins_of(value))
        else:
            value = ir.OpResult(what)
            op = value.owner.operation
            sharding = _result_sharding(op, value.result_number)
            origins = self.origins_of(value)
            story = ValueStory(f"{fname} {self._name(value)}", fname, self._name(value), op.name, "",
                               _location_text(op.location, self.source_name), sharding or "")
        for axis, origin in origins.items():
            chain = [] if origin == "self" or not with_chains else self._chain(value, axis, func)
            if with_chains and kind == "result" and len(self._results_types(func)) == 1:
                steps = [hop.step for hop in chain if hop.step is not None]
                chain += self._return_hops(func, axis, steps[-1] if steps else -1)
            story.axes.append(AxisStory(axis, origin, self._origin_text(func, origin), chain))
        return story

    def origins_of(self, value: ir.Value, seen: frozenset = frozenset()) -> dict[str, str]:
        """{axis: origin} recorded for VALUE; where the pipeline recorded none
        (a callee's argument, a call's result: named computations exported as
        calls keep no origins), those of the value it came through the call from."""
        if isinstance(value, ir.OpResult):
            result = ir.OpResult(value)
            op = result.owner.operation
            o = _attr(op.attributes, SHARDING_ORIGINS_ATTR)
            if o is None:  # an edge owner's, moved onto it by sdy-sink-data-flow-edges
                o = _attr(op.attributes, RESULT_SHARDING_ORIGINS_ATTR)
            if o is not None:
                if isinstance(o, ir.ArrayAttr):
                    arr = ir.ArrayAttr(o)
                    return _origins(arr[result.result_number]) if result.result_number < len(arr) else {}
                return _origins(o)
            callee = self.callee_of.get(op)
            if callee is not None and callee.operation not in seen:
                returned = self._returned(callee)
                if result.result_number < len(returned):
                    return _on_axes_of(_result_sharding(op, result.result_number),
                                       self.origins_of(returned[result.result_number], seen | {callee.operation}))
            return {}
        func, index = self._func_of_argument(value)
        if func is None:
            return {}
        attrs = self._func_arg_attrs(func, "arg_attrs")
        d = ir.DictAttr(attrs[index]) if index < len(attrs) else None
        origins = _origins(_attr(d, SHARDING_ORIGINS_ATTR)) if d is not None else {}
        sites = self.call_sites.get(func.operation, [])
        if not origins and sites and func.operation not in seen:
            sharding = _attr(d, SHARDING_ATTR) if d is not None else None
            return _on_axes_of(str(sharding) if sharding is not None else "",
                               self.origins_of(sites[0].operands[index], seen | {func.operation}))
        return origins

    def _func_of_argument(self, value: ir.Value):
        """(func, argument number) when VALUE is an argument of a function, else (None, None)."""
        arg = ir.BlockArgument(value)
        owner = arg.owner.owner
        if owner is None or owner.operation.name != "func.func":
            return None, None
        func = next((f for f in self.funcs if f.operation == owner.operation), None)
        return func, arg.arg_number

    def _where(self, func_op: ir.Operation, start) -> str:
        """How a chain that starts in START names a step in FUNC_OP: nothing, or `@callee `."""
        return "" if func_op == start.operation else self._func_name(func_op.opview) + " "

    def _across_call(self, value: ir.Value, start) -> tuple[Hop, ir.Value, ir.Operation] | None:
        """Where VALUE came from through a call, as (hop, value, function of that value):
        a call's result from what the callee returns; a callee's argument from the
        operand of its first call. The hop names the call's function unless it is START."""
        if isinstance(value, ir.OpResult):
            result = ir.OpResult(value)
            call = result.owner.operation
            callee = self.callee_of.get(call)
            if callee is None:
                return None
            n = result.result_number
            returned = self._returned(callee)[n]
            where = self._where(self._func_of[call].operation, start)
            hop = Hop(None, f"{where}{self._name(value)} = call {self._func_name(callee)}",
                      _location_text(call.location, self.source_name),
                      f"result {n} of {self._func_name(callee)} ({self._name(returned)})",
                      f"result-{n} ({self._name(value)})")
            return hop, returned, callee.operation
        func, index = self._func_of_argument(value)
        sites = self.call_sites.get(func.operation, []) if func is not None else []
        if not sites:
            return None
        call = sites[0]
        operand = call.operands[index]
        label = f"call {self._func_name(func)}"
        if len(call.results):
            label = f"{self._name(call.results[0])} = {label}"
        caller = self._func_of[call].operation
        hop = Hop(None, self._where(caller, start) + label, _location_text(call.location, self.source_name),
                  f"operand-{index} ({self._name(operand)})",
                  f"argument {index} of {self._func_name(func)} ({self._name(value)})")
        return hop, operand, caller

    def _return_hops(self, func, axis: str, after: int) -> list[Hop]:
        """The step that moved AXIS from the returned value to the function's result.

        Shardy records it on result attribute 0 (so it is unambiguous only for
        a function with one result)."""
        attrs = self._func_arg_attrs(func, "res_attrs")
        edges = _attr(ir.DictAttr(attrs[0]), PROPAGATION_EDGES_ATTR) if attrs else None
        if edges is None:
            return []
        return [Hop(e.step, "return", "", f"{e.source} (returned value)", f"{t} (function result)")
                for e in parse_edges(str(edges)) if e.axis == axis and e.step > after for t in e.targets]

    def _origin_text(self, func, origin: str) -> str:
        key = (self._func_name(func), origin)
        text = self._origin_texts.get(key)
        if text is None:
            text = self._origin_texts[key] = self._describe_origin(func, origin)
        return text

    def _describe_origin(self, func, origin: str) -> str:
        m = re.fullmatch(r"(input|output): (\d+)", origin)
        if m and func not in self.entry_funcs and self.entry_funcs:
            func = self.entry_funcs[0]  # a callee's value: the user sharding is the entry function's
        fname = self._func_name(func)
        if m:
            i = int(m.group(2))
            if m.group(1) == "input":
                args = func.operation.regions[0].blocks[0].arguments
                jax = _jax_arg_name(args[i].location) if i < len(args) else ""
                return f"argument {i} of {fname}" + (f" (JAX name '{jax}')" if jax else "") + ", a user sharding"
            names = {v: k for k, v in self.jax_names().items()}
            jax = next((n for (f, k, w), n in names.items() if f == func and k == "result" and w == i), "")
            return f"result {i} of {fname}" + (f" (JAX name '{jax}')" if jax else "") + ", a user sharding"
        if origin == "self":
            return "its own user sharding"
        op = self.by_origin_name.get(origin.split("_input")[0].split("_output")[0])
        if op is not None:
            where = _location_text(op.location, self.source_name)
            return f"{origin}: {op.name}" + (f" at {where}" if where else "")
        return origin

    def _edges(self, op: ir.Operation) -> list[Edge]:
        edges = self._edges_of.get(op)
        if edges is None:
            edges = self._edges_of[op] = _edges(op)
        return edges

    def _describe(self, op, ref: str) -> str:
        kind, _, n = ref.partition("-")
        values = op.operands if kind == "operand" else op.results
        i = int(n)
        return f"{ref} ({self._name(values[i])})" if i < len(values) else ref

    def _chain(self, value: ir.Value, axis: str, func) -> list[Hop]:
        """The propagation steps that brought AXIS to VALUE (in FUNC), oldest first,
        through calls; a step in another function than FUNC names it (`@relu %2 = ...`)."""
        hops: list[Hop] = []
        seen = set()
        current, before = value, None
        where = ""  # the function the walk is in, when it is not FUNC
        while True:
            candidates = []
            if isinstance(current, ir.OpResult):
                result = ir.OpResult(current)
                op, target = result.owner.operation, f"result-{result.result_number}"
                for e in self._edges(op):
                    if e.axis == axis and target in e.targets:
                        candidates.append((e, op, target))
            for use in current.uses:
                user = use.owner
                target = f"operand-{use.operand_number}"
                for e in self._edges(user):
                    if e.axis == axis and target in e.targets:
                        candidates.append((e, user, target))
            candidates = [c for c in candidates if before is None or c[0].step < before]
            if not candidates:
                crossing = self._across_call(current, func)
                key = ("call", crossing[0].op, crossing[0].target) if crossing else None
                if crossing is None or key in seen:
                    return list(reversed(hops))
                seen.add(key)
                hop, current, into = crossing
                hops.append(hop)
                where = self._where(into, func)
                continue
            e, op, target = max(candidates, key=lambda c: c[0].step)
            if (e.step, id(op)) in seen:
                return list(reversed(hops))
            seen.add((e.step, id(op)))
            label = op.name
            if len(op.results):
                label = f"{self._name(op.results[0])} = {op.name}"
            hops.append(Hop(e.step, where + label, _location_text(op.location, self.source_name),
                            self._describe(op, e.source), self._describe(op, target)))
            kind, _, n = e.source.partition("-")
            current = (op.operands if kind == "operand" else op.results)[int(n)]
            before = e.step


def _on_axes_of(sharding: str, origins: dict[str, str]) -> dict[str, str]:
    """The ORIGINS (of another value, across a call) of the axes SHARDING has."""
    return {axis: origin for axis, origin in origins.items()
            if '"' + _AXIS_NAME.match(axis).group(0) + '"' in sharding}  # a sub-axis by its axis


def _result_sharding(op, index: int) -> str:
    """The sharding of OP's result INDEX, where the op registry says OP keeps it
    (`sdy.sharding`; an `sdy.all_reduce`'s `out_sharding`, ...), or ""."""
    slot = table().result_slot(op.name)
    name = slot.attr if slot is not None and slot.kind != "func-arg-attrs" else SHARDING_ATTR
    if name not in op.attributes:
        return ""
    attr = op.attributes[name]
    text = str(attr)
    if text.startswith("#sdy.sharding_per_value<"):
        from jaxlib.mlir.dialects import sdy
        shardings = sdy.TensorShardingPerValueAttr(attr).shardings
        return str(shardings[index]) if index < len(shardings) else ""
    return text if text.startswith("#sdy.sharding<") else ""


def report_data(stories: ModuleStories) -> dict:
    """Every value's whole story, chains included (the report builds chains in
    the page instead, from the edges: report.report_model)."""
    funcs = []
    for func in stories.funcs:
        values = []
        for f, kind, what in stories.all_values():
            if f is func:
                s = stories.story(f, kind, what)
                values.append({"key": s.key, "name": s.name, "what": s.what, "jax": s.jax_name,
                               "loc": s.location, "sharding": s.sharding,
                               "axes": [{"axis": a.axis, "origin": a.origin, "text": a.origin_text,
                                         "chain": [h.__dict__ for h in a.chain]} for a in s.axes]})
        funcs.append({"name": stories._func_name(func), "values": values})
    return {"mesh_axes": stories.mesh_axes, "funcs": funcs}
