"""Real JAX-lowered modules (examples/) through each pass: identical to the C++ reference."""
from __future__ import annotations

from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from reference import run_reference

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.mlir"))
SIMPLE_PASSES = [
    "sdy-close-shardings", "sdy-drop-sharding-rules", "sdy-inline-meshes", "sdy-lift-inlined-meshes",
    "sdy-remove-size-one-axes", "sdy-remove-sharding-groups", "sdy-sharding-constraint-to-reshard",
    "sdy-populate-op-sharding-rules",
]
FUNC_LEVEL = {"sdy-drop-sharding-rules", "sdy-sharding-constraint-to-reshard", "sdy-populate-op-sharding-rules"}
# What the reference runs before propagation in Shardy's pipeline (the input propagation expects).
IMPORT_PREFIX = ("inline,symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,"
                 "sdy-constant-or-scalar-splitter,sdy-manual-axes-cleanup,sdy-add-data-flow-edges,"
                 "sdy-apply-sharding-constraints,sdy-sharding-group-import")
PROPAGATION_PASSES = ["sdy-basic-propagate", "sdy-aggressive-propagate", "sdy-op-priority-propagate",
                      "sdy-user-priority-propagate"]


def _ids(paths):
    return [p.stem for p in paths]


@pytest.mark.parametrize("pass_name", SIMPLE_PASSES)
@pytest.mark.parametrize("example", EXAMPLES, ids=_ids(EXAMPLES))
def test_pass_on_real_module_matches_reference(example, pass_name):
    element = f"func.func({pass_name})" if pass_name in FUNC_LEVEL else pass_name
    ok, expected = run_reference(example.read_text(), f"builtin.module({element})")
    assert ok
    rc, out, err = run_sdy_dsl(["opt", str(example), f"-{pass_name}"])
    assert rc == 0, err
    assert out == expected


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """Each example after the reference's import passes (propagation's input)."""
    cache = {}
    directory = tmp_path_factory.mktemp("imported")

    def get(example: Path) -> Path:
        if example not in cache:
            ok, text = run_reference(example.read_text(), f"builtin.module({IMPORT_PREFIX})")
            assert ok
            path = directory / example.name
            path.write_text(text)
            cache[example] = path
        return cache[example]
    return get


@pytest.mark.parametrize("pass_name", PROPAGATION_PASSES)
@pytest.mark.parametrize("example", EXAMPLES, ids=_ids(EXAMPLES))
def test_propagation_on_real_module_matches_reference(imported, example, pass_name):
    source = imported(example)
    ok, expected = run_reference(source.read_text(), f"builtin.module({pass_name})")
    assert ok
    rc, out, err = run_sdy_dsl(["opt", str(source), f"-{pass_name}"])
    assert rc == 0, err
    assert out == expected
