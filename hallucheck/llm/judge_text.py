"""Read a judge's verdict written as text instead of JSON (the format of the RAG detection guide's prompt).

Why: small models asked for JSON often answer in the line format they saw most in training —
``VERDICT: HAS_HALLUCINATIONS`` and ``- "quote": HALLUCINATION - reason`` — and a usable verdict
should not be thrown away for its format. This is a fallback used only when no JSON is found.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["judge_from_text"]

_LABEL = r"(SUPPORTED|HALLUCINATION|CONTRADICTION|EXTRAPOLATION)"
_LINE = re.compile(
    r"^\s*(?:[-*•]|\d+[.)])?\s*\[?[\"“「]?(?P<quote>[^\"”」\n]{2,}?)[\"”」]?\]?\s*[:：\-–—]+\s*\[?\*{0,2}" + _LABEL
    + r"\*{0,2}\]?(?:\s*[-–—:：]\s*(?P<reason>.*))?$",
    re.M | re.I,
)
_VERDICT = re.compile(r"VERDICT\s*[:：]\s*\[?\s*(CLEAN|HAS_HALLUCINATIONS|HAS_CONTRADICTIONS)", re.I)
_RISK = re.compile(r"hallucination[_ ]risk\s*[:：=]\s*([01](?:\.\d+)?)", re.I)


def judge_from_text(text: str) -> dict[str, Any] | None:
    """A dict for :class:`~hallucheck.detectors.llm.schemas.JudgeOutput`, or None when the text holds no
    labelled claim and no verdict line."""
    claims = []
    for m in _LINE.finditer(text or ""):
        label = m.group(2).upper()
        claims.append({"quote": m.group("quote").strip(), "label": label, "reason": (m.group("reason") or "").strip()})
    out: dict[str, Any] = {"claims": claims}
    risk = _RISK.search(text or "")
    verdict = _VERDICT.search(text or "")
    if risk:
        out["hallucination_risk"] = float(risk.group(1))
    elif verdict:
        out["hallucination_risk"] = 0.1 if verdict.group(1).upper() == "CLEAN" else 0.8
    if verdict:
        out["verdict"] = verdict.group(1).upper()
    if not claims and "hallucination_risk" not in out:
        return None
    summary = re.search(r"SUMMARY\s*[:：]\s*(.+)", text or "", re.S | re.I)
    if summary:
        out["explanation"] = summary.group(1).strip()[:2000]
    return out
