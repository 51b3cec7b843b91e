"""Hooks of mpmd-mark-offloaded-input-output: where a value lives, and the function-level checks."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.mpmd import ARG_ATTRS, MEMORY_KIND_ATTR, RES_ATTRS
from sdy_dsl.runtime.values import operation

DEVICE = "device"
FRONTEND_ATTRS = "mhlo.frontend_attributes"
PLACEMENT_CUSTOM_CALL = "annotate_device_placement"

is_entry_point_function = hook(mpmd.is_entry_point_function)


def _string(attr: ir.Attribute | None) -> ir.StringAttr | None:
    return attr if isinstance(attr, ir.StringAttr) else None


def _is_on_device(memory_kind: ir.StringAttr | None) -> bool:
    return memory_kind is None or memory_kind.value == DEVICE


def _memory_kind(op: ir.Operation, list_name: str, index: int) -> ir.Attribute | None:
    return mpmd.attr_entry(op, list_name, index, MEMORY_KIND_ATTR)


@hook
def returned_values(op: ir.Operation) -> list:
    """The operands of the terminator of the op's (first) body."""
    return list(mpmd.body_terminator(op).operands)


@hook
def is_value_on_host(value: ir.Value, host_memory_kind: str) -> bool:
    """A fragment result or a function argument whose memory kind is `host_memory_kind`."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        func = operation(owner.owner)
        return func.name == "func.func" and _is_kind(
            _memory_kind(func, ARG_ATTRS, ir.BlockArgument(value).arg_number), host_memory_kind)
    op = operation(owner)
    return op.name == "mpmd.fragment" and _is_kind(
        _memory_kind(op, RES_ATTRS, ir.OpResult(value).result_number), host_memory_kind)


def _is_kind(attr: ir.Attribute | None, memory_kind: str) -> bool:
    return isinstance(attr, ir.StringAttr) and attr.value == memory_kind


def _non_unit_dims(value: ir.Value) -> list:
    return [d for d in ir.ShapedType(value.type).shape if d != 1]


def _buffer_source(result: ir.OpResult, compatible_custom_calls: list) -> ir.Value | None:
    """The value whose buffer `result` keeps (the op leaves it in place), or None."""
    op = operation(result.owner)
    number = result.result_number
    if op.name == "stablehlo.optimization_barrier":
        return op.operands[number]
    if op.name == "stablehlo.while":
        return mpmd.body_terminator(op, region_index=1).operands[number]
    if op.name == "stablehlo.dynamic_update_slice":
        return op.operands[1]
    if op.name in ("stablehlo.reshape", "stablehlo.broadcast_in_dim"):
        if _non_unit_dims(op.results[0]) == _non_unit_dims(op.operands[0]):
            return op.operands[0]
        return None
    if op.name == "stablehlo.custom_call":
        if ir.StringAttr(op.attributes["call_target_name"]).value in compatible_custom_calls:
            return op.operands[0]
        return None
    if op.name == "func.call":
        callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
        module = op
        while module.name != "builtin.module":
            module = operation(module.parent)
        for candidate in module.regions[0].blocks[0].operations:
            candidate = operation(candidate)
            if candidate.name == "func.func" and ir.StringAttr(candidate.attributes["sym_name"]).value == callee:
                return mpmd.body_terminator(candidate).operands[number]
    return None


@hook
def is_result_on_host_memory(value: ir.Value, compatible_custom_calls: list, host_memory_kind: str) -> bool:
    """Whether `value` is an op result computed on host or placed in `host_memory_kind`.

    Follows ops that keep the buffer of one of their operands (see
    `_buffer_source`; `compatible_custom_calls` are custom call targets
    that do).
    """
    while not isinstance(value.owner, ir.Block):
        op = operation(value.owner)
        frontend = op.attributes[FRONTEND_ATTRS] if FRONTEND_ATTRS in op.attributes else None
        if isinstance(frontend, ir.DictAttr) and "_xla_compute_type" in frontend:
            compute_type = frontend["_xla_compute_type"]
            return isinstance(compute_type, ir.StringAttr) and compute_type.value == "host"
        source = _buffer_source(ir.OpResult(value), compatible_custom_calls)
        if source is None:
            if op.name != "stablehlo.custom_call" or \
                    ir.StringAttr(op.attributes["call_target_name"]).value != PLACEMENT_CUSTOM_CALL:
                return False
            placement = ir.DictAttr(op.attributes[FRONTEND_ATTRS])["_xla_buffer_placement"]
            return ir.StringAttr(placement).value == host_memory_kind
        value = source
    return False


@hook
def with_memory_kind(op: ir.Operation, list_name: str, indices: list, memory_kind: str) -> ir.Attribute:
    """The op's `arg_attrs` / `res_attrs` (empty dictionaries if absent) with `memory_kind` at `indices`."""
    kind = ir.StringAttr.get(memory_kind)
    return mpmd.with_entries(op, list_name, {index: {MEMORY_KIND_ATTR: kind} for index in indices})


