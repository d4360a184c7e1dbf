"""Very long sources: read the passages that matter to the answer, blank the rest, keep offsets.

Why: every detector indexes the whole of the sources (tokens, lemmas, sentence vectors, evidence
windows), so a check against 5 million characters of sources took over a minute and 1.5 GB of
memory, while the answer — a few thousand characters — can only be about a small part of them.
Above ``MAX_READ_CHARS`` (less for a long answer, down to ``MIN_READ_CHARS``) the sources are
cut into passages, each passage is scored by the answer's
words it contains (weighted by how rare the word is among the passages, so a figure or a name
counts more than "the"), and the best passages are kept up to ``MAX_READ_CHARS``; every other
character becomes a space. Offsets, source ids and citation checks stay as they are, and the
report says how much of the sources was not read (``Report.coverage`` and a note), so an
answer is never called grounded on text nobody looked at without saying so.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from hallucheck.types import Case

__all__ = ["MAX_READ_CHARS", "MIN_READ_CHARS", "PAIR_BUDGET", "PASSAGE_CHARS", "SourceWindow", "narrow_sources"]

# Sources up to this many characters are read whole; longer ones are narrowed to this much...
MAX_READ_CHARS = 400_000
# ...and to less for a long answer, since comparing answer sentences with source sentences costs
# about their product: at most PAIR_BUDGET (answer x read characters), never below MIN_READ_CHARS.
PAIR_BUDGET = 20_000_000_000
MIN_READ_CHARS = 100_000
# Passages are paragraphs, split further (at a sentence end or a space) beyond this length.
PASSAGE_CHARS = 1_500

_PARAGRAPH = re.compile(r"\n\s*\n|\r\n\s*\r\n")
_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_BREAK = re.compile(r"\s+")


@dataclass(frozen=True)
class SourceWindow:
    """What narrowing kept: characters of sources in all, read, and passages kept of all."""

    source_chars: int
    read_chars: int
    passages: int
    kept: int

    @property
    def note(self) -> str:
        return (
            f"sources are {self.source_chars:,} characters: the {self.kept:,} of {self.passages:,} passages "
            f"closest to the answer ({self.read_chars:,} characters) were read, the other "
            f"{self.source_chars - self.read_chars:,} characters were not"
        )


def _passages(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of the passages of ``text``: paragraphs, long ones cut near PASSAGE_CHARS."""
    out: list[tuple[int, int]] = []
    start = 0
    bounds = [m.start() for m in _PARAGRAPH.finditer(text)] + [len(text)]
    for end in bounds:
        while end - start > PASSAGE_CHARS:
            cut = start + PASSAGE_CHARS
            m = None
            for found in _BREAK.finditer(text, start + PASSAGE_CHARS // 2, cut):
                m = found  # the last break in the window
            cut = m.end() if m is not None else cut
            out.append((start, cut))
            start = cut
        if end > start:
            out.append((start, end))
        start = end
    return out


def _terms(text: str) -> set[str]:
    """Lower-cased words, and character pairs inside CJK runs (which have no spaces)."""
    terms: set[str] = set()
    for w in _WORD.findall(text.lower()):
        if _CJK.search(w):
            terms.update(w[i : i + 2] for i in range(len(w) - 1))
            terms.update(c for c in w if _CJK.match(c))
        else:
            terms.add(w)
    return terms


def narrow_sources(case: Case, max_chars: int | None = None) -> tuple[Case, SourceWindow | None]:
    """``case`` with its sources narrowed to ``max_chars`` characters (default ``MAX_READ_CHARS``;
    see the module docstring); the case unchanged and None when the sources are not longer."""
    if max_chars is None:
        by_answer = PAIR_BUDGET // max(len(case.answer), 1)
        max_chars = min(MAX_READ_CHARS, max(MIN_READ_CHARS, by_answer))
    total = sum(len(s.text) for s in case.contexts)
    if total <= max_chars:
        return case, None
    wanted = _terms(case.answer + " " + case.question)
    passages: list[tuple[int, int, int]] = []  # source index, start, end
    found: list[set[str]] = []
    for k, src in enumerate(case.contexts):
        for start, end in _passages(src.text):
            passages.append((k, start, end))
            found.append(_terms(src.text[start:end]) & wanted)
    df = Counter(t for terms in found for t in terms)
    n = len(passages)
    weight = {t: math.log(1.0 + n / c) for t, c in df.items()}
    scores = [sum(weight[t] for t in terms) for terms in found]
    order = sorted(range(n), key=lambda i: (-scores[i], i))
    keep: set[int] = set()
    used = 0
    for i in order:
        _, start, end = passages[i]
        if scores[i] <= 0 or used + (end - start) > max_chars:
            continue
        keep.add(i)
        used += end - start
    pieces: list[list[str]] = [[] for _ in case.contexts]
    for i, (k, start, end) in enumerate(passages):
        text = case.contexts[k].text[start:end]
        pieces[k].append(text if i in keep else _blank(text))
    contexts = []
    for k, src in enumerate(case.contexts):
        body = "".join(pieces[k])
        body += _blank(src.text[len(body):])  # whitespace after the last passage
        contexts.append(src.model_copy(update={"text": body}))
    window = SourceWindow(total, used, n, len(keep))
    return case.model_copy(update={"contexts": contexts}), window


def _blank(text: str) -> str:
    """Spaces in place of ``text``, its line breaks kept (sentence and paragraph ends stay put)."""
    return re.sub(r"[^\n]", " ", text)
