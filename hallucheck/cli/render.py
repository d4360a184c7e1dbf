"""The human-readable view of a report: the answer with its flagged spans marked, then why.

Layout: a header with the verdict, the question, the answer with every flagged span coloured
by label and numbered, a legend of the labels that occur, one row per span (label, detector,
score, reason, evidence), and finally citations and notes. Colours are backed by numbers and
underlines so the view still reads without colour (``NO_COLOR``, pipes).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

__all__ = ["LABEL_STYLES", "LEVEL_STYLES", "marked_answer", "render_report"]

LABEL_STYLES: dict[str, str] = {
    "contradiction": "bold white on red3",
    "fabrication": "bold black on orange1",
    "baseless": "black on yellow3",
    "distortion": "black on plum2",
    "extrapolation": "black on light_goldenrod2",
    "invalid_citation": "bold white on magenta",
    "uncited": "underline cyan",
    "speculation": "italic underline sky_blue1",
}
LABEL_HELP: dict[str, str] = {
    "contradiction": "conflicts with the sources",
    "fabrication": "invented, not in the sources",
    "baseless": "not supported by the sources",
    "distortion": "changes what the sources say",
    "extrapolation": "goes beyond the sources",
    "invalid_citation": "cites a source that does not exist, or one that does not say it",
    "uncited": "long claim without a citation",
    "speculation": "speculative wording",
}
LEVEL_STYLES: dict[str, str] = {"low": "bold green", "moderate": "bold yellow", "high": "bold red"}
_DECISION_WORDS = {"accept": "accept", "review": "review by a person", "reject": "reject / regenerate"}


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _superscript(k: int) -> str:
    """Span numbers as superscripts, so they cannot be confused with citation markers like [1]."""
    return str(k).translate(_SUPERSCRIPT)


def marked_answer(answer: str, spans: list[Any]) -> Text:
    """The answer as rich Text, each span styled by label and followed by its number."""
    out = Text()
    pos = 0
    for k, span in enumerate(sorted(spans, key=lambda s: s.start), start=1):
        start, end = max(span.start, pos), min(span.end, len(answer))
        if start >= end:
            continue
        out.append(answer[pos:start])
        out.append(answer[start:end], style=LABEL_STYLES.get(span.label, "reverse"))
        out.append(_superscript(k), style="bold")
        pos = end
    out.append(answer[pos:])
    return out


def _short_reason(reason: str) -> str:
    """A merged span's reasons (joined by "; ") each clipped, so every detector's reason shows its start."""
    if not reason:
        return ""
    parts = [p.strip() for p in reason.split("; ") if p.strip()]
    shown = [_clip(p, 110) for p in parts[:3]]
    if len(parts) > 3:
        shown.append(f"(+{len(parts) - 3} more)")
    return "\n".join(shown)


def _verdict(report: Any) -> Text:
    level = report.risk_level
    style = LEVEL_STYLES.get(level, "bold")
    text = Text()
    if report.hallucinated:
        word = "HALLUCINATED"
    elif report.decision == "review":
        word = "UNCERTAIN"  # not called hallucinated, but not safe to accept unseen either
    else:
        word = "GROUNDED"
    text.append(word, style=style)
    text.append(f"   risk {report.risk_score:.2f} ")
    text.append(f"({level})", style=style)
    text.append(f"   → {_DECISION_WORDS.get(report.decision, report.decision)}")
    return text


def _legend(spans: list[Any]) -> Text:
    text = Text("Legend: ", style="bold")
    for label in dict.fromkeys(s.label for s in spans):
        text.append(f" {label} ", style=LABEL_STYLES.get(label, "reverse"))
        text.append(f" {LABEL_HELP.get(label, '')}   ", style="dim")
    return text


def _span_table(spans: list[Any]) -> Table:
    table = Table(show_header=True, header_style="bold", expand=True, show_lines=True)
    table.add_column("#", justify="right", width=3, no_wrap=True)
    table.add_column("label", no_wrap=True)
    table.add_column("span", ratio=2)
    table.add_column("why", ratio=3)
    table.add_column("evidence", ratio=3)
    first_with: dict[str, int] = {}  # a sentence-level reason is shown once, then referred to
    for k, span in enumerate(sorted(spans, key=lambda s: s.start), start=1):
        evidence = Text()
        shown = list(dict.fromkeys((ev.relation, ev.source_id, ev.text) for ev in span.evidence))[:2]
        key = repr(shown)
        if shown and key in first_with:
            evidence.append(f"as #{first_with[key]}", style="dim")
        else:
            if shown:
                first_with[key] = k
            for relation, source_id, text in shown:
                who = f"[{source_id}] " if source_id else ""
                evidence.append(f"{relation} ", style="italic dim")
                evidence.append(f"{who}{_clip(text, 160)}\n")
        if span.reason and span.reason in first_with:
            reason = Text(f"as #{first_with[span.reason]}", style="dim")
        else:
            reason = Text(_short_reason(span.reason))
            if span.reason:
                first_with[span.reason] = k
        reason.append(f"\n{span.detector} · {span.score:.2f}", style="dim")
        table.add_row(
            str(k),
            Text(span.label, style=LABEL_STYLES.get(span.label, "")),
            _clip(span.text, 120),
            reason,
            evidence if evidence.plain else Text("—", style="dim"),
        )
    return table


def render_report(console: Console, case: Any, report: Any, title: str | None = None) -> None:
    """Print ``report`` for ``case`` to ``console`` (see the module docstring for the layout)."""
    parts: list[Any] = []
    header = Text()
    header.append(f"language {report.language or '?'} · task {report.task} · policy {report.policy}", style="dim")
    parts.append(header)
    if case.question:
        q = Text("Question: ", style="bold")
        q.append(_clip(case.question, 400))
        parts.append(q)
    sources = Text("Sources: ", style="bold")
    sources.append(", ".join(f"[{s.id}] {_clip(s.text, 60)}" for s in case.contexts[:4]))
    if len(case.contexts) > 4:
        sources.append(f" … (+{len(case.contexts) - 4} more)")
    parts.append(sources)
    parts.append(Text("Answer:", style="bold"))
    parts.append(marked_answer(case.answer, report.spans) if case.answer else Text("(empty)", style="dim"))
    console.print(
        Panel(
            Group(*parts),
            title=Text(title or "hallucheck", style="bold"),
            subtitle=_verdict(report),
            border_style=LEVEL_STYLES.get(report.risk_level, "white").replace("bold ", ""),
            padding=(1, 2),
        )
    )
    if report.spans:
        console.print(_legend(report.spans))
        console.print(_span_table(report.spans))
    else:
        console.print(Text("No span flagged.", style="green"))
    if report.citations is not None and report.citations.applied:
        c = report.citations
        line = Text("Citations: ", style="bold")
        line.append(
            f"{len(c.valid)} valid, {len(c.invalid)} invalid"
            + (f" ({', '.join(c.invalid)})" if c.invalid else "")
            + f", {c.claims} claims, ratio {c.ratio:.2f}, {c.uncited_count} uncited sentences"
        )
        console.print(line)
    if report.findings:
        risks = Text("Detectors: ", style="bold")
        risks.append(
            "  ".join(
                f"{f.detector} {f.risk:.2f}{'!' if f.flagged else ''}" + (" (failed)" if f.error else "")
                for f in report.findings
            )
        )
        risks.append("   (! = flagged by the detector itself)", style="dim")
        console.print(risks)
    for note in report.notes[:8]:
        console.print(Text(f"• {note}", style="dim"))
    total = report.timings_ms.get("total")
    if total is not None:
        console.print(Text(f"checked in {total:.1f} ms", style="dim"))
