"""Sharding debug info: where each axis of a sharding came from, and how it got there.

Two options of Shardy's sharding passes ask for it, and sdy-apply-sharding-constraints
and the four sdy-*-propagate passes all record it here, the same way (the reference
shares one handler between them):

- `debug-sharding-origins`: for every value, which *user* sharding each of
  its axes came from. The user shardings are named after where they were
  written: `input: i` / `output: i` (argument / result i of a function),
  `constraint_<n>` (the n-th `sdy.sharding_constraint`), `mc_<n>_input: i` /
  `mc_<n>_output: i` (in/out sharding i of the n-th `sdy.manual_computation`;
  the op itself is named `mc_<n>`). Constraints and manual computations carry
  their name in `sdy.sharding_origin_name`. Each (value, axis) keeps the first
  origin recorded for it: `seed_origins` records the user shardings before the
  pass (constraints and their sharded operand, then manual computations, then
  functions), each update records the origin its source had.
- `debug-propagation-edge-sharding`: for every op, through which of its
  operands/results each new axis arrived. Each sharding update of an op that
  changes its sharding projection (under the op's sharding rule) is one
  *step* (numbered from 0 in the order they happen); an axis that appears on
  operand/result `t` and was already on operand/result `s` gives the edge
  `s -> t` at that step.

`ShardingDebugInfo` collects both during a pass run and `save`s them at the
end:

- `sdy.sharding_origins = {axis = "origin", ...}` (axis refs without quotes:
  `a`, `"c:(1)2"`) on the op that holds the value's sharding: a function
  argument / result attribute, the `sdy.sharding_constraint` or
  `sdy.data_flow_edge` itself, or, on any other op, an array with one
  dictionary per result. A value returned by its function also gives the
  function's result attribute. Origins naming the holder itself read `self`.
- `sdy.propagation_edges = #sdy.propagation_edges<[{step-N = [{"a" =
  result-0 -> [operand-0]}]}]>` on each op (steps ascending, axes by name and
  sub-axis, one source per axis and step, targets operands first); an edge
  already recorded for the same axis, source and target is not repeated at a
  later step. A function's result step (the returned value as operand 0, the
  result as result 0) goes to its result attribute 0, whichever result it was.

Quirk kept from the reference: an axis whose source has no recorded origin
(a sharding the input already had on an op result, or one set through a
sharding group) gets the origin `": 0"` (the reference reads a missing map
entry there).

Python passes create a `ShardingDebugInfo` themselves (the propagation engine
passes its own view of the shardings, see `__init__`); rule files call the
hooks of sdy_dsl/interp/debug_info_hooks.py (a pass's hook module imports them).
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Callable, Sequence

from jaxlib.mlir import ir

from . import interfaces
from .op_sharding_rule import OpShardingRule
from .sharding_projection import ShardingProjection
from .sharding import NOT_A_PREFIX, AxisRef, Mesh, TensorSharding, axis_list_prefix_status, codec
from .values import operation


ORIGIN_NAME_ATTR = "sdy.sharding_origin_name"
SHARDING_ORIGINS_ATTR = "sdy.sharding_origins"
PROPAGATION_EDGES_ATTR = "sdy.propagation_edges"
# Where sdy-sink-data-flow-edges keeps an edge owner's debug info (one entry per result).
RESULT_SHARDING_ORIGINS_ATTR = "sdy.result_sharding_origins"
RESULT_PROPAGATION_EDGES_ATTR = "sdy.result_propagation_edges"
SELF = "self"
UNKNOWN_ORIGIN = ": 0"  # what the reference prints for a missing origin

SHARDING_ORIGINS_OPTION = "debug-sharding-origins"
PROPAGATION_EDGES_OPTION = "debug-propagation-edge-sharding"

CONSTRAINT = "sdy.sharding_constraint"
MANUAL_COMPUTATION = "sdy.manual_computation"
FUNC = "func.func"

# --------------------------------------------------------------------------- origin names


def input_origin(index: int) -> str:
    return f"input: {index}"


def output_origin(index: int) -> str:
    return f"output: {index}"


def mc_input_origin(mc_name: str, index: int) -> str:
    return f"{mc_name}_input: {index}"


def mc_output_origin(mc_name: str, index: int) -> str:
    return f"{mc_name}_output: {index}"


def axis_key(axis: AxisRef) -> str:
    """The dictionary key of an axis: its ref without quotes (`a`, `c:(1)2`)."""
    return axis.text().replace('"', "")


# --------------------------------------------------------------------------- edges

OPERAND, RESULT = "operand", "result"


@dataclass(frozen=True, slots=True)
class EdgeNode:
    """Operand or result `index` of the op an update happened on."""
    kind: str  # OPERAND or RESULT
    index: int

    def text(self) -> str:
        return f"{self.kind}-{self.index}"

    def sort_key(self) -> tuple:
        return (self.kind != OPERAND, self.index)


@dataclass(frozen=True, slots=True)
class PropagationEdge:
    source: EdgeNode
    target: EdgeNode
    step: int


def _axis_order(axis: AxisRef) -> tuple:
    return (axis.name, axis.pre_size, axis.sub_size or 0)


def propagation_edges_text(axis_edges: dict[AxisRef, list[PropagationEdge]]) -> str | None:
    """`#sdy.propagation_edges<...>` for one op's edges; None when there are none."""
    # step -> axis -> (its first source, the targets it reached from there)
    per_step: dict[int, dict[AxisRef, tuple[EdgeNode, set[EdgeNode]]]] = {}
    for axis, edges in axis_edges.items():
        for edge in edges:
            source, targets = per_step.setdefault(edge.step, {}).setdefault(axis, (edge.source, set()))
            if edge.source == source:  # one source per axis and step, as the reference
                targets.add(edge.target)
    if not per_step:
        return None
    steps = []
    for step in sorted(per_step):
        entries = [f"{{{axis.text()} = {source.text()} -> "
                   f"[{', '.join(t.text() for t in sorted(targets, key=EdgeNode.sort_key))}]}}"
                   for axis, (source, targets) in sorted(per_step[step].items(),
                                                         key=lambda item: _axis_order(item[0]))]
        steps.append(f"{{step-{step} = [{', '.join(entries)}]}}")
    return f"#sdy.propagation_edges<[{', '.join(steps)}]>"


