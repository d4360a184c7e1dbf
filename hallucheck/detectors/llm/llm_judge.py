"""LLM-as-a-judge: claim-by-claim labels with quotes mapped to answer offsets, the detection guideline's
evaluation fields and five dimensions, and the RAG prompting guide's detector summary — in one call per answer
window.

``style="claims"`` (default) asks for everything (prompt ``judge/claims``); ``style="evaluation"``
asks only for the detection guideline's evaluation JSON (prompt ``judge/evaluation``: shorter output, spans only
from ``problematic_segments``). The prompt is chosen by the case language (English fallback).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.llm.judge_finding import JudgeWindow, judge_details
from hallucheck.detectors.llm.llm_base import LLMDetector
from hallucheck.detectors.llm.schemas import JudgeOutput
from hallucheck.llm.base import Message
from hallucheck.llm.judge_text import judge_from_text
from hallucheck.llm.session import LLMSession
from hallucheck.prompts import render
from hallucheck.types import Finding, Role

__all__ = ["LLMJudgeDetector", "judge_windows", "echoes_example"]

_SYSTEM = "You are a careful fact-checker. You answer with one JSON object only."
# Texts of the example in the prompts: a reply that repeats them has not judged anything.
_EXAMPLE_TEXTS = frozenset({"exact words from the answer", "exact words from the candidate answer", "回答中的原文",
                            "候选答案中的原文", "overall assessment", "总体评估", "總體評估", "..."})


def echoes_example(value: JudgeOutput) -> str | None:
    """Why a parsed verdict is a copy of the prompt's example (small models do this), or None."""
    quotes = [c.quote.strip() for c in value.claims]
    if any(q in _EXAMPLE_TEXTS for q in quotes) or value.reasoning.strip() in _EXAMPLE_TEXTS - {"..."}:
        return "the reply repeats the example from the prompt instead of judging the answer"
    return None


def judge_windows(det: LLMDetector, analysis: CaseAnalysis, session: LLMSession,
                  ask: Any) -> tuple[list[JudgeWindow], list[tuple[int, int]], list[str], tuple[str, str, str] | None]:
    """Run ``ask(session, window_text, sources, language) -> StructuredResult`` on each answer
    window; returns verdicts, unchecked windows, notes and the first failure (stage, error, raw)."""
    sources, notes = det.prompt_sources(analysis)
    language = det.prompt_language(analysis)
    verdicts: list[JudgeWindow] = []
    unchecked: list[tuple[int, int]] = []
    failure: tuple[str, str, str] | None = None
    windows = det.answer_windows(analysis)
    for i, (ws, we) in enumerate(windows):
        text = analysis.plain_answer(ws, we)
        if not text.strip():
            continue
        result = ask(session, text, sources, language)
        if result.ok:
            verdicts.append((ws, we, result.value))
            if result.repaired:
                notes.append("the judge's JSON needed repair")
            if result.reasked:
                notes.append("the judge was asked once more for valid JSON")
            continue
        failure = failure or (result.stage, result.error or "", result.raw)
        if result.stage == "budget":
            unchecked.extend(windows[i:])
            break
        unchecked.append((ws, we))
        if len(windows) > 1:
            notes.append(f"answer characters {ws}-{we} not judged: {result.stage}: {result.error}")
    if len(windows) > 1:
        notes.append(f"long answer judged in {len(windows)} windows")
    return verdicts, unchecked, notes, failure


class LLMJudgeDetector(LLMDetector):
    name: ClassVar[str] = "llm_judge"
    role: ClassVar[Role] = "llm_judge"

    def __init__(self, llm: Any = None, *, style: Literal["claims", "evaluation"] = "claims", **options: Any) -> None:
        super().__init__(llm, **options)
        if style not in ("claims", "evaluation"):
            raise ValueError("style must be 'claims' or 'evaluation'")
        self.style = style

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        session = self.session(analysis)
        question = analysis.case.question

        def ask(s: LLMSession, text: str, sources: list[dict[str, str]], language: str) -> Any:
            prompt = render(f"judge/{self.style}", language, question=question, sources=sources, answer=text)
            return s.structured([Message("system", _SYSTEM), Message("user", prompt)], JudgeOutput,
                                reask=self.reask, check=echoes_example, fallback=judge_from_text, **self.settings())

        verdicts, unchecked, notes, failure = judge_windows(self, analysis, session, ask)
        if not verdicts:
            stage, error, raw = failure or ("empty", "nothing to judge", "")
            return self.failure(session, stage, error, raw, notes)
        judged = judge_details(self.name, analysis, verdicts, self.threshold)
        notes.extend(judged.notes)
        details = judged.details
        details["style"] = self.style
        if session.budget_hit:
            details["budget_hit"] = True
            notes.append("LLM call budget spent before the whole answer was judged")
        return Finding(detector=self.name, risk=min(1.0, max(0.0, judged.risk)), flagged=judged.flagged,
                       features=judged.features, spans=judged.spans, notes=notes, details=details,
                       cost=session.cost, coverage=self.coverage(analysis, unchecked, "not judged by the LLM"))
