"""The model detector with the shipped span tagger (onnxruntime + tokenizers only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from deadline_clock import CountedDeadline

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.model import FEATURE_KEYS, TYPED_FEATURE_KEYS, ModelDetector
from hallucheck.models.tagger import TAGGER_DIR, TaggerUnavailable, get_tagger, tagger_available
from hallucheck.types import Case

pytestmark = pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")

SOURCE = ("The Golden Gate Bridge opened in 1937. It is 2,737 metres long and was designed by Joseph Strauss. "
          "The bridge is painted in International Orange.")


def _run(answer: str, contexts=None, **kw):  # type: ignore[no-untyped-def]
    case = Case(question="Tell me about the bridge.", contexts=contexts if contexts is not None else [SOURCE], answer=answer)
    return ModelDetector(**kw).detect(CaseAnalysis(case))


def test_fabricated_facts_score_higher_than_supported_ones() -> None:
    f = _run("The Golden Gate Bridge opened in 1937. It was designed by Gustave Eiffel and cost 90 billion dollars.",
             threshold=0.0)
    probs = dict(zip(map(tuple, f.details["token_probs"]["offsets"]), f.details["token_probs"]["probs"]))
    answer = "The Golden Gate Bridge opened in 1937. It was designed by Gustave Eiffel and cost 90 billion dollars."
    def p(word: str) -> float:
        s = answer.index(word)
        return max(v for (a, b), v in probs.items() if a >= s and b <= s + len(word))
    assert p("Eiffel") > p("1937")
    assert p("billion") > p("Golden")
    typed = set(TYPED_FEATURE_KEYS) if get_tagger(TAGGER_DIR).typed else set()
    assert set(f.features) == set(FEATURE_KEYS) | typed
    assert all(0.0 <= v for v in f.features.values())


def test_spans_have_evidence_from_the_source() -> None:
    f = _run("The bridge opened in 1937. It was designed by Gustave Eiffel in Paris.", threshold=0.05)
    assert f.spans, "a very low threshold must give spans"
    for s in f.spans:
        assert s.detector == "model" and 0.0 <= s.score <= 1.0
        assert s.evidence and s.evidence[0].source_id == "1"
        assert s.evidence[0].text in SOURCE
        assert s.text == "The bridge opened in 1937. It was designed by Gustave Eiffel in Paris."[s.start : s.end]


def test_empty_punctuation_and_chinese() -> None:
    assert _run("").risk == 0.0
    f = _run("...")
    assert f.error is None and 0.0 <= f.risk <= 1.0
    g = _run("这座桥于1937年开放。", contexts=["金门大桥于1937年开放。"])
    assert g.error is None and 0.0 <= g.risk <= 1.0


def test_long_answers_are_windowed_and_coverage_is_stated() -> None:
    answer = " ".join(f"Sentence number {i} says the bridge is orange." for i in range(60))
    full = _run(answer)
    assert full.coverage is None
    assert max(e for _, e in full.details["token_probs"]["offsets"]) >= len(answer) - 1
    cut = _run(answer, max_windows=2)
    assert cut.coverage is not None and cut.coverage.unchecked and cut.coverage.unchecked[0][1] == len(answer)


def test_no_sources_is_noted() -> None:
    f = _run("The bridge is orange.", contexts=[])
    assert any("no source text" in n for n in f.notes)


def test_missing_model_dir_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = ModelDetector(model_dir=tmp_path)
    with pytest.raises(TaggerUnavailable, match="train and export"):
        f.detect(CaseAnalysis(Case(question="q", contexts=["s"], answer="a b")))
    with pytest.raises(ValueError):
        ModelDetector(max_windows=0)


def test_a_tagger_reads_the_features_its_config_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import shutil

    from hallucheck.models.tagger import Tagger
    from hallucheck.models.tagger_features import BASE_FEATURES

    if not tagger_available():
        pytest.skip("no shipped tagger")
    shipped = Tagger()
    assert shipped.settings.features == tuple(shipped.config["feature_names"]) == BASE_FEATURES
    copy = tmp_path / "tagger"
    shutil.copytree(TAGGER_DIR, copy, ignore=shutil.ignore_patterns("MODEL_CARD.md"))
    config = json.loads((copy / "config.json").read_text(encoding="utf-8"))
    for names in (["is_target", "sarcasm"], []):
        config["feature_names"] = names
        (copy / "config.json").write_text(json.dumps(config), encoding="utf-8")
        with pytest.raises(TaggerUnavailable, match="other features"):
            Tagger(copy)


def test_policy_features_do_not_move_with_the_span_threshold() -> None:
    case = Case(
        question="Where was the company founded?",
        contexts=["The company was founded in Paris in 2010 by two engineers."],
        answer="The company was founded in Lyon in 1995 by a former banker and now employs 4,000 people.",
    )
    low = ModelDetector(threshold=0.05).detect(CaseAnalysis(case))
    high = ModelDetector(threshold=0.95).detect(CaseAnalysis(case))
    assert low.features == high.features
    assert sum(s.end - s.start for s in low.spans) > sum(s.end - s.start for s in high.spans)
    # the count of contradiction spans too: a typed tagger's spans at 0.05 hold two negations,
    # at 0.5 (the features' threshold) one
    negated = Case(question="When is it open?", language="en",
                   contexts=["The museum is open on Mondays and offers free entry for children under 12."],
                   answer="The museum is not open on Mondays and does not offer free entry for children.")
    low = ModelDetector(threshold=0.05).detect(CaseAnalysis(negated))
    mid = ModelDetector(threshold=0.5).detect(CaseAnalysis(negated))
    assert low.features == mid.features
    if get_tagger(TAGGER_DIR).typed:
        assert sum(s.label == "contradiction" for s in low.spans) > mid.features["model_n_contradiction_spans"]


def test_citation_markers_are_never_tagged() -> None:
    """Markers are the citations detector's business; the tagger, trained on answers without
    them, reads the answer with them masked: no word piece of "[source:bridge]" is tagged, no
    span touches one, and the words around them score as in the same answer without markers."""
    from hallucheck.types import Source

    answer = "The Golden Gate Bridge opened in 1937 [source:bridge] and was designed by Joseph Strauss [1]."
    plain = "The Golden Gate Bridge opened in 1937 and was designed by Joseph Strauss."
    f = _run(answer, contexts=[Source(id="bridge", text=SOURCE)], threshold=1e-6)  # every other word piece
    g = _run(plain, contexts=[Source(id="bridge", text=SOURCE)], threshold=1e-6)
    markers = [(answer.index("[source:bridge]"), answer.index("[source:bridge]") + 15), (answer.index("[1]"), answer.index("[1]") + 3)]
    offsets, probs = f.details["token_probs"]["offsets"], f.details["token_probs"]["probs"]
    assert not [p for (a, b), p in zip(offsets, probs) if any(s <= a and b <= e for s, e in markers)]
    assert not any(sp.start <= s < sp.end or s <= sp.start < e for sp in f.spans for s, e in markers)
    # the same word pieces, with close probabilities
    words = [answer[a:b] for a, b in offsets]
    assert words == [plain[a:b] for a, b in g.details["token_probs"]["offsets"]]
    assert max(abs(p - q) for p, q in zip(probs, g.details["token_probs"]["probs"])) < 0.05
    assert f.risk == pytest.approx(g.risk, abs=0.02)


def test_typed_tagger_spans_say_contradiction_or_baseless() -> None:
    import numpy as np

    from hallucheck.detectors.model.model import _span_type
    from hallucheck.models.tagger import TaggedAnswer

    offsets = [(0, 4), (5, 9), (10, 14)]
    probs = np.array([0.9, 0.8, 0.2], dtype=np.float32)
    typed = TaggedAnswer(offsets, [0, 0, 0], probs, [], [], None, np.array([0.9, 0.2, 1.0], dtype=np.float32))  # type: ignore[arg-type]
    # weighted by P(unsupported): (0.9*0.9 + 0.8*0.2) / 1.7 = 0.57 -> contradiction
    label, share = _span_type(typed, 0, 9)
    assert label == "contradiction" and abs(share - (0.81 + 0.16) / 1.7) < 1e-6
    assert _span_type(typed, 5, 9)[0] == "baseless"
    binary = TaggedAnswer(offsets, [0, 0, 0], probs, [], [], None)  # type: ignore[arg-type]
    assert _span_type(binary, 0, 9) == ("baseless", 0.0)


LONG = " ".join(f"Sentence number {i} says the Golden Gate Bridge opened in 1937 and is painted orange." for i in range(400))


def test_a_deadline_stops_the_tagger_between_windows_and_states_the_unread_range() -> None:
    from hallucheck.models.tagger import get_tagger

    case = Case(question="Tell me about the bridge.", contexts=[SOURCE], answer=LONG)
    tagged, skipped = get_tagger().tag(LONG, case.question, (SOURCE,), "en")
    n = len(tagged.windows)
    assert skipped == 0 and n > 8
    # every window is built (n looks) and the first few run (2 more looks), then the time is up
    f = ModelDetector(max_windows=1000).detect(CountedDeadline(case, after=n + 2))
    assert f.error is None and f.coverage is not None
    [(start, end)] = f.coverage.unchecked
    assert end == len(LONG) and 0 < start < len(LONG) // 2
    assert "time was up" in f.coverage.note and f"{n - 4} model windows" in f.coverage.note
    assert max(e for _, e in f.details["token_probs"]["offsets"]) == start  # read up to there, nothing after


@pytest.mark.slow
def test_a_tiny_deadline_on_a_long_answer_gives_review_naming_the_unchecked_range() -> None:
    import time

    from hallucheck.checker import Budget, Checker

    ModelDetector().detect(CaseAnalysis(Case(question="q", contexts=[SOURCE], answer="The bridge is orange.")))  # load
    checker = Checker(["model"], policy="weighted", budget=Budget(max_seconds=0.2),
                      detector_options={"model": {"max_windows": 1000}})
    t0 = time.monotonic()
    report = checker.check(question="Tell me about the bridge.", contexts=[SOURCE], answer=LONG)
    took = time.monotonic() - t0
    assert report.coverage is not None and report.coverage.unchecked[-1][1] == len(LONG)
    a, b = report.coverage.unchecked[0]
    assert report.decision != "accept"
    assert any(f"answer characters {a}-{b} were not checked" in note for note in report.notes), report.notes
    assert took < 10.0, took  # the whole answer takes far longer: the tagger stopped at the deadline


def test_each_language_is_read_by_the_tagger_its_policy_was_fitted_with() -> None:
    from hallucheck.models.tagger import MULTILINGUAL_TAGGER_DIR, TAGGER_DIR, tagger_dir_for

    if not tagger_available(MULTILINGUAL_TAGGER_DIR):
        pytest.skip("multilingual tagger files missing")
    assert tagger_dir_for("en") == TAGGER_DIR and tagger_dir_for("es") == TAGGER_DIR
    for lang in ("zh-Hans", "zh-Hant", "de", "fr"):
        assert tagger_dir_for(lang) == MULTILINGUAL_TAGGER_DIR
    # the multilingual tagger is typed: a Chinese answer's finding has the conflict numbers and a
    # changed figure is labelled as contradicting its source
    g = _run("金门大桥于1947年开放。", contexts=["金门大桥于1937年开放。"])
    assert {"model_conflict_max", "model_n_contradiction_spans"} <= set(g.features)
    assert any(s.label == "contradiction" and "1947" in s.text for s in g.spans), g.spans
    def reader(answer: str, contexts: list[str]) -> Path:
        case = Case(question="Tell me about the bridge.", contexts=contexts, answer=answer)
        return Path(ModelDetector()._tagger(CaseAnalysis(case)).model_dir)

    assert reader("The Golden Gate Bridge opened in 1937.", [SOURCE]) == TAGGER_DIR  # as its policy was fitted
    # an English answer over sources in a language the multilingual tagger reads goes to it (the
    # English one reads Chinese sources as [UNK]); one over English or unknown-language sources does not
    assert tagger_dir_for("en", "zh-Hans") == MULTILINGUAL_TAGGER_DIR
    assert tagger_dir_for("en", "de") == MULTILINGUAL_TAGGER_DIR
    assert tagger_dir_for("en", "en") == TAGGER_DIR and tagger_dir_for("en", "es") == TAGGER_DIR
    x = _run("The Golden Gate Bridge opened in 1937.", contexts=["金门大桥于1937年开放，是旧金山的象征。"])
    assert {"model_conflict_max", "model_n_contradiction_spans"} <= set(x.features)
    assert reader("The Golden Gate Bridge opened in 1937.", ["金门大桥于1937年开放，是旧金山的象征。"]) == MULTILINGUAL_TAGGER_DIR


def test_the_span_threshold_follows_the_task_where_the_config_names_one() -> None:
    """The English tagger's config carries one span threshold per RAGTruth task (chosen on
    calib); an answer of another task, or of none, gets the one threshold, and an explicit
    ``threshold`` option wins over both."""
    tagger = get_tagger(TAGGER_DIR)
    by_task = tagger.threshold_by_task
    assert by_task and set(by_task) <= {"qa", "summary", "data2txt"}

    def used(task: str, **options: float) -> float:
        case = Case(question="When does it open?", contexts=["The shop opens at 9 am."],
                    answer="It opens at 7 am and has free parking.", task=task, language="en")
        return float(ModelDetector(model_dir=str(TAGGER_DIR), **options).detect(CaseAnalysis(case)).details["threshold"])

    for task, thr in by_task.items():
        assert used(task) == pytest.approx(thr)
    assert used("generic") == pytest.approx(tagger.threshold)
    assert used("qa", threshold=0.6) == pytest.approx(0.6)


@pytest.mark.slow
def test_an_answer_with_no_word_to_tag_still_gives_every_feature_the_policy_needs() -> None:
    # "[1] [2]": citation markers only, masked for the tagger, so it reads no word; the learned
    # policy needs the typed tagger's features all the same (a missing one is an error there)
    from hallucheck import Checker
    from hallucheck.policies.learned import LearnedPolicy

    policy = LearnedPolicy()
    policy.cheap_settles_below = None  # the tagger runs whatever the cheap stage says
    report = Checker(policy=policy).check(question="q", contexts=["Some source text here."], answer="[1] [2]")
    assert not any("failed" in n for n in report.notes), report.notes
    model = next(f for f in report.findings if f.detector == "model")
    assert {"model_conflict_max", "model_n_contradiction_spans"} <= set(model.features)
