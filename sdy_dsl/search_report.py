"""What `sdy-dsl search -o DIR` writes: the ranked table, the points as JSON,
the Pareto picture (SVG, also in the HTML report), and the best point as files
the other commands take as they are:

    DIR/best/pipeline.yaml    # the pipeline with the best point's options, naming its rules directories
    DIR/best/rules/           # the best point's rules variant (a copy), when the space varies `rules`
    DIR/best/params/          # one `extends:` file per pass whose params the point sets
    DIR/best/model.mlir       # the model with the point's user priorities, when the space varies them

    sdy-dsl cost MODEL --pipeline DIR/best/pipeline.yaml      # the cost the search reported
"""
from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import yaml

from .output_file import write_file_atomically
from .search_point import apply_priorities, number, split_settings, write_params_dir
from .search_space import pipeline_spec, plain

# (a result is sdy_dsl.search.SearchResult, not imported here: search.py imports this module)
WIDTH, HEIGHT, MARGIN = 640, 420, 72


def write_outputs(result: "SearchResult", out: Path, source: str, rule_dirs: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    write_file_atomically(str(out / "table.txt"), result.table() + "\n")
    write_file_atomically(str(out / "results.json"), json.dumps(result.to_json(), indent=1, default=str) + "\n")
    svg = pareto_svg(result)
    write_file_atomically(str(out / "pareto.svg"), svg)
    write_file_atomically(str(out / "report.html"), report_html(result, svg))
    if result.best is not None:
        write_best(result, out / "best", source, rule_dirs)


def write_best(result: "SearchResult", best_dir: Path, source: str, rule_dirs: list[str]) -> None:
    """The best point as a pipeline file and rules directories (built aside, then moved into place)."""
    best = result.best
    kinds = {d.name: (d.kind, d.pass_name, d.key) for d in result.space.dimensions}
    options, params, rules, priorities = split_settings(best.settings, kinds)
    staging = best_dir.with_name(best_dir.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    dirs = [str(Path(d).resolve()) for d in rule_dirs]
    for variant in rules:
        shutil.copytree(variant, staging / "rules", ignore=shutil.ignore_patterns("__pycache__"))
        dirs.append("rules")
    if params:
        write_params_dir(staging / "params", params)
        dirs.append("params")
    (staging / "pipeline.yaml").write_text(pipeline_yaml(result, options, dirs))
    if priorities:
        (staging / "model.mlir").write_text(apply_priorities(source, priorities))
    shutil.rmtree(best_dir, ignore_errors=True)
    staging.rename(best_dir)


def pipeline_yaml(result: "SearchResult", options: dict, dirs: list[str]) -> str:
    """The space's pipeline, every pass written out with the point's options."""
    from .api import pipeline_of, with_options
    from .passes import PassRegistry
    registry = PassRegistry([Path(d) for d in dirs if Path(d).is_absolute()])
    spec = pipeline_spec(result.space)
    if not options:  # the pipeline as it is: name it
        entries: list = [{"pipeline": str(Path(spec).resolve())} if Path(spec).is_file() else spec]
    else:
        entries = _expanded(with_options(pipeline_of(spec, registry), options), registry)
    best = result.best
    doc = {"description": f"sdy-dsl search's best point ({best.settings_text()}) of {result.space.pipeline}"}
    if dirs:
        doc["rules"] = dirs
    doc["passes"] = entries
    head = (f"# Written by `sdy-dsl search` ({result.how}): the best point, objective "
            f"{result.space.objective.text()} = {number(best.objective)}.\n"
            f"# Settings: {best.settings_text()}\n"
            f"# Run it: sdy-dsl run pipeline.yaml MODEL.mlir / sdy-dsl cost MODEL.mlir --pipeline pipeline.yaml\n")
    return head + yaml.safe_dump(doc, sort_keys=False, width=120)


def _expanded(pipe, registry) -> list:
    """Every pass of PIPE with its options, as pipeline-file entries."""
    entries: list = []
    for step in pipe.steps:
        entry = _entry(step, registry)
        if step.nested_in:
            if entries and isinstance(entries[-1], dict) and list(entries[-1]) == [step.nested_in]:
                entries[-1][step.nested_in].append(entry)
            else:
                entries.append({step.nested_in: [entry]})
        else:
            entries.append(entry)
    return entries


def _entry(step, registry):
    if not step.options:
        return step.name
    values = {}
    decls = registry.get(step.name).options if registry.has(step.name) else {}
    for key, value in step.options.items():
        decl = decls.get(key)
        values[str(key)] = plain(value if step.typed or decl is None else decl.parse(str(value)))
    return {step.name: values}



# --------------------------------------------------------------------------- the picture


def _scale(values: list[float], lo_px: float, hi_px: float):
    lo, hi = min(values), max(values)
    span = (hi - lo) or max(1.0, abs(hi))
    lo, hi = lo - 0.05 * span, hi + 0.05 * span
    return lambda v: lo_px + (v - lo) / (hi - lo) * (hi_px - lo_px), lo, hi


def pareto_svg(result: "SearchResult") -> str:
    """Collective bytes (x) against memory bytes (y) per device, one dot per point;
    the Pareto front joined, the best point and the default marked."""
    ok = [p for p in result.points if p.ok]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="13">'
             f'{html.escape(result.space.pipeline)}: {len(ok)} points</text>']
    if not ok:
        parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">every point failed</text></svg>')
        return "\n".join(parts)
    x, x_lo, x_hi = _scale([p.collective_bytes for p in ok], MARGIN, WIDTH - 24)
    y, y_lo, y_hi = _scale([p.memory_bytes for p in ok], HEIGHT - MARGIN, 32)
    left, right, top, bottom = MARGIN, WIDTH - 24, 32, HEIGHT - MARGIN
    parts.append(f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" fill="none" stroke="#888"/>')
    for i in range(5):  # ticks
        xv = x_lo + (x_hi - x_lo) * i / 4
        yv = y_lo + (y_hi - y_lo) * i / 4
        parts.append(f'<text x="{x(xv):.1f}" y="{bottom + 16}" text-anchor="middle">{_bytes(xv)}</text>')
        parts.append(f'<text x="{left - 6}" y="{y(yv) + 4:.1f}" text-anchor="end">{_bytes(yv)}</text>')
    parts.append(f'<text x="{(left + right) / 2}" y="{HEIGHT - 18}" text-anchor="middle">'
                 f'collective bytes per device (smaller is better)</text>')
    parts.append(f'<text x="12" y="{(top + bottom) / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 12 {(top + bottom) / 2})">memory bytes per device (@main)</text>')
    front = sorted((p for p in ok if p.pareto), key=lambda p: (p.collective_bytes, p.memory_bytes))
    if len(front) > 1:
        path = " ".join(f"{x(p.collective_bytes):.1f},{y(p.memory_bytes):.1f}" for p in front)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#d62728" stroke-width="1.5" '
                     f'stroke-dasharray="4 3"/>')
    best = result.best
    groups: dict = {}  # points at one place share one label
    for p in ok:
        groups.setdefault((p.collective_bytes, p.memory_bytes), []).append(p)
    for (cb, mb), members in groups.items():
        cx, cy = x(cb), y(mb)
        for p in members:
            colour = "#d62728" if p.pareto else "#1f77b4"
            title = html.escape(f"point {p.index}: {p.settings_text()} — {p.collective_bytes} B collectives, "
                                f"{p.memory_bytes} B memory" + (" (violates constraints)" if p.violations else ""))
            shape = (f'<rect x="{cx - 4:.1f}" y="{cy - 4:.1f}" width="8" height="8" fill="none" stroke="{colour}"/>'
                     if p.violations else
                     f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4.5" fill="{colour}" fill-opacity="0.8"/>')
            parts.append(f'<g><title>{title}</title>{shape}</g>')
        names = ["default" if p.index == 0 else str(p.index) for p in sorted(members, key=lambda p: p.index)]
        label = ", ".join(names)
        if best in members:
            label += " (best)"
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="9" fill="none" stroke="#2ca02c" stroke-width="2"/>')
        parts.append(f'<text x="{cx + 8:.1f}" y="{cy - 8:.1f}">{html.escape(label)}</text>')
    parts.append(f'<text x="{right - 4}" y="{top + 14}" text-anchor="end" fill="#d62728">'
                 f'red: Pareto front (no point beats it on both)</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _bytes(v: float) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if abs(v) >= size:
            return f"{v / size:.1f} {unit}"
    return f"{v:.0f} B"


def report_html(result: "SearchResult", svg: str) -> str:
    kinds = sorted({k for p in result.points for k in p.totals})
    verified = any(p.xla is not None for p in result.points)
    head = ["rank", "point", "Pareto", "objective", *kinds, "collective B", "memory B", "seconds"] + \
        (["XLA compiled (count, bytes)"] if verified else []) + ["settings"]
    rows = []
    for rank, p in enumerate(result.points, 1):
        if not p.ok:
            cells = [rank, p.index, "", "failed", *[""] * len(kinds), "", "", f"{p.seconds:.1f}"] + \
                ([""] if verified else []) + [f"{p.settings_text()}: {p.error}"]
        else:
            cells = [rank, p.index, "*" if p.pareto else "", number(p.objective),
                     *[f"{p.totals[k]['count']}x {p.totals[k]['bytes']}" if k in p.totals else "-" for k in kinds],
                     p.collective_bytes, p.memory_bytes, f"{p.seconds:.1f}"] + \
                ([_xla_text(p.xla)] if verified else []) + \
                [p.settings_text() + (" [violates " + ", ".join(p.violations) + "]" if p.violations else "")]
        cls = ' class="best"' if p is result.best else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>sdy-dsl search</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 2px 8px; text-align: right; }}
td:last-child {{ text-align: left; }} tr.best {{ background: #e8f5e9; }}
</style></head><body>
<h1>sdy-dsl search</h1>
<p>{html.escape(result.how)}; objective: {html.escape(result.space.objective.text())} (smaller is better);
{len(result.points)} points in {result.seconds:.1f} s on {result.jobs} job(s).</p>
{svg}
<table><tr>{''.join(f'<th>{html.escape(h)}</th>' for h in head)}</tr>
{''.join(rows)}
</table></body></html>
"""


def _xla_text(xla: dict | None) -> str:
    if not xla:
        return ""
    if "error" in xla:
        return "error: " + str(xla["error"])
    return ", ".join(f"{k} {v['count']}x {v['bytes']}" for k, v in sorted(xla.items())) or "none"
