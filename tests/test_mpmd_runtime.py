"""Unit tests of sdy_dsl/runtime/mpmd.py: reading MPMD types, topologies and attribute dictionaries."""
from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from sdy_dsl.mlir_context import make_context
from sdy_dsl.runtime import mpmd
from sdy_dsl.runtime.sharding import Mesh, MeshAxis

MODULE = '''
!sharded = !mpmd.mesh_tensor<"m/cpu", tensor<6x8xf32>, sharding=<@mesh, [{"x"}, {?}]>, memory_kind="pinned_host">
func.func @main(%arg0: !sharded {mhlo.memory_kind = "pinned_host", jax.buffer_donor = true},
                %arg1: !mpmd.mesh_tensor<"m", tensor<4xi1>>) -> (!sharded)
    attributes {topology = #mpmd.topology<<"m": <["x"=2, "y"=3]>>, <"m/cpu": <["x"=2], device_ids=[1, 0]>>>} {
  %0 = mpmd.fragment<mesh="m/cpu", origin=["block_1"(1), "head"]> (%arg0) {res_attrs = [{mhlo.layout_mode = "auto"}]}
      (%a: tensor<6x8xf32>) {
    mpmd.return %a : tensor<6x8xf32>
  } : (!sharded) -> !sharded
  return %0 : !sharded
}
func.func private @helper() attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return
}
'''


@pytest.fixture()
def module():
    with make_context(), ir.Location.unknown():
        yield ir.Module.parse(MODULE)


def _ops(module):
    main, helper = (op.operation for op in module.body.operations)
    fragment = next(op.operation for op in main.regions[0].blocks[0].operations if op.operation.name == "mpmd.fragment")
    return main, helper, fragment


def test_mesh_tensor_type_parts(module):
    main, _, _ = _ops(module)
    arg0, arg1 = main.regions[0].blocks[0].arguments
    sharded = mpmd.mesh_tensor_type(arg0.type)
    assert sharded.mesh_name == "m/cpu"
    assert sharded.memory_kind == "pinned_host"
    assert str(sharded.global_type) == "tensor<6x8xf32>"
    assert sharded.sharding.mesh_name == "mesh"
    assert [d.is_open for d in sharded.sharding.dims] == [False, True]
    assert str(sharded.sharding_attr()) == '#sdy.sharding<@mesh, [{"x"}, {?}]>'
    plain = mpmd.mesh_tensor_type(arg1.type)
    assert (plain.mesh_name, plain.memory_kind, plain.sharding, plain.sharding_attr()) == ("m", None, None, None)
    assert mpmd.mesh_tensor_type(ir.Type.parse("tensor<4xf32>")) is None
    # Parsed once per distinct type.
    assert mpmd.mesh_tensor_type(arg0.type) is sharded


def test_local_shape_rounds_up_and_sizes_sub_byte_types(module):
    main, _, _ = _ops(module)
    arg0, arg1 = main.regions[0].blocks[0].arguments
    mesh = Mesh((MeshAxis("x", 2),))
    sharded = mpmd.mesh_tensor_type(arg0.type)
    assert sharded.local_shape(mesh) == [3, 8]
    assert str(sharded.local_type(mesh)) == "tensor<3x8xf32>"
    assert sharded.local_bytes(mesh) == 3 * 8 * 4
    # A type alone is not checked for divisibility: sizes round up.
    uneven = mpmd.mesh_tensor_type(ir.Type.parse('!mpmd.mesh_tensor<"m", tensor<5xf32>, sharding=<@mesh, [{"x"}]>>'))
    assert uneven.local_shape(mesh) == [3]
    # Unsharded: the global shape; i1 counts an eighth of a byte.
    assert mpmd.mesh_tensor_type(arg1.type).local_bytes(None) == 0.5


