"""The caches propagation keeps beside its meaning (issue #29): the op-priority
heuristics' directions shared by ops of one structure
(`HeuristicDirections.directions_of_op`), and the view change of a data-flow
edge whose owner strips manual axes, computed once per distinct view change
and sharding (`dataflow.EdgeTransform`, `ViewChange`), with which such an edge's step is memoized like
any other. Each test pins that the cache is used and that it gives what the
uncached computation gives."""
from __future__ import annotations

from jaxlib.mlir import ir

from sdy_dsl.mlir_context import make_context
from sdy_dsl.rule_library import builtin_library
from sdy_dsl.runtime.propagation.basic_propagation import _NOT_KEPT, PropagationEngine, through_owner_update
from sdy_dsl.runtime.propagation.dataflow import EdgeTransform, ViewChange
from sdy_dsl.runtime.propagation.op_priority_propagation import HeuristicDirections
from sdy_dsl.runtime.sharding import parse_tensor_sharding

# Two adds alike (one structure), a third on another shape; a manual
# computation over "a" whose block argument and result own data-flow edges.
MODULE = """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %y: tensor<8x16xf32>, %z: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %x, %y : tensor<8x16xf32>
  %1 = stablehlo.add %0, %y : tensor<8x16xf32>
  %2 = stablehlo.add %z, %z : tensor<4x16xf32>
  %3 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg0: tensor<4x16xf32>) {
    %e = sdy.data_flow_edge %arg0 sharding=<@mesh, [{}, {"b"}]> : tensor<4x16xf32>
    %n = stablehlo.negate %e : tensor<4x16xf32>
    sdy.return %n : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = sdy.data_flow_edge %3 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
"""


def _engine(module) -> PropagationEngine:
    return PropagationEngine(module.operation, builtin_library().op_registry)


def _ops(engine, name):
    return [op for op in engine._module_ops if op.name == name]


def test_ops_alike_share_their_heuristic_directions():
    # The built-in heuristics look only at an op's structure and whether an
    # operand has other uses, so the two adds alike share one kept tuple (this
    # cache was once dead: a flag and the cache had the same attribute name).
    with make_context():
        module = ir.Module.parse(MODULE)
        engine = _engine(module)
        directions = HeuristicDirections(engine, builtin_library().heuristics)
        assert directions.shared_by_structure
        first, second, other = (engine.node(op) for op in _ops(engine, "stablehlo.add"))
        for node in (first, second, other):
            engine._frame(node)
        assert first.structure == second.structure != other.structure
        kept = [directions.directions_of_op(node, 2) for node in (first, second, other)]
        assert kept[0] is kept[1]
        assert len(directions.by_structure) == 2
        # ... and what is shared is what each op's own unions give.
        for node, found in zip((first, second, other), kept):
            unions = [directions.unions(node.op, f) for f in range(2)]
            assert found[2] == [tuple(u[p] for u in unions) for p in range(len(directions.heuristics))]


def test_edge_transform_is_the_owners_view_change_once_per_sharding(monkeypatch):
    with make_context():
        module = ir.Module.parse(MODULE)
        engine = _engine(module)
        inner_edge, outer_edge = _ops(engine, "sdy.data_flow_edge")
        dataflow = engine.dataflow
        assert dataflow.strips_manual_axes(inner_edge) and dataflow.strips_manual_axes(outer_edge)
        applied = []
        apply_once = ViewChange.apply

        def counted(change, sharding):
            applied.append((change.outer is not None, sharding))
            return apply_once(change, sharding)

        monkeypatch.setattr(ViewChange, "apply", counted)
        transform = EdgeTransform(dataflow, inner_edge)
        free = parse_tensor_sharding('#sdy.sharding<@mesh, [{}, {"b"}]>')
        # A block argument's edge is seen (before the step) with the owner's
        # in-sharding's manual axis added, and written back without it.
        seen = transform(free, True)
        assert seen == parse_tensor_sharding('#sdy.sharding<@mesh, [{"a"}, {"b"}]>')
        assert transform(seen, False) == free
        assert transform(free, True) is seen and transform(seen, False) == free
        assert applied == [(True, free), (False, seen)]  # each distinct input once
        assert transform(None, True) is None
        # The result's edge is seen without the manual axis too: the same view
        # change by content, so the kept result, computed for the other edge.
        assert EdgeTransform(dataflow, outer_edge)(seen, True) == free
        assert dataflow.transform(outer_edge, seen, True) == free
        assert len(applied) == 2


