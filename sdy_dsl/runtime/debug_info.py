"""Sharding debug info: where each axis of a sharding came from, and how it got there.

Two options of Shardy's sharding passes (sdy-apply-sharding-constraints, the
sdy-*-propagate passes) ask for it:

- `debug-sharding-origins`: for every value, which *user* sharding each of
  its axes came from. The user shardings are named after where they were
  written: `input: i` / `output: i` (argument / result i of a function),
  `constraint_<n>` (the n-th `sdy.sharding_constraint`), `mc_<n>_input: i` /
  `mc_<n>_output: i` (in/out sharding i of the n-th `sdy.manual_computation`;
  the op itself is named `mc_<n>`). Constraints and manual computations carry
  their name in `sdy.sharding_origin_name`. Each (value, axis) keeps the first
  origin recorded for it.
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
  result-0 -> [operand-0]}]}]>` on each op (steps ascending, axes by name,
  targets operands first), on function result attributes for updates of a
  function's results.

Rule files use the hooks at the end of this module (a pass's hook module
imports them); Python passes use `ShardingDebugInfo.of(ctx)` directly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from jaxlib.mlir import ir

from ..hooks import hook
from . import interfaces
from .sharding import AxisRef, Mesh, TensorSharding, codec
from .values import operation

ORIGIN_NAME_ATTR = "sdy.sharding_origin_name"
SHARDING_ORIGINS_ATTR = "sdy.sharding_origins"
PROPAGATION_EDGES_ATTR = "sdy.propagation_edges"
SELF = "self"

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


def propagation_edges_text(axis_edges: dict[AxisRef, list[PropagationEdge]]) -> str | None:
    """`#sdy.propagation_edges<...>` for one op's edges; None when there are none."""
    per_step: dict[int, dict[AxisRef, dict[EdgeNode, set[EdgeNode]]]] = {}
    for axis, edges in axis_edges.items():
        for edge in edges:
            per_step.setdefault(edge.step, {}).setdefault(axis, {}).setdefault(edge.source, set()).add(edge.target)
    if not per_step:
        return None
    steps = []
    for step in sorted(per_step):
        # By axis name only (sub-axes of one axis keep their recording order), as Shardy.
        entries = [f"{{{axis.text()} = {source.text()} -> "
                   f"[{', '.join(t.text() for t in sorted(targets, key=EdgeNode.sort_key))}]}}"
                   for axis, sources in sorted(per_step[step].items(), key=lambda item: item[0].name)
                   for source, targets in sources.items()]
        steps.append(f"{{step-{step} = [{', '.join(entries)}]}}")
    return f"#sdy.propagation_edges<[{', '.join(steps)}]>"


# --------------------------------------------------------------------------- IR helpers


def shardable_value(value: ir.Value) -> ir.Value:
    """The value whose sharding stands for `value`'s: the data-flow edge of
    `value`'s edge owner if there is one, else that owner (a while body
    argument -> the while result), else `value` itself."""
    owner = interfaces.edge_owner_of_target(value)
    if owner is None:
        return value
    edge = interfaces.data_flow_edge_of(owner)
    return edge.results[0] if edge is not None else owner


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


def set_func_attr(func, key: str, index: int, name: str, attr: ir.Attribute) -> None:
    """Set attribute `name` of argument (key "arg_attrs") / result ("res_attrs") `index`."""
    func = operation(func)
    dicts = _func_attr_dicts(func, key)
    entries = {n.name: n.attr for n in dicts[index]}
    entries[name] = attr
    dicts[index] = ir.DictAttr.get(entries)
    func.attributes[key] = ir.ArrayAttr.get(dicts)


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


# --------------------------------------------------------------------------- projections


def _factor_state(tensor) -> tuple:
    return (tuple(sorted((f, tuple(fs.axes), tuple(fs.overflow), fs.is_closed, fs.is_minor_most)
                         for f, fs in tensor.factors.items())),
            tuple(tensor.replicated), tuple(tensor.unreduced))


