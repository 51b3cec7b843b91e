"""The report page (report.py fills in __TITLE__ and __DATA__).

The page's `chainOf(value, axis)` is stories.ModuleStories._chain over the
page's data (tests/test_report.py checks the two agree on every value)."""

PAGE = r"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 0; display: flex; height: 100vh; }
#values { flex: 3; overflow: auto; padding: 0 12px 12px; }
#detail { flex: 2; overflow: auto; padding: 12px; border-left: 1px solid #ccc; background: #fafafa; }
h1 { font-size: 18px; } h2 { font-size: 16px; margin-top: 18px; } h3 { font-size: 14px; margin: 12px 0 4px; }
table { border-collapse: collapse; width: 100%; }
table.rows, table.head { table-layout: fixed; }
/* Rows come in chunks the browser lays out only when they are on screen. */
.chunk { content-visibility: auto; contain-intrinsic-size: auto 16000px; }
td, th { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eee; font-family: monospace; }
tr.value { cursor: pointer; } tr.value:hover { background: #eef; } tr.selected { background: #dde; }
tr.differs td.sh { background: #fff3cd; }
td.comm { color: #a40; } .commsum { margin: 2px 0 6px; }
/* Long names (JAX's pytree paths, SSA names, op names) end in an ellipsis within
   their column; the whole name is the cell's title (on hover). */
td.clip { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
td.sh { overflow-wrap: anywhere; }
.axis { padding: 0 4px; border-radius: 3px; color: #000; }
.repl { color: #777; font-style: italic; }
.legend span { margin-right: 8px; }
.hop { margin: 4px 0 4px 16px; font-family: monospace; }
.origin { font-weight: bold; }
a.v { color: #124; cursor: pointer; text-decoration: underline; }
#bar { position: sticky; top: 0; background: #fff; padding: 4px 0; z-index: 1; }
#search { width: 50%; font: inherit; padding: 2px 6px; }
</style></head>
<body>
<div id="values"><h1>__TITLE__</h1>
<div id="bar"><input id="search" placeholder="search: value, op, JAX name, sharding, location (Enter: first match)">
<span id="count"></span> <label id="difflabel" hidden><input type="checkbox" id="onlydiff" checked> only values whose shardings differ</label></div>
<div class="legend" id="legend"></div><div id="funcs"></div></div>
<div id="detail"><p>Click a value to see its op and where each axis of its sharding came from.</p></div>
<script>
const D = __DATA__;
const S = D.strings, V = D.values, OPS = D.ops;
const PALETTE = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                 "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"];
const colour = {}, meshSize = {};
D.mesh_axes.forEach((a, i) => colour[a] = PALETTE[i % PALETTE.length]);
D.meshes.forEach(m => { meshSize[m.name] = Object.fromEntries(m.axes); });
const str = i => i === undefined ? "" : S[i];
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }
function paint(sharding) {
  if (!sharding) return '<span class="repl">replicated</span>';
  return esc(sharding).replace(/&quot;([^&]+?)&quot;/g, (m, a) => {
    const base = a.split(":")[0];
    return colour[base] ? `<span class="axis" data-axis="${base}" style="background:${colour[base]}">"${a}"</span>` : m;
  });
}
function keyOf(v) { return D.funcs[V[v].f] ? D.funcs[V[v].f].name + " " + V[v].n : V[v].n; }
function what(v) { return V[v].w === undefined ? "" : str(V[v].w); }
// Shapes: the tensor type's, and each device's shard of it under the sharding.
function dims(type) {
  const m = /^tensor<(.*)>$/.exec(type);
  if (!m) return null;
  const parts = m[1].split("x");
  return {dims: parts.slice(0, -1), elt: parts[parts.length - 1]};
}
function shardShape(type, sharding) {
  const t = dims(type);
  if (!t) return "";
  if (!sharding || !t.dims.length) return t.dims.join("x") || "scalar";
  const mesh = (/<@([\w.$-]+)/.exec(sharding) || [])[1];
  const sizes = meshSize[mesh] || (D.meshes[0] ? meshSize[D.meshes[0].name] : {});
  const list = sharding.slice(sharding.indexOf("[") + 1, sharding.indexOf("]"));
  const groups = [...list.matchAll(/\{([^}]*)\}/g)].map(g => g[1]);
  return t.dims.map((d, i) => {
    let k = 1;
    for (const a of (groups[i] || "").matchAll(/"([^"]+)"(?::\((\d+)\)(\d+))?/g)) k *= a[3] ? +a[3] : (sizes[a[1]] || 1);
    return d === "?" ? "?" : String(Math.ceil(+d / k));
  }).join("x");
}
function shapeText(v) {
  const t = dims(str(V[v].t));
  if (!t) return str(V[v].t);
  return (t.dims.join("x") || "scalar") + " " + t.elt;
}
// The chain of propagation steps that brought AXIS to value V (stories.ModuleStories._chain).
function describe(op, ref) {
  const list = ref >= 0 ? op[2] : op[3], i = ref >= 0 ? ref : ~ref;
  const text = (ref >= 0 ? "operand-" : "result-") + i;
  return i < list.length ? `${text} (${V[list[i]].n})` : text;
}
function stepText(step) { return step === null ? "call" : `step ${step}`; }
function whereOf(f, home) { return f === home ? "" : D.funcs[f].name + " "; }
// Where value V came from through a call (stories.ModuleStories._across_call).
function acrossCall(v, home) {
  const x = V[v];
  if (x.d !== undefined && D.calls[x.d] !== undefined) {
    const fi = D.calls[x.d], callee = D.funcs[fi], n = x.r, ret = callee.returned[n];
    return {hop: {step: null, op: `${whereOf(x.f, home)}${x.n} = call ${callee.name}`, location: str(OPS[x.d][1]),
                  source: `result ${n} of ${callee.name} (${V[ret].n})`, target: `result-${n} (${x.n})`}, next: ret, into: fi};
  }
  const f = D.funcs[x.f];
  if (x.a === undefined || !f || !f.sites) return null;
  const op = OPS[f.sites[0]], operand = op[2][x.a], caller = V[operand].f;
  const label = (op[3].length ? `${V[op[3][0]].n} = ` : "") + `call ${f.name}`;
  return {hop: {step: null, op: whereOf(caller, home) + label, location: str(op[1]),
                source: `operand-${x.a} (${V[operand].n})`, target: `argument ${x.a} of ${f.name} (${x.n})`},
          next: operand, into: caller};
}
function chainOf(start, axis) {
  const hops = [], seen = new Set(), home = V[start].f;
  let cur = start, before = null, where = "";
  for (;;) {
    const cands = [], v = V[cur];
    if (v.d !== undefined) {
      const target = ~v.r;
      for (const e of OPS[v.d][4] || []) if (e[1] === axis && e[3].includes(target)) cands.push([e, v.d, target]);
    }
    for (const [u, n] of v.u || [])
      for (const e of OPS[u][4] || []) if (e[1] === axis && e[3].includes(n)) cands.push([e, u, n]);
    let best = null;
    for (const c of cands) if ((before === null || c[0][0] < before) && (!best || c[0][0] > best[0][0])) best = c;
    if (!best) {
      const c = acrossCall(cur, home);
      if (!c || seen.has("call/" + c.hop.op + "/" + c.hop.target)) return hops.reverse();
      seen.add("call/" + c.hop.op + "/" + c.hop.target);
      hops.push(c.hop);
      cur = c.next; where = whereOf(c.into, home);
      continue;
    }
    const [e, o, target] = best, op = OPS[o];
    if (seen.has(e[0] + "/" + o)) return hops.reverse();
    seen.add(e[0] + "/" + o);
    const label = where + (op[3].length ? `${V[op[3][0]].n} = ${str(op[0])}` : str(op[0]));
    hops.push({step: e[0], op: label, location: str(op[1]), source: describe(op, e[2]), target: describe(op, target)});
    const src = e[2], list = src >= 0 ? op[2] : op[3], next = list[src >= 0 ? src : ~src];
    if (next === undefined) return hops.reverse();
    cur = next; before = e[0];
  }
}
function storyChains(v) {
  const x = V[v], out = [];
  for (const [axis, origin] of x.o || []) {
    let chain = [];
    if (str(origin) !== "self") chain = chainOf(x.ret !== undefined ? x.ret : v, axis);
    const f = D.funcs[x.f];
    if (x.ret !== undefined && f && f.ret_edges !== undefined) {
      const steps = chain.map(h => h.step).filter(s => s !== null);
      const after = steps.length ? steps[steps.length - 1] : -1;
      for (const e of f.ret_edges)
        if (e[1] === axis && e[0] > after)
          for (const t of e[3]) chain.push({step: e[0], op: "return", location: "", source: `${e[2]} (returned value)`, target: `${t} (function result)`});
    }
    out.push({axis: axis, origin: str(origin), text: str(x.o.find(o => o[0] === axis)[2]), chain: chain});
  }
  return out;
}
// The table.
document.getElementById("legend").innerHTML = D.meshes.map(m => `mesh @${esc(m.name)}: ` +
  m.axes.map(([a, n]) => `<span class="axis" style="background:${colour[a]}">${esc(a)}=${n}</span>`).join(" ")).join("; ");
const DIFF = D.diff;
const CHUNK = 400;
const COMM = D.comm || [];
// The collectives placed on a value (report_comm.py), and a function's totals.
function commText(i) { const c = COMM[i]; return `${c[0]} ${c[1]}: ${c[4]} B`; }
function commCell(x) { return (x.c || []).map(i => "\u21c4 " + esc(commText(i))).join("<br>"); }
function commSummary(f) {
  if (D.comm_error) return `communication not measured: ${esc(D.comm_error)}`;
  const kinds = Object.keys(f.comm || {}).sort();
  if (!kinds.length) return "communication: none";
  return "communication (bytes per device): " + kinds.map(k => `${esc(k)} ${f.comm[k][0]} (${f.comm[k][1]} B)`).join(", ");
}
function clipped(text) { return `<td class="clip" title="${esc(text)}">${esc(text)}</td>`; }
const COLS = "<colgroup>" + (DIFF ? [9, 15, 10, 10, 8, 24, 24] : [8, 15, 10, 10, 8, 31, 18]).map(w => `<col style="width:${w}%">`).join("") + "</colgroup>";
let html = "";
for (const f of D.funcs) {
  html += `<h2>func ${esc(f.name)}</h2>` + (DIFF ? "" : `<p class="commsum">${commSummary(f)}</p>`) + `<table class="head">${COLS}<tr><th>value</th><th>op</th><th>JAX name</th><th>shape</th>` +
          `<th>per device</th><th>${DIFF ? "sharding (A: " + esc(DIFF[0]) + ")" : "sharding"}</th>` +
          (DIFF ? `<th>sharding (B: ${esc(DIFF[1])})</th>` : "<th>communication</th>") + `</tr></table>`;
  for (let i = 0; i < f.rows.length; i++) {
    if (i % CHUNK === 0) html += (i ? "</table></div>" : "") + `<div class="chunk"><table class="rows">${COLS}`;
    const v = f.rows[i], x = V[v], sh = str(x.s);
    html += `<tr class="value${x.x ? " differs" : ""}" data-v="${v}">${clipped(x.n)}${clipped(what(v))}` +
            `${clipped(x.j || "")}${clipped(shapeText(v))}${clipped(shardShape(str(x.t), sh))}` +
            `<td class="sh">${paint(sh)}</td>` + (DIFF ? `<td class="sh">${x.s2 === undefined ? paint("") : paint(str(x.s2))}</td>` : `<td class="comm">${commCell(x)}</td>`) + `</tr>`;
  }
  if (f.rows.length) html += "</table></div>";
}
const funcsEl = document.getElementById("funcs");
funcsEl.innerHTML = html;
const rowOf = {};
const rows = [...document.querySelectorAll("tr.value")];
rows.forEach(r => rowOf[r.dataset.v] = r);
function valueLink(v) { return `<a class="v" data-v="${v}">${esc(V[v].n)}</a>`; }
function valueLine(v) {
  const x = V[v];
  return `<tr><td>${valueLink(v)}</td><td>${esc(shapeText(v))}</td><td>${esc(shardShape(str(x.t), str(x.s)))}</td><td>${paint(str(x.s))}</td></tr>`;
}
function show(v) {
  v = +v;
  const x = V[v];
  document.querySelectorAll("tr.selected").forEach(r => r.classList.remove("selected"));
  if (rowOf[v]) rowOf[v].classList.add("selected");
  let h = `<h2 id="detail-title">${esc(keyOf(v))}</h2><p>${esc(what(v))}${x.j ? " (JAX name '" + esc(x.j) + "')" : ""}` +
          `${x.l !== undefined ? " at " + esc(str(x.l)) : ""}</p><p>sharding: ${paint(str(x.s))}</p>` +
          `<p>shape: ${esc(shapeText(v))}; per device: ${esc(shardShape(str(x.t), str(x.s)))}</p>`;
  if (DIFF) h += `<p>in B (${esc(DIFF[1])}): ${paint(str(x.s2))}</p>`;
  const stories = storyChains(v);
  if (!stories.length) h += "<p>No axis has a recorded origin.</p>";
  for (const a of stories) {
    h += `<div class="story" data-axis="${esc(a.axis)}"><p>axis <span class="axis" style="background:${colour[a.axis.split(":")[0]] || "#eee"}">${esc(a.axis)}</span> ` +
         `from <span class="origin">${esc(a.text)}</span></p>`;
    for (const s of a.chain)
      h += `<div class="hop">${stepText(s.step)}: ${esc(s.op)}: ${esc(s.source)} &rarr; ${esc(s.target)}${s.location ? " (" + esc(s.location) + ")" : ""}</div>`;
    h += "</div>";
  }
  if (x.d !== undefined) {
    const op = OPS[x.d];
    h += `<h3>op ${esc(str(op[0]))}${op[1] !== undefined && str(op[1]) ? " at " + esc(str(op[1])) : ""}</h3>` +
         `<table id="opview"><tr><th>operand</th><th>shape</th><th>per device</th><th>sharding</th></tr>` +
         op[2].map(valueLine).join("") + `<tr><th>result</th><th></th><th></th><th></th></tr>` + op[3].map(valueLine).join("") + `</table>`;
  } else if (x.ret !== undefined) {
    h += `<h3>returned value</h3><table id="opview">${valueLine(x.ret)}</table>`;
  }
  if (x.c) h += `<h3>communication</h3>` + x.c.map(i => { const c = COMM[i];
    return `<div class="hop">${esc(c[0])} ${esc(c[1])} ${esc(c[5])}: ${esc(c[2])} to ${paint(c[3])}, ${c[4]} bytes per device</div>`; }).join("");
  if (x.u && x.u.length) {
    h += `<h3>used by</h3><p>` + x.u.slice(0, 40).map(([o, n]) => {
      const op = OPS[o];
      return (op[3].length ? valueLink(op[3][0]) + " = " : "") + esc(str(op[0])) + ` (operand ${n})`;
    }).join("<br>") + (x.u.length > 40 ? `<br>... ${x.u.length - 40} more` : "") + `</p>`;
  }
  document.getElementById("detail").innerHTML = h;
}
funcsEl.addEventListener("click", ev => { const r = ev.target.closest("tr.value"); if (r) show(r.dataset.v); });
document.getElementById("detail").addEventListener("click", ev => {
  const a = ev.target.closest("a.v");
  if (!a) return;
  show(a.dataset.v);
  if (rowOf[a.dataset.v]) rowOf[a.dataset.v].scrollIntoView({block: "center"});
});
// Search (and, in a diff, only the values that differ).
let lower = null;
function rowText(r) { const v = +r.dataset.v, x = V[v]; return (x.n + " " + what(v) + " " + (x.j || "") + " " + str(x.s) + " " + str(x.s2) + " " + str(x.l) + " " + (x.c || []).map(commText).join(" ")).toLowerCase(); }
function filter() {
  const q = document.getElementById("search").value.toLowerCase().trim();
  const only = DIFF && document.getElementById("onlydiff").checked;
  if (!lower) lower = rows.map(rowText);
  let shown = 0;
  const perChunk = new Map();
  rows.forEach((r, i) => {
    const ok = (!q || lower[i].includes(q)) && (!only || r.classList.contains("differs"));
    r.style.display = ok ? "" : "none";
    shown += ok;
    const chunk = r.closest(".chunk");
    perChunk.set(chunk, (perChunk.get(chunk) || 0) + ok);
  });
  // A chunk keeps a placeholder height while off screen: size it by what it shows.
  for (const [chunk, n] of perChunk) {
    chunk.style.display = n ? "" : "none";
    chunk.style.containIntrinsicSize = `auto ${n * 36}px`;
  }
  document.getElementById("values").scrollTop = 0;
  document.getElementById("count").textContent = `${shown} of ${rows.length} values`;
  return shown;
}
let timer = null;
document.getElementById("search").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(filter, 150); });
document.getElementById("search").addEventListener("keydown", ev => {
  if (ev.key !== "Enter") return;
  filter();
  const first = rows.find(r => r.style.display !== "none");
  if (first) { show(first.dataset.v); first.scrollIntoView({block: "center"}); }
});
if (DIFF) { document.getElementById("difflabel").hidden = false; document.getElementById("onlydiff").addEventListener("change", filter); filter(); }
else document.getElementById("count").textContent = `${rows.length} values`;
if (D.focus >= 0) { show(D.focus); if (rowOf[D.focus]) rowOf[D.focus].scrollIntoView({block: "center"}); }
</script>
</body></html>
"""
