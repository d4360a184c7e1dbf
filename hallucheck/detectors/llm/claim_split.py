"""Atomic claims of an answer, each with its offsets: a rule-based splitter that needs no LLM.

Why rules first: claim extraction by LLM costs a call per answer and small models drop or merge
claims. Sentences are already split with offsets by ``hallucheck.text``; this module cuts them
further into clauses at semicolons, bullet items and clause-level coordination (", and", ", but",
"，而且", ", und", ", et", ...), and only when both halves still read as claims (enough words),
so "salt and pepper" stays one claim.
"""

from __future__ import annotations

import re

from hallucheck.case_facts import Claim
from hallucheck.text import Segment, split_sentences
from hallucheck.text.language import is_cjk_char

__all__ = ["split_claims", "trim_segment"]

_BULLET = re.compile(r"\s*(?:[-*•·]|\d{1,3}[.)、]|[a-zA-Z][.)])\s+")
_SEMI = re.compile(r"[;；]\s*|\n+")
_COORD = re.compile(
    r",\s+(?:and|but|while|whereas|although|though|yet|so)\s+"
    r"|,\s+(?:und|aber|doch|während|sondern)\s+"
    r"|,\s+(?:et|mais|tandis que|alors que|donc)\s+"
    r"|[，,]\s*(?:而且|并且|並且|但是|但|而|同时|同時|此外|另外)",
    re.I,
)
_EDGE = " \t\n\r,.;:!?，。；：！？、\"'“”‘’()（）[]【】"


def trim_segment(text: str, start: int, end: int) -> tuple[int, int]:
    """Offsets without surrounding whitespace, punctuation or a bullet marker."""
    m = _BULLET.match(text, start, end) if start < end else None
    if m:
        start = m.end()
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    return start, end


def _weight(s: str) -> int:
    """Words in a piece (CJK characters count half a word each)."""
    cjk = sum(1 for ch in s if is_cjk_char(ch))
    latin = len(re.findall(r"[^\W\d_]+|\d+", "".join(" " if is_cjk_char(ch) else ch for ch in s)))
    return latin + cjk // 2


def _cut(text: str, start: int, end: int, pattern: re.Pattern[str], min_words: int) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    cur = start
    for m in pattern.finditer(text, start, end):
        left, right = text[cur : m.start()], text[m.end() : end]
        if pattern is _COORD and (_weight(left) < min_words or _weight(right) < min_words):
            continue
        pieces.append((cur, m.start()))
        cur = m.end()
    pieces.append((cur, end))
    return pieces


def split_claims(text: str, sentences: list[Segment] | None = None, language: str = "en", *,
                 min_words: int = 3) -> list[Claim]:
    """Claims of ``text`` in order; ``sentences`` (with offsets) are reused when given."""
    sents = sentences if sentences is not None else split_sentences(text, language)
    claims: list[Claim] = []
    for seg in sents:
        for a, b in _cut(text, seg.start, seg.end, _SEMI, min_words):
            for c, d in _cut(text, a, b, _COORD, min_words):
                s, e = trim_segment(text, c, d)
                piece = text[s:e]
                if e > s and any(ch.isalnum() for ch in piece):
                    claims.append(Claim(s, e, piece))
    return claims
