"""Hooks of mpmd-lower-to-fragment-calls.

`group_fragments` sorts the fragments of the module (program order) into
groups of equivalent fragments and marks each fragment with its group's id,
name and merged reserved-memory bytes; `log_fragment_schedule` prints, per
mesh, which program each fragment runs; `lower_fragments` extracts, for each
marked fragment, the group's function the first time (shardings of manual
computations in it moved to the fragment's mesh) and replaces the fragment
with an `mpmd.fragment_call`.
"""
from __future__ import annotations

import sys

from jaxlib.mlir import ir

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.mpmd import ARG_ATTRS, RES_ATTRS, RESERVED_HBM_BYTES_ATTR, optional_int, origins
from sdy_dsl.runtime.sharding import Mesh, TensorSharding, codec
from sdy_dsl.runtime.values import SHARDING_ATTR, operation, transform_all_shardings

FRAGMENT = "mpmd.fragment"
GROUP_ID = "group_id"
GROUP_NAME = "group_name"
CALL_COUNTER = "call_counter"
STAGE_ID = "stage_id"
REMAT = "remat"
MANUAL_COMPUTATION = "sdy.manual_computation"
TRUNCATION_MARK = "<...>"
GROUP_NAME_LENGTH = 200  # `p<id>_<name>` is cut to this, before `.<module name>` is appended


# --------------------------------------------------------------------------- reading the IR


def _optional_attr(op: ir.Operation, name: str) -> ir.Attribute | None:
    attrs = operation(op).attributes
    return attrs[name] if name in attrs else None


def _mesh(fragment: ir.Operation) -> Mesh:
    """The fragment's mesh in its function's topology."""
    name = mpmd.fragment_mesh_name(fragment)
    mesh = mpmd.topology(mpmd.enclosing_function(fragment)).get(name)
    if mesh is None:
        raise ValueError(f"mesh '{name}' is not in the topology")
    return mesh


def _ops_named(root, name: str) -> list[ir.Operation]:
    """The ops called `name` under `root` (at any depth), in program order."""
    found = []

    def visit(op):
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    operation(root).walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _fragments_in_program_order(module) -> list[ir.Operation]:
    return _ops_named(module, FRAGMENT)


# --------------------------------------------------------------------------- equivalence


def _body_key(region: ir.Region):
    """A structural key of a region: equal keys iff the bodies are equivalent (locations ignored).

    Values are numbered in definition order, so operand order matters and
    block arguments count even when unused.
    """
    numbers: dict = {}

    def number(value) -> int:
        return numbers.setdefault(value, len(numbers))

    def region_key(region):
        blocks = []
        for block in region.blocks:
            for arg in block.arguments:
                number(arg)
            ops = []
            for op in block.operations:
                op = operation(op)
                attrs = op.attributes
                ops.append((
                    op.name,
                    tuple(sorted((attrs[i].name, str(attrs[i].attr)) for i in range(len(attrs)))),
                    tuple(str(v.type) for v in op.operands),
                    tuple(numbers.get(v, ("outside", str(v.get_name()))) for v in op.operands),
                    tuple(str(r.type) for r in op.results),
                    tuple(region_key(r) for r in op.regions),
                ))
                for result in op.results:
                    number(result)
            blocks.append((tuple(str(a.type) for a in block.arguments), tuple(ops)))
        return tuple(blocks)

    return region_key(region)


def _group_key(fragment):
    """Fragments with equal keys share a function: same mesh name, attributes and body.

    The mesh *name*, not its shape: equal meshes under different names may
    span different devices (heterogeneous systems).
    """
    mesh = mpmd.fragment_mesh_name(fragment)
    arg_attrs = _optional_attr(fragment, ARG_ATTRS)
    res_attrs = _optional_attr(fragment, RES_ATTRS)
    return (mesh, str(arg_attrs) if arg_attrs is not None else None,
            str(res_attrs) if res_attrs is not None else None,
            _body_key(operation(fragment).regions[0]))


# --------------------------------------------------------------------------- naming


def _split_counter(name: str) -> tuple[str, int] | None:
    """"block_12" -> ("block", 12); None when the name does not end in `_<digits>`."""
    head, sep, tail = name.rpartition("_")
    if sep and tail.isdigit():
        return head, int(tail)
    return None


