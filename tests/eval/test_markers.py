"""Correct citation markers never count against an answer: the property, and its case maker."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import pytest

from hallucheck import Checker
from hallucheck.analysis import CaseAnalysis
from hallucheck.eval.datasets import load_dataset
from hallucheck.eval.markers import MARKER_STYLES, PLACEMENTS, cite_case
from hallucheck.text.citations import find_citations
from hallucheck.types import Case

EXAMPLES = Path(__file__).resolve().parents[2] / "hallucheck" / "data" / "examples"
MAX_RISK_CHANGE = 0.02


def _examples() -> list[Case]:
    out = []
    for path in sorted(EXAMPLES.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        raw.pop("metadata", None)
        out.append(Case.model_validate(raw))
    return out


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


def _assert_invariant(checker: Checker, cases: list[Case]) -> None:
    styles = list(MARKER_STYLES)
    moved: list[tuple[int, str, str, float, float]] = []
    for i, case in enumerate(cases):
        style, placement = styles[i % len(styles)], PLACEMENTS[(i // len(styles)) % len(PLACEMENTS)]
        pair = cite_case(case, style, placement)
        a, b = checker.check(pair.plain), checker.check(pair.cited)
        if a.hallucinated != b.hallucinated or abs(a.risk_score - b.risk_score) > MAX_RISK_CHANGE:
            moved.append((i, style, placement, a.risk_score, b.risk_score))
    assert not moved, f"{len(moved)} of {len(cases)} verdicts moved with correct markers: {moved[:5]}"


@pytest.mark.parametrize("style", list(MARKER_STYLES))
@pytest.mark.parametrize("placement", PLACEMENTS)
def test_cite_case_adds_one_valid_marker_per_sentence(style: str, placement: str) -> None:
    case = Case(
        question="Refunds?",
        contexts=["Unopened products can be refunded within 30 days.\nOpened products can only be exchanged.\nShipping is free."],
        answer="Unopened products can be refunded within 30 days. Opened ones can only be exchanged.",
    )
    pair = cite_case(case, style, placement)
    assert pair.plain.answer == case.answer and len(pair.markers) == 2
    ids = {s.id for s in pair.cited.contexts}
    found = find_citations(pair.cited.answer, ids)
    assert [m.text for m in found] == list(pair.markers)
    for m in found:  # every id names a source (numbers by position)
        assert all(i in ids or (i.isdigit() and 1 <= int(i) <= len(ids)) for i in m.ids)
    # the masked views of both answers hold the same words
    plain, cited = CaseAnalysis(pair.plain), CaseAnalysis(pair.cited)
    assert [t.text for t in plain.tokens] == [t.text for t in cited.tokens]
    assert plain.answer_chars == cited.answer_chars


def test_existing_markers_are_removed_from_the_plain_case() -> None:
    case = Case(question="q", contexts=["Paris is the capital of France."], answer="Paris is the capital [1].")
    pair = cite_case(case, "source", "after_stop")
    assert pair.plain.answer == "Paris is the capital." and pair.cited.answer == "Paris is the capital. [Source 1]"


def test_unknown_style_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown marker style"):
        cite_case(Case(question="q", contexts=["a"], answer="b"), "footnote")


def test_zh_hant_answer_scores_the_same_with_its_marker(checker: Checker) -> None:
    source = "未開封產品可在 30 天內申請全額退款。已開封產品僅可換貨。"
    plain = checker.check(question="退款政策是什麼？", contexts=[{"id": "POL-1", "text": source}],
                          answer="未開封產品可在 30 天內申請全額退款。")
    cited = checker.check(question="退款政策是什麼？", contexts=[{"id": "POL-1", "text": source}],
                          answer="未開封產品可在 30 天內申請全額退款[來源 POL-1]。")
    assert cited.decision == plain.decision == "accept"
    assert abs(cited.risk_score - plain.risk_score) <= MAX_RISK_CHANGE
    assert not cited.spans


def test_markers_do_not_move_the_verdict_on_examples_and_a_dev_sample(checker: Checker, ragtruth_path: Path) -> None:
    dev = [ex.case for ex in islice(load_dataset(ragtruth_path, "ragtruth", split="dev"), 0, 600, 50)]
    _assert_invariant(checker, _examples() + dev)


@pytest.mark.slow
def test_markers_do_not_move_the_verdict_on_500_dev_answers(checker: Checker, ragtruth_path: Path) -> None:
    dev = [ex.case for ex in load_dataset(ragtruth_path, "ragtruth", split="dev", limit=500)]
    _assert_invariant(checker, dev)
