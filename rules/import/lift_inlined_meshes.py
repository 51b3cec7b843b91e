"""Hooks of sdy-lift-inlined-meshes: the symbol bookkeeping of one run.

State lives in `ctx.scratch["lift"]`: the first mesh op seen for each mesh,
redirections of erased duplicates, the names taken and the shared uniquing
counter.
"""
from __future__ import annotations

import re

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.sharding import Mesh, MeshAxis, TensorSharding, codec
from sdy_dsl.runtime.values import operation


class _LiftState:
    def __init__(self, module: ir.Operation):
        self.name_of_mesh: dict[Mesh, str] = {}
        self.redirects: dict[str, str] = {}
        self.taken: set[str] = set()
        self.last_mesh_op: ir.Operation | None = None
        self.counter = 0
        self.name_of_stablehlo_mesh: dict[str, str] = {}
        for op in module.regions[0].blocks[0].operations:
            op = operation(op)
            if "sym_name" in op.attributes:
                self.taken.add(ir.StringAttr(op.attributes["sym_name"]).value)


def _state(ctx: RewriteContext) -> _LiftState:
    return ctx.run_state("lift", lambda: _LiftState(ctx.module))


@hook
def first_mesh_op_named_for(ctx: RewriteContext, mesh_attr: ir.Attribute, mesh_op: ir.Operation) -> str | None:
    """The name of the first `sdy.mesh` holding this mesh if `mesh_op` is a later duplicate, else none."""
    state = _state(ctx)
    mesh = codec.mesh(mesh_attr)
    name = ir.StringAttr(operation(mesh_op).attributes["sym_name"]).value
    first = state.name_of_mesh.get(mesh)
    if first is None:
        state.name_of_mesh[mesh] = name
        state.last_mesh_op = operation(mesh_op)
        return None
    return first


@hook
def redirect_mesh_name(ctx: RewriteContext, erased_name: str, kept_name: str) -> None:
    state = _state(ctx)
    state.redirects[erased_name] = kept_name
    state.taken.discard(erased_name)  # a later new mesh may take the name


# Pure within the stage that lifts shardings: the redirections are all known
# (the duplicates were erased in the stage before), and a mesh, once lifted,
# keeps its name.
@hook(pure=True)
def needs_lifting(ctx: RewriteContext, sharding: TensorSharding) -> bool:
    return sharding.mesh_name is None or sharding.mesh_name in _state(ctx).redirects


@hook(pure=True)
def lifted_mesh_name(ctx: RewriteContext, sharding: TensorSharding) -> str:
    """The symbol for a sharding's mesh, creating the `sdy.mesh` op on first need."""
    state = _state(ctx)
    if sharding.mesh_name is not None:
        return state.redirects[sharding.mesh_name]
    mesh = sharding.inline_mesh
    name = state.name_of_mesh.get(mesh)
    if name is None:
        name = _unique_name(state, _base_name(mesh))
        _create_mesh_op(ctx, state, name, mesh)
        state.name_of_mesh[mesh] = name
    return name


def _base_name(mesh: Mesh) -> str:
    if mesh.is_maximal:
        return f"maximal_mesh_{mesh.device_ids[0]}"
    if not mesh.axes and not mesh.device_ids:
        return "empty_mesh"
    return "mesh"


def _unique_name(state: _LiftState, base: str) -> str:
    name = base
    while name in state.taken:
        name = f"{base}_{state.counter}"
        state.counter += 1
    state.taken.add(name)
    return name


def _create_mesh_op(ctx: RewriteContext, state: _LiftState, name: str, mesh: Mesh) -> None:
    attributes = {"sym_name": ir.StringAttr.get(name), "mesh": codec.mesh_attr(mesh)}
    if state.last_mesh_op is not None:
        point = ir.InsertionPoint.after(state.last_mesh_op) if hasattr(ir.InsertionPoint, "after") else None
        if point is None:
            block = ctx.module.regions[0].blocks[0]
            ops = list(block.operations)
            index = next(i for i, o in enumerate(ops) if operation(o) == state.last_mesh_op)
            point = ir.InsertionPoint(operation(ops[index + 1])) if index + 1 < len(ops) else ir.InsertionPoint(block)
    else:
        point = ir.InsertionPoint.at_block_begin(ctx.module.regions[0].blocks[0])
    with point:
        op = ir.Operation.create("sdy.mesh", attributes=attributes, loc=ir.Location.unknown())
    state.last_mesh_op = op
    ctx.invalidate_meshes()
    ctx.mark_changed()


_GROUP_MESH_REF = re.compile(r"mesh = @([\w$.\-]+)")
_STABLEHLO_AXIS = re.compile(r'<name = "([^"]*)", size = (\d+)>')


@hook
def lifted_replica_groups(ctx: RewriteContext, groups: ir.Attribute) -> ir.Attribute | None:
    """`replica_groups` naming the lifted mesh symbol, or none when nothing changes."""
    state = _state(ctx)
    text = str(groups)
    m = _GROUP_MESH_REF.search(text)
    if m and m.group(1) in state.redirects:
        return ir.Attribute.parse(text[:m.start(1)] + state.redirects[m.group(1)] + text[m.end(1):])
    span = _stablehlo_mesh_span(text)
    if span is None:
        return None
    start, end = span
    key = text[start:end]  # keyed by its StableHLO spelling: never shared with an equal sdy mesh
    name = state.name_of_stablehlo_mesh.get(key)
    if name is None:
        axes_text = key[:key.index("]")]
        mesh = Mesh(tuple(MeshAxis(n, int(size)) for n, size in _STABLEHLO_AXIS.findall(axes_text)))
        name = _unique_name(state, "mesh")
        _create_mesh_op(ctx, state, name, mesh)
        state.name_of_stablehlo_mesh[key] = name
    return ir.Attribute.parse(text[:start] + "@" + name + text[end:])


def _stablehlo_mesh_span(text: str) -> tuple[int, int] | None:
    """Where `#stablehlo.mesh<...>` (angle brackets balanced) stands after `mesh = `."""
    start = text.find("mesh = #stablehlo.mesh<")
    if start < 0:
        return None
    start += len("mesh = ")
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "<":
            depth += 1
        elif text[i] == ">":
            depth -= 1
            if depth == 0:
                return start, i + 1
    return None


@hook
def tensor_mesh(mesh_attr: ir.Attribute) -> Mesh:
    return codec.mesh(mesh_attr)


@hook
def stablehlo_mesh_description(mesh: Mesh) -> ir.Attribute:
    """`{axes = [{name = "x", size = 2 : i64}, ...], device_ids = dense<...>}` for StableHLO."""
    axes = ", ".join(f'{{name = "{a.name}", size = {a.size} : i64}}' for a in mesh.axes)
    text = f"{{axes = [{axes}]"
    if mesh.device_ids:
        ids = mesh.device_ids
        dense = str(ids[0]) if len(ids) == 1 else "[" + ", ".join(map(str, ids)) + "]"
        text += f", device_ids = dense<{dense}> : tensor<{len(ids)}xi64>"
    return ir.Attribute.parse(text + "}")
