"""The learned policy's numpy evaluator, calibration, thresholds, cascade band and span fusion."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from hallucheck.errors import HallucheckError
from hallucheck.policies.learned import LearnedPolicy, MissingFeatureError, Stage, level_from_probability, stack_features
from hallucheck.types import Finding, Span
from tests.policies.helpers import ROLE_OF, analysis


def _stump(feature: int, thr: float, lo: float, hi: float) -> dict:
    return {"feature": [feature, -2, -2], "threshold": [thr, -2.0, -2.0], "left": [1, -1, -1], "right": [2, -1, -1], "value": [0.0, lo, hi]}


def _spec(tmp_path: Path) -> Path:
    cheap = {
        "detectors": ["ngram"], "features": ["ngram.risk", "case.task_qa"], "fill": [0.3, 0.0], "init": 0.0,
        "learning_rate": 1.0, "platt": [1.0, 0.0], "trees": [_stump(0, 0.5, -2.0, 2.0)],
    }
    full = dict(cheap, detectors=["ngram", "model"], features=["ngram.risk", "model.f.model_max"], fill=[0.3, 0.1],
                trees=[_stump(0, 0.5, -1.0, 1.0), _stump(1, 0.7, -1.0, 3.0)])
    spec = {"detectors": ["ngram", "model"], "stages": {"cheap": cheap, "full": full}, "threshold": 0.5,
            "escalate_low": 0.2, "escalate_high": 0.8, "span_detectors": ["numbers"], "cheap_span_detectors": ["ngram"],
            "fallback_span_detectors": ["ngram"]}
    p = tmp_path / "learned.json"
    p.write_text(json.dumps(spec))
    return p


def _sig(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def _span(det: str, a: int, b: int, score: float = 0.9) -> Span:
    return Span(start=a, end=b, text="x" * (b - a), label="baseless", score=score, detector=det)


def _f(det: str, risk: float, feats: dict | None = None, spans: list[Span] | None = None) -> Finding:
    return Finding(detector=det, role=ROLE_OF.get(det, "other"), risk=risk, features=feats or {}, spans=spans or [])


def test_full_stage_probability_and_verdict(tmp_path: Path) -> None:
    pol = LearnedPolicy(_spec(tmp_path))
    fs = [
        _f("ngram", 0.9),
        _f("model", 0.95, {"model_max": 0.95}, [_span("model", 0, 4)]),
        _f("numbers", 0.0, spans=[_span("numbers", 5, 7)]),
    ]
    v = pol.decide(analysis(), fs)
    assert v.risk_score == pytest.approx(_sig(1.0 + 3.0))
    assert v.hallucinated and v.risk_level == "high" and v.decision == "reject"
    assert sorted((s.detector, s.start) for s in v.spans or []) == [("model", 0), ("numbers", 5)]


def test_flagged_answer_without_tagger_spans_shows_the_cheap_stage_spans(tmp_path: Path) -> None:
    """A verdict of 'hallucinated' with nothing highlighted helps no one: when the tagger marked
    no word, the fallback span detectors (here ngram) speak instead."""
    pol = LearnedPolicy(_spec(tmp_path))
    fs = [_f("ngram", 0.9, spans=[_span("ngram", 0, 3)]), _f("model", 0.95, {"model_max": 0.95})]
    v = pol.decide(analysis(), fs)
    assert v.hallucinated
    assert [(s.detector, s.start) for s in v.spans or []] == [("ngram", 0)]
    # with tagger spans, the full stage's choice stands (ngram is not one of its span detectors)
    fs[1] = _f("model", 0.95, {"model_max": 0.95}, [_span("model", 4, 8)])
    assert [s.detector for s in pol.decide(analysis(), fs).spans or []] == ["model"]


def test_grounded_answer_gets_no_spans(tmp_path: Path) -> None:
    pol = LearnedPolicy(_spec(tmp_path))
    fs = [_f("ngram", 0.1), _f("model", 0.2, {"model_max": 0.2}, [_span("model", 0, 4, 0.3)])]
    v = pol.decide(analysis(), fs)
    assert v.risk_score == pytest.approx(_sig(-2.0))
    assert not v.hallucinated and v.risk_level == "low" and v.spans == []


def test_cheap_stage_when_model_did_not_run(tmp_path: Path) -> None:
    pol = LearnedPolicy(_spec(tmp_path))
    v = pol.decide(analysis(), [_f("ngram", 0.9, spans=[_span("ngram", 0, 3)])])
    assert v.risk_score == pytest.approx(_sig(2.0))
    assert [s.detector for s in v.spans or []] == ["ngram"]
    assert any("cheap stage" in n for n in v.notes)


def test_a_feature_the_stage_needs_and_the_findings_lack_is_an_error_naming_it(tmp_path: Path) -> None:
    pol = LearnedPolicy(_spec(tmp_path))
    with pytest.raises(MissingFeatureError, match=r"model\.f\.model_max"):
        pol.probability(analysis(), [_f("ngram", 0.9), _f("model", 0.9)])  # the tagger gave no features
    with pytest.raises(HallucheckError):
        pol.decide(analysis(), [_f("ngram", 0.9), _f("model", 0.9)])
    p, stage, _ = pol.probability(analysis(), [_f("ngram", 0.9), _f("model", 0.9, {"model_max": 0.95})])
    assert stage == "full" and p == pytest.approx(_sig(1.0 + 3.0))


def test_escalate_only_in_the_uncertain_band(tmp_path: Path) -> None:
    pol = LearnedPolicy(_spec(tmp_path))
    a = analysis()
    assert pol.escalate(a, [], 2) is True  # cheap stage incomplete
    assert pol.escalate(a, [_f("ngram", 0.9)], 4) is False  # p = 0.88: settled
    pol.escalate_high = 0.9
    assert pol.escalate(a, [_f("ngram", 0.9)], 4) is True


def test_the_tagger_is_not_needed_below_the_fits_bound_and_never_in_a_group_without_one(tmp_path: Path) -> None:
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.cases import make_case

    spec = json.loads(_spec(tmp_path).read_text())
    assert LearnedPolicy(spec=spec).not_needed(analysis(), [_f("ngram", 0.1)]) == frozenset()  # no bound: the model always runs
    spec["cheap_settles_below"] = 0.2
    spec["languages"] = {"zh": {"stages": spec["stages"], "threshold": 0.5}}
    pol = LearnedPolicy(spec=spec)
    long_source = " ".join(f"The plant in town {k} opened in {1990 + k} and employs {10 * k} people." for k in range(12))
    a = CaseAnalysis(make_case(question="q", contexts=[long_source], answer="The plant opened in 1991.", language="en"))
    assert pol.not_needed(analysis(), [_f("ngram", 0.1)]) == frozenset()  # a short source: the tagger always runs
    assert pol.not_needed(a, []) == frozenset()  # cheap stage incomplete
    assert pol.not_needed(a, [_f("ngram", 0.1)]) == {"model"}  # p = sigmoid(-2) = 0.12 < 0.2
    assert pol.not_needed(a, [_f("ngram", 0.9)]) == frozenset()  # p = 0.88
    zh = CaseAnalysis(make_case(question="q", contexts=["來源"], answer="答案。", language="zh-Hant"))
    assert pol.languages["zh"].cheap_settles_below is None  # measured for the base stages only
    assert pol.not_needed(zh, [_f("ngram", 0.1)]) == frozenset()


def test_the_shipped_english_fit_settles_only_below_its_cascade_band() -> None:
    pol = LearnedPolicy()
    assert pol.cheap_settles_below is not None and 0.0 < pol.cheap_settles_below <= pol.escalate_low
    assert all(group.cheap_settles_below is None for group in pol.languages.values())


def test_levels() -> None:
    assert level_from_probability(0.5, 0.4) == "high"
    assert level_from_probability(0.25, 0.4) == "moderate"
    assert level_from_probability(0.1, 0.4) == "low"


def test_stack_features_skip_non_numbers() -> None:
    out = stack_features({"x": {"risk": 0.5, "flagged": True, "features": {"a": 1, "b": float("nan"), "c": "s", "d": True}}}, {})
    assert out == {"x.risk": 0.5, "x.flagged": 1.0, "x.f.a": 1.0, "x.f.d": 1.0}


def test_checker_reports_the_policy_spans(tmp_path: Path) -> None:
    from hallucheck.checker import Checker

    class Fake:
        def __init__(self, name: str, layer: int, finding: Finding) -> None:
            self.name, self.layer, self.finding = name, layer, finding

        def detect(self, analysis):  # type: ignore[no-untyped-def]
            return self.finding

    # whole words: report spans are grown to word boundaries, so the fake spans are words
    dets = [Fake("ngram", 2, _f("ngram", 0.9, spans=[_span("ngram", 0, 4)])),
            Fake("model", 4, _f("model", 0.9, {"model_max": 0.9}, [_span("model", 5, 9)]))]
    r = Checker(dets, policy=LearnedPolicy(_spec(tmp_path))).check(question="q", contexts=["src"], answer="abcd efgh ijkl")
    assert [(s.start, s.end) for s in r.spans] == [(5, 9)]  # ngram spans are not in the full stage's fusion
    rc = Checker(dets, policy=LearnedPolicy(_spec(tmp_path)), cascade=True).check(question="q", contexts=["src"], answer="abcd efgh ijkl")
    assert [f.detector for f in rc.findings] == ["ngram"]  # p_cheap = 0.88 is outside the band


@pytest.mark.train
def test_contributions_sum_to_the_raw_score_and_name_the_signal(tmp_path: Path) -> None:
    pol = LearnedPolicy(_spec(tmp_path))
    full = pol.stages["full"]
    x = np.array([0.9, 0.95])
    bias, contrib = full.contributions(x)
    # each stump moves from its root value (0) to the leaf: ngram.risk +1, model_max +3
    assert bias == 0.0 and contrib.tolist() == [1.0, 3.0]
    assert bias + contrib.sum() == pytest.approx(full.raw(x))
    v = pol.decide(analysis(), [_f("ngram", 0.9), _f("model", 0.95, {"model_max": 0.95})])
    (note,) = [n for n in v.notes if n.startswith("learned policy signals")]
    assert note == ("learned policy signals: raised the risk most: model.f.model_max=0.95 (+3.00), "
                    "ngram.risk=0.9 (+1.00); lowered it most: none")
    # the shipped fits: the sum is the raw score on real trees too (inner nodes hold their own values)
    from hallucheck.policies.learned import load_spec

    rng = np.random.RandomState(3)
    for spec in load_spec()["stages"].values():
        st = Stage(spec)
        for _ in range(20):
            row = rng.rand(len(st.features)) * rng.choice([1.0, 5.0], len(st.features))
            b, c = st.contributions(row)
            assert b + c.sum() == pytest.approx(st.raw(row), abs=1e-9)


def test_exported_trees_match_scikit_learn() -> None:
    pytest.importorskip("sklearn")
    from hallucheck.train.stack import fit_stage

    rng = np.random.RandomState(0)
    x = rng.rand(300, 4)
    y = (x[:, 0] + 0.3 * rng.rand(300) > 0.6).astype(int)
    groups = np.arange(300) // 3
    spec, oof = fit_stage(x, y, groups, ["a", "b", "c", "d"], seed=1)
    spec["detectors"] = []
    st = Stage(spec)
    probs = np.array([st.probability(row) for row in x])
    assert ((probs >= 0.5) == y).mean() > 0.85
    assert len(oof) == 300 and 0.0 <= oof.min() and oof.max() <= 1.0
    from sklearn.ensemble import GradientBoostingClassifier

    ref = GradientBoostingClassifier(n_estimators=200, max_depth=3, learning_rate=0.05, subsample=0.8,
                                     min_samples_leaf=20, random_state=1).fit(x, y).decision_function(x)
    a, b = spec["platt"]
    np.testing.assert_allclose(probs, 1 / (1 + np.exp(-(a * ref + b))), atol=1e-9)


def test_an_answer_sent_to_review_keeps_its_spans() -> None:
    """A moderate-risk answer below the threshold still shows the spans a reviewer should read."""
    from hallucheck.policies.learned import LearnedPolicy

    policy = LearnedPolicy()
    case = {
        "question": "我對產品不滿意，可以退款嗎？",
        "contexts": ["退款政策：已開封產品可在 7 天內申請 50% 退款；未開封產品可在 30 天內申請全額退款。"],
        "answer": "您好！根據我們的政策，如果您對產品不滿意，可以在 30 天內申請全額退款。請撥打客服專線 0800-123-456 由客服人員為您處理。",
    }
    import hallucheck

    report = hallucheck.Checker(policy=policy).check(case)
    if report.risk_level == "low":
        assert all(s.score >= policy.span_keep_score for s in report.spans)
    else:
        assert report.spans, "a report sent to review or rejected must show its spans"
        assert any("0800-123-456" in s.text for s in report.spans)


def test_choose_spans_keeps_the_tagger_and_the_chosen_detectors_then_falls_back() -> None:
    from hallucheck.policies.learned import choose_spans

    found = [("model", []), ("numbers", ["n1"]), ("ngram", ["g1"]), ("lexicon", ["l1"])]
    sets = {"span_detectors": {"ngram"}, "cheap_span_detectors": {"lexicon"}}
    assert choose_spans(found, with_model=True, **sets) == ["g1"]
    assert choose_spans(found, with_model=False, **sets) == ["l1"]
    # the tagger and the chosen detectors found nothing: the fallback detectors speak
    quiet = [("model", []), ("numbers", ["n1"]), ("ngram", [])]
    assert choose_spans(quiet, with_model=True, fallback_span_detectors={"numbers"}, **sets) == ["n1"]
    assert choose_spans(quiet, with_model=True, **sets) == []
    assert choose_spans(quiet, with_model=False, fallback_span_detectors={"numbers"}, **sets) == []
    assert choose_spans([("model", ["m1"]), ("numbers", ["n1"])], with_model=True, fallback_span_detectors={"numbers"}, **sets) == ["m1"]


def test_a_language_group_uses_its_own_fit_without_the_tagger(tmp_path: Path) -> None:
    """Chinese answers go to the zh policy: its own stage and threshold, and the tagger (fitted
    on English) neither moves the verdict nor shows spans there; English keeps the base spec."""
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.cases import make_case

    spec = json.loads(_spec(tmp_path).read_text())
    zh_stage = dict(spec["stages"]["cheap"], trees=[_stump(0, 0.5, -3.0, 0.5)])
    spec["languages"] = {"zh": {"stages": {"cheap": zh_stage}, "threshold": 0.6, "model_spans": False,
                                "escalate_low": 1.0, "escalate_high": 0.0}}
    pol = LearnedPolicy(spec=spec)
    zh = CaseAnalysis(make_case(question="q", contexts=["來源"], answer="答案。", language="zh-Hant"))
    fs = [_f("ngram", 0.9, spans=[_span("ngram", 0, 1)]), _f("model", 0.99, {"model_max": 0.99}, [_span("model", 1, 2)])]
    v = pol.decide(zh, fs)
    assert v.risk_score == pytest.approx(_sig(0.5)) and v.hallucinated  # the zh stage alone: 0.62 >= 0.6
    assert all(s.detector != "model" for s in v.spans or [])
    assert any("fitted for zh" in n for n in v.notes)
    assert pol.escalate(zh, [_f("ngram", 0.5)], 4) is False  # no later stage to run for
    en = pol.decide(analysis(), fs)
    assert en.risk_score == pytest.approx(_sig(1.0 + 3.0))  # the base full stage, tagger included


def test_a_group_judges_answers_over_sources_in_another_language_with_its_cross_lingual_fit(tmp_path: Path) -> None:
    """Within a group, an answer over sources in another language goes to the group's
    ``cross_lingual`` fit; a same-language answer keeps the group's own fit."""
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.cases import make_case

    spec = json.loads(_spec(tmp_path).read_text())
    fr_stage = dict(spec["stages"]["cheap"], trees=[_stump(0, 0.5, -3.0, 0.5)])
    cross_stage = dict(spec["stages"]["cheap"], trees=[_stump(0, 0.5, -3.0, -2.0)])
    spec["languages"] = {"fr": {"stages": {"cheap": fr_stage}, "threshold": 0.6, "escalate_low": 1.0, "escalate_high": 0.0,
                                "cross_lingual": {"stages": {"cheap": cross_stage}, "threshold": 0.6}}}
    pol = LearnedPolicy(spec=spec)
    fs = [_f("ngram", 0.9, spans=[_span("ngram", 0, 1)])]
    same = CaseAnalysis(make_case(question="Quel prix ?", contexts=["Le billet coûte 3 euros pour un adulte."],
                                  answer="Le billet coûte 3 euros.", language="fr"))
    cross = CaseAnalysis(make_case(question="Quel prix ?", contexts=["The ticket costs 3 euros for an adult passenger."],
                                   answer="Le billet coûte 3 euros.", language="fr"))
    assert not same.cross_lingual and cross.cross_lingual
    v_same, v_cross = pol.decide(same, fs), pol.decide(cross, fs)
    assert v_same.risk_score == pytest.approx(_sig(0.5)) and v_same.hallucinated
    assert v_cross.risk_score == pytest.approx(_sig(-2.0)) and not v_cross.hallucinated
    assert any("sources in another language" in n for n in v_cross.notes)
    assert not any("sources in another language" in n for n in v_same.notes)
    # the report says what a verdict across languages rests on, and only there
    assert any(n.startswith("the answer (fr) and its sources (en) are in different languages") for n in v_cross.notes)
    assert not any("different languages" in n for n in v_same.notes)
    assert pol.for_case(cross) is pol.languages["fr"].cross_lingual
    assert pol.for_case(same) is pol.languages["fr"]
    assert pol.languages["fr"].cross_lingual is not None and pol.languages["fr"].cross_lingual.cross_lingual is None


def test_case_features_name_a_cross_lingual_answer_only_when_known() -> None:
    from hallucheck.policies.learned import case_features

    assert "case.cross_lingual" not in case_features("qa", 100, 2)  # old caches fit as before
    assert case_features("qa", 100, 2, True)["case.cross_lingual"] == 1.0
    assert case_features("qa", 100, 2, False)["case.cross_lingual"] == 0.0


def test_the_english_tagger_marks_spans_at_the_threshold_its_shipped_fit_chose() -> None:
    """The English fit chooses the token threshold of the report's spans on calib
    (``token_threshold``), but the model detector reads it from the tagger's ``config.json``: a
    refit that does not write it there (``train-policy --tagger-config``) leaves the spans at an
    older value, as happened between 2026-11-27 and 2026-11-29."""
    from importlib import resources

    from hallucheck.models.tagger import TAGGER_DIR

    spec = json.loads(resources.files("hallucheck.policies").joinpath("learned.json").read_text("utf-8"))
    config = json.loads((TAGGER_DIR / "config.json").read_text("utf-8"))
    assert config["threshold"] == pytest.approx(spec["token_threshold"])
    assert config.get("threshold_by_task", {}) == spec.get("token_threshold_by_task", {})
