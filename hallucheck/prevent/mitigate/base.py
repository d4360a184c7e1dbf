"""What a mitigation strategy sees and returns, and the small base class strategies share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hallucheck.prevent.mitigate.severity import Severity
from hallucheck.prevent.mitigate.steps import Steps, Usage
from hallucheck.prevent.prompt_strategies import PromptStrategy
from hallucheck.types import Report, Source, Span

__all__ = ["RepairState", "Repair", "MitigationStrategy", "flagged_spans", "feedback_for", "CONTENT_LABELS"]

# Labels that say something is wrong with what the answer claims. "uncited" only says a claim
# lacks a marker (it may well be true), so repairs never cut text for it.
CONTENT_LABELS = frozenset(
    {"fabrication", "baseless", "contradiction", "extrapolation", "distortion", "speculation", "invalid_citation"}
)


@dataclass
class RepairState:
    """The answer to repair and everything a strategy may use to repair it."""

    question: str
    sources: list[Source]
    language: str
    answer: str
    report: Report
    severity: Severity
    prompt_strategy: PromptStrategy = PromptStrategy.FORCED_CITATION
    temperature: float = 0.5
    settings: dict[str, Any] = field(default_factory=dict)  # extra LLM settings (max_tokens, ...)


@dataclass
class Repair:
    """A strategy's result: the new answer (and the temperature it was generated at)."""

    answer: str
    temperature: float | None = None
    note: str = ""


class MitigationStrategy:
    """One way to deal with a risky answer.

    ``terminal`` strategies (pass-through, abstain) end the repair with their answer unchecked;
    the others produce a candidate that is checked and kept only if it is less risky.
    """

    name: ClassVar[str] = ""
    uses_llm: ClassVar[bool] = False
    terminal: ClassVar[bool] = False

    def skip_reason(self, state: RepairState, has_llm: bool) -> str | None:
        """Why this strategy cannot run on ``state`` (None when it can)."""
        if self.uses_llm and not has_llm:
            return "needs an LLM backend"
        return None

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        raise NotImplementedError
        yield  # pragma: no cover - makes this a generator


def flagged_spans(report: Report) -> list[Span]:
    """The report's spans whose content is at fault (not merely uncited), in answer order."""
    return sorted((s for s in report.spans if s.label in CONTENT_LABELS), key=lambda s: s.start)


def feedback_for(report: Report, limit: int = 8, width: int = 200) -> list[str]:
    """Short quotes of the flagged statements, for telling a model what to leave out."""
    out: list[str] = []
    for s in flagged_spans(report):
        text = " ".join(s.text.split())
        if s.label == "invalid_citation" or not text:
            continue
        text = text if len(text) <= width else text[: width - 1] + "…"
        if text not in out:
            out.append(text)
        if len(out) >= limit:
            break
    return out
