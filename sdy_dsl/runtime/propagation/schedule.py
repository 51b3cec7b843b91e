"""A propagation pass's schedule and the entry point, `propagate`.

Each propagation pass declares its place in Shardy's hierarchy in its rule
file (`params: {schedule: [...]}`), outermost level first; each level runs
the rest of the schedule once per step of its own, down to the factor
strategies, each a fixed-point run:

    schedule:
      - user-priorities          # per user priority p0, p1, ... (user_priority_propagation.py)
      - op-priorities            # per op-priority heuristic (op_priority_propagation.py),
                                 #   or {enabled-by: OPTION}
      - strategies: [basic, aggressive]   # or {option: OPTION} (aggressive_propagation.py)

The levels are a vocabulary (LEVELS): a new level is a function
`level(engine, inner, heuristics) -> run(get_direction)` registered under
its name. The schedules themselves live only in the pass files.
"""
from __future__ import annotations

from typing import Callable, Sequence

from jaxlib.mlir import ir

from ..debug_info import ShardingDebugInfo
from ..values import operation
from ..vocabulary import Vocabulary
from .aggressive_factor_propagation import AggressiveFactorPropagation
from .aggressive_propagation import FACTOR_STRATEGIES, PROPAGATION_STRATEGIES, strategies_level
from .basic_factor_propagation import BasicFactorPropagation
from .basic_propagation import PropagationEngine, propagate_any
from .dataflow import DataFlowEdges
from .heuristics import Heuristic
from .op_priority_propagation import op_priorities
from .propagation_state import PropagationError, RuleProvider
from .user_priority_propagation import user_priorities

LEVELS: Vocabulary[Callable] = Vocabulary("schedule level")
LEVELS.register("user-priorities", user_priorities)
LEVELS.register("op-priorities", op_priorities)

STRATEGIES_LEVEL = "strategies"  # the innermost level, last in every schedule


class Schedule:
    """The levels of a propagation pass, outermost first, and the factor
    strategies of its innermost level."""

    def __init__(self, levels: Sequence[str], strategies: Sequence[BasicFactorPropagation],
                 level_settings: dict | None = None):
        self.levels = tuple(levels)
        self.strategies = tuple(strategies)
        self.level_settings = dict(level_settings or {})  # level -> keyword arguments of its function

    @classmethod
    def from_params(cls, entries, options, loc=None) -> "Schedule":
        """Read a schedule from rule-file data (`options`: the pass's, by name);
        errors point at the entry."""
        def error(where, message):
            where = where if where is not None else loc
            return where.error(message) if where is not None else ValueError(message)

        if not isinstance(entries, list) or not entries:
            raise error(loc, "'schedule' is a non-empty list of levels ending with 'strategies'")
        locs = getattr(entries, "item_locs", [None] * len(entries))
        levels, strategies = [], None
        for entry, eloc in zip(entries, locs):
            if strategies is not None:
                raise error(eloc, "'strategies' must be the last (innermost) level")
            if isinstance(entry, str):
                name, settings = entry, {}
            elif isinstance(entry, dict) and len(entry) == 1:
                (name, settings), = entry.items()
            else:
                raise error(eloc, "a level is a name or {name: settings}")
            if name == STRATEGIES_LEVEL:
                strategies = _strategies(settings, options, lambda m, w=eloc: error(w, m))
                continue
            if name not in LEVELS:
                raise error(eloc, f"unknown schedule level '{name}' (expected one of: "
                            + ", ".join(LEVELS.names() + (STRATEGIES_LEVEL,)) + ")")
            if settings:
                if not isinstance(settings, dict) or set(settings) != {"enabled-by"}:
                    raise error(eloc, f"'{name}' takes {{enabled-by: OPTION}}")
                option = str(settings["enabled-by"])
                if option not in options:
                    raise error(eloc, f"'{name}' is enabled by option '{option}', which the pass does not have")
                if not options[option]:
                    continue
            levels.append(name)
        if strategies is None:
            raise error(loc, "the schedule needs a last level 'strategies'")
        return cls(levels, strategies)

    def with_factor_ranking(self, ranking: Sequence[str]) -> "Schedule":
        """This schedule, its aggressive strategy ranking factors by RANKING
        (FACTOR_RANKING_FIELDS names, the pass's `factor-ranking` param)."""
        return Schedule(self.levels, tuple(s.ranked(ranking) if isinstance(s, AggressiveFactorPropagation) else s
                                           for s in self.strategies), self.level_settings)

    def with_level_settings(self, level: str, **settings) -> "Schedule":
        """This schedule, LEVEL's function (one of its levels) called with
        SETTINGS (a pass's params for one level, e.g. user-priorities' `unprioritized`)."""
        return Schedule(self.levels, self.strategies,
                        {**self.level_settings, level: {**self.level_settings.get(level, {}), **settings}})

    def run(self, engine: PropagationEngine, heuristics: Sequence[Heuristic] | None = None) -> None:
        """Run the levels on `engine`; `heuristics`: the op-priority heuristics
        (default: the engine's op registry's)."""
        if heuristics is None and "op-priorities" in self.levels:
            heuristics = engine.registry.heuristics
        run = strategies_level(engine, self.strategies)
        for level in reversed(self.levels):
            run = LEVELS[level](engine, run, heuristics, **self.level_settings.get(level, {}))
        run(propagate_any)


