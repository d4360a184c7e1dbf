"""A place of a source sentence told as another place of the same kind, in an answer in another language."""

from __future__ import annotations

import pytest

from hallucheck import Case
from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.opposites import OppositesDetector
from hallucheck.detectors.rules.polarity_sentences import answer_sources
from hallucheck.detectors.rules.replaced_places import given_places, replaced_places, source_place_ids

FRANCE = "Paris is the capital of France."


def _spans(answer: str, source: str) -> list[tuple[str, str | None, str]]:
    finding = OppositesDetector().detect(CaseAnalysis(Case(question="", contexts=[source], answer=answer)))
    return [(s.text, s.kind, s.label) for s in finding.spans]


@pytest.mark.parametrize(
    ("answer", "source", "place"),
    [
        ("法国的首都是柏林。", FRANCE, "柏林"),
        ("法國的首都是柏林。", FRANCE, "柏林"),
        ("法国的首都是里昂。", FRANCE, "里昂"),
        ("Die Hauptstadt von Frankreich ist Berlin.", FRANCE, "Berlin"),
        ("La capitale de la France est Lyon.", FRANCE, "Lyon"),
        ("The capital of France is Berlin.", "巴黎是法国的首都。", "Berlin"),
        # Chinese in the other script counts as another language here
        ("法國的首都是柏林。", "巴黎是法国的首都。", "柏林"),
        # a country for a country
        ("柏林是意大利的首都。", "Berlin is the capital of Germany.", "意大利"),
        ("巴黎位于欧洲的德国。", FRANCE, "德国"),
        # aligned by a figure or a Latin name both sentences write alike, or by the sources' only city
        ("2019年，该公司在柏林开设了办事处。", "In 2019 the company opened an office in Paris. It now has 45 staff.", "柏林"),
        ("Die Glocken von St. Martin in Berlin schweigen.", "The bells of St. Martin in Paris are silent.", "Berlin"),
        ("他住在柏林。", "He lives in Paris.", "柏林"),
        # one city of a list told as another: the one the answer leaves out is the one replaced
        ("该公司在巴黎、柏林和东京设有办事处。", "The company has offices in Paris, London and Tokyo.", "柏林"),
    ],
)
def test_a_place_told_as_another_across_languages_is_a_replaced_name(answer: str, source: str, place: str) -> None:
    assert _spans(answer, source) == [(place, "replaced_name", "contradiction")]


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        # the same place in another script or language
        ("法国的首都是巴黎。", FRANCE),
        ("法國的首都是巴黎。", FRANCE),
        ("Die Hauptstadt von Frankreich ist Paris.", FRANCE),
        ("Die Hauptstadt Frankreichs ist Paris.", FRANCE),
        # a place of another kind: a country is no replaced city
        ("峰会在巴黎和德国举行。", "The summit took place in Paris."),
        # the source's place is named too: an addition, not a replacement
        ("巴黎是法国的首都，柏林是德国的首都。", FRANCE),
        # a negation may correct the source
        ("法国的首都不是柏林。", FRANCE),
        ("Die Hauptstadt von Frankreich ist nicht Berlin.", FRANCE),
        # the sources name the answer's place elsewhere
        ("法国的首都是柏林。", "Paris is the capital of France. Berlin is the capital of Germany."),
        # nothing shared to align the sentences by, and the sources name two cities
        ("他住在柏林。", "Paris is the capital of France. Lyon is known for its food."),
        # a place the sources name by an adjective or a one-character Chinese name
        ("Les ingénieurs des Philippines sont arrivés.", "The Filipino engineers arrived in France."),
        ("The US delegates have arrived.", "美方代表抵达了法国。"),
        # two cities of the source left out: a list, not one replaced
        ("该公司在柏林设有办事处，总部在法国。", "The company is based in France, with offices in Paris and London."),
    ],
)
def test_no_replaced_place_where_the_answer_names_the_same_place_or_no_replacement(answer: str, source: str) -> None:
    assert [k for _, k, _ in _spans(answer, source) if k == "replaced_name"] == []


@pytest.mark.parametrize(("answer", "source"), [("The capital of France is Berlin.", FRANCE), ("法国的首都是柏林。", "巴黎是法国的首都。")])
def test_an_answer_in_the_sources_language_and_script_is_left_to_the_word_by_word_rule(answer: str, source: str) -> None:
    # the cross-language rule does not run (the sentences are ordered otherwise, so no word-by-word difference either)
    assert _spans(answer, source) == []


def test_the_source_sentence_whose_place_was_replaced_is_the_evidence() -> None:
    source = "The museum opened in 1990. Paris is the capital of France."
    analysis = CaseAnalysis(Case(question="", contexts=[source], answer="法国的首都是柏林。"))
    sources, _ = answer_sources(analysis)
    found = replaced_places(analysis.answer, 0, len(analysis.answer), sources, source_place_ids(analysis),
                            language=analysis.language, source_language=analysis.source_language)
    assert [(analysis.answer[r.start : r.end], r.evidence.text) for r in found] == [("柏林", "Paris is the capital of France.")]


def test_given_places_are_the_answers_places_the_sources_name_in_any_language() -> None:
    answer = "Die Hauptstadt Österreichs ist Wien, nicht Prag."
    analysis = CaseAnalysis(Case(question="", contexts=["Vienna is the capital of Austria."], answer=answer))
    assert [answer[a:b] for a, b in given_places(analysis, 0, len(answer))] == ["Österreichs", "Wien"]
    assert source_place_ids(analysis) == {"Europe/Vienna", "AT"}
