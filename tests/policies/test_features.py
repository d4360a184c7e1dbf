"""The stack features' registry matches what the detectors give: a renamed or dropped key fails
here, not silently in the learned policy."""

from __future__ import annotations

import pytest

from hallucheck.checker import Checker
from hallucheck.policies.features import (
    CASE_FEATURES,
    DETECTOR_FEATURES,
    case_features,
    is_known_feature,
    register_features,
    unknown_features,
)
from hallucheck.policies.learned import LearnedPolicy

CASES = [
    {"question": "When does it open?", "contexts": ["The shop opens at 9 am [1] and closes at 5 pm."],
     "answer": "It opens at 7 am, and was founded by Maria Keller in 1881 [1]. Studies show it is probably the best."},
    {"question": "Wann?", "contexts": ["Das Werk wurde 1998 in Leipzig eröffnet und beschäftigt 300 Menschen."],
     "answer": "Das Werk wurde 1999 in Leipzig eröffnet."},
    {"question": "q", "contexts": ["A plain source sentence about nothing much."], "answer": "Yes."},
]


@pytest.mark.parametrize("case", CASES, ids=["en", "de", "short"])
def test_each_detector_gives_exactly_the_registry_keys(case: dict) -> None:
    report = Checker(list(DETECTOR_FEATURES)).check(**case)
    given = {f.detector: set(f.features) for f in report.findings if f.usable}
    assert set(given) == set(DETECTOR_FEATURES)
    for detector, keys in given.items():
        assert keys == set(DETECTOR_FEATURES[detector]), detector


def test_the_case_features_are_the_registry_case_features() -> None:
    assert set(case_features("qa", 120, 2, cross_lingual=False)) == CASE_FEATURES


def test_the_shipped_spec_names_only_registry_features() -> None:
    policy = LearnedPolicy()
    regimes = [policy, *policy.languages.values(), *(p.cross_lingual for p in policy.languages.values() if p.cross_lingual)]
    names = {n for p in regimes for stage in p.stages.values() for n in stage.features}
    assert names and unknown_features(sorted(names)) == []


def test_names_outside_the_registry_are_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    assert is_known_feature("ngram.risk") and is_known_feature("model.f.model_max") and is_known_feature("case.task_qa")
    assert not is_known_feature("ngram.f.novelty_n9") and not is_known_feature("case.model_name")
    assert not is_known_feature("citations.risk")  # marker evidence: the stack reads no citation risk
    monkeypatch.setattr("hallucheck.policies.features.DETECTOR_FEATURES", dict(DETECTOR_FEATURES))
    assert not is_known_feature("mine.f.score")
    register_features("mine", ["score"])
    assert is_known_feature("mine.f.score") and is_known_feature("mine.risk")
