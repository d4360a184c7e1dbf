"""Floors: precise evidence puts a floor under the verdict of every policy."""

from __future__ import annotations

import pytest

from hallucheck.checker import Checker
from hallucheck.policies.floors import Floor, FloorTable, default_floors, language_key, shipped_floors

from .helpers import analysis, finding

SOURCES = [{"id": "1", "text": "Laptops come with a one-year warranty."}, {"id": "2", "text": "Phones ship free."},
           {"id": "3", "text": "Returns are accepted within 30 days."}]
CITED = "All laptops come with a one-year warranty [4]."


@pytest.mark.parametrize("policy", ["tiered", "vote", "weighted", "learned"])
def test_an_invalid_citation_id_rejects_under_every_policy(policy: str) -> None:
    detectors = None if policy == "learned" else ["citations", "lexicon", "numbers", "ngram", "overlap"]
    report = Checker(detectors, policy=policy).check(contexts=SOURCES, answer=CITED)
    assert report.hallucinated and report.decision == "reject", report.notes
    marker = [s for s in report.spans if s.label == "invalid_citation"]
    assert [(s.text, CITED[s.start : s.end]) for s in marker] == [("[4]", "[4]")]
    assert any(n.startswith("floor: invalid citation '[4]'") for n in report.notes)


def test_a_valid_citation_is_no_floor() -> None:
    report = Checker().check(contexts=SOURCES, answer="All laptops come with a one-year warranty [1].")
    assert not any(s.label == "invalid_citation" for s in report.spans)
    assert not any(n.startswith("floor:") for n in report.notes)


def test_a_citation_of_the_wrong_source_rejects_in_english() -> None:
    """RAGTruth's labels do not judge which passage an answer names, so they no longer veto this floor."""
    report = Checker().check(contexts=SOURCES, answer="All laptops come with a one-year warranty [2].")
    assert report.decision == "reject", report.notes
    assert [(s.text, s.kind) for s in report.spans] == [("[2]", "misattributed_citation")]
    assert any(n.startswith("floor: misattributed citation '[2]'") for n in report.notes)


def test_a_contradicted_figure_rejects_where_its_precision_holds() -> None:
    source, answer = "2022年净利润为3.4亿元。", "2022年净利润为4.3亿元。"
    report = Checker().check(contexts=[source], answer=answer)
    assert report.language == "zh-Hans" and report.decision == "reject"
    assert [(s.text, s.label) for s in report.spans] == [("4.3亿元", "contradiction")]
    # The same answer where the table has no floor for the kind: the policy alone decides.
    table = FloorTable([Floor(kind="contradicted_figure", language="zh-Hans", precision=0.5, support=100, active=False)])
    plain = Checker(floors=table).check(contexts=[source], answer=answer)
    assert not any(n.startswith("floor:") for n in plain.notes)


@pytest.mark.parametrize(
    ("source", "answer", "word"),
    [
        ("The council approved the new bridge plan in March.", "The council rejected the new bridge plan in March.", "rejected"),
        ("Der Rat hat den neuen Brückenplan im März genehmigt.", "Der Rat hat den neuen Brückenplan im März abgelehnt.",
         "abgelehnt"),
        ("Le conseil a approuvé le nouveau plan du pont en mars.", "Le conseil a rejeté le nouveau plan du pont en mars.",
         "rejeté"),
        ("议会在三月批准了新的桥梁计划。", "议会在三月否决了新的桥梁计划。", "否决"),
        ("議會在三月批准了新的橋樑計劃。", "議會在三月否決了新的橋樑計劃。", "否決"),
    ],
)
def test_an_opposite_word_rejects_in_every_language(source: str, answer: str, word: str) -> None:
    """The zh-Hans case scored below the policy's threshold (accept) before the floor was measured."""
    report = Checker().check(contexts=[source], answer=answer)
    assert report.decision == "reject", report.notes
    assert any(n.startswith(f"floor: opposite word '{word}'") for n in report.notes), report.notes
    assert Checker().check(contexts=[source], answer=source).decision == "accept"


def test_swapped_roles_reject_in_english_and_an_adverb_moved_does_not() -> None:
    """English swapped roles became a floor once the English test of roles (a verb between two
    parts that can take roles) left out RAGTruth's adverbs and adjectives moved around a noun."""
    source = "In 2019 Acme Corp acquired Beta Labs for an undisclosed sum, the companies said."
    report = Checker().check(contexts=[source], answer="In 2019 Beta Labs acquired Acme Corp for an undisclosed sum, the companies said.")
    assert report.decision == "reject", report.notes
    assert any(n.startswith("floor: swapped roles 'Beta Labs acquired Acme Corp'") for n in report.notes), report.notes
    assert Checker().check(contexts=[source], answer=source).decision == "accept"
    moved = Checker().check(contexts=["We had the Bulletproof Coffee prepared perfectly by the barista."],
                            answer="We had the perfectly prepared Bulletproof Coffee by the barista.")
    assert not any(s.kind == "swapped_roles" for s in moved.spans)
    assert not any(n.startswith("floor:") for n in moved.notes)


def test_the_shipped_table_was_measured_and_floors_invalid_citations_everywhere() -> None:
    table = shipped_floors()
    assert table.command.startswith("python bench/floors.py")
    for lang in ("en", "de", "fr", "zh-Hans", "zh-Hant", "ja"):
        assert table.floor_for("invalid_citation", lang) is not None
    for f in table.floors:
        if f.active and f.kind != "invalid_citation":
            assert f.precision is not None and f.precision >= table.min_precision and f.support >= table.min_support


def test_table_lookup_and_round_trip() -> None:
    table = FloorTable([Floor(kind="contradicted_figure", language="de", precision=0.95, support=50, active=True),
                        *default_floors().floors])
    assert table.floor_for("contradicted_figure", "de-AT") is not None
    assert table.floor_for("contradicted_figure", "fr") is None
    assert FloorTable.from_spec(table.to_spec()).to_spec() == table.to_spec()
    assert language_key("zh-TW") == "zh-Hant" and language_key("ZH-hans") == "zh-Hans" and language_key(None) == "*"


def test_apply_keeps_policy_spans_and_adds_the_floor_span() -> None:
    from hallucheck.policies.base import Verdict
    from hallucheck.types import Span

    marker = Span(start=0, end=3, text="[9]", label="invalid_citation", score=1.0, detector="citations", kind="invalid_citation")
    other = Span(start=5, end=9, text="word", label="baseless", score=0.4, detector="model")
    f = finding("citations", 1.0)
    f.spans = [marker]
    v = default_floors().apply(Verdict(False, 0.1, "low", "accept", [], spans=[other]), [f], "en")
    assert (v.hallucinated, v.decision, v.risk_level, v.risk_score) == (True, "reject", "high", 1.0)
    assert v.spans == [other, marker]
    failed = finding("citations", 1.0)
    failed.spans, failed.error = [marker], "boom"
    assert default_floors().apply(Verdict(False, 0.1, "low", "accept", []), [failed], "en").decision == "accept"
    assert analysis() is not None
