"""The named pipelines (pipelines/sdy_*_pipeline.yaml) expand to the passes the
reference's pipelines run, with the same options, for each option combination.

The reference's expansion is what jaxlib's PassManager prints for the pipeline
(parsing only: nothing runs). Its sdy-save-module steps print no options (the
reference builds them inside its pipelines); ours carry the dump file's name,
checked against the files the reference writes (test_export_pipeline_dumps).
"""
from __future__ import annotations

import itertools
import re

import pytest
from jaxlib.mlir import passmanager

from lit_runner import run_sdy_dsl
from reference import run_reference
from sdy_dsl.mlir_context import make_context
from sdy_dsl.passes import GENERIC_MLIR_PASSES, PassRegistry
from sdy_dsl.pipeline import Step, parse_pipeline_string
from sdy_dsl.pipeline_files import named_pipeline_options

EXPORT_FLIPS = {name: ("false" if decl.default else "true") if decl.type == "bool" else "/tmp/sdy-dsl-dumps"
                for name, decl in named_pipeline_options("sdy-export-pipeline").items()}


def _option_sets():
    yield "sdy-propagation-pipeline", ""
    yield "sdy-propagation-pipeline", "dedup-functions-fully=true"
    yield "sdy-import-pipeline", ""
    yield "sdy-import-pipeline", "dedup-functions-fully=true"
    yield "sdy-export-pipeline", ""
    for a, b in itertools.combinations_with_replacement(sorted(EXPORT_FLIPS), 2):
        yield "sdy-export-pipeline", " ".join(dict.fromkeys(f"{k}={EXPORT_FLIPS[k]}" for k in (a, b)))


def _reference_steps(element: str) -> list[Step]:
    with make_context():
        printed = str(passmanager.PassManager.parse(f"builtin.module({element})"))
    return parse_pipeline_string(printed).steps


def _mlir_normalized(step: Step, typed: bool) -> str:
    """A generic MLIR pass's options as MLIR prints them (every option, defaults included)."""
    def text(v):
        return ("true" if v else "false") if isinstance(v, bool) else str(v)
    opts = " ".join(f"{k}={text(v) if typed else v}" for k, v in step.options.items())
    with make_context():
        return str(passmanager.PassManager.parse(f"builtin.module({step.name}{{{opts}}})"))


@pytest.mark.parametrize("name,options", list(_option_sets()),
                         ids=[f"{n}{{{o}}}" for n, o in _option_sets()])
def test_expansion_matches_reference(name, options):
    element = f"{name}{{{options}}}" if options else name
    ours = parse_pipeline_string(element).steps
    expected = _reference_steps(element)
    assert [(s.nested_in, s.name) for s in ours] == [(s.nested_in, s.name) for s in expected]
    registry = PassRegistry()
    for mine, theirs in zip(ours, expected):
        if mine.name == "sdy-save-module":
            assert not theirs.options
        elif mine.name in GENERIC_MLIR_PASSES:
            assert _mlir_normalized(mine, True) == _mlir_normalized(theirs, False), mine.name
        elif registry.has(mine.name):
            decls = registry.get(mine.name).options
            assert set(decls) == set(theirs.options), mine.name
            values = {**registry.get(mine.name).default_options(), **mine.options}
            assert values == {k: decls[k].parse(v) for k, v in theirs.options.items()}, mine.name
        else:  # a pass sdy-dsl lacks yet: the options the pipeline sets, as the reference prints them
            for key, value in mine.options.items():
                assert theirs.options.get(key) == ("true" if value is True else "false" if value is False
                                                   else str(value)), (mine.name, key)


def test_passes_describes_a_named_pipeline():
    """`sdy-dsl passes PIPELINE`: its options and the passes it runs with their defaults."""
    rc, out, err = run_sdy_dsl(["passes", "sdy-export-pipeline"])
    assert rc == 0, err
    assert "--keep-sharding-rules: bool = false" in out
    steps = parse_pipeline_string("sdy-export-pipeline").steps
    assert out.rstrip().endswith(", ".join(f"{s.nested_in}({s.name})" if s.nested_in else s.name for s in steps))


def test_missing_passes_are_named():
    """A named pipeline some of whose passes sdy-dsl lacks names all of them, in order."""
    from sdy_dsl.pipeline import PipelineRunner
    lacking = {"sdy-remove-sub-axes-in-input-output-shardings", "sdy-flatten-call-graph",
               "canonicalize-sdy-collective"}

    class Lacking(PassRegistry):
        def has(self, name):
            return name not in lacking and super().has(name)

    with pytest.raises(Exception) as failure:
        PipelineRunner(Lacking(), parse_pipeline_string("sdy-propagation-pipeline"))
    assert str(failure.value) == (
        "sdy-dsl: error: not implemented by sdy-dsl yet: sdy-propagation-pipeline needs sdy-flatten-call-graph, "
        "sdy-remove-sub-axes-in-input-output-shardings, canonicalize{enable-patterns=sdy-collective}")


