// graphmem view: the graph of a scope through time, drawn as SVG by hand (no library,
// nothing fetched from the network). It reads the service's JSON endpoints:
//   GET /graph/overview?scope=S            the time range, change points, layout links
//   GET /graph?scope=S&as_of=T&known_at=K  the graph at T as believed at K
//   GET /graph/entity?scope=S&name=N       one entity's timeline and bitemporal rows
// with the bearer token taken from the link's #token= fragment.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const DAY_MS = 86400000;
const W = 1000, H = 620; // the graph's viewBox

const state = {
  token: null, scope: "default", overview: null, graph: null,
  positions: new Map(), selected: null, requests: 0,
  validDays: null, knownDays: null, // {start: ms of day 0, count: days to now}
};

// ---------- small helpers ----------
function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function html(name, attrs = {}, parent = null, text = null) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
const day = (iso) => (iso ? iso.slice(0, 10) : "…");
const textWidth = (text, px) => text.length * px * 0.6; // an estimate, for free-space tests
function ellipsis(text, max) { return text.length <= max ? text : text.slice(0, Math.max(1, max - 1)) + "…"; }

async function api(path, params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) query.set(k, v);
  const response = await fetch(`${path}?${query}`, {
    headers: { Authorization: `Bearer ${state.token}` }, cache: "no-store",
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail || body.error || `HTTP ${response.status}`);
  return body;
}
function say(text) { document.getElementById("message").textContent = text || ""; }

// ---------- the two sliders: one position a day, the last one is "now" ----------
function axisDays(extent) {
  const start = Date.parse(extent.min.slice(0, 10) + "T00:00:00Z");
  const count = Math.max(1, Math.ceil((Date.parse(extent.max) - start) / DAY_MS));
  return { start, count, stops: extent.stops.map((t) => Math.floor((Date.parse(t) - start) / DAY_MS)) };
}
// The instant a slider position stands for: the end of its day ("by then"), or now.
function sliderInstant(days, value) {
  if (value >= days.count) return null;
  return new Date(days.start + (value + 1) * DAY_MS - 1000).toISOString().replace(".000Z", "Z");
}
function setupSlider(id, days) {
  const input = document.getElementById(id);
  input.min = 0; input.max = days.count; input.value = days.count;
  input.dataset.start = new Date(days.start).toISOString();
  const list = document.getElementById(id + "-stops") || html("datalist", { id: id + "-stops" }, document.body);
  list.replaceChildren(...days.stops.map((s) => html("option", { value: s })));
  input.setAttribute("list", list.id);
  showSlider(id, days);
}
function showSlider(id, days) {
  const value = Number(document.getElementById(id).value);
  const at = sliderInstant(days, value);
  document.getElementById(id + "-label").textContent = at ? at.slice(0, 10) : "now";
  return at;
}
function jump(id, days, direction) {
  const input = document.getElementById(id);
  const value = Number(input.value);
  const stops = [...new Set(days.stops)].sort((a, b) => a - b);
  const next = direction > 0 ? stops.find((s) => s > value) ?? days.count
                             : [...stops].reverse().find((s) => s < value) ?? 0;
  input.value = next;
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

// ---------- layout: a force layout of every node a fact ever joined, computed once ----------
function layout(links, extraIds) {
  const ids = [...new Set([...links.flat(), ...extraIds])].sort();
  const n = ids.length;
  const pos = new Map(ids.map((id, i) => [id, {
    x: W / 2 + (W / 3) * Math.cos((2 * Math.PI * i) / Math.max(n, 1)),
    y: H / 2 + (H / 3) * Math.sin((2 * Math.PI * i) / Math.max(n, 1)),
  }]));
  const k = Math.sqrt((W * H) / Math.max(n, 1)) * 0.9;
  let temperature = W / 8;
  for (let step = 0; step < 300; step++) {
    const move = new Map(ids.map((id) => [id, { x: 0, y: 0 }]));
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
      const a = pos.get(ids[i]), b = pos.get(ids[j]);
      let dx = a.x - b.x, dy = a.y - b.y;
      const d = Math.max(Math.hypot(dx, dy), 0.01);
      const f = (k * k) / d;
      dx /= d; dy /= d;
      move.get(ids[i]).x += dx * f; move.get(ids[i]).y += dy * f;
      move.get(ids[j]).x -= dx * f; move.get(ids[j]).y -= dy * f;
    }
    for (const [s, t] of links) {
      if (s === t) continue;
      const a = pos.get(s), b = pos.get(t);
      let dx = a.x - b.x, dy = a.y - b.y;
      const d = Math.max(Math.hypot(dx, dy), 0.01);
      const f = (d * d) / k;
      dx /= d; dy /= d;
      move.get(s).x -= dx * f; move.get(s).y -= dy * f;
      move.get(t).x += dx * f; move.get(t).y += dy * f;
    }
    for (const id of ids) {
      const m = move.get(id), p = pos.get(id);
      const d = Math.max(Math.hypot(m.x, m.y), 0.01);
      p.x += (m.x / d) * Math.min(d, temperature);
      p.y += (m.y / d) * Math.min(d, temperature);
    }
    temperature *= 0.985;
  }
  // fit into the viewBox, leaving room for labels
  const xs = [...pos.values()].map((p) => p.x), ys = [...pos.values()].map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = (W - 240) / Math.max(x1 - x0, 1), sy = (H - 100) / Math.max(y1 - y0, 1);
  for (const p of pos.values()) {
    p.x = n === 1 ? W / 2 : 120 + (p.x - x0) * sx;
    p.y = n === 1 ? H / 2 : 50 + (p.y - y0) * sy;
  }
  untangle(pos, links);
  return pos;
}

