"""`sdy-dsl search`: run a space of tunings and rank them by what they communicate and hold.

    result = sdy_dsl.search("model.mlir", "space.yaml", jobs=2, out_dir="search-out")
    print(result.table())
    result.best.settings         # {"sdy-user-priority-propagate.propagation-strategy": "basic", ...}

Each point is the space's pipeline with some settings changed (pass options,
pass params, a rules directory, user priorities on @main's arguments),
priced by `sdy_dsl.cost` (the collectives Shardy's export makes explicit) on
the model. Points run in worker processes (`jobs`, default every local core)
or on a Dask cluster (`engine="dask"`); each result is stored under a key of
everything it depends on (the model, the pipeline, the rules' contents, the
settings, sdy-dsl's own files), so an interrupted or extended search resumes
without running a finished point again. A point that fails is reported with
its error and the search goes on.

Metrics, per device: `collective-bytes` (the sum of every collective's
bytes), `collective-count`, `memory-bytes` (what @main holds at once from its
shardings: the per-device size of its arguments and results — an estimate
from the shardings, not XLA's buffer assignment).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .errors import SdyDslError
from .search_point import apply_priorities, number, split_settings, write_params_dir
from .search_report import write_outputs
from .search_space import CONSTRAINTS, SearchSpace, load_space, pipeline_spec

RESULT_VERSION = 1


@dataclass
class PointResult:
    index: int
    settings: dict
    error: str | None = None
    totals: dict = field(default_factory=dict)  # kind -> {count, bytes}
    collective_bytes: int = 0
    collective_count: int = 0
    memory_bytes: int = 0
    replicated_arguments: list = field(default_factory=list)  # [[index, bytes], ...] of @main
    seconds: float = 0.0
    cached: bool = False
    objective: float | None = None
    violations: list = field(default_factory=list)
    pareto: bool = False
    xla: dict | None = None  # --verify: XLA's compiled collectives (kind -> {count, bytes})

    @property
    def ok(self) -> bool:
        return self.error is None

    def metrics(self) -> dict:
        return {"collective-bytes": self.collective_bytes, "collective-count": self.collective_count,
                "memory-bytes": self.memory_bytes}

    def settings_text(self) -> str:
        if not self.settings:
            return "(default)"
        return ", ".join(f"{k}={_short(v)}" for k, v in self.settings.items())


def _short(value) -> str:
    if isinstance(value, str) and os.sep in value:
        return Path(value).name
    return json.dumps(value) if not isinstance(value, str) else value


@dataclass
class SearchResult:
    space: SearchSpace
    points: list[PointResult]  # sorted by objective (feasible first), failures last
    how: str  # how the points were chosen
    seconds: float = 0.0
    jobs: int = 1

    @property
    def best(self) -> PointResult | None:
        return next((p for p in self.points if p.ok and not p.violations), None)

    @property
    def default(self) -> PointResult:
        return next(p for p in self.points if p.index == 0)

    def table(self) -> str:
        kinds = sorted({k for p in self.points for k in p.totals})
        head = ["rank", "point", "pareto", "objective", *kinds, "collective B", "memory B", "s", "settings"]
        rows = []
        for rank, p in enumerate(self.points, 1):
            if not p.ok:
                rows.append([str(rank), str(p.index), "", "failed", *[""] * len(kinds), "", "", f"{p.seconds:.1f}",
                             f"{p.settings_text()}: {p.error.splitlines()[0]}"])
                continue
            cells = [f"{p.totals[k]['count']}x {p.totals[k]['bytes']}" if k in p.totals else "-" for k in kinds]
            note = "  [violates " + ", ".join(p.violations) + "]" if p.violations else ""
            rows.append([str(rank), str(p.index), "*" if p.pareto else "", number(p.objective), *cells, str(p.collective_bytes),
                         str(p.memory_bytes), f"{p.seconds:.1f}" + ("c" if p.cached else ""),
                         p.settings_text() + note])
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
        lines = [f"search: {self.how}; objective: {self.space.objective.text()} (smaller is better); "
                 f"{len(self.points)} points in {self.seconds:.1f} s on {self.jobs} job(s)"]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head] + rows]
        best, default = self.best, self.default
        if best is not None and default.ok:
            change = best.objective - default.objective
            lines.append(f"best: point {best.index} ({best.settings_text()}): objective {number(best.objective)} "
                         f"vs the default's {number(default.objective)} ({'+' if change >= 0 else ''}{number(change)})")
        lines.append("pareto: * marks the points no other point beats on both collective and memory bytes; "
                     "s: seconds (c: from the cache)")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"how": self.how, "objective": self.space.objective.text(), "seconds": self.seconds,
                "jobs": self.jobs, "points": [p.__dict__ for p in self.points]}


# --------------------------------------------------------------------------- running one point


def evaluate_point(job: dict) -> dict:
    """Run one point (in a worker process): its metrics, or its error."""
    from .cost import cost
    from .runtime.sharding import parse_tensor_sharding
    started = time.perf_counter()
    options, params, rules, priorities = split_settings(job["settings"], job["kinds"])
    try:
        text = job["module"]
        if priorities:
            text = apply_priorities(text, priorities)
        with tempfile.TemporaryDirectory(prefix="sdy-dsl-search-") as tmp:
            rule_dirs = list(job["rule_dirs"]) + rules
            if params:
                write_params_dir(Path(tmp) / "params", params)
                rule_dirs.append(str(Path(tmp) / "params"))
            report = cost(text, job["pipeline"], rules=rule_dirs, options=options or None)
    except SdyDslError as e:
        return {"error": str(e).strip() or type(e).__name__, "seconds": time.perf_counter() - started}
    main = next((f for f in report.functions if f.name == "main"), report.functions[0] if report.functions else None)
    replicated = []
    memory = 0
    if main is not None:
        memory = sum(v.bytes for v in main.arguments + main.results)
        for v in main.arguments:
            if not v.sharding or parse_tensor_sharding(v.sharding).is_fully_replicated:
                replicated.append([v.index, v.bytes])
    totals = report.totals()
    return {"error": None, "totals": totals, "collective_bytes": sum(t["bytes"] for t in totals.values()),
            "collective_count": sum(t["count"] for t in totals.values()), "memory_bytes": memory,
            "replicated_arguments": replicated, "seconds": time.perf_counter() - started}


# --------------------------------------------------------------------------- the cache


def _tree_digest(paths: Iterable[Path], digest) -> None:
    for root in paths:
        root = Path(root)
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file()
                                                     and "__pycache__" not in p.parts)
        for f in files:
            digest.update(str(f.relative_to(root) if f != root else f.name).encode())
            digest.update(f.read_bytes())


def code_digest() -> str:
    """sdy-dsl's own files (package, built-in rules and pipelines): a change to any re-runs every point."""
    from .resources import builtin_pipelines_dir, builtin_rules_dir
    digest = hashlib.sha256()
    _tree_digest([Path(__file__).resolve().parent, builtin_rules_dir(), builtin_pipelines_dir()], digest)
    return digest.hexdigest()


