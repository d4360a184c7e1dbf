"""What the detectors read of a case, and the way back to the case as written.

Detectors read a case whose answer, question and sources have the characters nobody sees cut
out (zero-width characters, bidi controls, soft hyphens: :mod:`hallucheck.text.invisible`), so
"5\\u200b00" is the figure 500 and "Fran\\u00adce" the name France for every detector alike. Every
offset the report gives is mapped back into the text as written: span and evidence offsets, the
characters coverage says were not read; a span's ``text`` is the original's characters between
its offsets, invisible ones inside it included. ``Finding.details`` (free-form data for people
and benchmarks) and the notes are left as the detectors wrote them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from hallucheck.text.invisible import OffsetMap, strip_invisible
from hallucheck.types import Case, Coverage, Evidence, Finding, Span

__all__ = ["Intake", "take_in"]


@dataclass(frozen=True)
class Intake:
    """A case as written (``original``), the case the detectors read (``case``), and the maps
    from the read texts' offsets back: the answer's, and each source's by its id (a text with
    nothing cut has no map)."""

    original: Case
    case: Case
    answer_map: OffsetMap | None = None
    source_maps: Mapping[str, OffsetMap] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        """Whether the answer or a source had characters cut (offsets need mapping back)."""
        return self.answer_map is not None or bool(self.source_maps)

    @cached_property
    def _joined_map(self) -> OffsetMap | None:
        """The map of all sources joined (``Case.source_text``), for evidence without a source id."""
        return strip_invisible(self.original.source_text)[1] if self.source_maps else None

    def coverage(self, coverage: Coverage | None) -> Coverage | None:
        """``coverage`` of the read answer as coverage of the answer as written."""
        if coverage is None or self.answer_map is None:
            return coverage
        amap = self.answer_map
        unchecked = [amap.span(a, b) for a, b in coverage.unchecked]
        grown = sum((b - a) for a, b in unchecked) - sum((b - a) for a, b in coverage.unchecked)
        total = len(self.original.answer)
        checked = coverage.checked_chars + (total - len(self.case.answer)) - grown
        return coverage.model_copy(update={
            "answer_chars": total,
            "checked_chars": min(max(checked, 0), total),
            "unchecked": unchecked,
        })

    def spans(self, spans: list[Span]) -> list[Span]:
        """``spans`` of the read answer as spans of the answer as written, their evidence mapped too."""
        return [self._span(s) for s in spans] if self.changed else spans

    def findings(self, findings: list[Finding]) -> list[Finding]:
        """``findings`` with their spans and coverage mapped onto the case as written."""
        if not self.changed:
            return findings
        return [f.model_copy(update={"spans": self.spans(f.spans), "coverage": self.coverage(f.coverage)}) for f in findings]

    def _span(self, span: Span) -> Span:
        start, end = span.start, span.end
        if self.answer_map is not None:
            start, end = self.answer_map.span(start, end)
        return span.model_copy(update={"start": start, "end": end, "text": self.original.answer[start:end],
                                       "evidence": [self._evidence(e) for e in span.evidence]})

    def _evidence(self, ev: Evidence) -> Evidence:
        if ev.start is None or ev.end is None:
            return ev
        if ev.source_id == "answer" and not any(s.id == "answer" for s in self.original.contexts):
            read, written, omap = self.case.answer, self.original.answer, self.answer_map
        elif ev.source_id is None:
            read, written, omap = self.case.source_text, self.original.source_text, self._joined_map
        else:
            omap = self.source_maps.get(ev.source_id)
            if omap is None:
                return ev
            read = next(s.text for s in self.case.contexts if s.id == ev.source_id)
            written = next(s.text for s in self.original.contexts if s.id == ev.source_id)
        if omap is None:
            return ev
        start, end = omap.span(ev.start, ev.end)
        update: dict[str, object] = {"start": start, "end": end}
        if ev.text == read[ev.start : ev.end]:
            update["text"] = written[start:end]
        return ev.model_copy(update=update)


def take_in(case: Case) -> Intake:
    """The Intake of ``case``: the case itself when no text of it holds an invisible character."""
    answer, amap = strip_invisible(case.answer)
    question = strip_invisible(case.question)[0]
    maps: dict[str, OffsetMap] = {}
    contexts = []
    touched = False
    for src in case.contexts:
        text, smap = strip_invisible(src.text)
        title = strip_invisible(src.title)[0] if src.title else src.title
        if smap is not None:
            maps[src.id] = smap
        if smap is not None or title != src.title:
            touched = True
            src = src.model_copy(update={"text": text, "title": title})
        contexts.append(src)
    if amap is None and not touched and question == case.question:
        return Intake(case, case)
    read = case.model_copy(update={"answer": answer, "question": question, "contexts": contexts})
    return Intake(case, read, amap, maps)
