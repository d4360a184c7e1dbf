// hallucheck dashboard: reads the JSON API (same scope and key as any client) and draws
// figures, trend charts (inline SVG), the latest checks, and one check with its spans marked.
// User text is only ever inserted with textContent, never as HTML.
"use strict";

const LABELS = ["fabrication", "baseless", "contradiction", "extrapolation", "distortion",
                "invalid_citation", "uncited", "speculation"];
const FIGURES = [
  ["checks", "checks", (v) => String(v)],
  ["avg_risk", "average risk", pct],
  ["high_risk_share", "high-risk share", pct],
  ["invalid_citation_rate", "with invalid citations", pct],
  ["uncited_claim_rate", "with uncited claims", pct],
  ["hallucinated_share", "judged hallucinated", pct],
];
const CHARTS = [
  ["avg_risk", "average risk score"],
  ["high_risk_share", "high-risk share"],
  ["invalid_citation_rate", "invalid-citation frequency (share of checks)"],
  ["uncited_claim_rate", "uncited-claim frequency (share of checks)"],
];

function pct(v) { return v === null || v === undefined ? "–" : (100 * v).toFixed(1) + "%"; }
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
function svg(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
function status(msg) { document.getElementById("status").textContent = msg || ""; }

// The key lives in sessionStorage: this tab only, gone when it closes, never in a cookie or in
// localStorage where it would outlive the session. A key stored by an older page is removed.
const KEY_NAME = "hallucheck.key";
try { localStorage.removeItem(KEY_NAME); } catch (e) { /* storage disabled */ }

async function api(path) {
  const headers = {};
  const key = sessionStorage.getItem(KEY_NAME);
  if (key) headers["Authorization"] = "Bearer " + key;
  const r = await fetch(path, { headers, credentials: "omit" });
  if (r.status === 401) {
    sessionStorage.removeItem(KEY_NAME);
    document.getElementById("keybox").hidden = false;
    throw new Error("this server needs an API key");
  }
  const body = await r.json();
  if (!r.ok) throw new Error((body.error && body.error.message) || r.statusText);
  return body;
}

function drawFigures(f) {
  const box = document.getElementById("figures");
  box.replaceChildren(...FIGURES.map(([k, name, fmt]) =>
    el("div", { class: "card", "data-figure": k }, el("div", { class: "k", text: name }), el("div", { class: "v", text: fmt(f[k]) }))));
}

function drawChart(points, key, title) {
  const W = 300, H = 110, P = 22;
  const box = el("div", { class: "chart", "data-chart": key }, el("div", { class: "k", text: title }));
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title });
  s.append(svg("line", { class: "axis", x1: P, y1: H - P, x2: W - 4, y2: H - P }));
  s.append(svg("line", { class: "axis", x1: P, y1: 4, x2: P, y2: H - P }));
  const lab = (y, t) => { const x = svg("text", { x: 2, y, class: "empty" }); x.textContent = t; return x; };
  s.append(lab(12, "100%"), lab(H - P, "0"));
  const pts = points.filter((p) => p[key] !== null && p[key] !== undefined);
  if (!pts.length) {
    const t = svg("text", { x: W / 2 - 30, y: H / 2, class: "empty" }); t.textContent = "no checks yet"; s.append(t);
  } else {
    const n = pts.length;
    const xy = pts.map((p, i) => [P + (n === 1 ? (W - P) / 2 : (i * (W - P - 8)) / (n - 1)), 4 + (1 - p[key]) * (H - P - 4)]);
    s.append(svg("polyline", { class: "line", points: xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ") }));
    xy.forEach(([x, y], i) => {
      const d = svg("circle", { class: "dot", cx: x, cy: y, r: 2.5 });
      const tip = svg("title"); tip.textContent = `${pts[i].start}: ${pct(pts[i][key])} of ${pts[i].checks} checks`;
      d.append(tip); s.append(d);
    });
    const first = svg("text", { x: P, y: H - 6, class: "empty" }); first.textContent = pts[0].start.slice(5, 16).replace("T", " ");
    s.append(first);
  }
  box.append(s);
  return box;
}

function tag(label) { return el("span", { class: `tag lbl-${label}`, text: label.replace("_", " ") }); }
function badge(level) { return el("span", { class: `badge ${level}`, text: level }); }

function drawLatest(items) {
  const rows = items.map((c) => {
    const tr = el("tr", { "data-id": c.id },
      el("td", { text: c.created_at.slice(0, 19).replace("T", " ") }),
      el("td", {}, badge(c.risk_level)),
      el("td", { text: c.risk_score.toFixed(2) }),
      el("td", {}, ...c.labels.map(tag)),
      el("td", { text: String(c.invalid_citations) }),
      el("td", { text: String(c.uncited_sentences) }),
      el("td", { class: "preview", text: c.answer_preview }));
    tr.addEventListener("click", () => { location.hash = "check=" + c.id; });
    return tr;
  });
  const body = document.getElementById("latest-rows");
  body.replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 7, text: "no checks stored yet" }))]));
}

