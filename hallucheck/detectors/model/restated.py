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

from collections.abc import Collection, Iterator, Sequence

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.polarity_sentences import SourceSentence, answer_sources, answer_symbols
from hallucheck.text.opposites import NEG, Symbol
from hallucheck.text.swaps import find_swaps

__all__ = ["MIN_CONTENT", "RESTATED_CAP", "WINDOW_FACTOR", "every_sentence_restated", "restated_sentences"]

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


def _without_measure_words(syms: list[Symbol]) -> list[Symbol]:
    """Chinese symbols with a measure word after a demonstrative made a function word."""
    return [s._replace(content=False) if s.content and s.form in _ZH_MEASURE_WORDS and k and syms[k - 1].form in _ZH_DEMONSTRATIVES
            else s for k, s in enumerate(syms)]


def _sentences(analysis: CaseAnalysis, only: Collection[int] | None = None) -> Iterator[tuple[int, list[Symbol], set[str], bool]]:
    """Each answer sentence (among ``only``): its index, its symbols, the forms of its figures, and
    whether it holds a figure at all."""
    zh = analysis.language.lower().startswith("zh")
    for si, (toks, syms) in enumerate(zip(analysis.tokens_by_sentence, answer_symbols(analysis), strict=True)):
        if only is not None and si not in only:
            continue
        if zh:
            syms = _without_measure_words(syms)
        numbers = {t.start for t in toks if t.is_number}
        yield si, syms, {s.form for s in syms if not s.content and s.start in numbers}, bool(numbers)


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


def _restated(syms: list[Symbol], figures: set[str], sources: list[SourceSentence], index: dict[str, list[int]]) -> bool:
    """Whether one answer sentence restates one of ``sources`` (``index``: content form -> sentences)."""
    content = {s.form for s in syms if s.content}
    if sum(s.content for s in syms) < MIN_CONTENT:
        return False
    # the source sentences that hold every content symbol: the rarest symbol's list, filtered
    rarest = min(content, key=lambda w: len(index.get(w, ())))
    return any(_restates(syms, figures, sources[n]) for n in index.get(rarest, ()) if content <= sources[n].norms)


def restated_sentences(analysis: CaseAnalysis, only: Collection[int] | None = None) -> set[int]:
    """Indices (into ``analysis.sentences``) of the answer sentences that restate a source sentence
    (among ``only``, when given: the model layer asks about the sentences the tagger marked)."""
    sources, index = answer_sources(analysis)
    if not sources:
        return set()
    return {si for si, syms, figures, _ in _sentences(analysis, only) if _restated(syms, figures, sources, index)}


def every_sentence_restated(analysis: CaseAnalysis) -> bool:
    """Whether the answer has a sentence with a content word or a figure, and every such sentence
    restates a source sentence ("是的。", "Yes." and a lone citation marker hold none, and are left
    out)."""
    sources, index = answer_sources(analysis)
    found = False
    for _, syms, figures, has_figure in _sentences(analysis):
        if not has_figure and not any(s.content for s in syms):
            continue
        if not _restated(syms, figures, sources, index):
            return False
        found = True
    return found
