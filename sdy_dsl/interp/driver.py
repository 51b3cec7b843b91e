"""Runs a compiled rule file over an anchor op.

Rules are indexed by root op name (a rule file whose root ops do not occur
costs one dictionary lookup per op). Each stage runs with one driver:

- `walk`: MLIR's walk-based driver (`walk_and_apply_patterns`): one visit per
  op, no folding, no dead-code erasure — what most Shardy passes do.
- `greedy`: MLIR's greedy driver (`apply_patterns_and_fold_greedily`) to a
  fixed point, with folding, constant CSE and region simplification off so
  that only rules change the IR. Note: it erases trivially dead ops.
- `once`: our own pre-order visit over a snapshot of the ops. Used where a
  rule mutates ops other than its root (e.g. erases a mesh symbol or edits a
  parent), which MLIR's drivers do not allow from Python callbacks.
"""
from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ..diagnostics import PassFailure, emit_error_at, line_col
from ..rule_library import builtin_library
from ..runtime import op_registry, rewrite as mlir_rewrite
from ..runtime.op_registry import using
from ..errors import SdyDslError
from ..runtime.values import count_ops, ops_named
from .context import ActionError, RewriteContext
from .expr import Env
from .hook_guard import running_on, stage_hook
from .matcher import as_operation
from .options import PassOptions
from .rulefile import DriverConfig, PassDef, Rule


@dataclass
class RuleStats:
    attempts: int = 0
    matches: int = 0
    fired: int = 0
    noop: int = 0
    seconds: float = 0.0


@dataclass
class Observer:
    """What the user asked to see or change: traces, statistics, explain, rule toggles."""

    trace: bool = False
    trace_json: bool = False
    stream: object = None
    collect_stats: bool = False
    explain: set = field(default_factory=set)
    disabled: set = field(default_factory=set)
    only_enabled: set | None = None
    stats: dict = field(default_factory=dict)
    pass_seconds: dict = field(default_factory=dict)
    warned_noop: set = field(default_factory=set)
    trace_filter: str | None = None  # --trace-filter: only trace lines naming this value, op, ...
    progress: bool = False  # --progress: engines inside stage hooks report how far they are

    def out(self):
        return self.stream or sys.stderr

    def rule_enabled(self, pass_name: str, rule_id: str) -> bool:
        qualified = f"{pass_name}/{rule_id}"
        if rule_id in self.disabled or qualified in self.disabled:
            return False
        if self.only_enabled is not None:
            return rule_id in self.only_enabled or qualified in self.only_enabled
        return True

    def record_fire(self, pass_name: str, rule: Rule, op: ir.Operation, op_name: str, loc: str):
        self.trace_event(pass_name, rule.id, op_name, loc, "fired on")

    def trace_event(self, pass_name: str, what: str, op_name: str, loc: str, verb: str) -> None:
        if self.trace:
            if self.trace_json:
                import json  # (only --trace-json writes JSON: not on a run's path)
                self.trace_line(json.dumps({"pass": pass_name, "rule": what, "op": op_name, "loc": loc}))
            else:
                self.trace_line(f"{loc}: trace: {pass_name}/{what} {verb} '{op_name}'")

    @property
    def wants_steps(self) -> bool:
        """Whether an engine running inside a stage hook should report its steps."""
        return self.trace or self.collect_stats or self.progress

    def record_step(self, pass_name: str, what: str, op: ir.Operation, changed: bool,
                    seconds: float = 0.0, lines: list[str] | None = None,
                    verb: str = "changed shardings of") -> None:
        """A step of an engine inside a stage hook (e.g. one propagation step on
        `op`): counted and timed under `what` like a rule, traced when it changed
        something (as LINES, when the engine says what changed)."""
        if self.collect_stats:
            st = self.stats.setdefault((pass_name, what), RuleStats())
            st.attempts += 1
            st.matches += 1
            st.seconds += seconds
            if changed:
                st.fired += 1
            else:
                st.noop += 1
        if changed and lines is not None:
            for line in lines:
                self.trace_line(line)
        elif changed:
            self.trace_event(pass_name, "step" if what.startswith("step:") else what, op.name,
                             location_text(op), verb)

    def trace_line(self, line: str) -> None:
        """A --trace line, unless --trace-filter keeps only others."""
        if self.trace and (self.trace_filter is None or self._filter_re().search(line)):
            print(line, file=self.out())

    def _filter_re(self) -> re.Pattern:
        # Whole names only: `%1` does not select `%12`, `stablehlo.add` not `stablehlo.add_any`.
        return re.compile(rf"(?<![\w%.]){re.escape(self.trace_filter)}(?![\w.])")


