"""The functions every rule file can call: queries (in `where:` and actions)
and actions (only in `rewrite:`). Pass-specific functions are hooks beside the
pass's rule file; these are the shared vocabulary.

A function whose first parameter is named `ctx` receives the RewriteContext.
"""
from __future__ import annotations

from typing import Callable, Iterable

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..diagnostics import emit_error, emit_warning
from ..runtime import interfaces
from ..runtime.op_sharding_rule_registry import sharding_rule_for
from ..runtime.sharding import Mesh, TensorSharding, codec
from ..runtime.values import SHARDING_ATTR, operation, rank_of, remove_dict_entry, tensor_type
from .builtins_shardings import (append_axis, close_dim, dim, dim_axes, element_count, element_type, open_dim, opened,
                                 remove_axis, replicated, set_dim, shard_bytes, sharding_literal, tensor_bytes,
                                 to_sharding)
from .context import ActionError, RewriteContext, describe
from .expr import Function
from .kernels import attribute_items

BUILTINS: dict[str, Function] = {}


def query(fn: Callable = None, *, name: str | None = None, pure: bool = False,
          root_names: Callable | None = None):
    """A query; `pure`: no effect, and its result depends only on its arguments,
    the options and the module's meshes; `root_names(registry)`: for a
    predicate on an op, the op names it can hold for (see expr.Function)."""
    def register(f):
        BUILTINS[name or f.__name__] = Function.of(name or f.__name__, f, pure=pure, root_names=root_names)
        return f
    return register(fn) if fn is not None else register


def action(fn: Callable = None, *, name: str | None = None, only_on_attributes: bool = False,
           changes_only_first_op: bool = False, on_attributes: Callable | None = None):
    """An action; `changes_only_first_op`: it changes only the attributes of the
    op it is given first; `only_on_attributes`: that, and nothing on an op
    without attributes; `on_attributes`: the action given the op's attribute
    map too (see expr.Function)."""
    def register(f):
        BUILTINS[name or f.__name__] = Function.of(name or f.__name__, f, is_action=True,
                                                   only_on_attributes=only_on_attributes,
                                                   changes_only_first_op=changes_only_first_op,
                                                   on_attributes=on_attributes)
        return f
    return register(fn) if fn is not None else register


# --------------------------------------------------------------------------- conversions


def to_attr(value) -> ir.Attribute:
    """An MLIR attribute for a value computed by an expression."""
    if isinstance(value, ir.Attribute):
        return value
    if isinstance(value, TensorSharding):
        return codec.tensor_sharding_attr(value)
    if isinstance(value, Mesh):
        return codec.mesh_attr(value)
    if isinstance(value, bool):
        return ir.BoolAttr.get(value)
    if isinstance(value, int):
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
    if isinstance(value, str):
        return ir.StringAttr.get(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, TensorSharding) for v in value):
        return codec.sharding_per_value_attr(value)
    raise TypeError(f"cannot turn a {type(value).__name__} into an attribute")


# --------------------------------------------------------------------------- queries: general


@query(pure=True)
def option(ctx: RewriteContext, name: str):
    """The value of one of the pass's options."""
    return ctx.options[name]


@query(pure=True)
def name_of(op) -> str:
    return operation(op).name


@query(name="len", pure=True)
def length(items) -> int:
    return len(items)


@query(pure=True)
def any_of(items: Iterable, predicate: Callable) -> bool:
    return any(predicate(x) for x in items)


@query(pure=True)
def all_of(items: Iterable, predicate: Callable) -> bool:
    return all(predicate(x) for x in items)


@query(name="map", pure=True)
def map_items(items: Iterable, fn: Callable) -> list:
    return [fn(x) for x in items]


@query(name="filter", pure=True)
def filter_items(items: Iterable, predicate: Callable) -> list:
    return [x for x in items if predicate(x)]


@query
def attr(op, name: str):
    """The attribute `name` of an op, or none."""
    attrs = operation(op).attributes
    return attrs[name] if name in attrs else None


@query
def has_attr(op, name: str) -> bool:
    return name in operation(op).attributes


