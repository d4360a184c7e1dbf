"""Citations that name a real source which does not say the sentence, while another source does.

Why: a valid id is not a correct citation. An answer that copies a sentence from source 8 and
marks it ``[7]`` sends the reader to the wrong place, and nothing in the id tells: the guideline's
rules count it as a good citation. The check is made for what can be told without a model: a
cited stretch of text whose content word pairs (lemmas, stop words and punctuation left out) are
nearly all in one source it does not cite, and mostly absent from every source it does cite. Text
that paraphrases, or combines several sources, reaches neither bound and is left alone: the rule
says "misattributed" only where the answer's own wording shows where the text came from.

The bounds (``MIN_OTHER``, ``MAX_CITED``, ``MIN_PAIRS``) were chosen on the train part of the
rule-made cases of ``hallucheck data synth`` in five languages; docs/detectors-rules.md has the
measurements, and the floor table (``bench/floors.py``) decides per language whether one such
span rejects the answer.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence

from hallucheck.analysis import CaseAnalysis, join_ngrams
from hallucheck.text.citations import CitationMarker
from hallucheck.types import Evidence, Source, Span

__all__ = ["MAX_CITED", "MIN_OTHER", "MIN_PAIRS", "misattributed_spans"]

MIN_OTHER = 0.8  # share of the sentence's content word pairs an uncited source must hold
MAX_CITED = 0.3  # the most any cited source may hold for the citation to count as wrong
MIN_PAIRS = 3  # shorter sentences say too little to tell where they came from


def _coverage(pairs: Sequence[str], source_pairs: Collection[str]) -> float:
    return sum(p in source_pairs for p in pairs) / len(pairs)


def _groups(text: str, markers: Sequence[CitationMarker]) -> list[list[int]]:
    """Markers side by side (``[1][2]``, ``[1], [2]``) cite one stretch of text together."""
    groups: list[list[int]] = []
    for i, mk in enumerate(markers):
        if groups and not any(ch.isalnum() for ch in text[markers[groups[-1][-1]].end : mk.start]):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def misattributed_spans(
    analysis: CaseAnalysis, markers: Sequence[CitationMarker], targets: Sequence[tuple[str, ...]], detector: str
) -> list[Span]:
    """One ``invalid_citation`` span (kind ``misattributed_citation``) per marker whose cited
    sources do not say the text it cites while another source does.

    The text a marker cites is what stands before it: back to the start of its sentence, or to
    the previous marker when that is nearer (answers that cite every clause, or whose sentence
    ends the splitter cannot see). ``targets[i]``: the source ids marker ``i`` names; a marker
    with an unknown id is the invalid-id rule's, and its group is skipped here.
    """
    contexts: list[Source] = list(analysis.case.contexts)
    if len(contexts) < 2 or not markers:
        return []
    index = {src.id: k for k, src in enumerate(contexts)}
    source_pairs = [src.content_ngrams(2) for src in analysis.sources]
    starts = [s.start for s in analysis.marked_sentences]
    tokens = analysis.tokens
    token_starts = [t.start for t in tokens]
    spans: list[Span] = []
    previous_end = 0
    for group in _groups(analysis.case.answer, markers):
        first = markers[group[0]]
        k = bisect_right(starts, first.start) - 1
        begin = max(previous_end, starts[k] if k >= 0 else 0)
        previous_end = markers[group[-1]].end
        if any(not targets[i] for i in group) or any(markers[i].text in src.text for i in group for src in contexts):
            # an unknown id is the invalid-id rule's; a marker the sources contain was copied with
            # their text (a footnote number), not written to cite it
            continue
        cited = {index[t] for i in group for t in targets[i] if t in index}
        if not cited or len(cited) == len(contexts):
            continue
        lo, hi = bisect_left(token_starts, begin), bisect_left(token_starts, first.start)
        words = [t.norm for t in tokens[lo:hi] if t.end <= first.start and not t.is_punct and not t.is_stop]
        pairs = list(join_ngrams(words, 2))
        if len(pairs) < MIN_PAIRS:
            continue
        cover = [_coverage(pairs, sp) for sp in source_pairs]
        best_cited = max(cover[c] for c in cited)
        other = max((c for c in range(len(contexts)) if c not in cited), key=lambda c: cover[c])
        if best_cited > MAX_CITED or cover[other] < MIN_OTHER:
            continue
        named = ", ".join(contexts[c].id for c in sorted(cited))
        for i in group:
            mk = markers[i]
            spans.append(Span(
                start=mk.start, end=mk.end, text=mk.text, label="invalid_citation", score=0.9, detector=detector,
                kind="misattributed_citation",
                reason=(f"cites {named}, which holds {best_cited:.0%} of the cited text's word pairs; source "
                        f"{contexts[other].id} holds {cover[other]:.0%}"),
                evidence=[Evidence(source_id=contexts[other].id, text=contexts[other].text[:300], relation="supports",
                                   score=round(cover[other], 4))],
            ))
    return spans