SOURCE_NAME = "-"  # the input's name, for locations MLIR parsed as "-"
_FILE_LOC = re.compile(r'"([^"]*)":(\d+):(\d+)')


def location_text(op: ir.Operation) -> str:
    """`file:line:col` of an op, or its printed location when it has none."""
    return text_of_location(op.location)


def compared_text(env: Env) -> str:
    """What the last comparison of a failed constraint saw (for --explain)."""
    if env.compared is None:
        return ""
    a, b = env.compared
    return f" (compared {_shown(a)} with {_shown(b)})"


def _shown(value) -> str:
    text = str(value) if value is not None else "nothing"
    return text if len(text) <= 200 else text[:197] + "..."


def text_of_location(location: ir.Location) -> str:
    """`file:line:col` of a location, or the location printed when it has none
    (a location outlives its op: it can be printed after the op is erased)."""
    pos = line_col(location)
    if pos is None or pos.shown:
        return str(location)
    return f"{pos.file or SOURCE_NAME}:{pos.line}:{pos.col}"


class KernelDrivers:
    """The drivers' paths for rules applied by their kernels (kernels.py), a
    part of PassRunner: `_kernels` says whether the running stage may use them,
    `_explained` which rules --explain asks about; fires count in `_budget`,
    a failure under a walk goes to `error`."""

    _kernels = False
    _explained: set = frozenset()
    _budget: "Budget"
    _all_rules_of: dict  # id of a stage's index -> its rules (see _all_rules)
    error: BaseException | None = None

    def _all_rules(self, index, any_op) -> list[Rule]:
        """index_rules of a stage's index (made once per stage: a func.func pass runs per function)."""
        try:
            return self._all_rules_of[id(index)]
        except KeyError:
            found = self._all_rules_of[id(index)] = index_rules(index, any_op)
            return found

    def _kernels_only(self, index, any_op) -> bool:
        """Whether the running stage applies all its rules by their kernels."""
        return self._kernels and not self._explained and all(
            r.kernel is not None for r in self._all_rules(index, any_op))

    def _apply_kernel(self, op: ir.Operation, attrs, rule: Rule, ctx: RewriteContext):
        """_try_rule by the rule's kernel (no trace, statistics or explanation)."""
        try:
            return rule.kernel.apply(op, attrs, ctx)
        except (Exception, SystemExit) as e:
            raise _failure(op, rule, ctx, e)

    def _walk_kernels(self, anchor, ctx, index, any_op):
        """The walk driver for rules that all have kernels, one of them on any op:
        MLIR's walk driver would call back for every op anyway, so the walk is
        Python's own, in the same (post-)order, without pattern objects."""
        advance, interrupt = ir.WalkResult.ADVANCE, ir.WalkResult.INTERRUPT
        need_attrs = _needs_attributes(self._all_rules(index, any_op))  # (skip an op without any)

        if not index and len(any_op) == 1 and need_attrs:
            # One rule on every op (the common case): its kernel, called directly,
            # with as few calls per op as can be (most ops of a large module pass here).
            rule = any_op[0]
            plan_for, run = rule.kernel.plan_for, rule.kernel.run
            # A kernel that reads no attribute has the same plan for every op: skip ops without any.
            skip_bare = not (rule.kernel.binds or rule.kernel.present)
            # Kernels change their root's attributes only: no op is erased in the
            # walk, each op's rewrite needs only its root set (see begin_rewrite).
            ctx.begin_rewrite()

            def visit(op):
                attrs = op.attributes
                if skip_bare and not len(attrs):
                    return advance
                try:
                    plan = plan_for(attrs, ctx)
                    if plan is None or op == anchor:
                        return advance  # (the anchor itself is not rewritten, as in MLIR's drivers)
                    ctx.root = op
                    if run(plan, op, attrs, ctx):
                        self._budget.fires += 1  # (no budget to check, see self._kernels)
                except BaseException as e:  # surfaced after the walk
                    self.error = _failure(op, rule, ctx, e) if isinstance(e, (Exception, SystemExit)) else e
                    return interrupt
                return advance
        else:
            def visit(op):
                attrs = op.attributes
                if need_attrs and not len(attrs):
                    return advance
                if op == anchor:
                    return advance  # the anchor itself is not rewritten, as in MLIR's drivers
                try:
                    apply_kernels(op, index.get(op.name, any_op) if index else any_op, ctx, attrs)
                except BaseException as e:  # surfaced after the walk
                    self.error = e
                    return interrupt
                return advance

        apply_kernels = self._apply_kernels
        anchor.walk(visit, ir.WalkOrder.POST_ORDER)

    def _apply_kernels(self, op: ir.Operation, rules: list[Rule], ctx: RewriteContext, attrs=None) -> bool:
        """_try_rules by the kernels of RULES (ATTRS: the op's attributes, when known)."""
        if attrs is None:
            attrs = op.attributes
        bare = not len(attrs)
        for rule in rules:
            if bare and rule.only_on_root_attributes:
                continue  # its actions would change nothing
            try:
                fired = rule.kernel.apply(op, attrs, ctx)
            except (Exception, SystemExit) as e:
                raise _failure(op, rule, ctx, e)
            if fired:
                self._budget.fires += 1  # (no budget to check, see self._kernels)
                return True
        return False


