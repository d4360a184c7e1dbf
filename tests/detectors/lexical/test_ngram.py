"""N-gram novelty detector: the n-gram novelty guide's examples, its per-task thresholds at their boundaries,
spans, the paraphrase hook and the edge cases every detector must survive."""

from __future__ import annotations

import math

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.detectors import get_detector
from hallucheck.detectors.lexical.ngram import DEFAULT_THRESHOLDS, NgramDetector, novelty_risk

APPLE = "The Apple company acquired Company B in 2024."
# Ten content words the lemmatiser leaves alone and no stop list knows.
WORDS = ["zorb", "quix", "blen", "frap", "tond", "vask", "mirl", "plon", "gret", "sulf"]


def analyse(answer: str, contexts: list[str] | str, task: str = "generic") -> CaseAnalysis:
    return CaseAnalysis(make_case(question="q", contexts=contexts, answer=answer, task=task, language="en"))


def sentence_with(novel: int) -> tuple[str, str]:
    """(source, answer): a 10-word answer sentence of which ``novel`` words are not in the source."""
    source = " ".join(WORDS[novel:]) + "."
    return source, " ".join(WORDS) + "."


def test_seed_tesla_sentence_is_fully_novel() -> None:
    f = NgramDetector().detect(analyse("Tesla launched new cars", APPLE))
    sent = f.details["sentences"][0]
    assert sent["novelty"] == 1.0
    assert f.flagged is True
    assert {"tesla", "launch", "new", "car"} <= set(sent["novel_ngrams"])
    assert f.risk == 1.0


def test_seed_louis_jordan_example() -> None:
    src = "It's the kind of thing you see in movies, and you never expect it to happen to you."
    f = NgramDetector().detect(analyse("Louis Jordan survived 66 days at sea.", src))
    sent = f.details["sentences"][0]
    assert sent["novelty"] > 0.9  # the n-gram novelty guide reports "90%+"
    assert f.flagged
    assert {"louis", "jordan", "survive", "66", "day", "sea", "louis jordan"} <= set(sent["novel_ngrams"])


def test_seed_summary_paraphrase_is_fully_novel_so_any_threshold_below_one_flags_it() -> None:
    # The n-gram novelty guide calls this a false positive at 0.4 and suggests 0.5-0.6 for summaries; but every
    # content n-gram is new (novelty 1.0), so no threshold below 1 saves it — only paraphrase
    # awareness does (next test).
    src = "Apple Inc. announced the acquisition of Company B yesterday."
    answer = "The tech giant bought the startup."
    for threshold in (0.4, 0.5, 0.6, 0.99):
        f = NgramDetector(threshold=threshold).detect(analyse(answer, src, task="summary"))
        assert f.details["sentences"][0]["novelty"] == 1.0
        assert f.flagged, threshold
    f = NgramDetector().detect(analyse(answer, src, task="summary"))
    assert f.details["threshold"] == 0.5 and f.flagged
    assert not NgramDetector(threshold=1.0).detect(analyse(answer, src, task="summary")).flagged


def test_semantic_support_grounds_a_paraphrase() -> None:
    src = "Apple Inc. announced the acquisition of Company B yesterday."
    a = analyse("The tech giant bought the startup.", src, task="summary")
    a.facts.support = [True] * len(a.tokens)
    f = NgramDetector().detect(a)
    assert f.details["sentences"][0]["novelty"] == 0.0
    assert not f.flagged and not f.spans


def test_semantic_support_of_wrong_length_is_ignored_with_a_note() -> None:
    a = analyse("Tesla launched new cars", APPLE)
    a.facts.support = [True]
    f = NgramDetector().detect(a)
    assert f.flagged
    assert any("semantic support ignored" in n for n in f.notes)


def test_grounded_tokens_callable_is_used() -> None:
    a = analyse("Tesla launched new cars", APPLE)
    seen: list[int] = []

    def provider(analysis: CaseAnalysis) -> list[bool]:
        seen.append(len(analysis.tokens))
        return [t.text != "Tesla" for t in analysis.tokens]

    f = NgramDetector(n_values=(1,), grounded_tokens=provider).detect(a)
    assert seen
    assert f.details["sentences"][0]["novel_ngrams"] == ["tesla"]
    assert f.details["sentences"][0]["novelty"] == 0.25