// After the force layout: move nodes off edges they are not on, and apart from each
// other, so an edge never seems to pass through a node it does not join.
function untangle(pos, links) {
  const ids = [...pos.keys()];
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (const id of ids) {
      const p = pos.get(id);
      for (const [s, t] of links) {
        if (s === id || t === id || s === t) continue;
        const a = pos.get(s), b = pos.get(t);
        const dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy || 1;
        const u = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
        const qx = a.x + u * dx, qy = a.y + u * dy;
        const d = Math.hypot(p.x - qx, p.y - qy);
        if (d < 34 && u > 0 && u < 1) {
          const nx = d > 0.01 ? (p.x - qx) / d : -dy / Math.sqrt(len2), ny = d > 0.01 ? (p.y - qy) / d : dx / Math.sqrt(len2);
          p.x += nx * (34 - d) * 0.6; p.y += ny * (34 - d) * 0.6;
          moved = true;
        }
      }
      for (const other of ids) {
        if (other === id) continue;
        const q = pos.get(other);
        const d = Math.hypot(p.x - q.x, p.y - q.y);
        if (d < 44) {
          const nx = d > 0.01 ? (p.x - q.x) / d : 1, ny = d > 0.01 ? (p.y - q.y) / d : 0;
          p.x += nx * (44 - d) / 2; p.y += ny * (44 - d) / 2;
          moved = true;
        }
      }
      p.x = Math.min(Math.max(p.x, 30), W - 200);
      p.y = Math.min(Math.max(p.y, 30), H - 30);
    }
    if (!moved) break;
  }
}