@query(pure=True)
def string_value(attribute) -> str:
    return ir.StringAttr(attribute).value


@query(pure=True)
def int_value(attribute) -> int:
    return ir.IntegerAttr(attribute).value


# --------------------------------------------------------------------------- queries: values and ops


@query(pure=True)
def rank(value: ir.Value) -> int:
    return rank_of(value.type)


@query(pure=True)
def shape(value: ir.Value) -> list[int]:
    return list(ir.ShapedType(value.type).shape)


@query
def users(value: ir.Value) -> list:
    return [operation(u.owner) for u in value.uses]


@query
def num_uses(value: ir.Value) -> int:
    return sum(1 for _ in value.uses)


@query
def defining_op(value: ir.Value):
    owner = value.owner
    return None if isinstance(owner, ir.Block) else operation(owner)


@query
def parent_op(op):
    return operation(operation(op).parent)


@query
def operands(op) -> list:
    return list(operation(op).operands)


@query
def results(op) -> list:
    return list(operation(op).results)


@query
def block_args(op) -> list:
    """The arguments of the entry block of an op's first region (a func's arguments); [] without one."""
    regions = operation(op).regions
    if len(regions) == 0 or len(regions[0].blocks) == 0:
        return []
    return list(regions[0].blocks[0].arguments)


@query
def first_user_in_block(op):
    """The earliest op of `op`'s block that uses one of its results, or none.

    A user nested in a region counts as its ancestor in that block, so the
    answer is always a valid `move_before` target for `op`.
    """
    op = operation(op)
    block = op.block
    earliest = None
    for result in op.results:
        for use in result.uses:
            user = operation(use.owner)
            while user.block != block:
                user = operation(user.parent)
            if earliest is None or user.is_before_in_block(earliest):
                earliest = user
    return earliest


# --------------------------------------------------------------------------- queries: shardings


@query
def sharding(ctx: RewriteContext, value_or_mesh, dims: list | None = None) -> TensorSharding | None:
    """With one argument, the sharding of a value, wherever its op keeps it
    (rules/interfaces.yaml). With two, a new closed sharding: `sharding(MESH, DIMS)`,
    MESH a mesh name, a mesh (`mesh_named("m")`, `mesh_of(s)`), a sharding or a
    value with one (its mesh); DIMS one list of axes per dimension
    (`[["data"], [], ["x:(1)2", "y"]]`; `"?"` in a list opens that dimension)."""
    if dims is None:
        return interfaces.sharding_of(value_or_mesh)
    return sharding_literal(ctx, value_or_mesh, dims)


@query
def has_sharding(value: ir.Value) -> bool:
    return interfaces.sharding_of(value) is not None


@query(pure=True)
def tensor_sharding(attribute) -> TensorSharding | None:
    return to_sharding(attribute)


@query(pure=True)
def shardings(attribute) -> tuple:
    """The shardings of a TensorShardingPerValueAttr."""
    return codec.sharding_per_value(attribute) if attribute is not None else ()


@query(pure=True)
def is_custom_rule(rule_attr) -> bool:
    """Whether an `#sdy.op_sharding_rule` is marked `custom` (written by a user)."""
    return bool(sdy.OpShardingRuleAttr(rule_attr).is_custom)


@query(pure=True)
def closed(s) -> TensorSharding:
    return to_sharding(s).closed()


@query(pure=True)
def drop_replicated(s) -> TensorSharding:
    return to_sharding(s).without_replicated()


@query(pure=True)
def is_fully_closed(s) -> bool:
    return to_sharding(s).is_fully_closed


@query(pure=True)
def without_size_one_axes(s, mesh: Mesh) -> TensorSharding:
    """The sharding without axes of size one (in dims, replicated and unreduced)."""
    def keep(axes):
        return tuple(a for a in axes if a.size(mesh) != 1)
    # An empty closed dimension cannot carry a priority (the verifier says so).
    return to_sharding(s).map_axes(keep).without_priorities_on_empty_closed_dims()


@query(pure=True)
def with_inline_mesh(s, mesh: Mesh) -> TensorSharding:
    """The sharding with `mesh` inlined in place of its mesh symbol."""
    return to_sharding(s).with_mesh(None, mesh)