class PassRunner(KernelDrivers):
    """A rule file compiled for running: rules indexed by root, per stage."""

    def __init__(self, passdef: PassDef, options: dict | PassOptions, observer: Observer | None = None,
                 library=None):
        self.passdef = passdef
        self.library = library  # the run's RuleLibrary (None: the built-in rules)
        # One frozen typed object (options given by name are checked by the caller).
        self.options = options if isinstance(options, PassOptions) else passdef.make_options(options)
        self.observer = observer or Observer()
        self.error: BaseException | None = None
        self._greedy = False
        self._budget = Budget()
        self._explained: set[str] = set()  # ids of the running stage's rules --explain asks about
        self._locate_fires = False  # whether a fire records the op's location (for messages)
        # Whether the running stage may apply rules by their kernels (kernels.py): a
        # walk or once driver, no trace, statistics or max-rewrites (each op is then
        # visited once and fires at most once: the default budget cannot run out).
        self._kernels = False
        # Whether a run may have changed the IR: a rule fired, a stage hook ran
        # (hooks change the IR directly) or the greedy driver ran (it erases
        # dead ops by itself). A pass that changed nothing need not be verified.
        self.modified = False
        self.fires = 0  # rule applications that changed the IR, over all runs
        self._pass_scratch: dict = {}  # RewriteContext.pass_scratch of every anchor this runner runs on
        # Per stage (by id): its enabled rules, the ids --explain asks about, and their index by
        # root name; the same for every anchor (a func.func pass runs once per function).
        self._stage_rules: dict[int, tuple] = {}
        self._all_rules_of = {}

    # ------------------------------------------------------------------ entry
    def run(self, anchor) -> None:
        anchor = as_operation(anchor)
        library = self.library or builtin_library()
        with using(library.op_registry), running_on(anchor, location_text):
            self._run(anchor, library)

    def _run(self, anchor, library) -> None:
        ctx = RewriteContext(anchor, self.options, self.passdef, library, self.observer)
        ctx.location_text = location_text
        ctx.pass_scratch = self._pass_scratch
        for stage in self.passdef.stages:
            if stage.hook is not None:
                self.modified = True
                ctx.driver_kind = None
                ctx.begin_rewrite()
                try:
                    with stage_hook(stage.hook.__name__):
                        stage.hook(ctx)
                except (SdyDslError, PassFailure):
                    raise
                except (Exception, SystemExit) as e:
                    raise_from_hook(e, f"pass '{self.passdef.name}', stage '{stage.name}': hook "
                                       f"'{stage.hook.__name__}'", stage.loc or self.passdef.loc)
                if ctx.errors:
                    raise PassFailure(ctx.errors[0])  # the hook emitted error diagnostics
                continue
            rules, self._explained, index, any_op = self._rules_of(stage)
            if not rules:
                continue
            kind = stage.driver.kind
            self._greedy = kind == "greedy"
            ctx.driver_kind = kind
            ctx.begin_stage()
            if kind != "greedy" and not self._explained and all(self._cannot_fire(r, ctx) for r in rules):
                # No rule can fire on any op (an invariant constraint fails, and
                # without a firing rule the IR stays as it is): the walk would
                # change nothing. (The greedy driver erases dead ops by itself.)
                continue
            self._budget = Budget(stage, anchor, self.passdef.name, self.passdef.loc)
            self._locate_fires = self._greedy or self.observer.trace or bool(stage.driver.max_rewrites)
            self._kernels = (kind in ("walk", "once") and not stage.driver.max_rewrites
                             and not self.observer.trace and not self.observer.collect_stats)
            if kind == "once":
                self._run_once(anchor, ctx, index, any_op, stage.driver.top_down, stage.driver.post_order)
            else:
                self._run_mlir(anchor, ctx, index, any_op, stage.driver)
            self.fires += self._budget.fires
            if self._budget.fires or self._greedy:
                self.modified = True
            if self.error is not None:
                error, self.error = self.error, None
                raise error
            if ctx.errors:
                # `error(...)` actions report every offending op, then the stage fails.
                raise PassFailure(ctx.errors[0])

    def _rules_of(self, stage) -> tuple:
        """(enabled rules, ids --explain asks about, index by root name, any-op rules) of a stage."""
        try:
            return self._stage_rules[id(stage)]
        except KeyError:
            pass
        rules = [r for r in stage.rules if self.observer.rule_enabled(self.passdef.name, r.id)]
        self._explained = {r.id for r in rules if self._explains(r)}
        index, any_op = self._index(rules) if rules else ({}, [])
        found = self._stage_rules[id(stage)] = (rules, self._explained, index, any_op)
        return found

    def _explains(self, rule: Rule) -> bool:
        explain = self.observer.explain
        return bool(explain) and (rule.id in explain or f"{self.passdef.name}/{rule.id}" in explain)

    def _cannot_fire(self, rule: Rule, ctx: RewriteContext) -> bool:
        """Whether one of the rule's leading invariant constraints fails now."""
        env = Env(ctx, {})
        for constraint, _ in rule.where[:rule.invariant_where]:
            try:
                if not constraint(env):
                    return True
            except Exception:  # reported where the rule is tried, as before
                return False
        return False

    def _roots(self, rule: Rule) -> tuple[str, ...]:
        """The op names a rule is tried on: its pattern's, or for a `*` rule
        whose first constraint declares the ops it can hold for, those
        (unless --explain asks about the rule on every op)."""
        if rule.roots == ("*",) and rule.root_guard is not None and rule.id not in self._explained:
            names = rule.root_guard(op_registry.active())
            if names is not None:
                return tuple(sorted(names))
        return rule.roots

    def _index(self, rules: list[Rule]):
        ordered = sorted(rules, key=lambda r: (-r.benefit, r.order))
        index: dict[str, list[Rule]] = {}
        roots = {id(r): self._roots(r) for r in ordered}
        any_op = [r for r in ordered if roots[id(r)] == ("*",)]
        for r in ordered:
            if roots[id(r)] == ("*",):
                continue
            for name in roots[id(r)]:
                index.setdefault(name, []).append(r)
        if any_op:
            # Rules on any op interleave with named ones by benefit and order.
            for name, named in index.items():
                index[name] = sorted(named + any_op, key=lambda r: (-r.benefit, r.order))
        return index, any_op

    # ------------------------------------------------------------------ rule application
    def _try_rules(self, op: ir.Operation, rules: list[Rule], ctx: RewriteContext) -> bool:
        observer = self.observer
        stats_on = observer.collect_stats
        if not stats_on:
            attrs = None  # the op's attributes, asked once
            for rule in rules:
                explained = rule.id in self._explained
                if rule.only_on_root_attributes and not explained:
                    if attrs is None:
                        attrs = op.attributes
                    if not len(attrs):
                        continue  # its actions would change nothing
                if rule.kernel is not None and self._kernels and not explained:
                    if attrs is None:
                        attrs = op.attributes
                    if self._apply_kernel(op, attrs, rule, ctx):
                        self._budget.fires += 1  # (no budget to check, see self._kernels)
                        return True
                    continue
                if self._try_rule(op, rule, ctx):
                    self._budget.spend(rule, self._fired_on)
                    return True
            return False
        for rule in rules:
            t0 = time.perf_counter() if stats_on else 0.0
            fired = self._try_rule(op, rule, ctx)
            if stats_on:
                st = observer.stats.setdefault((self.passdef.name, rule.id), RuleStats())
                st.attempts += 1
                st.seconds += time.perf_counter() - t0
                if fired is not None:
                    st.matches += 1
                    if fired:
                        st.fired += 1
                    else:
                        st.noop += 1
            if fired:
                self._budget.spend(rule, self._fired_on)
                return True
        return False

    def _try_rule(self, op: ir.Operation, rule: Rule, ctx: RewriteContext):
        """None: did not match; False: matched but changed nothing; True: fired."""
        bindings = rule.match(op)
        explain = rule.id in self._explained
        if bindings is None:
            if explain:
                self._explain(op, rule, "the pattern did not match")
            return None
        env = Env(ctx, bindings)
        try:
            if explain:
                for i, (constraint, text) in enumerate(rule.where):
                    env.compared = None
                    if not constraint(env):
                        self._explain(op, rule, f"constraint {i + 1} failed: {text}{compared_text(env)}")
                        return None
            else:
                for constraint, _ in rule.where:
                    if not constraint(env):
                        return None
            # Taken before the actions, which may erase the op; only a trace or
            # the greedy driver's no-op warning prints them.
            op_name = op.name
            # Printed only when a message needs it: a trace line, the greedy
            # driver's no-op warning or a budget error (under `walk` and
            # `once` each op is visited once: only a `max-rewrites` runs out).
            location = op.location if self._locate_fires else None
            self._fired_on = (op_name, location)
            ctx.changed = False
            ctx.begin_rewrite(op)
            for act in rule.actions:
                act(env)
        except (Exception, SystemExit) as e:
            raise _failure(op, rule, ctx, e)
        if not ctx.changed:
            # Counted as not applied. Under the greedy driver a rule that
            # "succeeds" without a change would make it spin: say so once.
            key = (self.passdef.name, rule.id)
            if self._greedy and key not in self.observer.warned_noop:
                self.observer.warned_noop.add(key)
                print(f"{rule.loc}: warning: rule '{rule.id}' matched '{op_name}' at "
                      f"{text_of_location(location)} but its rewrite "
                      f"changed nothing (counted as not applied)", file=self.observer.out())
            return False
        if self.observer.trace:
            self.observer.record_fire(self.passdef.name, rule, op, op_name, text_of_location(location))
        return True

    def _explain(self, op, rule, why):
        print(f"{location_text(op)}: explain: {self.passdef.name}/{rule.id} did not fire on "
              f"'{op.name}': {why}", file=self.observer.out())

    # ------------------------------------------------------------------ drivers
    def _run_once(self, anchor, ctx, index, any_op, top_down: bool = True, post_order: bool = False):
        if any_op:
            ops: list[ir.Operation] = []
            # Rules by kernels that need an attribute change only their root's
            # attributes: an op without any now has none when its turn comes.
            if self._kernels_only(index, any_op) and _needs_attributes(self._all_rules(index, any_op)):
                def collect(op):
                    if len(op.attributes):
                        ops.append(op)
                    return ir.WalkResult.ADVANCE
            else:
                def collect(op):
                    ops.append(op)
                    return ir.WalkResult.ADVANCE

            anchor.walk(collect, ir.WalkOrder.POST_ORDER if post_order else ir.WalkOrder.PRE_ORDER)
            # the anchor itself (first in pre-order, last in post-order) is not
            # rewritten, as in MLIR's drivers
            if ops and ops[-1 if post_order else 0] == anchor:
                ops = ops[:-1] if post_order else ops[1:]
        else:
            ops = ops_named(anchor, index, pre_order=not post_order)
        ctx.erased.clear()  # only erasures after this snapshot matter (addresses are reused)
        if not top_down:
            ops.reverse()  # last op first
        try_rules = self._apply_kernels if self._kernels_only(index, any_op) else self._try_rules
        for op in ops:
            if ctx.erased and ctx.erased_in_run(op):
                continue
            rules = index.get(op.name, any_op) if index else any_op
            if rules:
                try_rules(op, rules, ctx)

    def _run_mlir(self, anchor, ctx, index, any_op, cfg: DriverConfig):
        if cfg.kind == "walk" and any_op and self._kernels_only(index, any_op):
            self._walk_kernels(anchor, ctx, index, any_op)
            return
        patterns = mlir_rewrite.RewritePatternSet(anchor.context)
        names = set(index)
        counted = None
        if any_op:
            # MLIR patterns need a root name: register the any-op rules under
            # every op name present in the anchor. When they need attributes on
            # their root and no rule of the stage changes other ops than its
            # root, only names of ops that have those attributes (under `walk`
            # an op is tried once: none can gain them before it is visited).
            needs = [r.required_root_attrs for r in any_op]
            if cfg.kind == "walk" and all(needs) and all(r.root_local for r in self._all_rules(index, any_op)):
                # (the rules change only attributes: the op count the walk
                # finds is the budget's, no walk of its own needed)
                counted = [0]

                def collect(op):
                    counted[0] += 1
                    name = op.name
                    if name not in names:
                        attrs = op.attributes
                        for need in needs:
                            for a in need:
                                if a not in attrs:
                                    break
                            else:
                                names.add(name)
                                break
                    return ir.WalkResult.ADVANCE
            else:
                def collect(op):
                    names.add(op.name)
                    return ir.WalkResult.ADVANCE
            anchor.walk(collect)
            if counted is not None:
                self._budget.known_ops = counted[0]
            names.discard(anchor.name)
        if not names and cfg.kind == "walk":
            return  # no op to try a rule on
        for name in sorted(names):
            rules = index.get(name, any_op)
            patterns.add(name, self._callback(rules, ctx), benefit=1)
        frozen = patterns.freeze()
        if cfg.kind == "walk":
            mlir_rewrite.walk_and_apply_patterns(anchor, frozen)
        else:
            config = mlir_rewrite.GreedyRewriteConfig()
            config.enable_folding = False
            config.enable_constant_cse = False
            config.region_simplification_level = mlir_rewrite.GreedySimplifyRegionLevel.DISABLED
            config.max_iterations = cfg.max_iterations
            config.use_top_down_traversal = cfg.top_down
            config.strictness = {
                "any": mlir_rewrite.GreedyRewriteStrictness.ANY_OP,
                "existing-and-new": mlir_rewrite.GreedyRewriteStrictness.EXISTING_AND_NEW_OPS,
                "existing": mlir_rewrite.GreedyRewriteStrictness.EXISTING_OPS,
            }[cfg.strictness]
            try:
                mlir_rewrite.apply_patterns_and_fold_greedily(anchor, frozen, config)
            except RuntimeError as e:
                if self.error is not None:
                    return  # our own error stopped the driver; it is reported instead
                if "converge" not in str(e):
                    raise
                if self._budget.fires:
                    # (Without a rule firing, only the driver's own erasure of
                    # dead ops changed the IR: the rules are at a fixed point.)
                    self.error = self._budget.not_converged(cfg.max_iterations)

    def _callback(self, rules, ctx):
        def callback(op, rewriter):
            if self.error is not None:
                return True
            op = as_operation(op)
            ctx.rewriter = rewriter
            try:
                fired = self._try_rules(op, rules, ctx)
            except BaseException as e:  # surfaced after the driver returns
                self.error = e
                return True
            finally:
                ctx.rewriter = None
            return not fired  # MLIR: a falsy return means success
        return callback