@pytest.mark.parametrize(
    ("task", "threshold"),
    [("qa", 0.3), ("summary", 0.5), ("data2txt", 0.5), ("generic", 0.4), ("dialogue", 0.4)],
)
def test_task_thresholds_at_their_boundaries(task: str, threshold: float) -> None:
    det = NgramDetector(n_values=(1,))
    at = round(threshold * 10)
    src, answer = sentence_with(at)
    f = det.detect(analyse(answer, src, task=task))
    assert f.details["threshold"] == threshold
    assert f.details["sentences"][0]["novelty"] == pytest.approx(threshold)
    assert not f.flagged, "novelty equal to the threshold is not over it"
    assert f.risk == pytest.approx(0.5)
    src, answer = sentence_with(at + 1)
    f = det.detect(analyse(answer, src, task=task))
    assert f.flagged
    assert f.risk > 0.5


def test_default_table_is_the_seed_table() -> None:
    assert DEFAULT_THRESHOLDS == {"qa": 0.3, "summary": 0.5, "data2txt": 0.5}
    det = NgramDetector()
    assert det.threshold_for("generic") == 0.4
    assert NgramDetector(thresholds={"qa": 0.25, "default": 0.45}).threshold_for("qa") == 0.25
    assert NgramDetector(thresholds={"default": 0.45}).threshold_for("generic") == 0.45
    assert NgramDetector(threshold=0.7).threshold_for("qa") == 0.7


def test_novelty_pools_unigrams_and_bigrams() -> None:
    # Source has all four words, but only two of the three answer word pairs (source n-grams
    # run across its sentences, as the n-gram novelty guide builds them over the whole document).
    f = NgramDetector().detect(analyse("zorb quix blen frap.", "frap zorb quix blen."))
    sent = f.details["sentences"][0]
    assert sent["per_n"] == {"1": 0.0, "2": pytest.approx(1 / 3, abs=1e-4)}
    assert sent["novelty"] == pytest.approx(1 / 7, abs=1e-4)
    assert sent["novel_ngrams"] == ["blen frap"]


def test_per_n_thresholds_of_the_seed_dataset_mode() -> None:
    det = NgramDetector(n_thresholds={1: 0.3, 2: 0.2})
    # Unigrams all known, bigrams 1/3 new: over the bigram cut-off 0.2.
    f = det.detect(analyse("zorb quix blen frap.", "frap zorb quix blen."))
    assert f.flagged
    assert f.details["n_thresholds"] == {"1": 0.3, "2": 0.2}
    # All pairs known: nothing over either cut-off.
    assert not det.detect(analyse("zorb quix blen.", "zorb quix blen.")).flagged


def test_spans_are_the_novel_word_runs_and_reason_lists_ngrams() -> None:
    answer = "Apple acquired Company B in 2024 and Tesla launched new cars in Berlin."
    f = NgramDetector(span_margin=0.0).detect(analyse(answer, APPLE))
    texts = [s.text for s in f.spans]
    assert "Tesla launched new cars in Berlin" in texts
    for s in f.spans:
        assert answer[s.start : s.end] == s.text
        assert s.label == "baseless" and s.detector == "ngram"
        assert "novel" in s.reason or "not in the sources" in s.reason
    assert all("apple" not in s.text.lower() for s in f.spans)


def test_spans_only_well_over_the_threshold() -> None:
    # Pooled novelty 11/19 = 0.58: over the generic threshold 0.4 (flagged) but not over 0.4 + 0.3.
    answer = "Apple acquired Company B in 2024 and Tesla launched new cars in Berlin."
    f = NgramDetector().detect(analyse(answer, APPLE))
    assert f.details["sentences"][0]["novelty"] == pytest.approx(11 / 19, abs=1e-4)
    assert f.flagged and not f.spans
    assert NgramDetector(span_margin=0.15).detect(analyse(answer, APPLE)).spans
    # The margin is capped so that a fully novel sentence is always marked.
    assert NgramDetector(threshold=0.9, span_margin=0.3).detect(analyse("Tesla launched new cars", APPLE)).spans


def test_sentence_span_mode_marks_whole_sentences() -> None:
    answer = "Apple acquired Company B in 2024. Tesla launched new cars."
    f = NgramDetector(span_mode="sentence").detect(analyse(answer, APPLE))
    assert [s.text for s in f.spans] == ["Tesla launched new cars."]


def test_reason_lists_at_most_ten_ngrams() -> None:
    f = NgramDetector().detect(analyse(" ".join(WORDS) + ".", "unrelated words only."))
    sent = f.details["sentences"][0]
    assert len(sent["novel_ngrams"]) == 10
    assert sent["novel_count"] == 19


def test_empty_source_ngram_set_means_no_detection_with_a_note() -> None:
    f = NgramDetector().detect(analyse("Tesla launched new cars", "the of and it is."))
    assert f.risk == 0.0 and not f.flagged and not f.spans
    assert any("no content n-grams" in n for n in f.notes)


