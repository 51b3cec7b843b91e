"""sdy-insert-explicit-reshards' `contracting-dimensions` param: for a dot
whose contracting dimension is sharded on both operands, all-reduce the
result (the default, the reference's) or all-gather the operands, chosen per
op pattern.

The all-gather choice resolves the op as if its rule made the contracting
factor need replication; its expected output is the reference's on the same
module with that rule attached to the dot (`need_replication={k}`) and the
full version on, less the attached rule.
"""
from __future__ import annotations

import textwrap

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

# Two dots, each contracting a dimension sharded on "x" on both operands:
# the first's operands have 128 and 64 elements, the second's 32 and 16.
MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2, "y"=2]>
    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg3: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, tensor<4x2xf32>) {
      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>BIG} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
      %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>SMALL} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
      return %0, %1 : tensor<8x4xf32>, tensor<4x2xf32>
    }
    """)
GATHER_BIG = ", sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} need_replication={k}>"
GATHER_SMALL = ", sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=4, j=2, k=8} need_replication={k}>"
FULL = "-sdy-insert-explicit-reshards=enable-full-version=true"
PLAIN = MODULE.replace("BIG", "").replace("SMALL", "")


def reference(module: str, flags: list[str], *drop: str) -> str:
    ok, out = run_reference(module, "builtin.module(" + ",".join(
        "func.func(sdy-insert-explicit-reshards{enable-full-version=true})" if f == FULL
        else f"func.func({f.lstrip('-')})" for f in flags) + ")")
    assert ok, out
    for attr in drop:
        assert attr in out
        out = out.replace(attr, "")
    return out


def run(tmp_path, flags: list[str], entries: str | None = None) -> str:
    module = tmp_path / "m.mlir"
    module.write_text(PLAIN)
    argv = ["opt", str(module), *flags]
    if entries is not None:
        rules = tmp_path / "my_rules"
        rules.mkdir(exist_ok=True)
        (rules / "contracting.yaml").write_text(
            "extends: sdy-insert-explicit-reshards\nparams:\n  contracting-dimensions:\n" + entries)
        argv += ["--rules", str(rules)]
    rc, out, err = run_sdy_dsl(argv)
    assert (rc, err) == (0, ""), err
    return out


ALL_DOTS = "    - {ops: [stablehlo.dot_general], contracting: all-gather}\n"
BIG_DOTS = ("    - {ops: [stablehlo.dot_general], when: {operands: {elements: {min: 100}}}, contracting: all-gather}\n"
            "    - {ops: [stablehlo.dot_general], contracting: all-reduce}\n")


@pytest.mark.parametrize("flags", [["-sdy-insert-explicit-reshards"], [FULL], [FULL, "-sdy-reshard-to-collectives"]])
def test_by_default_the_result_is_all_reduced_as_the_reference_does(tmp_path, flags):
    out = run(tmp_path, flags)
    assert out == reference(PLAIN, flags)
    if FULL in flags:
        assert out.count("sdy.all_reduce {\"x\"}") == 2 and "all_gather" not in out


def test_all_gather_the_operands_of_every_dot(tmp_path):
    # Outside the full version too: gathering the operands resolves the op.
    out = run(tmp_path, ["-sdy-insert-explicit-reshards"], ALL_DOTS)
    assert out == reference(MODULE.replace("BIG", GATHER_BIG).replace("SMALL", GATHER_SMALL), [FULL],
                            GATHER_BIG, GATHER_SMALL)
    assert out != reference(PLAIN, ["-sdy-insert-explicit-reshards"])
    collectives = run(tmp_path, ["-sdy-insert-explicit-reshards", "-sdy-reshard-to-collectives"], ALL_DOTS)
    assert "all_reduce" not in collectives
    assert [line.split(" = ")[1] for line in collectives.splitlines() if "sdy.all_gather" in line] == [
        'sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x16xf32>',
        'sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<16x4xf32>',
        'sdy.all_gather [{}, {"x"}] %arg2 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>',
        'sdy.all_gather [{"x"}, {}] %arg3 out_sharding=<@mesh, [{}, {}]> : tensor<8x2xf32>']


def test_the_choice_per_op_pattern(tmp_path):
    # Only the dot with an operand of 100 elements or more gathers; the other
    # is all-reduced (in the full version) as by default.
    out = run(tmp_path, [FULL], BIG_DOTS)
    assert out == reference(MODULE.replace("BIG", GATHER_BIG).replace("SMALL", ""), [FULL], GATHER_BIG)
    collectives = run(tmp_path, [FULL, "-sdy-reshard-to-collectives"], BIG_DOTS)
    kinds = [line.split(" = ")[1].split(" ")[0] for line in collectives.splitlines()
             if "sdy.all_" in line]
    assert kinds == ["sdy.all_gather", "sdy.all_gather", "sdy.all_reduce"]
    assert 'sdy.all_reduce {"x"} %3 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>' in collectives


@pytest.mark.parametrize("entry,error", [
    ("    - {ops: [stablehlo.dot_general], contracting: all-gathr}\n",
     "4:51: error: unknown contracting choice 'all-gathr' (did you mean 'all-gather'?)"),
    ("    - {ops: [stablehlo.dot_generl], contracting: all-gather}\n",
     "4:14: error: unknown op 'stablehlo.dot_generl'; did you mean 'stablehlo.dot_general'?"),
    ("    - {ops: [stablehlo.dot_general], contracting: all-gather, wehn: {results: 1}}\n",
     "4:63: error: unknown key 'wehn' (did you mean 'when'?)"),
    ("    - {ops: [stablehlo.dot_general], when: {results: {bites: 4}}, contracting: all-gather}\n",
     "4:55: error: unknown 'results' key 'bites' (did you mean 'bytes'?)"),
    ("    - {contracting: all-gather}\n", "4:7: error: an entry of 'contracting-dimensions' is {ops: "),
])
def test_a_bad_entry_is_a_located_error(tmp_path, entry, error):
    module = tmp_path / "m.mlir"
    module.write_text(PLAIN)
    rules = tmp_path / "my_rules"
    rules.mkdir()
    path = rules / "contracting.yaml"
    path.write_text("extends: sdy-insert-explicit-reshards\nparams:\n  contracting-dimensions:\n" + entry)
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-insert-explicit-reshards", "--rules", str(rules)])
    assert rc == 1 and out == ""
    assert err.startswith(f"{path}:{error}"), err
