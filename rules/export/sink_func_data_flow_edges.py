"""Hooks of sdy-sink-func-data-flow-edges."""
from __future__ import annotations

from sdy_dsl.hooks import hook
from sdy_dsl.runtime import call_graph_export
from sdy_dsl.runtime.sharding import TensorSharding


@hook
def fully_open_like(sharding: TensorSharding) -> TensorSharding:
    """A sharding of `sharding`'s rank and mesh with every dimension open and no axes."""
    return call_graph_export.fully_open_like(sharding)