@pytest.mark.parametrize("answer", ["...", "!?", " "])
def test_answer_without_words(answer: str) -> None:
    f = NgramDetector().detect(analyse(answer, APPLE))
    assert f.risk == 0.0 and not f.flagged
    assert f.notes


def test_chinese_answer() -> None:
    src = "苹果公司在2024年收购了B公司。"
    f = NgramDetector().detect(analyse("苹果公司在2024年收购了B公司。特斯拉发布了新车。", src))
    flagged = [s for s in f.details["sentences"] if s["flagged"]]
    assert len(flagged) == 1 and flagged[0]["start"] > 0
    assert any("特斯拉" in s.text for s in f.spans)


def test_features_are_stable_finite_numbers() -> None:
    f = NgramDetector().detect(analyse("Apple acquired Company B in 2024. Tesla launched new cars.", APPLE))
    feats = f.features
    expected = {
        "max_novelty", "mean_novelty", "novelty", "novelty_n1", "novelty_n2", "flagged_fraction",
        "worst_novel_count", "novel_token_fraction", "sentences", "content_tokens",
    }
    assert set(feats) == expected
    assert all(isinstance(v, float) and math.isfinite(v) for v in feats.values())
    assert feats["max_novelty"] == 1.0 and feats["flagged_fraction"] == 0.5 and feats["sentences"] == 2.0
    empty = NgramDetector().detect(analyse("...", APPLE)).features
    assert set(empty) == expected


def test_risk_mapping_puts_the_threshold_at_one_half() -> None:
    assert novelty_risk(0.0, 0.3) == 0.0
    assert novelty_risk(0.3, 0.3) == 0.5
    assert novelty_risk(1.0, 0.3) == 1.0
    assert novelty_risk(0.65, 0.3) == pytest.approx(0.75)
    assert novelty_risk(0.5, 0.0) == 0.75 and novelty_risk(0.5, 1.0) == 0.25


def test_long_answer_is_checked_whole() -> None:
    answer = " ".join(["Apple acquired Company B in 2024."] * 400 + ["Tesla launched new cars."])
    f = NgramDetector().detect(analyse(answer, APPLE))
    assert f.coverage is None
    assert f.spans and f.spans[-1].text.startswith("Tesla")


@pytest.mark.parametrize(
    "options",
    [{"n_values": []}, {"n_values": [0]}, {"threshold": 1.5}, {"span_margin": -0.1}, {"thresholds": {"qa": -0.1}}, {"span_mode": "words"},
     {"n_values": [1], "n_thresholds": {2: 0.2}}, {"threshold": "high"}],
)
def test_bad_options_are_clear_errors(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        NgramDetector(**options)  # type: ignore[arg-type]


def test_registered_by_name() -> None:
    det = get_detector("ngram", threshold=0.2)
    assert isinstance(det, NgramDetector) and det.layer == 2 and det.threshold == 0.2


def test_citation_markers_are_not_novel_words() -> None:
    """A cited answer is not less grounded than the same answer without its markers."""
    from hallucheck import Checker

    src = [{"id": "FAQ-001", "text": "The reset link is valid for 24 hours."}]
    checker = Checker(detectors=["ngram"], policy="weighted")
    plain = checker.check(question="q", contexts=src, answer="The reset link is valid for 24 hours.")
    cited = checker.check(question="q", contexts=src, answer="The reset link is valid for 24 hours [source:FAQ-001].")
    zh = checker.check(question="q", contexts=src, answer="The reset link is valid for 24 hours [來源 FAQ-001].")
    risk = lambda r: r.finding("ngram").risk  # noqa: E731
    assert risk(cited) == risk(plain)
    assert risk(zh) == risk(plain)
    assert not any("FAQ" in s.text or "source" in s.text for s in cited.spans)


@pytest.mark.parametrize(
    ("source", "answer"),
    [
        ("The drone flies for up to 90 minutes.", "The drone flies for up to an hour and a half."),
        ("售價為新台幣25,900元。", "售價為新台幣兩萬五千九百元。"),
    ],
)
def test_a_figure_the_sources_give_in_another_form_is_not_novel(source: str, answer: str) -> None:
    analysis = CaseAnalysis(make_case(question="", contexts=[source], answer=answer))
    assert NgramDetector().detect(analysis).features["novelty"] == 0.0
    # read word by word, as without the numbers rules, the same answer is novel
    assert NgramDetector(figures_checked=False).detect(analysis).features["novelty"] > 0.5


def test_a_different_figure_stays_novel() -> None:
    analysis = CaseAnalysis(make_case(question="", contexts=["The drone flies for up to 90 minutes."],
                                      answer="The drone flies for up to two hours and a half."))
    assert NgramDetector().detect(analysis).features["novelty"] > 0.3
