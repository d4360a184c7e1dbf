"""The detection guideline's rule-based checklist, item by item, and the guideline's exact thresholds."""

from __future__ import annotations

from typing import Any

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.detectors.rules.citations import EMPTY_NOTE, NO_CLAIMS_NOTE, CitationDetector
from hallucheck.types import Case, CitationSummary, Finding

# A claim of 21..50 characters (a claim, never "uncited") and one of more than 50.
SHORT = "The shop opens at nine every day"  # 32 characters
LONG = "The shop opens at nine every day and closes late at night on weekends"  # 69 characters


def run(answer: str, contexts: Any = ("a", "b", "c"), expected: bool | None = None, **options: Any) -> Finding:
    case = Case(contexts=list(contexts), answer=answer, citations_expected=expected)
    return CitationDetector(**options).detect(CaseAnalysis(case))


def summary(f: Finding) -> CitationSummary:
    return f.citations


def test_registered_by_name() -> None:
    det = get_detector("citations")
    assert isinstance(det, CitationDetector)
    assert det.layer == 1


# ---- checklist item 1 and 2: extract all citations, validate each


def test_extracts_all_citations_and_validates_them() -> None:
    f = run(f"{SHORT} [1]. {SHORT} [2, 7]. {SHORT} [Source 3][9].")
    s = summary(f)
    assert s.found == ["1", "2", "7", "3", "9"]
    assert s.valid == ["1", "2", "3"]
    assert s.invalid == ["7", "9"]
    assert f.citations.level == "high"  # any invalid citation is high risk
    bad = [sp for sp in f.spans if sp.label == "invalid_citation"]
    assert [sp.text for sp in bad] == ["[2, 7]", "[9]"]
    assert all(sp.score == 1.0 for sp in bad)
    assert "'7'" in bad[0].reason and "1, 2, 3" in bad[0].reason
    answer = f"{SHORT} [1]. {SHORT} [2, 7]. {SHORT} [Source 3][9]."
    assert all(answer[sp.start : sp.end] == sp.text for sp in f.spans)


def test_ids_resolve_against_ids_parent_ids_and_positions() -> None:
    contexts = [
        {"id": "doc-a", "text": "x", "parent_id": "book-1"},
        {"id": "doc-b", "text": "y"},
    ]
    f = run(f"{SHORT} [doc-a]. {SHORT} [book-1]. {SHORT} [2]. {SHORT} [DOC-B].", contexts)
    s = summary(f)
    assert s.invalid == []
    assert s.valid == ["doc-a", "book-1", "2", "DOC-B"]
    f = run(f"{SHORT} [3].", contexts)  # only two contexts
    assert summary(f).invalid == ["3"]


def test_numbered_sections_inside_one_source_are_valid_ids() -> None:
    source = "passage 1:\nThe shop opens at nine.\n\npassage 2:\nIt closes at six."
    f = run(f"{SHORT} (passage 2).", [source])
    assert summary(f).invalid == []


def test_letter_ids_are_validated_where_sources_use_letters() -> None:
    from hallucheck.types import Source

    letters = [Source(id=i, text=t) for i, t in (("a", "x"), ("b", "y"), ("c", "z"))]
    f = run(f"{SHORT} [a]. {SHORT} [b, c]. {SHORT} [d].", contexts=letters)
    s = summary(f)
    assert s.valid == ["a", "b", "c"] and s.invalid == ["d"]
    assert [sp.text for sp in f.spans if sp.label == "invalid_citation"] == ["[d]"]
    # with numbered sources a bracketed letter is prose, as before
    assert summary(run(f"{SHORT} [d].")).found == []


@pytest.mark.parametrize(
    ("marker", "ids"),
    [("【4】", ["4"]), ("^[4]^", ["4"]), ("[1, 4]", ["4"]), ("[2-4]", ["4"]), ("[來源 4]", ["4"]),
     ("[Source 4]", ["4"]), ("[FAQ-001]", ["FAQ-001"]), ("[source:doc-z]", ["doc-z"])],
)
def test_every_marker_format_is_validated(marker: str, ids: list[str]) -> None:
    f = run(f"{SHORT} {marker}.")
    assert summary(f).invalid == ids
    bad = [sp for sp in f.spans if sp.label == "invalid_citation"]
    assert [sp.text for sp in bad] == [marker]


