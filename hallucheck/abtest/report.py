"""The A/B test report: Markdown (charts as PNG files beside it) and one self-contained HTML page.

Both show the same things: what was compared and with which backend (named honestly — an
offline demo backend is labelled as such), the ranking with every metric, the charts, and every
answer with the spans the checker flagged. The HTML embeds its charts as base64 PNG so the
page can be mailed or archived as a CI artefact on its own. ``result.json`` keeps the raw
records for re-analysis.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from hallucheck.abtest.charts import charts_available, render_charts
from hallucheck.abtest.runner import ABTestResult
from hallucheck.abtest.scoring import CaseRun

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

_CSS = """
*{box-sizing:border-box}
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK TC","PingFang TC","Microsoft JhengHei",sans-serif;
margin:0;color:#1d2430;background:#f6f7fa}
main{max-width:1180px;margin:0 auto;padding:1.5rem 1.5rem 3rem}
h1{font-size:1.7rem;margin:.2rem 0 .4rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;padding-bottom:.25rem;border-bottom:1px solid #dde1ea}
h3{font-size:1.05rem;margin:0}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;font-size:.9rem;color:#4a5365;margin:.6rem 0 0}
.meta dt{font-weight:600;color:#2c3444}.meta dd{margin:0}
.note{background:#fff8e1;border:1px solid #f3d98b;border-radius:6px;padding:.15rem .5rem;font-size:.85rem}
.reco{background:#eaf6ee;border:1px solid #b7dfc3;border-radius:10px;padding:.8rem 1rem;font-size:1rem;margin-top:1rem}
.reco b{font-size:1.1rem}
table{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden;font-variant-numeric:tabular-nums;
box-shadow:0 1px 2px rgba(0,0,0,.05)}
th,td{padding:.45rem .6rem;text-align:right;border-bottom:1px solid #eceef3;font-size:.9rem}
th{background:#eef1f6;font-weight:600;color:#2c3444}td:nth-child(2),th:nth-child(2){text-align:left}
tr.best td{background:#f1faf4;font-weight:600}
.formula{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#4a5365;margin:.5rem 0}
.small{font-size:.85rem;color:#5a6375}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(520px,100%),1fr));gap:1rem}
.scroll{overflow-x:auto}
figure{margin:0;background:#fff;border-radius:8px;padding:.8rem;box-shadow:0 1px 2px rgba(0,0,0,.05)}
figure img{width:100%;height:auto;display:block}figcaption{font-size:.85rem;color:#4a5365;margin-bottom:.4rem;font-weight:600}
details.case{background:#fff;border-radius:10px;margin:.8rem 0;box-shadow:0 1px 2px rgba(0,0,0,.06)}
details.case>summary{cursor:pointer;padding:.7rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;list-style:none}
details.case>summary::-webkit-details-marker{display:none}
details.case>summary:before{content:"▸";color:#8a93a6;margin-right:.2rem}details.case[open]>summary:before{content:"▾"}
.cid{font:12px ui-monospace,monospace;background:#eef1f6;border-radius:4px;padding:.05rem .35rem;color:#4a5365}
.chips{margin-left:auto;display:flex;gap:.3rem;flex-wrap:wrap}
.chip{font-size:.75rem;border-radius:999px;padding:.05rem .5rem;border:1px solid transparent;white-space:nowrap}
.low{background:#e3f4e8;color:#1a6b34;border-color:#bfe3ca}.moderate{background:#fff3d6;color:#8a5a00;border-color:#f2d59a}
.high{background:#fde4e4;color:#a12323;border-color:#f3bcbc}
.case-body{padding:0 1rem 1rem}
.sources{margin:.2rem 0 .8rem;padding:.5rem .8rem;background:#f7f8fb;border-left:3px solid #c9d1e0;border-radius:4px;font-size:.88rem}
.sources div{margin:.15rem 0}.sid{font-weight:600;color:#3b4a66}
.kw code{background:#eef1f6;border-radius:3px;padding:0 .25rem;font-size:.85rem}
.run{border-top:1px solid #eceef3;padding:.6rem 0}
.run-head{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:baseline;font-size:.85rem;color:#4a5365}
.run-head b{font-size:.95rem;color:#1d2430;min-width:9.5rem}
.answer{white-space:pre-wrap;margin:.35rem 0 0;padding:.5rem .7rem;background:#fbfbfd;border:1px solid #eceef3;border-radius:6px}
.answer.empty{color:#8a93a6;font-style:italic}
mark{border-radius:3px;padding:0 1px}
.spans{margin:.3rem 0 0;padding-left:1.2rem;font-size:.82rem;color:#4a5365}
details.raw{margin-top:.3rem;font-size:.82rem}details.raw summary{cursor:pointer;color:#5a6375}
details.raw pre{white-space:pre-wrap;background:#f7f8fb;border-radius:6px;padding:.5rem;max-height:22rem;overflow:auto}
.legend{font-size:.85rem;color:#4a5365}.legend span{margin-right:.7rem}
"""


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _highlight(answer: str, spans: list[dict[str, Any]]) -> str:
    from hallucheck.eval.html import highlight_answer

    return highlight_answer(answer, spans, [])


def _legend(result: ABTestResult) -> str:
    labels = sorted({s["label"] for r in result.runs for s in r.spans})
    if not labels:
        return '<p class="legend">The checker flagged no span in any answer.</p>'
    items = "".join(f"<span>{_highlight(lab, [{'start': 0, 'end': len(lab), 'label': lab}])}</span>" for lab in labels)
    return f'<p class="legend">Flagged spans (hover for the reason): {items}</p>'


def _run_html(run: CaseRun, keywords: int) -> str:
    level = run.risk_level if run.risk_level in ("low", "moderate", "high") else "high"
    head = (
        f'<div class="run-head"><b>{_e(run.strategy)}</b>'
        f'<span class="chip {level}">risk {run.risk_score:.2f} · {_e(run.risk_level)}</span>'
        f"<span>{_e(_run_line(run, keywords).split(' · ', 1)[1])}</span></div>"
    )
    if run.answer.strip():
        body = f'<div class="answer">{_highlight(run.answer, run.spans)}</div>'
    else:
        body = '<div class="answer empty">(no answer)</div>'
    spans = ""
    if run.spans:
        items = "".join(
            f"<li><q>{_e(s['text'])}</q> — {_e(s['label'])} ({_e(s['detector'])}){': ' + _e(s['reason']) if s.get('reason') else ''}</li>"
            for s in run.spans
        )
        spans = f'<ul class="spans">{items}</ul>'
    raw = ""
    if run.raw.strip() and run.raw.strip() != run.answer.strip():
        raw = f'<details class="raw"><summary>full model output</summary><pre>{_e(run.raw)}</pre></details>'
    return f'<div class="run">{head}{body}{spans}{raw}</div>'


def render_html(result: ABTestResult, charts: dict[str, tuple[str, bytes]] | None = None) -> str:
    charts = charts if charts is not None else {}
    best = result.best.strategy if result.best else ""
    rows = "".join(
        f'<tr class="{"best" if row[1] == best else ""}">' + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>"
        for row in _rows(result)
    )
    table = "<table><thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in _HEADERS) + f"</tr></thead><tbody>{rows}</tbody></table>"
    note = f' <span class="note">{_e(result.backend_note)}</span>' if result.backend_note else ""
    meta = (
        '<dl class="meta">'
        f"<dt>Backend</dt><dd><code>{_e(result.backend)}</code>{note}</dd>"
        f"<dt>Checker</dt><dd>{_e(result.checker)}</dd>"
        f"<dt>Cases</dt><dd>{len(result.cases)} ({_e(_languages(result))}) × {len(result.strategies)} strategies"
        f" = {len(result.runs)} runs</dd>"
        f"<dt>Generation</dt><dd>temperature {_e(result.settings.get('temperature'))},"
        f" max tokens {_e(result.settings.get('max_tokens'))}</dd>"
        f"<dt>Started</dt><dd>{_e(result.started_at)}, took {result.duration_s:.1f} s</dd>"
        "</dl>"
    )
    if charts:
        figs = "".join(
            f'<figure><figcaption>{_e(title)}</figcaption><img alt="{_e(title)}" '
            f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}"></figure>'
            for title, png in charts.values()
        )
        charts_html = f'<h2>Charts</h2><div class="charts">{figs}</div>'
    else:
        charts_html = '<h2>Charts</h2><p class="small">Charts need matplotlib: <code>pip install \'hallucheck[report]\'</code>.</p>'
    open_all = len(result.runs) <= 60
    cases_html = []
    for case in result.cases:
        chips = []
        for name in result.strategies:
            run = result.run_for(case.id, name)
            if run is not None:
                lvl = run.risk_level if run.risk_level in ("low", "moderate", "high") else "high"
                chips.append(f'<span class="chip {lvl}" title="{_e(name)}: risk {run.risk_score:.2f}">{_e(name)}</span>')
        sources = "".join(f'<div><span class="sid">[{_e(s.id)}]</span> {_e(s.text)}</div>' for s in case.contexts)
        kw = (
            '<p class="kw small">Expected keywords: ' + " ".join(f"<code>{_e(k)}</code>" for k in case.expected_keywords) + "</p>"
            if case.expected_keywords else ""
        )
        runs = "".join(
            _run_html(run, len(case.expected_keywords))
            for run in (result.run_for(case.id, n) for n in result.strategies)
            if run is not None
        )
        cases_html.append(
            f'<details class="case"{" open" if open_all else ""}><summary><span class="cid">{_e(case.id)}</span>'
            f"<h3>{_e(case.question)}</h3><span class=\"chips\">{''.join(chips)}</span></summary>"
            f'<div class="case-body"><div class="sources">{sources}</div>{kw}{runs}</div></details>'
        )
    explain = (
        '<p class="small">Hallucination risk is the checker\'s risk score of the final answer (the last step of a '
        "reasoning answer, the <code>answer</code> field of a JSON one); a failed or empty answer counts as risk 1. "
        "Citation rate is the share of answers with at least one valid citation of a source id.</p>"
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Prompt strategy A/B test — {_e(best)}</title><style>{_CSS}</style></head><body><main>"
        f"<h1>Prompt strategy A/B test</h1>{meta}"
        f'<div class="reco"><b>Recommendation.</b> {_e(_recommendation(result))}</div>'
        f'<h2>Results</h2><div class="scroll">{table}</div><p class="formula">{_e(_formula(result))}</p>{explain}'
        f"{charts_html}<h2>Answers</h2>{_legend(result)}{''.join(cases_html)}"
        "</main></body></html>\n"
    )


