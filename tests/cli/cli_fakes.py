"""Small stand-in detectors and a policy, so CLI and evaluation tests do not depend on the real ones.

``fake_words`` flags every answer word that the sources do not contain; ``fake_any`` calls an
answer hallucinated when any detector flagged it. Registered under their own names, never
shadowing the built-in ones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import BaseDetector, register
from hallucheck.policies import Verdict, decision_for, level_for, register_policy
from hallucheck.types import Evidence, Finding, Span

__all__ = ["CASE", "TINY_RECORDS", "write_jsonl", "FakeWordsDetector", "AnyPolicy", "NeverPolicy", "FirstSpanPolicy", "CrashDetector"]

CASE = {
    "question": "When was the company founded?",
    "contexts": ["The company was founded in 2010 in Paris."],
    "answer": "The company was founded in 2010 in Paris by Jean Dupont.",
}

# A tiny labelled data set whose metrics under fake_words + fake_any are known by hand:
TINY_RECORDS = [
    # gold "green" [11,16): predicted "green" -> TP, exact span
    {"id": "1", "contexts": ["The sky is blue."], "answer": "The sky is green.", "spans": [{"start": 11, "end": 16}], "task": "qa"},
    # grounded, nothing predicted -> TN
    {"id": "2", "contexts": ["Paris is in France."], "answer": "Paris is in France.", "label": False, "task": "qa"},
    # not labelled but "Lyon" is new -> FP with 4 predicted chars
    {"id": "3", "contexts": ["Paris is big."], "answer": "Lyon is big.", "label": False, "task": "summary"},
    # labelled [0,5) but every word is in the source -> FN
    {"id": "4", "contexts": ["Cats purr."], "answer": "Cats purr.", "spans": [{"start": 0, "end": 5}], "task": "summary"},
]


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write ``records`` as JSON Lines to ``path`` and return it."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


_WORD = re.compile(r"\w+")


@register
class FakeWordsDetector(BaseDetector):
    name = "fake_words"
    layer = 2

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        answer = analysis.case.answer
        known = {w.lower() for w in _WORD.findall(analysis.case.source_text)}
        words = list(_WORD.finditer(answer))
        spans = [
            Span(
                start=m.start(),
                end=m.end(),
                text=m.group(),
                label="baseless",
                score=0.9,
                detector=self.name,
                reason=f"{m.group()!r} is not in the sources",
                evidence=[Evidence(source_id="1", text=analysis.case.contexts[0].text[:80], relation="nearest")],
            )
            for m in words
            if m.group().lower() not in known
        ]
        risk = len(spans) / len(words) if words else 0.0
        return Finding(detector=self.name, risk=risk, spans=spans, flagged=bool(spans), features={"novel": risk},
                       details={"novel_words": [s.text for s in spans]})


@register
class CrashDetector(BaseDetector):
    name = "fake_crash"
    layer = 1

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        raise RuntimeError("boom")


class AnyPolicy:
    name = "fake_any"

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        risk = max((f.risk for f in findings), default=0.0)
        flagged = any(f.flagged for f in findings)
        level = level_for(risk) if flagged else "low"
        return Verdict(hallucinated=flagged, risk_score=risk, risk_level=level, decision=decision_for(level))

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        return True


class NeverPolicy(AnyPolicy):
    """Accepts everything: a second policy to compare with in one pass."""

    name = "fake_never"

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        return Verdict(hallucinated=False, risk_score=0.0, risk_level="low", decision="accept")


class FirstSpanPolicy(AnyPolicy):
    """Like fake_any, but keeps only the first span of all findings (a policy choosing its spans)."""

    name = "fake_first_span"

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        verdict = super().decide(analysis, findings)
        spans = sorted((s for f in findings for s in f.spans), key=lambda s: s.start)[:1]
        verdict.spans = spans
        return verdict


register_policy("fake_any", "cli_fakes:AnyPolicy")
register_policy("fake_first_span", "cli_fakes:FirstSpanPolicy")
register_policy("fake_never", "cli_fakes:NeverPolicy")
