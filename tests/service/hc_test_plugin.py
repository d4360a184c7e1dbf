"""Registered in the test server with HALLUCHECK_PLUGINS: a fixed, simple policy so API tests do
not depend on which policies are shipped (they test the service, not the verdicts), and a
detector that marks the word "FABRICATED" so tests know exactly which span is flagged, and one
that takes as long as the case's ``metadata.sleep`` says (deadline and admission tests)."""

from __future__ import annotations

import re
import time

from hallucheck.detectors import BaseDetector, register
from hallucheck.policies import Verdict, decision_for, level_for, register_policy
from hallucheck.types import Evidence, Finding, Span

__all__ = ["MarkerDetector", "MaxPolicy", "SleepDetector"]


class MaxPolicy:
    """Risk = the highest detector risk."""

    name = "test_max"

    def decide(self, analysis, findings):  # type: ignore[no-untyped-def]
        risk = max((f.risk for f in findings), default=0.0)
        level = level_for(risk)
        return Verdict(hallucinated=risk > 0.5, risk_score=risk, risk_level=level, decision=decision_for(level))

    def escalate(self, analysis, findings, next_layer):  # type: ignore[no-untyped-def]
        return True


@register
class MarkerDetector(BaseDetector):
    name = "test_marker"
    layer = 2

    def _detect(self, analysis):  # type: ignore[no-untyped-def]
        answer = analysis.case.answer
        spans = [
            Span(start=m.start(), end=m.end(), text=m.group(0), label="fabrication", score=0.9, detector=self.name,
                 reason="the marker word is not in any source",
                 evidence=[Evidence(source_id=analysis.case.contexts[0].id, text=analysis.case.contexts[0].text[:80],
                                    relation="nearest", score=0.1)])
            for m in re.finditer(r"FABRICATED", answer)
        ]
        risk = 0.9 if spans else 0.05
        return Finding(detector=self.name, risk=risk, spans=spans, flagged=bool(spans))


@register
class SleepDetector(BaseDetector):
    """Busy for ``metadata["sleep"]`` seconds (0 when absent): a stand-in for a slow model."""

    name = "test_sleep"
    layer = 2

    def _detect(self, analysis):  # type: ignore[no-untyped-def]
        time.sleep(float(analysis.case.metadata.get("sleep", 0)))
        return Finding(detector=self.name, risk=0.0, flagged=False)


register_policy("test_max", f"{__name__}:MaxPolicy")