// ---------- the graph ----------
function boxesOverlap(a, b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

function drawGraph(graph) {
  const svg = document.getElementById("graph");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z" }, marker);
  const missing = graph.nodes.map((n) => n.id).filter((id) => !state.positions.has(id));
  if (missing.length) state.positions = layout(state.overview.links, [...state.positions.keys(), ...missing]);
  const edgesLayer = el("g", { class: "edges" }, svg);
  const nodesLayer = el("g", { class: "nodes" }, svg);
  const captions = [];
  const nodeBoxes = graph.nodes.map((n) => {
    const p = state.positions.get(n.id);
    return { x0: p.x - 16, x1: p.x + 20 + textWidth(ellipsis(n.label, 32), 13), y0: p.y - 16, y1: p.y + 16 };
  });
  // parallel edges of one pair bend apart
  const seen = new Map();
  for (const edge of graph.edges) {
    const pair = [edge.source, edge.target].sort().join("|");
    const index = seen.get(pair) || 0;
    seen.set(pair, index + 1);
    const a = state.positions.get(edge.source), b = state.positions.get(edge.target);
    const g = el("g", { class: `edge ${edge.status}`, "data-id": edge.id, "data-predicate": edge.predicate,
      "data-subject": edge.subject, "data-object": edge.object, "data-status": edge.status }, edgesLayer);
    el("title", {}, g, `${edge.subject} ${edge.predicate} ${edge.object}\nvalid ${edge.interval}\n` +
      `recorded ${day(edge.recorded_at)} → ${edge.expired_at ? day(edge.expired_at) : "…"}\n${edge.status}`);
    if (edge.source === edge.target) { // a fact about itself (its name): a small loop
      el("path", { d: `M ${a.x + 8} ${a.y - 12} C ${a.x + 40} ${a.y - 70}, ${a.x + 80} ${a.y - 30}, ${a.x + 15} ${a.y - 4}`,
        "marker-end": "url(#arrow)" }, g);
      const text = `${edge.predicate} · ${edge.interval}` + (edge.believed ? "" : ` · ${edge.status}`);
      const width = textWidth(text, 11);
      let cy = a.y - 56, box = { x0: a.x + 50, x1: a.x + 50 + width, y0: cy - 11, y1: cy + 3 };
      for (let tries = 0; tries < 6 && captions.some((c) => boxesOverlap(c, box)); tries++) {
        cy -= 14;
        box = { x0: a.x + 50, x1: a.x + 50 + width, y0: cy - 11, y1: cy + 3 };
      }
      captions.push(box);
      el("text", { class: "caption", x: a.x + 50, y: cy }, g, text);
      continue;
    }
    const dx = b.x - a.x, dy = b.y - a.y, d = Math.max(Math.hypot(dx, dy), 1);
    const bend = index === 0 ? 0 : (index % 2 ? 1 : -1) * 40 * Math.ceil(index / 2);
    const mx = (a.x + b.x) / 2 - (dy / d) * bend, my = (a.y + b.y) / 2 + (dx / d) * bend;
    const end = { x: b.x - (dx / d) * 18, y: b.y - (dy / d) * 18 }; // stop short of the node
    el("path", { d: `M ${a.x} ${a.y} Q ${mx} ${my} ${end.x} ${end.y}`, "marker-end": "url(#arrow)" }, g);
    const text = `${edge.predicate} ${edge.target_label !== edge.object ? edge.object + " " : ""}· ${edge.interval}` +
      (edge.believed ? "" : ` · ${edge.status}`);
    const width = textWidth(text, 11);
    // the caption goes where it covers no other caption and no node: along its edge
    // (points of the curve), a little above or below it
    const at = (t) => ({ x: (1 - t) * (1 - t) * a.x + 2 * t * (1 - t) * mx + t * t * end.x,
                         y: (1 - t) * (1 - t) * a.y + 2 * t * (1 - t) * my + t * t * end.y });
    const boxAt = (p) => ({ x0: p.x - width / 2, x1: p.x + width / 2, y0: p.y - 11, y1: p.y + 3 });
    let cx = 0, cy = 0, box = null;
    search: for (const t of [0.66, 0.54, 0.78, 0.42, 0.3]) {  // outward first: more room there
      for (const dy of [-4, -16, 10]) {
        const p = at(t);
        const candidate = boxAt({ x: p.x, y: p.y + dy });
        if (![...captions, ...nodeBoxes].some((c) => boxesOverlap(c, candidate))) {
          [cx, cy, box] = [p.x, p.y + dy, candidate];
          break search;
        }
      }
    }
    if (!box) { const p = at(0.55); [cx, cy, box] = [p.x, p.y - 4, boxAt({ x: p.x, y: p.y - 4 })]; }
    captions.push(box);
    el("text", { class: "caption", x: cx, y: cy, "text-anchor": "middle" }, g, text);
  }
  for (const node of graph.nodes) {
    const p = state.positions.get(node.id);
    const g = el("g", { class: `node ${node.kind}${node.believed ? "" : " faded"}${state.selected === node.label ? " selected" : ""}`,
      "data-id": node.id, "data-label": node.label, transform: `translate(${p.x},${p.y})`, tabindex: 0 }, nodesLayer);
    el("title", {}, g, node.kind === "entity" ? `${node.label}: click for its timeline` : node.label);
    if (node.kind === "entity") el("circle", { r: 14 }, g);
    else el("rect", { x: -10, y: -8, width: 20, height: 16, rx: 4 }, g);
    el("text", { x: 18, y: 4 }, g, ellipsis(node.label, 32));
    if (node.kind === "entity") {
      g.addEventListener("click", () => selectEntity(node.label));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter") selectEntity(node.label); });
    }
  }
  const believed = graph.edges.filter((e) => e.believed).length;
  document.getElementById("graph-caption").textContent =
    `${graph.scope}: true ${graph.as_of ? "on " + day(graph.as_of) : "now"}, ` +
    `as known ${graph.known_at ? "on " + day(graph.known_at) : "now"}: ${believed} believed fact(s)` +
    (graph.edges.length > believed ? `, ${graph.edges.length - believed} no longer believed (dashed)` : "") +
    (graph.expired_left_out ? " (too many entities to show the facts no longer believed)" : "");
}

// ---------- time axes for the panel's pictures ----------
function ticks(lo, hi, maxTicks) {
  const months = [1, 3, 6, 12, 24, 60, 120];
  const spanMonths = (hi - lo) / (30.44 * DAY_MS);
  const step = months.find((m) => spanMonths / m <= maxTicks) || 240;
  const first = new Date(lo);
  let t = Date.UTC(first.getUTCFullYear(), Math.floor(first.getUTCMonth() / step) * step % 12, 1);
  const out = [];
  while (t <= hi) {
    if (t >= lo) out.push(t);
    const d = new Date(t);
    t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + step, 1);
  }
  return { values: out, label: (v) => (step >= 12 ? new Date(v).toISOString().slice(0, 4) : new Date(v).toISOString().slice(0, 7)) };
}
function finite(values) { return values.filter((v) => v !== null).map((v) => Date.parse(v)); }
function padded(lo, hi) { const pad = Math.max((hi - lo) * 0.05, 20 * DAY_MS); return [lo - pad, hi + pad]; }

