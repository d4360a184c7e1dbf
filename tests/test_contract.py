"""The typed contract between detectors and policies: roles, flagged, features, citations.

Policies read typed fields and choose findings by role; these tests pin that contract so a
detector or policy that falls back to reading ``details`` or detector names is caught.
"""

from __future__ import annotations

import pytest

import hallucheck.checker as checker_module
from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Checker, check, make_case
from hallucheck.detectors import get_detector
from hallucheck.detectors.base import BaseDetector
from hallucheck.llm.fake import FakeLLM
from hallucheck.policies.tiered import TieredPolicy
from hallucheck.policies.weighted import WeightedPolicy
from hallucheck.types import ROLES, CitationSummary, Finding

RULE_DETECTORS = ("citations", "lexicon", "numbers", "ngram", "overlap")


def test_flagged_defaults_to_the_risk_and_can_be_given() -> None:
    assert Finding(detector="x", risk=0.7).flagged is True
    assert Finding(detector="x", risk=0.3).flagged is False
    assert Finding(detector="x", risk=0.7, flagged=False).flagged is False
    assert Finding(detector="x", risk=0.1, flagged=True).flagged is True


def test_features_are_floats_and_roles_are_checked() -> None:
    f = Finding(detector="x", risk=0.1, features={"a": 1, "b": True})
    assert f.features == {"a": 1.0, "b": 1.0} and all(isinstance(v, float) for v in f.features.values())
    with pytest.raises(ValueError):
        Finding(detector="x", risk=0.1, role="made_up")  # type: ignore[arg-type]


def test_every_built_in_detector_has_a_known_role() -> None:
    from hallucheck.detectors.base import _LAZY, _resolve

    for name in _LAZY:  # the built-in ones (tests may register detectors of their own)
        assert _resolve(name).role in ROLES and _resolve(name).role != "other", name


@pytest.mark.parametrize("name", RULE_DETECTORS)
def test_rule_detectors_fill_the_typed_fields(name: str) -> None:
    case = make_case(question="When?", contexts=["Founded in 2010 in Paris."], answer="It was founded in 2012 in Paris [3].")
    f = get_detector(name).detect(CaseAnalysis(case))
    assert f.role != "other" and f.features, name
    assert "flagged" not in f.details and "features" not in f.details and "citations" not in f.details
    if name == "citations":
        assert isinstance(f.citations, CitationSummary) and f.citations.invalid == ["3"] and f.citations.level == "high"
        assert [s.kind for s in f.spans if s.label == "invalid_citation"] == ["invalid_citation"]
    if name == "numbers":
        assert [s.kind for s in f.spans] == ["contradicted_figure"]


class _Renamed(BaseDetector):
    """A detector under a name no policy knows: only its role says what it is."""

    name = "my_citation_rules"
    layer = 1
    role = "citations"

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        summary = CitationSummary(expected=True, applied=True, found=["9"], invalid=["9"], claims=1, risk=1.0, level="high")
        return Finding(detector=self.name, risk=1.0, citations=summary)


def test_policies_choose_by_role_not_by_name() -> None:
    """The tiered guideline's invalid-citation rule fires for a renamed citation detector, and the
    weighted policy counts a renamed lexical detector in the grounding role."""
    case = {"contexts": ["Founded in 2010."], "answer": "It was founded in 2010 [9]."}
    report = Checker([_Renamed()], policy=TieredPolicy()).check(case)
    assert report.risk_level == "high" and report.citations is not None and report.citations.invalid == ["9"]
    lexical = Finding(detector="renamed_ngram", role="lexical", risk=0.9)
    scores, unplaced = WeightedPolicy().role_scores([lexical])
    assert scores == {"factual_grounding": 0.9} and unplaced == []
    nameless = Finding(detector="ngram", risk=0.9)  # the right name but no role: placed nowhere
    assert WeightedPolicy().role_scores([nameless]) == ({}, ["ngram"])


def test_check_caches_by_value_and_never_shares_llm_clients_with_the_same_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checker_module, "_DEFAULT", {})
    a, b = FakeLLM("{}"), FakeLLM("{}")
    assert repr(a) == repr(b)
    case = {"contexts": ["Founded in 2010."], "answer": "Founded in 2010."}
    check(case, detectors=["ngram"], llm=a)
    check(case, detectors=["ngram"], llm=b)
    assert len(checker_module._DEFAULT) == 2
    assert {c.llm for c in checker_module._DEFAULT.values()} == {a, b}
    check(case, detectors=["ngram"], llm=a)  # the same client again: reused
    check(case, detectors=("ngram",), llm=a, detector_options={"ngram": {"threshold": 0.4}})
    check(case, detectors=("ngram",), llm=a, detector_options={"ngram": {"threshold": 0.4}})  # equal values: reused
    assert len(checker_module._DEFAULT) == 3  # new options once, then equal values reuse it
