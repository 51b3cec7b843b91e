"""The Python API (`sdy_dsl.run_pipeline`) on a module JAX lowers inside the test.

Issue 13, problem 4: a JAX user has a `Lowered` or an `ir.Module`, not a file;
shipped pipelines could not be named.
"""
from __future__ import annotations

import pytest

from models import zoo  # sets up 8 fake CPU devices before jax starts
from reference import run_reference

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

import sdy_dsl  # noqa: E402
from sdy_dsl.errors import SdyDslError  # noqa: E402

# What pipelines/shardy_full.yaml runs, as the reference's pipeline string.
SHARDY_FULL = ("builtin.module(inline,symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,"
               "sdy-constant-or-scalar-splitter,sdy-manual-axes-cleanup,sdy-add-data-flow-edges,"
               "sdy-apply-sharding-constraints,sdy-sharding-group-import,sdy-user-priority-propagate,"
               "func.func(sdy-sink-data-flow-edges),sdy-remove-sharding-groups,"
               "func.func(sdy-sharding-constraint-to-reshard),sdy-update-non-divisible-input-output-shardings,"
               "sdy-close-shardings)")


def lower_mlp():
    mesh = zoo.make_mesh((2, 4), ("data", "model"))
    w1 = jax.ShapeDtypeStruct((16, 32), jnp.float32, sharding=NamedSharding(mesh, P(None, "model")))
    w2 = jax.ShapeDtypeStruct((32, 16), jnp.float32)
    x = jax.ShapeDtypeStruct((8, 16), jnp.float32, sharding=NamedSharding(mesh, P("data", None)))

    def mlp(x, w1, w2):
        return jnp.tanh(x @ w1) @ w2

    return jax.jit(mlp).lower(x, w1, w2)


@pytest.fixture(scope="module")
def lowered():
    return lower_mlp()


def test_run_pipeline_on_a_lowered_module_matches_the_reference(lowered):
    result = sdy_dsl.run_pipeline(lowered, "shardy_full")
    ok, expected = run_reference(lowered.as_text(), SHARDY_FULL)
    assert ok
    assert result.text == expected
    assert "sdy-user-priority-propagate" in result.pass_seconds
    # Propagation gave the hidden activation both axes.
    assert '[{"data"}, {"model"}]' in result.text


def test_text_ir_module_and_lowered_give_the_same_output_and_the_callers_module_is_untouched(lowered):
    module = lowered.compiler_ir("stablehlo")
    before = str(module)
    from_module = sdy_dsl.run_pipeline(module, "shardy_full")
    assert str(module) == before  # never mutates the caller's module
    from_text = sdy_dsl.run_pipeline(lowered.as_text(), "shardy_full")
    assert from_module.text == from_text.text


def test_pipeline_string_file_and_name(lowered, tmp_path):
    by_string = sdy_dsl.run_pipeline(lowered, SHARDY_FULL)
    pipeline_file = tmp_path / "p.yaml"
    from sdy_dsl.resources import builtin_pipelines_dir
    pipeline_file.write_text((builtin_pipelines_dir() / "shardy_full.yaml").read_text())
    by_file = sdy_dsl.run_pipeline(lowered, pipeline_file)
    by_name = sdy_dsl.run_pipeline(lowered, "shardy_full")
    assert by_string.text == by_file.text == by_name.text


def test_options_turn_on_the_reference_debug_origins(lowered):
    debug = {"debug-sharding-origins": True}
    pipeline = "builtin.module(sdy-add-data-flow-edges,sdy-user-priority-propagate)"
    result = sdy_dsl.run_pipeline(lowered, pipeline, options={"sdy-user-priority-propagate": debug})
    ok, expected = run_reference(
        lowered.as_text(),
        "builtin.module(sdy-add-data-flow-edges,sdy-user-priority-propagate{debug-sharding-origins=true})")
    assert ok and result.text == expected
    assert "sdy.sharding_origins" in result.text


def test_rule_stats_trace_and_user_rules(lowered, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    # The user's close-shardings keeps replicated axes: only the closing rule changes.
    (rules / "close.yaml").write_text(
        "pass: sdy-close-shardings\nsummary: closes only\ndriver: {kind: walk}\nrules:\n"
        "  - id: close-only\n    match: \"$op = *\"\n    rewrite:\n"
        "      - for_each_sharding($op, $s => closed($s))\n")
    pipeline = "sdy-user-priority-propagate,sdy-close-shardings"  # propagation leaves open shardings
    result = sdy_dsl.run_pipeline(lowered, pipeline, rules=rules, rule_stats=True, trace=True)
    assert result.rule_stats["sdy-close-shardings/close-only"].fired > 0
    assert "sdy-close-shardings/close-and-drop-replicated" not in result.rule_stats  # the built-in one
    assert any("close-only" in line for line in result.trace)
    assert "?" not in result.text


def test_errors_are_sdy_dsl_errors():
    with pytest.raises(SdyDslError, match="not implemented by sdy-dsl yet: sdy-convert-global-to-local"):
        sdy_dsl.run_pipeline("module {}", "builtin.module(sdy-convert-global-to-local)")
    with pytest.raises(SdyDslError, match=r"<python>:1:\d+: error: .*"):
        sdy_dsl.run_pipeline("func.func @f( {", "sdy-close-shardings")
    with pytest.raises(SdyDslError, match="no pipeline file 'shardy_ful' .*shardy_full"):
        sdy_dsl.run_pipeline("module {}", "shardy_ful")
    with pytest.raises(SdyDslError, match="options given for 'sdy-basic-propagate'"):
        sdy_dsl.run_pipeline("module {}", "sdy-close-shardings", options={"sdy-basic-propagate": {}})
