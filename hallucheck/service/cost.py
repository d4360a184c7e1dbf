"""What a check costs, for admission: characters, plus a weight per context and per sentence.

The work of a check grows with the text it reads, but also with how that text is cut: every
context is a source the detectors index and search on its own, every sentence of the answer a
claim they look up in all of them. 400,000 one-character contexts are 1.6 MB of JSON but
minutes of work, so a case's *weight* counts each context as ``CONTEXT_WEIGHT`` characters and
each answer sentence as ``SENTENCE_WEIGHT`` more; admission multiplies the weight by the
number of detectors. Sentences are counted cheaply here (sentence-ending punctuation followed
by a space or the end, CJK full stops anywhere, and line breaks), an estimate for the limits,
not the sentence splitter itself.
"""

from __future__ import annotations

import re

from hallucheck.types import Case

__all__ = ["CONTEXT_WEIGHT", "SENTENCE_WEIGHT", "case_chars", "case_weight", "count_sentences", "text_weight"]

CONTEXT_WEIGHT = 50
SENTENCE_WEIGHT = 100

_END = re.compile(r"[。！？；]+|[.!?;…]+(?=\s|$)|\n+")


def count_sentences(text: str) -> int:
    """Sentence ends in ``text`` (plus one for a last sentence without an end)."""
    n = 0
    last = 0
    for m in _END.finditer(text):
        n += 1
        last = m.end()
    return n + (1 if text[last:].strip() else 0)


def case_chars(case: Case) -> int:
    """The characters a check reads: question, answer and every source."""
    return len(case.question) + len(case.answer) + sum(len(c.text) for c in case.contexts)


def text_weight(text: str) -> int:
    """The weight of a piece of answer: its characters and its sentences."""
    return len(text) + SENTENCE_WEIGHT * count_sentences(text)


def case_weight(case: Case) -> int:
    """The weight of a whole check: its characters, its contexts and its answer's sentences."""
    return (len(case.question) + sum(len(c.text) for c in case.contexts) + CONTEXT_WEIGHT * len(case.contexts)
            + text_weight(case.answer))
