"""Map a quote an LLM copied from the answer back to exact character offsets in the answer.

Models rarely copy perfectly: they change case, collapse whitespace, drop a word, add quotation
marks or an ellipsis. The matcher tries, in order, an exact match, a case-insensitive match, a
whitespace-normalised match and finally a fuzzy match (difflib), and says which one succeeded.
A quote that cannot be placed is reported as unmatched (the detectors keep it in details, never
as a span with invented offsets). When a quote occurs several times, the occurrence at or after
``hint`` (the end of the previous claim) is preferred, since judges go through answers in order.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import NamedTuple

__all__ = ["QuoteMatch", "locate_quote", "clean_quote"]

_STRIP = " \t\n\r\"'“”‘’「」『』«»`*-•"
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")


class QuoteMatch(NamedTuple):
    start: int
    end: int
    method: str  # exact | casefold | whitespace | fuzzy
    similarity: float


def clean_quote(quote: str) -> str:
    q = (quote or "").strip().strip(_STRIP).strip()
    return q.rstrip(".,;:。，；：").strip() or q


def _find(hay: str, needle: str, hint: int) -> int:
    pos = hay.find(needle, hint)
    return pos if pos != -1 else hay.find(needle)


def _ws_pattern(q: str) -> re.Pattern[str]:
    return re.compile(r"\s*".join(re.escape(c) for c in q if not c.isspace()) if len(q) <= 400 else
                      r"\s+".join(re.escape(w) for w in q.split()), re.I)


def _fuzzy(answer: str, quote: str, threshold: float) -> QuoteMatch | None:
    a, q = answer.lower(), quote.lower()
    sm = SequenceMatcher(None, a, q, autojunk=False)
    blocks = [b for b in sm.get_matching_blocks() if b.size >= 3]
    if not blocks:
        return None
    best: QuoteMatch | None = None
    # anchor the quote at each substantial matching block and score the aligned window
    for b in sorted(blocks, key=lambda b: -b.size)[:8]:
        start = max(0, b.a - b.b)
        end = min(len(a), start + len(q))
        for s, e in ((start, end), (b.a, min(len(a), b.a + len(q) - b.b))):
            if e <= s:
                continue
            ratio = SequenceMatcher(None, a[s:e], q, autojunk=False).ratio()
            if best is None or ratio > best.similarity:
                best = QuoteMatch(s, e, "fuzzy", ratio)
    if best is None or best.similarity < threshold:
        return None
    s, e = best.start, best.end
    # snap to word boundaries so a span never cuts a word in half
    while s > 0 and answer[s - 1].isalnum() and answer[s].isalnum():
        s -= 1
    while e < len(answer) and answer[e - 1].isalnum() and answer[e].isalnum():
        e += 1
    while s < e and answer[s].isspace():
        s += 1
    while e > s and answer[e - 1].isspace():
        e -= 1
    return QuoteMatch(s, e, "fuzzy", round(best.similarity, 4))


def locate_quote(answer: str, quote: str, hint: int = 0, *, threshold: float = 0.8) -> QuoteMatch | None:
    """Offsets of ``quote`` in ``answer`` (see the module docstring), or None."""
    q = clean_quote(quote)
    if not q or not answer:
        return None
    parts = [p for p in _ELLIPSIS.split(q) if p.strip()]
    if len(parts) > 1:  # "first words ... last words": span from the first to the last part
        first = locate_quote(answer, parts[0], hint, threshold=threshold)
        last = locate_quote(answer, parts[-1], first.end if first else hint, threshold=threshold)
        if first and last and last.end > first.start:
            sim = min(first.similarity, last.similarity)
            return QuoteMatch(first.start, last.end, "fuzzy" if "fuzzy" in (first.method, last.method) else first.method, sim)
        q = max(parts, key=len)
    pos = _find(answer, q, hint)
    if pos != -1:
        return QuoteMatch(pos, pos + len(q), "exact", 1.0)
    low = answer.lower()
    pos = _find(low, q.lower(), hint) if len(low) == len(answer) else -1
    if pos != -1:
        return QuoteMatch(pos, pos + len(q), "casefold", 1.0)
    pat = _ws_pattern(q)
    m = pat.search(answer, hint) or pat.search(answer)
    if m and m.end() > m.start():
        return QuoteMatch(m.start(), m.end(), "whitespace", 1.0)
    if len(q) < 4:
        return None
    return _fuzzy(answer, q, threshold)