class PointCache:
    """Results on disk, one JSON file per point, keyed by the content of everything a point depends on."""

    def __init__(self, directory: Path | None):
        self.directory = directory

    def get(self, key: str) -> dict | None:
        if self.directory is None:
            return None
        path = self.directory / f"{key}.json"
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        return doc if doc.get("version") == RESULT_VERSION else None

    def put(self, key: str, result: dict) -> None:
        if self.directory is None or result.get("error") is not None:
            return  # a failure runs again next time (it may be fixed)
        self.directory.mkdir(parents=True, exist_ok=True)
        from .output_file import write_file_atomically
        write_file_atomically(str(self.directory / f"{key}.json"), json.dumps(dict(result, version=RESULT_VERSION)))


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sdy-dsl" / "search"


# --------------------------------------------------------------------------- engines


def _run_local(jobs: list[dict], workers: int, on_done: Callable[[int, dict], None]) -> None:
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            on_done(i, evaluate_point(job))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    # spawn: a forked copy of a process holding MLIR's thread pool may deadlock
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(evaluate_point, job): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            try:
                result = future.result()
            except Exception as e:  # a worker that died (killed, out of memory): that point fails
                result = {"error": f"the worker running this point failed: {type(e).__name__}: {e}", "seconds": 0.0}
            on_done(futures[future], result)


