"""User-priority propagation (Shardy's user_priority_propagation.cc): the
dimension shardings users gave priorities p1, p2, ... take part one priority
at a time. First every sharding keeps only its priority-0 dims (the others
replicated), the levels inside run; then for each priority in order its dims
are restored and the levels inside run again. A dimension without a priority
takes part with p0 (Shardy's), or after every user priority (`unprioritized:
last`, the `unprioritized-dims` param of sdy-user-priority-propagate).
"""
from __future__ import annotations

import sys

from jaxlib.mlir import ir

from ..sharding import DimSharding, Mesh, TensorSharding
from ..vocabulary import Vocabulary
from .basic_propagation import PropagationEngine


def sharding_refs(engine: PropagationEngine) -> list[tuple[tuple, TensorSharding]]:
    """Every (reference, sharding) the user-priority pass re-initializes
    (Shardy's sharding walker): func arguments and results, and every
    value that keeps a sharding, except data-flow edge targets that have
    an edge (the edge's own sharding is walked instead)."""
    refs = []
    for func in engine.funcs:
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        for i in range(len(ftype.results)):
            s = engine.get_func_result(func, i)
            if s is not None:
                refs.append((("res", func, i), s))
    store, dataflow, table = engine.store, engine.dataflow, engine.table
    values = []  # (value, its owning op), each with a slot

    for op in engine.live_func_ops():
        op = op.operation
        if len(op.regions) and dataflow.is_shardable_block_arg_owner(op):
            blocks = op.regions[0].blocks
            if len(blocks):
                values.extend((arg, op) for arg in blocks[0].arguments)
        name = op.name
        decl = table.result_slot(name)
        if decl is not None and store.may_hold(op, decl.attr):
            results = list(op.results)
            for result in results:
                store.owners[result] = op
            store.read_results(op, results, name=name)  # (read at once, as propagation reads them)
            values.extend((result, op) for result in results)
    for value, op in values:
        if dataflow.edge_of_target(value, op) is not None:
            continue
        s = store.get(value)
        if s is not None:
            refs.append((("value", value), s))
    return refs


def get_ref(engine: PropagationEngine, ref) -> TensorSharding | None:
    if ref[0] == "res":
        return engine.get_func_result(ref[1], ref[2])
    return engine.store.get(ref[1])


def set_ref(engine: PropagationEngine, ref, sharding: TensorSharding) -> None:
    if ref[0] == "res":
        engine.set_func_result(ref[1], ref[2], sharding)
    else:
        engine.store.set(ref[1], sharding)


# Where a dimension without a priority takes part (`unprioritized`): the priority it counts as.
UNPRIORITIZED_RANKS: Vocabulary[int] = Vocabulary("place of unprioritized dims", name="unprioritized-dims")
UNPRIORITIZED_RANKS.register("first", 0)  # with p0 (Shardy's)
UNPRIORITIZED_RANKS.register("last", sys.maxsize)  # after every user priority


def _rank(dim: DimSharding, unprioritized: int) -> int:
    return unprioritized if dim.priority is None else dim.priority


def _initialized_for_priorities(sharding: TensorSharding, mesh: Mesh, unprioritized: int) -> TensorSharding:
    """The sharding with only its priority-0 dims (the others replicated);
    `sharding` itself when that is what it already is (most are)."""
    if (unprioritized == 0 and all(dim.priority is None for dim in sharding.dims)
            and _in_mesh_order(sharding.replicated, mesh)):
        return sharding
    dims, replicated = [], list(sharding.replicated)
    for dim in sharding.dims:
        if _rank(dim, unprioritized) == 0:
            dims.append(DimSharding(dim.axes, dim.is_closed))
        else:
            replicated.extend(dim.axes)
            dims.append(DimSharding((), True))
    replicated.sort(key=lambda a: a.sort_key(mesh))
    return TensorSharding(sharding.mesh_name, tuple(dims), tuple(replicated),
                          sharding.unreduced, sharding.inline_mesh)


def _in_mesh_order(axes, mesh: Mesh) -> bool:
    keys = [a.sort_key(mesh) for a in axes]
    return all(a <= b for a, b in zip(keys, keys[1:]))


def _updated_for_priority(current: TensorSharding, original: TensorSharding,
                          priority: int, unprioritized: int) -> TensorSharding:
    dims = list(current.dims)
    seen = set()
    for i, original_dim in enumerate(original.dims):
        if _rank(original_dim, unprioritized) == priority:
            dims[i] = DimSharding(original_dim.axes, original_dim.is_closed)
            seen.update(original_dim.axes)
    replicated = tuple(a for a in current.replicated if a not in seen)
    return TensorSharding(current.mesh_name, tuple(dims), replicated, current.unreduced,
                          current.inline_mesh)


def user_priorities(engine: PropagationEngine, inner, heuristics, unprioritized: str = "first"):
    """The user-priorities level: `inner` once for priority 0, then once per
    user priority (`unprioritized`: where dims without one take part, first or last)."""
    rank_of_none = UNPRIORITIZED_RANKS[unprioritized]

    def run(get_direction):
        per_priority: dict[int, list] = {}
        for ref, sharding in sharding_refs(engine):
            priorities = {_rank(d, rank_of_none) for d in sharding.dims if _rank(d, rank_of_none) > 0}
            for p in priorities:
                per_priority.setdefault(p, []).append((ref, sharding))
            initialized = _initialized_for_priorities(sharding, engine.mesh(sharding), rank_of_none)
            if initialized is not sharding:
                set_ref(engine, ref, initialized)
        inner(get_direction)
        for priority in sorted(per_priority):
            for ref, original in per_priority[priority]:
                set_ref(engine, ref, _updated_for_priority(get_ref(engine, ref), original, priority, rank_of_none))
            inner(get_direction)
    return run
