"""Hooks of mpmd-delay-inferred-fragments: which functions are MPMD entry points."""
from __future__ import annotations

from sdy_dsl.hooks import hook
from sdy_dsl.runtime import mpmd

is_mpmd_function = hook(mpmd.is_mpmd_function)
is_entry_point_function = hook(mpmd.is_entry_point_function)