def projection_changed(old, new) -> bool:
    """Whether two sharding projections (propagation.projection.ShardingProjection) differ."""
    return any(_factor_state(a) != _factor_state(b)
               for a, b in zip(list(old.tensors()), list(new.tensors()), strict=True))


def _source_of(new_axes: list[AxisRef], factor: int, old_tensors, mesh: Mesh) -> int | None:
    """The first tensor whose old sharding of `factor` already had `new_axes` (or more)."""
    from .propagation.projection import NOT_A_PREFIX, axis_list_prefix_status
    for index, tensor in enumerate(old_tensors):
        fs = tensor.factors.get(factor)
        if fs is not None and axis_list_prefix_status(new_axes, fs.axes, mesh) != NOT_A_PREFIX:
            return index
    return None


def new_axis_edges(old, new, rule, mesh: Mesh, step: int) -> tuple[list[dict], list[dict]]:
    """Per operand and per result: {new axis: PropagationEdge} of an update from
    projection `old` to `new` under `rule` (an OpShardingRule)."""
    def visit(old_tensor, new_tensor, kind, index, mapping) -> dict:
        found: dict[AxisRef, PropagationEdge] = {}
        for dim_factors in mapping:
            previous = None
            for factor in dim_factors:
                old_axes = old_tensor.factors[factor].axes
                new_axes = new_tensor.factors[factor].axes
                if old_axes == new_axes or len(new_axes) < max(len(old_axes), 1):
                    continue  # unchanged (an update only adds axes)
                # Sub-axes of one axis split over a dimension's factors count as their merge.
                last = new_axes[-1]
                if previous is not None and previous.can_merge(last, mesh):
                    found.pop(previous, None)
                    last = previous.merge(last, mesh)
                previous = new_axes[-1]
                introduced = list(new_axes[:-1]) + [last]
                source = _source_of(new_axes, factor, old.operands, mesh)
                source_kind = OPERAND
                if source is None:
                    source, source_kind = _source_of(new_axes, factor, old.results, mesh), RESULT
                if source is None:
                    continue
                edge = PropagationEdge(EdgeNode(source_kind, source), EdgeNode(kind, index), step)
                # The last old axis may have grown (a sub-axis "x":(1)2 -> "x"), then the rest is new.
                if old_axes and old_axes[-1] != introduced[len(old_axes) - 1]:
                    found.setdefault(introduced[len(old_axes) - 1], edge)
                for axis in introduced[len(old_axes):]:
                    found.setdefault(axis, edge)
        return found

    operands = [visit(o, n, OPERAND, i, rule.operand_mappings[i])
                for i, (o, n) in enumerate(zip(old.operands, new.operands, strict=True))]
    results = [visit(o, n, RESULT, i, rule.result_mappings[i])
               for i, (o, n) in enumerate(zip(old.results, new.results, strict=True))]
    return operands, results


# --------------------------------------------------------------------------- the collector


