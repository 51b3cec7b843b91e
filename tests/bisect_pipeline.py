"""Find the first pass of a named pipeline where sdy-dsl and the reference part.

    python tests/bisect_pipeline.py MODULE.mlir|ZOO_MODEL [--pipeline 'sdy-propagation-pipeline{...}']
                                    [--reduce] [--keep DIR]

The pipeline's passes (sdy-dsl's expansion equals the reference's, see
test_named_pipelines.py) run one at a time on the reference's output of the
passes before: the first pass whose output differs (or that fails in sdy-dsl
only) is reported with its input; --reduce shrinks that input
(tests/reduce_module.py) while the pass alone still differs. Not part of pytest.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from jaxlib.mlir import passmanager

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reduce_module import reduce  # noqa: E402
from reference import run_reference  # noqa: E402
from sdy_dsl.api import run_pipeline  # noqa: E402
from sdy_dsl.errors import SdyDslError  # noqa: E402
from sdy_dsl.mlir_context import make_context  # noqa: E402
from sdy_dsl.pipeline import Pipeline, parse_pipeline_string, split_top_level  # noqa: E402


def reference_elements(pipeline: str) -> list[str]:
    """The reference's pipeline as one `builtin.module(...)` element per pass."""
    with make_context():
        printed = str(passmanager.PassManager.parse(f"builtin.module({pipeline})"))
    inner = printed[len("builtin.module("):-1]
    return [f"builtin.module({part})" for part in split_top_level(inner)]


def ours(text: str, step) -> tuple[bool, str]:
    try:
        return True, run_pipeline(text, Pipeline([step])).text
    except SdyDslError as e:
        return False, str(e)


def differs(text: str, element: str, step) -> bool:
    ok, expected = run_reference(text, element)
    if not ok:
        return False  # an invalid candidate: not this difference
    ok, got = ours(text, step)
    return not ok or got != expected


def bisect(text: str, pipeline: str):
    """(index, element, input) of the first differing pass, or None."""
    elements = reference_elements(pipeline)
    steps = parse_pipeline_string(pipeline).steps
    if len(elements) != len(steps):
        raise SystemExit(f"expansions differ: {len(steps)} passes vs the reference's {len(elements)}")
    current = text
    for i, (element, step) in enumerate(zip(elements, steps)):
        if step.name == "sdy-save-module":
            continue  # the reference builds it inside its pipelines only (and it changes nothing)
        ok, expected = run_reference(current, element)
        if not ok:
            raise SystemExit(f"the reference fails at pass {i} ({element})")
        got_ok, got = ours(current, step)
        if not got_ok or got != expected:
            return i, element, step, current, got, expected
        current = expected
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("module", help="an .mlir file or a zoo model name")
    ap.add_argument("--pipeline", default="sdy-propagation-pipeline")
    ap.add_argument("--reduce", action="store_true")
    ap.add_argument("--keep", default="", help="directory for the differing pass's input and outputs")
    args = ap.parse_args(argv)
    path = Path(args.module)
    if path.is_file():
        text = path.read_text()
    else:
        from models.zoo import lowered
        text = lowered(args.module)
    found = bisect(text, args.pipeline)
    if found is None:
        print(f"{args.module}: {args.pipeline} identical to the reference")
        return 0
    i, element, step, before, got, expected = found
    print(f"{args.module}: first difference at pass {i}: {element}")
    if args.reduce:
        before = reduce(before, lambda t: differs(t, element, step))
        _, expected = run_reference(before, element)
        _, got = ours(before, step)
    keep = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bisect-"))
    keep.mkdir(parents=True, exist_ok=True)
    (keep / "input.mlir").write_text(before)
    (keep / "reference.mlir").write_text(expected)
    (keep / "sdy_dsl.mlir").write_text(got)
    print(f"  input, reference.mlir and sdy_dsl.mlir in {keep}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
