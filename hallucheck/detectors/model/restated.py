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
  sentence not much longer than the answer sentence (:data:`WINDOW_FACTOR`) and with no more
  clause breaks than the answer sentence has, so words picked from two clauses of a sentence do
  not count ("活性炭滤芯每24个月换一次" over "RO膜滤芯每24个月更换一次，活性炭滤芯每12个月更换一次" takes
  its figure from the other clause) (a Chinese measure word after a demonstrative
  is no content word: "这家公司" restates "该公司");
- the two sentences hold the same number of negations;
- no swapped sides: no two terms that trade places around the same words ("X M Y" against
  "Y M X", whatever ``M`` is: :func:`hallucheck.text.swaps.find_swaps` with ``any_middle``).

A length of time the sources give only in another unit ("2年" over "24个月", "a year" over "12
months": :func:`hallucheck.detectors.rules.numbers.converted_durations`) counts as a source
figure, and its unit as no content word: "RO膜每2年换一次" restates "RO膜滤芯建议每24个月更换一次".
So does a figure the sources write another way ("兩萬五千九百元" over "25,900元", "早上八点" over
"上午8点": :func:`hallucheck.detectors.rules.numbers.figures_in_other_forms`): it stands for the
source's figure of the same value, and its characters are no content words.
Then every word it states is a source's word, the way the source uses it, and the tagger's marks
there have nothing left to point at: the model layer keeps its probabilities in such sentences
at or below :data:`RESTATED_CAP`. A different figure, name or word is not a source word, so the
sentence is not restated and the tagger's marks stay.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import SourceSentence
from hallucheck.detectors.rules.polarity_sentences import answer_sources, answer_symbols
from hallucheck.text.durations import Duration, same_length
from hallucheck.text.numbers import NumberMention, same_value
from hallucheck.text.opposites import BREAK, NEG, Symbol
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


class _Sentence(NamedTuple):
    at: int  # its index in analysis.sentences
    symbols: list[Symbol]
    figures: set[str]  # forms of its figures, the converted lengths of time and other forms left out
    has_figure: bool
    converted: list[Duration]  # its lengths of time the sources give in another unit
    other_forms: list[NumberMention]  # its figures the sources write another way ("兩萬五千九百元" for "25,900元")


def _sentences(analysis: CaseAnalysis, only: Collection[int] | None = None) -> Iterator[_Sentence]:
    """Each answer sentence (among ``only``): its index, its symbols, the forms of its figures
    (a length of time the sources give in another unit left out, its symbols made function
    symbols), and whether it holds a figure at all."""
    from hallucheck.detectors.rules.answer_figures import answer_figures  # lazy: loaded only on this path
    from hallucheck.detectors.rules.numbers import converted_durations, figures_in_other_forms  # lazy: loaded only on this path

    zh = analysis.language.lower().startswith("zh")
    converted = converted_durations(analysis)
    ranges = set(figures_in_other_forms(analysis))
    written = [m for m in answer_figures(analysis).found if (m.start, m.end) in ranges] if ranges else []
    for si, (toks, syms) in enumerate(zip(analysis.tokens_by_sentence, answer_symbols(analysis), strict=True)):
        if only is not None and si not in only:
            continue
        if zh:
            syms = _without_measure_words(syms)
        seg = analysis.sentences[si]
        own = [d for d in converted if seg.start <= d.start < seg.end]
        forms = [m for m in written if seg.start <= m.start < seg.end]
        spans = [(d.start, d.end) for d in own] + [(m.start, m.end) for m in forms]
        if spans:
            syms = [s._replace(content=False) if any(a <= s.start and s.end <= b for a, b in spans) else s for s in syms]
        numbers = {t.start for t in toks if t.is_number and not any(a <= t.start < b for a, b in spans)}
        yield _Sentence(si, syms, {s.form for s in syms if not s.content and s.start in numbers}, bool(numbers) or bool(forms),
                        own, forms)


def _window_fits(wanted: set[str], keys: Sequence[frozenset[str]], source: Sequence[Symbol], limit: float,
                 max_breaks: int) -> bool:
    """Whether the source's symbols with keys (``keys[k]``: what symbol ``k`` can stand for) hold
    every key of ``wanted`` within ``limit`` of them in a row, with at most ``max_breaks`` clause
    breaks among them (a minimal covering window, two pointers)."""
    places = [k for k, ks in enumerate(keys) if ks]
    breaks = [0]
    for sym in source:
        breaks.append(breaks[-1] + (sym.form == BREAK))
    need = len(wanted)
    have: dict[str, int] = {}
    covered = 0
    left = 0
    for right, k in enumerate(places):
        for f in keys[k] & wanted:
            have[f] = have.get(f, 0) + 1
            covered += have[f] == 1
        while covered == need:
            if right - left + 1 <= limit and breaks[k] - breaks[places[left]] <= max_breaks:
                return True
            for g in keys[places[left]] & wanted:
                have[g] -= 1
                covered -= have[g] == 0
            left += 1
    return False


def _source_durations(src: SourceSentence, language: str) -> dict[int, Duration]:
    """The lengths of time of a source sentence, by the offset of their figure in its source."""
    from hallucheck.text.durations import find_durations  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.text.numbers import find_numbers  # lazy: already loaded by this module's imports; kept where it is used

    found = find_durations(src.text, find_numbers(src.text, language), language)
    return {src.start + k: d for k, d in found.items()}


def _source_figures(src: SourceSentence, language: str) -> list[NumberMention]:
    """The figures of a source sentence, with offsets into its source."""
    from hallucheck.text.numbers import find_numbers  # lazy: already loaded by this module's imports; kept where it is used

    return [m._replace(start=src.start + m.start, end=src.start + m.end) for m in find_numbers(src.text, language)]


def _restates(sent: _Sentence, src: SourceSentence, language: str) -> bool:
    syms, figures = sent.symbols, sent.figures
    content = {s.form for s in syms if s.content}
    if not content <= src.norms or not figures <= set(src.forms):
        return False
    if sum(s.form == NEG for s in syms) != sum(s.form == NEG for s in src.symbols):
        return False
    # what each source symbol can stand for: its content form, a figure of the answer's, and the
    # answer's converted lengths of time it is as long as ("24" of "24个月" for "2年")
    given = _source_durations(src, language) if sent.converted else {}
    # the answer's figures written another way, and the source figures of the same value
    same = [[s for s in _source_figures(src, language) if same_value(m, s)] for m in sent.other_forms] \
        if sent.other_forms else []
    keys = []
    for sym in src.symbols:
        ks = {sym.form} if sym.content or sym.form in figures else set()
        o = given.get(sym.start)
        if o is not None:
            ks |= {f"\0{n}" for n, d in enumerate(sent.converted) if same_length(d, o)}
        ks |= {f"\1{n}" for n, found in enumerate(same) if any(s.start <= sym.start < s.end for s in found)}
        keys.append(frozenset(ks))
    wanted = content | figures | {f"\0{n}" for n in range(len(sent.converted))} | {f"\1{n}" for n in range(len(same))}
    size = sum(s.content for s in syms) + len(figures) + len(sent.converted) + len(same)
    if not _window_fits(wanted, keys, src.symbols, WINDOW_FACTOR * size + 3, sum(s.form == BREAK for s in syms)):
        return False
    return not find_swaps(syms, src.symbols, any_middle=True)


def _restated(sent: _Sentence, sources: list[SourceSentence], index: dict[str, list[int]], language: str) -> bool:
    """Whether one answer sentence restates one of ``sources`` (``index``: content form -> sentences)."""
    content = {s.form for s in sent.symbols if s.content}
    if len(content) == 0 or sum(s.content for s in sent.symbols) < MIN_CONTENT:
        return False
    # the source sentences that hold every content symbol: the rarest symbol's list, filtered
    rarest = min(content, key=lambda w: len(index.get(w, ())))
    return any(_restates(sent, sources[n], language) for n in index.get(rarest, ()) if content <= sources[n].norms)


def restated_sentences(analysis: CaseAnalysis, only: Collection[int] | None = None) -> set[int]:
    """Indices (into ``analysis.sentences``) of the answer sentences that restate a source sentence
    (among ``only``, when given: the model layer asks about the sentences the tagger marked)."""
    sources, index = answer_sources(analysis)
    if not sources:
        return set()
    return {sent.at for sent in _sentences(analysis, only) if _restated(sent, sources, index, analysis.language)}


def every_sentence_restated(analysis: CaseAnalysis) -> bool:
    """Whether the answer has a sentence with a content word or a figure, and every such sentence
    restates a source sentence ("是的。", "Yes." and a lone citation marker hold none, and are left
    out)."""
    sources, index = answer_sources(analysis)
    found = False
    for sent in _sentences(analysis):
        if not sent.has_figure and not sent.converted and not any(s.content for s in sent.symbols):
            continue
        if not _restated(sent, sources, index, analysis.language):
            return False
        found = True
    return found
