"""Where the built-in rule files, pipelines and JSON Schemas are.

In a wheel (and `pip install .`), `rules/` and `pipelines/` of the source tree
ship inside the package as `sdy_dsl/rules` and `sdy_dsl/pipelines` (the
`package-dir` mapping in pyproject.toml) and are found with
`importlib.resources`. In a source checkout or an editable install, they are
the top-level directories beside `sdy_dsl/`.

Nothing here raises at import time: a missing directory is reported when it is
first asked for, as a one-line `SdyDslError`.
"""
from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from .errors import SdyDslError


@functools.cache
def _data_dir(name: str, in_checkout: str) -> Path:
    packaged = resources.files("sdy_dsl") / name
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / in_checkout
    if checkout.is_dir():
        return checkout
    raise SdyDslError(f"the built-in {name} directory is missing from the installation "
                      f"(looked in '{packaged}' and '{checkout}'); reinstall sdy-dsl")


# What XLA runs on a JAX module, and so the pipeline `explain`, `run_pipeline` and
# the pytest plugin run when none is named (`shardy_full`, the seed chain, treats
# every call as opaque, and every JAX program has calls).
DEFAULT_PIPELINE = "sdy-propagation-pipeline"


def builtin_rules_dir() -> Path:
    """The built-in rule files: one YAML per pass, interfaces.yaml and the data files."""
    return _data_dir("rules", "rules")


def builtin_pipelines_dir() -> Path:
    """The shipped pipeline files (`shardy_full.yaml`, ...), runnable by name."""
    return _data_dir("pipelines", "pipelines")


def schemas_dir() -> Path:
    """The published JSON Schemas of rule files and pipeline files."""
    return _data_dir("schemas", "sdy_dsl/schemas")


def shipped_pipeline(name: str) -> Path | None:
    """The shipped pipeline file called NAME (`shardy_full` or `shardy_full.yaml`;
    a named pipeline also by its name, `sdy-propagation-pipeline`), if any."""
    if "/" in name or "\\" in name:
        return None
    stem = name[:-5] if name.endswith(".yaml") else name
    for candidate in (stem, stem.replace("-", "_")):
        path = builtin_pipelines_dir() / f"{candidate}.yaml"
        if path.is_file():
            return path
    return None


def shipped_pipeline_names() -> list[str]:
    return sorted(p.stem for p in builtin_pipelines_dir().glob("*.yaml"))
