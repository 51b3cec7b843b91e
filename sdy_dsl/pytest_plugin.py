"""A pytest plugin (installed with sdy-dsl) for snapshot tests of rule files.

    def test_my_rules(sdy_dsl_snapshot):
        sdy_dsl_snapshot("models/gpt.mlir")   # sdy-propagation-pipeline, what XLA runs

runs the pipeline on the module (with the rule directory given by
`--sdy-dsl-rules DIR`, the `sdy_dsl_rules` ini option, or `rules=`) and
compares the output with a snapshot stored as a readable `.mlir` file under
`__snapshots__/<test file>/`. `pytest --snapshot-update` records it; after a
rule edit the failing test shows the diff of the rewrite output.
Needs syrupy (`pip install 'sdy-dsl[test]'`).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Mapping

import pytest

from .resources import DEFAULT_PIPELINE

try:
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
except ImportError:  # syrupy missing: the fixture says so when used
    SingleFileSnapshotExtension = None


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sdy-dsl")
    group.addoption("--sdy-dsl-rules", action="append", default=None, metavar="DIR",
                    help="rule directory the sdy_dsl_snapshot fixture loads over the built-in rules")
    parser.addini("sdy_dsl_rules", type="paths", default=[],
                  help="rule directories the sdy_dsl_snapshot fixture loads over the built-in rules")


if SingleFileSnapshotExtension is not None:
    class MLIRSnapshotExtension(SingleFileSnapshotExtension):
        """One snapshot per file, as MLIR text (`<test name>.mlir`)."""

        _write_mode = WriteMode.TEXT
        file_extension = "mlir"  # syrupy >= 4.7
        _file_extension = "mlir"  # older syrupy


_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # syrupy colours its diff character by character


def _rule_dirs(config: pytest.Config) -> list[Path]:
    given = config.getoption("sdy_dsl_rules") or []
    return [Path(d) for d in given] + [Path(d) for d in config.getini("sdy_dsl_rules")]


@pytest.fixture
def sdy_dsl_snapshot(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """`check(module_or_text, pipeline=DEFAULT_PIPELINE, *, rules=None, options=None, name=None)`.

    module_or_text: MLIR text, a path to a .mlir file, an `ir.Module` or a JAX
    `Lowered`; pipeline: a pass-pipeline string, a pipeline file or a shipped
    pipeline name (default `sdy-propagation-pipeline`, what XLA runs). Returns the `PipelineResult` after asserting its text equals
    the snapshot (NAME tells several snapshots of one test apart).
    """
    if SingleFileSnapshotExtension is None:
        pytest.fail("the sdy_dsl_snapshot fixture needs syrupy: pip install syrupy")
    snapshot = request.getfixturevalue("snapshot")
    default_rules = _rule_dirs(request.config)

    def check(module_or_text: Any, pipeline: Any = DEFAULT_PIPELINE, *, rules: Any = None,
              options: Mapping[str, Mapping[str, Any]] | None = None, name: str | None = None):
        from .api import run_pipeline
        if isinstance(module_or_text, str) and "\n" not in module_or_text and module_or_text.endswith(
                (".mlir", ".mlirbc")):
            module_or_text = Path(module_or_text)
        result = run_pipeline(module_or_text, pipeline, options=options,
                              rules=default_rules if rules is None else rules)
        recorded = snapshot(extension_class=MLIRSnapshotExtension, name=name)
        if not recorded == result.text:  # syrupy compares (or records, with --snapshot-update)
            # Whole lines: MLIR lines are long, and the diff is what the user came for.
            pytest.fail("the pipeline output differs from the snapshot (- snapshot, + output; "
                        "`pytest --snapshot-update` records the new output):\n"
                        + "\n".join(_ANSI.sub("", line) for line in recorded.get_assert_diff()), pytrace=False)
        return result

    return check
