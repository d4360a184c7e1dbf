"""Refitting a learned policy on a user's labels: Platt scaling, threshold, folds, policy files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.calibration.calibrate import (
    Sample,
    calibrate_policy,
    choose_threshold,
    expected_f1_curve,
    fit_platt,
    fit_shift,
    grouped_folds,
)
from hallucheck.checker import Checker, make_case
from hallucheck.errors import InputError
from hallucheck.metrics import THRESHOLD_GRID, best_threshold, f1_at
from hallucheck.metrics import prf_of as prf
from hallucheck.policies import get_policy
from hallucheck.policies.learned import LearnedPolicy
from hallucheck.types import Finding


def _stump(thr: float) -> dict:
    return {"feature": [0, -2, -2], "threshold": [thr, -2.0, -2.0], "left": [1, -1, -1], "right": [2, -1, -1],
            "value": [0.0, -0.1, 0.1]}


def _spec() -> dict:
    """A policy whose raw score rises with ngram.risk in 19 steps, fitted for a base rate near
    one half (threshold 0.5 at ngram.risk 0.5)."""
    stage = {"detectors": ["ngram"], "features": ["ngram.risk"], "fill": [0.0], "init": 0.0, "learning_rate": 1.0,
             "platt": [1.0, 0.0], "trees": [_stump(t) for t in np.round(np.arange(0.05, 0.96, 0.05), 2)]}
    return {"format": 1, "detectors": ["ngram"], "stages": {"cheap": stage, "full": dict(stage)}, "threshold": 0.5}


def _samples(n: int, seed: int = 0) -> list[Sample]:
    """Answers whose ngram risk ranks them well, but only those above 0.8 tend to be
    hallucinated: the shipped threshold (risk 0.5) flags far too many."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        risk = float(rng.uniform())
        label = bool(rng.uniform() < 1 / (1 + np.exp(-12 * (risk - 0.8))))
        a = CaseAnalysis(make_case(question="q", contexts=[f"source {i // 3}"], answer="Some answer.", language="en"))
        out.append(Sample(a, [Finding(detector="ngram", risk=risk, details={"features": {}})], label, f"g{i // 3}"))
    return out


def test_platt_recovers_slope_and_intercept() -> None:
    rng = np.random.default_rng(1)
    raw = rng.normal(size=20000)
    y = (rng.uniform(size=raw.size) < 1 / (1 + np.exp(-(2.0 * raw - 1.0)))).astype(float)
    a, b = fit_platt(raw, y)
    assert a == pytest.approx(2.0, abs=0.1) and b == pytest.approx(-1.0, abs=0.1)


def test_platt_never_inverts_the_ranking() -> None:
    raw = np.array([0.0, 1.0, 2.0, 3.0])
    a, b = fit_platt(raw, np.array([1.0, 1.0, 0.0, 0.0]))
    assert a == 0.0 and b == pytest.approx(0.0)  # the base rate, not a falling curve


def test_folds_keep_groups_whole() -> None:
    groups = [f"g{i // 4}" for i in range(40)]
    folds = grouped_folds(groups, 5, seed=3)
    assert sorted(np.concatenate(folds).tolist()) == list(range(40))
    for f in folds:
        inside = {groups[i] for i in f}
        assert all(groups[j] not in inside for g in folds if g is not f for j in g)


def test_calibration_brings_f1_near_the_best_threshold() -> None:
    spec = _spec()
    fitted = calibrate_policy(spec, _samples(600), refit_stack=False)
    rep = fitted.report
    assert rep["after"]["f1"] > rep["before"]["f1"] + 0.1
    assert fitted.spec["threshold"] != spec["threshold"] and fitted.spec["calibration"]["answers"] == 600
    # on fresh answers from the same distribution, as good as the best threshold there
    fresh = _samples(2000, seed=7)
    y = np.array([s.label for s in fresh])
    risk = np.array([s.findings[0].risk for s in fresh])
    pol = LearnedPolicy(spec=fitted.spec)
    pred = np.array([pol.decide(s.analysis, s.findings).hallucinated for s in fresh])
    p_raw = np.array([LearnedPolicy(spec=spec).decide(s.analysis, s.findings).risk_score for s in fresh])
    _, best = best_threshold(p_raw, y)
    assert prf(pred, y)["f1"] >= best - 0.03
    assert prf(risk >= 0.5, y)["f1"] < best - 0.1  # the shipped threshold was off


