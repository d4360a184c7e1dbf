"""Citations that name a real source which does not say the sentence, while another source does.

Why: a valid id is not a correct citation. An answer that copies a sentence from source 8 and
marks it ``[7]`` sends the reader to the wrong place, and nothing in the id tells: the guideline's
rules count it as a good citation. The check is made for what can be told without a model: a
cited stretch of text whose content word pairs (lemmas, stop words and punctuation left out) are
nearly all in one source it does not cite, and mostly absent from every source it does cite. Text
that paraphrases, or combines several sources, reaches neither bound and is left alone: the rule
says "misattributed" only where the answer's own wording shows where the text came from.

The bounds (``MIN_OTHER``, ``MAX_CITED``, ``MIN_PAIRS``) were set before measuring and then
checked, unchanged, on the train and calib parts of the rule-made cases of ``hallucheck data
synth`` in five languages; docs/detectors-rules.md has the measurements, and the floor table
(``bench/floors.py``) decides per language whether one such span rejects the answer.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence
from typing import NamedTuple

from hallucheck.analysis import CaseAnalysis, join_ngrams, source_analysis
from hallucheck.text.citations import CitationMarker, source_sections
from hallucheck.text.tokens import content_tokens
from hallucheck.types import Evidence, Source, Span

__all__ = ["MAX_CITED", "MIN_OTHER", "MIN_PAIRS", "misattributed_spans"]

MIN_OTHER = 0.8  # share of the cited text's content word pairs an uncited source must hold
MAX_CITED = 0.3  # the most any cited source may hold for the citation to count as wrong
MIN_PAIRS = 3  # shorter cited text says too little to tell where it came from


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


class _Unit(NamedTuple):
    """A source, or a numbered section inside one, as a place cited text may come from."""

    source: int
    section: str | None
    text: str
    pairs: Collection[str]

    def name(self, contexts: Sequence[Source]) -> str:
        sid = contexts[self.source].id
        return sid if self.section is None else f"{sid} (section {self.section})"


def _units(analysis: CaseAnalysis) -> list[_Unit]:
    """Every source, and the numbered sections of a source that packs two or more passages."""
    out: list[_Unit] = []
    for k, (src, sa) in enumerate(zip(analysis.case.contexts, analysis.sources, strict=True)):
        out.append(_Unit(k, None, src.text, sa.content_ngrams(2)))
        sections = source_sections(src.text)
        if len({number for number, _, _ in sections}) >= 2:
            for number, a, b in sections:
                body = src.text[a:b]
                out.append(_Unit(k, number, body, source_analysis(body, analysis.language).content_ngrams(2)))
    return out


def _cited_units(units: Sequence[_Unit], cited: set[tuple[int, str | None]]) -> tuple[list[_Unit], list[_Unit]]:
    """(the units the markers name, the units that are neither those nor around them).

    A cited section that was not split out (its source packs fewer than two) stands for its
    whole source; a whole cited source takes its sections along.
    """
    keys = {(u.source, u.section) for u in units}
    whole = {k for k, sec in cited if sec is None or (k, sec) not in keys}
    parts = {(k, sec) for k, sec in cited if sec is not None and (k, sec) in keys and k not in whole}
    named = [u for u in units if (u.section is None and u.source in whole) or (u.source, u.section) in parts]
    around = {k for k, _ in parts}
    others = [u for u in units if u.source not in whole and (u.source, u.section) not in parts
              and not (u.section is None and u.source in around)]
    return named, others


def misattributed_spans(
    analysis: CaseAnalysis, markers: Sequence[CitationMarker], targets: Sequence[tuple[tuple[str, str | None], ...]],
    detector: str,
) -> list[Span]:
    """One ``invalid_citation`` span (kind ``misattributed_citation``) per marker whose cited
    sources do not say the text it cites while another source does.

    The text a marker cites is what stands before it: back to the start of its sentence, or to
    the previous marker when that is nearer (answers that cite every clause, or whose sentence
    ends the splitter cannot see). ``targets[i]``: what marker ``i`` names, as ``(source id,
    section number or None)``; a marker with an unknown id (empty) is the invalid-id rule's, and
    its group is skipped here. A source that packs numbered passages ("passage 1: ...") is
    compared passage by passage, so "(passage 1)" for what passage 2 says is found too.
    """
    contexts: list[Source] = list(analysis.case.contexts)
    if not markers or not contexts:
        return []
    index = {src.id: k for k, src in enumerate(contexts)}
    units = _units(analysis)
    if len(units) < 2:
        return []
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
        if any(not targets[i] for i in group):
            continue  # an unknown id is the invalid-id rule's
        cited = {(index[t], sec) for i in group for t, sec in targets[i] if t in index}
        named, others = _cited_units(units, cited)
        if not named or not others:
            continue
        if all(u.section is None for u in named) and any(markers[i].text in src.text for i in group for src in contexts):
            # a marker the sources contain, naming none of their packed passages, was copied with
            # their text (a footnote number), not written to cite it
            continue
        lo, hi = bisect_left(token_starts, begin), bisect_left(token_starts, first.start)
        words = [t.norm for t in content_tokens(tokens[lo:hi]) if t.end <= first.start]
        pairs = list(join_ngrams(words, 2))
        if len(pairs) < MIN_PAIRS:
            continue
        best_cited = max(_coverage(pairs, u.pairs) for u in named)
        held, other = max(((_coverage(pairs, u.pairs), u) for u in others), key=lambda c: c[0])
        if best_cited > MAX_CITED or held < MIN_OTHER:
            continue
        names = ", ".join(u.name(contexts) for u in named)
        for i in group:
            mk = markers[i]
            spans.append(Span(
                start=mk.start, end=mk.end, text=mk.text, label="invalid_citation", score=0.9, detector=detector,
                kind="misattributed_citation",
                reason=(f"cites {names}, which holds {best_cited:.0%} of the cited text's word pairs; source "
                        f"{other.name(contexts)} holds {held:.0%}"),
                evidence=[Evidence(source_id=contexts[other.source].id, text=other.text.strip()[:300],
                                   relation="supports", score=round(held, 4))],
            ))
    return spans
