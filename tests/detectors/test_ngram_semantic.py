"""Paraphrase-aware n-gram novelty: supported paraphrase is forgiven, invention is not."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.detectors.ngram import NgramDetector
from hallucheck.detectors.ngram_semantic import ParaphraseNgramDetector
from hallucheck.types import Case

SOURCE = "Apple Inc. announced the acquisition of the startup Company B yesterday. The deal closed in March."


def novelty(detector: NgramDetector, answer: str) -> float:
    analysis = CaseAnalysis(Case(contexts=[SOURCE], answer=answer, task="summary"))
    return max(s.novelty for s in detector.score_sentences(analysis) if s.total)


def test_registered_in_the_semantic_layer() -> None:
    det = get_detector("ngram_semantic")
    assert isinstance(det, ParaphraseNgramDetector) and det.layer == 3


def test_paraphrase_is_less_novel_than_for_the_plain_detector() -> None:
    answer = "Apple said it purchased the young company Company B."
    plain = novelty(NgramDetector(), answer)
    aware = novelty(ParaphraseNgramDetector(), answer)
    assert aware < plain


def test_invented_content_stays_novel() -> None:
    answer = "The bakery sells croissants to tourists every morning."
    assert novelty(ParaphraseNgramDetector(), answer) > 0.8


def test_detect_fills_shared_support_and_flags_invention() -> None:
    analysis = CaseAnalysis(Case(contexts=[SOURCE], answer="Apple bought Company B. The bakery sells croissants to tourists.", task="qa"))
    f = ParaphraseNgramDetector().detect(analysis)
    assert f.details["flagged"]
    assert all("croissants" not in s.text or s.label == "baseless" for s in f.spans)
    assert any("croissants" in s.text for s in f.spans)
    assert len(analysis.shared["semantic_support"]) == len(analysis.tokens)


def test_empty_sources_fall_back_to_plain_behaviour() -> None:
    analysis = CaseAnalysis(Case(contexts=[""], answer="Something happened.", task="qa"))
    f = ParaphraseNgramDetector().detect(analysis)
    assert f.risk == 0.0