@query(pure=True)
def with_mesh_symbol(s, name: str) -> TensorSharding:
    """The sharding referring to the `sdy.mesh` symbol `name`."""
    return to_sharding(s).with_mesh(name, None)


@query(pure=True)
def mesh_of(ctx: RewriteContext, s) -> Mesh:
    """The mesh of a sharding: its inlined mesh, or the `sdy.mesh` it names."""
    return ctx.meshes().mesh_of(to_sharding(s))


@query(pure=True)
def meshes(ctx: RewriteContext) -> list[Mesh]:
    """The meshes of the module's `sdy.mesh` ops, in order."""
    return list(ctx.meshes().meshes.values())


@query(pure=True)
def mesh_named(ctx: RewriteContext, name: str) -> Mesh | None:
    """The mesh of the module's `sdy.mesh @NAME` (none when there is no such mesh)."""
    return ctx.meshes().meshes.get(name)


@query
def symbol_used(ctx: RewriteContext, op) -> bool:
    """Whether any op in the module refers to the symbol that `op` defines."""
    name = ir.StringAttr(operation(op).attributes["sym_name"]).value
    return name in _referenced_symbols(ctx)


def _referenced_symbols(ctx: RewriteContext) -> set[str]:
    # One walk per pass run.
    return ctx.run_state("referenced_symbols", lambda: _symbols_referenced_in(ctx.module))


def _symbols_referenced_in(module) -> set[str]:
    """Printed attributes are scanned for `@name` references (shardings refer
    to meshes by symbol inside their own syntax)."""
    import re
    found: set[str] = set()
    pattern = re.compile(r'@("(?:[^"\\]|\\.)*"|[\w$.\-]+)')

    def visit(op):
        op = operation(op)
        for key in op.attributes:
            if key == "sym_name":
                continue
            for m in pattern.finditer(str(op.attributes[key])):
                found.add(m.group(1).strip('"'))
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


# --------------------------------------------------------------------------- actions


def _set_attr_in(ctx: RewriteContext, op, attrs, name: str, value) -> None:
    ctx.set_attr_in(attrs, name, to_attr(value))


@action(changes_only_first_op=True, on_attributes=_set_attr_in)
def set_attr(ctx: RewriteContext, op, name: str, value) -> None:
    """Set an attribute; `value` may be an attribute, a sharding, a list of shardings, a number or a string."""
    ctx.set_attr(op, name, to_attr(value))


def _remove_attr_in(ctx: RewriteContext, op, attrs, name: str) -> None:
    ctx.remove_attr_in(attrs, name)


@action(changes_only_first_op=True, on_attributes=_remove_attr_in)
def remove_attr(ctx: RewriteContext, op, name: str) -> None:
    ctx.remove_attr(op, name)


@action
def set_sharding(ctx: RewriteContext, value: ir.Value, s) -> None:
    """Set a value's sharding wherever its op keeps it; `none` clears it (where
    it can be cleared alone: a func argument's, a single-attribute slot's)."""
    value = ctx.live_value(value, "set_sharding")
    changed = interfaces.set_sharding(value, None if s is None else to_sharding(s))
    if changed:
        ctx.mark_changed()


@action
def remove_arg_attr(ctx: RewriteContext, func, index: int, name: str) -> None:
    """Remove one entry of a func's argument attribute dictionary."""
    if remove_dict_entry(operation(func), "arg_attrs", index, name):
        ctx.mark_changed()


@action
def remove_result_attr(ctx: RewriteContext, func, index: int, name: str) -> None:
    """Remove one entry of a func's result attribute dictionary (e.g. its `sdy.sharding`)."""
    if remove_dict_entry(operation(func), "res_attrs", index, name):
        ctx.mark_changed()


@action
def replace_uses(ctx: RewriteContext, old: ir.Value, new: ir.Value) -> None:
    """Route every use of `old` to `new`."""
    ctx.replace_uses(old, new)


@action
def replace(ctx: RewriteContext, op, values) -> None:
    """Replace an op's results by `values` (a value or a list) and erase it."""
    ctx.replace_op(op, values if isinstance(values, (list, tuple, ir.Operation, ir.OpView)) else [values])


