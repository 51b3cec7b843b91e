"""sdy-reshard-to-collectives and the collective canonicalization against the
C++ reference on a seeded sample of the fuzzer (tests/fuzz_reshard_to_collectives.py;
long runs by hand: `python tests/fuzz_reshard_to_collectives.py --count 500`)."""
from __future__ import annotations

import random

import pytest

import fuzz_reshard_to_collectives as fuzz


@pytest.mark.parametrize("mode", sorted(fuzz.PIPELINES))
@pytest.mark.parametrize("seed", range(3))
def test_random_reshards_match_reference(seed, mode):
    rng = random.Random(seed)
    for _ in range(3):
        header, funcs = fuzz.random_module(rng, 12)
        for kind, text in fuzz.check_case(header, funcs, fuzz.PIPELINES[mode]):
            assert kind in ("same", "crash"), text


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
    assert fuzz.zoo_case(lowered(model)) == "same"