def test_every_pass_of_the_propagation_pipeline_runs(tmp_path):
    """No pass of the pipeline is missing any more: it runs, and as the reference does."""
    from reference import run_reference
    text = ("sdy.mesh @mesh = <[\"a\"=2]>\n"
            "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}) -> tensor<8xf32> {\n"
            "  %0 = stablehlo.negate %arg0 : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n")
    module = tmp_path / "m.mlir"
    module.write_text(text)
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-propagation-pipeline"])
    assert rc == 0, err
    ok, expected = run_reference(text, "builtin.module(sdy-propagation-pipeline)")
    assert ok and out == expected


@pytest.mark.parametrize("bad,message", [
    ("-sdy-export-pipeline=bogus=1", "pipeline 'sdy-export-pipeline' has no option 'bogus'"),
    ("-sdy-import-pipeline=dedup-functions-fully=maybe", "expects a bool"),
])
def test_bad_pipeline_options_are_one_line_errors(bad, message, tmp_path):
    module = tmp_path / "m.mlir"
    module.write_text("module {}\n")
    rc, _, err = run_sdy_dsl(["opt", str(module), bad])
    assert rc == 1 and message in err and err.count("\n") == 1, err


def _assert_export_matches(module: str, options: str, tmp_path, reference_extra: str = "", our_extra: str = ""):
    """`-sdy-export-pipeline=OPTIONS` on MODULE gives the reference's output."""
    element = f"sdy-export-pipeline{{{options}{reference_extra}}}" if options + reference_extra else "sdy-export-pipeline"
    ok, expected = run_reference(module, f"builtin.module({element})")
    assert ok, "the reference rejected the input"
    path = tmp_path / "in.mlir"
    path.write_text(module)
    flag = f"-sdy-export-pipeline={options}{our_extra}" if options + our_extra else "-sdy-export-pipeline"
    rc, out, err = run_sdy_dsl(["opt", str(path), flag])
    assert rc == 0, err
    assert out == expected


@pytest.mark.parametrize("options", ["avoid-export-for-partitioning=true dump-sharding-origins=true",
                                     "keep-sharding-rules=true", "enable-insert-explicit-collectives=true"])
def test_export_pipeline_dumps(options, tmp_path):
    """With a dump directory, the modules the reference writes, by the same names and text."""
    module = """sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    _assert_export_matches(module, options, tmp_path, f" dump-directory={theirs}", f" dump-directory={ours}")
    written = sorted(p.name for p in theirs.iterdir())
    assert written and sorted(p.name for p in ours.iterdir()) == written
    for name in written:
        assert (ours / name).read_text() == (theirs / name).read_text()


@pytest.mark.parametrize("text,message", [
    ("passes:\n  - if: fast\n    then: [cse]\n", "condition 'fast': 'fast' is not a bool option of the pipeline"),
    ("options:\n  fast: {type: bool, default: true}\npasses:\n  - if: fast and\n    then: [cse]\n",
     "condition 'fast and' ends without an option"),
    ("options:\n  fast: {type: bool, default: true}\npasses:\n  - if: fast\n    then: cse\n",
     "'then' and 'else' take a list of passes"),
    ("passes:\n  - sdy-close-shardings: {x: $nope}\n", "'$nope': the pipeline has no option 'nope'"),
    ("options:\n  fast: {type: bool}\npasses: []\n", "option 'fast' needs a type (bool, int, string) and a default"),
    ("name: [a]\npasses: []\n", "'name' is a string"),
])
def test_bad_pipeline_files_are_located_errors(text, message, tmp_path):
    path = tmp_path / "pipeline.yaml"
    path.write_text(text)
    module = tmp_path / "m.mlir"
    module.write_text("module {}\n")
    rc, _, err = run_sdy_dsl(["run", str(path), str(module)])
    assert rc == 1 and message in err and err.startswith(f"{path}:"), err


def test_conditions_choose_passes(tmp_path):
    """`if` on not/and/or of bool options, `$option` values: the passes the options select."""
    path = tmp_path / "pipeline.yaml"
    path.write_text("""options:
  a: {type: bool, default: true}
  b: {type: bool, default: false}
  keep: {type: bool, default: true}
passes:
  - if: a and not b
    then: [cse]
    else: [inline]
  - if: b or a and b
    then: [symbol-dce]
  - func.func:
      - sdy-sink-data-flow-edges: {sink-debug-sharding-origins: $keep}
