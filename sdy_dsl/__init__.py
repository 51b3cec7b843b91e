"""sdy-dsl: Shardy's sharding passes as declarative rule files.

`sdy_dsl.run_pipeline(module_or_text, pipeline=..., *, rules=None, options=None)`
runs a pipeline from Python (default `sdy-propagation-pipeline`, what XLA
runs), `sdy_dsl.explain(module_or_text, value)` says why a value got its
sharding (see `sdy_dsl.api`, `sdy_dsl.explaining`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"
__all__ = ["__version__", "run_pipeline", "explain", "search", "PipelineResult", "SdyDslError"]

if TYPE_CHECKING:
    from .api import PipelineResult, run_pipeline
    from .explaining import explain
    from .errors import SdyDslError


def __getattr__(name: str):
    # Loaded on first use: `import sdy_dsl` (and the CLI's start-up) stays cheap
    # and an error while loading the built-in rules is reported where it is used.
    if name in ("run_pipeline", "PipelineResult"):
        from . import api
        return getattr(api, name)
    if name == "search":
        from .search import search
        return search
    if name == "explain":
        from .explaining import explain
        return explain
    if name == "SdyDslError":
        from .errors import SdyDslError
        return SdyDslError
    raise AttributeError(f"module 'sdy_dsl' has no attribute '{name}'")