class ShardingDebugInfo:
    """Origins and propagation edges collected during one pass run (Shardy's
    ShardingDebugMappings plus its action handler). The values and ops it
    holds must still exist when it is saved."""

    SCRATCH_KEY = "sharding_debug_info"

    def __init__(self, sharding_origins: bool = False, propagation_edges: bool = False):
        self.sharding_origins = sharding_origins
        self.propagation_edges = propagation_edges
        # shardable value -> {axis: origin name}, first writer wins
        self.origins: dict[ir.Value, dict[AxisRef, str]] = {}
        # op -> {axis: [edges]}; for a func.func, per result index instead
        self.op_edges: dict[ir.Operation, dict[AxisRef, list[PropagationEdge]]] = {}
        self.func_result_edges: dict[ir.Operation, dict[int, dict[AxisRef, list[PropagationEdge]]]] = {}
        self.step = 0
        self._name_counters: dict[str, int] = {}

    @classmethod
    def of(cls, ctx) -> "ShardingDebugInfo":
        """The collector of a pass run (in `ctx.scratch`), from the pass's debug options."""
        info = ctx.scratch.get(cls.SCRATCH_KEY)
        if info is None:
            info = ctx.scratch[cls.SCRATCH_KEY] = cls(
                bool(ctx.options.get(SHARDING_ORIGINS_OPTION, False)),
                bool(ctx.options.get(PROPAGATION_EDGES_OPTION, False)))
        return info

    @property
    def enabled(self) -> bool:
        return self.sharding_origins or self.propagation_edges

    # ------------------------------------------------------------------ origins
    def next_origin_name(self, prefix: str) -> str:
        """`<prefix>_0`, `<prefix>_1`, ...: one counter per prefix over the run."""
        n = self._name_counters.get(prefix, 0)
        self._name_counters[prefix] = n + 1
        return f"{prefix}_{n}"

    def record_origins(self, value: ir.Value, sharding: TensorSharding | None, origin: str) -> bool:
        """Every dimension axis of `sharding` came to `value` from `origin`, unless known.
        Returns whether an axis was new."""
        if sharding is None:
            return False
        axes = [axis for dim in sharding.dims for axis in dim.axes]
        if not axes:
            return False
        known = self.origins.setdefault(shardable_value(value), {})
        before = len(known)
        for axis in axes:
            known.setdefault(axis, origin)
        return len(known) > before

    def origin_of(self, value: ir.Value, axis: AxisRef, mesh: Mesh) -> str | None:
        """The origin of `axis` on `value`; for a split or merged sub-axis, that of the
        first recorded axis containing it or contained in it."""
        known = self.origins.get(shardable_value(value))
        if not known:
            return None
        if axis in known:
            return known[axis]
        return next((origin for other, origin in known.items()
                     if other.contains(axis, mesh) or axis.contains(other, mesh)), None)

    # ------------------------------------------------------------------ updates
    def record_update(self, op, operands: Sequence[ir.Value], results: Sequence[ir.Value],
                      rule, mesh: Mesh, old, new, changed: bool | None = None) -> bool:
        """One sharding update of `op`: projections `old` -> `new` of its `operands` and
        `results` under `rule` (an OpShardingRule). If it changed anything (`changed`,
        else compared), it is a new step: every newly introduced axis gets its edge and
        takes the origin its source had. Returns whether it was recorded."""
        if not self.enabled:
            return False
        if changed is None:
            changed = projection_changed(old, new)
        if not changed:
            return False
        op = operation(op)
        operand_edges, result_edges = new_axis_edges(old, new, rule, mesh, self.step)
        self.step += 1
        values = {OPERAND: list(operands), RESULT: list(results)}
        for kind, per_value in ((OPERAND, operand_edges), (RESULT, result_edges)):
            for index, axis_edges in enumerate(per_value):
                for axis, edge in axis_edges.items():
                    if self.propagation_edges:
                        if op.name == FUNC:
                            target = self.func_result_edges.setdefault(op, {}).setdefault(index, {})
                        else:
                            target = self.op_edges.setdefault(op, {})
                        target.setdefault(axis, []).append(edge)
                    if self.sharding_origins:
                        origin = self.origin_of(values[edge.source.kind][edge.source.index], axis, mesh)
                        if origin is not None:
                            self.origins.setdefault(shardable_value(values[kind][index]), {}) \
                                .setdefault(axis, origin)
        return True

    # ------------------------------------------------------------------ saving
    def save(self, module) -> None:
        """Write what was collected onto the IR (see the module docstring)."""
        module = operation(module)
        if self.sharding_origins:
            self._save_origins()
            override_origins_to_self(module)
        if self.propagation_edges:
            self._save_edges()

    def _save_origins(self) -> None:
        for value, known in self.origins.items():
            origins = ir.DictAttr.get({axis_key(a): ir.StringAttr.get(o) for a, o in known.items()})
            owner = _owning_op(value)
            func = _enclosing_func(owner)
            terminator = _body_terminator(func) if func is not None else None
            if terminator is not None:
                # The first use in use-list order, as Shardy.
                use = next((u for u in value.uses if operation(u.owner) == terminator), None)
                if use is not None:
                    set_func_attr(func, "res_attrs", use.operand_number, SHARDING_ORIGINS_ATTR, origins)
            is_block_arg = isinstance(value.owner, ir.Block)
            if owner.name == FUNC and is_block_arg:
                set_func_attr(owner, "arg_attrs", ir.BlockArgument(value).arg_number,
                              SHARDING_ORIGINS_ATTR, origins)
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

    def _save_edges(self) -> None:
        for op, axis_edges in self.op_edges.items():
            text = propagation_edges_text(axis_edges)
            if text is not None:
                op.attributes[PROPAGATION_EDGES_ATTR] = ir.Attribute.parse(text, context=op.context)
        for func, per_result in self.func_result_edges.items():
            for index, axis_edges in sorted(per_result.items()):
                text = propagation_edges_text(axis_edges)
                if text is not None:
                    set_func_attr(func, "res_attrs", index, PROPAGATION_EDGES_ATTR,
                              ir.Attribute.parse(text, context=func.context))


