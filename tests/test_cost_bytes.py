"""`sdy-dsl cost`'s byte counts (sdy_dsl/cost.py) checked by hand: every
element type, dimensions that a mesh axis does not divide evenly, sub-axes,
unreduced/replicated axes, and every collective kind. The expected numbers
are worked out in the comments, not computed by the code under test.

Element sizes: what one element occupies in a collective, in whole bytes.
Sub-byte types (i1, i2, i4, ui4, f4E2M1FN, f6...) count one byte each: XLA's
`pred` is one byte, and on the CPU backend a collective of an s4/u4/s2 array
runs on it widened to s8 (u8), one byte per element. (XLA packs sub-byte
arrays in device buffers, layout `E(4)`, but a collective does not move them
packed.) f8 types are one byte, complex<T> two Ts."""
from __future__ import annotations

import json

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl.cost import cost, measure

# Element type -> bytes per element, by hand (see the module docstring).
ELEMENT_BYTES = {
    "i1": 1, "i2": 1, "i4": 1, "ui4": 1, "si4": 1, "i8": 1, "ui8": 1, "i16": 2, "ui16": 2,
    "i32": 4, "ui32": 4, "i64": 8, "ui64": 8,
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
    "f8E4M3FN": 1, "f8E5M2": 1, "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1, "f8E4M3B11FNUZ": 1, "f8E4M3": 1,
    "f8E3M4": 1, "f8E8M0FNU": 1, "f4E2M1FN": 1, "f6E2M3FN": 1, "f6E3M2FN": 1,
    "complex<f32>": 8, "complex<f64>": 16,
}

MESH = 'sdy.mesh @mesh = <["x"=4, "y"=2]>\n'


def _gather_function(name: str, element: str) -> str:
    # arg: 6x8 split [{"x"}, {"y"}]; the gather over "y" leaves [{"x"}, {}].
    t = f"tensor<6x8x{element}>"
    return f"""func.func @{name}(%arg0: {t} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}})
    -> ({t} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}) {{
  %0 = sdy.all_gather [{{}}, {{"y"}}] %arg0 out_sharding=<@mesh, [{{"x"}}, {{}}]> : {t}
  return %0 : {t}
}}
"""


def test_every_element_type_by_hand():
    names = {f"f{i}": element for i, element in enumerate(ELEMENT_BYTES)}
    report = measure(MESH + "".join(_gather_function(n, e) for n, e in names.items()))
    measured = {names[f.name]: ([v.bytes for v in f.arguments], [v.bytes for v in f.results],
                                [(c.kind, c.bytes) for c in f.collectives]) for f in report.functions}
    # Per device, dim 0 (6) split 4 ways by "x" holds ceil(6/4) = 2 rows (XLA
    # pads the 6 rows to 8 and gives each device 2).
    # argument: 2 x (8 / 2) = 8 elements; result and gather: 2 x 8 = 16.
    expected = {e: ([8 * b], [16 * b], [("all_gather", 16 * b)]) for e, b in ELEMENT_BYTES.items()}
    assert measured == expected
    # Spelled out for the two that matter most:
    assert measured["complex<f32>"] == ([64], [128], [("all_gather", 128)])  # 8x8, 16x8 bytes
    assert measured["i4"] == ([8], [16], [("all_gather", 16)])  # one byte each


# (tensor type, sharding, bytes per device, bytes of the whole tensor), by hand.
UNEVEN = [
    # 6 rows over "x"=4: ceil(6/4) = 2 rows (floor would give 1); 2 x 4 bytes. Whole: 6 x 4.
    ("tensor<6xf32>", '[{"x"}]', 8, 24),
    # 7 over "y"=2: ceil(7/2) = 4 -> 4 x 2 bytes (bf16). Whole: 7 x 2.
    ("tensor<7xbf16>", '[{"y"}]', 8, 14),
    # 3 over "x"=4: ceil(3/4) = 1 (floor: 0) -> 1 x 16 (complex<f64>). Whole: 3 x 16.
    ("tensor<3xcomplex<f64>>", '[{"x"}]', 16, 48),
    # 5 over "x","y" = 8: ceil(5/8) = 1 -> 8 bytes (i64). Whole: 5 x 8.
    ("tensor<5xi64>", '[{"x", "y"}]', 8, 40),
    # 6x7 over [{"x"}, {"y"}]: ceil(6/4) x ceil(7/2) = 2 x 4 = 8 complex<f32> = 64. Whole: 42 x 8.
    ("tensor<6x7xcomplex<f32>>", '[{"x"}, {"y"}]', 64, 336),
    # the sub-axis "x":(1)2 has size 2: 5 -> ceil(5/2) = 3 f16 = 6 bytes. Whole: 5 x 2.
    ("tensor<5xf16>", '[{"x":(1)2}]', 6, 10),
    # "x":(2)2 then "y": 2 x 2 = 4 ways; 9 -> ceil(9/4) = 3 f8E4M3FN = 3 bytes. Whole: 9.
    ("tensor<9xf8E4M3FN>", '[{"x":(2)2, "y"}]', 3, 9),
    # unreduced and replicated axes split nothing: 6 x 8 x 4 = 192.
    ("tensor<6x8xf32>", '[{}, {}], unreduced={"x"}', 192, 192),
    ("tensor<6x8xf32>", '[{}, {}], replicated={"y"}', 192, 192),
    # only dim 1 split: 6 x ceil(5/4) = 6 x 2 = 12 i1 (1 byte each). Whole: 30.
    ("tensor<6x5xi1>", '[{}, {"x"}]', 12, 30),
    # an empty dim stays empty: 0 bytes.
    ("tensor<0x8xf32>", '[{"x"}, {}]', 0, 0),
]