// The answer with every report span wrapped in <mark class="span lbl-LABEL">, in offset order.
function markedAnswer(answer, spans) {
  const out = [];
  let pos = 0;
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  sorted.forEach((s, i) => {
    if (s.start < pos || s.end > answer.length) return; // overlapping or out of range: listed below only
    if (s.start > pos) out.push(document.createTextNode(answer.slice(pos, s.start)));
    const m = el("mark", { class: `span lbl-${s.label}`, id: `span-${i}`, "data-label": s.label,
                           title: `${s.label} · ${s.detector} · ${s.score.toFixed(2)}${s.reason ? " — " + s.reason : ""}` });
    m.textContent = answer.slice(s.start, s.end);
    out.push(m);
    pos = s.end;
  });
  if (pos < answer.length) out.push(document.createTextNode(answer.slice(pos)));
  return out;
}

function drawCheck(c) {
  const rep = c.report, cs = c.case;
  document.getElementById("check-id").textContent = c.id;
  const meta = document.getElementById("check-meta");
  meta.replaceChildren(badge(rep.risk_level), " ",
    el("b", { text: `risk ${rep.risk_score.toFixed(2)}` }), ` · decision ${rep.decision} · ${rep.task} · ${rep.language}` +
    ` · policy ${rep.policy} · ${c.created_at.slice(0, 19).replace("T", " ")} UTC · ${(c.timings.check_ms || 0).toFixed(1)} ms`);
  document.getElementById("check-question").textContent = cs.question || "(no question)";
  const used = new Set(rep.spans.map((s) => s.label));
  document.getElementById("legend").replaceChildren(...LABELS.filter((l) => used.has(l)).map(tag));
  document.getElementById("check-answer").replaceChildren(...markedAnswer(cs.answer, rep.spans));
  const sources = new Map(cs.contexts.map((s) => [s.id, s.text]));
  const list = rep.spans.map((s, i) => {
    const li = el("li", { "data-span": String(i) },
      tag(s.label), " ", el("q", { text: s.text }), ` — ${s.detector}, score ${s.score.toFixed(2)}`,
      el("div", { class: "why", text: s.reason || "" }));
    for (const ev of s.evidence || []) {
      li.append(el("div", { class: "ev" }, el("span", { class: "rel", text: `${ev.relation} · source ${ev.source_id ?? "?"}` }),
        el("div", { text: ev.text })));
    }
    if (!(s.evidence || []).length) li.append(el("div", { class: "ev", text: "no source text attached to this span" }));
    li.addEventListener("mouseenter", () => { const m = document.getElementById(`span-${i}`); if (m) m.classList.add("active"); });
    li.addEventListener("mouseleave", () => { const m = document.getElementById(`span-${i}`); if (m) m.classList.remove("active"); });
    return li;
  });
  document.getElementById("check-spans").replaceChildren(...(list.length ? list : [el("li", { text: "nothing flagged" })]));
  const rows = rep.findings.map((f) => el("tr", {},
    el("td", { text: f.detector }), el("td", { text: f.risk.toFixed(2) }),
    el("td", { text: f.error ? "error" : String(!!f.flagged) }),
    el("td", { text: f.latency_ms.toFixed(1) }), el("td", { text: (f.error || (f.notes || []).join("; ")).slice(0, 300) })));
  document.querySelector("#check-findings tbody").replaceChildren(...rows);
  void sources;
}

async function showCheck(id, scroll) {
  const box = document.getElementById("check");
  try {
    drawCheck(await api("/v1/checks/" + encodeURIComponent(id)));
    box.hidden = false;
    document.body.dataset.view = "check";
    if (scroll) box.scrollIntoView();
  } catch (e) { status(e.message); box.hidden = true; }
}

async function refresh() {
  status("");
  const bucket = document.getElementById("bucket").value;
  try {
    const [stats, trend, latest] = await Promise.all([
      api("/v1/stats"), api("/v1/stats/trend?bucket=" + bucket), api("/v1/checks?limit=25")]);
    drawFigures(stats);
    document.getElementById("trends").replaceChildren(...CHARTS.map(([k, t]) => drawChart(trend.points, k, t)));
    drawLatest(latest.items);
    document.body.dataset.loaded = "1";
  } catch (e) { status(e.message); }
}

let scrolled = false; // the first view (a link to one check) keeps the figures in sight
function route() {
  const m = /^#check=([A-Za-z0-9]+)$/.exec(location.hash);
  if (m) showCheck(m[1], scrolled);
  else { document.getElementById("check").hidden = true; document.body.dataset.view = "list"; }
}

document.getElementById("refresh").addEventListener("click", refresh);
document.getElementById("bucket").addEventListener("change", refresh);
document.getElementById("close-check").addEventListener("click", (e) => { e.preventDefault(); location.hash = ""; });
document.getElementById("savekey").addEventListener("click", () => {
  sessionStorage.setItem(KEY_NAME, document.getElementById("apikey").value.trim());
  document.getElementById("apikey").value = "";
  document.getElementById("keybox").hidden = true; refresh(); route();
});
window.addEventListener("hashchange", () => { scrolled = true; route(); });
refresh().then(route);
setInterval(refresh, 30000);
