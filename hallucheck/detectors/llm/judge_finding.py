"""Turn a judge's verdict (per-claim labels, evaluation fields, detector summary) into a Finding.

Shared by ``llm_judge`` and ``two_step``. Quotes are placed with
:func:`hallucheck.detectors.llm.quotes.locate_quote`; claims that cannot be placed stay in
``details["unmatched_quotes"]`` and never become spans. ``Finding.risk`` is the judge's
``hallucination_risk``; when the judge gave none, it is derived from the claim labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.llm.quotes import locate_quote
from hallucheck.detectors.llm.schemas import JudgeOutput
from hallucheck.text.unsupported import notes_state_unsupported
from hallucheck.types import Evidence, Label, Span

__all__ = ["JudgeWindow", "JudgeResult", "judge_details", "LABEL_WEIGHT", "decision_for_risk"]

LABEL_WEIGHT = {"HALLUCINATION": 0.85, "CONTRADICTION": 0.9, "EXTRAPOLATION": 0.6, "SUPPORTED": 0.0}
_SPAN_LABEL: dict[str, Label] = {"HALLUCINATION": "baseless", "CONTRADICTION": "contradiction",
                                 "EXTRAPOLATION": "extrapolation"}
_TYPE_LABEL: dict[str, Label] = {"fabrication": "fabrication", "distortion": "distortion",
                                 "extrapolation": "extrapolation", "contradiction": "contradiction"}

JudgeWindow = tuple[int, int, JudgeOutput]  # answer window [start, end) and the verdict on it


@dataclass
class JudgeResult:
    """What the judge's verdicts amount to: the Finding's typed fields plus free-form details."""

    risk: float
    spans: list[Span]
    flagged: bool
    features: dict[str, float]
    details: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def decision_for_risk(risk: float) -> str:
    """The detection guideline's agent actions: low → synthesize, moderate → refine_search, high → continue."""
    return "continue" if risk > 0.6 else "refine_search" if risk > 0.3 else "synthesize"


def _sources_by_id(analysis: CaseAnalysis) -> dict[str, str]:
    return {s.id: s.text for s in analysis.case.contexts}


def _claim_spans(detector: str, analysis: CaseAnalysis, sources: dict[str, str], ws: int, we: int, out: JudgeOutput,
                 spans: list[Span], claims_out: list[dict[str, Any]], unmatched: list[dict[str, str]],
                 covered: list[tuple[int, int]]) -> None:
    """Place each claim of one window's verdict in the answer; unsupported ones become spans.

    Quotes are searched in order (each from where the last one was found), so a phrase repeated
    in the answer maps to the occurrence the judge meant.
    """
    window = analysis.answer[ws:we]
    hint = 0
    conf = out.confidence if out.confidence is not None else 0.8
    span_label_default = _TYPE_LABEL.get(out.type or "", None)
    for c in out.claims:
        m = locate_quote(window, c.quote, hint)
        entry: dict[str, Any] = {"quote": c.quote, "label": c.label, "reason": c.reason, "source_id": c.source_id}
        if m is None:
            entry.update(start=None, end=None, match="none")
            claims_out.append(entry)
            if c.quote.strip():
                unmatched.append({"quote": c.quote, "label": c.label})
            continue
        s, e = ws + m.start, ws + m.end
        hint = m.end
        entry.update(start=s, end=e, match=m.method)
        claims_out.append(entry)
        if c.label == "SUPPORTED":
            continue
        label = _SPAN_LABEL[c.label]
        if c.label == "HALLUCINATION" and span_label_default in ("fabrication", "distortion"):
            label = span_label_default
        evidence = []
        if c.source_id and c.source_id in sources:
            text = c.evidence or sources[c.source_id][:500]
            evidence.append(Evidence(source_id=c.source_id, text=text,
                                     relation="contradicts" if c.label == "CONTRADICTION" else "nearest"))
        score = round(min(1.0, LABEL_WEIGHT[c.label] * (0.5 + 0.5 * conf)), 4)
        spans.append(Span(start=s, end=e, text=analysis.case.answer[s:e], label=label, score=score, detector=detector,
                          reason=c.reason or c.label.lower(), evidence=evidence))
        covered.append((s, e))


def _segment_spans(detector: str, analysis: CaseAnalysis, ws: int, we: int, out: JudgeOutput, spans: list[Span],
                   unmatched: list[dict[str, str]], covered: list[tuple[int, int]]) -> None:
    """Spans for the problematic segments the judge named that no claim span already covers."""
    window = analysis.answer[ws:we]
    conf = out.confidence if out.confidence is not None else 0.8
    for seg in out.problematic_segments:
        m = locate_quote(window, seg)
        if m is None:
            unmatched.append({"quote": seg, "label": "problematic_segment"})
            continue
        s, e = ws + m.start, ws + m.end
        if any(a <= s and e <= b for a, b in covered):
            continue
        spans.append(Span(start=s, end=e, text=analysis.case.answer[s:e], label=_TYPE_LABEL.get(out.type or "", None) or "baseless",
                          score=round(0.6 * (0.5 + 0.5 * conf), 4), detector=detector,
                          reason=out.hallucination_notes[:300] or "problematic segment named by the judge"))
        covered.append((s, e))


