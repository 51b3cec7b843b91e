"""What `--trace` and `--rule-stats` report about one propagation pass run.

The engine calls a `PropagationTrace` after each propagation step (an op, or
a data-flow edge, whose sharding projection it propagated). A step that
changed shardings is numbered the way `sdy.propagation_edges` numbers it
(from 0, one number per step that changed something in this pass run), and
traced as one line per tensor it changed:

    m.mlir:12:3: trace: sdy-basic-propagate/step 4 'stablehlo.dot_general' result-0 %3: \
<@mesh, [{?}, {?}]> -> <@mesh, [{"x", ?}, {?}]>

`--rule-stats` counts every step under `step:<op name>` with its time (the
time since the previous step of the run, so the worklist's own bookkeeping
is attributed to the step it led to). `--progress` prints, every half
second, the steps so far, how many changed shardings, and how many of the
module's ops have been visited.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, Sequence

from jaxlib.mlir import ir

from .interp.driver import Observer, location_text
from .runtime.values import ops_under


def _text(sharding) -> str:
    return "<none>" if sharding is None else str(sharding)


class PropagationTrace:
    """The engine's `trace` callback for one pass run, reporting to OBSERVER."""

    PROGRESS_SECONDS = 0.5  # --progress: at most one line per this many seconds

    def __init__(self, observer: Observer, pass_name: str, module_op):
        self.observer = observer
        self.pass_name = pass_name
        # SSA names as the module prints them; one AsmState for the run keeps naming cheap.
        self.state = ir.AsmState(module_op) if observer.trace else None
        self.step = 0
        self.last = self.started = self.reported = time.perf_counter()
        self.visits = 0
        self.visited: set = set()
        self.total_ops = len(ops_under(module_op)) if observer.progress else 0

    def __call__(self, op: ir.Operation, operand_shardings: Sequence, result_shardings: Sequence,
                 changed: bool, after: Callable[[], tuple[list, list, list, list]] | None = None) -> None:
        """AFTER: () -> (operands, results, their shardings now) of the step."""
        now = time.perf_counter()
        seconds, self.last = now - self.last, now
        lines = None
        if changed:
            if self.observer.trace and after is not None:
                operands, results, operands_after, results_after = after()
                lines = self._lines(op, (operands, operand_shardings, operands_after),
                                    (results, result_shardings, results_after))
            self.step += 1
        self.observer.record_step(self.pass_name, f"step:{op.name}", op, changed, seconds, lines)
        if self.observer.progress:
            self.visits += 1
            self.visited.add(op)
            if now - self.reported >= self.PROGRESS_SECONDS:
                self.reported = now
                print(f"progress: {self.pass_name}: {self.visits} steps, {self.step} changed shardings, "
                      f"{len(self.visited)} of {self.total_ops} ops visited ({now - self.started:.1f} s)",
                      file=sys.stderr, flush=True)

    def _lines(self, op, operands: tuple, results: tuple) -> list[str]:
        """One line per tensor the step changed; OPERANDS/RESULTS: (values, before, after)."""
        where = location_text(op)
        lines = []
        for kind, (values, before, after) in (("operand", operands), ("result", results)):
            for i, (old, new) in enumerate(zip(before, after)):
                if old == new:
                    continue
                name = values[i].get_name(self.state)
                if self.observer.trace_json:
                    import json  # (only --trace-json writes JSON: not on a run's path)
                    lines.append(json.dumps({"pass": self.pass_name, "step": self.step, "op": op.name,
                                             "loc": where, "edge": f"{kind}-{i}", "value": name,
                                             "before": _text(old), "after": _text(new)}))
                else:
                    lines.append(f"{where}: trace: {self.pass_name}/step {self.step} '{op.name}' "
                                 f"{kind}-{i} {name}: {_text(old)} -> {_text(new)}")
        return lines
