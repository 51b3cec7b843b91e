"""Decisions a user tunes from YAML alone, each a typed param of its pass with
the reference's behaviour as default (issue #30): which factor the aggressive
propagation visits first (`factor-ranking`), the order in which
sdy-reshard-to-collectives tries its steps (`step-order`) and when it
permutes (`permute`). Each is shown changing the output of a module where it
matters, and left at its default, changing nothing (the defaults' outputs are
the reference's, checked with tests/reference.py when these were written)."""
from __future__ import annotations

import itertools
import random
import textwrap
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl.runtime.collectives import CollectiveChain
from sdy_dsl.runtime.sharding import AxisRef, DimSharding, Mesh, MeshAxis, TensorSharding

# lhs sharded on its non-contracting dimension by "x", rhs on its own: both
# factors of the result want "x". Shardy's ranking visits first the factor
# whose source tensor is larger (rhs, 16x32), so the result is sharded on its
# second dimension.
CONFLICTING_DOT = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x32xf32> {
      %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      return %0 : tensor<8x32xf32>
    }
    """)
DOT_BY_SOURCE_SIZE = '#sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>'
DOT_BY_FACTOR_INDEX = '#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>'

# A reshard that swaps the order of two axes, and one that moves "x" from the
# first dimension to the second and drops "y".
RESHARDS = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2, "y"=2]>
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
      %0 = sdy.reshard %arg0 <@mesh, [{"y", "x"}, {}]> : tensor<8x8xf32>
      %1 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
      return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
    }
    """)
RESHARDS_REFERENCE = [
    '%0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<8x8xf32>',
    '%1 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<8x8xf32>',
    '%2 = sdy.all_to_all [{"x"}: 0->1] %1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>',
    '%3 = sdy.all_gather [{"y"}, {}] %2 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>',
]


def _run(tmp_path: Path, module: str, pass_flag: str, tuning: str | None = None) -> tuple[list[str], str]:
    source = tmp_path / "in.mlir"
    source.write_text(module)
    argv = ["opt", str(source), pass_flag]
    if tuning is not None:
        rules = tmp_path / "rules"
        rules.mkdir(exist_ok=True)
        (rules / "tuning.yaml").write_text(tuning)
        argv += ["--rules", str(rules)]
    rc, out, err = run_sdy_dsl(argv)
    assert rc == 0, err
    body = [line.strip() for line in out.splitlines()]
    return [line for line in body if line.startswith("%")], err


def _dot_sharding(lines: list[str]) -> str:
    (line,) = [line for line in lines if "dot_general" in line]
    return line.split("sdy.sharding = ")[1].split("} :")[0]


# ---------------------------------------------------------------- factor-ranking

def test_aggressive_factor_ranking_by_default_is_the_references(tmp_path):
    lines, _ = _run(tmp_path, CONFLICTING_DOT, "-sdy-aggressive-propagate")
    assert _dot_sharding(lines) == DOT_BY_SOURCE_SIZE
    # The default spelled out in a tuning file changes nothing.
    lines, err = _run(tmp_path, CONFLICTING_DOT, "-sdy-aggressive-propagate",
                      "extends: sdy-aggressive-propagate\nparams:\n  factor-ranking: "
                      "[source-tensor-size, elementwise-sharding-size, source-tensor-index, factor-index]\n")
    assert _dot_sharding(lines) == DOT_BY_SOURCE_SIZE and err == ""


@pytest.mark.parametrize("pass_flag", ["-sdy-aggressive-propagate", "-sdy-user-priority-propagate"])
def test_aggressive_factor_ranking_decides_which_tensor_wins(tmp_path, pass_flag):
    # Tuned on sdy-aggressive-propagate, it reaches the passes built on it.
    lines, err = _run(tmp_path, CONFLICTING_DOT, pass_flag,
                      "extends: sdy-aggressive-propagate\nparams:\n  factor-ranking: [factor-index]\n")
    assert _dot_sharding(lines) == DOT_BY_FACTOR_INDEX and err == ""
    # The smaller source tensor's operand index first: lhs wins too.
    lines, _ = _run(tmp_path, CONFLICTING_DOT, pass_flag,
                    "extends: sdy-aggressive-propagate\nparams:\n  factor-ranking: [source-tensor-index]\n")
    assert _dot_sharding(lines) == DOT_BY_FACTOR_INDEX


