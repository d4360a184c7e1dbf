from __future__ import annotations

import pytest

from hallucheck.text.entities import entity_words, find_entities, name_words, transliteration_supported, word_supported


def names(text: str, language: str) -> list[str]:
    out = []
    for e in find_entities(text, language):
        assert text[e.start : e.end] == e.text
        for a, b in e.words:
            assert e.start <= a < b <= e.end
        out.append(e.text)
    return out


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("L'entreprise a été fondée en 2010 à Paris par Jean Dupont.", "fr", ["Paris", "Jean Dupont"]),
        ("The company was founded by Jean Dupont in Paris.", "en", ["Jean Dupont", "Paris"]),
        ("Die Firma wurde von Jean Dupont gegründet.", "de", ["Jean Dupont"]),
        ("Er fährt mit der Deutsche Bahn zu Siemens Healthineers.", "de", ["Deutsche Bahn", "Siemens Healthineers"]),
        ("Der Mann trägt ein Knopf-up-Shirt.", "de", ["Knopf-up-Shirt"]),  # "up" is no German word
        ("该公司由 Jean Dupont 于2010年创立，使用 iPhone 和 AI。", "zh-Hans", ["Jean Dupont", "iPhone"]),
        ("It was opened by Bank of America and John Smith's friend.", "en", ["Bank of America", "John Smith"]),
        ("Le général Charles de Gaulle est venu.", "fr", ["Charles de Gaulle"]),
        # dot-joined transliterations end where the sound-spelling characters end
        ("天文学家赫尔曼·福格特以家族遗产出资。", "zh-Hans", ["赫尔曼·福格特"]),
        ("演讲者是马丁·路德·金和 Jean Dupont。", "zh-Hans", ["马丁·路德·金", "Jean Dupont"]),
        ("研究員安娜・瑪麗亞・施密特發現", "zh-Hant", ["安娜・瑪麗亞・施密特"]),
        ("由托馬斯·布蘭特負責", "zh-Hant", ["托馬斯·布蘭特"]),  # traditional forms of the sound characters
    ],
)
def test_names(text: str, language: str, expected: list[str]) -> None:
    assert names(text, language) == expected


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Customers love it. However, prices vary.", "en"),
        ("Der Kunde ist mit dem Service zufrieden.", "de"),  # German nouns are capitalised
        # compounds of dictionary words, an inflected noun beside another, a capitalised stop word
        ("Er schaut auf einen Laptop-Computer in der Steinstraße.", "de"),
        ("Eine Gruppe Männer fotografiert die Person Schlittschuhlaufen.", "de"),
        ("Sie posieren vor einer Wand, die Sie Geschäfte zeigt.", "de"),
        ("Key Features Of The Product Line", "en"),  # a Title Case heading
        ("Hours of Operation: every day.", "en"),  # a label
        ("We use AI and the USA.", "en"),  # lone acronyms
        ("I think OK. Yes, it is.", "en"),
        ("A group is playing a song near some TVs and two PCs.", "en"),  # plurals of short acronyms
        ("le prix est bas", "fr"),
        ("这是一个普通的句子。", "zh-Hans"),
        ("天文学·观测手册", "zh-Hans"),  # a dot between words that spell no sound
    ],
)
def test_not_names(text: str, language: str) -> None:
    assert names(text, language) == []


def test_sentence_initial_common_word_is_dropped_from_a_run() -> None:
    assert names("The Red Piano is a bar.", "en") == ["Red Piano"]


def test_support_lookup_forms() -> None:
    words = name_words("'city': 'Santa Barbara', 'state': 'CA', 'WiFi': 'no', 'days': 'Saturday', Sharky's")
    assert all(word_supported(w, words) for w in entity_words("California"))
    assert word_supported("wi-fi", words)
    assert word_supported("saturdays", words)
    assert word_supported("sharky", words)
    assert not word_supported("dupont", words)
    assert entity_words("L'Oréal's") == ["oréal"]


@pytest.mark.parametrize(
    "text",
    [
        "{'BusinessParking': {'garage': False}, 'RestaurantsTakeOut': True}",
        "McDonald's and iPhone, eBay; ABCdef xY Ün éÉ aB-cD ǅemal",
        "no camel case here at all",
        "",
    ],
)
def test_camel_words_match_the_single_pattern(text: str) -> None:
    import regex

    from hallucheck.text.entities import _camel_words

    pattern = regex.compile(r"\p{L}*\p{Ll}\p{Lu}\p{L}*")  # the definition, slow on long texts
    assert _camel_words(text) == pattern.findall(text)
    assert {"business", "parking", "restaurants", "take", "out"} <= name_words(text) or "Business" not in text


def test_ascii_run_patterns_agree_with_the_unicode_ones() -> None:
    import regex
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from hallucheck.text import entities as e

    for c in map(chr, range(128)):  # the classes spelled out for ASCII
        assert bool(regex.fullmatch(r"\p{Lu}", c)) == ("A" <= c <= "Z")

    words = st.sampled_from(["Jean", "Dupont", "of", "de", "Bank", "America", "the", "AI", "x-Ray", "O'Neil", "3M", "-", ",", ":"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(words, max_size=12), st.sampled_from([" ", "  ", "\t"]))
    def check(parts: list[str], sep: str) -> None:
        text = sep.join(parts)
        for plain, fast in ((e._RUN_WITH_CONNECTORS, e._RUN_WITH_CONNECTORS_ASCII), (e._RUN_PLAIN, e._RUN_PLAIN_ASCII)):
            assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)]
        assert bool(e._UPPER_ASCII.search(text, 1)) == bool(e._UPPER_AFTER_FIRST.search(text))

    check()


def test_ascii_word_pattern_agrees_with_the_unicode_one() -> None:
    from hallucheck.text import entities as e

    every = "".join(map(chr, range(128)))
    for text in (every, every[::-1], "O'Neil's Wi-Fi x-1 a'b -c 3M", "{'OutdoorSeating': True, 'state': 'CA'}"):
        assert e._WORD_ASCII.findall(text) == e._WORD.findall(text)


def test_a_transliterated_name_is_compared_at_its_dots() -> None:
    sources = "第一座圆顶由天文学家汉斯·福格特出资建造。史蒂夫·乔布斯也来过。"
    assert transliteration_supported("汉斯·福格特", sources)
    assert transliteration_supported("汉斯•福格特", sources)  # another dot
    assert transliteration_supported("汉斯·福格特", "汉斯福格特")  # the sources without the dot
    assert not transliteration_supported("赫尔曼·福格特", sources)
    assert not transliteration_supported("史蒂夫·沃兹尼亚克", sources)


def test_another_form_of_the_same_place_supports_a_name_word():
    from hallucheck.text.entities import word_supported

    assert word_supported("European", {"europe", "demand"})
    assert word_supported("Americans", {"us", "people"})
    assert not word_supported("European", {"asia", "demand"})
    assert not word_supported("Lyon", {"paris"})


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [("Mme Pelosi a fait ces commentaires samedi.", "fr", ["Pelosi"]), ("Selon Mme Warren, le vote aura lieu.", "fr", ["Warren"]),
     ("Later Mr Smith said so, and Dr Jones agreed.", "en", ["Smith", "Jones"])],
)
def test_a_title_is_no_part_of_the_name(text: str, language: str, expected: list[str]) -> None:
    # "Mme Pelosi" over a source that says "Pelosi" names no one new: the title is not a name.
    assert [e.text for e in find_entities(text, language)] == expected
