"""Answer sentences that restate one source sentence in another word order.

Why: the span tagger reads word order, and it learned swapped roles from edits that reorder the
words of a copied sentence. So "该公司2015年成立于杭州" over the source "该公司于2015年在杭州成立" (the
same statement; "成立于杭州" and "在杭州成立" are both "founded in Hangzhou") gets 成立 and 杭州
marked as a contradiction, and a short faithful answer is rejected. Whether a reordered sentence
swaps roles, drops a negation or says the opposite is what the ``opposites`` rules check
precisely. A sentence is *restated* when

- it has at least :data:`MIN_CONTENT` content symbols (lemmas; Chinese by characters, as
  :func:`hallucheck.text.opposites.polarity_symbols` reads them), every one of them and every
  figure of the sentence in a single source sentence, all of them within a stretch of that
  sentence not much longer than the answer sentence (:data:`WINDOW_FACTOR`), so words picked
  from two clauses of a long sentence do not count (a Chinese measure word after a demonstrative
  is no content word: "这家公司" restates "该公司");
- the two sentences hold the same number of negations;
- no swapped sides: no two terms that trade places around the same words ("X M Y" against
  "Y M X", whatever ``M`` is: :func:`hallucheck.text.swaps.find_swaps` with ``any_middle``).

Then every word it states is a source's word, the way the source uses it, and the tagger's marks
there have nothing left to point at: the model layer keeps its probabilities in such sentences
at or below :data:`RESTATED_CAP`. A different figure, name or word is not a source word, so the
sentence is not restated and the tagger's marks stay.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.polarity_sentences import SourceSentence, source_sentences
from hallucheck.text.opposites import NEG, Symbol, polarity_symbols
from hallucheck.text.swaps import find_swaps
from hallucheck.text.tokens import Token

__all__ = ["MIN_CONTENT", "RESTATED_CAP", "WINDOW_FACTOR", "content_sentences", "restated_sentences"]

# Fewer content symbols than this say too little to be matched by chance-free coverage.
MIN_CONTENT = 3
# The stretch of the source sentence holding all the answer sentence's content symbols may be at
# most this many times as long (in content symbols) as the answer sentence has, plus 3.
WINDOW_FACTOR = 1.5
# The tagger's probability cap in a restated sentence: what it gives a copied sentence.
RESTATED_CAP = 0.1
# Chinese demonstratives and the measure words after them: "这家公司" and "这款产品" restate
# "该公司" and "该产品" (the measure word only counts the noun; it states nothing).
_ZH_DEMONSTRATIVES = frozenset("这這那该該此本每")
_ZH_MEASURE_WORDS = frozenset("家位款项項种種所座台臺部条條张張份只隻件名间間门門辆輛架")


def _symbols(tokens: Sequence[Token], language: str) -> list[Symbol]:
    """The alignment symbols of an answer sentence, a Chinese measure word after a demonstrative
    made a function word."""
    syms = polarity_symbols(tokens, language)
    if not language.lower().startswith("zh"):
        return syms
    return [s._replace(content=False) if s.content and s.form in _ZH_MEASURE_WORDS and k and syms[k - 1].form in _ZH_DEMONSTRATIVES
            else s for k, s in enumerate(syms)]


def _window_fits(wanted: set[str], source: Sequence[Symbol], limit: float) -> bool:
    """Whether the source's content symbols hold every form of ``wanted`` within ``limit`` of them
    in a row (a minimal covering window, two pointers)."""
    forms = [s.form for s in source if s.content]
    need = len(wanted)
    have: dict[str, int] = {}
    covered = 0
    left = 0
    for right, f in enumerate(forms):
        if f in wanted:
            have[f] = have.get(f, 0) + 1
            covered += have[f] == 1
        while covered == need:
            if right - left + 1 <= limit:
                return True
            g = forms[left]
            if g in wanted:
                have[g] -= 1
                covered -= have[g] == 0
            left += 1
    return False


def _restates(syms: list[Symbol], figures: set[str], src: SourceSentence) -> bool:
    content = {s.form for s in syms if s.content}
    if not content <= src.norms or not figures <= set(src.forms):
        return False
    if sum(s.form == NEG for s in syms) != sum(s.form == NEG for s in src.symbols):
        return False
    n_content = sum(s.content for s in syms)
    if not _window_fits(content, src.symbols, WINDOW_FACTOR * n_content + 3):
        return False
    return not find_swaps(syms, src.symbols, any_middle=True)


def restated_sentences(analysis: CaseAnalysis, only: Collection[int] | None = None) -> set[int]:
    """Indices (into ``analysis.sentences``) of the answer sentences that restate a source sentence
    (among ``only``, when given: the model layer asks about the sentences the tagger marked)."""
    language = analysis.language
    sources = [s for k, sa in enumerate(analysis.sources) for s in source_sentences(sa, k, language)]
    if not sources:
        return set()
    index: dict[str, list[int]] = {}
    for n, s in enumerate(sources):
        for w in s.norms:
            index.setdefault(w, []).append(n)
    markers = [(m.start, m.end) for m in analysis.citation_markers]
    out: set[int] = set()
    for si, toks in enumerate(analysis.tokens_by_sentence):
        if only is not None and si not in only:
            continue
        kept = [t for t in toks if not any(a <= t.start < b for a, b in markers)]
        syms = _symbols(kept, language)
        content = {s.form for s in syms if s.content}
        # figures are no content words, and a changed one is the commonest error: each must be there too
        figures = {s.form for s in syms if not s.content and any(t.is_number and t.start == s.start for t in kept)}
        if sum(s.content for s in syms) < MIN_CONTENT:
            continue
        # the source sentences that hold every content symbol: the rarest symbol's list, filtered
        rarest = min(content, key=lambda w: len(index.get(w, ())))
        if any(_restates(syms, figures, sources[n]) for n in index.get(rarest, ()) if content <= sources[n].norms):
            out.add(si)
    return out


def content_sentences(analysis: CaseAnalysis) -> set[int]:
    """Indices of the answer sentences that hold a content word or a figure ("是的。", "Yes." and a
    lone citation marker hold none, and restate nothing)."""
    markers = [(m.start, m.end) for m in analysis.citation_markers]
    out: set[int] = set()
    for si, toks in enumerate(analysis.tokens_by_sentence):
        kept = [t for t in toks if not any(a <= t.start < b for a, b in markers)]
        if any(t.is_number for t in kept) or any(s.content for s in _symbols(kept, analysis.language)):
            out.add(si)
    return out

