"""A self-contained HTML evaluation report: tables, charts (inline SVG) and the telling answers.

The page has no scripts, fonts or images from elsewhere, so it can be mailed, archived as a CI
artefact, or opened offline. Input is the JSON payload of ``EvalResult.to_dict()`` (so a report
can also be re-rendered from a saved JSON file). The markup lives in the jinja2 template
``templates/report.html.j2`` (autoescaped; its page frame and span marks are the shared ones of
:mod:`hallucheck.pages`); this module only prepares numbers and chart coordinates for it.

What it shows, and why: response- and span-level tables per task and per language; a
precision-recall curve and precision / recall / F1 by threshold (the policy's decision is one
point, other cut-offs are a choice); F1 bars per task; and the answers that teach most — the
most confident false positives, the false negatives the checker was surest about, then true
positives — with predicted spans coloured and gold spans underlined.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hallucheck.pages import LABEL_COLORS, highlight_segments, page_template

__all__ = ["render_html", "highlight_answer", "highlight_segments"]

_OUTCOMES = {
    "false_positive": (0, "False positives", "false positive", "bad"),
    "false_negative": (1, "False negatives (missed hallucinations)", "false negative", "miss"),
    "true_positive": (2, "True positives", "true positive", "ok"),
}


def highlight_answer(answer: str, predicted: list[dict[str, Any]], gold: list[dict[str, Any]]) -> str:
    """HTML of ``answer`` with predicted spans as coloured marks and gold spans underlined."""
    marks = page_template("hallucheck.eval", "marks.html.j2").module
    return str(marks.marked(highlight_segments(answer, predicted, gold)))


def _f(x: Any) -> str:
    return "—" if x is None else f"{x:.3f}"


def _chart(width: int = 420, height: int = 320, xlabel: str = "", ylabel: str = "") -> dict[str, Any]:
    left, top, right, bottom = 52, 12, 16, 46
    w, h = width - left - right, height - top - bottom
    ticks = [{"x": round(left + v * w, 1), "y": round(top + (1 - v) * h, 1), "label": f"{v:.1f}"} for v in (0, 0.25, 0.5, 0.75, 1.0)]
    return {"width": width, "height": height, "left": left, "top": top, "w": w, "h": h, "ticks": ticks,
            "xlabel": xlabel, "ylabel": ylabel}


def _xy(c: dict[str, Any], x: float, y: float) -> tuple[float, float]:
    return round(c["left"] + x * c["w"], 1), round(c["top"] + (1 - y) * c["h"], 1)


def _line(c: dict[str, Any], pairs: list[tuple[float, float]]) -> str:
    return " ".join("{},{}".format(*_xy(c, x, y)) for x, y in pairs)


def _curves(curve: list[dict[str, float]], overall: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The precision-recall chart and the by-threshold chart, or (None, None) without scores."""
    if not curve or not any(p.get("flagged") for p in curve):
        return None, None
    pr = _chart(xlabel="recall", ylabel="precision")
    by_recall = sorted((p["recall"], p["precision"]) for p in curve if p.get("flagged"))
    pr["line"] = _line(pr, by_recall)
    resp = overall["response"]
    pr["point"] = None
    if resp.get("precision") is not None and resp.get("recall") is not None:
        x, y = _xy(pr, resp["recall"], resp["precision"])
        label_y = y + 18 if y < pr["top"] + 20 else y - 8  # keep the label inside the plot
        pr["point"] = {"x": x, "y": y, "ly": label_y, "p": resp["precision"], "r": resp["recall"]}
    th = _chart(xlabel="threshold (risk ≥ t is flagged)", ylabel="value")
    th["series"] = [
        {"name": name, "color": color, "line": _line(th, [(p["threshold"], p[key]) for p in curve])}
        for key, name, color in (("precision", "precision", "#4c78a8"), ("recall", "recall", "#f58518"), ("f1", "F1", "#54a24b"))
    ]
    best = max(curve, key=lambda p: (p["f1"], -p["threshold"]))
    th["best"] = {"x": _xy(th, best["threshold"], 0)[0], "t": best["threshold"], "f1": best["f1"]} if best["f1"] > 0 else None
    return pr, th


def _bars(per_task: dict[str, Any]) -> dict[str, Any]:
    row_h, left, width = 44, 90, 560
    rows = []
    for i, (task, m) in enumerate(per_task.items()):
        y = 10 + i * row_h
        rects = []
        for k, (key, color, name) in enumerate((("response", "#4c78a8", "response F1"), ("span", "#f58518", "span F1"))):
            value = float(m[key]["f1"] or 0.0)
            rects.append({"y": y + k * 17, "w": round(max(1.0, value * width), 1), "color": color, "name": name, "value": value})
        rows.append({"task": task, "y": y, "rects": rects})
    return {"rows": rows, "left": left, "width": left + width + 60, "height": row_h * len(rows) + 30}


def _samples(samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for x in samples:
        kind = x.get("outcome") or ("true_positive" if x.get("gold_hallucinated") else "false_positive")
        rank, title, word, css = _OUTCOMES.get(kind, _OUTCOMES["true_positive"])
        out.append({
            **x, "id": x.get("id"), "line": x.get("line", ""), "language": x.get("language", ""),
            "risk_level": x.get("risk_level", ""), "outcome": kind, "outcome_rank": rank, "outcome_title": title,
            "outcome_word": word, "outcome_class": css,
            "segments": highlight_segments(x["answer"], x["predicted_spans"], x["gold_spans"]),
        })
    return sorted(out, key=lambda x: x["outcome_rank"])


def render_html(payload: dict[str, Any], title: str = "hallucheck evaluation") -> str:
    """The whole report page for an ``EvalResult.to_dict()`` payload."""
    metrics = payload["metrics"]
    overall, per_task = metrics["overall"], metrics["per_task"]
    cfg = payload.get("config", {})
    tp = payload.get("throughput", {})
    r, s = overall["response"], overall["span"]
    samples = _samples(payload.get("samples", []))
    labels = sorted({sp["label"] for x in samples for sp in x["predicted_spans"]})
    pr, th = _curves(payload.get("curve") or [], overall)
    context = {
        "title": title,
        "config_line": " · ".join(
            f"{k}: {v if not isinstance(v, list) else ', '.join(map(str, v))}" for k, v in cfg.items() if v is not None
        ),
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "wall_seconds": float(tp.get("wall_seconds", 0.0)),
        "workers": tp.get("workers", 1),
        "cards": [
            ("responses", payload.get("n", overall["n"])),
            ("response F1", _f(r["f1"])),
            ("response AUROC", _f(r["auroc"])),
            ("span F1 (chars)", _f(s["f1"])),
            ("responses / s", f"{tp.get('responses_per_second', 0):.1f}"),
        ],
        "errors": sorted((payload.get("detector_errors") or {}).items()),
        "task_rows": [("all", overall), *per_task.items()],
        "language_rows": sorted((payload.get("metrics_by_language") or {}).items()),
        "pr": pr,
        "th": th,
        "bars": _bars(per_task),
        "views": list((payload.get("views") or {}).items()),
        "samples": samples,
        "sample_size": max((sum(1 for x in samples if x["outcome"] == k) for k in _OUTCOMES), default=0),
        "legend": [(lab, LABEL_COLORS.get(lab, "#ddd")) for lab in labels],
    }
    return str(page_template("hallucheck.eval", "report.html.j2").render(**context))