@action
def erase(ctx: RewriteContext, op) -> None:
    ctx.erase(op)


@action
def move_before(ctx: RewriteContext, op, other) -> None:
    ctx.move(op, other, after=False)


@action
def move_after(ctx: RewriteContext, op, other) -> None:
    ctx.move(op, other, after=True)


@action
def constrain(ctx: RewriteContext, value: ir.Value, s) -> None:
    """Put `sdy.sharding_constraint` with sharding S right after VALUE's definition
    (first in its block for a block argument) and route every other use of VALUE to
    it. A value that already has exactly that constraint as its only user is left
    as it is."""
    value = ctx.live_value(value, "constrain")
    new = to_sharding(s)
    if not isinstance(new, TensorSharding):
        raise ActionError(f"constrain needs a sharding, got {describe(s)}")
    if new.rank != rank_of(value.type):
        raise ActionError(f"constrain of {value.get_name()} ({value.type}) with a sharding of rank {new.rank}")
    attr = codec.tensor_sharding_attr(new)
    uses = list(value.uses)
    if len(uses) == 1:
        user = operation(uses[0].owner)
        if user.name == "sdy.sharding_constraint" and user.attributes["sharding"] == attr:
            return
    constraint = ctx.create_op("sdy.sharding_constraint", [value.type], [value], {"sharding": attr}, after=value)
    ctx.redirect_uses(value, constraint.results[0], [constraint], "constrain")


def _for_each_sharding_in(ctx: RewriteContext, op: ir.Operation, attrs, transform: Callable) -> None:
    # A pure transform (a lambda of its sharding alone) gives each distinct
    # attribute the same new one: remember it (and that other attributes hold
    # no sharding), for this stage run.
    memo = getattr(transform, "memo", None)
    op_name = op.name
    for key, attr in attribute_items(op_name, attrs):
        new = memo.get(attr, memo) if memo is not None else memo
        if new is memo:  # not remembered
            new = _transformed(attr, codec.sharding_kind(attr), transform, memo)
        if new is not None:
            attrs[key] = new
            ctx.mark_changed()
    if op_name == "func.func":
        # Each argument's / result's `sdy.sharding`, in order; the array is written once.
        # (A pure transform gives each distinct attribute dictionary the same new one.)
        entry_memo = memo.setdefault(_ENTRY_DICTS, {}) if memo is not None else None
        for key in ("arg_attrs", "res_attrs"):
            if key not in attrs:
                continue
            dicts = list(ir.ArrayAttr(attrs[key]))
            changed = False
            for i, d in enumerate(dicts):
                new = entry_memo.get(d, entry_memo) if entry_memo is not None else entry_memo
                if new is entry_memo:  # not remembered
                    new = _transformed_entry(ir.DictAttr(d), transform, memo)
                    if entry_memo is not None:
                        entry_memo[d] = new
                if new is not None:
                    dicts[i] = new
                    changed = True
            if changed:
                attrs[key] = ir.ArrayAttr.get(dicts)
                ctx.mark_changed()


_ENTRY_DICTS = object()  # a transform's memo of func argument / result dictionaries


def _transformed_entry(entry: ir.DictAttr, transform: Callable, memo: dict | None) -> ir.Attribute | None:
    """A func argument's (result's) attribute dictionary with its `sdy.sharding`
    transformed, or None when it stays the same."""
    if SHARDING_ATTR not in entry:
        return None
    new = _transformed(entry[SHARDING_ATTR], "single", transform, memo)
    if new is None:
        return None
    entries = {n.name: n.attr for n in entry}
    entries[SHARDING_ATTR] = new
    return ir.DictAttr.get(entries)


@action(only_on_attributes=True, on_attributes=_for_each_sharding_in)  # an op without attributes holds no sharding
def for_each_sharding(ctx: RewriteContext, op, transform: Callable) -> None:
    """Rewrite every sharding the op holds (any attribute, func arg/result attrs) with `transform`."""
    op = ctx.live_op(op, "for_each_sharding")
    _for_each_sharding_in(ctx, op, op.attributes, transform)