def test_invalid_citation_flagged_even_when_rules_do_not_apply() -> None:
    f = run(f"{SHORT} [4].", expected=False)
    s = summary(f)
    assert not s.applied
    assert s.invalid == ["4"]
    assert f.citations.level == "high"
    assert f.flagged
    assert f.risk > 0.6
    assert [sp.label for sp in f.spans] == ["invalid_citation"]


# ---- item 3: uncited long sentences


def test_uncited_long_sentences_reported_first_three_truncated() -> None:
    long_one = "X" * 30 + " " + "y" * 120
    answer = f"{LONG} [1]. {LONG}. {long_one}. {LONG}. {LONG}."
    f = run(answer, expected=True)
    s = summary(f)
    assert s.uncited_count == 4
    assert len(s.uncited_sentences) == 3
    assert s.uncited_sentences[1] == (long_one + ".")[:100]
    assert all(len(u) <= 100 for u in s.uncited_sentences)
    uncited = [sp for sp in f.spans if sp.label == "uncited"]
    assert len(uncited) == 4 and all(sp.score == 0.5 for sp in uncited)
    assert f.citations.level == "high"  # >= 3 uncited


def test_cited_long_sentence_is_not_uncited_and_short_ones_never_are() -> None:
    f = run(f"{LONG} [1]. {SHORT}.", expected=True)
    assert summary(f).uncited_count == 0
    assert not [sp for sp in f.spans if sp.label == "uncited"]


@pytest.mark.parametrize(("n_uncited", "level"), [(0, "low"), (1, "moderate"), (2, "moderate"), (3, "high")])
def test_uncited_count_thresholds(n_uncited: int, level: str) -> None:
    # 3 cited claims with 3 distinct ids keep the ratio at 1; the uncited ones add claims, so
    # cite enough distinct sources that the ratio stays >= 0.7 (risk <= 0.3).
    contexts = [str(i) for i in range(1, 11)]
    cited = " ".join(f"{LONG} [{i}]." for i in range(1, 8))
    answer = cited + "".join(f" {LONG}." for _ in range(n_uncited))
    f = run(answer, contexts, expected=True)
    s = summary(f)
    assert s.uncited_count == n_uncited
    assert s.risk <= 0.3
    assert f.citations.level == level


# ---- item 4 and 5: ratio and risk


def test_ratio_counts_distinct_valid_ids_as_the_guideline() -> None:
    f = run(f"{SHORT} [1]. {SHORT} [1]. {SHORT} [1]. {SHORT} [2].")
    s = summary(f)
    assert s.claims == 4
    assert s.ratio == pytest.approx(2 / 4)
    assert s.risk == pytest.approx(0.5)
    assert f.citations.level == "moderate"


@pytest.mark.parametrize(
    ("count", "ratio"),
    [("distinct", 0.5), ("markers", 1.0), ("sentences", 1.0)],
)
def test_count_option(count: str, ratio: float) -> None:
    f = run(f"{SHORT} [1]. {SHORT} [1]. {SHORT} [2]. {SHORT} [2].", count=count)
    assert summary(f).ratio == pytest.approx(ratio)


def test_count_option_rejects_unknown_value() -> None:
    with pytest.raises(ValueError, match="count"):
        CitationDetector(count="all")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n_sources_cited", "n_claims", "risk", "level"),
    [
        (7, 10, 0.3, "low"),  # exactly 0.3 is not "> 0.3"
        (6, 10, 0.4, "moderate"),
        (2, 5, 0.6, "moderate"),  # exactly 0.6 is not "> 0.6"
        (1, 3, 2 / 3, "high"),
        (10, 10, 0.0, "low"),
    ],
)
def test_risk_thresholds(n_sources_cited: int, n_claims: int, risk: float, level: str) -> None:
    contexts = [str(i) for i in range(1, 11)]
    parts = [f"{SHORT} [{i}]." for i in range(1, n_sources_cited + 1)]
    parts += [f"{SHORT}." for _ in range(n_claims - n_sources_cited)]
    f = run(" ".join(parts), contexts)
    s = summary(f)
    assert s.claims == n_claims
    assert s.risk == pytest.approx(risk)
    assert f.citations.level == level
    assert f.details["at_risk"] is (risk > 0.3 + 1e-9)
    assert f.risk >= s.risk  # the finding's risk is never below the guideline's


