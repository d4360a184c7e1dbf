"""The RAG prompting guide's rule checker: speculation and unnamed-authority phrases, in all five languages."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.detectors.rules.lexicon import LexiconDetector, find_phrases, seed_level
from hallucheck.detectors.rules.phrases import LANGUAGES, phrases_for
from hallucheck.types import Case, Finding


def run(answer: str, source: str = "Plain facts only.", language: str | None = None, **options: object) -> Finding:
    case = Case(contexts=[source], answer=answer, language=language)
    return LexiconDetector(**options).detect(CaseAnalysis(case))  # type: ignore[arg-type]


def labelled(f: Finding) -> list[tuple[str, str]]:
    return [(s.text, s.label) for s in f.spans]


def test_registered_by_name() -> None:
    assert isinstance(get_detector("lexicon"), LexiconDetector)


@pytest.mark.parametrize(
    ("language", "answer", "expected"),
    [
        ("en", "The fee is probably 5 dollars. Studies show that customers agree.",
         [("probably", "speculation"), ("Studies show", "fabrication")]),
        ("de", "Die Gebühr beträgt wahrscheinlich 5 Euro. Studien zeigen, dass Kunden zustimmen.",
         [("wahrscheinlich", "speculation"), ("Studien zeigen", "fabrication")]),
        ("fr", "Les frais sont peut-être de 5 euros. Selon les experts, les clients sont d'accord.",
         [("peut-être", "speculation"), ("Selon les experts", "fabrication")]),
        ("zh-Hant", "費用也許是五元。根據官方資料，專家表示顧客都同意。",
         [("也許", "speculation"), ("根據官方資料", "fabrication"), ("專家表示", "fabrication")]),
        ("zh-Hans", "费用可能是五元。研究显示，专家表示顾客都同意。",
         [("可能", "speculation"), ("研究显示", "fabrication"), ("专家表示", "fabrication")]),
    ],
)
def test_each_language(language: str, answer: str, expected: list[tuple[str, str]]) -> None:
    f = run(answer, language=language)
    assert labelled(f) == expected
    for s in f.spans:
        assert answer[s.start : s.end] == s.text


def test_every_language_has_both_lists() -> None:
    for code in LANGUAGES:
        ps = phrases_for(code)
        assert len(ps.speculation) >= 15 and len(ps.fabrication) >= 15, code
        assert all(p == p.lower() for p in ps.speculation + ps.fabrication)


def test_seed_002_chinese_indicators_all_found() -> None:
    seed_spec = ["可能", "也許", "大概", "應該是", "我猜", "我認為", "通常來說", "一般而言", "據我所知"]
    seed_fab = ["根據官方資料", "根據最新消息", "研究顯示", "專家表示", "數據顯示"]
    for word in seed_spec:
        assert [m.kind for m in find_phrases(f"答案{word}是對的", "zh-Hant")] == ["speculation"], word
    for word in seed_fab:
        assert [m.kind for m in find_phrases(f"答案：{word}，是對的", "zh-Hant")] == ["fabrication"], word


def test_risk_formula_and_levels_of_seed_002() -> None:
    f = run("It is probably fine.")
    assert f.risk == pytest.approx(0.1) and f.details["seed_level"] == "low" and f.details["level"] == "low"
    f = run("It is probably fine, maybe.")
    assert f.risk == pytest.approx(0.2) and f.details["seed_level"] == "medium"
    assert f.details["level"] == "moderate" and f.flagged
    f = run("Experts say it is probably fine, maybe.")
    assert f.risk == pytest.approx(0.5) and f.details["seed_level"] == "high"
    f = run("Experts say, studies show, research shows and data shows it, perhaps.")
    assert f.risk == 1.0  # capped


def test_distinct_phrases_count_once_but_every_occurrence_is_a_span() -> None:
    f = run("It is probably red. It is probably blue.")
    assert f.risk == pytest.approx(0.1)
    assert len(f.spans) == 2
    assert f.features["speculation"] == 1.0
    assert f.features["speculation_occurrences"] == 2.0


def test_phrases_the_sources_use_are_not_flagged() -> None:
    f = run("Studies show it works. It is probably safe.", source="Studies show it works in mice.")
    assert labelled(f) == [("probably", "speculation")]
    assert any("sources use them too" in n for n in f.notes)
    f = run("它可能會下雨。", source="明天可能會下雨。", language="zh-Hant")
    assert f.spans == [] and f.risk == 0.0


def test_check_sources_off_reproduces_the_seed() -> None:
    f = run("It is probably safe.", source="It is probably safe.", check_sources=False)
    assert labelled(f) == [("probably", "speculation")]


def test_word_boundaries_and_case() -> None:
    assert run("Improbably, the probablyness of it.").spans == []
    assert labelled(run("PROBABLY so. I Think so.")) == [("PROBABLY", "speculation"), ("I Think", "speculation")]
    assert labelled(run("I’m not sure it is.")) == [("I’m not sure", "speculation")]
    assert run("Vielleichtkeit ist kein Wort.", language="de").spans == []


def test_chinese_blockers() -> None:
    # 不可能 "impossible" and 可能性 "possibility" are not hedges
    assert run("這不可能是真的。", language="zh-Hant").spans == []
    assert run("这种可能性很低。", language="zh-Hans").spans == []
    assert labelled(run("這可能是真的。", language="zh-Hant")) == [("可能", "speculation")]


def test_longest_phrase_wins() -> None:
    f = run("根據官方資料，退款期為三十天。", language="zh-Hant")
    assert labelled(f) == [("根據官方資料", "fabrication")]


@pytest.mark.parametrize("answer", ["", "   ", "...!?", "。"])
def test_empty_and_punctuation(answer: str) -> None:
    f = run(answer)
    assert f.risk == 0.0 and f.spans == []
    assert all(isinstance(v, float) for v in f.features.values())


def test_empty_sources() -> None:
    f = run("Experts say so.", source="")
    assert labelled(f) == [("Experts say", "fabrication")]


def test_long_text_is_checked_in_full() -> None:
    answer = "Plain words here. " * 5000 + "It is probably so."
    f = run(answer)
    assert labelled(f) == [("probably", "speculation")]
    assert f.coverage is None


def test_seed_level_names() -> None:
    assert [seed_level(x) for x in (0.0, 0.19, 0.2, 0.49, 0.5, 1.0)] == ["low", "low", "medium", "medium", "high", "high"]