def _failure(op: ir.Operation, rule: Rule, ctx: RewriteContext, e: BaseException) -> BaseException:
    """The error a rule's failure E on OP is reported as (E itself when it is one already)."""
    if isinstance(e, (SdyDslError, PassFailure)):
        return e
    loc = rule.loc
    if isinstance(e, ActionError):
        message = f"rule '{rule.id}': {e}"
        loc = e.loc or loc
    elif isinstance(e, RecursionError):
        message = f"rule '{rule.id}': expressions nested too deeply to evaluate"
    elif isinstance(e, SystemExit):
        message = f"rule '{rule.id}': a hook called sys.exit({e.code!r})"
    else:
        where = "an erased op" if ctx.is_erased(op) else f"'{op.name}' at {location_text(op)}"
        message = f"rule '{rule.id}' failed on {where}: {type(e).__name__}: {e}"
    error = SdyDslError(message, loc.path, loc.line, loc.col)
    # (`raise error from e` for an unexpected failure, else `from None`)
    error.__cause__ = e if message.startswith(f"rule '{rule.id}' failed on") else None
    error.__suppress_context__ = True
    return error


def _needs_attributes(rules: list[Rule]) -> bool:
    """Whether none of these rules (with kernels) can change an op without attributes."""
    return all(r.only_on_root_attributes or r.kernel.binds or r.kernel.present for r in rules)