function drawTimeline(parent, entries, marks) {
  const rowH = 22, left = 170, right = 16, width = 640;
  const height = 30 + rowH * entries.length;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "timeline", role: "img",
    "aria-label": "timeline over valid time" }, parent);
  const now = Date.now();
  const times = [...finite(entries.flatMap((e) => [e.valid_from, e.valid_to])), now, ...marks.filter(Boolean)];
  const [lo, hi] = padded(Math.min(...times), Math.max(...times));
  const x = (t) => left + ((t - lo) / (hi - lo)) * (width - left - right);
  const axis = el("g", { class: "axis" }, svg);
  const tk = ticks(lo, hi, 6);
  for (const v of tk.values) {
    el("line", { x1: x(v), x2: x(v), y1: 8, y2: height - 14, stroke: "#eee" }, axis);
    el("text", { class: "tick", x: x(v), y: height - 2, "text-anchor": "middle" }, axis, tk.label(v));
  }
  entries.forEach((e, i) => {
    const y = 10 + i * rowH;
    const g = el("g", { class: `timeline-row ${e.status}`, "data-predicate": e.predicate, "data-object": e.object }, svg);
    el("text", { class: "label", x: left - 6, y: y + 13, "text-anchor": "end" }, g,
      `${ellipsis(e.predicate, 12)}  ${ellipsis(e.object, 14)}`);
    const x0 = e.valid_from ? x(Date.parse(e.valid_from)) : left;
    const x1 = e.valid_to ? x(Date.parse(e.valid_to)) : width - right;
    el("rect", { class: `bar ${e.status}`, x: x0, y: y + 2, width: Math.max(x1 - x0, 2), height: rowH - 8 }, g);
    if (!e.valid_to) el("path", { class: "arrow", d: `M ${x1} ${y + 1} l 7 ${(rowH - 6) / 2} l -7 ${(rowH - 6) / 2} z` }, g);
    if (!e.valid_from) el("path", { class: "arrow", d: `M ${x0} ${y + 1} l -7 ${(rowH - 6) / 2} l 7 ${(rowH - 6) / 2} z` }, g);
    el("title", {}, g, `${e.predicate} ${e.object}: ${e.interval} (${e.status})`);
  });
  const [asOf] = marks;
  const at = asOf ? Date.parse(asOf) : now;
  el("line", { class: "crosshair as-of", x1: x(at), x2: x(at), y1: 4, y2: height - 14 }, svg);
}

