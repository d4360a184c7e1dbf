"""ROUGE-L overlap detector: the RAG detection guide's F-measure reading at its cut-offs, per-sentence precision
against the nearest source sentence, evidence offsets, long sources and edge cases."""

from __future__ import annotations

import math

import pytest
from deadline_clock import CountedDeadline

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.detectors import get_detector
from hallucheck.detectors.lexical import overlap as overlap_module
from hallucheck.detectors.lexical.overlap import OverlapDetector, interpret_rouge, rouge_l

WORDS = ["zorb", "quix", "blen", "frap", "tond", "vask", "mirl", "plon", "gret", "sulf"]


def analyse(answer: str, contexts: list[str] | str, task: str = "generic") -> CaseAnalysis:
    return CaseAnalysis(make_case(question="q", contexts=contexts, answer=answer, task=task, language="en"))


@pytest.mark.parametrize(
    ("f", "reading"),
    [
        (0.0, "Low overlap - potential hallucinations"),
        (0.2999, "Low overlap - potential hallucinations"),
        (0.3, "Moderate overlap - review recommended"),
        (0.5, "Moderate overlap - review recommended"),
        (0.5001, "High overlap - likely grounded"),
        (1.0, "High overlap - likely grounded"),
    ],
)
def test_seed_rouge_reading_at_its_cut_offs(f: float, reading: str) -> None:
    assert interpret_rouge(f) == reading


def test_rouge_l_formula() -> None:
    assert rouge_l(0, 5, 5) == (0.0, 0.0, 0.0)
    p, r, f = rouge_l(3, 4, 12)
    assert (p, r) == (0.75, 0.25) and f == pytest.approx(2 * 0.75 * 0.25 / 1.0)


def test_whole_text_rouge_reported_with_the_seed_flag() -> None:
    f = OverlapDetector().detect(analyse("zorb quix blen frap.", "zorb quix blen frap."))
    whole = f.details["rouge_l"]
    assert whole["precision"] == whole["recall"] == whole["fmeasure"] == 1.0
    assert whole["interpretation"] == "High overlap - likely grounded"
    assert whole["potential_hallucination"] is False
    # A short grounded answer against a long source: F is low only because recall is.
    long_src = " ".join(WORDS) + ". " + " ".join(f"w{i}x" for i in range(60)) + "."
    f = OverlapDetector().detect(analyse("zorb quix blen frap.", long_src))
    whole = f.details["rouge_l"]
    assert whole["precision"] == 1.0 and whole["fmeasure"] < 0.3 and whole["potential_hallucination"]
    assert not f.flagged, "judged by precision, the answer is covered"


def source_covering(k: int) -> str:
    """A source sentence holding the first ``k`` of the answer's ten words, in order."""
    return " ".join(WORDS[:k] + ["other", "stuff"]) + "."


def test_sentence_threshold_boundary() -> None:
    answer = " ".join(WORDS) + "."
    at = OverlapDetector().detect(analyse(answer, source_covering(3)))
    assert at.details["sentences"][0]["precision"] == pytest.approx(0.3)
    assert not at.flagged, "precision equal to 0.3 is not below it"
    below = OverlapDetector().detect(analyse(answer, source_covering(2)))
    assert below.flagged
    assert below.risk > at.risk


def test_lcs_is_order_aware() -> None:
    answer = " ".join(WORDS) + "."
    reversed_src = " ".join(reversed(WORDS)) + "."
    f = OverlapDetector().detect(analyse(answer, reversed_src))
    assert f.details["sentences"][0]["precision"] == pytest.approx(0.1)


def test_flagged_sentence_has_nearest_evidence_and_short_spans() -> None:
    contexts = ["Unrelated opening text about weather.", "Apple bought Company B in 2024 for cash."]
    answer = "Apple bought Company B in 2024 for cash. Apple also bought Tesla Motors with gold bars yesterday."
    f = OverlapDetector(span_threshold=0.3).detect(analyse(answer, contexts))
    assert f.flagged
    flagged = [s for s in f.details["sentences"] if s["flagged"]]
    assert len(flagged) == 1 and answer[flagged[0]["start"] :].startswith("Apple also")
    span_texts = [s.text for s in f.spans]
    assert any("Tesla" in t for t in span_texts)
    assert all("Apple" not in t for t in span_texts), "words present in the nearest sentence are not marked"
    ev = f.spans[0].evidence[0]
    assert ev.relation == "nearest" and ev.source_id == "2"
    assert contexts[1][ev.start : ev.end] == ev.text == "Apple bought Company B in 2024 for cash."


def test_spans_only_below_the_span_threshold() -> None:
    # Best precision 2/7 = 0.29: flagged (< 0.3) but not marked (not < 0.2).
    answer = "Apple bought Company B in 2024. Apple also bought Tesla Motors with gold bars yesterday."
    f = OverlapDetector().detect(analyse(answer, "Apple bought Company B in 2024."))
    assert f.details["sentences"][1]["precision"] == pytest.approx(2 / 7, abs=1e-4)
    assert f.flagged and not f.spans
    f = OverlapDetector().detect(analyse("Tesla made gold bars on Mars.", "Apple bought Company B in 2024."))
    assert f.spans