def _most_frequent_name(origins: list[tuple[str, int]]) -> str:
    by_head: dict[str, list[int | None]] = {}
    is_backward = True
    for user_name, transpose_count in origins:
        split = _split_counter(user_name)
        head, counter = split if split else (user_name, None)
        by_head.setdefault(head, []).append(counter)
        is_backward = is_backward and transpose_count == 1
    tail = "" if len(by_head) == 1 else "..."
    # The most frequent head; ties go to the lexicographically first.
    head = min(sorted(by_head), key=lambda h: -len(by_head[h]))
    counters = sorted({c for c in by_head[head] if c is not None})
    if not counters:
        return f"{head}{tail}"
    if len(counters) == 1:
        return f"{head}_{counters[0]}{tail}"
    low, high = counters[0], counters[-1]
    return f"{head}_{high}:{low}{tail}" if is_backward else f"{head}_{low}:{high}{tail}"


def _phase(transpose_count: int) -> str:
    if transpose_count == 0:
        return "fwd"
    if transpose_count == 1:
        return "bwd"
    return f"transpose{transpose_count}"


def _fragment_name(origins, stage_id: int | None, is_all_forward: bool) -> str:
    if stage_id is not None:
        parts = [f"stage{stage_id}"]
    elif not origins:
        parts = ["inferred"]
    else:
        parts = [_most_frequent_name(origins)]
    if not is_all_forward:
        parts += [_phase(count) for count in sorted({count for _, count in origins})]
    return "_".join(parts)


def _mesh_call_counters_summary(call_sites: list[tuple[str, int | None]]) -> str | None:
    if len(call_sites) == 1:
        counter = call_sites[0][1]
        return f"call{counter}" if counter is not None else None
    if any(name != call_sites[0][0] for name, _ in call_sites):
        return None
    counters = [counter for _, counter in call_sites]
    if any(counter is None for counter in counters):
        return None
    if all(b == a + 1 for a, b in zip(counters, counters[1:])):
        return f"calls{min(counters)}to{max(counters)}"
    if all(b == a - 1 for a, b in zip(counters, counters[1:])):
        return f"calls{max(counters)}from{min(counters)}"
    return None


def _call_sites_name(mesh_call_sites: dict[str, list[tuple[str, int | None]]]) -> str:
    """The first (sorted) name; with the call counters if every mesh summarises them the same way."""
    summaries, unsummarised, names = set(), False, set()
    for call_sites in mesh_call_sites.values():
        names.add(call_sites[0][0])
        summary = _mesh_call_counters_summary(call_sites)
        if summary is None:
            unsummarised = True
        else:
            summaries.add(summary)
    name = min(names)
    if len(summaries) == 1 and not unsummarised:
        return f"{name}_{next(iter(summaries))}"
    return name


def _truncate(text: str, max_length: int) -> str:
    if len(text) > max_length:
        return text[:max_length - len(TRUNCATION_MARK)] + TRUNCATION_MARK
    return text


def _module_name(module) -> str:
    attrs = operation(module).attributes
    return ir.StringAttr(attrs["sym_name"]).value if "sym_name" in attrs else "main"


def _is_all_forward(fragments) -> bool:
    return all(count == 0 for fragment in fragments for _, count in origins(fragment))


# --------------------------------------------------------------------------- stages