def _transformed(attr: ir.Attribute, kind: str | None, transform: Callable, memo: dict | None) -> ir.Attribute | None:
    """The sharding attribute `transform` makes of ATTR (a "single" sharding or
    a "per_value" list of them, else nothing), or None when it stays the same;
    remembered in MEMO (when given)."""
    if memo is not None:
        hit = memo.get(attr, memo)
        if hit is not memo:
            return hit
    if kind is None:
        result = None
    elif kind == "single":
        old = codec.tensor_sharding(attr)
        new = _transformed_sharding(old, transform, memo)
        result = None if new is old or new == old else codec.tensor_sharding_attr(new)
    else:
        old = codec.sharding_per_value(attr)
        new = tuple(_transformed_sharding(s, transform, memo) for s in old)
        result = None if new == old else codec.sharding_per_value_attr(new)
    if memo is not None:
        memo[attr] = result
    return result


_SHARDINGS = object()  # a transform's memo of the tensor shardings it was given


def _transformed_sharding(sharding: TensorSharding, transform: Callable, memo: dict | None) -> TensorSharding:
    """What `transform` makes of one sharding, remembered in MEMO (when given) by
    the sharding's identity: the distinct attributes (per-value ones above all)
    hold the same few shardings, which the codec reads as the same objects."""
    if memo is None:
        return transform(sharding)
    seen = memo.get(_SHARDINGS)
    if seen is None:
        seen = memo[_SHARDINGS] = {}
    hit = seen.get(id(sharding))
    if hit is not None and hit[0] is sharding:
        return hit[1]
    new = transform(sharding)
    seen[id(sharding)] = (sharding, new)  # (the key object is kept alive with its id)
    return new


@action
def for_each(ctx: RewriteContext, items: Iterable, fn: Callable) -> None:
    """Apply an action (a lambda, e.g. `$v => set_sharding($v, ...)`) to every item."""
    for item in list(items):
        fn(item)


@action
def error(ctx: RewriteContext, at, message: str) -> None:
    """Emit an error diagnostic at an op or a value (a block argument: at its own
    location); the pass fails once the current stage has visited every op (so
    every offending op is reported, as MLIR passes do)."""
    ctx.emit_error(at, message)


@action
def warning(ctx: RewriteContext, at, message: str) -> None:
    """Emit a warning diagnostic at an op or a value (e.g. a `@main` argument); the pass goes on."""
    emit_warning(ctx.diagnostic_location(at, "warning"), message)


@action
def fail(ctx: RewriteContext, at, message: str) -> None:
    """Emit an error diagnostic at an op or a value and stop the pass at once (no further op is checked)."""
    emit_error(ctx.diagnostic_location(at, "fail"), message)


# --------------------------------------------------------------------------- queries: data-flow edges


@query(name="reversed", pure=True)
def reversed_items(items: Iterable) -> list:
    return list(reversed(list(items)))


@query(pure=True)
def is_static_shaped(value: ir.Value) -> bool:
    """A ranked tensor (or mesh tensor) with a static shape (tokens and tuples are not)."""
    t = tensor_type(value.type)
    return t is not None and t.has_static_shape


def _elementwise_op_names(registry) -> frozenset:
    """The op names rules/interfaces.yaml gives the `elementwise` trait (some under a condition)."""
    return frozenset(name for name, decl in registry.interfaces.ops.items() if "elementwise" in decl.traits)


@query(root_names=_elementwise_op_names)
def is_elementwise(op) -> bool:
    """MLIR's Elementwise trait, as rules/interfaces.yaml declares it (the one list of elementwise ops)."""
    return interfaces.table().is_elementwise(operation(op))


def _data_flow_op_names(registry) -> frozenset:
    """The op names rules/interfaces.yaml declares data-flow edges for."""
    return frozenset(name for name, decl in registry.interfaces.ops.items() if decl.data_flow)


@query(root_names=_data_flow_op_names)
def is_data_flow_op(op) -> bool:
    """Whether rules/interfaces.yaml declares data-flow edges for this op."""
    return interfaces.table().data_flow(op) is not None