def test_level_rule_ratio_below_0_3_needs_three_claims() -> None:
    det = CitationDetector()
    assert det.level(risk=0.5, invalid=0, uncited=0, ratio=0.29, claims=3) == "high"
    assert det.level(risk=0.5, invalid=0, uncited=0, ratio=0.29, claims=2) == "moderate"
    assert det.level(risk=0.5, invalid=0, uncited=0, ratio=0.3, claims=3) == "moderate"
    assert det.level(risk=0.0, invalid=1, uncited=0, ratio=1.0, claims=1) == "high"
    assert det.level(risk=0.0, invalid=0, uncited=0, ratio=1.0, claims=1) == "low"


def test_finding_risk_agrees_with_level() -> None:
    from hallucheck.policies.base import level_for

    for answer, expected in [
        (f"{SHORT} [1]. {SHORT} [2]. {SHORT} [3].", None),
        (f"{LONG} [1]. {LONG}. {SHORT} [2]. {SHORT} [3].", None),
        (f"{SHORT} [1]. {SHORT}. {SHORT}. {SHORT}.", None),
    ]:
        f = run(answer, expected=expected)
        assert level_for(f.risk) == f.citations.level


# ---- items 6 and 7: empty answer, no claims


@pytest.mark.parametrize("answer", ["", "   ", "\n\n"])
def test_empty_answer(answer: str) -> None:
    f = run(answer, expected=True)
    assert f.risk == 0.0
    assert EMPTY_NOTE in f.notes
    assert f.citations.level == "low"
    assert not f.flagged


@pytest.mark.parametrize("answer", ["Yes.", "No. Maybe. Fine.", "It opens at nine.", "…!?", "好的。谢谢！"])
def test_no_claims(answer: str) -> None:
    f = run(answer, expected=True)
    assert f.risk == 0.0
    assert NO_CLAIMS_NOTE in f.notes
    assert summary(f).claims == 0


def test_claim_length_counts_cjk_characters_and_cjk_sentence_ends() -> None:
    twenty = "甲" * 20
    twenty_one = "乙" * 21
    f = run(f"{twenty}。{twenty_one}！", expected=True)
    assert summary(f).claims == 1
    fifty_one = "丙" * 51
    f = run(f"{fifty_one}？{twenty_one}[1]。", expected=True)
    s = summary(f)
    assert s.claims == 2 and s.uncited_count == 1
    assert s.uncited_sentences == [fifty_one + "？"]


def test_markers_do_not_count_towards_claim_length() -> None:
    # 20 characters of text plus a marker is not a claim; 21 are
    f = run("The shop opens daily [Source 1].", expected=True)
    assert summary(f).claims == 0
    f = run("The shop opens at ten [Source 1].", expected=True)
    assert summary(f).claims == 1


# ---- where the rules apply


def test_not_applied_without_markers_when_not_asked() -> None:
    f = run(f"{LONG}. {LONG}. {LONG}.")
    s = summary(f)
    assert not s.applied and not s.expected
    assert f.risk == 0.0 and f.citations.level == "low"
    assert not [sp for sp in f.spans if sp.label == "uncited"]
    assert s.uncited_sentences == [] and s.uncited_count == 0
    assert any("not applied" in n for n in f.notes)
    assert f.details["counts"]["uncited_count"] == 3.0
    assert f.features["long_claims"] == 3.0  # the answer's shape, for learned policies


def test_policy_features_do_not_depend_on_markers() -> None:
    """Correct citations must not count for or against an answer in a fitted policy: its
    features are the same with or without markers (the counts stay in details["counts"])."""
    plain, cited = run(f"{LONG}. {SHORT}. {LONG}."), run(f"{LONG} [1]. {SHORT} [Source 2]. {LONG}【3】.")
    assert plain.features == cited.features
    assert plain.details["counts"] != cited.details["counts"]


def test_applied_when_expected() -> None:
    f = run(f"{LONG}. {LONG}. {LONG}.", expected=True)
    s = summary(f)
    assert s.applied and s.expected
    assert s.risk == 1.0 and f.citations.level == "high"


