"""merge_spans: properties that must hold for any set of detector spans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.spans import LABEL_PRIORITY, merge_spans, tidy_spans
from hallucheck.types import Evidence, Span

TEXT = "The company was founded in 2010 in Paris by Jean Dupont and makes bicycles."
LABELS = sorted(LABEL_PRIORITY)


@st.composite
def spans(draw: st.DrawFn) -> Span:
    start = draw(st.integers(0, len(TEXT) - 1))
    end = draw(st.integers(start + 1, len(TEXT)))  # detectors flag text: spans are never empty
    detector = draw(st.sampled_from(["numbers", "ngram", "model", "lexicon"]))
    return Span(
        start=start,
        end=end,
        text=TEXT[start:end],
        label=draw(st.sampled_from(LABELS)),
        score=draw(st.floats(0.0, 1.0)),
        detector=detector,
        reason=draw(st.sampled_from(["", f"{detector} says so"])),
        evidence=[Evidence(source_id="s1", text=f"{detector} evidence")] if draw(st.booleans()) else [],
    )


def _chars(items: list[Span]) -> set[int]:
    return {i for s in items for i in range(s.start, s.end)}


@settings(max_examples=300, deadline=None)
@given(st.lists(spans(), max_size=12))
def test_merged_spans_are_ordered_disjoint_and_cover_the_same_characters(found: list[Span]) -> None:
    merged = merge_spans(found, TEXT)
    assert all(a.end <= b.start for a, b in zip(merged, merged[1:]))
    assert _chars(merged) == _chars(found)
    assert all(m.text == TEXT[m.start : m.end] for m in merged)
    assert len(merged) <= len(found)


@settings(max_examples=300, deadline=None)
@given(st.lists(spans(), max_size=12))
def test_each_span_lands_in_one_merged_span_that_keeps_its_strength_and_evidence(found: list[Span]) -> None:
    merged = merge_spans(found, TEXT)
    for s in found:
        homes = [m for m in merged if m.start <= s.start and s.end <= m.end]
        assert len(homes) == 1, s
        home = homes[0]
        assert home.score >= s.score
        assert set(s.detector.split("+")) <= set(home.detector.split("+"))
        assert all(e in home.evidence for e in s.evidence)
    for m in merged:
        inside = [s for s in found if m.start <= s.start and s.end <= m.end]
        assert m.score == max(s.score for s in inside)


@given(st.lists(spans(), max_size=12))
def test_merging_twice_changes_nothing(found: list[Span]) -> None:
    once = merge_spans(found, TEXT)
    assert merge_spans(once, TEXT) == once


def test_overlap_takes_the_stronger_label_and_contradiction_wins_ties() -> None:
    a = Span(start=0, end=10, text=TEXT[0:10], label="baseless", score=0.7, detector="ngram", reason="new words")
    b = Span(start=5, end=20, text=TEXT[5:20], label="contradiction", score=0.7, detector="numbers", reason="figure differs")
    [m] = merge_spans([a, b], TEXT)
    assert (m.start, m.end, m.label, m.detector) == (0, 20, "contradiction", "ngram+numbers")
    assert m.reason == "new words; figure differs"
    touching = Span(start=20, end=25, text=TEXT[20:25], label="baseless", score=0.2, detector="model")
    assert len(merge_spans([b, touching], TEXT)) == 2  # touching spans stay apart


def _span(text: str, part: str, label: str = "baseless", score: float = 0.9, detector: str = "model", **kw: object) -> Span:
    a = text.index(part)
    return Span(start=a, end=a + len(part), text=part, label=label, score=score, detector=detector, **kw)  # type: ignore[arg-type]


def _tokens(answer: str, language: str = "en") -> list:  # type: ignore[type-arg]
    return CaseAnalysis(make_case(contexts=["x"], answer=answer, language=language)).tokens


def test_a_precise_contradiction_beats_a_stronger_baseless_span() -> None:
    text = "2022年净利润为4.3亿元。"
    tagger = _span(text, "净利润为4.3亿元", score=0.97)
    numbers = _span(text, "4.3亿元", label="contradiction", score=0.8, detector="numbers", kind="contradicted_figure")
    [merged] = merge_spans([tagger, numbers], text)
    assert (merged.label, merged.kind, merged.score) == ("contradiction", "contradicted_figure", 0.97)
    assert merged.detector == "model+numbers"


def test_spans_grow_to_whole_words_and_lose_punctuation() -> None:
    text = "The tower was finished in 1899. You can visit it daily."
    out = tidy_spans([_span(text, "ished in 189"), _span(text, ". You can visit")], text, _tokens(text))
    assert [s.text for s in out] == ["finished in 1899", "You can visit"]


def test_function_word_fragments_and_lone_cjk_characters_are_dropped() -> None:
    fr = "Le musée ferme à 18 heures et il rouvre demain."
    assert tidy_spans([_span(fr, "et il")], fr, _tokens(fr, "fr")) == []
    zh = "公司于2010年成立。"
    assert tidy_spans([_span(zh, "年")], zh, _tokens(zh, "zh-Hans")) == []
    kept = tidy_spans([_span(zh, "2010年")], zh, _tokens(zh, "zh-Hans"))
    assert [s.text for s in kept] == ["2010年"]


def test_precise_and_marker_spans_keep_their_offsets() -> None:
    text = "It has a warranty [4]."
    marker = _span(text, "[4]", label="invalid_citation", score=1.0, detector="citations", kind="invalid_citation")
    assert tidy_spans([marker], text, _tokens(text)) == [marker]


def test_closing_punctuation_the_detector_marked_stays_but_leading_punctuation_goes() -> None:
    from hallucheck.spans import tidy_spans
    from hallucheck.text import tokenize

    text = "It opens at 9. It closes at 2 am. Then, it rests."
    tokens = tokenize(text, "en")

    def tidy(a: int, b: int) -> tuple[int, int]:
        (s,) = tidy_spans([Span(start=a, end=b, text=text[a:b], label="baseless", score=0.9, detector="t")], text, tokens)
        return s.start, s.end

    assert text[slice(*tidy(13, 33))] == "It closes at 2 am."  # ". It closes at 2 am." loses its leading ". "
    assert text[slice(*tidy(15, 34))] == "It closes at 2 am."  # the trailing space goes, the full stop stays
    assert text[slice(*tidy(18, 31))] == "closes at 2 am"  # a stop the detector did not mark is not added


def test_a_negation_is_kept_although_it_is_made_of_function_words() -> None:
    en = "The restaurant is not open on Sundays."
    assert [s.text for s in tidy_spans([_span(en, "is not")], en, _tokens(en, "en"))] == ["is not"]
    contracted = "The shop isn't open on Sundays."
    assert [s.text for s in tidy_spans([_span(contracted, "isn't")], contracted, _tokens(contracted, "en"))] == ["isn't"]
    de = "Das Geschäft ist sonntags nicht geöffnet."
    assert [s.text for s in tidy_spans([_span(de, "nicht")], de, _tokens(de, "de"))] == ["nicht"]
    zh = "该店周日不营业。"
    assert [s.text for s in tidy_spans([_span(zh, "不")], zh, _tokens(zh, "zh-Hans"))] == ["不"]
    # the other function-word fragments still go
    assert tidy_spans([_span(en, "is")], en, _tokens(en, "en")) == []



def test_a_precise_span_merged_with_a_wider_one_loses_the_leading_punctuation() -> None:
    text = "The file lives in /etc/mtab on most systems, for $5."
    at = text.index("mtab")
    merged = merge_spans([
        Span(start=at - 1, end=at + 4, text="/mtab", label="baseless", score=0.6, detector="model"),
        Span(start=at, end=at + 4, text="mtab", label="contradiction", score=0.8, detector="opposites", kind="replaced_name"),
    ], text)
    assert [s.text for s in merged] == ["/mtab"]  # merging keeps the union
    analysis = CaseAnalysis(make_case({"question": "q", "contexts": ["x"], "answer": text}))
    tidy = tidy_spans(merged, text, analysis.tokens)
    assert [(s.text, s.label, s.kind) for s in tidy] == [("mtab", "contradiction", "replaced_name")]
    fee = text.index("$5")
    figure = Span(start=fee, end=fee + 2, text="$5", label="contradiction", score=0.8, detector="numbers",
                  kind="contradicted_figure")
    assert [s.text for s in tidy_spans([figure], text, analysis.tokens)] == ["$5"]