@pytest.mark.parametrize("tensor, sharding, sharded, whole", UNEVEN, ids=[f"{t} {s}" for t, s, _, _ in UNEVEN])
def test_dims_that_do_not_divide_evenly(tensor, sharding, sharded, whole):
    text = MESH + f"""func.func @main(%arg0: {tensor} {{sdy.sharding = #sdy.sharding<@mesh, {sharding}>}}) -> {tensor} {{
  return %arg0 : {tensor}
}}
"""
    (main,) = measure(text).functions
    assert [v.bytes for v in main.arguments] == [sharded]
    assert [v.bytes for v in main.results] == [whole]  # no sharding


# Every collective kind on a 6x8 complex<f32> (8 bytes) tensor: each counts
# its result's shard (all_slice: 0, it only slices locally).
KINDS = MESH + """func.func @main(%arg0: tensor<6x8xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<6x8xcomplex<f32>> {
  %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x8xcomplex<f32>>
  %1 = sdy.all_slice [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<6x8xcomplex<f32>>
  %2 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<6x8xcomplex<f32>>
  %3 = sdy.collective_permute %1 out_sharding=<@mesh, [{"y", "x":(1)2}, {"x":(2)2}]> : tensor<6x8xcomplex<f32>>
  %4 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x8xcomplex<f32>>
  %5 = sdy.reduce_scatter [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<6x8xcomplex<f32>>
  return %5 : tensor<6x8xcomplex<f32>>
}
"""


def test_every_collective_kind_by_hand():
    (main,) = measure(KINDS).functions
    assert [(c.kind, c.bytes) for c in main.collectives] == [
        ("all_gather", 128),  # [{"x"}, {}]: ceil(6/4) x 8 = 16 elements x 8 bytes
        ("all_slice", 0),  # local
        ("all_to_all", 96),  # [{}, {"x"}]: 6 x 8/4 = 12 elements x 8
        ("collective_permute", 64),  # [{"y", "x":(1)2}, {"x":(2)2}]: ceil(6/4) x 8/2 = 8 x 8
        ("all_reduce", 128),  # [{"x"}, {}]: as the all_gather
        ("reduce_scatter", 64),  # [{"x"}, {"y"}]: 2 x 4 = 8 x 8
    ]
    assert measure(KINDS).totals() == {
        "all_gather": {"count": 1, "bytes": 128}, "all_reduce": {"count": 1, "bytes": 128},
        "all_slice": {"count": 1, "bytes": 0}, "all_to_all": {"count": 1, "bytes": 96},
        "collective_permute": {"count": 1, "bytes": 64}, "reduce_scatter": {"count": 1, "bytes": 64}}


# End to end through the CLI: the export inserts the collectives itself.
RESHARD_AT_RETURN = MESH + """func.func @main(%arg0: tensor<6x8xcomplex<f64>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<7x3xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<6x8xcomplex<f64>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<7x3xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  return %arg0, %arg1 : tensor<6x8xcomplex<f64>>, tensor<7x3xbf16>
}
"""


def test_cli_and_api_on_uneven_complex_and_bf16(tmp_path):
    path = tmp_path / "m.mlir"
    path.write_text(RESHARD_AT_RETURN)
    rc, out, err = run_sdy_dsl(["cost", str(path), "--pipeline", "none", "--json"])
    assert rc == 0, err
    (main,) = json.loads(out)["functions"]
    # arg 0: ceil(6/4) x 8/2 = 8 complex<f64> x 16 = 128; arg 1: ceil(7/2) x 3 = 12 bf16 x 2 = 24.
    assert [a["bytes"] for a in main["arguments"]] == [128, 24]
    # result 0: 2 x 8 x 16 = 256; result 1: 7 x 3 x 2 = 42.
    assert [r["bytes"] for r in main["results"]] == [256, 42]
    # gathers: "y" off dim 1 of arg 0 (result 2x8 complex<f64> = 256 bytes);
    # "y" off dim 0 of arg 1 (result 7x3 bf16 = 42 bytes).
    assert sorted((c["kind"], c["bytes"]) for c in main["collectives"]) == [("all_gather", 42), ("all_gather", 256)]
    assert cost(RESHARD_AT_RETURN, None).totals() == {"all_gather": {"count": 2, "bytes": 298}}