@hook
def group_fragments(ctx: RewriteContext) -> None:
    """Mark every fragment with `group_id`, `group_name` and its group's largest reserved bytes.

    The option `group-across-meshes` is accepted for older command lines and ignored.
    """
    fragments = _fragments_in_program_order(ctx.module)
    is_all_forward = _is_all_forward(fragments)
    groups: dict = {}  # key -> {"id", "hbm", "call_sites"}
    group_of = []
    for fragment in fragments:
        group = groups.get(key := _group_key(fragment))
        if group is None:
            group = groups[key] = {"id": len(groups), "hbm": None, "call_sites": {}}
        hbm = optional_int(fragment, RESERVED_HBM_BYTES_ATTR)
        if hbm is not None:
            group["hbm"] = hbm if group["hbm"] is None else max(group["hbm"], hbm)
        name = _fragment_name(origins(fragment), optional_int(fragment, STAGE_ID), is_all_forward)
        group["call_sites"].setdefault(mpmd.fragment_mesh_name(fragment), []).append(
            (name, optional_int(fragment, CALL_COUNTER)))
        group_of.append(group)

    module_name = _module_name(ctx.module)
    module_name = module_name[4:] if module_name.startswith("jit_") else module_name
    i64 = ir.IntegerType.get_signless(64)
    for fragment, group in zip(fragments, group_of):
        if group["hbm"] is not None:
            ctx.set_attr(fragment, RESERVED_HBM_BYTES_ATTR, ir.IntegerAttr.get(i64, group["hbm"]))
        ctx.set_attr(fragment, GROUP_ID, ir.IntegerAttr.get(i64, group["id"]))
        # The id comes first so that truncation never cuts it.
        name = _truncate(f"p{group['id']}_{_call_sites_name(group['call_sites'])}", GROUP_NAME_LENGTH)
        ctx.set_attr(fragment, GROUP_NAME, ir.StringAttr.get(f"{name}.{module_name}"))


@hook
def log_fragment_schedule(ctx: RewriteContext) -> None:
    """With verbose-logging: per topology mesh of @main, the program each fragment runs, in order."""
    if not ctx.options["verbose-logging"]:
        return
    main = next((operation(op) for op in operation(ctx.module).regions[0].blocks[0].operations
                 if operation(op).name == "func.func"
                 and ir.StringAttr(operation(op).attributes["sym_name"]).value == "main"), None)
    if main is None:
        return
    fragments = _fragments_in_program_order(ctx.module)
    is_all_forward = _is_all_forward(fragments)
    for mesh_name in mpmd.topology(main):
        print(f"Module {_module_name(ctx.module)} on mesh {mesh_name} will execute the following XLA programs:",
              file=sys.stderr)
        for fragment in fragments:
            if mpmd.fragment_mesh_name(fragment) != mesh_name:
                continue
            extra = ""
            if (stage_id := optional_int(fragment, STAGE_ID)) is not None:
                extra += f", stage id {stage_id}"
            if (counter := optional_int(fragment, CALL_COUNTER)) is not None:
                extra += f", call counter {counter}"
            origin_names = ", ".join(
                name if is_all_forward else f"{name}({_log_phase(count)})" for name, count in origins(fragment))
            group_name = ir.StringAttr(operation(fragment).attributes[GROUP_NAME]).value
            print(f"\t- {group_name} from program with origins [{origin_names}]{extra}.", file=sys.stderr)


def _log_phase(transpose_count: int) -> str:
    return {0: "fwd", 1: "bwd"}.get(transpose_count, f"TransposeCount={transpose_count}")


def _shardings_as_entries(values: list) -> dict[int, dict[str, ir.Attribute]]:
    """index -> {"sdy.sharding": the mesh tensor's sharding}, for the values whose type has one."""
    entries = {}
    for index, value in enumerate(values):
        mesh_tensor = mpmd.mesh_tensor_type(value.type)
        if mesh_tensor is not None and mesh_tensor.sharding is not None:
            entries[index] = {SHARDING_ATTR: mesh_tensor.sharding_attr()}
    return entries