# --------------------------------------------------------------------------- IR helpers


def _owning_op(value: ir.Value) -> ir.Operation:
    owner = value.owner
    return operation(owner.owner) if isinstance(owner, ir.Block) else operation(owner)


def _enclosing_func(op: ir.Operation) -> ir.Operation | None:
    while op.name != FUNC:
        parent = op.parent
        if parent is None:
            return None
        op = operation(parent)
    return op


def _body_terminator(func: ir.Operation) -> ir.Operation | None:
    if not len(func.regions) or not len(func.regions[0].blocks):
        return None
    ops = func.regions[0].blocks[0].operations
    return operation(ops[len(ops) - 1]) if len(ops) else None


def _func_attr_dicts(func: ir.Operation, key: str) -> list[ir.DictAttr]:
    if key in func.attributes:
        return [ir.DictAttr(d) for d in ir.ArrayAttr(func.attributes[key])]
    ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    count = len(ftype.inputs) if key == "arg_attrs" else len(ftype.results)
    return [ir.DictAttr.get({}) for _ in range(count)]


def func_attr(func, key: str, index: int, name: str) -> ir.Attribute | None:
    """Attribute `name` of argument (key "arg_attrs") / result ("res_attrs") `index`."""
    func = operation(func)
    if key not in func.attributes:
        return None
    d = ir.DictAttr(ir.ArrayAttr(func.attributes[key])[index])
    return d[name] if name in d else None


