"""Han-script names found by jieba's tagger, with offsets into the sentence."""

from __future__ import annotations

from hallucheck.text.han_names import han_names, name_at


def test_people_places_and_offsets() -> None:
    sentence = "这个软件包由王小明维护，他住在北京。"
    names = han_names(sentence)
    assert [(n.text, n.kind) for n in names] == [("王小明", "person"), ("北京", "place")]
    assert all(sentence[n.start : n.end] == n.text for n in names)


def test_a_name_holds_a_range_only_inside_it() -> None:
    sentence = "该公司由马化腾于1999年在深圳创立。"
    assert name_at(sentence, 5, 7) is not None and name_at(sentence, 5, 7).text == "马化腾"  # type: ignore[union-attr]
    assert name_at(sentence, 1, 3) is None  # 公司 is no name


def test_one_character_names_and_latin_words_are_left_out() -> None:
    # traditional 於 is read as a one-character name by the tagger; Latin words are not Han names
    assert [n.text for n in han_names("該公司由馬雲於1999年在杭州創立。")] == ["馬雲", "杭州"]
    assert han_names("Debian 由 Ian Murdock 创建。") == ()
