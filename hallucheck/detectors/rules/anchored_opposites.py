"""Opposite words next to a word both sentences share, wherever the rest of the sentence stands.

"Profit fell by 8 percent in 2022 ... because of weak demand in Europe" against "In 2022 the
firm's profit rose 8% ... driven mainly by strong demand in Europe": the answer moved "in 2022"
and reworded the link between the clauses, so a word-by-word alignment of the two sentences
matches "in 2022" and leaves "profit fell" and "profit rose" unaligned, and neither opposite has
matched words on both sides. Read locally, each is plain: "profit fell" / "profit rose" and
"weak demand" / "strong demand" say one thing and its opposite of the same word.

:func:`anchored_opposites` finds such pairs: a content word of the answer whose opposite
(:func:`hallucheck.text.opposites.are_opposites`) stands in the source sentence with the same
content word right before it or right after it in both (the anchor), where

- the two sentences say the same otherwise: ``min_shared`` of the answer's other content words are
  in the source sentence, in any order;
- the source sentence never uses the answer's word (a source that says "rose" of one thing and
  "fell" of another is no contradiction of either);
- the two clauses around the pair hold the same number of negations, modulo two, and neither
  holds a word that negates without one ("not weak" / "strong", "failed to rise" / "fell" agree);
- no source sentence states the answer's own pair of words ("weak demand" said elsewhere).

Each pair is one contradiction, counted alone: two opposites in two clauses ("fell", "weak") are
two changes, not a double negation that cancels. Chinese, read by characters
(:func:`anchored_han_opposites`): a word of two characters against its opposite ("下降" / "增长",
"疲软" / "强劲") next to the same two characters in both ("利润", "需求"); one character's opposite
is too often part of another word (上海 / 下午) to count alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from hallucheck.text.opposites import BREAK, IMPLICIT_NEGATIONS, NEG, Symbol, are_opposites, opposite_candidates

__all__ = ["MIN_SHARED", "anchored_han_opposites", "anchored_opposites"]

# Share of the answer sentence's other content words (the pair's own words and one more left out)
# that the source sentence must hold for the two to be about the same thing.
MIN_SHARED = 0.8


def _clause(syms: Sequence[Symbol], i: int) -> Sequence[Symbol]:
    """The symbols of the clause around position ``i`` (between clause breaks)."""
    lo = i
    while lo > 0 and syms[lo - 1].form != BREAK:
        lo -= 1
    hi = i
    while hi < len(syms) and syms[hi].form != BREAK:
        hi += 1
    return syms[lo:hi]


def _same_polarity(a: Sequence[Symbol], b: Sequence[Symbol]) -> bool:
    """Whether two clauses hold as many negations (modulo two) and no word that negates without one."""
    if any(s.form in IMPLICIT_NEGATIONS or s.word in IMPLICIT_NEGATIONS for s in (*a, *b)):
        return False
    return (sum(s.form == NEG for s in a) - sum(s.form == NEG for s in b)) % 2 == 0


def _anchor(x: Symbol, y: Symbol) -> bool:
    return x.content and y.content and x.form == y.form and x.form not in (NEG, BREAK)


def _states(source: Sequence[Symbol], first: str, second: str) -> bool:
    """Whether ``source`` holds the two forms side by side, in this order."""
    return any(source[k].form == first and source[k + 1].form == second for k in range(len(source) - 1))


def anchored_opposites(answer: Sequence[Symbol], source: Sequence[Symbol], others: Sequence[Sequence[Symbol]] = (),
                       min_shared: float = MIN_SHARED) -> list[tuple[int, int]]:
    """The (answer index, source index) of each opposite pair anchored on a shared neighbour (see
    the module doc); ``others``: the other source sentences read, any of which may state the
    answer's pair and so clear it."""
    s_forms = {s.form for s in source}
    s_words = {s.word for s in source}
    by_name: dict[str, set[int]] = {}  # each source content symbol under its word and its form
    for j, b in enumerate(source):
        if b.content:
            by_name.setdefault(b.word, set()).add(j)
            by_name.setdefault(b.form or b.word, set()).add(j)
    pairs: list[tuple[int, int]] = []
    for i, a in enumerate(answer):
        if a.content and a.form not in s_forms and a.word not in s_words:
            found = set().union(*(by_name.get(c, ()) for c in opposite_candidates(a.word, a.form)))
            pairs.extend((i, j) for j in sorted(found))  # never a.word itself: the source does not use it
    if not pairs:
        return []
    if not _same_statement(answer, source, {i for i, _ in pairs}, min_shared):
        return []
    out = []
    for i, j in pairs:
        for d in (-1, 1):
            if not (0 <= i + d < len(answer) and 0 <= j + d < len(source)) or not _anchor(answer[i + d], source[j + d]):
                continue
            if not _same_polarity(_clause(answer, i), _clause(source, j)):
                continue
            first, second = (answer[i + d].form, answer[i].form) if d < 0 else (answer[i].form, answer[i + d].form)
            if any(_states(o, first, second) for o in others):
                continue
            out.append((i, j))
            break
    return out


def _same_statement(answer: Sequence[Symbol], source: Sequence[Symbol], paired: set[int], min_shared: float) -> bool:
    """Whether ``min_shared`` of the answer's content symbols outside ``paired`` (one left out) are in the source."""
    s_forms = {s.form for s in source}
    rest = [s.form for k, s in enumerate(answer) if s.content and k not in paired]
    return sum(f in s_forms for f in rest) >= min_shared * (len(rest) - 1)


def _word(syms: Sequence[Symbol], k: int, n: int = 2) -> str | None:
    """The ``n`` content symbols from ``k`` joined, or None where they run off the sentence or hold no word."""
    part = syms[k : k + n]
    if k < 0 or len(part) < n or any(not s.content or s.form in (NEG, BREAK) for s in part):
        return None
    return "".join(s.form for s in part)


def anchored_han_opposites(answer: Sequence[Symbol], source: Sequence[Symbol], others: Sequence[Sequence[Symbol]] = (),
                           min_shared: float = MIN_SHARED) -> list[tuple[int, int]]:
    """:func:`anchored_opposites` for Chinese symbols (one a character): the (answer index, source
    index) where a two-character word and its opposite start, next to the same two characters."""
    s_text = "".join(s.form for s in source)
    pairs: list[tuple[int, int]] = []
    for i in range(len(answer) - 1):
        a = _word(answer, i)
        if a is None or a in s_text:
            continue
        pairs.extend((i, j) for j in range(len(source) - 1) if (b := _word(source, j)) is not None and are_opposites(a, b))
    if not pairs or not _same_statement(answer, source, {k for i, _ in pairs for k in (i, i + 1)}, min_shared):
        return []
    out = []
    for i, j in pairs:
        for d in (-2, 2):
            anchor = _word(answer, i + d)
            if anchor is None or anchor != _word(source, j + d):
                continue
            if not _same_polarity(_clause(answer, i), _clause(source, j)):
                continue
            own = _word(answer, i) or ""
            said = anchor + own if d < 0 else own + anchor
            if any(said in "".join(s.form for s in o) for o in others):
                continue
            out.append((i, j))
            break
    return out
