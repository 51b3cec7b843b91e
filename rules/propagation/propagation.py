"""The hook of the propagation passes: run the schedule the pass's rule file
declares (`params: {schedule: [...]}`, Shardy's hierarchy user-priority ⊃
op-priority ⊃ aggressive ⊃ basic) with the run's op registry, op-priority
heuristics and the pass's options (one typed object). The tunable parts are
data: op sharding rules in op_sharding_rules.yaml, heuristics in
op_priority_heuristics.yaml, interfaces in ../interfaces.yaml.
"""
from __future__ import annotations

from pathlib import Path

from sdy_dsl.hooks import hook
from sdy_dsl.interp.context import RewriteContext
from sdy_dsl.runtime.propagation import Schedule, propagate as run_propagation
from sdy_dsl.trace import PropagationTrace


@hook
def propagate(ctx: RewriteContext) -> None:
    options = ctx.options
    schedule = Schedule.from_params(ctx.params.schedule, options, ctx.passdef.loc)
    if "factor-ranking" in ctx.params:  # the passes from sdy-aggressive-propagate on
        schedule = schedule.with_factor_ranking(ctx.params.factor_ranking)
    if "unprioritized-dims" in ctx.params:  # sdy-user-priority-propagate and the passes built on it
        if "user-priorities" in schedule.levels:
            schedule = schedule.with_level_settings("user-priorities", unprioritized=ctx.params.unprioritized_dims)
        elif ctx.params.unprioritized_dims != "first":
            raise ctx.passdef.param_values.key_loc("unprioritized-dims").error(
                "'unprioritized-dims' acts on the 'user-priorities' level, which this pass's schedule lacks")
    dump_dir = options.module_dump_directory
    if dump_dir:
        Path(dump_dir).mkdir(parents=True, exist_ok=True)
        (Path(dump_dir) / "sdy_module_before_propagation.mlir").write_text(str(ctx.module))
    observer = ctx.observer
    trace = None
    if observer is not None and observer.wants_steps:
        # --trace / --rule-stats: each propagation step, counted and timed per op kind.
        trace = PropagationTrace(observer, ctx.pass_name, ctx.module)
    heuristics = ctx.library.heuristics if "op-priorities" in schedule.levels else None
    run_propagation(ctx.module, schedule, options, registry=ctx.library.op_registry,
                    heuristics=heuristics, trace=trace)
    ctx.mark_changed()
    if dump_dir:
        # The reference's file name for the propagated module.
        (Path(dump_dir) / "sdy_module_after_propagation.mlir").write_text(str(ctx.module))
