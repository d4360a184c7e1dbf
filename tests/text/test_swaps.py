"""find_swaps: "X M Y" in the answer against "Y M X" in the source, over alignment symbols."""

from __future__ import annotations

from hallucheck.text.opposites import polarity_symbols
from hallucheck.text.swaps import english_roles, find_swaps
from hallucheck.text.tokens import tokenize


def _symbols(text: str, language: str = "en") -> list:
    return polarity_symbols(tokenize(text, language), language)


def _swapped(answer: str, source: str, language: str = "en", roles: bool = False) -> list[str]:
    """The swaps found; ``roles``: only those :func:`english_roles` calls roles."""
    a = _symbols(answer, language)
    found = [s for s in find_swaps(a, _symbols(source, language))
             if not roles or english_roles(a[s.x_start : s.m_start], a[s.m_start : s.y_start], a[s.y_start : s.y_end])]
    return [answer[a[s.x_start].start : a[s.y_end - 1].end] for s in found]


def test_names_of_several_words_are_swapped_whole() -> None:
    assert _swapped("Beta Labs acquired Acme Corp in May.", "Acme Corp acquired Beta Labs in May.") == [
        "Beta Labs acquired Acme Corp"
    ]


def test_the_source_range_reads_the_other_way() -> None:
    a, s = _symbols("Beta hired Acme."), _symbols("Acme hired Beta.")
    (sw,) = find_swaps(a, s)
    assert [x.form for x in s[sw.src_start : sw.src_end]] == [x.form for x in a[sw.y_start : sw.y_end]] + [
        x.form for x in a[sw.m_start : sw.y_start]
    ] + [x.form for x in a[sw.x_start : sw.m_start]]


def test_same_order_symmetric_relation_and_function_words_give_nothing() -> None:
    assert _swapped("Acme hired Beta.", "Acme hired Beta.") == []
    assert _swapped("Beta married Acme.", "Acme married Beta.") == []
    assert _swapped("Beta and Acme won.", "Acme and Beta won.") == []


def test_one_shared_chinese_character_is_no_name() -> None:
    # "X 为 Y": single characters on both sides are not names
    assert _swapped("甲为乙。", "乙为甲。", "zh-Hans") == []
    assert _swapped("饿了么收购了阿里巴巴。", "阿里巴巴收购了饿了么。", "zh-Hans") == ["饿了么收购了阿里巴巴"]


def test_a_list_and_a_source_that_reads_both_ways_give_nothing() -> None:
    assert _swapped("Method overriding and method overloading differ.",
                    "Method overloading and method overriding differ.") == []
    assert _swapped("Basil growing indoors is easy.", "Basil growing indoors: growing basil indoors is easy.") == []


def test_any_middle_finds_terms_that_trade_places_around_function_words() -> None:
    answer = "Abfragen werden mittels Browser-Nutzer dem HTML-Formularen präsentiert."
    source = "Abfragen werden mittels HTML-Formularen dem Browser-Nutzer präsentiert."
    a, s = _symbols(answer, "de"), _symbols(source, "de")
    (sw,) = find_swaps(a, s, any_middle=True)
    assert answer[a[sw.x_start].start : a[sw.y_end - 1].end] == "Browser-Nutzer dem HTML-Formularen"
    # without any_middle, "dem" carries roles only through the verb both go on with ("präsentiert")
    (roles,) = find_swaps(a, s)
    assert roles == sw
    cut = [x for x in a if x.form != "präsentieren"], [x for x in s if x.form != "präsentieren"]
    assert find_swaps(*cut) == []


def test_any_middle_still_leaves_lists_and_reorders_alone() -> None:
    for answer, source, lang in [("Beta and Acme won.", "Acme and Beta won.", "en"),
                                 ("该公司2015年成立于杭州。", "该公司于2015年在杭州成立。", "zh-Hans")]:
        assert find_swaps(_symbols(answer, lang), _symbols(source, lang), any_middle=True) == []


def test_english_roles_need_a_verb_between_two_parts_that_can_take_roles() -> None:
    # an adverb or an adjective moved around its noun: a swap of symbols, no swap of roles
    moved = [
        ("We ordered the perfectly prepared Bulletproof Coffee.", "We ordered the Bulletproof Coffee prepared perfectly."),
        ("Guests found the food quality excellent.", "Guests found the excellent quality food."),
        ("They signed a peace agreement signed last year.", "They signed last year signed a peace agreement."),
        ("Birds allow air to ventilate their lungs by enabling it.", "Birds enable air to ventilate their lungs by allowing it."),
    ]
    for answer, source in moved:
        assert _swapped(answer, source, roles=True) == [], answer
    # without the English test the same pairs read as swaps (the test is what drops them)
    assert _swapped(moved[0][0], moved[0][1]) != []
    # roles around an inflected verb, an auxiliary, or a base form with an "-ing" form of its own
    assert _swapped("Beta Labs acquired Acme Corp in May.", "Acme Corp acquired Beta Labs in May.", roles=True) == [
        "Beta Labs acquired Acme Corp"
    ]
    assert _swapped("Some attention needs the restroom.", "The restroom needs some attention.", roles=True) == [
        "Some attention needs the restroom"
    ]
    assert _swapped("Masks wear the staff.", "The staff wear masks.", roles=True) == ["Masks wear the staff"]
    assert _swapped("The council will fund the school.", "The school will fund the council.", roles=True) == [
        "council will fund the school"
    ]


def test_english_verbs_that_keep_their_form_in_the_past_are_verbs() -> None:
    # "hit", "cut", "set": no inflection and no plain "-ing" form ("hiting"); their "-ing" form
    # doubles the consonant, which is what marks them as verbs
    assert _swapped("The truck hit the bus.", "The bus hit the truck.", roles=True) == ["truck hit the bus"]
    assert _swapped("The supplier cut the retailer off.", "The retailer cut the supplier off.", roles=True) == [
        "supplier cut the retailer"
    ]
    # a noun ending like such a verb is still no verb ("the cat food" moved around)
    assert _swapped("We bought the food cat bowl.", "We bought the cat food bowl.", roles=True) == []


def test_a_copula_carries_roles_through_the_relation_after_the_second_side() -> None:
    # "是" is no relation by itself ("A是B" states an identity); "是 … 的导师" is one
    assert _swapped("李娜是张伟的导师，两人合作发表了论文。", "张伟是李娜的导师，两人合作发表了论文。", "zh-Hans") == ["李娜是张伟"]
    assert _swapped("京东是腾讯的第一大股东。", "腾讯是京东的第一大股东。", "zh-Hans") == ["京东是腾讯"]
    # an identity told the other way round, and a relation that reads the same both ways
    assert _swapped("中国的首都是北京。", "北京是中国的首都。", "zh-Hans") == []
    assert _swapped("李娜是张伟的同事。", "张伟是李娜的同事。", "zh-Hans") == []