def index_rules(index: dict, any_op: list) -> list[Rule]:
    """Every rule of an index (by root name, plus the any-op rules)."""
    found = {id(r): r for rules in index.values() for r in rules}
    found.update((id(r), r) for r in any_op)
    return list(found.values())


class Budget:
    """How many rewrites a stage may make: `max-rewrites` of its driver, by
    default 10 per op of the anchor + 10,000 (counted only once 10,000 fired).
    Exhausting it, or a greedy driver that does not converge, is an error
    that names the rules that kept firing and where. (The `once` driver
    cannot exhaust the default: it fires at most once on each op of its
    snapshot, and each one not yet tried is still in the anchor; its ops
    are not counted.)"""

    FREE = 10_000

    def __init__(self, stage=None, anchor=None, pass_name: str = "", pass_loc=None):
        self.stage, self.anchor, self.pass_name, self.pass_loc = stage, anchor, pass_name, pass_loc
        self.fires = 0
        self.limit = stage.driver.max_rewrites if stage is not None and stage.driver.max_rewrites else None
        self.unbounded = stage is not None and self.limit is None and stage.driver.kind == "once"
        self.per_rule: dict[str, list] = {}  # rule id -> [count, rule, last (name, loc)]
        self.known_ops = None  # the anchor's op count, when a driver counted it and it cannot change

    def spend(self, rule, where) -> None:
        self.fires += 1
        entry = self.per_rule.get(rule.id)
        if entry is None:
            entry = self.per_rule[rule.id] = [0, rule, where]
        entry[0] += 1
        entry[2] = where
        if self.stage is None or self.unbounded:
            return
        if self.limit is None and self.fires >= self.FREE:
            ops = self.known_ops if self.known_ops is not None else count_ops(self.anchor)
            self.limit = 10 * ops + self.FREE
        if self.limit is not None and self.fires > self.limit:
            setting = ("its 'max-rewrites'" if self.stage.driver.max_rewrites
                       else "the default of 10 per op + 10,000; set 'max-rewrites' in the driver to change it")
            raise self._error(f"rewrite budget of {self.limit} exhausted ({setting})")

    def not_converged(self, iterations: int) -> SdyDslError:
        return self._error(f"the greedy driver did not converge in {iterations} iteration(s) "
                           f"(max-iterations)")

    def _error(self, what: str) -> SdyDslError:
        top = sorted(self.per_rule.values(), key=lambda e: -e[0])[:3]
        fired = "; ".join(f"'{r.id}' ({n} times, last on '{name}'"
                          f"{' at ' + text_of_location(loc) if loc is not None else ''})"
                          for n, r, (name, loc) in top) or "none"
        loc = top[0][1].loc if top else (self.stage.loc or self.pass_loc)
        message = (f"pass '{self.pass_name}', stage '{self.stage.name}' ({self.stage.driver.kind} driver): "
                   f"{what}; rules that kept firing: {fired}")
        if loc is None:
            return SdyDslError(message)
        return SdyDslError(message, loc.path, loc.line, loc.col)


def raise_from_hook(e: BaseException, who: str, loc) -> None:
    """A stage hook failed: an error that names the input position when the
    exception carries one (`loc("file":L:C)`), else one at the rule file."""
    if isinstance(e, SystemExit):
        message = f"{who} called sys.exit({e.code!r})"
    elif isinstance(e, RecursionError):
        message = f"{who} failed: recursion too deep"
    elif isinstance(e, ActionError):
        message = f"{who}: {e}"
    else:
        message = f"{who} failed: {type(e).__name__}: {e}"
    m = _FILE_LOC.search(str(e)) if not isinstance(e, SystemExit) else None
    if m:
        text = _FILE_LOC.sub("", str(e), count=1)
        text = re.sub(r"^\s*loc\(\)\s*:?\s*", "", text)
        emit_error_at(m.group(1), int(m.group(2)), int(m.group(3)), f"{who}: {text or type(e).__name__}")
        raise PassFailure(message) from None
    if loc is None:
        raise SdyDslError(message) from None
    raise SdyDslError(message, loc.path, loc.line, loc.col) from None
