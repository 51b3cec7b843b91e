"""The export call-graph passes on inputs their lit files cannot hold: bad
modules (located one-line errors), the `once` driver's post-order traversal
they rely on, and real models propagated by the reference, where their chain
must give the reference's output."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference
from test_cli_errors import fails_with, rules_dir, write

TWO_FUNCS_NO_MAIN = textwrap.dedent("""\
    func.func @a(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      return %arg0 : tensor<8xf32>
    }
    func.func @b(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      return %arg0 : tensor<8xf32>
    }
    """)


def test_propagate_to_func_results_without_main_is_a_located_error(tmp_path):
    path = write(tmp_path, "m.mlir", TWO_FUNCS_NO_MAIN)
    fails_with(["opt", path, "-sdy-propagate-to-func-results"],
               rf"^{re.escape(path)}:1:1: error: the module has no main function \(no '@main' and more than one function\)$")


ORDER_RULES = textwrap.dedent("""\
    pass: sdy-t
    summary: s
    driver: {kind: once, traversal: post-order}
    rules:
      - id: r
        match: "$op = stablehlo.negate|stablehlo.while"
        rewrite:
          - set_attr($op, "visit", visit_number())
    """)

ORDER_HOOKS = textwrap.dedent("""\
    from __future__ import annotations
    from sdy_dsl.hooks import hook
    from sdy_dsl.interp.context import RewriteContext


    @hook
    def visit_number(ctx: RewriteContext) -> int:
        count = ctx.run_state("count", lambda: [0])
        count[0] += 1
        return count[0]
    """)

NESTED = textwrap.dedent("""\
    func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
        cond {
        %c = stablehlo.constant dense<true> : tensor<i1>
        stablehlo.return %c : tensor<i1>
      } do {
        %1 = stablehlo.negate %iterArg : tensor<8xf32>
        stablehlo.return %1 : tensor<8xf32>
      }
      %2 = stablehlo.negate %0 : tensor<8xf32>
      return %2 : tensor<8xf32>
    }
    """)


def test_once_driver_post_order_visits_nested_ops_first(tmp_path):
    rules, _ = rules_dir(tmp_path, ORDER_RULES, hooks=ORDER_HOOKS)
    path = write(tmp_path, "n.mlir", NESTED)
    rc, out, err = run_sdy_dsl(["opt", path, "--rules", str(rules), "-sdy-t"])
    assert rc == 0, err
    visits = re.findall(r"stablehlo\.(while|negate)\b.*visit = (\d+)", out)
    # printed order: the while, the negate in its body, the negate after it;
    # visited: the body's negate, then the while holding it, then the last negate
    assert visits == [("while", "2"), ("negate", "1"), ("negate", "3")], out


def test_post_order_traversal_is_for_the_once_driver_only(tmp_path):
    rules, rule_file = rules_dir(tmp_path, ORDER_RULES.replace("kind: once", "kind: greedy"), hooks=ORDER_HOOKS)
    path = write(tmp_path, "n.mlir", NESTED)
    fails_with(["opt", path, "--rules", str(rules), "-sdy-t"],
               rf"^{re.escape(str(rule_file))}:3:\d+: error: 'traversal: post-order' applies to the once driver only")


# The reference's propagation pipeline up to propagation (its head), then the
# export call-graph passes (its tail) -- with dedup-functions-fully, the
# pipeline takes the func data-flow edge path instead of named computations.
_HEAD = ("symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,sdy-propagate-sharding-from-func-to-call,"
         "sdy-constant-or-scalar-splitter,symbol-dce,sdy-manual-axes-cleanup,sdy-add-data-flow-edges,{}"
         "sdy-pre-order-funcs,sdy-user-priority-propagate{{keep-sharding-rules=true "
         "propagation-strategy=aggressive run-op-priority-propagation=true}}")
CHAINS = {
    "named-computations": (
        _HEAD.format("sdy-flatten-call-graph,symbol-dce,sdy-import-func-calls{add-data-flow-edges-on-named-computations=true},"
                     "symbol-dce,sdy-apply-sharding-constraints,sdy-sharding-group-import,"),
        "sdy-export-named-computations,sdy-propagate-to-func-results,sdy-unflatten-call-graph,symbol-dce,"
        "sdy-insert-func-call-reshards"),
    "func-data-flow-edges": (
        _HEAD.format("sdy-apply-sharding-constraints,sdy-sharding-group-import,sdy-add-func-data-flow-edges,"),
        "sdy-propagate-to-func-results,func.func(sdy-sink-func-data-flow-edges),sdy-unflatten-call-graph,"
        "symbol-dce,sdy-insert-func-call-reshards"),
}
EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("chain", list(CHAINS))
@pytest.mark.parametrize("example", ["mlp_grad_2x4", "gpt2l_grad_2x4", "gpt_scan_grad_2x4"])
def test_export_call_graph_chain_matches_reference_after_propagation(tmp_path, example, chain):
    head, tail = CHAINS[chain]
    ok, propagated = run_reference((EXAMPLES / f"{example}.mlir").read_text(), f"builtin.module({head})")
    assert ok
    assert "call @" in propagated or "named_computation" in propagated  # the model has calls
    ok, expected = run_reference(propagated, f"builtin.module({tail})")
    assert ok
    path = write(tmp_path, "propagated.mlir", propagated)
    rc, out, err = run_sdy_dsl(["opt", path, f"--pass-pipeline=builtin.module({tail})"])
    assert rc == 0, err
    assert out == expected