def set_func_attrs(func, key: str, per_index: dict[int, dict[str, ir.Attribute]]) -> None:
    """Set attributes of arguments (key "arg_attrs") / results ("res_attrs"), by index,
    rebuilding the array once: once per attribute would be quadratic in their number."""
    func = operation(func)
    dicts = _func_attr_dicts(func, key)
    for index, attrs in per_index.items():
        entries = {n.name: n.attr for n in dicts[index]}
        entries.update(attrs)
        dicts[index] = ir.DictAttr.get(entries)
    func.attributes[key] = ir.ArrayAttr.get(dicts)


def _func_name(func: ir.Operation) -> str:
    return ir.StringAttr(func.attributes["sym_name"]).value


class _FuncAttrWrites:
    """Argument / result attributes gathered for `set_func_attrs`, one call per function
    and key. Functions go by name: an ir.Operation's hash changes with its attributes."""

    def __init__(self):
        self.pending: dict[str, tuple[ir.Operation, dict[str, dict[int, dict[str, ir.Attribute]]]]] = {}

    def set(self, func: ir.Operation, key: str, index: int, name: str, attr: ir.Attribute) -> None:
        _, per_key = self.pending.setdefault(_func_name(func), (func, {}))
        per_key.setdefault(key, {}).setdefault(index, {})[name] = attr

    def write(self) -> None:
        for func, per_key in self.pending.values():
            for key, per_index in per_key.items():
                set_func_attrs(func, key, per_index)


def func_result_sharding(func, index: int) -> TensorSharding | None:
    attr = func_attr(func, "res_attrs", index, "sdy.sharding")
    return codec.tensor_sharding(attr) if attr is not None else None


def _with_self(origins: ir.Attribute, own_name: str) -> ir.Attribute:
    """A `sdy.sharding_origins` dictionary with `own_name` replaced by "self"."""
    entries = {n.name: n.attr for n in ir.DictAttr(origins)}
    for key, value in entries.items():
        if isinstance(value, ir.StringAttr) and value.value == own_name:
            entries[key] = ir.StringAttr.get(SELF)
    return ir.DictAttr.get(entries)


def _ops_named(root: ir.Operation, name: str) -> list[ir.Operation]:
    """The ops called `name` under `root`, in post-order (the reference's walk)."""
    found = []

    def visit(op):
        if op.name == name:
            found.append(operation(op))
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.POST_ORDER)
    return found


def _funcs(module: ir.Operation) -> list[ir.Operation]:
    return [operation(op) for op in module.regions[0].blocks[0].operations
            if operation(op).name == FUNC]


# --------------------------------------------------------------------------- projections

# The axes of every factor of every operand / result of a sharding projection:
# what an update is compared against (the projection itself changes in place).
FactorAxes = tuple[list[dict[int, tuple[AxisRef, ...]]], list[dict[int, tuple[AxisRef, ...]]]]


def factor_axes(projection: ShardingProjection) -> FactorAxes:
    return ([{f: tuple(fs.axes) for f, fs in t.factors.items()} for t in projection.operands],
            [{f: tuple(fs.axes) for f, fs in t.factors.items()} for t in projection.results])


def _factor_state(tensor) -> tuple:
    return (tuple(sorted((f, tuple(fs.axes), tuple(fs.overflow), fs.is_closed, fs.is_minor_most)
                         for f, fs in tensor.factors.items())),
            tuple(tensor.replicated), tuple(tensor.unreduced))


def projection_changed(old: ShardingProjection, new: ShardingProjection) -> bool:
    """Whether two sharding projections differ (in anything, not only axes)."""
    return any(_factor_state(a) != _factor_state(b)
               for a, b in zip(list(old.tensors()), list(new.tensors()), strict=True))


