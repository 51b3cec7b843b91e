"""A search space file (`sdy-dsl search MODEL SPACE.yaml`), read and checked.

    pipeline: sdy-propagation-pipeline      # default: what XLA runs
    vary:
      sdy-user-priority-propagate.propagation-strategy: [aggressive, basic]
      sdy-insert-explicit-reshards.candidate-ranking:      # a param (a rule file's `params:`)
        - [source-tensor-size, factor-type-precedence, sharding-size, factor-index, axes]
        - [factor-type-precedence, source-tensor-size, sharding-size, factor-index, axes]
      rules: [null, my_rules]               # --rules directories (relative to this file); null: none
      priorities:                           # user priorities on @main's arguments
        - null
        - {0: 0, 1: 1}                      # argument index (or its name) -> priority
    objective: collective-bytes             # or memory-bytes, or {weighted: {collective-bytes: 1, memory-bytes: 0.5}}
    constraints: {max-replicated-argument-bytes: 1048576}
    budget: 64                              # more points than this: a seeded random sample of them
    seed: 0

Every name is checked against the passes the pipeline runs, their options and
their params, with located errors (`space.yaml:4:3: error: ...`).
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import SdyDslError, did_you_mean
from .interp.param_types import check_value
from .interp.yaml_loader import Loc, LocDict, load_yaml
from .passes import PassRegistry

TOP_KEYS = ("pipeline", "vary", "objective", "constraints", "budget", "seed")
METRICS = ("collective-bytes", "memory-bytes", "collective-count")
CONSTRAINTS = {
    "max-replicated-argument-bytes": "no @main argument larger than this is left replicated on every device",
    "max-memory-bytes": "the per-device bytes of @main's arguments and results stay at most this",
    "max-collective-bytes": "the collectives move at most this many bytes per device",
}
DEFAULT_PIPELINE = "sdy-propagation-pipeline"
DEFAULT_BUDGET = 64


@dataclass(frozen=True)
class Dimension:
    """One `vary:` entry: what it sets and the values it takes."""
    name: str  # as written: PASS.OPTION, PASS.PARAM, rules, priorities
    kind: str  # option, param, rules, priorities
    values: tuple
    pass_name: str | None = None
    key: str | None = None
    default: Any = None  # what the pipeline does without this dimension (None: rules / priorities)


@dataclass(frozen=True)
class Objective:
    """What a point is ranked by (smaller is better): a weighted sum of METRICS."""
    weights: tuple[tuple[str, float], ...] = (("collective-bytes", 1.0),)

    def of(self, metrics: dict) -> float:
        return sum(w * metrics[m] for m, w in self.weights)

    def text(self) -> str:
        if len(self.weights) == 1 and self.weights[0][1] == 1.0:
            return self.weights[0][0]
        return " + ".join(f"{w:g}*{m}" for m, w in self.weights)


@dataclass
class SearchSpace:
    path: Path
    pipeline: str = DEFAULT_PIPELINE
    dimensions: list[Dimension] = field(default_factory=list)
    objective: Objective = field(default_factory=Objective)
    constraints: dict[str, int] = field(default_factory=dict)
    budget: int = DEFAULT_BUDGET
    seed: int = 0

    def grid_size(self) -> int:
        size = 1
        for d in self.dimensions:
            size *= len(d.values)
        return size

    def points(self) -> tuple[list[dict], str]:
        """The points to run (each a {dimension name: value}), the default point
        (every dimension at the pipeline's own behaviour) first, and how they
        were chosen: the full grid, or a seeded sample when it exceeds the budget."""
        names = [d.name for d in self.dimensions]
        grid = [dict(zip(names, combo)) for combo in itertools.product(*(d.values for d in self.dimensions))]
        how = f"full grid of {len(grid)} points"
        if len(grid) > self.budget:
            grid = random.Random(self.seed).sample(grid, self.budget)
            how = (f"{self.budget} of {self.grid_size()} points, sampled at random "
                   f"(seed {self.seed}, budget {self.budget})")
        points, seen = [], set()
        for point in [{}] + [self.effective(p) for p in grid]:
            key = repr(sorted(point.items()))
            if key not in seen:
                seen.add(key)
                points.append(point)
        return points, how

    def effective(self, point: dict) -> dict:
        """POINT without the settings that leave the pipeline as it is."""
        defaults = {d.name: d.default for d in self.dimensions}
        return {k: v for k, v in point.items() if v != defaults[k]}


def plain(value):
    """VALUE with the YAML loader's located subclasses turned back into plain data."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return str(value)


def load_space(path: str | Path, rule_dirs=()) -> SearchSpace:
    """Read and check SPACE.yaml; errors are located in it."""
    path = Path(path)
    if not path.is_file():
        raise SdyDslError(f"search: no search space file '{path}'")
    doc = load_yaml(path)
    if not isinstance(doc, LocDict):
        raise Loc(str(path), 1, 1).error("a search space is a mapping with 'vary:' (and optionally "
                                         + ", ".join(k for k in TOP_KEYS if k != "vary") + ")")
    for key in doc:
        if key not in TOP_KEYS:
            raise doc.key_loc(key).error(f"unknown key '{key}' in a search space{did_you_mean(str(key), TOP_KEYS)} "
                                         f"(keys: {', '.join(TOP_KEYS)})")
    space = SearchSpace(path)
    if "pipeline" in doc:
        space.pipeline = _string(doc, "pipeline")
    registry = PassRegistry([Path(d) for d in rule_dirs])
    from .api import pipeline_of
    try:
        pipe = pipeline_of(pipeline_spec(space), registry)
    except SdyDslError as e:
        raise doc.loc_of("pipeline").error(str(e)) from None
    if pipe.rule_dirs:
        registry = PassRegistry(pipe.rule_dirs + [Path(d) for d in rule_dirs])
    passes_run = list(dict.fromkeys(s.name for s in pipe.steps))
    step_options = {}  # pass -> the options the pipeline itself gives it
    for step in pipe.steps:
        step_options.setdefault(step.name, (step.options, step.typed))
    vary = doc.get("vary")
    if not isinstance(vary, LocDict) or not vary:
        raise (doc.loc_of("vary") if "vary" in doc else Loc(str(path), 1, 1)).error(
            "'vary' maps PASS.OPTION, PASS.PARAM, rules or priorities to a list of values to try")
    for name in vary:
        space.dimensions.append(_dimension(vary, str(name), registry, passes_run, step_options, path))
    if "objective" in doc:
        space.objective = _objective(doc["objective"], doc.loc_of("objective"))
    if "constraints" in doc:
        space.constraints = _constraints(doc["constraints"], doc.loc_of("constraints"))
    for key in ("budget", "seed"):
        if key in doc:
            value = doc[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < (1 if key == "budget" else 0):
                raise doc.loc_of(key).error(f"'{key}' is {'a positive' if key == 'budget' else 'a non-negative'} integer")
            setattr(space, key, value)
    return space


def pipeline_spec(space: SearchSpace) -> str:
    """The pipeline as run_pipeline takes it: a file next to the space file, else a name or string."""
    beside = space.path.parent / space.pipeline
    return str(beside) if beside.is_file() else space.pipeline


def _string(doc: LocDict, key: str) -> str:
    value = doc[key]
    if not isinstance(value, str):
        raise doc.loc_of(key).error(f"'{key}' is a string")
    return value


def _values(vary: LocDict, name: str) -> list:
    values = vary[name]
    if not isinstance(values, list) or not values:
        raise vary.loc_of(name).error(f"'{name}' takes a non-empty list of values to try")
    return values  # (located: plain() when stored)


def _item_loc(values, i: int, default: Loc) -> Loc:
    locs = getattr(values, "item_locs", None)
    return locs[i] if locs and i < len(locs) and locs[i] is not None else default


def _dimension(vary: LocDict, name: str, registry: PassRegistry, passes_run: list[str], step_options: dict,
               space_path: Path) -> Dimension:
    loc = vary.key_loc(name)
    values = _values(vary, name)
    if name == "rules":
        out = []
        for i, v in enumerate(values):
            if v is None:
                out.append(None)
                continue
            if not isinstance(v, str):
                raise _item_loc(values, i, loc).error("a 'rules' value is a rules directory or null (none)")
            d = (space_path.parent / v)
            if not d.is_dir():
                raise _item_loc(values, i, loc).error(f"rules directory '{v}' does not exist (relative to the "
                                                      "search space file)")
            PassRegistry([d])  # its files load, or a located error in them
            out.append(str(d.resolve()))
        return Dimension(name, "rules", tuple(out))
    if name == "priorities":
        for i, v in enumerate(values):
            if v is not None and not (isinstance(v, dict) and all(
                    isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in v.values())):
                raise _item_loc(values, i, loc).error(
                    "a 'priorities' value maps @main argument indices (or names) to priorities (0, 1, ...), or is null")
        return Dimension(name, "priorities", tuple(None if v is None else {str(k): int(p) for k, p in v.items()}
                                                   for v in values))
    pass_name, dot, key = name.rpartition(".")
    if not dot or not pass_name:
        raise loc.error(f"unknown dimension '{name}': expected PASS.OPTION, PASS.PARAM, rules or priorities"
                        + did_you_mean(name, ["rules", "priorities"]))
    priced_only = pass_name not in passes_run and pass_name in _pricing_passes()
    if pass_name not in passes_run and not priced_only:
        known = "not a pass" if not registry.has(pass_name) else "a pass the pipeline does not run"
        raise loc.error(f"'{pass_name}' is {known}{did_you_mean(pass_name, passes_run + _pricing_passes())} "
                        f"(the pipeline runs: {', '.join(passes_run)}; pricing runs: {', '.join(_pricing_passes())})")
    passdef = registry.get(pass_name)
    if key in passdef.options and priced_only:
        raise loc.error(f"'{pass_name}' runs only when a point is priced (sdy_dsl/cost.py, with its options "
                        f"fixed): its params can vary here, not its option '{key}'")
    if key in passdef.options:
        decl = passdef.options[key]
        for i, v in enumerate(values):
            try:
                decl.check_value(v)
            except ValueError as e:
                raise _item_loc(values, i, loc).error(str(e)) from None
        given, typed = step_options[pass_name]
        default = decl.default
        if key in given:
            default = given[key] if typed else decl.parse(str(given[key]))
        return Dimension(name, "option", tuple(plain(v) for v in values), pass_name, key, plain(default))
    param_names = set(passdef.param_decls)
    if key in param_names:
        decl = passdef.param_decls[key]
        for i, v in enumerate(values):
            check_value(v, decl.type, _item_loc(values, i, loc), f"param '{key}'")
        return Dimension(name, "param", tuple(plain(v) for v in values), pass_name, key,
                         plain(passdef.param_values.get(key)))
    choices = sorted(set(passdef.options) | param_names)
    raise loc.error(f"pass '{pass_name}' has no option or param '{key}'{did_you_mean(key, choices)} "
                    f"(options: {', '.join(sorted(passdef.options)) or 'none'}; "
                    f"params: {', '.join(sorted(param_names)) or 'none'})")


def _pricing_passes() -> list[str]:
    """The passes `cost` runs after the pipeline to make the collectives explicit: their params
    (an `extends:` file, like any point's) reach them too."""
    from .cost import EXPLICIT_COLLECTIVES
    from .pipeline import parse_pipeline_string
    return list(dict.fromkeys(s.name for s in parse_pipeline_string(EXPLICIT_COLLECTIVES).steps
                              if s.name.startswith("sdy-")))


def _objective(raw: Any, loc: Loc) -> Objective:
    if isinstance(raw, str):
        if raw not in METRICS:
            raise loc.error(f"unknown objective '{raw}'{did_you_mean(raw, METRICS)} (one of: {', '.join(METRICS)}, "
                            "or {weighted: {METRIC: WEIGHT, ...}})")
        return Objective(((raw, 1.0),))
    if isinstance(raw, dict) and set(raw) == {"weighted"} and isinstance(raw["weighted"], dict) and raw["weighted"]:
        weights = raw["weighted"]
        for metric, weight in weights.items():
            here = weights.loc_of(metric) if hasattr(weights, "loc_of") else loc
            if metric not in METRICS:
                raise (weights.key_loc(metric) if hasattr(weights, "key_loc") else loc).error(
                    f"unknown metric '{metric}'{did_you_mean(str(metric), METRICS)} (one of: {', '.join(METRICS)})")
            if not isinstance(weight, (int, float)) or isinstance(weight, bool) or weight < 0:
                raise here.error(f"the weight of '{metric}' is a non-negative number")
        return Objective(tuple((m, float(w)) for m, w in weights.items()))
    raise loc.error(f"'objective' is one of {', '.join(METRICS)} or {{weighted: {{METRIC: WEIGHT, ...}}}}")


def _constraints(raw: Any, loc: Loc) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise loc.error("'constraints' maps a constraint to its bound: " + ", ".join(CONSTRAINTS))
    for key, bound in raw.items():
        if key not in CONSTRAINTS:
            raise (raw.key_loc(key) if hasattr(raw, "key_loc") else loc).error(
                f"unknown constraint '{key}'{did_you_mean(str(key), CONSTRAINTS)} (one of: {', '.join(CONSTRAINTS)})")
        if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
            raise (raw.loc_of(key) if hasattr(raw, "loc_of") else loc).error(f"'{key}' is a number of bytes")
    return dict(raw)
