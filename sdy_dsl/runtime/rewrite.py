"""MLIR's pattern rewriting API of the bindings (PatternRewriter,
RewritePatternSet, the greedy and walk drivers), in one place.

Why the private module: jaxlib 0.10.2 ships no public `jaxlib.mlir.rewrite`
(upstream MLIR's Python package has `mlir/rewrite.py`, which only re-exports
the extension module below; jaxlib's `jaxlib/mlir/` has just `ir.py`,
`passmanager.py`, `dialects/` and `extras/`). The extension module is the
bindings' own implementation of that API, so everything here is what
`mlir.rewrite` would export; when jaxlib ships the public module, only this
import changes.
"""
from __future__ import annotations

from jaxlib.mlir._mlir_libs._mlir.rewrite import (GreedyRewriteConfig, GreedyRewriteStrictness,
                                                 GreedySimplifyRegionLevel, PatternRewriter,
                                                 RewritePatternSet, apply_patterns_and_fold_greedily,
                                                 walk_and_apply_patterns)

__all__ = ["GreedyRewriteConfig", "GreedyRewriteStrictness", "GreedySimplifyRegionLevel",
           "PatternRewriter", "RewritePatternSet", "apply_patterns_and_fold_greedily",
           "walk_and_apply_patterns"]