// The standard picture of bitemporal data for one key: valid time across, recorded time
// up, each row a rectangle; an open end is an arrow. The sliders are its crosshair.
function drawBitemporal(parent, key, rows, asOf, knownAt) {
  const width = 640, height = 300, left = 70, right = 24, top = 16, bottom = 34;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "bitemporal", "data-key": key,
    role: "img", "aria-label": `${key}: valid time across, recorded time up` }, parent);
  const now = Date.now();
  const vt = [...finite(rows.flatMap((r) => [r.valid_from, r.valid_to])), ...finite(rows.map((r) => r.recorded_at))];
  const [vlo, vhi] = padded(Math.min(...vt), Math.max(...vt, now));
  const rt = [...finite(rows.flatMap((r) => [r.recorded_at, r.expired_at])), now];
  const [rlo, rhi] = padded(Math.min(...rt), Math.max(...rt));
  const x = (t) => left + ((t - vlo) / (vhi - vlo)) * (width - left - right);
  const y = (t) => height - bottom - ((t - rlo) / (rhi - rlo)) * (height - top - bottom);
  const axis = el("g", { class: "axis" }, svg);
  el("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }, axis);
  el("line", { x1: left, x2: left, y1: top, y2: height - bottom }, axis);
  const tx = ticks(vlo, vhi, 6), ty = ticks(rlo, rhi, 5);
  for (const v of tx.values) el("text", { class: "tick", x: x(v), y: height - bottom + 13, "text-anchor": "middle" }, axis, tx.label(v));
  for (const v of ty.values) el("text", { class: "tick", x: left - 4, y: y(v) + 3, "text-anchor": "end" }, axis, ty.label(v));
  el("text", { class: "tick", x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle" }, axis, "valid time → (when it was true)");
  el("text", { class: "tick", x: 12, y: (top + height - bottom) / 2, transform: `rotate(-90 12 ${(top + height - bottom) / 2})`,
    "text-anchor": "middle" }, axis, "recorded time → (when believed)");
  const list = html("ol", { class: "rows" });
  rows.forEach((r, i) => {
    const x0 = r.valid_from ? x(Date.parse(r.valid_from)) : left;
    const x1 = r.valid_to ? x(Date.parse(r.valid_to)) : width - right;
    const y0 = y(Date.parse(r.recorded_at));
    const y1 = r.expired_at ? y(Date.parse(r.expired_at)) : top;
    const g = el("g", { class: `rect-row ${r.status}`, "data-object": r.object, "data-status": r.status }, svg);
    el("rect", { class: `rect ${r.status}`, x: x0, y: y1, width: Math.max(x1 - x0, 2), height: Math.max(y0 - y1, 2) }, g);
    const mid = (y0 + y1) / 2;
    if (!r.valid_to) el("path", { class: "arrow", d: `M ${x1} ${mid - 5} l 8 5 l -8 5 z` }, g);
    if (!r.valid_from) el("path", { class: "arrow", d: `M ${x0} ${mid - 5} l -8 5 l 8 5 z` }, g);
    if (!r.expired_at) el("path", { class: "arrow", d: `M ${(x0 + x1) / 2 - 5} ${y1} l 5 -8 l 5 8 z` }, g);
    const text = `${r.object} (${r.status})`;
    const fits = textWidth(text, 11) < x1 - x0 - 6 && y0 - y1 > 14;
    el("text", { class: "label", x: x0 + 4, y: Math.min(y0 - 3, mid + 4) }, g, fits ? text : String(i + 1));
    el("title", {}, g, `${text}\nvalid ${r.interval}\nrecorded ${day(r.recorded_at)} → ${r.expired_at ? day(r.expired_at) : "…"}`);
    html("li", { class: r.status }, list, `${r.object} — ${r.status}: valid ${r.interval}, recorded ${day(r.recorded_at)} → ${r.expired_at ? day(r.expired_at) : "…"}`);
  });
  const ax = asOf ? Date.parse(asOf) : now, ky = knownAt ? Date.parse(knownAt) : now;
  el("line", { class: "crosshair as-of", x1: x(ax), x2: x(ax), y1: top, y2: height - bottom }, svg);
  el("line", { class: "crosshair known-at", x1: left, x2: width - right, y1: y(ky), y2: y(ky) }, svg);
  parent.appendChild(list);
}

// ---------- the entity panel ----------
async function selectEntity(name) {
  state.selected = name;
  for (const g of document.querySelectorAll(".node")) g.classList.toggle("selected", g.dataset.label === name);
  await drawPanel();
}
async function drawPanel() {
  const panel = document.getElementById("panel");
  if (!state.selected) return;
  const { asOf, knownAt } = instants();
  const data = await api("/graph/entity", { scope: state.scope, name: state.selected, known_at: knownAt });
  panel.replaceChildren();
  panel.dataset.entity = data.name;
  html("h2", {}, panel, `${data.name}: timeline${knownAt ? ", as known on " + day(knownAt) : ""}`);
  if (data.timeline.length) drawTimeline(panel, data.timeline, [asOf]);
  else html("p", { class: "hint" }, panel, "nothing believed about it then (as a subject)");
  for (const [key, rows] of Object.entries(data.keys)) {
    html("h3", {}, panel, `${data.name} ${key}: what was believed when`);
    drawBitemporal(panel, key, rows, asOf, knownAt);
  }
}

// ---------- the page ----------
function instants() {
  return { asOf: sliderInstant(state.validDays, Number(document.getElementById("as-of").value)),
           knownAt: sliderInstant(state.knownDays, Number(document.getElementById("known-at").value)) };
}
async function refresh() {
  const ticket = ++state.requests;
  document.body.dataset.state = "loading";
  const { asOf, knownAt } = instants();
  try {
    const graph = await api("/graph", { scope: state.scope, as_of: asOf, known_at: knownAt,
      expired: document.getElementById("expired").checked });
    if (ticket !== state.requests) return; // a later move is on its way
    state.graph = graph;
    drawGraph(graph);
    if (state.selected) await drawPanel();
    if (ticket === state.requests) {
      say("");
      document.body.dataset.renders = Number(document.body.dataset.renders || 0) + 1;
      document.body.dataset.state = "ready";
    }
  } catch (error) {
    say(String(error.message || error));
    document.body.dataset.state = "error";
  }
}
let timer = null;
function refreshSoon() { clearTimeout(timer); timer = setTimeout(refresh, 120); }

async function openScope(scope) {
  state.scope = scope;
  state.overview = await api("/graph/overview", { scope });
  state.validDays = axisDays(state.overview.valid);
  state.knownDays = axisDays(state.overview.recorded);
  setupSlider("as-of", state.validDays);
  setupSlider("known-at", state.knownDays);
  state.positions = layout(state.overview.links, []);
  const select = document.getElementById("scope");
  const scopes = state.overview.scopes.includes(scope) ? state.overview.scopes : [scope, ...state.overview.scopes];
  select.replaceChildren(...scopes.map((s) => html("option", { value: s }, null, s)));
  select.value = scope;
  await refresh();
  if (!state.overview.links.length) {
    const others = state.overview.scopes.filter((s) => s !== scope);
    say(`scope "${scope}" holds no facts` + (others.length ? `; scopes here: ${others.join(", ")}` : ""));
  }
}

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("token")) sessionStorage.setItem("graphmem-token", params.get("token"));
  state.token = sessionStorage.getItem("graphmem-token");
  // the token leaves the address bar (and the history) once read
  if (params.has("token")) { params.delete("token"); history.replaceState(null, "", `#${params}`); }
  return params;
}

async function main() {
  const params = readFragment();
  if (!state.token) {
    say("no token: open the address that `graphmem view` printed");
    document.body.dataset.state = "error";
    return;
  }
  for (const [id, days] of [["as-of", "validDays"], ["known-at", "knownDays"]]) {
    const input = document.getElementById(id);
    input.addEventListener("input", () => { showSlider(id, state[days]); refreshSoon(); });
    input.parentElement.querySelector(".prev").addEventListener("click", () => jump(id, state[days], -1));
    input.parentElement.querySelector(".next").addEventListener("click", () => jump(id, state[days], 1));
  }
  document.getElementById("expired").addEventListener("change", refreshSoon);
  document.getElementById("scope").addEventListener("change", (e) => {
    state.selected = null;
    document.getElementById("panel").replaceChildren(html("p", { class: "hint" }, null, "Click an entity to see its timeline."));
    openScope(e.target.value);
  });
  try {
    await openScope(params.get("scope") || "default");
    if (params.get("entity")) await selectEntity(params.get("entity"));
  } catch (error) {
    say(String(error.message || error));
    document.body.dataset.state = "error";
  }
}
main();
