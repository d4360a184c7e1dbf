"""The A/B test report: Markdown (charts as PNG files beside it) and one self-contained HTML page.

Both show the same things: what was compared and with which backend (named honestly — an
offline demo backend is labelled as such), the ranking with every metric, the charts, and every
answer with the spans the checker flagged. The HTML page is the autoescaped jinja2 template
``templates/report.html.j2`` (page frame and span marks shared with the evaluation report, see
:mod:`hallucheck.pages`); it embeds its charts as base64 PNG so the
page can be mailed or archived as a CI artefact on its own. ``result.json`` keeps the raw
records for re-analysis.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from hallucheck.abtest.charts import charts_available, render_charts
from hallucheck.abtest.runner import ABTestResult
from hallucheck.abtest.scoring import CaseRun
from hallucheck.pages import LABEL_COLORS, highlight_segments, page_template

__all__ = ["write_report", "render_markdown", "render_html"]


def write_report(result: ABTestResult, out_dir: str | Path) -> dict[str, Path]:
    """Write report.md, report.html, result.json and charts/*.png into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    charts = render_charts(result)
    paths: dict[str, Path] = {}
    if charts:
        (out / "charts").mkdir(exist_ok=True)
        for name, (_, png) in charts.items():
            p = out / "charts" / f"{name}.png"
            p.write_bytes(png)
            paths[f"chart_{name}"] = p
    paths["markdown"] = out / "report.md"
    paths["markdown"].write_text(render_markdown(result, charts), encoding="utf-8")
    paths["html"] = out / "report.html"
    paths["html"].write_text(render_html(result, charts), encoding="utf-8")
    paths["json"] = out / "result.json"
    paths["json"].write_text(result.model_dump_json(indent=2), encoding="utf-8")
    return paths


# ---- shared pieces -------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def _formula(result: ABTestResult) -> str:
    w = result.weights
    total = sum(w[k] for k in ("keyword", "citation", "hallucination", "latency", "tokens")) or 1.0
    return (
        f"score = {w['keyword'] / total:.2f} × keyword coverage + {w['citation'] / total:.2f} × citation rate"
        f" + {w['hallucination'] / total:.2f} × (1 − hallucination risk)"
        f" + {w['latency'] / total:.2f} × (1 − min(latency / {w['latency_budget_ms']:g} ms, 1))"
        f" + {w['tokens'] / total:.2f} × (1 − min(tokens / {w['token_budget']:g}, 1))"
    )


def _recommendation(result: ABTestResult) -> str:
    best = result.best
    if best is None:
        return "No runs."
    text = f"{best.strategy} scored highest ({best.score:.3f})"
    if len(result.summaries) > 1:
        second = result.summaries[1]
        gap = best.score - second.score
        text += f", {gap:.3f} ahead of {second.strategy}"
        if gap < 0.02:
            text += " — too close to call on this many cases"
    lowest_risk = min(result.summaries, key=lambda s: s.hallucination_risk)
    if lowest_risk.strategy != best.strategy:
        text += f". Lowest hallucination risk: {lowest_risk.strategy} ({lowest_risk.hallucination_risk:.3f})"
    return text + "."


def _languages(result: ABTestResult) -> str:
    langs: dict[str, int] = {}
    for c in result.cases:
        key = c.language or "auto"
        langs[key] = langs.get(key, 0) + 1
    return ", ".join(f"{k}: {v}" for k, v in sorted(langs.items()))


def _rows(result: ABTestResult) -> list[list[str]]:
    rows = []
    for rank, s in enumerate(result.summaries, start=1):
        rows.append([
            str(rank), s.strategy, f"{s.score:.3f}", _pct(s.keyword_coverage), _pct(s.citation_rate),
            f"{s.hallucination_risk:.3f}", f"{_pct(s.flagged_rate)}", f"{s.latency_ms:.0f}",
            f"{s.completion_tokens:.0f}", str(s.errors),
        ])
    return rows


_HEADERS = ["#", "Strategy", "Score", "Keyword coverage", "Citation rate", "Hallucination risk",
            "Flagged answers", "Latency (ms)", "Completion tokens", "Errors"]


def _run_line(run: CaseRun, keywords: int) -> str:
    hits = round(run.keyword_coverage * keywords) if keywords else None
    kw = f"keywords {hits}/{keywords}" if keywords else "no keywords"
    parts = [f"risk {run.risk_score:.2f} ({run.risk_level})", kw, "cited" if run.cited else "no citation"]
    if run.invalid_citations:
        parts.append("invalid citation " + ", ".join(run.invalid_citations))
    if run.parse_ok is False:
        parts.append("JSON not parsed")
    parts.append(f"{run.latency_ms:.0f} ms, {run.completion_tokens} tokens")
    if run.error:
        parts.append(f"error: {run.error}")
    return " · ".join(parts)


# ---- Markdown --------------------------------------------------------------------------------


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_marked(answer: str, spans: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    pos = 0
    for s in sorted(spans, key=lambda s: s["start"]):
        if s["start"] < pos:
            continue
        parts.append(answer[pos : s["start"]])
        parts.append(f"**⟦{answer[s['start']:s['end']]}⟧**")
        pos = s["end"]
    parts.append(answer[pos:])
    return "".join(parts)


def render_markdown(result: ABTestResult, charts: dict[str, tuple[str, bytes]] | None = None) -> str:
    charts = charts if charts is not None else {}
    lines = [
        "# Prompt strategy A/B test",
        "",
        f"- **Backend:** `{result.backend}`" + (f" — {result.backend_note}" if result.backend_note else ""),
        f"- **Checker:** {result.checker}",
        f"- **Cases:** {len(result.cases)} ({_languages(result)}); **strategies:** {', '.join(result.strategies)}; "
        f"**runs:** {len(result.runs)}",
        f"- **Generation:** temperature {result.settings.get('temperature')}, max tokens {result.settings.get('max_tokens')}",
        f"- **Started:** {result.started_at}; **took** {result.duration_s:.1f} s",
        "",
        "## Recommendation",
        "",
        _recommendation(result),
        "",
        "## Results",
        "",
        "| " + " | ".join(_HEADERS) + " |",
        "|" + "|".join("---:" if i not in (1,) else "---" for i in range(len(_HEADERS))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in _rows(result)]
    lines += [
        "",
        f"`{_formula(result)}`",
        "",
        "Hallucination risk is the checker's risk score of the final answer (the last step of a reasoning "
        "answer, the `answer` field of a JSON one); a failed or empty answer counts as risk 1. Citation rate "
        "is the share of answers with at least one valid citation of a source id.",
        "",
    ]
    if charts:
        lines += ["## Charts", ""]
        for name, (title, _) in charts.items():
            lines += [f"![{title}](charts/{name}.png)", ""]
    elif not charts_available():
        lines += ["*Charts need matplotlib: `pip install 'hallucheck[report]'`.*", ""]
    lines += ["## Answers", "", "Flagged spans are shown as **⟦…⟧**.", ""]
    for case in result.cases:
        lines += [f"### {case.id} — {_md_escape(case.question)}", ""]
        if case.expected_keywords:
            lines += ["Expected keywords: " + ", ".join(f"`{k}`" for k in case.expected_keywords), ""]
        for src in case.contexts:
            lines.append(f"> **[{src.id}]** {_md_escape(src.text)}")
        lines.append("")
        for name in result.strategies:
            run = result.run_for(case.id, name)
            if run is None:
                continue
            lines += [f"**{name}** — {_run_line(run, len(case.expected_keywords))}", ""]
            body = _md_marked(run.answer, run.spans) if run.answer.strip() else "*(no answer)*"
            lines += ["> " + line for line in body.splitlines() or [""]]
            lines.append("")
            for s in run.spans:
                reason = f": {_md_escape(s['reason'])}" if s.get("reason") else ""
                lines.append(f"- ⟦{_md_escape(s['text'])}⟧ — {s['label']} ({s['detector']}){reason}")
            if run.spans:
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# ---- HTML --------------------------------------------------------------------------------------


def _run_context(run: CaseRun, keywords: int) -> dict[str, Any]:
    raw = run.raw if run.raw.strip() and run.raw.strip() != run.answer.strip() else ""
    return {
        "strategy": run.strategy,
        "risk_score": run.risk_score,
        "risk_level": run.risk_level,
        "line": _run_line(run, keywords).split(" · ", 1)[1],
        "segments": highlight_segments(run.answer, run.spans, []) if run.answer.strip() else [],
        "spans": [{"text": s["text"], "label": s["label"], "detector": s["detector"], "reason": s.get("reason") or ""} for s in run.spans],
        "raw": raw,
    }


def render_html(result: ABTestResult, charts: dict[str, tuple[str, bytes]] | None = None) -> str:
    """The self-contained page, from the autoescaped template ``templates/report.html.j2``."""
    charts = charts if charts is not None else {}
    cases = []
    for case in result.cases:
        runs = [r for r in (result.run_for(case.id, n) for n in result.strategies) if r is not None]
        cases.append({
            "id": case.id, "question": case.question, "contexts": case.contexts, "expected_keywords": case.expected_keywords,
            "runs": [_run_context(r, len(case.expected_keywords)) for r in runs],
        })
    labels = sorted({s["label"] for r in result.runs for s in r.spans})
    context = {
        "best": result.best.strategy if result.best else "",
        "backend": result.backend,
        "backend_note": result.backend_note,
        "checker": result.checker,
        "n_cases": len(result.cases),
        "n_strategies": len(result.strategies),
        "n_runs": len(result.runs),
        "languages": _languages(result),
        "temperature": result.settings.get("temperature"),
        "max_tokens": result.settings.get("max_tokens"),
        "started_at": result.started_at,
        "duration_s": result.duration_s,
        "recommendation": _recommendation(result),
        "headers": _HEADERS,
        "rows": _rows(result),
        "formula": _formula(result),
        "charts": [{"title": title, "png_base64": base64.b64encode(png).decode("ascii")} for title, png in charts.values()],
        "legend": [(lab, LABEL_COLORS.get(lab, "#ddd")) for lab in labels],
        "cases": cases,
        "open_all": len(result.runs) <= 60,
    }
    return str(page_template("hallucheck.abtest", "report.html.j2").render(**context)) + "\n"
