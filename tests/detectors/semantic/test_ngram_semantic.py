"""Paraphrase-aware n-gram novelty: supported paraphrase is forgiven, invention is not."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.detectors.lexical.ngram import NgramDetector
from hallucheck.detectors.semantic.ngram_semantic import ParaphraseNgramDetector
from hallucheck.types import Case

SOURCE = "Apple Inc. announced the acquisition of the startup Company B yesterday. The deal closed in March."


def novelty(detector: NgramDetector, answer: str) -> float:
    analysis = CaseAnalysis(Case(contexts=[SOURCE], answer=answer, task="summary"))
    return max(s.novelty for s in detector.score_sentences(analysis) if s.total)


def test_registered_in_the_semantic_layer() -> None:
    det = get_detector("ngram_semantic")
    assert isinstance(det, ParaphraseNgramDetector) and det.layer == 3


def test_paraphrase_is_less_novel_than_for_the_plain_detector() -> None:
    # "purchased" ~ "acquisition" scores about 0.65: forgiven at a looser word threshold than the
    # default (0.8, chosen on train), which forgives only near-identical word forms.
    answer = "Apple said it purchased the young company Company B."
    plain = novelty(NgramDetector(), answer)
    aware = novelty(ParaphraseNgramDetector(token_threshold=0.6), answer)
    assert aware < plain
    assert novelty(ParaphraseNgramDetector(), answer) <= plain


def test_invented_content_stays_novel() -> None:
    answer = "The bakery sells croissants to tourists every morning."
    assert novelty(ParaphraseNgramDetector(), answer) > 0.8


def test_detect_fills_shared_support_and_flags_invention() -> None:
    analysis = CaseAnalysis(Case(contexts=[SOURCE], answer="Apple bought Company B. The bakery sells croissants to tourists.", task="qa"))
    f = ParaphraseNgramDetector().detect(analysis)
    assert f.flagged
    assert all("croissants" not in s.text or s.label == "baseless" for s in f.spans)
    assert any("croissants" in s.text for s in f.spans)
    assert len(analysis.facts.support or []) == len(analysis.tokens)


def test_empty_sources_fall_back_to_plain_behaviour() -> None:
    analysis = CaseAnalysis(Case(contexts=[""], answer="Something happened.", task="qa"))
    f = ParaphraseNgramDetector().detect(analysis)
    assert f.risk == 0.0


def test_numbers_and_names_are_never_forgiven_as_paraphrase() -> None:
    source = "The museum opened in 2019 under director Maria Keller. It has 40 rooms."
    answer = "The museum opened in 2018 under director Paul Weber. It has 40 rooms."
    analysis = CaseAnalysis(Case(contexts=[source], answer=answer, task="summary"))
    scored = ParaphraseNgramDetector().score_sentences(analysis)
    novel = {t.text for s in scored for t in s.novel_tokens}
    assert {"2018", "Paul", "Weber"} <= novel
    assert "40" not in novel and "rooms" not in novel


def test_fact_tokens_are_numbers_and_name_words() -> None:
    from hallucheck.detectors.semantic.ngram_semantic import fact_tokens

    analysis = CaseAnalysis(Case(contexts=["x"], answer="In 2019 the firm hired Jean Dupont. Sales grew 5%."))
    assert [analysis.tokens[i].text for i in fact_tokens(analysis)] == ["2019", "Jean", "Dupont", "5%"]
