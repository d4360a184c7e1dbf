"""Two-step prompting (detection guideline, after Datadog): a strong model critiques the answer freely, a
small model turns the critique into the judge's JSON.

Why two steps: asking for JSON up front makes models commit to a verdict before reasoning, while
free text invites self-criticism and several readings; the formatting step is cheap and can run on
a small model. The sources are presented as "expert advice" and the answer as a "candidate
answer", which makes the asymmetry explicit: the advice is the authority.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.llm.judge_finding import judge_details
from hallucheck.detectors.llm.llm_base import LLMDetector
from hallucheck.detectors.llm.llm_judge import echoes_example, judge_windows
from hallucheck.detectors.llm.schemas import JudgeOutput
from hallucheck.llm.base import LLMError, Message
from hallucheck.llm.judge_text import judge_from_text
from hallucheck.llm.session import BudgetExhausted, LLMSession
from hallucheck.llm.structured import StructuredResult
from hallucheck.prompts import render
from hallucheck.types import Finding, Role

__all__ = ["TwoStepDetector"]


class TwoStepDetector(LLMDetector):
    """``strong_llm`` writes the critique, ``small_llm`` structures it; with only one of them (or
    only ``llm``) the same client does both."""

    name: ClassVar[str] = "two_step"

    role: ClassVar[Role] = "llm_judge"

    def __init__(self, llm: Any = None, *, strong_llm: Any = None, small_llm: Any = None,
                 critique_max_tokens: int = 1024, **options: Any) -> None:
        strong = strong_llm or llm or small_llm
        super().__init__(strong, **options)
        self.strong_llm = strong
        self.small_llm = small_llm or strong
        self.critique_max_tokens = critique_max_tokens

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        strong = LLMSession(self.strong_llm, analysis.facts)
        small = LLMSession(self.small_llm, analysis.facts)
        question = analysis.case.question
        critiques: list[str] = []

        def ask(_: LLMSession, text: str, sources: list[dict[str, str]], language: str) -> Any:
            prompt = render("two_step/critique", language, question=question, sources=sources, answer=text)
            try:
                critique = strong.complete([Message("user", prompt)], **self.settings(max_tokens=self.critique_max_tokens))
            except BudgetExhausted as exc:
                return StructuredResult(None, "budget", str(exc))
            except LLMError as exc:
                return StructuredResult(None, "llm_error", f"critique step: {exc}")
            if not critique.text.strip():
                return StructuredResult(None, "empty", "the critique step returned an empty reply")
            critiques.append(critique.text)
            structure = render("two_step/structure", language, answer=text, critique=critique.text)
            return small.structured([Message("user", structure)], JudgeOutput, reask=self.reask,
                                    check=echoes_example, fallback=judge_from_text, **self.settings())

        verdicts, unchecked, notes, failure = judge_windows(self, analysis, strong, ask)
        cost = strong.cost.add(small.cost)
        if not verdicts:
            stage, error, raw = failure or ("empty", "nothing to judge", "")
            finding = self.failure(strong, stage, error, raw, notes)
            finding.cost = cost
            if critiques:
                finding.details["critique"] = "\n\n".join(critiques)[:4000]
            return finding
        judged = judge_details(self.name, analysis, verdicts, self.threshold)
        notes.extend(judged.notes)
        details = judged.details
        details["critique"] = "\n\n".join(critiques)[:8000]
        details["models"] = {"critique": getattr(self.strong_llm, "model", ""), "structure": getattr(self.small_llm, "model", "")}
        if strong.budget_hit or small.budget_hit:
            details["budget_hit"] = True
            notes.append("LLM call budget spent before the whole answer was judged")
        return Finding(detector=self.name, risk=min(1.0, max(0.0, judged.risk)), flagged=judged.flagged,
                       features=judged.features, spans=judged.spans, notes=notes, details=details,
                       cost=cost, coverage=self.coverage(analysis, unchecked, "not judged by the LLM"))