def _strategies(settings, options, error) -> tuple:
    if isinstance(settings, dict) and set(settings) == {"option"}:
        option = str(settings["option"])
        if option not in options:
            raise error(f"'strategies' reads option '{option}', which the pass does not have")
        return PROPAGATION_STRATEGIES.lookup(options[option], error=error)
    if isinstance(settings, list) and settings:
        return tuple(FACTOR_STRATEGIES.lookup(s, error=error) for s in settings)
    raise error("'strategies' is a list (e.g. [basic, aggressive]) or {option: NAME}")


def _check_shapes(ops) -> None:
    """Every result a ranked, statically shaped tensor (or not shaped), none a tuple."""
    fine: set = set()  # the types found fine (MLIR uniques types: a module has few)
    for op in ops:
        results = op.results
        count = len(results)
        if count == 1:  # (most ops: one result, asked for directly)
            t = op.result.type
            if t not in fine:
                _check_type(op, t)
                fine.add(t)
        elif count:
            for result in results:
                t = result.type
                if t not in fine:
                    _check_type(op, t)
                    fine.add(t)


def _check_type(op, t: ir.Type) -> None:
    if isinstance(t, ir.ShapedType) and not t.has_static_shape:
        raise PropagationError(f"{op.location}: Shardy propagation only supports ranked "
                               f"tensors with a static shape. type: {t}")
    if isinstance(t, ir.TupleType):
        raise PropagationError(f"{op.location}: Shardy propagation doesn't support "
                               f"tuples: {t}")


def propagate(module_op, schedule: Schedule, options, *, registry,
              heuristics: Sequence[Heuristic] | None = None, trace: Callable | None = None,
              rule_provider: RuleProvider | None = None,
              dataflow: DataFlowEdges | None = None) -> None:
    """Run a propagation schedule on `module_op` (mutated in place).

    options: the pass's options, one typed object (the propagation passes'
    `options:`; read here: conservative_propagation, keep_sharding_rules,
    debug_sharding_origins, debug_propagation_edge_sharding).
    registry: the op facts of the run (sdy_dsl.runtime.op_registry.OpRegistry).
    heuristics: op-priority heuristics (default: the registry's).
    rule_provider(op, conservative) -> OpShardingRule | None; default: the registry.
    trace(op, operand_shardings, result_shardings, updated): called after each step.
    The debug options save where each axis came from / the steps that moved
    it (see sdy_dsl/runtime/debug_info.py).
    """
    module = operation(module_op)

    def new_engine():
        return PropagationEngine(module, registry, rule_provider=rule_provider, dataflow=dataflow,
                                 conservative=options.conservative_propagation, trace=trace)

    engine = new_engine()
    _check_shapes([module] + engine._module_ops)
    if engine.groups.sync_initial(engine.get, engine.set):
        # Constraints were inserted: rebuild the engine's view of the IR.
        engine.flush()
        engine = new_engine()
    if options.debug_sharding_origins or options.debug_propagation_edge_sharding:
        engine.debug = ShardingDebugInfo(options.debug_sharding_origins,
                                         options.debug_propagation_edge_sharding,
                                         shardable_value=engine.shardable_value,
                                         sharding_of=engine.get)
        engine.debug.seed_origins(module)
    schedule.run(engine, heuristics)
    engine.flush()
    engine.finish_rules(options.keep_sharding_rules)
    if engine.debug is not None:
        engine.debug.save(module)
    engine.release()