def override_origins_to_self(module) -> None:
    """Origins that name the holder itself read "self": a constraint's own name, a
    function's `input: i` on argument i and `output: i` on result i, a manual
    computation's `mc_<n>_input: i` / `mc_<n>_output: i` on the edge of body
    argument / result i."""
    module = operation(module)
    constraints, manual_computations = [], []

    def collect(op):
        if op.name == CONSTRAINT:
            constraints.append(op)
        elif op.name == MANUAL_COMPUTATION:
            manual_computations.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(collect)

    def override_op(op, own_name: str) -> None:
        if op is not None and SHARDING_ORIGINS_ATTR in op.attributes:
            op.attributes[SHARDING_ORIGINS_ATTR] = _with_self(op.attributes[SHARDING_ORIGINS_ATTR], own_name)

    for op in constraints:
        if ORIGIN_NAME_ATTR in op.attributes:
            override_op(op, ir.StringAttr(op.attributes[ORIGIN_NAME_ATTR]).value)
    for func in module.regions[0].blocks[0].operations:
        func = operation(func)
        if func.name != FUNC:
            continue
        for key, name_of in (("arg_attrs", input_origin), ("res_attrs", output_origin)):
            if key not in func.attributes:
                continue
            for index in range(len(ir.ArrayAttr(func.attributes[key]))):
                origins = func_attr(func, key, index, SHARDING_ORIGINS_ATTR)
                if origins is not None:
                    set_func_attr(func, key, index, SHARDING_ORIGINS_ATTR, _with_self(origins, name_of(index)))
    for mc in manual_computations:
        if ORIGIN_NAME_ATTR not in mc.attributes:
            continue
        name = ir.StringAttr(mc.attributes[ORIGIN_NAME_ATTR]).value
        for arg in interfaces.data_flow_block_arg_owners(mc):
            override_op(interfaces.data_flow_edge_of(arg), mc_input_origin(name, arg.arg_number))
        for result in mc.results:
            override_op(interfaces.data_flow_edge_of(result), mc_output_origin(name, result.result_number))


# --------------------------------------------------------------------------- rule-file hooks
#
# A pass with the debug options imports these by name into its hook module
# (see rules/import/apply_sharding_constraints.py), so that its rule file says
# what is recorded where: next_origin_name, input_origin, output_origin,
# mc_input_origin, mc_output_origin, func_result_sharding, record_origins,
# record_sharding_update, and the stage hook save_debug_info.


