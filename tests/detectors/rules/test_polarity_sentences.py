"""Answer and source sentences as polarity symbols, shared by the opposites rules and the restated check."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis, source_analysis
from hallucheck.detectors.rules.polarity_sentences import answer_sources, answer_symbols, matched_map, source_sentences
from hallucheck.text.opposites import NEG, polarity_symbols
from hallucheck.text.tokens import tokenize
from hallucheck.types import Case


def test_each_sentence_keeps_its_offsets_content_and_negations() -> None:
    text = "The plan does not cover dental care. It covers eye care."
    sa = source_analysis(text, "en")
    first, second = source_sentences(sa, 0, "en")
    assert text[first.start : first.end].startswith("The plan does not cover")
    assert NEG in first.forms and NEG not in second.forms
    assert {"plan", "cover", "dental", "care"} <= first.norms
    assert first.content == sum(s.content for s in first.symbols)


def test_the_sentences_are_built_once_per_source() -> None:
    sa = source_analysis("Acme hired Beta in May.", "en")
    assert source_sentences(sa, 0, "en") is source_sentences(sa, 0, "en")


def test_matched_map_aligns_answer_symbols_in_order() -> None:
    (src,) = source_sentences(source_analysis("Acme hired Beta in May.", "en"), 0, "en")
    forms = [s.form for s in polarity_symbols(tokenize("Acme hired Gamma in May.", "en"), "en")]
    ops, mapping = matched_map(forms, src)
    assert [tag for tag, *_ in ops] == ["equal", "replace", "equal"]
    assert mapping == {0: 0, 1: 1, 3: 3, 4: 4}


def test_answer_symbols_are_built_once_per_check_without_citation_markers() -> None:
    analysis = CaseAnalysis(Case(contexts=["Acme hired Beta."], answer="Acme hired Beta [1]. It did not hire Gamma."))
    first, second = answer_symbols(analysis)
    assert [s.form for s in first] == ["acme", "hire", "beta"]
    assert NEG in [s.form for s in second]
    assert answer_symbols(analysis) is answer_symbols(analysis)


def test_answer_sources_index_each_content_form() -> None:
    analysis = CaseAnalysis(Case(contexts=["Acme hired Beta.", "Beta sold shoes."], answer="Beta hired Acme."))
    sources, index = answer_sources(analysis)
    assert [s.source for s in sources] == [0, 1]
    assert index["beta"] == [0, 1] and index["shoe"] == [1]