def _error(tmp_path: Path, module: str, pass_flag: str, tuning: str) -> str:
    source = tmp_path / "in.mlir"
    source.write_text(module)
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "tuning.yaml").write_text(tuning)
    rc, out, err = run_sdy_dsl(["opt", str(source), pass_flag, "--rules", str(tmp_path / "rules")])
    assert (rc, out) == (1, "")
    return err.strip().replace(str(tmp_path), "TMP")


def test_a_misspelled_factor_ranking_field_is_located(tmp_path):
    assert _error(tmp_path, CONFLICTING_DOT, "-sdy-aggressive-propagate",
                  "extends: sdy-aggressive-propagate\nparams:\n  factor-ranking: [factor-indx]\n") == (
        "TMP/rules/tuning.yaml:3:20: error: 'factor-ranking': unknown factor ranking field 'factor-indx' "
        "(did you mean 'factor-index'?)")


# ---------------------------------------------------------------- unprioritized-dims

# %arg0's "x" on dim 0 has priority p1; %arg1's "x" on dim 1 has none.
PRIORITIES = textwrap.dedent("""\
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
      %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
      return %0 : tensor<8x8xf32>
    }
    """)


def _add_sharding(lines: list[str]) -> str:
    (line,) = [line for line in lines if "stablehlo.add" in line]
    return line.split("sdy.sharding = ")[1].split("} :")[0]


def test_unprioritized_dims_by_default_take_part_with_p0(tmp_path):
    lines, _ = _run(tmp_path, PRIORITIES, "-sdy-user-priority-propagate")
    assert _add_sharding(lines) == '#sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>'  # the reference's
    lines, err = _run(tmp_path, PRIORITIES, "-sdy-user-priority-propagate",
                      "extends: sdy-user-priority-propagate\nparams:\n  unprioritized-dims: first\n")
    assert _add_sharding(lines) == '#sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>' and err == ""


