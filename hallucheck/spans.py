"""Merging spans from several detectors into one non-overlapping list for the report.

Where spans overlap, the merged span covers their union and keeps every detector's evidence, so
nothing a detector said is lost. Its label is the most precise detector's: a span with a precise
``kind`` (an invalid citation id, a contradicted figure, ...) wins over any span without one, then
the higher score, then the label rank below (contradiction before baseless on ties); so a figure
the numbers detector found contradicted stays a ``contradiction`` where the tagger marked the
same words ``baseless`` with a higher score.

``tidy_spans`` then makes the report readable: spans are grown to whole words (a CJK character is
a word unit of its own, so Chinese spans are whole characters), lose leading punctuation and
trailing space (closing punctuation the detector marked with the words, such as a sentence's
full stop, stays), and fragments made only of function words ("et il", ". You can") or a single
CJK character ("年") are dropped, unless a detector marked them as precise evidence. A negation
is not such a fragment: "is not", "nicht", "不" are the whole of a flipped statement, and the
words a detector marks when it finds one.
"""

from __future__ import annotations

from collections.abc import Sequence

from hallucheck.text.opposites import NEGATION_WORDS
from hallucheck.text.tokens import Token
from hallucheck.types import Span

__all__ = ["merge_spans", "tidy_spans", "LABEL_PRIORITY"]

LABEL_PRIORITY = {
    "contradiction": 7,
    "invalid_citation": 6,
    "fabrication": 5,
    "distortion": 4,
    "baseless": 3,
    "extrapolation": 2,
    "speculation": 1,
    "uncited": 0,
}


def merge_spans(spans: list[Span], text: str) -> list[Span]:
    """Union of overlapping spans, sorted by offset; ``text`` is the answer the offsets index."""
    if not spans:
        return []
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    groups: list[list[Span]] = [[ordered[0]]]
    end = ordered[0].end
    for s in ordered[1:]:
        if s.start < end:
            groups[-1].append(s)
            end = max(end, s.end)
        else:
            groups.append([s])
            end = s.end
    out: list[Span] = []
    for g in groups:
        if len(g) == 1:
            out.append(g[0])
            continue
        start = min(s.start for s in g)
        stop = max(s.end for s in g)
        best = max(g, key=lambda s: (s.kind is not None, s.score, LABEL_PRIORITY.get(s.label, 0)))
        detectors = sorted({s.detector for s in g})
        reasons = [s.reason for s in sorted(g, key=lambda s: -s.score) if s.reason]
        evidence = [e for s in g for e in s.evidence]
        out.append(
            Span(
                start=start,
                end=stop,
                text=text[start:stop],
                label=best.label,
                score=max(s.score for s in g),
                kind=best.kind,
                detector="+".join(detectors),
                reason="; ".join(dict.fromkeys(reasons)),
                evidence=evidence,
            )
        )
    return out


# What a precise span may lose at its start: separators and opening or closing marks, never a
# currency sign or the sign of a figure ("$5", "-3%").
_LEADING_PUNCTUATION = frozenset(" \t\n,.;:!?/\\()[]{}'\"“”‘’«»「」『』（）【】、，。：；！？")

# Labels whose span is a marker or a phrase, not words to grow: kept as the detector gave them.
_AS_GIVEN = frozenset({"invalid_citation", "speculation", "uncited"})


# Negations in every language, with French "pas" and English "n't" (alone or ending a word:
# "isn't"), which negate although the aligner reads them differently.
_NEGATIONS = NEGATION_WORDS | {"pas"}


def _is_negation(word: str) -> bool:
    w = word.lower()
    return w in _NEGATIONS or w.endswith(("n't", "n’t"))


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FFFF


def tidy_spans(spans: Sequence[Span], text: str, tokens: Sequence[Token]) -> list[Span]:
    """Spans grown to whole words, trimmed of leading punctuation and of space, fragments dropped.

    ``tokens`` are the answer's tokens (``CaseAnalysis.tokens``). Spans with a marker-like label
    keep their offsets, and spans with a precise ``kind`` too, but for punctuation in front of
    them (a merge with another detector's wider span brings it in); merging again afterwards
    keeps them apart.
    """
    out: list[Span] = []
    for s in spans:
        if s.label in _AS_GIVEN:
            out.append(s)
            continue
        if s.kind is not None:
            # precise evidence keeps its offsets, but not punctuation that a wider span of another
            # detector brought in front of it when they were merged ("/" of "/etc/mtab")
            start = s.start
            while start < s.end - 1 and text[start] in _LEADING_PUNCTUATION:
                start += 1
            out.append(s if start == s.start else s.model_copy(update={"start": start, "text": text[start:s.end]}))
            continue
        words = [t for t in tokens if t.start < s.end and s.start < t.end and not t.is_punct and text[t.start:t.end].strip()]
        if not words:
            continue
        start, end = words[0].start, words[-1].end
        # a CJK word cut by the tagger: grow to the whole characters only (jieba words may be long)
        if _is_cjk(text[start]) and start < s.start:
            start = max(start, s.start)
        if _is_cjk(text[end - 1]) and end > s.end:
            end = min(end, s.end)
        while start < end and not (text[start].isalnum() or _is_cjk(text[start])):
            start += 1
        while end > start and not (text[end - 1].isalnum() or _is_cjk(text[end - 1]) or text[end - 1] == "%"):
            end -= 1
        if end <= start:
            continue
        # Closing punctuation the detector marked with the words ("... 2 am.", "...)") stays: a
        # flagged sentence ends with its full stop, as labelled spans do.
        tail = s.end
        while tail > end and text[tail - 1].isspace():
            tail -= 1
        if tail > end and not any(ch.isalnum() or _is_cjk(ch) for ch in text[end:tail]):
            end = tail
        piece = text[start:end]
        negation = any(_is_negation(text[t.start:t.end]) for t in words)
        content = [t for t in words if not t.is_stop]
        if not negation and (not content or (len(piece) == 1 and _is_cjk(piece))):
            continue
        if (start, end) != (s.start, s.end):
            s = s.model_copy(update={"start": start, "end": end, "text": piece})
        out.append(s)
    return merge_spans(out, text)
