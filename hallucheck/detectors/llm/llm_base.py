"""What every LLM detector shares: the client, the call budget, prompt inputs and failure findings.

Why one base: each LLM detector must behave the same way when things go wrong — no backend
(skipped by the Checker), budget spent (stop and say so), backend down or nonsense answer (a
Finding with ``error`` and a note, never an exception) — and must bound its prompts (long answers
are judged in sentence-aligned windows and what was not judged is reported as Coverage).
"""

from __future__ import annotations

from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.llm.session import LLMSession
from hallucheck.types import Coverage, Finding

__all__ = ["LLMDetector", "FEATURE_NAMES"]

FEATURE_NAMES = ("llm_ok", "llm_risk", "llm_score", "llm_confidence", "claims_total", "claims_unsupported_frac",
                 "claims_hallucination", "claims_contradiction", "claims_extrapolation", "notes_unsupported")


class LLMDetector(BaseDetector):
    """Base of the layer-5 detectors. ``llm`` is any LLMClient (the Checker passes its own)."""

    layer: ClassVar[int] = 5
    needs_llm: ClassVar[bool] = True

    def __init__(
        self,
        llm: Any = None,
        *,
        language: str | None = None,
        max_source_chars: int = 24_000,
        max_answer_chars: int = 6_000,
        max_tokens: int | None = None,
        reask: bool = True,
        threshold: float = 0.5,
    ) -> None:
        if self.needs_llm and llm is None:
            raise ValueError(f"the {self.name} detector needs an LLM client (llm=...)")
        self.llm = llm
        self.language = language
        self.max_source_chars = max_source_chars
        self.max_answer_chars = max_answer_chars
        self.max_tokens = max_tokens
        self.reask = reask
        self.threshold = threshold

    def __repr__(self) -> str:
        return f"{type(self).__name__}(llm={self.llm!r})"

    # ---- inputs -------------------------------------------------------------------------------

    def prompt_language(self, analysis: CaseAnalysis) -> str:
        return self.language or analysis.language or "en"

    def session(self, analysis: CaseAnalysis) -> LLMSession:
        return LLMSession(self.llm, analysis.facts)

    def settings(self, **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"temperature": 0.0}
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        out.update(extra)
        return out

    def prompt_sources(self, analysis: CaseAnalysis) -> tuple[list[dict[str, str]], list[str]]:
        """Sources for a prompt, each shortened proportionally when all of them exceed
        ``max_source_chars`` (with a note saying so: the judge saw less than everything)."""
        srcs = [{"id": s.id, "text": s.text} for s in analysis.case.contexts]
        total = sum(len(s["text"]) for s in srcs)
        if total <= self.max_source_chars or total == 0:
            return srcs, []
        keep = self.max_source_chars / total
        for s in srcs:
            cut = max(200, int(len(s["text"]) * keep))
            if cut < len(s["text"]):
                s["text"] = s["text"][:cut] + " […]"
        return srcs, [f"sources shortened from {total} to about {self.max_source_chars} characters for the LLM prompt"]

    def answer_windows(self, analysis: CaseAnalysis) -> list[tuple[int, int]]:
        """Sentence-aligned pieces of the answer, each at most ``max_answer_chars`` long."""
        answer = analysis.case.answer
        if len(answer) <= self.max_answer_chars:
            return [(0, len(answer))]
        windows: list[tuple[int, int]] = []
        start = 0
        end = 0
        for seg in analysis.sentences:
            if seg.end - start > self.max_answer_chars and end > start:
                windows.append((start, end))
                start = seg.start
            end = seg.end
            while end - start > self.max_answer_chars:  # one very long sentence
                windows.append((start, start + self.max_answer_chars))
                start += self.max_answer_chars
        if end > start:
            windows.append((start, max(end, len(answer.rstrip()))))
        return windows or [(0, len(answer))]

    @staticmethod
    def coverage(analysis: CaseAnalysis, unchecked: list[tuple[int, int]], why: str) -> Coverage | None:
        if not unchecked:
            return None
        n = len(analysis.case.answer)
        missed = sum(b - a for a, b in unchecked)
        return Coverage(answer_chars=n, checked_chars=max(0, n - missed), unchecked=unchecked, note=why)

    # ---- outputs ------------------------------------------------------------------------------

    def empty_features(self) -> dict[str, float]:
        """The detector's feature names with neutral values, for findings where the LLM did not run."""
        return {k: 0.0 for k in FEATURE_NAMES}

    def failure(self, session: LLMSession, stage: str, error: str | None, raw: str = "",
                notes: list[str] | None = None) -> Finding:
        """The Finding of a detector whose LLM step did not produce a usable answer."""
        features = self.empty_features()
        details: dict[str, Any] = {"stage": stage}
        if raw:
            details["raw"] = raw[:2000]
        out_notes = list(notes or [])
        if stage == "budget":
            details["budget_hit"] = True
            out_notes.append("LLM call budget spent: not checked by the LLM")
            return Finding(detector=self.name, risk=0.0, flagged=False, features=features, ran=False, notes=out_notes,
                           details=details, cost=session.cost)
        msg = {
            "llm_error": "the LLM backend failed",
            "empty": "the LLM returned an empty reply",
            "no_json": "the LLM reply contained no usable JSON",
            "invalid": "the LLM reply did not fit the expected format",
        }.get(stage, "the LLM step failed")
        out_notes.append(f"{msg}: {error}" if error else msg)
        return Finding(detector=self.name, risk=0.0, flagged=False, features=features, ran=False, notes=out_notes,
                       details=details, cost=session.cost, error=f"{stage}: {error}" if error else stage)