def _extract_function(ctx: RewriteContext, fragment: ir.Operation, name: str) -> None:
    """A func @name with the fragment's body (mpmd.return -> func.return), appended to the module."""
    block = fragment.regions[0].blocks[0]
    arg_types = [arg.type for arg in block.arguments]
    old_return = operation(block.operations[len(block.operations) - 1])
    result_types = [v.type for v in old_return.operands]
    attributes = {
        "sym_name": ir.StringAttr.get(name),
        "function_type": ir.TypeAttr.get(ir.FunctionType.get(arg_types, result_types)),
        "mesh_shape": mpmd.mesh_attr(_mesh(fragment)),
    }
    if (hbm := optional_int(fragment, RESERVED_HBM_BYTES_ATTR)) is not None:
        attributes[RESERVED_HBM_BYTES_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), hbm)
    arg_attrs, res_attrs = _optional_attr(fragment, ARG_ATTRS), _optional_attr(fragment, RES_ATTRS)
    # Shardy reads a fragment's shardings from its function when importing.
    if arg_shardings := _shardings_as_entries(list(fragment.operands)):
        arg_attrs = mpmd.with_entries(fragment, ARG_ATTRS, arg_shardings)
    if res_shardings := _shardings_as_entries(list(fragment.results)):
        res_attrs = mpmd.with_entries(fragment, RES_ATTRS, res_shardings)
    if arg_attrs is not None:
        attributes[ARG_ATTRS] = arg_attrs
    if res_attrs is not None:
        attributes[RES_ATTRS] = res_attrs

    module_block = operation(ctx.module).regions[0].blocks[0]
    with ir.InsertionPoint(module_block):
        func = ir.Operation.create("func.func", attributes=attributes, regions=1, loc=fragment.location)
    body = func.regions[0].blocks.append(*arg_types, arg_locs=[arg.location for arg in block.arguments])
    with ir.InsertionPoint(body):
        new_return = ir.Operation.create("func.return", operands=list(old_return.operands),
                                         loc=old_return.location)
    for op in list(block.operations)[:-1]:
        operation(op).move_before(new_return)
    for old_arg, new_arg in zip(block.arguments, body.arguments):
        old_arg.replace_all_uses_with(new_arg)
    old_return.erase()
    _move_manual_computations_to_mesh(ctx, func, mpmd.fragment_mesh_name(fragment), _mesh(fragment))
    ctx.mark_changed()


def _move_manual_computations_to_mesh(ctx: RewriteContext, func: ir.Operation, mesh_name: str,
                                      mesh: Mesh) -> None:
    """Every sharding in the function's manual computations (nested ones, and ones inside any
    other op, included) that names another mesh symbol now names `mesh_name`; the
    `sdy.mesh @<mesh_name>` is created at the top of the module when first needed."""
    def to_fragment_mesh(sharding: TensorSharding) -> TensorSharding:
        if sharding.mesh_name is None or sharding.mesh_name == mesh_name:
            return sharding
        _ensure_mesh_op(ctx, mesh_name, mesh)
        return sharding.with_mesh(mesh_name)

    for manual_computation in _ops_named(func, MANUAL_COMPUTATION):
        transform_all_shardings(manual_computation, to_fragment_mesh)


def _ensure_mesh_op(ctx: RewriteContext, name: str, mesh: Mesh) -> None:
    module_block = operation(ctx.module).regions[0].blocks[0]
    for op in module_block.operations:
        op = operation(op)
        if op.name == "sdy.mesh" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return
    with ir.InsertionPoint.at_block_begin(module_block):
        ir.Operation.create("sdy.mesh", attributes={"sym_name": ir.StringAttr.get(name),
                                                    "mesh": codec.mesh_attr(mesh)},
                            loc=operation(ctx.module).location)
    ctx.invalidate_meshes()


@hook
def lower_fragments(ctx: RewriteContext) -> None:
    """Every marked fragment, in program order, becomes a call of its group's function.

    A stage hook rather than a rule: replacing a fragment erases the ops of
    its body, which a `once` rule driver would still visit.
    """
    for fragment in _fragments_in_program_order(ctx.module):
        if GROUP_NAME in fragment.attributes:
            _lower_to_fragment_call(ctx, fragment, ir.StringAttr(fragment.attributes[GROUP_NAME]).value)


def _lower_to_fragment_call(ctx: RewriteContext, fragment: ir.Operation, name: str) -> None:
    """Replace a marked fragment with a call of its group's function, extracting it on first use."""
    module_block = operation(ctx.module).regions[0].blocks[0]
    exists = any("sym_name" in operation(op).attributes
                 and ir.StringAttr(operation(op).attributes["sym_name"]).value == name
                 for op in module_block.operations)
    if not exists:
        _extract_function(ctx, fragment, name)
    attributes = {
        "callee": ir.FlatSymbolRefAttr.get(name),
        "mesh_name": fragment.attributes["mesh_name"],
        "origin": fragment.attributes["origin"],
    }
    # Kept for debugging only: remat is no part of a fragment call.
    if REMAT in fragment.attributes:
        attributes[REMAT] = ir.UnitAttr.get()
    call = ctx.create_op("mpmd.fragment_call", [r.type for r in fragment.results], list(fragment.operands),
                         attributes, before=fragment, loc=fragment.location)
    ctx.replace_op(fragment, list(call.results))