def _run_dask(jobs: list[dict], scheduler: str | None, workers: int, on_done) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SdyDslError("search: the dask engine needs Dask's distributed scheduler: "
                          "pip install 'sdy-dsl[dask]'") from None
    client = Client(scheduler) if scheduler else Client(n_workers=workers, threads_per_worker=1, processes=True,
                                                        dashboard_address=None)
    try:
        futures = {client.submit(evaluate_point, job, pure=False): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            try:
                result = future.result()
            except Exception as e:
                result = {"error": f"the worker running this point failed: {type(e).__name__}: {e}", "seconds": 0.0}
            on_done(futures[future], result)
    finally:
        client.close()


ENGINES = ("local", "dask")


# --------------------------------------------------------------------------- the search


class Progress:
    """One status line on stderr: points done, the best so far, the time left."""

    def __init__(self, total: int, enabled: bool, stream=None):
        self.total, self.enabled, self.stream = total, enabled, stream or sys.stderr
        self.done, self.started, self.best = 0, time.perf_counter(), None
        self.tty = getattr(self.stream, "isatty", lambda: False)()

    def update(self, point: PointResult, ran: int, to_run: int) -> None:
        self.done += 1
        if point.ok and not point.violations and (self.best is None or point.objective < self.best.objective):
            self.best = point
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.started
        left = f"{elapsed / ran * (to_run - ran):.0f} s left" if ran else "from the cache"
        best = f"best {number(self.best.objective)} (point {self.best.index})" if self.best else "no point yet"
        line = f"search: {self.done}/{self.total} points, {best}, {left}"
        if self.tty:
            self.stream.write("\r" + line.ljust(78) + ("\n" if self.done == self.total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def search(model, space, *, rules=(), jobs: int | None = None, out_dir: str | Path | None = None,
           cache_dir: str | Path | None = None, use_cache: bool = True, engine: str = "local",
           scheduler: str | None = None, progress: bool = False, verify: int = 0,
           exported=None) -> SearchResult:
    """Run the points of SPACE (a SearchSpace or a space file) on MODEL (a path,
    MLIR text, or a `jax.export.Exported`); see the module docstring."""
    from .api import module_source
    if engine not in ENGINES:
        raise SdyDslError(f"search: unknown engine '{engine}' (engines: {', '.join(ENGINES)})")
    if hasattr(model, "mlir_module") and exported is None:
        exported = model
    if exported is not None and model is exported:
        model = exported.mlir_module()
    if verify and exported is None:
        raise SdyDslError("search: --verify compiles points with JAX and needs the model as a jax.export.Exported "
                          "(sdy_dsl.search(exported, ...), or a file written by exported.serialize())")
    source = module_source(model)
    if isinstance(source, bytes):  # bytecode: the workers get text
        from jaxlib.mlir import ir
        from .mlir_context import make_context
        with make_context():
            source = ir.Module.parse(source).operation.get_asm(enable_debug_info=True)
    rule_dirs = [str(Path(d).resolve()) for d in ([rules] if isinstance(rules, (str, Path)) else rules)]
    if not isinstance(space, SearchSpace):
        space = load_space(space, rule_dirs)
    points, how = space.points()
    kinds = {d.name: (d.kind, d.pass_name, d.key) for d in space.dimensions}
    pipeline = pipeline_spec(space)
    if out_dir is not None and cache_dir is None:
        cache_dir = Path(out_dir) / "cache"
    cache = PointCache(Path(cache_dir) if cache_dir is not None else default_cache_dir()) if use_cache \
        else PointCache(None)
    base_key = _base_key(source, pipeline, rule_dirs)
    results: list[PointResult | None] = [None] * len(points)
    to_run, keys = [], []
    for i, settings in enumerate(points):
        key = _point_key(base_key, settings, kinds)
        keys.append(key)
        hit = cache.get(key)
        if hit is not None:
            results[i] = _point(i, settings, hit, cached=True)
        else:
            to_run.append(i)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    bar = Progress(len(points), progress)
    started = time.perf_counter()
    for i, r in enumerate(results):
        if r is not None:
            _score(r, space)
            bar.update(r, 0, len(to_run))
    ran = [0]
    job_list = [{"module": source, "pipeline": pipeline, "rule_dirs": rule_dirs, "settings": points[i],
                 "kinds": kinds} for i in to_run]

    def done(j: int, raw: dict) -> None:
        i = to_run[j]
        cache.put(keys[i], raw)
        results[i] = _point(i, points[i], raw, cached=False)
        _score(results[i], space)
        ran[0] += 1
        bar.update(results[i], ran[0], len(to_run))

    if engine == "dask":
        _run_dask(job_list, scheduler, workers, done)
    else:
        _run_local(job_list, workers, done)
    ordered = _rank([r for r in results if r is not None])
    result = SearchResult(space, ordered, how, time.perf_counter() - started, workers)
    if verify:
        verify_points(result, exported, rule_dirs, verify)
    if out_dir is not None:
        write_outputs(result, Path(out_dir), source, rule_dirs)
    return result


def _base_key(source: str, pipeline: str, rule_dirs: list[str]) -> str:
    digest = hashlib.sha256()
    digest.update(code_digest().encode())
    digest.update(hashlib.sha256(source.encode()).digest())
    digest.update(pipeline.encode())
    if Path(pipeline).is_file():
        _tree_digest([Path(pipeline)], digest)
    _tree_digest([Path(d) for d in rule_dirs], digest)
    return digest.hexdigest()


def _point_key(base_key: str, settings: dict, kinds: dict) -> str:
    digest = hashlib.sha256(base_key.encode())
    digest.update(json.dumps(settings, sort_keys=True, default=str).encode())
    for name, value in settings.items():
        if kinds[name][0] == "rules":  # a rules directory is its content
            _tree_digest([Path(value)], digest)
    return digest.hexdigest()[:40]


def _point(index: int, settings: dict, raw: dict, cached: bool) -> PointResult:
    fields = {k: raw[k] for k in ("error", "totals", "collective_bytes", "collective_count", "memory_bytes",
                                  "replicated_arguments", "seconds") if k in raw}
    return PointResult(index, settings, cached=cached, **fields)


def _score(point: PointResult, space: SearchSpace) -> None:
    if not point.ok:
        return
    point.objective = space.objective.of(point.metrics())
    point.violations = []
    for name, bound in space.constraints.items():
        if name == "max-replicated-argument-bytes":
            over = [i for i, b in point.replicated_arguments if b > bound]
            if over:
                point.violations.append(f"{name} (argument{'s' if len(over) > 1 else ''} "
                                        f"{', '.join(map(str, over))} of @main)")
        elif name == "max-memory-bytes" and point.memory_bytes > bound:
            point.violations.append(name)
        elif name == "max-collective-bytes" and point.collective_bytes > bound:
            point.violations.append(name)
    assert set(space.constraints) <= set(CONSTRAINTS)


def _rank(points: list[PointResult]) -> list[PointResult]:
    ok = [p for p in points if p.ok]
    for p in ok:
        p.pareto = not any(q is not p and q.collective_bytes <= p.collective_bytes and q.memory_bytes <= p.memory_bytes
                           and (q.collective_bytes, q.memory_bytes) != (p.collective_bytes, p.memory_bytes)
                           for q in ok)
    ok.sort(key=lambda p: (bool(p.violations), p.objective, p.collective_bytes, p.memory_bytes, p.index))
    return ok + sorted((p for p in points if not p.ok), key=lambda p: p.index)


# --------------------------------------------------------------------------- verifying with XLA


def verify_points(result: SearchResult, exported, rule_dirs: list[str], top: int) -> None:
    """Compile the TOP best points through sdy_dsl.jax.apply and record XLA's collectives beside the estimate."""
    import sdy_dsl.jax as sj
    kinds = {d.name: (d.kind, d.pass_name, d.key) for d in result.space.dimensions}
    for point in [p for p in result.points if p.ok][:top]:
        options, params, rules, priorities = split_settings(point.settings, kinds)
        this = exported
        if priorities:
            this = sj.replace_module(exported, apply_priorities(exported.mlir_module(), priorities))
        with tempfile.TemporaryDirectory(prefix="sdy-dsl-search-") as tmp:
            dirs = rule_dirs + rules
            if params:
                write_params_dir(Path(tmp) / "params", params)
                dirs = dirs + [str(Path(tmp) / "params")]
            try:
                tuned = sj.apply(this, pipeline_spec(result.space), rules=dirs, options=options or None)
                args, kwargs = sj._abstract_args(tuned)
                point.xla = sj.compiled_collectives(tuned, *args, **kwargs)
            except Exception as e:  # XLA's own failure is reported on the point, the others still verify
                point.xla = {"error": f"{type(e).__name__}: {e}"}
