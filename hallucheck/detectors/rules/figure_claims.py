"""Figures of an answer that are no claim about the world: references to the sources' own parts
("passage 3"), the answer's own layout ("Step 3:"), the top of a rating scale ("4 out of 5"),
the answer measuring itself ("in 79 words"), round-the-clock idioms ("24/7"), conversions in
parentheses after a supported figure, and all-digit dates the sources write the same way."""

from __future__ import annotations

import re
from collections.abc import Collection

from hallucheck.detectors.rules.figure_match import compatible
from hallucheck.detectors.rules.source_figures import SourceFacts, meta_word
from hallucheck.text.entities import REFERENCE_WORDS
from hallucheck.text.numbers import NumberMention, same_value

__all__ = ["conversion", "named_month", "not_a_claim", "own_label", "paren_differs", "reference_word", "sources_number",
           "written_date"]

_REFERENCE_BEFORE = re.compile(
    r"([^\W\d_]+)\.?\s*(?:#|no\.?\s*|nr\.?\s*)?(?:\d+\s*(?:,|-|–|and|und|et|&|or|to)\s*)*$", re.IGNORECASE
)
_ABBREVIATION = 5  # a word with a dot before a figure is an abbreviation ("Fig. 3") up to this length
_SCALE_BEFORE = re.compile(r"(?:out\s+of|of\s+a\s+possible|sur|von|auf)\s*$|/\s*$", re.IGNORECASE)
# "in 92 words", "(about 120 words)", "unter 100 Wörtern": an answer measuring itself.
_SELF_BEFORE = re.compile(
    r"(?:\b(?:in|within|under|using|of\s+about|about|approximately|roughly|around|in\s+about|in\s+under|"
    r"unter|mit|en|environ|moins\s+de)\s+|\(\s*(?:about\s+|ca\.\s*|environ\s+)?)$",
    re.IGNORECASE,
)
_OPEN_PAREN = re.compile(r"\(\s*[^()\d]{0,12}$")
# The second figure of a range inside such parentheses: "55-75°F (13-24°C)".
_OPEN_PAREN_RANGE = re.compile(r"\(\s*[^()\d]{0,12}\d[\d.,]*\s*(?:[-–—]|to|bis|à)\s*[^()\d]{0,4}$")
# Round-the-clock idioms, not quantities: "open 24/7", "24x7 support", "24/7/365".
_IDIOM = re.compile(r"(?<![\d.,])24\s*[/x×]\s*7(?:\s*/\s*365)?(?![\d.,])")


def written_date(m: NumberMention, facts: SourceFacts) -> bool:
    """Whether the sources write the answer's all-digit date with the same characters ("9.4.11").

    Which of its parts is the day and which the month depends on the language it is read in
    (English reads "9.4.11" as 4 September, German, French and Chinese as 9 April), so a Chinese
    answer that copies "第 9.4.11 节" from an English source's "Section 9.4.11" gave two dates and an
    unsupported one. The same digits in the same order say the same thing, whatever they mean."""
    if m.kind != "date" or not re.fullmatch(r"\d{1,4}(?:[./-]\d{1,4}){1,2}", m.text):
        return False
    return m.text.lower() in facts.written


def named_month(m: NumberMention, facts: SourceFacts) -> bool:
    """Whether the answer's figure is a bare month ("7月", "七月": no year, no day) that the sources
    name in words ("in July", "en juillet"): a Chinese answer over English sources writes the
    month as a figure, which the sources' words never are."""
    return m.kind == "date" and m.month is not None and m.year is None and m.day is None and m.month in facts.named_months


def reference_word(answer: str, m: NumberMention) -> str | None:
    """The word that makes a figure a reference to a part ("passage 3", "lines 7 to 10"), or None."""
    if m.kind not in ("number", "ordinal"):
        return None
    ref = _REFERENCE_BEFORE.search(answer[max(0, m.start - 40) : m.start])
    if ref is None:
        return None
    word = ref.group(1).lower()
    if len(word) > _ABBREVIATION and ref.group().startswith(".", len(ref.group(1))):
        return None  # "... for paper documents. 27 years": a full stop, not "Fig. 3" or "No. 5"
    return word if word in REFERENCE_WORDS else None


_LABEL_BEFORE = re.compile(r"(?:^|\n)[ \t*#>\-•]*[^\W\d_]+\.?\s*$")
_CITE_OPEN = re.compile(r"\([^()\n]*$")


def own_label(answer: str, m: NumberMention) -> bool:
    """A numbered part that is the answer's own layout ("Step 3:" opening a line) or a pointer to
    the sources in parentheses ("(Passage 2, Fact 5)"), not a claim about the text."""
    before = answer[max(0, m.start - 40) : m.start]
    return bool(_LABEL_BEFORE.search(before) or _CITE_OPEN.search(before))


def sources_number(facts: SourceFacts, word: str) -> bool:
    """Whether the sources number their own parts with ``word`` too ("lines 7 to 10"): then a
    part the answer numbers differently in the same context is a changed figure, not a reference
    to the sources' layout."""
    return re.search(rf"(?<![^\W\d_]){re.escape(word)}\.?\s*(?:#|no\.?\s*|nr\.?\s*)?\d", facts.lower) is not None


def not_a_claim(answer: str, m: NumberMention, supported_end: int, source_meta: Collection[str] = ()) -> bool:
    """Figures that are not claims about the world.

    A reference to the sources' own parts ("passage 3", "steps 7 and 8"), the top of a rating
    scale ("4 out of 5"), the answer talking about itself ("in 79 words") unless the sources
    count the same thing ("passwords of 6 to 8 characters"), and a conversion in parentheses
    right after a supported figure ("145 degrees F (63 degrees C)") -- that last one only when
    the sources do not give it differently (see ``_detect``).
    """
    if m.kind not in ("number", "ordinal"):
        return False
    idiom = _IDIOM.search(answer, max(0, m.start - 6), min(len(answer), m.end + 10))
    if idiom and idiom.start() <= m.start and m.end <= idiom.end():
        return True
    before = answer[max(0, m.start - 40) : m.start]
    if reference_word(answer, m) is not None:
        return True
    if m.value in (5.0, 10.0, 100.0) and _SCALE_BEFORE.search(before):
        return True
    meta = meta_word(answer, m.end)
    if meta is not None and (meta not in source_meta or _SELF_BEFORE.search(answer, max(0, m.start - 30), m.start)):
        return True
    return conversion(answer, m, supported_end)


def paren_differs(facts: SourceFacts, before: NumberMention, m: NumberMention) -> bool:
    """Whether a source gives ``before`` followed, in parentheses, by a figure of ``m``'s kind
    with another value."""
    text = facts.source.text
    mentions = facts.mentions
    for k, s in enumerate(mentions[:-1]):
        if not same_value(before, s):
            continue
        nxt = mentions[k + 1]
        if nxt.start - s.end > 30 or not _OPEN_PAREN.search(text, s.end, nxt.start):
            continue
        if compatible(m, nxt) and not same_value(m, nxt):
            return True
    return False


def conversion(answer: str, m: NumberMention, supported_end: int) -> bool:
    """A figure in parentheses right after a supported one: a conversion the answer may have
    worked out itself ("145 degrees F (63 degrees C)")."""
    return m.kind in ("number", "ordinal") and 0 <= m.start - supported_end <= 30 and bool(
        _OPEN_PAREN.search(answer, supported_end, m.start) or _OPEN_PAREN_RANGE.search(answer, supported_end, m.start)
    )

