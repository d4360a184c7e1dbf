"""Factual correction: change only the flagged spans of the answer, nothing else.

Regenerating a mostly good answer risks new errors elsewhere. Correction keeps every unflagged
character and either *removes* the flagged spans (deterministic, no LLM: a span that is most of
its sentence takes the whole sentence with it, so no fragment is left dangling) or has the LLM
*rewrite* each span from the sources, applied at the exact offsets. A rewrite whose reply cannot
be parsed falls back to removal.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from hallucheck.prevent.mitigate.base import MitigationStrategy, Repair, RepairState, flagged_spans
from hallucheck.prevent.mitigate.steps import StepError, Steps, Usage, ask
from hallucheck.text import split_sentences
from hallucheck.text.citations import find_citations
from hallucheck.types import Span

__all__ = ["FactualCorrection", "remove_spans", "replace_spans", "tidy"]

# A span covering at least this share of its sentence's visible characters removes the sentence.
SENTENCE_SHARE = 0.5


class FactualCorrection(MitigationStrategy):
    """Remove or rewrite only the flagged spans (``mode`` "remove" needs no LLM)."""

    name: ClassVar[str] = "factual_correction"

    def __init__(self, mode: Literal["rewrite", "remove"] = "rewrite") -> None:
        if mode not in ("rewrite", "remove"):
            raise ValueError("factual correction mode must be 'rewrite' or 'remove'")
        self.mode = mode

    def skip_reason(self, state: RepairState, has_llm: bool) -> str | None:
        if not flagged_spans(state.report):
            return "no flagged spans to correct"
        return None

    def steps(self, state: RepairState, usage: Usage) -> Steps[Repair]:
        spans = flagged_spans(state.report)
        note = ""
        if self.mode == "rewrite":
            try:
                replacements = yield from self._rewrite(state, spans, usage)
            except StepError as exc:
                replacements, note = None, f"rewrite failed ({exc}); "
            if replacements is not None:
                answer = tidy(replace_spans(state.answer, spans, replacements))
                _require_content(answer)
                return Repair(answer, note=f"rewrote {len(spans)} flagged span(s) from the sources")
            note = note or "rewrite reply unusable; "
        answer = remove_spans(state.answer, spans, state.language)
        _require_content(answer)
        return Repair(answer, note=f"{note}removed {len(spans)} flagged span(s)")

    def _rewrite(self, state: RepairState, spans: list[Span], usage: Usage) -> Steps[list[str] | None]:
        # lazy: already loaded by this module's imports; kept where it is used
        from hallucheck.prevent.prompt_strategies import citation_marker, reply_language, template_language
        from hallucheck.prevent.structured_answer import load_json  # lazy: loaded only on this path
        from hallucheck.prompts.loader import render  # lazy: loaded only on this path

        tlang = template_language(state.language)
        sources = [{"id": s.id, "text": s.text, "marker": citation_marker(s.id, tlang)} for s in state.sources]
        example = "{" + ", ".join(f'"{i}": "..."' for i in range(1, min(len(spans), 2) + 1)) + "}"
        prompt = render(
            "mitigate/rewrite_spans",
            tlang,
            sources=sources,
            question=state.question,
            marked_answer=mark_spans(state.answer, spans),
            example_marker=citation_marker(state.sources[0].id if state.sources else "1", tlang),
            example_json=example,
            reply_language=reply_language(state.language),
        )
        from hallucheck.llm.base import Message  # lazy: already loaded by this module's imports; kept where it is used

        text = yield from ask([Message("user", prompt)], usage, temperature=0.0, **state.settings)
        data = load_json(text)
        if not isinstance(data, dict):
            return None
        out: list[str] = []
        for i in range(1, len(spans) + 1):
            value = data.get(str(i), data.get(i, ""))  # a passage left out is deleted
            out.append(value if isinstance(value, str) else "")
        return out


def mark_spans(answer: str, spans: list[Span]) -> str:
    """The answer with each span wrapped in numbered marks ⟦n⟧...⟦/n⟧."""
    parts: list[str] = []
    pos = 0
    for i, s in enumerate(spans, start=1):
        parts.append(answer[pos : s.start])
        parts.append(f"⟦{i}⟧{answer[s.start:s.end]}⟦/{i}⟧")
        pos = s.end
    parts.append(answer[pos:])
    return "".join(parts)


def replace_spans(answer: str, spans: list[Span], replacements: list[str]) -> str:
    """``answer`` with each span replaced by its replacement (spans sorted, non-overlapping)."""
    out = answer
    for s, new in sorted(zip(spans, replacements), key=lambda p: p[0].start, reverse=True):
        out = out[: s.start] + new.strip() + out[s.end :]
    return out


def remove_spans(answer: str, spans: list[Span], language: str = "en") -> str:
    """Cut the spans; a span that is most of its sentence removes the sentence and its citations."""
    if not spans:
        return answer
    sentences = split_sentences(answer, language)
    markers = find_citations(answer)
    cuts: list[tuple[int, int]] = []
    for sent in sentences:
        inside = [(max(s.start, sent.start), min(s.end, sent.end)) for s in spans if s.start < sent.end and s.end > sent.start]
        if not inside:
            continue
        visible = _visible(answer, sent.start, sent.end, markers)
        covered = sum(_visible(answer, a, b, markers) for a, b in inside)
        if visible == 0 or covered >= SENTENCE_SHARE * visible:
            end = sent.end
            # take citation markers that trail the sentence ("... sentence. [2]") with it
            for mk in markers:
                if mk.start >= end and not answer[end : mk.start].strip():
                    end = mk.end
            cuts.append((sent.start, end))
        else:
            cuts.extend(inside)
    # spans outside every sentence (rare: whitespace-only gaps) are cut as they are
    covered_by_sentences = [(s.start, s.end) for s in sentences]
    for s in spans:
        if not any(a < s.end and s.start < b for a, b in covered_by_sentences):
            cuts.append((s.start, s.end))
    out = answer
    for a, b in _merge(cuts)[::-1]:
        out = out[:a] + out[b:]
    return tidy(out)


def _visible(text: str, a: int, b: int, markers: list) -> int:  # type: ignore[type-arg]
    """Non-space characters of ``text[a:b]`` outside citation markers."""
    n = sum(1 for ch in text[a:b] if not ch.isspace())
    for mk in markers:
        lo, hi = max(a, mk.start), min(b, mk.end)
        if lo < hi:
            n -= sum(1 for ch in text[lo:hi] if not ch.isspace())
    return max(n, 0)


def _merge(cuts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(cuts):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+([,.;:!?，。；：！？、])")
_DOUBLE_PUNCT = re.compile(r"([,;:，；：、])\s*([,.;:!?，。；：！？、])")
_LEADING_PUNCT = re.compile(r"(^|\n)[ \t]*[,;:，；：、.。]+[ \t]*")
_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


def tidy(text: str) -> str:
    """Clean what cutting leaves behind: doubled spaces and punctuation, empty lines."""
    out = _SPACES.sub(" ", text)
    out = _SPACE_BEFORE_PUNCT.sub(r"\1", out)
    for _ in range(2):
        out = _DOUBLE_PUNCT.sub(r"\2", out)
    out = _LEADING_PUNCT.sub(r"\1", out)
    out = _BLANK_LINES.sub("\n\n", out)
    return "\n".join(line.rstrip() for line in out.splitlines()).strip()


def _require_content(answer: str) -> None:
    markers = find_citations(answer)
    if _visible(answer, 0, len(answer), markers) == 0 or not any(ch.isalnum() for ch in answer):
        raise StepError("nothing is left once the flagged spans are removed")