def judge_details(detector: str, analysis: CaseAnalysis, verdicts: list[JudgeWindow],
                  threshold: float) -> JudgeResult:
    """Risk, spans, verdict and features from the verdicts on the answer windows that were judged."""
    sources = _sources_by_id(analysis)
    spans: list[Span] = []
    claims_out: list[dict[str, Any]] = []
    unmatched: list[dict[str, str]] = []
    counts = {k: 0 for k in LABEL_WEIGHT}
    covered: list[tuple[int, int]] = []
    risks: list[float] = []
    notes: list[str] = []
    derived = 0.0
    for ws, we, out in verdicts:
        first, n_spans = len(claims_out), len(spans)
        _claim_spans(detector, analysis, sources, ws, we, out, spans, claims_out, unmatched, covered)
        _segment_spans(detector, analysis, ws, we, out, spans, unmatched, covered)
        # A claim whose quote is not in the answer is no evidence about it: kept in details, it
        # counts for nothing, and a risk resting only on such claims falls to the placed ones'.
        placed = claims_out[first:]
        kept = [e for e in placed if e["start"] is not None]
        dropped = [e for e in placed if e["start"] is None and e["label"] != "SUPPORTED"]
        for e in placed:
            if e["start"] is not None or e["label"] == "SUPPORTED":
                counts[e["label"]] += 1
        window_derived = max((LABEL_WEIGHT[e["label"]] for e in kept), default=0.0)
        derived = max(derived, window_derived)
        window_risk = out.hallucination_risk if out.hallucination_risk is not None else window_derived
        if dropped and len(spans) == n_spans and window_risk > window_derived:
            window_risk = window_derived
        if dropped:
            notes.append(f"{len(dropped)} judge claim(s) quoting text that is not in the answer were dropped")
        risks.append(window_risk)
    risk = max(risks) if risks else 0.0
    main = max(verdicts, key=lambda v: v[2].hallucination_risk or 0.0)[2] if verdicts else None
    total = sum(counts.values())
    unsupported = total - counts["SUPPORTED"]

    def pick(attr: str) -> Any:
        return getattr(main, attr) if main is not None else None

    dims: dict[str, float | None] = {k: None for k in ("completeness", "relevance", "answer_quality",
                                                       "citation_quality", "hallucination")}
    for key in dims:
        vals = [getattr(v[2].dimensions, key) for v in verdicts if getattr(v[2].dimensions, key) is not None]
        if vals:
            dims[key] = min(vals) if key != "hallucination" else max(vals)
    notes_text = "\n".join(v[2].hallucination_notes for v in verdicts if v[2].hallucination_notes)
    details: dict[str, Any] = {
        "score": pick("score"),
        "reasoning": "\n".join(v[2].reasoning for v in verdicts if v[2].reasoning),
        "confidence": pick("confidence"),
        "decision": pick("decision") or decision_for_risk(risk),
        "hallucination_risk": risk,
        "hallucination_notes": notes_text,
        "dimensions": dims,
        "type": pick("type") or ("none" if unsupported == 0 else None),
        "problematic_segments": [s for v in verdicts for s in v[2].problematic_segments],
        "grounded_segments": [s for v in verdicts for s in v[2].grounded_segments],
        "explanation": "\n".join(v[2].explanation for v in verdicts if v[2].explanation),
        "claims": claims_out,
        "unmatched_quotes": unmatched,
        "claims_risk": derived,
    }
    features = {
        "llm_ok": 1.0,
        "llm_risk": float(risk),
        "llm_score": float(pick("score") if pick("score") is not None else 1.0 - risk),
        "llm_confidence": float(pick("confidence") if pick("confidence") is not None else 0.5),
        "claims_total": float(total),
        "claims_unsupported_frac": float(unsupported / total) if total else 0.0,
        "claims_hallucination": float(counts["HALLUCINATION"]),
        "claims_contradiction": float(counts["CONTRADICTION"]),
        "claims_extrapolation": float(counts["EXTRAPOLATION"]),
        "notes_unsupported": float(notes_state_unsupported(notes_text)),
    }
    return JudgeResult(risk=risk, spans=spans, flagged=bool(risk > threshold), features=features, details=details,
                       notes=notes)
