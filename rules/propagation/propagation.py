"""Hooks shared by the propagation passes: each pass is one stage calling the
engine at its level of the hierarchy (user-priority ⊃ op-priority ⊃
aggressive ⊃ basic). The tunable parts are data: op sharding rules in
op_sharding_rules.yaml, op-priority heuristics in op_priority_heuristics.yaml.
"""
from __future__ import annotations

from pathlib import Path

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.interp.yaml_loader import load_yaml
from sdy_dsl.passes import resolve_data_file
from sdy_dsl.runtime.op_sharding_rule_registry import load_registry
from sdy_dsl.runtime.propagation import heuristics_from_data, propagate
from sdy_dsl.trace import PropagationTrace

HEURISTICS_FILE = "op_priority_heuristics.yaml"
RULES_FILE = "op_sharding_rules.yaml"
_BUILTIN_DIR = Path(__file__).resolve().parent


def load_heuristics(rule_dir: Path):
    """The heuristics file: a user's (--rules DIR), else the one beside the running pass."""
    path = resolve_data_file(HEURISTICS_FILE, rule_dir)
    if not path.is_file():
        path = _BUILTIN_DIR / HEURISTICS_FILE
    doc = load_yaml(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("heuristics"), list):
        raise getattr(doc, "loc", _top(path)).error("expected a 'heuristics' list")
    entries = doc["heuristics"]
    for i, entry in enumerate(entries):
        loc = entries.item_locs[i]
        if not isinstance(entry, dict) or "name" not in entry:
            raise loc.error("a heuristic is a mapping with 'name', optional 'cases' and 'default'")
        for key in entry:
            if key not in ("name", "cases", "default"):
                raise entry.key_loc(key).error(f"unknown heuristic key '{key}'")
        try:
            heuristics_from_data([entry])
        except (ValueError, KeyError, TypeError) as e:
            raise loc.error(f"heuristic '{entry['name']}': {e}") from None
    return heuristics_from_data(entries)


def _top(path):
    from sdy_dsl.interp.yaml_loader import Loc
    return Loc(str(path), 1, 1)


def _run(ctx: RewriteContext, strategy: str) -> None:
    options = ctx.options
    dump_dir = options.get("module-dump-directory") or ""
    if dump_dir:
        Path(dump_dir).mkdir(parents=True, exist_ok=True)
        (Path(dump_dir) / "sdy_module_before_propagation.mlir").write_text(str(ctx.module))
    heuristics = load_heuristics(ctx.rule_dir) if strategy in ("op-priority", "user-priority") else None
    registry = load_registry(resolve_data_file(RULES_FILE, _BUILTIN_DIR))
    observer = ctx.observer
    trace = None
    if observer is not None and observer.wants_steps:
        # --trace / --rule-stats: each propagation step, counted and timed per op kind.
        trace = PropagationTrace(observer, ctx.pass_name, ctx.module)
    propagate(ctx.module, strategy, trace=trace,
              rule_provider=lambda op, conservative: registry.rule_for(op, conservative),
              conservative=options.get("conservative-propagation", False),
              keep_sharding_rules=options.get("keep-sharding-rules", False),
              heuristics=heuristics,
              debug_sharding_origins=options.get("debug-sharding-origins", False),
              debug_propagation_edge_sharding=options.get("debug-propagation-edge-sharding", False),
              run_op_priority_propagation=options.get("run-op-priority-propagation", True),
              propagation_strategy=options.get("propagation-strategy", "aggressive"))
    ctx.mark_changed()
    if dump_dir:
        # The reference's file name for the propagated module.
        (Path(dump_dir) / "sdy_module_after_propagation.mlir").write_text(str(ctx.module))


@hook
def propagate_basic(ctx: RewriteContext) -> None:
    _run(ctx, "basic")


@hook
def propagate_aggressive(ctx: RewriteContext) -> None:
    _run(ctx, "aggressive")


@hook
def propagate_op_priority(ctx: RewriteContext) -> None:
    _run(ctx, "op-priority")


@hook
def propagate_user_priority(ctx: RewriteContext) -> None:
    _run(ctx, "user-priority")