def test_applied_when_answer_uses_markers() -> None:
    f = run(f"{LONG} [1]. {LONG}. {LONG}.")
    s = summary(f)
    assert s.applied and not s.expected
    assert s.uncited_count == 2
    assert f.citations.level == "high"  # ratio 1/3 -> risk 0.67


def test_not_applied_when_case_says_not_expected() -> None:
    f = run(f"{LONG} [1]. {LONG}. {LONG}.", expected=False)
    s = summary(f)
    assert not s.applied
    assert f.risk == 0.0
    assert any("not expected" in n for n in f.notes)


def test_features_are_finite_numbers() -> None:
    for answer in ["", f"{SHORT} [1]. {LONG}.", "好的"]:
        for feats in (run(answer).features, run(answer).details["counts"]):
            assert feats and all(isinstance(v, float) and v == v for v in feats.values())


def test_checker_reads_the_summary() -> None:
    from hallucheck.checker import Checker

    report = Checker(detectors=["citations"], policy="weighted").check(
        question="q", contexts=["a", "b"], answer=f"{SHORT} [1]. {SHORT} [5]."
    )
    assert report.citations is not None
    assert report.citations.invalid == ["5"]


def test_long_answer_is_checked_in_full() -> None:
    answer = " ".join(f"{SHORT} [1]." for _ in range(3000)) + f" {SHORT} [9]."
    f = run(answer)
    s = summary(f)
    assert s.claims == 3001 and s.invalid == ["9"]
    assert f.coverage is None
    assert f.spans[-1].text == "[9]" and answer[f.spans[-1].start : f.spans[-1].end] == "[9]"


def test_empty_sources_make_every_citation_invalid() -> None:
    f = run(f"{SHORT} [1].", contexts=[])
    assert summary(f).invalid == ["1"]
    assert "none" in f.spans[0].reason


def test_brackets_copied_with_their_text_are_no_invented_citation() -> None:
    manual = ('Enter a URL of the form "sh://[user@]machine[:options]/[remote-dir]" to browse the remote '
              "directory as if it were local.")
    copied = run('Enter a URL of the form "sh://[user@]machine[:options]/[remote-dir]" to browse it.',
                 contexts=[{"id": "doc-a", "text": manual}, {"id": "doc-b", "text": "Other text."}])
    assert summary(copied).invalid == [] and not [s for s in copied.spans if s.label == "invalid_citation"]
    # the same bracket after text of the answer's own is still an invented reference
    invented = run("The remote directory can be browsed like a local one [remote-dir].",
                   contexts=[{"id": "doc-a", "text": manual}, {"id": "doc-b", "text": "Other text."}])
    assert summary(invented).invalid == ["remote-dir"]


def test_an_id_of_any_digits_is_an_invalid_id_not_a_failure() -> None:
    from hallucheck.detectors.rules.citations import resolve_citation
    from hallucheck.types import Source

    contexts = [Source(id="a", text="x"), Source(id="b", text="y")]
    assert resolve_citation("1" * 5000, contexts, {}) is None  # more digits than int() reads
    assert resolve_citation("0002", contexts, {}) == "b"
    assert resolve_citation("²", contexts, {}) is None  # a digit to str.isdigit, no number
    for marker in ("[Source ²]", "(Source ²)", "[Quelle ①]"):
        f = run(f"{SHORT} {marker}.")
        assert summary(f).invalid == [marker[8:-1] if marker.startswith("[Quelle") else "²"], marker
        assert [s.text for s in f.spans if s.label == "invalid_citation"] == [marker]


def test_a_bracket_of_thousands_of_digits_is_checked_without_failing() -> None:
    import hallucheck

    answer = f"{SHORT} [" + "1" * 5000 + "]."
    f = run(answer)  # a bracketed run of digits is no marker (a marker holds at most 80 characters)
    assert summary(f).found == [] and summary(f).invalid == []
    report = hallucheck.check(question="When?", contexts=["The shop opens at nine every day."], answer=answer,
                              detectors=["citations", "numbers"])
    assert not [n for n in report.notes if "failed" in n]
    report = hallucheck.check(question="When?", contexts=["The shop opens at nine every day."],
                              answer=f"{SHORT} [Source ²].", detectors=["citations", "numbers"])
    assert not [n for n in report.notes if "failed" in n]
    assert report.citations is not None and report.citations.invalid == ["²"]
