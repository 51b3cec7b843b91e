"""Hooks of mpmd-mark-offloaded-input-output: where a value lives, and the function-level checks."""
from __future__ import annotations

from pathlib import Path

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook, load_hook_module
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.values import operation

_shared = load_hook_module(Path(__file__).with_name("fragment_attrs.py"))
_entry, _is_pinned_host = _shared.entry, _shared.is_pinned_host
MEMORY_KIND_ATTR, PINNED_HOST = _shared.MEMORY_KIND_ATTR, _shared.PINNED_HOST

DEVICE = "device"
FRONTEND_ATTRS = "mhlo.frontend_attributes"
PLACEMENT_CUSTOM_CALL = "annotate_device_placement"


def _string(attr: ir.Attribute | None) -> ir.StringAttr | None:
    return attr if isinstance(attr, ir.StringAttr) else None


def _is_on_device(memory_kind: ir.StringAttr | None) -> bool:
    return memory_kind is None or memory_kind.value == DEVICE


def _show(attr: ir.Attribute | None) -> str:
    # Printed like MLIR prints a null attribute, so messages read as the reference's.
    return "<<NULL ATTRIBUTE>>" if attr is None else str(attr)


def _same(a: ir.Attribute | None, b: ir.Attribute | None) -> bool:
    return a is None and b is None or a is not None and b is not None and a == b


def _func_arg_memory_kind(func: ir.Operation, index: int) -> ir.StringAttr | None:
    return _string(_entry(func, "arg_attrs", index, MEMORY_KIND_ATTR))


def _func_result_memory_kind(func: ir.Operation, index: int) -> ir.StringAttr | None:
    return _string(_entry(func, "res_attrs", index, MEMORY_KIND_ATTR))


@hook
def is_entry_point_function(func: ir.Operation) -> bool:
    """A public function with a `topology` (MPMD) or a `mesh_shape` (SPMD)."""
    attrs = operation(func).attributes
    if "topology" not in attrs and "mesh_shape" not in attrs:
        return False
    return "sym_visibility" not in attrs or ir.StringAttr(attrs["sym_visibility"]).value == "public"


@hook
def returned_values(op: ir.Operation) -> list:
    """The operands of the terminator of the op's (first) body."""
    return list(_terminator(operation(op).regions[0].blocks[0]).operands)


def _terminator(block: ir.Block) -> ir.Operation:
    last = None
    for op in block.operations:
        last = op
    return operation(last)


@hook
def is_value_on_host(value: ir.Value) -> bool:
    """A fragment result marked on host, or a function argument marked on host."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        func = operation(owner.owner)
        return func.name == "func.func" and _is_pinned_host(
            _func_arg_memory_kind(func, ir.BlockArgument(value).arg_number))
    op = operation(owner)
    return op.name == "mpmd.fragment" and _is_pinned_host(
        _entry(op, "res_attrs", ir.OpResult(value).result_number, MEMORY_KIND_ATTR))


def _non_unit_dims(value: ir.Value) -> list:
    return [d for d in ir.ShapedType(value.type).shape if d != 1]


def _buffer_source(result: ir.OpResult, compatible_custom_calls: list) -> ir.Value | None:
    """The value whose buffer `result` keeps (the op leaves it in place), or None."""
    op = operation(result.owner)
    number = result.result_number
    if op.name == "stablehlo.optimization_barrier":
        return op.operands[number]
    if op.name == "stablehlo.while":
        return _terminator(op.regions[1].blocks[0]).operands[number]
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
                return _terminator(candidate.regions[0].blocks[0]).operands[number]
    return None


@hook
def is_result_on_host_memory(value: ir.Value, compatible_custom_calls: list) -> bool:
    """Whether `value` is an op result computed on host or placed in pinned host memory.

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
            return ir.StringAttr(placement).value == PINNED_HOST
        value = source
    return False


@hook
def with_memory_kind(op: ir.Operation, list_name: str, indices: list, memory_kind: str) -> ir.Attribute:
    """The op's `arg_attrs` / `res_attrs` (empty dictionaries if absent) with `memory_kind` at `indices`."""
    op = operation(op)
    count = len(op.operands) if list_name == "arg_attrs" else len(op.results)
    if list_name in op.attributes:
        entries = [ir.DictAttr(d) for d in ir.ArrayAttr(op.attributes[list_name])]
    else:
        entries = [ir.DictAttr.get({}) for _ in range(count)]
    for index in indices:
        merged = {named.name: named.attr for named in entries[index]}
        merged[MEMORY_KIND_ATTR] = ir.StringAttr.get(memory_kind)
        entries[index] = ir.DictAttr.get(merged)
    return ir.ArrayAttr.get(entries)


def _memory_kind_seen_by(use, func: ir.Operation) -> ir.Attribute | None:
    user = operation(use.owner)
    if user.name == "mpmd.fragment":
        return _entry(user, "arg_attrs", use.operand_number, MEMORY_KIND_ATTR)
    if user.name == "func.return":
        return _entry(func, "res_attrs", use.operand_number, MEMORY_KIND_ATTR)
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
            if not _same(first, other):
                _error_at(ctx, argument.location, f"Memory kind mismatch between users of arg {number}: "
                          f"{_show(first)} vs {_show(other)}")
        argument_kind = _func_arg_memory_kind(func, number)
        users_kind = _string(first)
        if _is_on_device(argument_kind) != _is_on_device(users_kind):
            _error_at(ctx, argument.location, f"Memory kind mismatch between arg {number} and users: "
                      f"{_show(argument_kind)} vs {_show(users_kind)}")


@hook
def check_result_memory_kinds(ctx: RewriteContext, func: ir.Operation, ret: ir.Operation) -> None:
    """Errors at the return for results whose memory kind disagrees with what defines them."""
    func, ret = operation(func), operation(ret)
    for number, value in enumerate(ret.operands):
        result_kind = _func_result_memory_kind(func, number)
        owner = value.owner
        if isinstance(owner, ir.Block):
            defining_kind = _func_arg_memory_kind(func, ir.BlockArgument(value).arg_number)
        elif operation(owner).name == "mpmd.fragment":
            defining_kind = _string(_entry(operation(owner), "res_attrs", ir.OpResult(value).result_number,
                                           MEMORY_KIND_ATTR))
        else:
            defining_kind = None
        if _is_on_device(result_kind) != _is_on_device(defining_kind):
            _error_at(ctx, ret.location, f"Memory kind mismatch between result {number} and defining op: "
                      f"{_show(result_kind)} vs {_show(defining_kind)}")
