"""sdy-reshard-to-collectives and the collective canonicalization against the
C++ reference on a seeded sample of the fuzzer (tests/fuzz_reshard_to_collectives.py;
long runs by hand: `python tests/fuzz_reshard_to_collectives.py --count 500`)."""
from __future__ import annotations

import difflib
import random

import pytest

import fuzz_reshard_to_collectives as fuzz
from reference import run_reference


# 40 seeds x 3 modules of 12 functions (1,440 reshards on 120 random meshes),
# run as 6 merged modules per mode: a run's fixed cost dominates a small
# module, and rare step-order bugs need many meshes (swapping the two
# all-to-all rounds of CollectiveChain.run first shows in module 11, running
# the all-gather before the second round in module 14; the fuzzer's default
# run, 50 modules of 20, misses the latter).
SAMPLE_SEEDS, GROUPS = 40, 6


def _sample_group(group: int) -> list:
    per = SAMPLE_SEEDS // GROUPS + 1
    modules = []
    for seed in range(group * per, min((group + 1) * per, SAMPLE_SEEDS)):
        rng = random.Random(seed)
        modules += [fuzz.random_module(rng, 12) for _ in range(3)]
    return modules


@pytest.mark.parametrize("mode", sorted(fuzz.PIPELINES))
@pytest.mark.parametrize("group", range(GROUPS))
def test_random_reshards_match_reference(group, mode):
    pipeline = fuzz.PIPELINES[mode]
    # (in-process: these seeds never crash the reference)
    for kind, text in fuzz.check_merged(_sample_group(group), pipeline):
        assert kind == "same", _first_difference(text, pipeline)


def _first_difference(text: str, pipeline: str) -> str:
    ref = run_reference(text, pipeline)
    ok, out = fuzz.ours(text, pipeline)
    if ref[0] is not True or not ok:
        return f"reference ok: {ref[0]}; ours ok: {ok}: {out[:2000]}"
    diff = difflib.unified_diff(ref[1].splitlines(), out.splitlines(), "reference", "sdy-dsl", n=3, lineterm="")
    return "\n".join(list(diff)[:40])


def test_sample_uses_every_collective():
    """The sample is not trivial: its chains use every collective kind."""
    rng = random.Random(0)
    seen = ""
    for _ in range(9):
        header, funcs = fuzz.random_module(rng, 12)
        ok, out = fuzz.ours(header + "\n" + "\n".join(funcs), fuzz.PIPELINES["default"])
        assert ok, out
        seen += out
    for kind in ("all_gather", "all_slice", "all_to_all", "collective_permute"):
        assert f"sdy.{kind} " in seen, kind


@pytest.mark.parametrize("model", ["gpt_scan_fsdp_4x2", "moe_2x2x2"])
def test_export_with_explicit_collectives_on_zoo_models(model):
    from models.zoo import lowered
    assert fuzz.zoo_case(lowered(model), isolate=False) == "same"


SINGLE_DEVICE = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @single = <[], device_ids=[0]>
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
             %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@single, []>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.reshard %arg0 <@single, []> : tensor<16x8xf32>
  %1 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}
"""


def test_reshards_to_or_from_a_single_device_stay():
    """Upstream Shardy keeps them (its lit file is the spec: jaxlib 0.10.2's
    pass predates it and fails to legalize them)."""
    ok, out = fuzz.ours(SINGLE_DEVICE, fuzz.PIPELINES["default"])
    assert ok, out
    assert "sdy.reshard %arg0 <@single, []>" in out and "sdy.reshard %arg1 <@mesh, [{}, {}]>" in out
