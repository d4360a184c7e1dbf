"""Sentence edits: each changes what it says it changes, with the span on the change."""

from __future__ import annotations

import random

import pytest

from hallucheck.synth.edits import (
    EditContext,
    edit_antonym,
    edit_date,
    edit_figure,
    edit_negation,
    edit_speculation,
    edit_swap,
    edit_term,
    edit_unit,
    figure_matches,
    reword,
)


def _ctx(lang: str, source: str, terms: tuple[str, ...] = (), seed: int = 0) -> EditContext:
    return EditContext(lang, source, terms, random.Random(seed))


def _only(draft) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    (span,) = draft.spans
    return draft.text[span.start : span.end], span.label


@pytest.mark.parametrize("seed", range(8))
def test_figure_changes_one_number_to_one_the_sources_lack(seed: int) -> None:
    source = "The archive has 67672 packages and 338 in contrib; 67673 were planned."
    sentence = "The archive has 67672 packages and 338 in contrib."
    d = edit_figure(sentence, _ctx("en", source, seed=seed))
    assert d is not None
    text, label = _only(d)
    assert label == "contradiction" and text.isdigit() and text not in ("67672", "338", "67673")
    assert d.text.replace(text, "#") != sentence.replace("67672", "#") or d.text.replace(text, "#") != sentence.replace("338", "#")


def test_figures_skip_versions_codes_and_years() -> None:
    sentence = "Use amd64 with UTF-8 on kernel 2.6.32 since 2019, it needs 512 MB and 10GB more."
    assert [m.group() for m in figure_matches(sentence)] == ["512", "10"]
    assert [m.group() for m in figure_matches("净利润为3.4亿元，增长12%。")] == ["3.4", "12"]
    refs = "See bash(1) and Chapter 11 or Abschnitt 9 [4], 第 3 章 and 表 2; 40 users ran ls(1) 5 times."
    assert [m.group() for m in figure_matches(refs)] == ["40", "5"]


def test_date_unit_and_term() -> None:
    d = edit_date("Released in March 2021.", _ctx("en", "Released in March 2021."))
    assert d is not None and _only(d)[0] in {"2015", "2017", "2018", "2019", "2020", "2022", "2023", "2024", "2025", "2027",
                                              "January", "February", "April", "May", "June", "July", "August",
                                              "September", "October", "November", "December"}
    d = edit_unit("It needs 250 MB of space.", _ctx("en", "It needs 250 MB of space."))
    assert d is not None and _only(d) in {("KB", "contradiction"), ("GB", "contradiction"), ("TB", "contradiction")}
    d = edit_unit("升级大约需要 30 分钟。", _ctx("zh-Hans", "升级大约需要 30 分钟。"))
    assert d is not None and _only(d)[0] in {"秒", "小时", "天", "周", "个月"}
    d = edit_term("Install it with apt first.", _ctx("en", "", ("apt", "dpkg", "apt-get")))
    assert d is not None and _only(d) == ("dpkg", "contradiction") and d.text == "Install it with dpkg first."
    assert edit_term("Nothing to swap here.", _ctx("en", "", ("apt",))) is None


@pytest.mark.parametrize(
    ("lang", "sentence", "expected"),
    [
        ("en", "The removal keeps files and it is safe.", "is not"),
        ("en", "This cannot be undone.", "can"),
        ("de", "Die Datei wird automatisch erstellt.", "wird nicht"),
        ("de", "Das Paket, das installiert ist, bleibt.", "nicht ist"),
        ("fr", "Le paquet est installé par défaut.", "n'est pas"),
        ("fr", "Le paquet ne peut pas être supprimé.", "peut"),
        ("zh-Hans", "这个工具可以删除软件包。", "不可以"),
        ("zh-Hant", "這個工具無法刪除軟體包。", "可以"),
    ],
)
def test_negation(lang: str, sentence: str, expected: str) -> None:
    d = edit_negation(sentence, _ctx(lang, sentence))
    assert d is not None
    assert _only(d) == (expected, "contradiction")
    assert d.text != sentence


def test_speculation_and_reword() -> None:
    d = edit_speculation("The tool is fast.", _ctx("en", "the tool is fast", seed=1))
    assert d is not None
    phrase, label = _only(d)
    assert label == "speculation" and d.text.startswith(phrase) and not phrase.endswith((" ", ","))
    assert "the tool is fast." in d.text  # an ordinary first word is lower-cased after the phrase
    d = edit_speculation("Debian is free.", _ctx("en", "Debian is free", seed=1))
    assert d is not None and "Debian is free." in d.text  # a name keeps its capital
    d = reword("You can do this in order to save space.", _ctx("en", ""))
    assert d is not None and d.spans == [] and d.text != "You can do this in order to save space."
    assert reword("Nothing applies here.", _ctx("en", "")) is None


def test_swap_exchanges_two_terms_of_one_clause() -> None:
    sentence = "The apt tool calls dpkg to install packages."
    draft = edit_swap(sentence, _ctx("en", sentence, ("apt", "dpkg")))
    assert draft is not None and draft.text == "The dpkg tool calls apt to install packages."
    assert [(draft.text[s.start : s.end], s.label) for s in draft.sorted_spans()] == [
        ("dpkg", "contradiction"), ("apt", "contradiction")]


@pytest.mark.parametrize(
    "sentence",
    [
        "Install apt, dpkg and aptitude first.",  # a list: the order says nothing
        "Use apt; dpkg is lower level.",  # two clauses
        "apt und dpkg sind Werkzeuge.",
        "可以使用 apt 或 dpkg 安装。",
    ],
)
def test_swap_leaves_lists_and_clauses_alone(sentence: str) -> None:
    assert edit_swap(sentence, _ctx("en", sentence, ("apt", "dpkg"))) is None


@pytest.mark.parametrize(
    ("lang", "sentence", "old", "new"),
    [
        ("en", "Enable the service before the upgrade.", "Enable", "Disable"),
        ("de", "Der Dienst ist standardmäßig aktiviert.", "aktiviert", "deaktiviert"),
        ("fr", "Le service est activé par défaut.", "activé", "désactivé"),
        ("zh-Hans", "该服务默认允许远程登录。", "允许", "禁止"),
        ("zh-Hant", "該服務預設允許登入。", "允許", "禁止"),
    ],
)
def test_antonym_puts_the_opposite_word_in(lang: str, sentence: str, old: str, new: str) -> None:
    picked = set()
    for seed in range(6):
        draft = edit_antonym(sentence, _ctx(lang, sentence, seed=seed))
        assert draft is not None
        changed, label = _only(draft)
        assert label == "contradiction" and draft.text != sentence
        picked.add((changed, draft.text))
    assert (new, sentence.replace(old, new, 1)) in picked


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "You can enable or disable the service."),  # the opposite is there already
        ("en", "The unstable branch gets new packages."),  # no whole word of the list ("unstable" is one)
        ("zh-Hans", "这样做不安全。"),  # after a negator
        ("en", "Nothing to turn around here."),
    ],
)
def test_antonym_leaves_sentences_alone(lang: str, sentence: str) -> None:
    assert all(edit_antonym(sentence, _ctx(lang, sentence, seed=seed)) is None for seed in range(4))
