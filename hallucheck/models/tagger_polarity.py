"""The tagger's polarity input: where the evidence states a clause of the answer with the opposite negation.

Every word of "the fee is not refundable" occurs in "the fee is refundable", so the lexical inputs
(``in_evidence``, ``novel_bigram``) call each of them supported, and a tagger trained on answers
learns that a "not" is suspicious wherever it stands: the English tagger marked a faithful "not",
stated by the source too, in 58 of 100 calib cases, and put a contradiction span on 3 of 100
answers whose source sentence had been negated. What tells the two apart is a comparison of
clauses, which this module makes exactly and gives the model as one more input (``polarity_clash``):

- a clause is a stretch of a sentence between clause breaks (:data:`hallucheck.text.opposites.BREAK`),
  read by :func:`hallucheck.text.opposites.polarity_symbols` (so "can't", "keine", "n'est", "不能"
  carry their negation, and do-support is left out); it is negated when it holds an odd number of
  negations;
- an answer clause is matched with the evidence clauses that share at least half of its content
  words (and at least two);
- it clashes when some clause matches and none of the matching ones has its negation parity (a
  source may state both; then nothing is marked). Its shared words and its negations are marked, and
  so are the matching evidence clauses' shared words and negations.

The mark is a hint, not a verdict: "not only X but also Y" and "fails to X" read as negation
differently on the two sides, and the model learns how far to trust it from training data that
has both kinds (``hallucheck data source-edits``: negations put into the source, and into both).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hallucheck.text.opposites import BREAK, CORRECTION_WORDS, NEG, polarity_symbols

__all__ = ["Clause", "clauses_of", "clashing_marks", "negated_over"]

Range = tuple[int, int]


@dataclass(frozen=True)
class Clause:
    """One clause: its content forms, and its content words and negations in order."""

    forms: frozenset[str]
    words: tuple[tuple[str, int, int], ...]  # (form, start, end); form NEG for a negation


# Where a clause ends besides the clause breaks of polarity_symbols: the end of a sentence (a unit
# of record text may hold several), and a contrast ("staff isn't always happy but the food is
# stellar": the negation is not the food's).
_SENTENCE_ENDS = frozenset(".!?。！？")
_CONTRASTS = CORRECTION_WORDS | frozenset({"while", "whereas", "although", "though", "however", "während", "obwohl",
                                           "aber", "tandis", "虽然", "雖然", "然而", "而"})
# Values of record fields: "reservations: false" is not a negated clause but a field, which the
# record_fields rules read; a line ending in one gives no clause.
_RECORD_VALUES = frozenset({"true", "false", "null", "none", "yes", "no"})
# How close before a shared word a negation must stand to count, in content words (stop words
# are not counted).
_REACH = 2


def _chunks(tokens: Sequence[Any]) -> list[list[Any]]:
    out: list[list[Any]] = [[]]
    for t in tokens:
        if t.text in _SENTENCE_ENDS or t.text.lower() in _CONTRASTS:
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c and not _record_line(c)]


def _record_line(chunk: Sequence[Any]) -> bool:
    words = [t for t in chunk if not t.is_punct]
    return bool(words) and words[-1].text.lower() in _RECORD_VALUES and any(t.text == ":" for t in chunk)


def clauses_of(tokens: Sequence[Any], language: str) -> tuple[Clause, ...]:
    """The clauses of some tokens (hallucheck Tokens of a sentence or a unit of source text), with
    the tokens' character offsets."""
    out: list[Clause] = []
    for chunk in _chunks(tokens):
        out.extend(_clauses(polarity_symbols(chunk, language)))
    return tuple(out)


def _clauses(symbols: Sequence[Any]) -> list[Clause]:
    out: list[Clause] = []
    current: list[Any] = []
    for sym in [*symbols, None]:
        if sym is None or sym.form == BREAK:
            forms = frozenset(s.form for s in current if s.content)
            if forms:
                words = tuple((s.form, s.start, s.end) for s in current if s.content or s.form == NEG)
                out.append(Clause(forms, words))
            current = []
        else:
            current.append(sym)
    return out


def negated_over(clause: Clause, shared: frozenset[str]) -> bool:
    """Whether the clause negates what it says with the ``shared`` words: an odd number of the
    negations that one of them follows closely (within ``_REACH`` content words: "does not offer
    reservations", "is not yet fully open"); a negation of something else in the same clause ("he
    is not 21 and thinks any place that serves beer is a bar") does not count."""
    words = clause.words
    count = 0
    for i, (f, _, _) in enumerate(words):
        if f == NEG and any(g in shared for g, _, _ in [w for w in words[i + 1 :] if w[0] != NEG][:_REACH]):
            count += 1
    return count % 2 == 1


def _needed(clause: Clause) -> int:
    return max(2, (len(clause.forms) + 1) // 2)


def clashing_marks(
    answer: Sequence[Clause], evidence: Sequence[tuple[int, Clause]]
) -> tuple[list[Range], dict[int, list[Range]]]:
    """Character ranges to mark: in the answer, and per evidence unit (the ints given with ``evidence``).

    For each answer clause, the evidence clauses sharing enough of its content words are its
    matches; when there are some and every one of them has the other negation parity, the
    clause's shared words and negations are marked, and so are the matches'.
    """
    marks: list[Range] = []
    ev_marks: dict[int, list[Range]] = {}
    for a in answer:
        need = _needed(a)
        matches = [(u, e, a.forms & e.forms) for u, e in evidence if len(a.forms & e.forms) >= need]
        if not matches or any(negated_over(a, sh) == negated_over(e, sh) for _, e, sh in matches):
            continue
        shared = frozenset().union(*(sh for _, _, sh in matches))
        marks.extend((s, t) for f, s, t in a.words if f == NEG or f in shared)
        for u, e, _ in matches:
            ev_marks.setdefault(u, []).extend((s, t) for f, s, t in e.words if f == NEG or f in a.forms)
    return marks, ev_marks
