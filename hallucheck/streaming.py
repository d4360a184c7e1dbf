"""Checking an answer while it is being generated, sentence by sentence.

A chat front end receives an answer token by token; waiting for the whole answer before checking
it wastes the time (and the tokens) of a generation that went wrong in its first sentence.
``Checker.stream(question=, contexts=)`` returns a ``CheckStream``: ``feed(text)`` returns a
``SentenceCheck`` for every sentence the new text completed (found by the project's sentence
splitter, so 。！？ end sentences as . ! ? do), and ``close()`` returns the Report of the whole
answer, the same as ``Checker.check`` on it.

Each sentence is checked as an answer of its own against all the sources, in the answer's
language (given, or detected on the text so far) and with citations expected when the caller
said so or when the answer so far uses citation markers. That reads each sentence once, so a
long answer costs about one check of the answer for the sentences plus one for the report. The
per-sentence verdicts are early warnings; the Report from ``close()`` is the verdict.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from hallucheck.cases import MAX_ANSWER_CHARS, make_case
from hallucheck.errors import InputError
from hallucheck.text.citations import find_citations
from hallucheck.text.language import detect_language
from hallucheck.text.segments import Segment
from hallucheck.text.sentence_stream import SentenceBuffer
from hallucheck.types import Case, Decision, Label, Report, RiskLevel, Span

__all__ = ["CaseChecker", "CheckStream", "SentenceCheck", "stream_case"]

# Once the answer so far is this long, its detected language is kept for the later sentences
# (detecting again on a growing text would cost the whole text at every sentence).
_ENOUGH_TO_DETECT = 600


class CaseChecker(Protocol):
    """What a stream needs of a checker (``hallucheck.Checker`` is one): a Report for a whole case.
    A ``citations_expected`` attribute, where the checker has one, applies when the case does not say."""

    def check(self, case: Case) -> Report: ...


class SentenceCheck(BaseModel):
    """The verdict on one completed sentence; offsets index the whole answer."""

    index: int
    start: int
    end: int
    text: str
    hallucinated: bool
    risk_score: float = Field(ge=0.0, le=1.0)
    risk_level: RiskLevel
    decision: Decision
    spans: list[Span] = Field(default_factory=list)
    labels: list[Label] = Field(default_factory=list)
    language: str = ""
    latency_ms: float = 0.0


class CheckStream:
    """An answer being checked as it arrives (made by ``Checker.stream``).

    ``sentence_checker`` checks the sentences (default: the same Checker as the report), for
    instance a cheaper stack that leaves the LLM layer to the final report.
    """

    def __init__(
        self,
        checker: CaseChecker,
        case: Case,
        *,
        sentence_checker: CaseChecker | None = None,
        max_answer_chars: int | None = None,
    ) -> None:
        self.checker = checker
        self.sentence_checker = sentence_checker or checker
        self.case = case
        self.sentences: list[SentenceCheck] = []
        self.report: Report | None = None
        self._buffer = SentenceBuffer()
        self._limit = min(max_answer_chars or MAX_ANSWER_CHARS, MAX_ANSWER_CHARS)
        self._known_ids = [s.id for s in case.contexts]
        self._cited = False
        self._detected: str | None = None

    @property
    def text(self) -> str:
        """The answer received so far."""
        return self._buffer.text

    @property
    def closed(self) -> bool:
        return self.report is not None

    def feed(self, text: str) -> list[SentenceCheck]:
        """Add generated text; returns a check of each sentence it completed (often none)."""
        if self.report is not None:
            raise InputError("the stream is closed; start a new one to check another answer")
        if not isinstance(text, str):
            raise InputError(f"feed() takes text, not {type(text).__name__}")
        if len(self._buffer) + len(text) > self._limit:
            raise InputError(f"answer is over {self._limit} characters, the limit")
        return self._check_all(self._buffer.feed(text))

    def flush(self) -> list[SentenceCheck]:
        """End the answer: check its last sentence (``close`` does this too)."""
        if self.report is not None:
            return []
        return self._check_all(self._buffer.close())

    def close(self) -> Report:
        """End the answer and return its Report (the same as ``Checker.check`` on the whole answer)."""
        if self.report is None:
            self.flush()
            whole = self.case.model_copy(update={"answer": self._buffer.text})
            self.report = self.checker.check(whole)
        return self.report

    def _language(self, seg: Segment) -> str:
        """The answer's language, detected on the text so far until there is enough of it."""
        if self._detected is None:
            so_far = self._buffer.text[: seg.end]
            found = detect_language(so_far or self.case.source_text)
            if len(so_far) < _ENOUGH_TO_DETECT:
                return found
            self._detected = found
        return self._detected

    async def afeed(self, text: str) -> list[SentenceCheck]:
        """``feed`` off the event loop (checks are CPU-bound)."""
        return await asyncio.to_thread(self.feed, text)

    async def aflush(self) -> list[SentenceCheck]:
        return await asyncio.to_thread(self.flush)

    async def aclose(self) -> Report:
        return await asyncio.to_thread(self.close)

    # ---- internals ----------------------------------------------------------------------------

    def _check_all(self, segments: Sequence[Segment]) -> list[SentenceCheck]:
        return [self._check(seg) for seg in segments]

    def _check(self, seg: Segment) -> SentenceCheck:
        t0 = time.perf_counter()
        language = self.case.language or self._language(seg)
        expected = self.case.citations_expected
        if expected is None:
            expected = getattr(self.checker, "citations_expected", None)
        if expected is None:
            # an answer that cites elsewhere should cite here too; checked alone, the sentence
            # would not show that
            self._cited = self._cited or bool(find_citations(seg.text, self._known_ids))
            expected = True if self._cited else None
        part = self.case.model_copy(update={"answer": seg.text, "language": language, "citations_expected": expected})
        report = self.sentence_checker.check(part)
        spans = [s.model_copy(update={"start": s.start + seg.start, "end": s.end + seg.start}) for s in report.spans]
        result = SentenceCheck(
            index=len(self.sentences),
            start=seg.start,
            end=seg.end,
            text=seg.text,
            hallucinated=report.hallucinated,
            risk_score=report.risk_score,
            risk_level=report.risk_level,
            decision=report.decision,
            spans=spans,
            labels=sorted({s.label for s in spans}),
            language=report.language,
            latency_ms=round((time.perf_counter() - t0) * 1000.0, 3),
        )
        self.sentences.append(result)
        return result


def stream_case(
    case: Case | Mapping[str, Any] | None = None, **fields: Any
) -> Case:
    """The case a stream checks: validated like ``make_case`` with the answer still to come."""
    if isinstance(case, Case):
        data: dict[str, Any] = case.model_dump()
    else:
        data = dict(case or {})
    data.update({k: v for k, v in fields.items() if v is not None})
    if data.get("answer"):
        raise InputError("a stream's answer is fed with feed(); do not give answer=")
    data["answer"] = ""
    return make_case(data)