""")
    from sdy_dsl.pipeline import load_pipeline_file
    steps = load_pipeline_file(path).steps
    assert [(s.name, s.options) for s in steps] == [
        ("cse", {}), ("sdy-sink-data-flow-edges", {"sink-debug-sharding-origins": True})]


EXPORT_INPUT_MODELS = ["mlp_tp_2x4x1", "while_loop_2x4", "shard_map_psum_2x4", "cond_switch_2x4", "constants_iota_2x4",
                       "gpt_tp_2x4", "moe_2x2x2"]
# What the reference's import and propagation leave for the export pipeline: data-flow
# edges, sharding groups and constraints, open shardings, sub-axes, debug info. The
# export pipeline then runs with its options one by one, the partitioner included.
PROPAGATED = ("builtin.module(inline, sdy-import-pipeline{dedup-functions-fully=true}, sdy-user-priority-propagate"
              "{keep-sharding-rules=true debug-sharding-origins=true})")


@pytest.mark.parametrize("options", [
    "",
    "keep-sharding-rules=true dump-sharding-origins=true",
    "update-non-divisible-input-output-shardings=false",
    "enable-insert-explicit-collectives=true",
    "enable-insert-explicit-collectives=true remove-all-gather-reduce-scatter-for-cmv1=true",
    "avoid-export-for-partitioning=true",
    "avoid-export-for-partitioning=true keep-sharding-rules=true",
    "avoid-export-for-partitioning=true dump-sharding-origins=true",
    "avoid-export-for-partitioning=true dump-propagation-edges=true",
    "avoid-export-for-partitioning=true update-non-divisible-input-output-shardings=false",
])
@pytest.mark.parametrize("model", EXPORT_INPUT_MODELS)
def test_export_pipeline_on_propagated_models(model, options, tmp_path):
    from models.zoo import lowered
    ok, propagated = run_reference(lowered(model), PROPAGATED)
    assert ok
    _assert_export_matches(propagated, options, tmp_path)


def test_a_copied_pipeline_file_runs_as_the_shipped_one(tmp_path):
    """Copy a shipped pipeline and edit an option's default: the copy runs those passes."""
    from sdy_dsl.pipeline import load_pipeline_file
    from sdy_dsl.pipeline_files import named_pipeline_file
    text = named_pipeline_file("sdy-propagation-pipeline").read_text()
    copy = tmp_path / "my_pipeline.yaml"
    copy.write_text(text.replace("    default: false", "    default: true", 1))
    shipped = parse_pipeline_string("sdy-propagation-pipeline{dedup-functions-fully=true}").steps
    assert [(s.name, s.options) for s in load_pipeline_file(copy).steps] == [(s.name, s.options) for s in shipped]


def test_named_pipeline_by_name_in_run_and_api(tmp_path):
    """A copy of a named pipeline (`sdy-dsl run FILE`), the pipeline in `run_pipeline`, and
    its name as a shipped pipeline, run what `-NAME` runs."""
    import sdy_dsl
    module = tmp_path / "in.mlir"
    module.write_text('sdy.mesh @mesh = <["a"=2, "b"=4]>\n'
                      'func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b":(1)2, ?}, {?}]>})'
                      ' -> tensor<8x8xf32> {\n  return %arg0 : tensor<8x8xf32>\n}\n')
    options = "avoid-export-for-partitioning=true"
    ok, expected = run_reference(module.read_text(), f"builtin.module(sdy-export-pipeline{{{options}}})")
    assert ok
    copy = tmp_path / "export.yaml"
    copy.write_text(named_pipeline_file_text("sdy-export-pipeline").replace(
        "  avoid-export-for-partitioning:\n    type: bool\n    default: false",
        "  avoid-export-for-partitioning:\n    type: bool\n    default: true"))
    rc, out, err = run_sdy_dsl(["run", str(copy), str(module)])
    assert rc == 0, err
    assert out == expected
    pipeline = f"builtin.module(sdy-export-pipeline{{{options}}})"
    assert sdy_dsl.run_pipeline(module.read_text(), pipeline).text == expected
    from sdy_dsl.pipeline import resolve_pipeline_file
    from sdy_dsl.pipeline_files import named_pipeline_file
    assert resolve_pipeline_file("sdy-import-pipeline") == named_pipeline_file("sdy-import-pipeline")


def named_pipeline_file_text(name: str) -> str:
    from sdy_dsl.pipeline_files import named_pipeline_file
    return named_pipeline_file(name).read_text()


def test_a_misspelled_pass_in_a_copied_named_pipeline_is_located(tmp_path):
    """An edited copy of a shipped pipeline with a typo: an unknown pass at its line, not 'needs ...'."""
    from sdy_dsl.resources import shipped_pipeline
    text = shipped_pipeline("sdy-import-pipeline").read_text()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.strip() == "- sdy-remove-size-one-axes")
    copy = tmp_path / "p.yaml"
    copy.write_text(text.replace("- sdy-remove-size-one-axes", "- sdy-reove-size-one-axes"))
    module = tmp_path / "m.mlir"
    module.write_text("module {}\n")
    rc, _, err = run_sdy_dsl(["run", str(copy), str(module)])
    assert rc == 1
    assert err == (f"{copy}:{line}:5: error: unknown pass 'sdy-reove-size-one-axes'; did you mean "
                   f"'sdy-remove-size-one-axes'? (see 'sdy-dsl passes')\n")
