"""Debug bookkeeping of propagation: `debug-sharding-origins` and
`debug-propagation-edge-sharding` (the reference's source-sharding handler).

Each propagation step that changes a sharding is numbered (one counter per
pass run, across every nested level). For that step, the old and new
sharding projections are compared factor by factor: every axis a tensor
gained is attributed to the first operand (else result) whose old sharding of
the factor already had the factor's new axes. From that:

- origins: each value maps axis -> where the axis first came from. Seeded
  before propagation from the user's shardings: constraints ("constraint_N",
  also their sharded operand), manual computations ("mc_N_input: i" /
  "mc_N_output: i", also the sharded operand of an input), func arguments
  ("input: i") and the values returned as func results ("output: i"). A
  gained axis takes the origin of the same axis on its source value (first
  writer wins). Saved as `sdy.sharding_origins` on the owner (a dictionary
  on constraints, data-flow edges, func arguments and results; a per-result
  array elsewhere), with the value's own origin written as "self". A value
  returned twice gives its dictionary to one func result: that of its first
  use in use-list order (the last return operand).
- edges: each op keeps axis -> [(source, target, step)], saved as
  `sdy.propagation_edges`. Func result steps (the func as "op", operand = the
  returned value, result = the func result) are all kept on result 0, an
  edge already recorded for an axis (same source and target) is not added
  again.

Quirk kept from the reference: an axis whose source value has no recorded
origin (e.g. a sharding on an op result in the input, or one set through a
sharding group) gets the origin ": 0" (the reference reads a missing map
entry there: it prints ": 0", or crashes).
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..sharding import AxisRef, Mesh, codec
from .projection import NOT_A_PREFIX, axis_list_prefix_status

ORIGINS_ATTR = "sdy.sharding_origins"
ORIGIN_NAME_ATTR = "sdy.sharding_origin_name"
EDGES_ATTR = "sdy.propagation_edges"
SELF = "self"
UNKNOWN_ORIGIN = ": 0"  # what the reference prints for a missing origin

OPERAND, RESULT = 0, 1  # edge node kinds, in the reference's sort order
_NODE_NAMES = ("operand", "result")


def axis_key(axis: AxisRef) -> str:
    """An axis as a dictionary key: `a`, `c:(1)4` (no quotes)."""
    if axis.sub_size is None:
        return axis.name
    return f"{axis.name}:({axis.pre_size}){axis.sub_size}"


def _walk_post_order(root: ir.Operation, name: str) -> list[ir.Operation]:
    found = []

    def visit(op):
        if op.name == name:
            found.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.POST_ORDER)
    return found


def _terminator(func: ir.Operation) -> ir.Operation | None:
    blocks = func.regions[0].blocks
    if len(blocks) == 0:
        return None
    ops = blocks[0].operations
    return ops[len(ops) - 1].operation


def _enclosing_func(op: ir.Operation) -> ir.Operation | None:
    while op is not None:
        if op.name == "func.func":
            return op
        parent = op.parent
        op = parent.operation if parent is not None else None
    return None


class PropagationDebugInfo:
    """Records origins and/or edges of one propagation pass run, then saves them."""

    def __init__(self, engine, origins: bool, edges: bool):
        self.engine = engine
        self.origins_on = origins
        self.edges_on = edges
        self.step = 0
        # value (shardable) -> {AxisRef: origin text}, insertion ordered.
        self.origins: dict[ir.Value, dict[AxisRef, str]] = {}
        # value -> the origin text that reads "self" on that value's own dictionary.
        self.self_names: dict[ir.Value, str] = {}
        # op -> {AxisRef: [edge]}, edge = (source kind, index, target kind, index, step).
        self.op_edges: dict[ir.Operation, dict[AxisRef, list]] = {}
        self.func_edges: dict[ir.Operation, dict[AxisRef, list]] = {}
        # (op, name) of every constraint and manual computation, written when saving:
        # no attribute may change while propagating (ops are dict keys there).
        self.origin_names: list[tuple[ir.Operation, str]] = []

    # ------------------------------------------------------------- before propagation

    def prepare(self) -> None:
        if not self.origins_on:
            return
        engine = self.engine
        module = engine.module
        for index, constraint in enumerate(_walk_post_order(module, "sdy.sharding_constraint")):
            name = f"constraint_{index}"
            result = constraint.results[0]
            self._seed(codec.tensor_sharding(constraint.attributes["sharding"]), name, result)
            self.self_names[engine.shardable_value(result)] = name
            operand = constraint.operands[0]
            self._seed(engine.get(operand), name, operand)
            self.origin_names.append((constraint, name))
        dataflow = engine.dataflow
        for index, mc in enumerate(_walk_post_order(module, "sdy.manual_computation")):
            prefix = f"mc_{index}"
            attrs = mc.attributes
            in_shardings = codec.sharding_per_value(attrs["in_shardings"])
            body_args = mc.regions[0].blocks[0].arguments
            for i, sharding in enumerate(in_shardings):
                edge = dataflow.edge_of_target(body_args[i])
                if edge is None:
                    continue
                name = f"{prefix}_input: {i}"
                self._seed(sharding, name, edge.results[0])
                self.self_names[edge.results[0]] = name
                for source in dataflow.sources(edge)[:1]:
                    self._seed(engine.get(source), name, source)
            out_shardings = codec.sharding_per_value(attrs["out_shardings"])
            for i, sharding in enumerate(out_shardings):
                edge = dataflow.edge_of_target(mc.results[i])
                if edge is None:
                    continue
                name = f"{prefix}_output: {i}"
                self._seed(sharding, name, edge.results[0])
                self.self_names[edge.results[0]] = name
            self.origin_names.append((mc, prefix))
        # Last: a constraint or manual computation on a func argument wins.
        for func in engine.funcs:
            blocks = func.regions[0].blocks
            if len(blocks) == 0:
                continue
            for arg in blocks[0].arguments:
                self._seed(engine.get_func_arg(func, arg.arg_number), f"input: {arg.arg_number}",
                           arg)
            for i, value in enumerate(_terminator(func).operands):
                self._seed(engine.get_func_result(func, i), f"output: {i}", value)

    def _seed(self, sharding, name: str, value: ir.Value) -> None:
        if sharding is None:
            return
        value = self.engine.shardable_value(value)
        if value is None:
            return
        for dim in sharding.dims:
            for axis in dim.axes:
                self.origins.setdefault(value, {}).setdefault(axis, name)

    # ------------------------------------------------------------- one step

    @staticmethod
    def snapshot(projection) -> tuple[list, list]:
        """The factor axes of every tensor, before the step changes them."""
        return ([{f: tuple(fs.axes) for f, fs in t.factors.items()} for t in projection.operands],
                [{f: tuple(fs.axes) for f, fs in t.factors.items()} for t in projection.results])

    def record(self, op: ir.Operation, operands, results, rule, mesh: Mesh, old,
               projection) -> None:
        """Called after a step that updated a sharding (`old` from `snapshot`)."""
        old_operands, old_results = old
        step = self.step
        self.step += 1
        per_operand = [self._gained_axes(old_operands[i], t, rule.operand_mappings[i], OPERAND, i,
                                         old, mesh, step)
                       for i, t in enumerate(projection.operands)]
        per_result = [self._gained_axes(old_results[i], t, rule.result_mappings[i], RESULT, i,
                                        old, mesh, step)
                      for i, t in enumerate(projection.results)]
        is_func = op.name == "func.func"
        for values, gained in ((operands, per_operand), (results, per_result)):
            for i, value in enumerate(values):
                for axis, edge in gained[i].items():
                    if self.edges_on:
                        table = self.func_edges if is_func else self.op_edges
                        edges = table.setdefault(op, {}).setdefault(axis, [])
                        if not any(e[:4] == edge[:4] for e in edges):
                            edges.append(edge)
                    if self.origins_on:
                        source_kind, source_index = edge[0], edge[1]
                        source = (operands if source_kind == OPERAND else results)[source_index]
                        target = self.engine.shardable_value(value)
                        if target is not None:
                            self.origins.setdefault(target, {}).setdefault(
                                axis, self._lookup(source, axis, mesh))

    def _gained_axes(self, old_factors: dict, tensor, mapping, kind: int, index: int, old,
                     mesh: Mesh, step: int) -> dict[AxisRef, tuple]:
        """Axis -> edge for the axes `tensor` gained in this step (first source wins)."""
        gained: dict[AxisRef, tuple] = {}
        for dim_factors in mapping:
            previous = None
            for factor in dim_factors:
                old_axes = old_factors.get(factor, ())
                fs = tensor.factors.get(factor)
                new_axes = tuple(fs.axes) if fs is not None else ()
                if old_axes == new_axes or not new_axes:
                    continue
                last = new_axes[-1]
                if previous is not None and previous.can_merge(last, mesh):
                    # Sub-axes of consecutive factors of one dim print as one axis.
                    gained.pop(previous, None)
                    last = previous.merge(last, mesh)
                previous = new_axes[-1]
                introduced = new_axes[:-1] + (last,)
                source = self._source(new_axes, factor, old, mesh)
                if source is None:
                    continue
                edge = (source[0], source[1], kind, index, step)
                n_old = len(old_axes)
                if n_old and old_axes[-1] != introduced[n_old - 1]:
                    gained.setdefault(introduced[n_old - 1], edge)
                for axis in introduced[n_old:]:
                    gained.setdefault(axis, edge)
        return gained

    @staticmethod
    def _source(new_axes, factor: int, old, mesh: Mesh) -> tuple[int, int] | None:
        """The first operand, else result, whose old axes of `factor` start with `new_axes`."""
        for kind, tensors in ((OPERAND, old[0]), (RESULT, old[1])):
            for index, factors in enumerate(tensors):
                axes = factors.get(factor)
                if (axes is not None
                        and axis_list_prefix_status(new_axes, axes, mesh) != NOT_A_PREFIX):
                    return kind, index
        return None

    def _lookup(self, value: ir.Value, axis: AxisRef, mesh: Mesh) -> str:
        """The origin of `axis` on `value` (a source of the step)."""
        table = self.origins.get(self.engine.shardable_value(value))
        if table is None:
            return UNKNOWN_ORIGIN
        origin = table.get(axis)
        if origin is not None:
            return origin
        # Split or merged by a reshape: an overlapping axis of the same name.
        for other, origin in table.items():
            if other.contains(axis, mesh) or axis.contains(other, mesh):
                return origin
        return UNKNOWN_ORIGIN

    # ------------------------------------------------------------- ops going away

    def forget(self, op: ir.Operation) -> None:
        self.op_edges.pop(op, None)
        self.origin_names = [(o, n) for o, n in self.origin_names if o != op]
        for value in op.results:
            self.origins.pop(value, None)
            self.self_names.pop(value, None)

    # ------------------------------------------------------------- after propagation

    def save(self) -> None:
        if self.origins_on:
            self._save_origins()
        if self.edges_on:
            self._save_edges()

    def _save_origins(self) -> None:
        for op, name in self.origin_names:
            op.attributes[ORIGIN_NAME_ATTR] = ir.StringAttr.get(name)
        for value, table in self.origins.items():
            self._save_value_origins(value, table)

    def _save_value_origins(self, value: ir.Value, table: dict[AxisRef, str]) -> None:
        entries = {axis_key(axis): origin for axis, origin in table.items()}
        if isinstance(value, ir.OpResult):
            owner = value.owner.operation
        else:
            owner = value.owner.owner.operation
        func = _enclosing_func(owner)
        if func is not None:
            result_index = self._returned_as(value, func)
            if result_index is not None:
                _set_func_attr(func, "res_attrs", result_index,
                               _dict(entries, f"output: {result_index}"))
        if isinstance(value, ir.BlockArgument):
            if owner.name == "func.func":
                _set_func_attr(owner, "arg_attrs", value.arg_number,
                               _dict(entries, f"input: {value.arg_number}"))
            return
        if owner.name in ("sdy.sharding_constraint", "sdy.data_flow_edge"):
            owner.attributes[ORIGINS_ATTR] = _dict(entries, self.self_names.get(value))
            return
        attrs = owner.attributes
        if ORIGINS_ATTR in attrs:
            dicts = list(ir.ArrayAttr(attrs[ORIGINS_ATTR]))
        else:
            dicts = [ir.DictAttr.get({}) for _ in owner.results]
        dicts[value.result_number] = _dict(entries, None)
        attrs[ORIGINS_ATTR] = ir.ArrayAttr.get(dicts)

    @staticmethod
    def _returned_as(value: ir.Value, func: ir.Operation) -> int | None:
        """The func result `value` is returned as (its first use by the func's return)."""
        terminator = _terminator(func)
        if terminator is None:
            return None
        for use in value.uses:
            if use.owner.operation == terminator:
                return use.operand_number
        return None

    def _save_edges(self) -> None:
        # Iterate, never look up: an ir.Operation's hash changes with its attributes.
        for op, table in self.op_edges.items():
            text = _edges_text(table)
            if text is not None:
                op.attributes[EDGES_ATTR] = ir.Attribute.parse(text, context=op.context)
        # Every func step counts as result 0 (the step's only "result").
        for func, table in self.func_edges.items():
            text = _edges_text(table)
            if text is not None:
                _set_func_attr(func, "res_attrs", 0, ir.Attribute.parse(text, context=func.context),
                               EDGES_ATTR)


def _dict(entries: dict[str, str], self_name: str | None) -> ir.Attribute:
    return ir.DictAttr.get({key: ir.StringAttr.get(SELF if origin == self_name else origin)
                            for key, origin in entries.items()})


def _edges_text(table: dict[AxisRef, list]) -> str | None:
    """`#sdy.propagation_edges<[{step-N = [{"a" = operand-0 -> [result-0]}, ...]}, ...]>`."""
    per_step: dict[int, dict[AxisRef, dict[tuple, set]]] = {}
    for axis, edges in table.items():
        for source_kind, source_index, target_kind, target_index, step in edges:
            sources = per_step.setdefault(step, {}).setdefault(axis, {})
            sources.setdefault((source_kind, source_index), set()).add((target_kind, target_index))
    if not per_step:
        return None
    steps = []
    for step in sorted(per_step):
        axes = per_step[step]
        entries = []
        for axis in sorted(axes, key=lambda a: (a.name, a.pre_size, a.sub_size or 0)):
            # One source per axis and step (the reference keeps only one).
            source, targets = next(iter(axes[axis].items()))
            targets_text = ", ".join(_node(t) for t in sorted(targets))
            entries.append(f"{{{axis.text()} = {_node(source)} -> [{targets_text}]}}")
        steps.append(f"{{step-{step} = [{', '.join(entries)}]}}")
    return f"#sdy.propagation_edges<[{', '.join(steps)}]>"


def _node(node: tuple[int, int]) -> str:
    return f"{_NODE_NAMES[node[0]]}-{node[1]}"


def _set_func_attr(func: ir.Operation, key: str, index: int, value: ir.Attribute,
                   name: str = ORIGINS_ATTR) -> None:
    attrs = func.attributes
    if key in attrs:
        dicts = list(ir.ArrayAttr(attrs[key]))
    else:
        ftype = ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value)
        count = len(ftype.inputs) if key == "arg_attrs" else len(ftype.results)
        dicts = [ir.DictAttr.get({}) for _ in range(count)]
    entries = {n.name: n.attr for n in ir.DictAttr(dicts[index])}
    entries[name] = value
    dicts[index] = ir.DictAttr.get(entries)
    attrs[key] = ir.ArrayAttr.get(dicts)
