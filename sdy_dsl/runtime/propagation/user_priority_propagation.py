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
    store, dataflow = engine.store, engine.dataflow
    facts_by_name: dict[str, _WalkFacts] = {}
    kept_by_attr: dict[str, set] = {}  # slot attribute -> the ops whose slot the store keeps

    def add_refs(values, op, facts):
        for value in values:
            if facts.may_have_edges and dataflow.edge_of_target(value, op) is not None:
                continue
            s = store.get(value)
            if s is not None:
                refs.append((("value", value), s))

    for op, name in engine.live_func_ops_named():
        facts = facts_by_name.get(name)
        if facts is None:
            facts = facts_by_name[name] = _WalkFacts(engine, name)
        if facts.keeps_block_args and len(op.regions):
            blocks = op.regions[0].blocks
            if len(blocks):
                add_refs(blocks[0].arguments, op, facts)
        attr = facts.result_attr
        if attr is None:
            continue
        if attr not in op.attributes:
            # (a slot the store keeps may hold a sharding not written yet)
            kept = kept_by_attr.get(attr)
            if kept is None:
                kept = kept_by_attr[attr] = store.kept_slot_ops(attr)
            if not kept or op not in kept:
                continue
        results = list(op.results)
        for result in results:
            store.owners[result] = op
        store.read_results(op, results, name=name)  # (read at once, as propagation reads them)
        add_refs(results, op, facts)
    return refs


class _WalkFacts:
    """What sharding_refs asks about the ops of one name, looked up once:
    whether their block arguments keep shardings, the attribute keeping their
    results' shardings (None: none) and whether they may have data-flow edges."""

    __slots__ = ("keeps_block_args", "result_attr", "may_have_edges")

    def __init__(self, engine: PropagationEngine, name: str):
        table = engine.table
        self.keeps_block_args = table.of(name).block_args is not None
        decl = table.result_slot(name)
        self.result_attr = decl.attr if decl is not None else None
        self.may_have_edges = bool(table.of(name).data_flow)


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
        refs = sharding_refs(engine)
        plans: dict[int, _PriorityPlan] = {}  # id(sharding) -> its plan (refs keeps each sharding alive)
        for ref, sharding in refs:
            plan = plans.get(id(sharding))
            if plan is None:  # (values share sharding objects: most are planned once)
                plan = plans[id(sharding)] = _PriorityPlan(sharding, engine.mesh(sharding), rank_of_none)
            for p in plan.priorities:
                per_priority.setdefault(p, []).append((ref, sharding))
            if plan.initialized is not sharding:
                set_ref(engine, ref, plan.initialized)
        inner(get_direction)
        for priority in sorted(per_priority):
            for ref, original in per_priority[priority]:
                set_ref(engine, ref, _updated_for_priority(get_ref(engine, ref), original, priority, rank_of_none))
            inner(get_direction)
    return run


class _PriorityPlan:
    """What the user-priorities level does with one sharding: the user
    priorities it restores later (besides 0) and the sharding it starts from."""

    __slots__ = ("priorities", "initialized")

    def __init__(self, sharding: TensorSharding, mesh: Mesh, unprioritized: int):
        self.priorities = {_rank(d, unprioritized) for d in sharding.dims if _rank(d, unprioritized) > 0}
        self.initialized = _initialized_for_priorities(sharding, mesh, unprioritized)
