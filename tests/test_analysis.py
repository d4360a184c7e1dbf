"""CaseAnalysis views that every detector shares."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.types import Case, Source


def _analysis(answer: str) -> CaseAnalysis:
    return CaseAnalysis(Case(contexts=["Some source."], answer=answer, language="en"))


def test_tokens_by_sentence_groups_every_token_once() -> None:
    a = _analysis("Paris is big [1]. Lyon is small!\n\n- one item\n- two items")
    groups = a.tokens_by_sentence
    assert len(groups) == len(a.sentences)
    for seg, toks in zip(a.sentences, groups):
        assert toks == [t for t in a.tokens if seg.start <= t.start and t.end <= seg.end]
    assert [t.text for t in groups[0]] == ["Paris", "is", "big", "."]  # the marker is masked
    assert sum(len(g) for g in groups) == len(a.tokens)


def test_tokens_by_sentence_edge_cases() -> None:
    assert _analysis("").tokens_by_sentence == []
    only = _analysis("...")
    assert [[t.text for t in g] for g in only.tokens_by_sentence] == [[t.text for t in only.tokens]]
    zh = CaseAnalysis(Case(contexts=["x"], answer="您好！可以在 30 天內申請全額退款。"))
    assert [len(g) for g in zh.tokens_by_sentence] == [2, len(zh.tokens) - 2]


def test_source_views_from_columns_match_the_tokens() -> None:
    from hallucheck.analysis import group_tokens, source_analysis

    text = "Le café coûte 3,50 €. The U.S. office opened in 2021!\n\n- item one [1]\nDon't stop. 東京 is big."
    sa = source_analysis(text + " (views test)", "en")
    tokens = sa.tokens
    assert sa.norms == frozenset(t.norm for t in tokens if not t.is_punct)
    assert list(sa.content_norms) == [t.norm for t in tokens if not t.is_punct and not t.is_stop]
    groups = group_tokens(sa.sentences, tokens)
    assert [tokens[a:b] for a, b in sa.sentence_ranges] == groups


def test_markers_are_masked_with_offsets_kept() -> None:
    answer = "Paris is big [1]. Lyon is small [Source 2, 3]^[4]^ and old.\n退款[來源 POL-1]。See [d]."
    case = Case(question="q", contexts=[Source(id="a", text="x"), Source(id="POL-1", text="y")], answer=answer)
    a = CaseAnalysis(case)
    assert len(a.answer) == len(answer)
    for mk in ("[1]", "[Source 2, 3]", "^[4]^", "[來源 POL-1]", "[d]"):  # [d]: sources use letter ids
        i = answer.index(mk)
        assert a.answer[i : i + len(mk)] == " " * len(mk)
    assert all(answer[t.start : t.end] == t.text for t in a.tokens)
    assert not any(ch in t.text for t in a.tokens for ch in "[]^")
    assert a.answer_chars == len("Paris is big. Lyon is small and old.\n退款。See.")
    assert a.plain_answer() == "Paris is big. Lyon is small and old.\n退款。See."
    assert a.plain_answer(answer.index("Lyon"), answer.index("\n")) == "Lyon is small and old."
    # the citation rules count sentences as written, a marker after a stop staying with its sentence
    b = CaseAnalysis(Case(question="q", contexts=["x"], answer="Paris is big. [1] Lyon is small."))
    assert [s.text for s in b.marked_sentences] == ["Paris is big. [1]", "Lyon is small."]
    assert [s.text for s in b.sentences] == ["Paris is big.", "Lyon is small."]


def test_cross_lingual_compares_the_answer_with_the_sources_language() -> None:
    source = Source(id="1", text="The warranty covers every laptop for two years from the date of purchase.")
    german = CaseAnalysis(Case(question="q", contexts=[source], answer="Die Garantie gilt zwei Jahre für jeden Laptop ab dem Kaufdatum."))
    english = CaseAnalysis(Case(question="q", contexts=[source], answer="Every laptop is covered for two years from purchase."))
    assert german.language == "de" and german.source_language == "en" and german.cross_lingual
    assert english.source_language == "en" and not english.cross_lingual
    simplified = Source(id="1", text="未开封的产品可以在三十天内申请全额退款，运费由商店承担。")
    traditional = CaseAnalysis(Case(question="q", contexts=[simplified], answer="未開封產品可在 30 天內申請全額退款。"))
    assert not traditional.cross_lingual  # both scripts of Chinese are one language
    alone = CaseAnalysis(Case(question="q", contexts=[], answer="Die Garantie gilt zwei Jahre."))
    assert alone.source_language == alone.language and not alone.cross_lingual


def test_source_cache_is_bounded_in_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long sources are evicted by their length, not only their number; the newest always stays."""
    from collections import OrderedDict

    from hallucheck import analysis

    monkeypatch.setattr(analysis, "_CACHE", OrderedDict())
    monkeypatch.setattr(analysis, "_CACHE_CHARS", 10_000)
    texts = [f"Source {i} says the plant opened in {1900 + i}. " * 100 for i in range(30)]  # ~4,500 chars each
    for text in texts:
        first = analysis.source_analysis(text, "en")
        assert analysis.source_analysis(text, "en") is first  # cached right after
        assert sum(len(t) for _, t in analysis._CACHE) <= 10_000
    assert len(analysis._CACHE) == 2
    huge = "A very long source. " * 1_000  # 20,000 chars: past the bound alone
    analysis.source_analysis(huge, "en")
    assert list(analysis._CACHE) == [("en", huge)]