def _source_of(new_axes: tuple[AxisRef, ...], factor: int, old: FactorAxes,
               mesh: Mesh) -> EdgeNode | None:
    """The first operand, else result, whose old axes of `factor` start with `new_axes`."""
    for kind, tensors in ((OPERAND, old[0]), (RESULT, old[1])):
        for index, factors in enumerate(tensors):
            axes = factors.get(factor)
            if axes is not None and axis_list_prefix_status(new_axes, axes, mesh) != NOT_A_PREFIX:
                return EdgeNode(kind, index)
    return None


def new_axis_edges(old: FactorAxes, new: ShardingProjection, rule: OpShardingRule, mesh: Mesh,
                   step: int) -> tuple[list[dict[AxisRef, PropagationEdge]], list[dict[AxisRef, PropagationEdge]]]:
    """Per operand and per result: {new axis: PropagationEdge} of an update from
    `old` (`factor_axes` of the projection before) to projection `new` under `rule`."""
    def visit(old_factors, tensor, kind, index, mapping) -> dict:
        found: dict[AxisRef, PropagationEdge] = {}
        for dim_factors in mapping:
            previous = None
            for factor in dim_factors:
                old_axes = old_factors.get(factor, ())
                factor_sharding = tensor.factors.get(factor)
                new_axes = tuple(factor_sharding.axes) if factor_sharding is not None else ()
                if old_axes == new_axes or len(new_axes) < max(len(old_axes), 1):
                    continue  # unchanged (an update only adds axes)
                # Sub-axes of one axis split over a dimension's factors count as their merge.
                last = new_axes[-1]
                if previous is not None and previous.can_merge(last, mesh):
                    found.pop(previous, None)
                    last = previous.merge(last, mesh)
                previous = new_axes[-1]
                introduced = new_axes[:-1] + (last,)
                source = _source_of(new_axes, factor, old, mesh)
                if source is None:
                    continue
                edge = PropagationEdge(source, EdgeNode(kind, index), step)
                # The last old axis may have grown (a sub-axis "x":(1)2 -> "x"), then the rest is new.
                if old_axes and old_axes[-1] != introduced[len(old_axes) - 1]:
                    found.setdefault(introduced[len(old_axes) - 1], edge)
                for axis in introduced[len(old_axes):]:
                    found.setdefault(axis, edge)
        return found

    operands = [visit(old[0][i], tensor, OPERAND, i, rule.operand_mappings[i])
                for i, tensor in enumerate(new.operands)]
    results = [visit(old[1][i], tensor, RESULT, i, rule.result_mappings[i])
               for i, tensor in enumerate(new.results)]
    return operands, results


# --------------------------------------------------------------------------- the collector