def test_sentence_span_mode() -> None:
    answer = "Apple bought Company B in 2024. Apple also bought Tesla Motors with gold bars yesterday."
    f = OverlapDetector(span_mode="sentence", span_threshold=0.3).detect(analyse(answer, "Apple bought Company B in 2024."))
    assert [s.text for s in f.spans] == ["Apple also bought Tesla Motors with gold bars yesterday."]


def test_short_sentences_are_not_judged() -> None:
    f = OverlapDetector().detect(analyse("Yes. Tesla Motors.", "Apple bought Company B in 2024."))
    assert not f.flagged and not f.spans
    assert any("no sentence has 3" in n for n in f.notes)


def test_long_source_uses_candidate_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overlap_module, "MAX_PACKED_WORDS", 50)
    filler = " ".join(f"Filler sentence number{i} talks about topic{i} only." for i in range(40))
    src = filler + " Apple bought Company B in 2024 for cash."
    answer = "Apple bought Company B in 2024 for cash. Tesla made gold bars on Mars."
    f = OverlapDetector().detect(analyse(answer, src))
    assert any("most similar source sentences" in n for n in f.notes)
    first, second = f.details["sentences"]
    assert first["precision"] == 1.0 and not first["flagged"]
    assert second["flagged"]


@pytest.mark.parametrize("answer", ["...", "?!", "  "])
def test_answer_without_words(answer: str) -> None:
    f = OverlapDetector().detect(analyse(answer, "Apple bought Company B."))
    assert f.risk == 0.0 and not f.flagged and f.notes


def test_source_without_words() -> None:
    f = OverlapDetector().detect(analyse("Apple bought Company B in 2024.", "... !!!"))
    assert f.risk == 0.0 and f.notes


def test_chinese() -> None:
    src = "苹果公司在2024年收购了B公司。"
    f = OverlapDetector().detect(analyse("苹果公司在2024年收购了B公司。特斯拉在火星上发布了新的汽车产品。", src))
    flagged = [s for s in f.details["sentences"] if s["flagged"]]
    assert len(flagged) == 1 and flagged[0]["start"] > 0


def test_features_are_stable_finite_numbers() -> None:
    expected = {
        "rougeL_precision", "rougeL_recall", "rougeL_fmeasure", "min_sentence_precision",
        "mean_sentence_precision", "flagged_fraction", "sentences",
    }
    for answer in ("Apple bought Company B in 2024. Tesla made gold bars on Mars.", "..."):
        feats = OverlapDetector().detect(analyse(answer, "Apple bought Company B in 2024.")).features
        assert set(feats) == expected
        assert all(isinstance(v, float) and math.isfinite(v) for v in feats.values())


def test_risk_grows_as_coverage_falls() -> None:
    src = "Apple bought Company B in 2024 for cash."
    risks = [
        OverlapDetector().detect(analyse(a, src)).risk
        for a in ("Apple bought Company B in 2024 for cash.", "Apple bought Company B with gold.", "Tesla made gold bars on Mars.")
    ]
    assert risks[0] < risks[1] < risks[2]
    assert risks[0] == 0.0 and risks[2] == 1.0


@pytest.mark.parametrize(
    "options",
    [{"low": 0.6, "high": 0.5}, {"sentence_threshold": 2}, {"span_threshold": 1.2}, {"min_words": 0}, {"span_mode": "x"},
     {"risk_center": -1}],
)
def test_bad_options_are_clear_errors(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        OverlapDetector(**options)  # type: ignore[arg-type]


def test_registered_by_name() -> None:
    det = get_detector("overlap", sentence_threshold=0.4)
    assert isinstance(det, OverlapDetector) and det.layer == 2 and det.sentence_threshold == 0.4


def test_a_deadline_stops_the_comparison_between_sentences_and_states_the_unread_range():
    answer = " ".join(f"The {WORDS[i % 10]} met the {WORDS[(i + 3) % 10]} in year {1900 + i}." for i in range(40))
    case = make_case(question="q", contexts=[answer], answer=answer, language="en")
    full = OverlapDetector().detect(CaseAnalysis(case))
    assert full.coverage is None and len(full.details["sentences"]) == 40
    cut = OverlapDetector().detect(CountedDeadline(case, after=2))  # looks at sentences 1 and 9, then 17
    assert len(cut.details["sentences"]) == 16
    start = CaseAnalysis(case).sentences[16].start
    assert cut.coverage is not None and cut.coverage.unchecked == [(start, len(answer))]
    assert any("sentences 17-40 were not compared" in n for n in cut.notes)
    assert cut.details["rouge_l"]["precision"] is None  # the whole-text LCS is not started after the deadline