def test_unprioritized_dims_last_let_p1_win(tmp_path):
    lines, err = _run(tmp_path, PRIORITIES, "-sdy-propagation-pipeline",
                      "extends: sdy-user-priority-propagate\nparams:\n  unprioritized-dims: last\n")
    assert any(line.startswith("%0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                               '[{"x"}, {}]>]>}') for line in lines), lines
    assert err == ""


def test_unprioritized_dims_on_a_schedule_without_user_priorities_is_an_error(tmp_path):
    assert _error(tmp_path, PRIORITIES, "-sdy-user-priority-propagate",
                  "extends: sdy-user-priority-propagate\nparams:\n  unprioritized-dims: last\n"
                  "  schedule:\n    - strategies: [aggressive]\n") == (
        "TMP/rules/tuning.yaml:3:3: error: 'unprioritized-dims' acts on the 'user-priorities' level, which this "
        "pass's schedule lacks")


# ---------------------------------------------------------------- reshard-to-collectives

def test_collective_params_by_default_are_the_references(tmp_path):
    lines, _ = _run(tmp_path, RESHARDS, "-sdy-reshard-to-collectives")
    assert lines[:4] == RESHARDS_REFERENCE
    lines, err = _run(tmp_path, RESHARDS, "-sdy-reshard-to-collectives",
                      "extends: sdy-reshard-to-collectives\nparams:\n"
                      "  step-order: [all-slice, collective-permute, all-to-all, all-gather]\n"
                      "  permute: when-shards-can-swap\n")
    assert lines[:4] == RESHARDS_REFERENCE and err == ""


def test_permute_never_gathers_and_slices_instead(tmp_path):
    lines, _ = _run(tmp_path, RESHARDS, "-sdy-reshard-to-collectives",
                    "extends: sdy-reshard-to-collectives\nparams:\n  permute: never\n")
    assert lines[:4] == [
        '%0 = sdy.all_gather [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>',
        '%1 = sdy.all_slice [{"y", "x"}, {}] %0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<8x8xf32>',
        '%2 = sdy.all_gather [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>',
        '%3 = sdy.all_slice [{}, {"x"}] %2 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>',
    ]


def test_step_order_gathering_first(tmp_path):
    lines, _ = _run(tmp_path, RESHARDS, "-sdy-reshard-to-collectives",
                    "extends: sdy-reshard-to-collectives\nparams:\n"
                    "  step-order: [all-gather, all-slice, collective-permute, all-to-all]\n")
    assert lines[:3] == [
        # (no axis to gather first: "x" and "y" are both target axes)
        '%0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<8x8xf32>',
        '%1 = sdy.all_gather [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>',
        '%2 = sdy.all_slice [{}, {"x"}] %1 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>',
    ]


def test_step_order_must_name_each_step_once(tmp_path):
    assert _error(tmp_path, RESHARDS, "-sdy-reshard-to-collectives",
                  "extends: sdy-reshard-to-collectives\nparams:\n  step-order: [all-gather, all-slice]\n") == (
        "TMP/rules/tuning.yaml:3:15: error: 'step-order' names each of: all-slice, collective-permute, all-to-all, "
        "all-gather once (missing: collective-permute, all-to-all)")


def _random_sharding(rng: random.Random) -> TensorSharding:
    dims: list[list] = [[], []]
    axes = [AxisRef("x"), AxisRef("y"), AxisRef("z", 1, 2) if rng.random() < 0.3 else AxisRef("z")]
    rng.shuffle(axes)
    for axis in axes:
        where = rng.randrange(3)
        if where < 2:
            dims[where].append(axis)
    return TensorSharding("mesh", tuple(DimSharding(tuple(d), True) for d in dims))


def test_every_tuned_chain_reaches_its_target_step_by_step():
    """Any step order and permute policy gives a chain whose every step does
    what its kind says and that ends at the target (the check a tuned chain
    runs, `_is_sound`, holds for Shardy's own chains too)."""
    mesh = Mesh((MeshAxis("x", 2), MeshAxis("y", 2), MeshAxis("z", 4)))
    rng = random.Random(30)
    settings = list(itertools.product(itertools.permutations(CollectiveChain.REFERENCE_STEP_ORDER),
                                      CollectiveChain.PERMUTE_POLICIES.names()))
    differing = 0
    for _ in range(40):
        source, target = _random_sharding(rng), _random_sharding(rng)
        reference = CollectiveChain(source, target, mesh, (16, 16))
        reference_steps = reference.run()
        assert reference._is_sound()
        for order, permute in settings:
            chain = CollectiveChain(source, target, mesh, (16, 16), order, permute)
            steps = chain.run()
            assert chain._is_sound(), (source.text(), target.text(), order, permute)
            differing += steps != reference_steps
    assert differing > 100  # the params change the chains


def test_a_factor_strategy_registered_by_a_hook_module_beside_the_rule_file(tmp_path):
    """How a strategy is added (docs/rule-language.md): a hook module beside
    the rule file registers it in FACTOR_STRATEGIES; the schedule names it."""
    name = f"lhs-first-{tmp_path.name}"  # one registry per process: a name per test run
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "my_strategy.py").write_text(textwrap.dedent(f"""\
        from sdy_dsl.runtime.propagation.aggressive_factor_propagation import AggressiveFactorPropagation
        from sdy_dsl.runtime.propagation.aggressive_propagation import FACTOR_STRATEGIES

        if "{name}" not in FACTOR_STRATEGIES:
            FACTOR_STRATEGIES.register("{name}", AggressiveFactorPropagation(ranking=["factor-index"]))
        """))
    (rules / "my_propagate.yaml").write_text(textwrap.dedent(f"""\
        pass: my-propagate
        extends: sdy-basic-propagate
        summary: Basic propagation, then the first factor first.
        hooks: my_strategy.py
        params:
          schedule:
            - strategies: [basic, {name}]
        """))
    source = tmp_path / "in.mlir"
    source.write_text(CONFLICTING_DOT)
    rc, out, err = run_sdy_dsl(["opt", str(source), "-my-propagate", "--rules", str(rules)])
    assert rc == 0, err
    assert _dot_sharding([line.strip() for line in out.splitlines()]) == DOT_BY_FACTOR_INDEX
