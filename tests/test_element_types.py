"""Every element type a dense constant can have (complex, integers of every
width, bool, f8 / bf16 / f16 / f32 / f64) through every pass and the shipped
pipelines, compared with the C++ reference (issue 24: a complex constant used
to make the bindings raise while a pass read an op's attributes)."""
from __future__ import annotations

from pathlib import Path

import pytest

from fuzz_passes import PASSES
from lit_runner import run_sdy_dsl
from reference import pipeline_from_flags, run_reference
from test_full_chain import PIPELINE_FILE, REFERENCE_CHAIN, RESHARDS_CHAIN, RESHARDS_PIPELINE_FILE

MODULE = Path(__file__).parent / "data" / "element_types" / "every_element_type.mlir"

PROPAGATION = ["sdy-user-priority-propagate", "sdy-aggressive-propagate", "sdy-basic-propagate",
               "sdy-op-priority-propagate"]
# pass flag -> reference passes that make its input (fuzz_passes' table, '@variant' keys once).
# The reference's propagation and explicit reshards crash on a mesh inlined
# next to a symbol one (arg 1 of each pair): they get the lifted module.
CASES = {key.split("@")[0]: prefix for key, prefix in PASSES.items()}
CASES.update({name: ["sdy-lift-inlined-meshes"] for name in PROPAGATION})
for _flag in CASES:
    if _flag.startswith("sdy-insert-explicit-reshards"):
        CASES[_flag] = ["sdy-lift-inlined-meshes"]


@pytest.mark.parametrize("flag", sorted(CASES))
def test_every_element_type_through_each_pass(flag, tmp_path):
    text = MODULE.read_text()
    if CASES[flag]:
        ok, text = run_reference(text, pipeline_from_flags(CASES[flag]))
        assert ok, "the reference rejected the prefix"
    ok, expected = run_reference(text, pipeline_from_flags([flag]))
    assert ok, "the reference rejected the input"
    path = tmp_path / "in.mlir"
    path.write_text(text)
    rc, out, err = run_sdy_dsl(["opt", str(path), "-" + flag])
    assert rc == 0, err
    assert out == expected


@pytest.mark.parametrize("pipeline_file,chain", [(PIPELINE_FILE, REFERENCE_CHAIN),
                                                 (RESHARDS_PIPELINE_FILE, RESHARDS_CHAIN)],
                         ids=["full", "full+reshards"])
def test_every_element_type_through_the_pipelines(pipeline_file, chain):
    ok, expected = run_reference(MODULE.read_text(), chain)
    assert ok, "the reference rejected the input"
    rc, out, err = run_sdy_dsl(["run", str(pipeline_file), str(MODULE)])
    assert rc == 0, err
    assert out == expected
