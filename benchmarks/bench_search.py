"""How `sdy-dsl search` scales with workers: the same 16-point search run with
--jobs 1 and with --jobs N (default: every core), as whole processes, each
fresh (--no-cache), the runs alternating; prints each run's wall time, the
medians, their ratio and the load average.

    python benchmarks/bench_search.py                      # examples/gpt8l_grad_2x4.mlir, --jobs 1 vs 2, 3 runs each
    python benchmarks/bench_search.py --gpt-layers 32       # a 32-layer GPT (bench_pipeline's, lowered once, cached)
    python benchmarks/bench_search.py --model M.mlir --jobs 4 --repeat 5

Each worker process starts once (about a second: Python, jaxlib, the rules)
and then runs its share of the points, so the larger the model the nearer
the ratio gets to 1/N.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# 2 strategies x 2 conservative settings x 2 candidate rankings x 2 unary preferences = 16 points.
SPACE = """\
vary:
  sdy-user-priority-propagate.propagation-strategy: [aggressive, basic]
  sdy-user-priority-propagate.conservative-propagation: [false, true]
  sdy-insert-explicit-reshards.candidate-ranking:
    - [source-tensor-size, factor-type-precedence, sharding-size, factor-index, axes]
    - [factor-type-precedence, source-tensor-size, sharding-size, factor-index, axes]
  sdy-insert-explicit-reshards.unary-preference:
    - [no-sharded-permutation-factor, tensor-size, sharding-size]
    - [no-sharded-permutation-factor, sharding-size, tensor-size]
"""


def run(model: Path, space: Path, jobs: int) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sdy_dsl", "search", str(model), str(space), "--jobs", str(jobs),
                           "--no-cache", "--no-progress"], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"search failed (--jobs {jobs}):\n{proc.stderr}")
    return elapsed, proc.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=ROOT / "examples" / "gpt8l_grad_2x4.mlir")
    parser.add_argument("--gpt-layers", type=int, default=None,
                        help="a GPT of this many layers (benchmarks/bench_pipeline.py's) instead of --model")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.gpt_layers:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from bench_pipeline import DEFAULT_CACHE, module_path
        args.model = module_path(DEFAULT_CACHE, "gpt", args.gpt_layers)
    with tempfile.TemporaryDirectory() as tmp:
        space = Path(tmp) / "space.yaml"
        space.write_text(SPACE)
        print(f"model: {args.model.name}; 16-point space; load average before: "
              + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        times: dict[int, list[float]] = {1: [], args.jobs: []}
        tables = {}
        for i in range(args.repeat):
            for jobs in (1, args.jobs):
                elapsed, out = run(args.model, space, jobs)
                times[jobs].append(elapsed)
                tables[jobs] = [line for line in out.splitlines()[1:]]
                print(f"  run {i + 1}: --jobs {jobs}: {elapsed:.1f} s", flush=True)
        serial, parallel = statistics.median(times[1]), statistics.median(times[args.jobs])
        print(f"median whole-process wall time: --jobs 1 {serial:.1f} s, --jobs {args.jobs} {parallel:.1f} s; "
              f"ratio {parallel / serial:.2f} (ideal {1 / args.jobs:.2f}); load average after: "
              + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        print("same ranking with either: " + ("yes" if _ranking(tables[1]) == _ranking(tables[args.jobs]) else "NO"))
    return 0


def _ranking(rows: list[str]) -> list[str]:
    """Each row's point and objective (times aside)."""
    return [" ".join(r.split()[1:4]) for r in rows if r[:1].isdigit()]


if __name__ == "__main__":
    sys.exit(main())
