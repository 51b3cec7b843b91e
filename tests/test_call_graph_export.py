"""The export call-graph passes on inputs their lit files cannot hold: bad
modules (located one-line errors), and the `once` driver's post-order
traversal they rely on."""
from __future__ import annotations

import re
import textwrap

from lit_runner import run_sdy_dsl
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
               rf"propagate_to_func_results.yaml:\d+:\d+: error: rule 'result-shardings-from-returned-values' "
               rf"failed on 'func.func' at {re.escape(path)}:1:1: ValueError: the module has no main function")


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