class ShardingDebugInfo:
    """Origins and propagation edges collected during one pass run (Shardy's
    ShardingDebugMappings plus its action handler). The values and ops it
    holds must still exist when it is saved (or be `forget`-ten)."""

    SCRATCH_KEY = "sharding_debug_info"

    def __init__(self, sharding_origins: bool = False, propagation_edges: bool = False, *,
                 shardable_value: Callable[[ir.Value], ir.Value | None] = interfaces.shardable_value,
                 sharding_of: Callable[[ir.Value], TensorSharding | None] = interfaces.sharding_through_edge):
        """`shardable_value(v)`: the value that holds `v`'s sharding (None: none can);
        `sharding_of(v)`: `v`'s sharding before the pass. Both read the IR by
        default; a pass that keeps shardings elsewhere while it runs passes its own."""
        self.sharding_origins = sharding_origins
        self.propagation_edges = propagation_edges
        self.shardable_value = shardable_value
        self.sharding_of = sharding_of
        # shardable value -> {axis: origin name}, first writer wins
        self.origins: dict[ir.Value, dict[AxisRef, str]] = {}
        # (op, name) of every constraint / manual computation, written when saving. A list:
        # a rule-file pass edits these ops' attributes, which changes an ir.Operation's hash.
        self.origin_names: list[tuple[ir.Operation, str]] = []
        # op -> {axis: [edges]}; for a func.func, per result index instead. Ops as keys are
        # only looked up (by `forget`) in the propagation engine, which writes no attribute
        # until the end.
        self.op_edges: dict[ir.Operation, dict[AxisRef, list[PropagationEdge]]] = {}
        self.func_result_edges: dict[ir.Operation, dict[int, dict[AxisRef, list[PropagationEdge]]]] = {}
        self.step = 0

    @property
    def enabled(self) -> bool:
        return self.sharding_origins or self.propagation_edges

    # ------------------------------------------------------------------ origins
    def seed_origins(self, module) -> None:
        """Before the pass: name the constraints and manual computations and record
        the user shardings, in the reference's order (the first record of an axis
        wins): constraints (their result, and their operand if sharded), manual
        computations (the edges of their body arguments, their sharded operands,
        the edges of their results), then function arguments and returned values."""
        module = operation(module)
        if self.propagation_edges:
            # Steps continue after those an earlier pass numbered (the
            # reference's maximumPropagationStep + 1).
            self.step = _maximum_step(module) + 1
        if not self.sharding_origins:
            return
        for n, constraint in enumerate(_ops_named(module, CONSTRAINT)):
            name = f"constraint_{n}"
            self.origin_names.append((constraint, name))
            self.record_origins(constraint.results[0],
                                codec.tensor_sharding(constraint.attributes["sharding"]), name)
            operand = constraint.operands[0]
            self.record_origins(operand, self.sharding_of(operand), name)
        for n, mc in enumerate(_ops_named(module, MANUAL_COMPUTATION)):
            name = f"mc_{n}"
            self.origin_names.append((mc, name))
            body_args = mc.regions[0].blocks[0].arguments
            for i, sharding in enumerate(codec.sharding_per_value(mc.attributes["in_shardings"])):
                edge = interfaces.data_flow_edge_of(body_args[i])
                if edge is None:
                    continue
                self.record_origins(edge.results[0], sharding, mc_input_origin(name, i))
                self.record_origins(mc.operands[i], self.sharding_of(mc.operands[i]),
                                    mc_input_origin(name, i))
            for i, sharding in enumerate(codec.sharding_per_value(mc.attributes["out_shardings"])):
                edge = interfaces.data_flow_edge_of(mc.results[i])
                if edge is not None:
                    self.record_origins(edge.results[0], sharding, mc_output_origin(name, i))
        for func in _funcs(module):
            terminator = _body_terminator(func)
            if terminator is None:
                continue
            for arg in func.regions[0].blocks[0].arguments:
                self.record_origins(arg, self.sharding_of(arg), input_origin(arg.arg_number))
            for i, value in enumerate(terminator.operands):
                self.record_origins(value, func_result_sharding(func, i), output_origin(i))

    def record_origins(self, value: ir.Value, sharding: TensorSharding | None, origin: str) -> None:
        """Every dimension axis of `sharding` came to `value` from `origin`, unless known."""
        if sharding is None:
            return
        value = self.shardable_value(value)
        if value is None:
            return
        for dim in sharding.dims:
            for axis in dim.axes:
                self.origins.setdefault(value, {}).setdefault(axis, origin)

    def origin_of(self, value: ir.Value, axis: AxisRef, mesh: Mesh) -> str:
        """The origin of `axis` on `value`; for a split or merged sub-axis, that of the
        first recorded axis containing it or contained in it; else UNKNOWN_ORIGIN."""
        known = self.origins.get(self.shardable_value(value))
        if not known:
            return UNKNOWN_ORIGIN
        if axis in known:
            return known[axis]
        return next((origin for other, origin in known.items()
                     if other.contains(axis, mesh) or axis.contains(other, mesh)), UNKNOWN_ORIGIN)

    # ------------------------------------------------------------------ updates
    snapshot = staticmethod(factor_axes)

    def record_update(self, op: ir.Operation, operands: Sequence[ir.Value], results: Sequence[ir.Value],
                      rule: OpShardingRule, mesh: Mesh, old: FactorAxes, new: ShardingProjection) -> None:
        """One sharding update of `op` that changed its sharding projection (the caller
        knows: the propagation engine from the tensors it updated, a rule file by
        `projection_changed`): from `old` (`snapshot` of the projection before) to
        projection `new` of its `operands` and `results` under `rule`. It is the next
        step: every newly introduced axis gets its edge and takes the origin its source had."""
        op = operation(op)
        operand_edges, result_edges = new_axis_edges(old, new, rule, mesh, self.step)
        self.step += 1
        values = {OPERAND: operands, RESULT: results}
        for kind, per_value in ((OPERAND, operand_edges), (RESULT, result_edges)):
            for index, axis_edges in enumerate(per_value):
                for axis, edge in axis_edges.items():
                    if self.propagation_edges:
                        self._add_edge(op, index, axis, edge)
                    if self.sharding_origins:
                        target = self.shardable_value(values[kind][index])
                        if target is None:
                            continue
                        known = self.origins.setdefault(target, {})
                        if axis not in known:
                            source = values[edge.source.kind][edge.source.index]
                            known[axis] = self.origin_of(source, axis, mesh)

    def _add_edge(self, op: ir.Operation, index: int, axis: AxisRef, edge: PropagationEdge) -> None:
        # Like the reference, a function's edges go by target index; its result steps
        # (one per result: the returned value as operand 0, the result as result 0)
        # therefore all go to result 0.
        if op.name == FUNC:
            table = self.func_result_edges.setdefault(op, {}).setdefault(index, {})
        else:
            table = self.op_edges.setdefault(op, {})
        edges = table.setdefault(axis, [])
        # The same source -> target of an axis at a later step is not repeated (as the reference).
        if not any(e.source == edge.source and e.target == edge.target for e in edges):
            edges.append(edge)

    def forget(self, op) -> None:
        """`op` is going away (its debug info with it)."""
        op = operation(op)
        self.op_edges.pop(op, None)
        if op.name in (CONSTRAINT, MANUAL_COMPUTATION):  # the only named ops: keep forgetting others O(1)
            self.origin_names = [(o, n) for o, n in self.origin_names if o != op]
        for value in op.results:
            self.origins.pop(value, None)

    # ------------------------------------------------------------------ saving
    def save(self, module) -> None:
        """Write what was collected onto the IR (see the module docstring)."""
        module = operation(module)
        if self.sharding_origins:
            for op, name in self.origin_names:
                op.attributes[ORIGIN_NAME_ATTR] = ir.StringAttr.get(name)
            self._save_origins()
            override_origins_to_self(module)
        if self.propagation_edges:
            self._save_edges()

    def _save_origins(self) -> None:
        func_writes = _FuncAttrWrites()
        terminators: dict[str, ir.Operation | None] = {}  # by function name; finding one is O(its ops)
        for value, known in self.origins.items():
            origins = ir.DictAttr.get({axis_key(a): ir.StringAttr.get(o) for a, o in known.items()})
            owner = _owning_op(value)
            func = _enclosing_func(owner)
            if func is not None:
                func_name = _func_name(func)
                if func_name not in terminators:
                    terminators[func_name] = _body_terminator(func)
                terminator = terminators[func_name]
                # The first use in use-list order, as Shardy.
                use = next((u for u in value.uses if operation(u.owner) == terminator), None)
                if use is not None:
                    func_writes.set(func, "res_attrs", use.operand_number, SHARDING_ORIGINS_ATTR, origins)
            is_block_arg = isinstance(value.owner, ir.Block)
            if owner.name == FUNC and is_block_arg:
                func_writes.set(owner, "arg_attrs", ir.BlockArgument(value).arg_number, SHARDING_ORIGINS_ATTR, origins)
                continue
            if owner.name in (CONSTRAINT, interfaces.DATA_FLOW_EDGE):
                owner.attributes[SHARDING_ORIGINS_ATTR] = origins
                continue
            # Any other op: one dictionary per result. A body argument without an
            # edge (e.g. of a named computation) has no result to go to: the op
            # only gets its (empty) dictionaries, as in the reference.
            if SHARDING_ORIGINS_ATTR in owner.attributes:
                per_result = list(ir.ArrayAttr(owner.attributes[SHARDING_ORIGINS_ATTR]))
            else:
                per_result = [ir.DictAttr.get({}) for _ in range(len(owner.results))]
            if not is_block_arg:
                per_result[ir.OpResult(value).result_number] = origins
            owner.attributes[SHARDING_ORIGINS_ATTR] = ir.ArrayAttr.get(per_result)
        func_writes.write()

    def _save_edges(self) -> None:
        # Iterate, never look up: an ir.Operation's hash changes with its attributes.
        for op, axis_edges in self.op_edges.items():
            text = propagation_edges_text(axis_edges)
            if text is not None:
                op.attributes[PROPAGATION_EDGES_ATTR] = ir.Attribute.parse(text, context=op.context)
        for func, per_result in self.func_result_edges.items():
            per_index = {}
            for index, axis_edges in per_result.items():
                text = propagation_edges_text(axis_edges)
                if text is not None:
                    per_index[index] = {PROPAGATION_EDGES_ATTR: ir.Attribute.parse(text, context=func.context)}
            if per_index:
                set_func_attrs(func, "res_attrs", per_index)