def test_mesh_tensor_type_with_nested_brackets_and_commas(module):
    text = '!mpmd.mesh_tensor<"a,b<c>", tensor<2x4xf32>, sharding=<mesh<["z"=2]>, [{}, {"z"}]>, memory_kind="device">'
    parsed = mpmd.mesh_tensor_type(ir.Type.parse(text))
    assert parsed.mesh_name == "a,b<c>"
    assert parsed.sharding.inline_mesh == Mesh((MeshAxis("z", 2),))
    assert parsed.memory_kind == "device"
    assert parsed.local_shape(parsed.sharding.inline_mesh) == [2, 2]


def test_topology_in_declaration_order(module):
    main, helper, _ = _ops(module)
    topology = mpmd.topology(main)
    assert list(topology) == ["m", "m/cpu"]
    assert topology["m"] == Mesh((MeshAxis("x", 2), MeshAxis("y", 3)))
    assert topology["m/cpu"].device_ids == (1, 0)
    assert str(mpmd.mesh_attr(topology["m/cpu"])) == '#sdy.mesh<["x"=2], device_ids=[1, 0]>'
    assert mpmd.topology(helper) == {}


def test_entry_points(module):
    main, helper, fragment = _ops(module)
    assert mpmd.is_mpmd_function(main) and mpmd.is_entry_point_function(main)
    assert mpmd.is_spmd_function(helper) and not mpmd.is_public(helper)
    assert not mpmd.is_entry_point_function(helper)
    assert not mpmd.is_mpmd_function(fragment)
    assert mpmd.enclosing_function(fragment) == main


def test_fragment_reading(module):
    main, _, fragment = _ops(module)
    assert mpmd.fragment_mesh_name(fragment) == "m/cpu"
    assert mpmd.origins(fragment) == [("block_1", 1), ("head", 0)]
    assert mpmd.body_terminator(fragment).name == "mpmd.return"
    assert mpmd.body_terminator(main).name == "func.return"
    assert mpmd.optional_int(fragment, "stage_id") is None


def test_attr_entries_read(module):
    main, _, fragment = _ops(module)
    arg0 = main.regions[0].blocks[0].arguments[0]
    assert mpmd.string_entry(main, mpmd.ARG_ATTRS, 0, mpmd.MEMORY_KIND_ATTR) == "pinned_host"
    assert mpmd.attr_entry(main, mpmd.ARG_ATTRS, 1, mpmd.MEMORY_KIND_ATTR) is None
    assert mpmd.attr_entry(main, mpmd.RES_ATTRS, 0, mpmd.MEMORY_KIND_ATTR) is None  # no res_attrs at all
    assert str(mpmd.function_argument_entry(arg0, "jax.buffer_donor")) == "true"
    assert mpmd.function_argument_entry(fragment.results[0], "jax.buffer_donor") is None
    assert mpmd.string_entry(fragment, mpmd.RES_ATTRS, 0, "mhlo.layout_mode") == "auto"
    assert mpmd.entry_count(main, mpmd.ARG_ATTRS) == 2 and mpmd.entry_count(main, mpmd.RES_ATTRS) == 1
    assert mpmd.entry_count(fragment, mpmd.ARG_ATTRS) == 1
    assert mpmd.same_entry(None, None) and not mpmd.same_entry(None, ir.StringAttr.get("x"))
    assert mpmd.diagnostic_text(None) == "<<NULL ATTRIBUTE>>"


def test_with_entries_sets_and_removes(module):
    main, _, fragment = _ops(module)
    kind = ir.StringAttr.get("device")
    # Absent list: one empty dictionary per argument, then the update.
    assert str(mpmd.with_entries(fragment, mpmd.ARG_ATTRS, {0: {mpmd.MEMORY_KIND_ATTR: kind}})) == \
        '[{mhlo.memory_kind = "device"}]'
    # Existing entries are kept, a None value removes one.
    updated = mpmd.with_entries(main, mpmd.ARG_ATTRS, {0: {mpmd.MEMORY_KIND_ATTR: None}, 1: {"a": kind}})
    assert str(updated) == '[{jax.buffer_donor = true}, {a = "device"}]'
    assert str(mpmd.with_entries(main, mpmd.RES_ATTRS, {})) == "[{}]"
