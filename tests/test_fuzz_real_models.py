"""The real-model fuzzer (tests/fuzz_real_models.py) on a few seeds of one
small Flax train step: random valid shardings on @main's arguments and
results, then the full Shardy chain, sdy-dsl against the C++ reference.
The long runs are by hand (`python tests/fuzz_real_models.py --count N`).
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import fuzz_real_models as fuzz

MODEL = "flax_nnx_convnet_4x2"
# Cases the fuzzer found, reduced with `fuzz_real_models.py --reduce` (each file says what differed).
FOUND = sorted((Path(__file__).parent / "data" / "real_models").glob("*.mlir"))
SEEDS = range(5)


@pytest.fixture(scope="module", autouse=True)
def warm():
    fuzz.warm_up()


@pytest.mark.parametrize("seed", SEEDS)
def test_random_shardings_match_reference(seed):
    case = fuzz.make_case(MODEL, seed)
    kind, expected, actual = fuzz.compare(case.text())
    # "invalid" would mean the generator wrote a sharding the verifier rejects.
    assert kind == "identical", case.describe() + "\n" + (
        fuzz.first_difference(expected, actual) if kind == "differ" else f"{kind}: {actual}")


def test_generated_shardings_are_valid_and_varied():
    """Over many draws the generator uses every feature it promises, and
    never an axis twice in one tensor or a non-dividing axis product."""
    rng = random.Random(0)
    axes = {"data": 2, "model": 4}
    texts = []
    for _ in range(300):
        shape = tuple(rng.choice([1, 2, 4, 8, 6]) for _ in range(rng.randint(0, 3)))
        s = fuzz.random_sharding(rng, "mesh", axes, shape)
        names = [a.name for d in s.dims for a in d.axes] + [a.name for a in s.replicated]
        assert len(names) == len(set(names)), s.text()
        for size, d in zip(shape, s.dims):
            product = 1
            for a in d.axes:
                product *= a.size
            assert size % product == 0, s.text()
            assert d.axes or d.open or d.priority is None, s.text()
        texts.append(s.text())
    joined = "\n".join(texts)
    for feature in (r'"model":\(1\)2', r'"model":\(2\)2', r"\?", r"\}p[0-3]", "replicated="):
        assert re.search(feature, joined), feature


@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_found_cases_match_reference(path):
    kind, expected, actual = fuzz.compare(path.read_text())
    assert kind == "identical", fuzz.first_difference(expected, actual) if kind == "differ" else actual