def _constant_like_op_names(registry) -> frozenset:
    """The op names rules/interfaces.yaml gives the constant-like trait (maybe under a condition)."""
    return frozenset(name for name, decl in registry.interfaces.ops.items() if "constant-like" in decl.traits)


@query(root_names=_constant_like_op_names)
def is_constant_like_op(op) -> bool:
    """Whether the op has the constant-like trait (rules/interfaces.yaml). As a `*` rule's first
    constraint, the rule is tried on those ops only."""
    return interfaces.table().has_trait(operation(op), "constant-like")


@query(root_names=_data_flow_op_names)
def keeps_edge_owner_shardings_divisible(op) -> bool:
    decl = interfaces.table().data_flow(op)
    return decl is not None and decl.keep_divisible


@query
def data_flow_result_owners(op) -> list:
    """The results of `op` that own data-flow edges (rules/interfaces.yaml `data-flow:`)."""
    return interfaces.data_flow_result_owners(op)


@query
def data_flow_block_arg_owners(op) -> list:
    """The block arguments of `op` that own data-flow edges."""
    return interfaces.data_flow_block_arg_owners(op)


@query
def edge_owner_sharding(owner: ir.Value) -> TensorSharding | None:
    """The sharding an edge owner keeps on its op (as the edge should hold it)."""
    return interfaces.edge_owner_sharding(owner)


@query
def edge_owner(target: ir.Value):
    """The owner of the data-flow edge `target` belongs to, or none."""
    return interfaces.edge_owner_of_target(target)


@query
def data_flow_edge(owner):
    """The `sdy.data_flow_edge` op using `owner` (its single user), or none."""
    return interfaces.data_flow_edge_of(owner)


@action
def set_edge_owner_shardings(ctx: RewriteContext, op, owners, shardings) -> None:
    """Set the shardings of all block-argument (or all result) owners of a data-flow op."""
    op = ctx.live_op(op, "set_edge_owner_shardings")
    if interfaces.set_edge_owner_shardings(op, list(owners), [to_sharding(s) for s in shardings]):
        ctx.mark_changed()


@query(name="range", pure=True)
def range_list(n: int) -> list[int]:
    """The integers 0, 1, ..., n-1: `for_each(range(length(results($op))), $i => ...)`
    visits each index once (with `at(list, $i)` for the item)."""
    return list(range(n))


@query(pure=True)
def at(items, index: int):
    """The item at `index` of a list (of values, shardings, ...)."""
    return list(items)[index]


@query
def can_hold_sharding(value: ir.Value) -> bool:
    """Whether some op keeps a sharding for this value (not, e.g., a reduce body's scalar argument)."""
    return interfaces._slot_of(value) is not None


@query
def op_sharding_rule(op):
    """The OpShardingRuleAttr of an op: its `sdy.sharding_rule`, else the one
    rules/propagation/op_sharding_rules.yaml gives it; none if it has none."""
    op = operation(op)
    if "sdy.sharding_rule" in op.attributes:
        return op.attributes["sdy.sharding_rule"]
    rule = sharding_rule_for(op)
    return rule.to_attr() if rule is not None else None


@query
def is_data_flow_edge_target(value: ir.Value) -> bool:
    """Whether `value` is an `sdy.data_flow_edge` result or a target of an existing edge."""
    owner = value.owner
    if not isinstance(owner, ir.Block) and operation(owner).name == interfaces.DATA_FLOW_EDGE:
        return True
    return interfaces.data_flow_edge_of(interfaces.edge_owner_of_target(value)) is not None


# --------------------------------------------------------------------------- building shardings, tensor facts
# (defined in builtins_shardings.py)

query(replicated)
query(pure=True)(opened)
query(pure=True)(open_dim)
query(pure=True)(close_dim)
query(pure=True)(dim_axes)
query(pure=True)(set_dim)
query(pure=True)(append_axis)
query(pure=True)(remove_axis)
query(pure=True)(dim)
query(pure=True)(element_type)
query(pure=True)(element_count)
query(name="bytes", pure=True)(tensor_bytes)
query(shard_bytes)
