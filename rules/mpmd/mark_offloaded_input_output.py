"""Hooks of mpmd-mark-offloaded-input-output: where a value lives, and the function-level checks."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.interfaces import ALWAYS, Condition, check_attr_names, check_op_name, condition_from_data
from sdy_dsl.runtime.mpmd import ARG_ATTRS, MEMORY_KIND_ATTR, RES_ATTRS
from sdy_dsl.runtime.values import module_of, operation

DEVICE = "device"
FRONTEND_ATTRS = "mhlo.frontend_attributes"
COMPUTE_TYPE = "_xla_compute_type"  # frontend attribute: where an op computes
BUFFER_PLACEMENT = "_xla_buffer_placement"  # frontend attribute of a placing op: the memory kind

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


# ------------------------------------------------------------------ op tables (params)
#
# The pass's rule file declares which ops keep the buffer of one of their
# operands (`params: buffer-keeping-ops`) and which place their result
# (`params: placing-ops`); the mechanics below read those tables. An entry is
#   {keeps: KIND, when: CONDITION}    (`keeps:` in buffer-keeping-ops only)
#   {by: ATTR, cases: {VALUE: ENTRY, ...}}   chosen by a string attribute
# KIND is one of KEEPS; CONDITION is one of CONDITIONS or an attribute
# mapping {ATTR: VALUE or [VALUES]} as in rules/interfaces.yaml.

KeepFn = Callable[[ir.Operation, int, object], "ir.Value | None"]
KEEPS: dict[str, KeepFn] = {}  # kind -> fn(op, result number, argument) -> the kept value
KEEP_ARGS: dict[str, type | None] = {}  # kind -> the type of its argument ({KIND: ARG}), None for none


def _keeps(kind: str, argument: type | None = None):
    def register(fn: KeepFn) -> KeepFn:
        KEEPS[kind], KEEP_ARGS[kind] = fn, argument
        return fn
    return register


@_keeps("same-index-operand")
def _same_index_operand(op: ir.Operation, number: int, _) -> ir.Value | None:
    return op.operands[number] if number < len(op.operands) else None


@_keeps("operand", int)
def _operand(op: ir.Operation, number: int, index: int) -> ir.Value | None:
    return op.operands[index] if index < len(op.operands) else None


@_keeps("region-result", int)
def _region_result(op: ir.Operation, number: int, region: int) -> ir.Value | None:
    """Operand `number` of the terminator of region `region` (e.g. a while's body)."""
    if region >= len(op.regions) or not len(op.regions[region].blocks):
        return None
    returned = mpmd.body_terminator(op, region_index=region).operands
    return returned[number] if number < len(returned) else None


@_keeps("callee-result")
def _callee_result(op: ir.Operation, number: int, _) -> ir.Value | None:
    """Operand `number` of the return of the function the op calls (`callee`)."""
    if not isinstance(op.attributes["callee"] if "callee" in op.attributes else None, ir.FlatSymbolRefAttr):
        return None
    callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
    for candidate in module_of(op).regions[0].blocks[0].operations:
        candidate = operation(candidate)
        if candidate.name == "func.func" and ir.StringAttr(candidate.attributes["sym_name"]).value == callee:
            returned = mpmd.body_terminator(candidate).operands
            return returned[number] if number < len(returned) else None
    return None


def _non_unit_dims(value: ir.Value) -> list | None:
    if not isinstance(value.type, ir.ShapedType):
        return None
    return [d for d in ir.ShapedType(value.type).shape if d != 1]


# condition -> fn(result, kept value): whether the entry applies
CONDITIONS: dict[str, Callable[[ir.Value, "ir.Value | None"], bool]] = {
    # The shapes are the same once size-1 dimensions are dropped.
    "only-unit-dims-differ": lambda result, kept: kept is not None and
    _non_unit_dims(result) is not None and _non_unit_dims(result) == _non_unit_dims(kept),
}


@dataclass(frozen=True)
class _Entry:
    keeps: str | None = None
    argument: object = None
    when: str | None = None  # one of CONDITIONS
    attrs: Condition = ALWAYS  # attribute values
    by: str | None = None  # choose among `cases` by this string attribute
    cases: tuple = ()  # ((value, _Entry), ...)

    def chosen(self, op: ir.Operation) -> "_Entry | None":
        """The entry that applies to `op` (a case of a `by:` entry), if any."""
        if self.by is None:
            return self if self.attrs.holds(op) else None
        attr = op.attributes[self.by] if self.by in op.attributes else None
        value = attr.value if isinstance(attr, ir.StringAttr) else None
        return next((case.chosen(op) for key, case in self.cases if key == value), None)


def _entry(op_name: str, body, loc, with_keeps: bool) -> _Entry:
    if not isinstance(body, dict):
        raise loc.error("an entry is {keeps: KIND, when: CONDITION} or {by: ATTR, cases: {VALUE: ENTRY}}"
                        if with_keeps else "an entry is {when: CONDITION} or {by: ATTR, cases: {VALUE: ENTRY}}")
    known = ("by", "cases") if "by" in body else (("keeps", "when") if with_keeps else ("when",))
    for key in body:
        if key not in known:
            raise body.key_loc(key).error(f"'{op_name}': unknown key '{key}' (expected {', '.join(known)})")
    if "by" in body:
        by = str(body["by"])
        check_attr_names(op_name, [by], body.loc_of("by"))
        cases = body.get("cases")
        if not isinstance(cases, dict):
            raise body.loc_of("cases").error(f"'{op_name}': 'by' needs 'cases: {{VALUE: ENTRY, ...}}'")
        return _Entry(by=by, cases=tuple((str(value), _entry(op_name, case, cases.loc_of(value), with_keeps))
                                         for value, case in cases.items()))
    keeps, argument = body.get("keeps"), None
    if with_keeps:
        if isinstance(keeps, dict) and len(keeps) == 1:
            (keeps, argument), = keeps.items()
        if keeps not in KEEPS:
            raise body.loc_of("keeps").error(f"'{op_name}': 'keeps' is one of: " + ", ".join(
                kind if KEEP_ARGS[kind] is None else f"{{{kind}: {KEEP_ARGS[kind].__name__}}}" for kind in KEEPS))
        wanted = KEEP_ARGS[keeps]
        if (wanted is None) != (argument is None) or (wanted is not None and (
                type(argument) is not wanted or argument < 0)):
            raise body.loc_of("keeps").error(f"'{op_name}': 'keeps: {keeps}' takes "
                                             + ("no argument" if wanted is None
                                                else f"{{{keeps}: {wanted.__name__}}}, not negative"))
    when, attrs = body.get("when"), ALWAYS
    if isinstance(when, dict):
        when, attrs = None, condition_from_data(op_name, body["when"], body.loc_of("when"))
    elif when is not None and when not in CONDITIONS:
        raise body.loc_of("when").error(f"'{op_name}': 'when' is {{ATTR: VALUE}} or one of: " + ", ".join(CONDITIONS))
    return _Entry(keeps, argument, when, attrs)


def _op_table(ctx: RewriteContext, name: str, raw, with_keeps: bool) -> dict[str, _Entry]:
    """The pass's param `name` (value RAW), a table of ops read once per run."""
    def read() -> dict[str, _Entry]:
        if not isinstance(raw, dict):
            raise ctx.passdef.loc.error(f"pass '{ctx.pass_name}' needs 'params: {{{name}: {{OP: ENTRY, ...}}}}'")
        table = {}
        for op_name, body in raw.items():
            check_op_name(str(op_name), raw.key_loc(op_name))
            table[str(op_name)] = _entry(str(op_name), body, raw.loc_of(op_name), with_keeps)
        return table
    return ctx.run_state(f"{__name__}:{name}", read)


def _buffer_source(table: dict[str, _Entry], result: ir.OpResult) -> ir.Value | None:
    """The value whose buffer `result` keeps (its op leaves it in place), or None."""
    op = operation(result.owner)
    entry = table.get(op.name)
    entry = entry.chosen(op) if entry is not None else None
    if entry is None:
        return None
    kept = KEEPS[entry.keeps](op, result.result_number, entry.argument)
    if entry.when is not None and not CONDITIONS[entry.when](result, kept):
        return None
    return kept


def _placement(table: dict[str, _Entry], op: ir.Operation) -> str | None:
    """The memory kind an op of `placing-ops` places its result in, if it is one."""
    entry = table.get(op.name)
    if entry is None or entry.chosen(op) is None:
        return None
    frontend = op.attributes[FRONTEND_ATTRS] if FRONTEND_ATTRS in op.attributes else None
    if not isinstance(frontend, ir.DictAttr) or BUFFER_PLACEMENT not in frontend:
        return None
    placement = frontend[BUFFER_PLACEMENT]
    return placement.value if isinstance(placement, ir.StringAttr) else None


@hook
def is_result_on_host_memory(ctx: RewriteContext, value: ir.Value, host_memory_kind: str) -> bool:
    """Whether `value` is an op result computed on host or placed in `host_memory_kind`.

    Follows the ops of `params: buffer-keeping-ops` back to the value whose
    buffer they keep; an op of `params: placing-ops` places its result by its
    `_xla_buffer_placement` frontend attribute.
    """
    keeping = _op_table(ctx, "buffer-keeping-ops", ctx.params.buffer_keeping_ops, with_keeps=True)
    placing = _op_table(ctx, "placing-ops", ctx.params.placing_ops, with_keeps=False)
    while not isinstance(value.owner, ir.Block):
        op = operation(value.owner)
        frontend = op.attributes[FRONTEND_ATTRS] if FRONTEND_ATTRS in op.attributes else None
        if isinstance(frontend, ir.DictAttr) and COMPUTE_TYPE in frontend:
            compute_type = frontend[COMPUTE_TYPE]
            return isinstance(compute_type, ir.StringAttr) and compute_type.value == "host"
        source = _buffer_source(keeping, ir.OpResult(value))
        if source is None:
            return _placement(placing, op) == host_memory_kind
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