def override_origins_to_self(module) -> None:
    """Origins that name the holder itself read "self": a constraint's own name, a
    function's `input: i` on argument i and `output: i` on result i, a manual
    computation's `mc_<n>_input: i` / `mc_<n>_output: i` on the edge of body
    argument / result i."""
    module = operation(module)

    def override_op(op, own_name: str) -> None:
        if op is not None and SHARDING_ORIGINS_ATTR in op.attributes:
            op.attributes[SHARDING_ORIGINS_ATTR] = _with_self(op.attributes[SHARDING_ORIGINS_ATTR], own_name)

    for op in _ops_named(module, CONSTRAINT):
        if ORIGIN_NAME_ATTR in op.attributes:
            override_op(op, ir.StringAttr(op.attributes[ORIGIN_NAME_ATTR]).value)
    for func in _funcs(module):
        for key, name_of in (("arg_attrs", input_origin), ("res_attrs", output_origin)):
            if key not in func.attributes:
                continue
            per_index = {}
            for index, attrs in enumerate(ir.ArrayAttr(func.attributes[key])):
                attrs = ir.DictAttr(attrs)
                if SHARDING_ORIGINS_ATTR in attrs:
                    per_index[index] = {SHARDING_ORIGINS_ATTR: _with_self(attrs[SHARDING_ORIGINS_ATTR], name_of(index))}
            if per_index:
                set_func_attrs(func, key, per_index)
    for mc in _ops_named(module, MANUAL_COMPUTATION):
        if ORIGIN_NAME_ATTR not in mc.attributes:
            continue
        name = ir.StringAttr(mc.attributes[ORIGIN_NAME_ATTR]).value
        for arg in interfaces.data_flow_block_arg_owners(mc):
            override_op(interfaces.data_flow_edge_of(arg), mc_input_origin(name, arg.arg_number))
        for result in mc.results:
            override_op(interfaces.data_flow_edge_of(result), mc_output_origin(name, result.result_number))


_STEP = re.compile(r"step-(\d+)")


def _maximum_step(module: ir.Operation) -> int:
    """The largest step number in the module's ops' `sdy.propagation_edges` (-1: none)."""
    found = [-1]

    def visit(op):
        attrs = op.attributes
        if PROPAGATION_EDGES_ATTR in attrs:
            found.extend(int(m) for m in _STEP.findall(str(attrs[PROPAGATION_EDGES_ATTR])))
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return max(found)