def test_too_few_labels_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="at least 20"):
        calibrate_policy(_spec(), _samples(10), refit_stack=False)


def test_policy_file_works_wherever_a_policy_name_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(calibrate_policy(_spec(), _samples(200), refit_stack=False).spec))
    assert isinstance(get_policy(str(path)), LearnedPolicy)
    checker = Checker(policy=str(path))
    assert checker.detector_names == ["ngram"]  # the detectors the file was fitted with
    assert checker.policy.threshold == json.loads(path.read_text())["threshold"]  # type: ignore[attr-defined]
    monkeypatch.setenv("HALLUCHECK_POLICY", str(path))
    assert Checker().detector_names == ["ngram"]


@pytest.mark.parametrize("content", [None, "{not json", '{"stages": {}}'])
def test_bad_policy_file_is_an_input_error(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "p.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match="policy file"):
        get_policy(str(path))


def _scores(n: int, rng: np.random.Generator, rate: float = 0.15) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities of a model that ranks well (two normal classes on the logit scale) for a
    set where a ``rate`` share is hallucinated."""
    y = rng.uniform(size=n) < rate
    z = np.where(y, rng.normal(1.0, 1.0, n), rng.normal(-1.0, 1.0, n))
    return 1.0 / (1.0 + np.exp(-z)), y


def test_plain_choice_is_the_best_threshold() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        n = int(rng.integers(20, 300))
        p, y = _scores(n, rng, rate=float(rng.uniform(0.1, 0.6)))
        groups = [str(i) for i in range(n)]
        assert choose_threshold(p, y, groups, rounds=0, width=1) == best_threshold(p, y)[0]


def test_the_chosen_threshold_does_better_on_new_answers_when_hallucinations_are_few() -> None:
    # 400 calibration answers, about 60 hallucinated: the plain best threshold of one sample is
    # noisy; averaged over resamples and neighbouring thresholds, the choice is better on average
    # on fresh answers, and its worst draw is no worse.
    rng = np.random.default_rng(100)
    fresh_p, fresh_y = _scores(50_000, rng)
    best = max(f1_at(fresh_p, fresh_y, float(t)) for t in THRESHOLD_GRID)
    smoothed, plain = [], []
    for k in range(40):
        p, y = _scores(400, rng)
        groups = [str(i // 3) for i in range(400)]
        smoothed.append(best - f1_at(fresh_p, fresh_y, choose_threshold(p, y, groups, seed=k)))
        plain.append(best - f1_at(fresh_p, fresh_y, best_threshold(p, y)[0]))
    assert np.mean(smoothed) < np.mean(plain) - 0.002
    assert max(smoothed) <= max(plain)


def test_the_choice_is_reproducible() -> None:
    p, y = _scores(300, np.random.default_rng(9))
    groups = [str(i // 5) for i in range(300)]
    assert choose_threshold(p, y, groups, seed=3) == choose_threshold(p, y, groups, seed=3)
    assert choose_threshold(p, y, groups, method="expected") == choose_threshold(p, y, groups, method="expected")


def _platt_scores(n: int, rng: np.random.Generator, rate: float = 0.15) -> tuple[np.ndarray, np.ndarray]:
    """Raw scores of a model that ranks well (two normal classes) and their labels."""
    y = rng.uniform(size=n) < rate
    return np.where(y, rng.normal(1.0, 1.0, n), rng.normal(-1.0, 1.0, n)), y


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def test_the_expected_f1_choice_beats_the_resampled_one_at_low_prevalence() -> None:
    # As calibrate does it: Platt scaling fitted on 400 answers (about 60 hallucinated), then the
    # threshold. Where the logistic link is right, as here, the F1 expected from the fitted
    # probabilities is better on fresh answers than the resampled labels' curve, on average and
    # much more in the worst draw.
    rng = np.random.default_rng(21)
    fresh_raw, fresh_y = _platt_scores(50_000, rng)
    expected, resampled = [], []
    for k in range(40):
        raw, y = _platt_scores(400, rng)
        a, b = fit_platt(raw, y.astype(float))
        p, fresh_p = _sigmoid(a * raw + b), _sigmoid(a * fresh_raw + b)
        best = max(f1_at(fresh_p, fresh_y, float(t)) for t in THRESHOLD_GRID)
        groups = [str(i // 3) for i in range(400)]
        expected.append(best - f1_at(fresh_p, fresh_y, choose_threshold(p, y, groups, method="expected", seed=k)))
        resampled.append(best - f1_at(fresh_p, fresh_y, choose_threshold(p, y, groups, seed=k)))
    assert np.mean(expected) < np.mean(resampled) - 0.004
    assert max(expected) < max(resampled) - 0.01


def _logit(rate: float) -> float:
    return float(np.log(rate / (1.0 - rate)))


def test_a_shift_keeps_the_shipped_slope_when_only_the_base_rate_moved() -> None:
    # Two normal classes at -1 and +1: the log-odds are 2 x + logit(rate). Shipped for a rate of
    # 0.44, used where it is 0.15: only the intercept should move, and by the prior's log-odds.
    rng = np.random.default_rng(5)
    raw, y = _platt_scores(20_000, rng, rate=0.15)
    a, b = fit_shift(raw, y.astype(float), (2.0, _logit(0.44)))
    assert a == 2.0 and b == pytest.approx(_logit(0.15), abs=0.08)


def test_a_shift_refits_the_slope_when_the_labels_ask_for_it() -> None:
    # The shipped slope says the score separates the classes far better than it does here
    rng = np.random.default_rng(6)
    y = rng.uniform(size=2000) < 0.3
    raw = np.where(y, rng.normal(0.3, 1.0, 2000), rng.normal(-0.3, 1.0, 2000))  # log-odds 0.6 x + c
    a, b = fit_shift(raw, y.astype(float), (2.0, 0.0))
    assert a == pytest.approx(0.6, abs=0.15)
    assert (a, b) == fit_platt(raw, y.astype(float))


def test_expected_f1_reads_calibrated_probabilities_as_they_are() -> None:
    # Platt scaling of a score whose true link is logistic (as calibrate fits it): the beta check
    # leaves the probabilities alone in most draws (a 5% test: about 38 of 40), and the curve is
    # then 2 TP / (2 TP + FP + FN) of the expected counts
    rng = np.random.default_rng(4)
    kept = 0
    for _ in range(40):
        raw = rng.normal(-2.0, 1.5, 400)
        y = rng.uniform(size=400) < _sigmoid(raw)
        a, b = fit_platt(raw, y.astype(float))
        p = _sigmoid(a * raw + b)
        t = THRESHOLD_GRID
        flagged = p[:, None] >= t[None, :]
        tp, fp, fn = (flagged * p[:, None]).sum(0), (flagged * (1 - p[:, None])).sum(0), (~flagged * p[:, None]).sum(0)
        kept += bool(np.allclose(expected_f1_curve(p, y), 2 * tp / (2 * tp + fp + fn)))
    assert kept >= 34


def test_expected_f1_reads_miscalibrated_probabilities_through_a_beta_calibration() -> None:
    # The fitted probabilities are off in a way a logistic fit of the raw score cannot fix: far
    # too high in the middle. Read as they are, the expected F1 puts the threshold too low; the
    # beta check sees the misfit in the labels and the choice lands near the best on fresh answers.
    rng = np.random.default_rng(8)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        p = rng.uniform(0.0, 1.0, n) ** 2
        return p, rng.uniform(size=n) < p ** 3  # the truth: q = p ** 3

    fresh_p, fresh_y = draw(50_000)
    best = max(f1_at(fresh_p, fresh_y, float(t)) for t in THRESHOLD_GRID)
    checked, as_they_are = [], []
    for _ in range(20):
        p, y = draw(400)
        checked.append(best - f1_at(fresh_p, fresh_y, choose_threshold(p, y, [str(i) for i in range(400)], method="expected")))
        t = THRESHOLD_GRID
        flagged = p[:, None] >= t[None, :]
        tp, fp, fn = (flagged * p[:, None]).sum(0), (flagged * (1 - p[:, None])).sum(0), (~flagged * p[:, None]).sum(0)
        as_they_are.append(best - f1_at(fresh_p, fresh_y, float(t[np.argmax(2 * tp / (2 * tp + fp + fn))])))
    assert np.mean(checked) < 0.03
    assert np.mean(checked) < np.mean(as_they_are) - 0.05


def test_an_unknown_threshold_method_is_an_error() -> None:
    with pytest.raises(ValueError, match="threshold method"):
        choose_threshold([0.1, 0.9], [False, True], ["a", "b"], method="best")  # type: ignore[arg-type]


def test_calibration_chooses_its_threshold_by_source_group(monkeypatch: pytest.MonkeyPatch) -> None:
    import hallucheck.calibration.calibrate as calibration

    calls: list[tuple[int, set[str], float]] = []
    methods: list[str] = []

    def spy(p: np.ndarray, y: np.ndarray, groups: list[str], **kw: Any) -> float:
        t = choose_threshold(p, y, groups, **kw)
        methods.append(kw["method"])
        calls.append((len(p), set(groups), t))
        return t

    monkeypatch.setattr(calibration, "choose_threshold", spy)
    samples = _samples(300, seed=4)
    fitted = calibrate_policy(_spec(), samples, refit_stack=False)
    # once per fold, then once on all the answers: that last choice is the written threshold
    assert len(calls) == fitted.report["folds"] + 1
    n, groups, t = calls[-1]
    assert n == 300 and groups == {s.group for s in samples}
    assert fitted.spec["threshold"] == t
    # the shifted choice unless asked otherwise, and the report says which
    assert set(methods) == {"shifted"} and fitted.report["threshold_method"] == "shifted"
    fitted = calibrate_policy(_spec(), samples, refit_stack=False, threshold_method="expected")
    assert methods[-1] == "expected" and fitted.report["threshold_method"] == "expected"


def test_a_group_refit_on_the_users_labels_drops_the_groups_cross_lingual_fit() -> None:
    """The user's labels judge every answer of the refit, those over sources in another language too."""
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.calibration.calibrate import Sample, _language_spec
    from hallucheck.cases import make_case

    stage = {"detectors": ["ngram"], "features": ["ngram.risk"], "fill": [0.0], "init": 0.0, "learning_rate": 1.0,
             "platt": [1.0, 0.0], "trees": []}
    spec = {"stages": {"cheap": stage}, "threshold": 0.5,
            "languages": {"fr": {"stages": {"cheap": stage}, "threshold": 0.6,
                                 "cross_lingual": {"stages": {"cheap": stage}, "threshold": 0.7}}}}
    fr = CaseAnalysis(make_case(question="q", contexts=["La carte coûte 5 euros."], answer="Elle coûte 5 euros.", language="fr"))
    out, note = _language_spec(spec, [Sample(analysis=fr, findings=[], label=False, group="g")])
    assert note == "fr (1 of 1 answers)"
    assert out["threshold"] == 0.6 and "cross_lingual" not in out and "languages" not in out


def test_before_is_the_reported_verdict_and_no_better_fit_is_no_improvement() -> None:
    samples = _samples(300)
    plain = calibrate_policy(_spec(), samples, refit_stack=False)
    assert plain.improved  # the policy's own threshold was off
    for s in samples:
        s.reported = s.label  # a Checker whose reports were right on every answer
    fitted = calibrate_policy(_spec(), samples, refit_stack=False)
    assert fitted.report["before"] == {"threshold": 0.5, "precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert fitted.report["after"] == plain.report["after"]
    assert not fitted.improved


def test_a_refitted_verdict_reads_the_restatement_as_the_checker_does() -> None:
    # "before" and "after" go through the Checker's safeguards: a reject resting on word order alone
    # over an answer that restates its source is a review there, so it is not counted hallucinated.
    from hallucheck.calibration.calibrate import Sample, _judged
    from hallucheck.policies.base import Verdict
    from hallucheck.policies.floors import shipped_floors

    class Rejects:
        name = "rejects"

        def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
            return Verdict(hallucinated=True, risk_score=0.9, risk_level="high", decision="reject")

        def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
            return False

    source = "该公司于2015年在杭州成立，主要从事云计算服务。"
    word_order = [Finding(detector="model", role="tagger", risk=0.9, flagged=True)]

    def sample(answer: str) -> Sample:
        return Sample(CaseAnalysis(make_case(question="介绍一下这家公司。", contexts=[source], answer=answer)),
                      list(word_order), True, "g")

    assert _judged(Rejects(), sample("该公司2015年成立于杭州。"), shipped_floors()) is False
    assert _judged(Rejects(), sample("该公司2016年成立于北京。"), shipped_floors()) is True