def _memory_kind_seen_by(use, func: ir.Operation) -> ir.Attribute | None:
    user = operation(use.owner)
    if user.name == "mpmd.fragment":
        return _memory_kind(user, ARG_ATTRS, use.operand_number)
    if user.name == "func.return":
        return _memory_kind(func, RES_ATTRS, use.operand_number)
    return None


def _error_at(ctx: RewriteContext, location: ir.Location, message: str) -> None:
    location.emit_error(message)
    ctx.errors.append(message)
    ctx.mark_changed()


@hook
def check_argument_memory_kinds(ctx: RewriteContext, func: ir.Operation) -> None:
    """Errors at arguments whose users disagree, or disagree with the argument, on the memory kind."""
    func = operation(func)
    for argument in func.regions[0].blocks[0].arguments:
        # Uses in MLIR's use-list order, as the reference reports the first of them.
        uses = list(argument.uses)
        if not uses:
            continue
        number = argument.arg_number
        first = _memory_kind_seen_by(uses[0], func)
        for use in uses[1:]:
            other = _memory_kind_seen_by(use, func)
            if not mpmd.same_entry(first, other):
                _error_at(ctx, argument.location, f"Memory kind mismatch between users of arg {number}: "
                          f"{mpmd.diagnostic_text(first)} vs {mpmd.diagnostic_text(other)}")
        argument_kind = _string(_memory_kind(func, ARG_ATTRS, number))
        users_kind = _string(first)
        if _is_on_device(argument_kind) != _is_on_device(users_kind):
            _error_at(ctx, argument.location, f"Memory kind mismatch between arg {number} and users: "
                      f"{mpmd.diagnostic_text(argument_kind)} vs {mpmd.diagnostic_text(users_kind)}")


@hook
def check_result_memory_kinds(ctx: RewriteContext, func: ir.Operation, ret: ir.Operation) -> None:
    """Errors at the return for results whose memory kind disagrees with what defines them."""
    func, ret = operation(func), operation(ret)
    for number, value in enumerate(ret.operands):
        result_kind = _string(_memory_kind(func, RES_ATTRS, number))
        owner = value.owner
        if isinstance(owner, ir.Block):
            defining_kind = _string(_memory_kind(func, ARG_ATTRS, ir.BlockArgument(value).arg_number))
        elif operation(owner).name == "mpmd.fragment":
            defining_kind = _string(_memory_kind(operation(owner), RES_ATTRS, ir.OpResult(value).result_number))
        else:
            defining_kind = None
        if _is_on_device(result_kind) != _is_on_device(defining_kind):
            _error_at(ctx, ret.location, f"Memory kind mismatch between result {number} and defining op: "
                      f"{mpmd.diagnostic_text(result_kind)} vs {mpmd.diagnostic_text(defining_kind)}")