# Two manual computations alike (layers), a third over another manual axis.
LAYERS = """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg0: tensor<4x16xf32>) {
    %e = sdy.data_flow_edge %arg0 : tensor<4x16xf32>
    sdy.return %e : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg0: tensor<4x16xf32>) {
    %e = sdy.data_flow_edge %arg0 : tensor<4x16xf32>
    sdy.return %e : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"b"} (%arg0: tensor<8x8xf32>) {
    %e = sdy.data_flow_edge %arg0 : tensor<8x8xf32>
    sdy.return %e : tensor<8x8xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
"""


def test_edges_of_layers_alike_have_equal_transforms_and_share_memoized_steps():
    # The step memo keys an edge's step by its transform: equal view changes,
    # one key, so the edges of repeated layers share their steps.
    with make_context():
        module = ir.Module.parse(LAYERS)
        engine = _engine(module)
        first, second, other = (EdgeTransform(engine.dataflow, edge)
                                for edge in _ops(engine, "sdy.data_flow_edge"))
        assert first == second and hash(first) == hash(second)
        assert first != other
        intern = engine.steps.intern
        assert intern((1, first)) == intern((1, second)) != intern((1, other))


def test_an_edge_seen_through_its_owner_writes_back_what_the_unmemoized_step_writes():
    # The memoized step of a manual computation's edge decides in the owner's
    # view, as _set_updated does: no update, the view change written back, or
    # (the stored sharding written back though the view changed) the
    # unmemoized step, which still reports and notifies that update.
    with make_context():
        module = ir.Module.parse(MODULE)
        engine = _engine(module)
        inner_edge = _ops(engine, "sdy.data_flow_edge")[0]
        through = EdgeTransform(engine.dataflow, inner_edge)
        update = through_owner_update
        stored = parse_tensor_sharding('#sdy.sharding<@mesh, [{}, {"b"}]>')
        seen = through(stored, True)  # [{"a"}, {"b"}]
        assert update(through, stored, seen, seen) is None
        replicated = parse_tensor_sharding('#sdy.sharding<@mesh, [{}, {}]>')
        assert update(through, None, None, replicated) is None
        wider = parse_tensor_sharding('#sdy.sharding<@mesh, [{"a", "b"}, {}]>')
        assert update(through, stored, seen, wider) == parse_tensor_sharding(
            '#sdy.sharding<@mesh, [{"b"}, {}]>')
        # "a" moved between dims: a change in the owner's view, none once the
        # manual axis is erased again.
        moved = parse_tensor_sharding('#sdy.sharding<@mesh, [{}, {"a", "b"}]>')
        assert update(through, stored, seen, moved) is _NOT_KEPT


def test_the_engine_is_freed_when_the_pass_ends(monkeypatch):
    # Reference counting alone frees the engine and all it kept (nodes,
    # heuristic directions, memoized steps): the CLI collects cycles rarely,
    # so a cycle through the engine would hold its memory for the rest of the run.
    import gc
    import weakref

    import sdy_dsl
    from sdy_dsl.runtime.propagation import propagation_state

    engines = []
    build = propagation_state.PropagationState.__init__

    def recording(self, *args, **kwargs):
        build(self, *args, **kwargs)
        engines.append(weakref.ref(self))

    monkeypatch.setattr(propagation_state.PropagationState, "__init__", recording)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = sdy_dsl.run_pipeline(MODULE, "builtin.module(sdy-user-priority-propagate)")
        assert engines and all(engine() is None for engine in engines)
    finally:
        if was_enabled:
            gc.enable()
    # (it did propagate: %x's "a" and the body edge's "b" meet on the adds)
    assert ('stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}'
            in result.text)
