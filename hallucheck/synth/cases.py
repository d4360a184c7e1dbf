"""Labelled cases made from the sections of a corpus: faithful answers and answers with one
labelled error each.

For every section the generator writes, where the text allows:

- faithful answers (``label: false``): ``copy`` (one or two sentences copied), ``reword``
  (connectives reworded), ``paraphrase`` (content words, subject and clause order reworded, see
  :mod:`hallucheck.synth.paraphrase`; one QA-style and one summary-style case), ``summary`` (sentences of several paragraphs in order),
  ``reorder`` (the same, reordered), ``cited`` (a copy with correct citation markers);
- unfaithful answers (``label: true``) with exact spans: ``figure``, ``date``, ``unit``,
  ``term``, ``negation``, ``speculation``, ``swap``, ``antonym`` (see :mod:`hallucheck.synth.edits`), ``foreign``
  (a sentence from a section of another document, ``baseless``), ``citation_invalid`` (a marker
  naming a source id that does not exist) and ``citation_wrong`` (a marker naming a source that
  does not say it), both ``invalid_citation``;
- ``para_<edit>``: one of those sentence edits made in a paraphrased answer, so that rewording
  is not a sign of faithfulness either;
- cross-lingual answers over the translation of the section (``cross_copy``, and one edited
  ``cross_<edit>``), when the corpus has the section in the partner language.

The sources of a case are the section's paragraphs (a window of at most eight; a paragraph of
another document is added when the section has fewer than three). QA-style cases ask about the
section title; summary-style cases ask for a summary of the section. Everything is drawn from a
random generator seeded by (seed, language, section), so a section's cases do not depend on
which other files are in the folder.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hallucheck.eval.split import Part
from hallucheck.synth.citations import STYLE_WEIGHTS, STYLES, CitationStyle
from hallucheck.synth.corpus import Section
from hallucheck.synth.draft import Draft
from hallucheck.synth.drafts_joined import join_drafts, marker_position, put_marker
from hallucheck.synth.edits import (
    SENTENCE_EDITS,
    EditContext,
    edit_figure,
    figure_matches,
    number_absent,
    reword,
)
from hallucheck.synth.lexicon import QUESTION, SUMMARY_QUESTION
from hallucheck.synth.paraphrase import paraphrase
from hallucheck.synth.parts import assign_parts, part_of_key
from hallucheck.text.language import is_chinese
from hallucheck.text.sentences import split_sentences

__all__ = ["EDIT_KINDS", "FAITHFUL_KINDS", "GENERATOR", "PARAPHRASE_EDIT_KINDS", "SynthOptions", "default_partner", "make_cases"]

GENERATOR = "hallucheck.synth/1"
FAITHFUL_KINDS: tuple[str, ...] = ("copy", "reword", "paraphrase", "summary", "reorder", "cited", "cross_copy")
EDIT_KINDS: tuple[str, ...] = (
    "figure", "date", "unit", "term", "negation", "speculation", "foreign", "citation_invalid", "citation_wrong", "swap",
    "antonym",
)
_MAX_SOURCES = 8
_MIN_SOURCES = 3
# Changed figures are the most checkable error and prose gives few of them: every figure of the
# section is changed, in up to ``_FIGURE_VARIANTS`` cases of its own (another new value, style
# and set of sources each time). Dates: up to three a section.
_REPEATS = {"date": 3}
_FIGURE_VARIANTS = 2
_MAX_FIGURES = 12
_CROSS_EDITS = ("figure", "negation", "term", "date", "unit")
_PARA_EDITS = ("figure", "negation", "term", "swap", "date", "unit")
PARAPHRASE_EDIT_KINDS: tuple[str, ...] = tuple(f"para_{k}" for k in _PARA_EDITS)


def default_partner(language: str) -> str:
    """The language of the sources of cross-lingual cases: English, or Simplified Chinese for English."""
    return "zh-Hans" if language == "en" else "en"


@dataclass(frozen=True)
class SynthOptions:
    """What to generate: the seed, how often an unfaithful case also carries correct markers, and
    whether to write the ``paraphrase`` and ``para_<edit>`` cases and the ``antonym`` cases (off:
    the files as they were before those kinds, so that earlier measurements can be reproduced)."""

    seed: int = 13
    cited_share: float = 0.25
    paraphrase: bool = True
    antonym: bool = True


@dataclass
class _Piece:
    """One sentence of an answer: its draft, the source it came from (-1: none), its origin."""

    draft: Draft
    source: int
    origin: tuple[int, int] = (-1, -1)  # (paragraph, sentence) in the section


@dataclass
class _Pools:
    """Sentences and paragraphs of other documents, by part, for ``foreign`` answers and extra sources."""

    sentences: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # part -> [(path, key, sentence)]
    paragraphs: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)

    def others(self, kind: str, part: str, section: Section) -> list[str]:
        """Texts of the part from other files, or from other sections when the corpus is one file."""
        pool = self.sentences if kind == "sentences" else self.paragraphs
        items = pool.get(part, [])
        out = [t for path, _, t in items if path != section.path]
        return out or [t for _, key, t in items if key != section.key]


def _sentences(paragraph: str, language: str) -> list[str]:
    least = 8 if is_chinese(language) else 20
    return [s.text for s in split_sentences(paragraph) if len(s.text) >= least]


def _pools(sections: Sequence[Section], parts: Mapping[str, Part]) -> _Pools:
    pools = _Pools()
    for sec in sections:
        part = parts.get(sec.key) or part_of_key(sec.key)
        for para in sec.paragraphs:
            pools.paragraphs.setdefault(part, []).append((sec.path, sec.key, para))
            for s in _sentences(para, sec.language):
                pools.sentences.setdefault(part, []).append((sec.path, sec.key, s))
    return pools


class _SectionWriter:
    """The cases of one section."""

    def __init__(
        self, section: Section, part: Part, options: SynthOptions, pools: _Pools, partner: Section | None,
        partner_pools: _Pools,
    ) -> None:
        self.sec = section
        self.lang = section.language
        self.part = part
        self.rng = random.Random(f"{options.seed}\x1f{self.lang}\x1f{section.key}")
        self.options = options
        self.pools = pools
        self.partner = partner
        self.partner_pools = partner_pools
        self.sents = [_sentences(p, self.lang) for p in section.paragraphs]
        self.count = 0

    # -- sources ----------------------------------------------------------------------------
    def _window(self, paragraphs: Sequence[str], must: int | None = None) -> tuple[int, int]:
        n = len(paragraphs)
        if n <= _MAX_SOURCES:
            return 0, n
        if must is None:
            lo = self.rng.randrange(0, n - _MAX_SOURCES + 1)
        else:
            lo = self.rng.randrange(max(0, must - _MAX_SOURCES + 1), min(must, n - _MAX_SOURCES) + 1)
        return lo, lo + _MAX_SOURCES

    def _sources(self, section: Section, lo: int, hi: int, pools: _Pools) -> tuple[list[str], list[int]]:
        """The source texts of a case and, for each paragraph of the window, its source index."""
        texts = list(section.paragraphs[lo:hi])
        index = list(range(len(texts)))
        if len(texts) < _MIN_SOURCES:
            pool = [p for p in pools.others("paragraphs", self.part, section) if p not in texts]
            for _ in range(_MIN_SOURCES - len(texts)):
                if not pool:
                    break
                extra = self.rng.choice(pool)
                pool.remove(extra)
                at = self.rng.randrange(0, len(texts) + 1)
                texts.insert(at, extra)
                index = [i + 1 if i >= at else i for i in index]
        return texts, index

    # -- answers ----------------------------------------------------------------------------
    def _spots(self, lo: int, hi: int) -> list[tuple[int, int]]:
        return [(p, s) for p in range(lo, hi) for s in range(len(self.sents[p]))]

    def _companions(self, style: str, p: int, s: int, lo: int, hi: int) -> list[tuple[int, int]]:
        """Other sentences of the answer around the sentence ``(p, s)``, in document order."""
        rng = self.rng
        if style == "qa":
            extra = [(p, s + 1)] if s + 1 < len(self.sents[p]) else [(p, s - 1)] if s > 0 else []
            picked = extra if extra and rng.random() < 0.5 else []
        else:
            others = [q for q in range(lo, hi) if q != p and self.sents[q]]
            rng.shuffle(others)
            picked = [(q, 0) for q in others[: rng.choice((1, 2))]]
        return sorted(picked + [(p, s)])

    def _question(self, style: str) -> str:
        title = self.sec.title or self.sec.key.rpartition("#")[2]
        title = title.split(". ", 1)[1] if title[:1].isdigit() and ". " in title else title
        if style == "summary":
            return SUMMARY_QUESTION[self.lang].format(title=title)
        return self.rng.choice(QUESTION[self.lang]).format(title=title)

    def _style(self) -> CitationStyle:
        return self.rng.choices(STYLES, weights=STYLE_WEIGHTS)[0]

    def _record(
        self,
        kind: str,
        style: str,
        question: str,
        sources: Sequence[str],
        answer: Draft,
        cite: CitationStyle | None,
        *,
        source_language: str | None = None,
    ) -> dict[str, Any]:
        ids = [cite.source_id(i) if cite else str(i + 1) for i in range(len(sources))]
        spans = answer.sorted_spans()
        for sp in spans:
            if not (0 <= sp.start < sp.end <= len(answer.text)):
                raise AssertionError(f"bad span {sp} in {answer.text!r}")
        self.count += 1
        return {
            "id": f"{self.lang}:{self.sec.key}:{kind}:{self.count}",
            "question": question,
            "contexts": [{"id": i, "text": t} for i, t in zip(ids, sources)],
            "answer": answer.text,
            "task": style,
            "language": self.lang,
            "label": bool(spans),
            "spans": [{"start": s.start, "end": s.end, "label": s.label, "text": answer.text[s.start : s.end]} for s in spans],
            "part": self.part,
            "metadata": {
                "edit": kind,
                "source_doc": self.sec.key,
                "source_language": source_language or self.lang,
                "style": style,
                "citation_style": cite.name if cite else None,
                "generator": GENERATOR,
            },
        }

    def _build(
        self,
        kind: str,
        style: str,
        lo: int,
        hi: int,
        spots: Sequence[tuple[int, int]],
        edited: dict[tuple[int, int], Draft] | None = None,
        *,
        cited: bool = False,
        reorder: bool = False,
        foreign: str | None = None,
        bad_marker: str | None = None,
    ) -> dict[str, Any] | None:
        sources, index = self._sources(self.sec, lo, hi, self.pools)
        pieces = [
            _Piece(Draft(d.text, list(d.spans)) if (d := (edited or {}).get(spot)) else Draft(self.sents[spot[0]][spot[1]]),
                   index[spot[0] - lo], spot)
            for spot in spots
        ]
        if reorder:
            order = list(range(len(pieces)))
            while order == sorted(order):
                self.rng.shuffle(order)
            pieces = [pieces[i] for i in order]
        foreign_piece: _Piece | None = None
        if foreign is not None:
            at = self.rng.randrange(0, len(pieces) + 1)
            foreign_piece = _Piece(Draft(foreign), -1)
            pieces.insert(at, foreign_piece)
        cite = self._style() if cited or bad_marker else None
        if cite is not None:
            wrong_at = self.rng.choice([k for k, pc in enumerate(pieces) if pc.source >= 0]) if bad_marker else -1
            for k, pc in enumerate(pieces):
                target = pc.source if pc.source >= 0 else self.rng.randrange(len(sources))
                if k == wrong_at and bad_marker == "invalid":
                    sid = cite.missing_id(len(sources), self.rng.choice((1, 1, 2, 3)))
                    put_marker(pc.draft, cite.marker(sid, self.lang), self.lang, "invalid_citation")
                elif k == wrong_at and bad_marker == "wrong":
                    sentence = self.sents[pc.origin[0]][pc.origin[1]]
                    others = [i for i, t in enumerate(sources) if i != pc.source and sentence not in t]
                    if not others:
                        return None
                    sid = cite.source_id(self.rng.choice(others))
                    put_marker(pc.draft, cite.marker(sid, self.lang), self.lang, "invalid_citation")
                else:
                    put_marker(pc.draft, cite.marker(cite.source_id(target), self.lang), self.lang)
        if foreign_piece is not None:
            # The invented sentence is the span, without its citation marker and final stop.
            end, _ = marker_position(foreign_piece.draft.text)
            end = len(foreign_piece.draft.text[:end].rstrip())
            foreign_piece.draft.label(0, end, "baseless")
        answer = join_drafts([pc.draft for pc in pieces], self.lang)
        return self._record(kind, style, self._question(style), sources, answer, cite)

    # -- the kinds --------------------------------------------------------------------------
    def cases(self) -> Iterator[dict[str, Any]]:
        if not any(self.sents):
            return
        rng = self.rng
        yield from self._faithful()
        used: set[tuple[str, int, int]] = set()
        yield from self._figures()
        for kind in [k for k in EDIT_KINDS if k not in ("figure", "swap", "antonym") for _ in range(_REPEATS.get(k, 1))]:
            style = "qa" if rng.random() < 0.6 else "summary"
            lo, hi = self._window(self.sec.paragraphs)
            spots = [sp for sp in self._spots(lo, hi)]
            if not spots:
                continue
            rng.shuffle(spots)
            case: dict[str, Any] | None = None
            if kind in SENTENCE_EDITS:
                source_text = "\n".join(self.sec.paragraphs)
                ctx = EditContext(self.lang, source_text, self.sec.terms, rng)
                for p, s in spots[:40]:
                    if (kind, p, s) in used:
                        continue
                    draft = SENTENCE_EDITS[kind](self.sents[p][s], ctx)
                    if draft is not None:
                        used.add((kind, p, s))
                        case = self._build(kind, style, lo, hi, self._companions(style, p, s, lo, hi), {(p, s): draft},
                                           cited=rng.random() < self.options.cited_share)
                        if case is not None and not _new_values_absent(case):
                            case = None  # an added source gives the new value: try another sentence
                            continue
                        break
            elif kind == "foreign":
                pool = self.pools.others("sentences", self.part, self.sec)
                if pool:
                    text = rng.choice(pool)
                    if all(text not in para for para in self.sec.paragraphs):
                        p, s = spots[0]
                        spots_used = self._companions("qa", p, s, lo, hi) if style == "qa" else self._companions(style, p, s, lo, hi)
                        case = self._build(kind, style, lo, hi, spots_used, foreign=text,
                                           cited=rng.random() < self.options.cited_share)
            else:
                p, s = spots[0]
                case = self._build(kind, style, lo, hi, self._companions(style, p, s, lo, hi),
                                   bad_marker="invalid" if kind == "citation_invalid" else "wrong")
            if case is not None:
                yield case
        if self.partner is not None:
            yield from self._cross()
        yield from self._late("swap")
        if self.options.paraphrase:
            yield from self._paraphrased()
        if self.options.antonym:
            yield from self._late("antonym")

    def _late(self, kind: str) -> Iterator[dict[str, Any]]:
        """One case of a sentence edit added after the others (``swap``, ``antonym``), drawn with a
        generator of its own, so that adding the kind changed no case the generator wrote before it."""
        self.rng = rng = random.Random(f"{self.options.seed}\x1f{self.lang}\x1f{self.sec.key}\x1f{kind}")
        style = "qa" if rng.random() < 0.6 else "summary"
        lo, hi = self._window(self.sec.paragraphs)
        spots = self._spots(lo, hi)
        rng.shuffle(spots)
        ctx = EditContext(self.lang, "\n".join(self.sec.paragraphs), self.sec.terms, rng)
        for p, s in spots[:40]:
            draft = SENTENCE_EDITS[kind](self.sents[p][s], ctx)
            if draft is not None:
                case = self._build(kind, style, lo, hi, self._companions(style, p, s, lo, hi), {(p, s): draft},
                                   cited=rng.random() < self.options.cited_share)
                if case is not None:
                    yield case
                return

    def _paraphrased(self) -> Iterator[dict[str, Any]]:
        """``paraphrase`` cases (QA and summary style) and one ``para_<edit>``, drawn with a
        generator of their own and written last, so that adding them changed no earlier case."""
        self.rng = rng = random.Random(f"{self.options.seed}\x1f{self.lang}\x1f{self.sec.key}\x1fparaphrase")
        ctx = EditContext(self.lang, "\n".join(self.sec.paragraphs), self.sec.terms, rng)
        lo, hi = self._window(self.sec.paragraphs)
        spots = self._spots(lo, hi)
        if not spots:
            return
        firsts = [(q, 0) for q in range(lo, hi) if self.sents[q]]
        plans = [("qa", self._companions("qa", *rng.choice(spots), lo, hi))]
        if len(firsts) >= 2:
            plans.append(("summary", sorted(rng.sample(firsts, min(len(firsts), rng.choice((2, 3)))))))
        for style, chosen in plans:
            edited = self._reworded(chosen, ctx)
            if edited:
                yield from self._maybe(self._build("paraphrase", style, lo, hi, chosen, edited,
                                                   cited=rng.random() < self.options.cited_share))
        shuffled = list(spots)
        rng.shuffle(shuffled)
        kinds = list(_PARA_EDITS)
        rng.shuffle(kinds)
        style = "qa" if rng.random() < 0.6 else "summary"
        for p, s in shuffled[:20]:
            draft = paraphrase(self.sents[p][s], ctx)
            if draft is None:
                continue
            for kind in kinds:
                changed = SENTENCE_EDITS[kind](draft.text, ctx)
                if changed is None:
                    continue
                chosen = self._companions(style, p, s, lo, hi)
                edited = self._reworded([sp for sp in chosen if sp != (p, s)], ctx)
                edited[(p, s)] = changed
                case = self._build(f"para_{kind}", style, lo, hi, chosen, edited,
                                   cited=rng.random() < self.options.cited_share)
                if case is not None and _new_values_absent(case):
                    yield case
                    return

    def _reworded(self, spots: Sequence[tuple[int, int]], ctx: EditContext) -> dict[tuple[int, int], Draft]:
        """Paraphrases of the sentences at ``spots`` (those the rules can reword)."""
        out: dict[tuple[int, int], Draft] = {}
        for p, s in spots:
            draft = paraphrase(self.sents[p][s], ctx)
            if draft is not None:
                out[(p, s)] = draft
        return out

    def _figures(self) -> Iterator[dict[str, Any]]:
        """``figure`` cases: each figure of the section's sentences, changed (in a window of
        sources around its paragraph)."""
        rng = self.rng
        source_text = "\n".join(self.sec.paragraphs)
        made = 0
        for p, sentences in enumerate(self.sents):
            for s, sentence in enumerate(sentences):
                for which in range(len(figure_matches(sentence))):
                    for _ in range(_FIGURE_VARIANTS):
                        if made >= _MAX_FIGURES:
                            return
                        draft = edit_figure(sentence, EditContext(self.lang, source_text, self.sec.terms, rng), which)
                        if draft is None:
                            break
                        style = "qa" if rng.random() < 0.6 else "summary"
                        lo, hi = self._window(self.sec.paragraphs, must=p)
                        case = self._build("figure", style, lo, hi, self._companions(style, p, s, lo, hi), {(p, s): draft},
                                           cited=rng.random() < self.options.cited_share)
                        if case is not None and _new_values_absent(case):
                            made += 1
                            yield case

    def _faithful(self) -> Iterator[dict[str, Any]]:
        rng = self.rng
        lo, hi = self._window(self.sec.paragraphs)
        spots = self._spots(lo, hi)
        if not spots:
            return
        p, s = rng.choice(spots)
        yield from self._maybe(self._build("copy", "qa", lo, hi, self._companions("qa", p, s, lo, hi)))
        shuffled = list(spots)
        rng.shuffle(shuffled)
        ctx = EditContext(self.lang, "\n".join(self.sec.paragraphs), self.sec.terms, rng)
        for p, s in shuffled[:40]:
            draft = reword(self.sents[p][s], ctx)
            if draft is not None:
                yield from self._maybe(self._build("reword", "qa", lo, hi, [(p, s)], {(p, s): draft}))
                break
        firsts = [(q, 0) for q in range(lo, hi) if self.sents[q]]
        if len(firsts) >= 2:
            chosen = sorted(rng.sample(firsts, min(len(firsts), rng.choice((2, 3)))))
            yield from self._maybe(self._build("summary", "summary", lo, hi, chosen))
            chosen = sorted(rng.sample(firsts, min(len(firsts), rng.choice((2, 3)))))
            yield from self._maybe(self._build("reorder", "summary", lo, hi, chosen, reorder=True))
        p, s = rng.choice(spots)
        style = "qa" if rng.random() < 0.6 else "summary"
        yield from self._maybe(self._build("cited", style, lo, hi, self._companions(style, p, s, lo, hi), cited=True))

    @staticmethod
    def _maybe(case: dict[str, Any] | None) -> Iterator[dict[str, Any]]:
        if case is not None:
            yield case

    # -- cross-lingual ----------------------------------------------------------------------
    def _aligned(self) -> list[tuple[int, int]]:
        """Pairs (paragraph here, paragraph in the partner) that translate each other."""
        assert self.partner is not None
        where = {pos: i for i, pos in enumerate(self.partner.positions)}
        pairs = []
        for i, pos in enumerate(self.sec.positions):
            j = where.get(pos)
            if j is None:
                continue
            a, b = self.sec.paragraphs[i], self.partner.paragraphs[j]
            if sorted(_digits(a)) != sorted(_digits(b)) or not _lengths_match(a, self.lang, b, self.partner.language):
                continue
            if len(a) > (300 if is_chinese(self.lang) else 600):
                continue
            pairs.append((i, j))
        return pairs

    def _cross(self) -> Iterator[dict[str, Any]]:
        assert self.partner is not None
        pairs = self._aligned()
        if not pairs:
            return
        rng = self.rng
        partner = self.partner
        i, j = rng.choice(pairs)
        lo, hi = self._window(partner.paragraphs, must=j)
        sources, _ = self._sources(partner, lo, hi, self.partner_pools)
        style = "qa"
        answer = Draft(self.sec.paragraphs[i])
        yield self._record("cross_copy", style, self._question(style), sources, answer, None,
                           source_language=partner.language)
        i, j = rng.choice(pairs)
        lo, hi = self._window(partner.paragraphs, must=j)
        sources, _ = self._sources(partner, lo, hi, self.partner_pools)
        ctx = EditContext(self.lang, "\n".join(sources), tuple(self.sec.terms) + tuple(partner.terms), rng)
        kinds = list(_CROSS_EDITS)
        rng.shuffle(kinds)
        kinds.sort(key=lambda k: k != "figure")  # a changed figure first: the check that crosses languages
        for kind in kinds:
            draft = SENTENCE_EDITS[kind](self.sec.paragraphs[i], ctx)
            if draft is not None:
                case = self._record(f"cross_{kind}", style, self._question(style), sources, draft, None,
                                    source_language=partner.language)
                if _new_values_absent(case):
                    yield case
                    return


def _new_values_absent(case: dict[str, Any]) -> bool:
    """Whether no source of the case gives a changed figure or date (the sources added to a
    short section come from elsewhere and might)."""
    if case["metadata"]["edit"].removeprefix("cross_").removeprefix("para_") not in ("figure", "date"):
        return True
    text = "\n".join(c["text"] for c in case["contexts"])
    for span in case["spans"]:
        value = span["text"]
        if value[:1].isdigit():
            if not number_absent(value, text, case["language"]):
                return False
        elif value in text:
            return False
    return True


def _digits(text: str) -> list[str]:
    import regex  # lazy: already loaded by this module's imports; kept where it is used

    return [str(d) for d in regex.findall(r"\d+", text)]


def _lengths_match(a: str, lang_a: str, b: str, lang_b: str) -> bool:
    """Whether two paragraphs are of lengths a translation pair has (Chinese is 2 to 6 times shorter)."""
    la, lb = len(a) * (3.0 if is_chinese(lang_a) else 1.0), len(b) * (3.0 if is_chinese(lang_b) else 1.0)
    return 0.45 <= la / max(lb, 1.0) <= 2.2


def make_cases(
    sections: Sequence[Section],
    options: SynthOptions | None = None,
    partners: Sequence[Section] = (),
    on_section: Callable[[int], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """The labelled cases of ``sections`` (one language); ``partners`` are the same sections in the
    language of the cross-lingual sources (matched by key; none: no cross-lingual cases). Each
    section's part is :func:`hallucheck.synth.parts.assign_parts`' (every part has a section when
    there are three or more). ``on_section`` is told how many sections are done after each one
    (a progress bar's count)."""
    options = options or SynthOptions()
    parts = assign_parts(sec.key for sec in sections)
    pools = _pools(sections, parts)
    partner_pools = _pools(partners, parts)
    by_key = {p.key: p for p in partners}
    for done, sec in enumerate(sorted(sections, key=lambda s: s.key), start=1):
        yield from _SectionWriter(sec, parts[sec.key], options, pools, by_key.get(sec.key), partner_pools).cases()
        if on_section is not None:
            on_section(done)
