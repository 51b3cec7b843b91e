"""A user declares, in YAML alone, that one custom_call target owns data-flow edges."""
from __future__ import annotations

import textwrap

from lit_runner import run_sdy_dsl

MODULE = textwrap.dedent("""\
    sdy.mesh @mesh = <["a"=2]>
    func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
      %0 = stablehlo.custom_call @my_barrier(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
      %1 = stablehlo.custom_call @other_target(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
      return %0, %1 : tensor<8xf32>, tensor<8xf32>
    }
    """)

USER_INTERFACES = textwrap.dedent("""\
    ops:
      stablehlo.custom_call:
        data-flow:
          when: {call_target_name: "my_barrier"}
          owners: [results]
          sources: [operands]
    """)


def _edge_lines(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if "sdy.data_flow_edge" in line]


def test_declared_custom_call_gets_an_edge(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "interfaces.yaml").write_text(USER_INTERFACES)
    source = tmp_path / "in.mlir"
    source.write_text(MODULE)

    rc, out, err = run_sdy_dsl(["opt", "--rules", str(rules), str(source), "-sdy-add-data-flow-edges"])
    assert rc == 0, err
    # Only the declared target's result owns an edge, which takes its sharding.
    assert _edge_lines(out) == ['%1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>']
    assert "return %1, %2" in out

    # Sinking the edge moves its sharding back onto the custom_call.
    edged = tmp_path / "edged.mlir"
    edged.write_text(out.replace('sharding=<@mesh, [{"a"}]>', 'sharding=<@mesh, [{?}]>'))
    rc, out, err = run_sdy_dsl(["opt", "--rules", str(rules), str(edged), "-sdy-sink-data-flow-edges"])
    assert rc == 0, err
    assert not _edge_lines(out)
    assert '@my_barrier(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>}' in out


def test_declaration_does_not_outlive_its_run(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text(MODULE)
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "interfaces.yaml").write_text(USER_INTERFACES)
    assert run_sdy_dsl(["opt", "--rules", str(rules), str(source), "-sdy-add-data-flow-edges"])[0] == 0
    rc, out, err = run_sdy_dsl(["opt", str(source), "-sdy-add-data-flow-edges"])
    assert rc == 0, err
    assert not _edge_lines(out)
