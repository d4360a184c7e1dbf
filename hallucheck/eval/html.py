"""A self-contained HTML evaluation report: tables, per-task bars (inline SVG) and flagged samples.

The page has no scripts, fonts or images from elsewhere, so it can be mailed, archived as a CI
artefact, or opened offline. Input is the JSON payload of ``EvalResult.to_dict()`` (so a report
can also be re-rendered from a saved JSON file).
"""

from __future__ import annotations

import html
from datetime import UTC, datetime
from typing import Any

__all__ = ["render_html", "highlight_answer"]

_LABEL_COLORS = {
    "contradiction": "#f4a3a3",
    "fabrication": "#ffc680",
    "baseless": "#fde58a",
    "distortion": "#e3c4f5",
    "extrapolation": "#f6efa6",
    "invalid_citation": "#f2a6e0",
    "uncited": "#b9e6f2",
    "speculation": "#c9ddf7",
}

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,Noto Sans,sans-serif;margin:2rem auto;max-width:1100px;
color:#1d2430;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #dde;padding-bottom:.2rem}
.meta{color:#667;font-size:.9rem}.cards{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0}
.card{border:1px solid #dde;border-radius:8px;padding:.6rem 1rem;min-width:9rem;background:#fafbfd}
.card b{display:block;font-size:1.5rem}.card span{color:#667;font-size:.85rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #e6e8ee;padding:.3rem .6rem;text-align:right}th{background:#f3f5f9}
td:first-child,th:first-child{text-align:left}
.sample{border:1px solid #dde;border-radius:8px;padding:.7rem 1rem;margin:.8rem 0}
.sample .head{font-size:.85rem;color:#556;margin-bottom:.4rem}
.answer{white-space:pre-wrap}.gold{text-decoration:underline wavy #c0262d;text-underline-offset:3px}
mark{border-radius:3px;padding:0 1px}.legend span{display:inline-block;margin-right:.8rem;font-size:.85rem}
.ok{color:#1a7f37}.bad{color:#c0262d}svg text{font:12px system-ui,sans-serif}
"""


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _f(x: Any) -> str:
    return "—" if x is None else f"{x:.3f}"


def highlight_answer(answer: str, predicted: list[dict[str, Any]], gold: list[dict[str, Any]]) -> str:
    """HTML of ``answer`` with predicted spans as coloured marks and gold spans underlined."""
    cuts = {0, len(answer)}
    for s in [*predicted, *gold]:
        cuts.update((max(0, min(int(s["start"]), len(answer))), max(0, min(int(s["end"]), len(answer)))))
    points = sorted(cuts)
    parts: list[str] = []
    for a, b in zip(points, points[1:]):
        if a >= b:
            continue
        piece = _e(answer[a:b])
        label = next((s.get("label", "") for s in predicted if s["start"] <= a and b <= s["end"]), None)
        in_gold = any(s["start"] <= a and b <= s["end"] for s in gold)
        if in_gold:
            piece = f'<span class="gold">{piece}</span>'
        if label is not None:
            reason = next((s.get("reason", "") for s in predicted if s["start"] <= a and b <= s["end"]), "")
            color = _LABEL_COLORS.get(label, "#ddd")
            piece = f'<mark style="background:{color}" title="{_e(label)}: {_e(reason)}">{piece}</mark>'
        parts.append(piece)
    return "".join(parts)


def _bars(per_task: dict[str, Any]) -> str:
    """Grouped horizontal bars: response F1 and span F1 per task (inline SVG)."""
    tasks = list(per_task)
    if not tasks:
        return ""
    row_h, label_w, width = 44, 90, 560
    height = row_h * len(tasks) + 30
    out = [f'<svg width="{label_w + width + 60}" height="{height}" role="img" aria-label="F1 per task">']
    for i, task in enumerate(tasks):
        y = 10 + i * row_h
        m = per_task[task]
        out.append(f'<text x="0" y="{y + 20}">{_e(task)}</text>')
        for k, (key, color, name) in enumerate(
            (("response", "#4c78a8", "response F1"), ("span", "#f58518", "span F1"))
        ):
            value = float(m[key]["f1"] or 0.0)
            yy = y + k * 17
            out.append(
                f'<rect x="{label_w}" y="{yy}" width="{max(1.0, value * width):.1f}" height="14" fill="{color}">'
                f"<title>{_e(task)} {name} {value:.3f}</title></rect>"
            )
            out.append(f'<text x="{label_w + value * width + 6:.1f}" y="{yy + 12}">{value:.3f}</text>')
    y = height - 8
    out.append(f'<rect x="{label_w}" y="{y - 10}" width="12" height="10" fill="#4c78a8"/>')
    out.append(f'<text x="{label_w + 16}" y="{y}">response F1</text>')
    out.append(f'<rect x="{label_w + 120}" y="{y - 10}" width="12" height="10" fill="#f58518"/>')
    out.append(f'<text x="{label_w + 136}" y="{y}">span F1 (characters)</text>')
    out.append("</svg>")
    return "".join(out)


def _metric_rows(overall: dict[str, Any], per_task: dict[str, Any]) -> tuple[str, str]:
    resp, span = [], []
    for name, m in [("all", overall), *per_task.items()]:
        r, s = m["response"], m["span"]
        resp.append(
            f"<tr><td>{_e(name)}</td><td>{m['n']}</td><td>{r['positives']}</td><td>{r['predicted_positive']}</td>"
            f"<td>{_f(r['precision'])}</td><td>{_f(r['recall'])}</td><td><b>{_f(r['f1'])}</b></td>"
            f"<td>{_f(r['accuracy'])}</td><td>{_f(r['auroc'])}</td></tr>"
        )
        span.append(
            f"<tr><td>{_e(name)}</td><td>{_f(s['precision'])}</td><td>{_f(s['recall'])}</td><td><b>{_f(s['f1'])}</b></td>"
            f"<td>{_f(s['answer_mean_precision'])}</td><td>{_f(s['answer_mean_recall'])}</td>"
            f"<td>{_f(s['answer_mean_f1'])}</td></tr>"
        )
    return "".join(resp), "".join(span)


def _views_table(views: dict[str, Any]) -> str:
    rows = []
    for name, v in views.items():
        r, s = v["overall"]["response"], v["overall"]["span"]
        per_task = " ".join(f"{_e(t)} {_f(m['response']['f1'])}" for t, m in v["per_task"].items())
        rows.append(
            f"<tr><td>{_e(name)}</td><td>{_f(r['precision'])}</td><td>{_f(r['recall'])}</td><td><b>{_f(r['f1'])}</b></td>"
            f"<td>{_f(r['auroc'])}</td><td>{_f(s['precision'])}</td><td>{_f(s['recall'])}</td><td>{_f(s['f1'])}</td>"
            f"<td>{per_task}</td><td>{v.get('responses_per_second_one_core', 0):.0f}</td></tr>"
        )
    return (
        "<h2>All configurations</h2><table><tr><th>view</th><th>resp. P</th><th>resp. R</th><th>resp. F1</th>"
        "<th>AUROC</th><th>span P</th><th>span R</th><th>span F1</th><th>F1 per task</th><th>resp/s (1 core)</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def _samples(samples: list[dict[str, Any]]) -> str:
    if not samples:
        return "<p>No answer was flagged.</p>"
    labels = sorted({s["label"] for x in samples for s in x["predicted_spans"]})
    legend = "".join(
        f'<span><mark style="background:{_LABEL_COLORS.get(lab, "#ddd")}">{_e(lab)}</mark></span>' for lab in labels
    )
    legend += '<span><span class="gold">gold hallucination</span> (underlined)</span>'
    out = [f'<p class="legend">{legend}</p>']
    for x in samples:
        correct = x["hallucinated"] == x["gold_hallucinated"]
        verdict = (
            f'<b class="{"ok" if correct else "bad"}">'
            f'{"true positive" if correct else "false positive"}</b>'
        )
        out.append(
            f'<div class="sample"><div class="head">{verdict} · id {_e(x.get("id") or "—")} · line {x.get("line", "")} · '
            f'task {_e(x["task"])} · risk {x["risk"]:.2f} {_e(x.get("risk_level", ""))}</div>'
            f'<div class="answer">{highlight_answer(x["answer"], x["predicted_spans"], x["gold_spans"])}</div></div>'
        )
    return "".join(out)


def render_html(payload: dict[str, Any], title: str = "hallucheck evaluation") -> str:
    """The whole report page for an ``EvalResult.to_dict()`` payload."""
    metrics = payload["metrics"]
    overall, per_task = metrics["overall"], metrics["per_task"]
    cfg = payload.get("config", {})
    tp = payload.get("throughput", {})
    resp_rows, span_rows = _metric_rows(overall, per_task)
    r, s = overall["response"], overall["span"]
    cards = "".join(
        f'<div class="card"><b>{value}</b><span>{_e(name)}</span></div>'
        for name, value in (
            ("responses", payload.get("n", overall["n"])),
            ("response F1", _f(r["f1"])),
            ("response AUROC", _f(r["auroc"])),
            ("span F1 (chars)", _f(s["f1"])),
            ("responses / s", f"{tp.get('responses_per_second', 0):.1f}"),
        )
    )
    config_line = " · ".join(
        f"{_e(k)}: {_e(v if not isinstance(v, list) else ', '.join(map(str, v)))}" for k, v in cfg.items() if v is not None
    )
    errors = payload.get("detector_errors") or {}
    error_html = (
        "<p class='bad'>Detectors that failed on some responses: "
        + ", ".join(f"{_e(k)} ({v})" for k, v in errors.items())
        + "</p>"
        if errors
        else ""
    )
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{_e(title)}</title><style>{_CSS}</style></head><body>
<h1>{_e(title)}</h1>
<p class="meta">{config_line}<br>generated {generated} · {tp.get('wall_seconds', 0):.1f} s wall with {tp.get('workers', 1)} worker(s)</p>
<div class="cards">{cards}</div>{error_html}
<h2>Response level</h2>
<p class="meta">Hallucinated = the answer has at least one labelled span. AUROC ranks answers by risk score.</p>
<table><tr><th>task</th><th>n</th><th>hallucinated</th><th>flagged</th><th>precision</th><th>recall</th><th>F1</th><th>accuracy</th><th>AUROC</th></tr>{resp_rows}</table>
<h2>Span level (character overlap)</h2>
<p class="meta">Micro: overlapping characters over all answers / predicted (precision) or gold (recall) characters.
Answer-mean: the same ratios averaged per answer (RAGTruth style).</p>
<table><tr><th>task</th><th>precision</th><th>recall</th><th>F1</th><th>answer-mean P</th><th>answer-mean R</th>
<th>answer-mean F1</th></tr>{span_rows}</table>
<h2>F1 per task</h2>{_bars(per_task)}
{_views_table(payload["views"]) if payload.get("views") else ""}
<h2>Flagged answers (sample)</h2>{_samples(payload.get("samples", []))}
</body></html>
"""