def _as_value(value_or_op) -> ir.Value | None:
    if value_or_op is None or isinstance(value_or_op, ir.Value):
        return value_or_op
    op = operation(value_or_op)
    return op.results[0] if len(op.results) == 1 else None


def _as_sharding(s) -> TensorSharding | None:
    if s is None or isinstance(s, TensorSharding):
        return s
    return codec.tensor_sharding(s)


@hook
def next_origin_name(ctx, prefix: str) -> str:
    """A fresh origin name: `<prefix>_0`, `<prefix>_1`, ... in the order of the calls."""
    return ShardingDebugInfo.of(ctx).next_origin_name(prefix)


@hook(name="input_origin")
def input_origin_hook(index: int) -> str:
    """`input: <index>`: the sharding of function argument `index`."""
    return input_origin(index)


@hook(name="output_origin")
def output_origin_hook(index: int) -> str:
    """`output: <index>`: the sharding of function result `index`."""
    return output_origin(index)


@hook(name="mc_input_origin")
def mc_input_origin_hook(mc_name: str, index: int) -> str:
    """`<mc_name>_input: <index>`: in-sharding `index` of manual computation `mc_name`."""
    return mc_input_origin(mc_name, index)


@hook(name="mc_output_origin")
def mc_output_origin_hook(mc_name: str, index: int) -> str:
    """`<mc_name>_output: <index>`: out-sharding `index` of manual computation `mc_name`."""
    return mc_output_origin(mc_name, index)


@hook(name="func_result_sharding")
def func_result_sharding_hook(func, index: int) -> TensorSharding | None:
    """The `sdy.sharding` of result `index` of a function, or none."""
    return func_result_sharding(func, index)


@hook
def record_origins(ctx, value, sharding, origin: str) -> None:
    """The dimension axes of `sharding` came to `value` (a value, or an op with one
    result: that result; none: nothing) from `origin`; earlier records win."""
    value = _as_value(value)
    if value is not None and ShardingDebugInfo.of(ctx).record_origins(value, _as_sharding(sharding), origin):
        ctx.mark_changed()  # a record counts as an effect (so --trace shows the rule)


@hook
def record_sharding_update(ctx, op, old_operand_shardings, old_result_shardings=None) -> None:
    """`op`'s operands (results) had `old_operand_shardings` (`old_result_shardings`;
    none: unchanged) before an update and have their current shardings now: record
    the update under `op`'s sharding rule (nothing if it has none)."""
    from .op_sharding_rule import OpShardingRule
    from .op_sharding_rule_registry import sharding_rule_for
    from .propagation.projection import ShardingProjection
    info = ShardingDebugInfo.of(ctx)
    op = operation(op)
    if not info.enabled:
        return
    rule = (OpShardingRule.from_attr(op.attributes["sdy.sharding_rule"])
            if "sdy.sharding_rule" in op.attributes else sharding_rule_for(op))
    if rule is None:
        return
    operands, results = list(op.operands), list(op.results)
    new_operands = [interfaces.sharding_of(v) for v in operands]
    new_results = [interfaces.sharding_of(v) for v in results]
    old_operands = [_as_sharding(s) for s in old_operand_shardings]
    old_results = new_results if old_result_shardings is None else [_as_sharding(s) for s in old_result_shardings]
    known = next((s for s in new_operands + new_results + old_operands + old_results if s is not None), None)
    if known is None:
        return
    mesh = ctx.meshes().mesh_of(known)
    old = ShardingProjection.build(old_operands, old_results, rule, mesh)
    new = ShardingProjection.build(new_operands, new_results, rule, mesh)
    info.record_update(op, operands, results, rule, mesh, old, new)


@hook
def save_debug_info(ctx) -> None:
    """Stage hook: write the collected origins / edges onto the module."""
    info = ShardingDebugInfo.of(ctx)
    if info.enabled:
        info.save(ctx.module)
        ctx.mark_changed()

