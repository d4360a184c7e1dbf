"""A text being edited, with labelled spans that stay on their characters through every edit.

Labelled data is only as good as its offsets: each edit of an answer (a changed figure, an added
marker) moves everything after it. Building answers through :class:`Draft` keeps every span equal
to the characters it labels, and the generator asserts that before it writes a case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

__all__ = ["Draft", "LabelledSpan"]


class LabelledSpan(NamedTuple):
    """``[start, end)`` in the draft's text, with the label it carries."""

    start: int
    end: int
    label: str


@dataclass
class Draft:
    """Text plus labelled spans; :meth:`replace` shifts, stretches or drops the spans it touches."""

    text: str
    spans: list[LabelledSpan] = field(default_factory=list)

    def replace(self, start: int, end: int, new: str, label: str | None = None) -> LabelledSpan | None:
        """Put ``new`` in place of ``text[start:end]``; label the new characters when ``label`` is given.

        A span wholly before the edit stays, one wholly after moves by the change in length, and
        one that overlaps the edit grows to cover the new text (its characters changed, so what it
        labels now includes them).
        """
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"edit [{start}, {end}) outside a text of {len(self.text)} characters")
        delta = len(new) - (end - start)
        self.text = self.text[:start] + new + self.text[end:]
        moved: list[LabelledSpan] = []
        for s in self.spans:
            if s.end <= start:
                moved.append(s)
            elif s.start >= end:
                moved.append(LabelledSpan(s.start + delta, s.end + delta, s.label))
            else:
                moved.append(LabelledSpan(min(s.start, start), max(s.end + delta, start + len(new)), s.label))
        self.spans = moved
        if label is None or not new:
            return None
        added = LabelledSpan(start, start + len(new), label)
        self.spans.append(added)
        return added

    def insert(self, pos: int, new: str, label: str | None = None) -> LabelledSpan | None:
        """Insert ``new`` at ``pos`` (a span ending at ``pos`` does not grow; one starting there moves)."""
        delta = len(new)
        self.text = self.text[:pos] + new + self.text[pos:]
        self.spans = [
            s if s.end <= pos else LabelledSpan(s.start + (delta if s.start >= pos else 0), s.end + delta, s.label)
            for s in self.spans
        ]
        if label is None or not new:
            return None
        added = LabelledSpan(pos, pos + len(new), label)
        self.spans.append(added)
        return added

    def label(self, start: int, end: int, label: str) -> LabelledSpan:
        """Label ``text[start:end]`` without changing the text."""
        if not 0 <= start < end <= len(self.text):
            raise ValueError(f"span [{start}, {end}) outside a text of {len(self.text)} characters")
        span = LabelledSpan(start, end, label)
        self.spans.append(span)
        return span

    def sorted_spans(self) -> list[LabelledSpan]:
        """The spans in text order, without duplicates."""
        return sorted(set(self.spans))
