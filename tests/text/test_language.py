"""Language detection: script rules, the English fast path, and the statistical fallback."""

from __future__ import annotations

import pytest

from hallucheck.text.language import _clearly_english, _langid, detect_language, same_language

ENGLISH = (
    "The company was founded in 2010 in Paris and it has grown steadily since then. "
    "Most of its revenue comes from the sale of software to banks, and the rest is from consulting."
)
GERMAN_WITH_ENGLISH = (
    "Die Bundesregierung hat am Mittwoch beschlossen, the funding for electric cars zu verlängern, "
    "und der Minister sagte, dass es ein guter Tag für die Industrie sei."
)
GERMAN_ASCII = (
    "Die Lieferung dauert drei bis fuenf Werktage und kostet nichts, wenn man mehr als fuenfzig Euro "
    "bestellt hat, sagte der Sprecher am Montag in Berlin."
)
FRENCH = (
    "Le gouvernement a annoncé mercredi une nouvelle réforme des retraites qui entrera en vigueur "
    "le mois prochain, selon the minister et les syndicats."
)


def test_english_fast_path_agrees_with_the_identifier() -> None:
    head = ENGLISH[:400]
    assert _clearly_english(head, sum(map(str.isalpha, head)))
    assert _langid().classify(head)[0] == "en"
    assert detect_language(ENGLISH) == "en"


@pytest.mark.parametrize(("text", "expected"), [(GERMAN_WITH_ENGLISH, "de"), (GERMAN_ASCII, "de"), (FRENCH, "fr")])
def test_other_languages_skip_the_fast_path(text: str, expected: str) -> None:
    head = text[:400]
    assert not _clearly_english(head, sum(map(str.isalpha, head)))
    assert detect_language(text) == expected


def test_chinese_scripts_and_short_texts() -> None:
    assert detect_language("未開封產品可在 30 天內申請全額退款。") == "zh-Hant"
    assert detect_language("未开封产品可在 30 天内申请全额退款。") == "zh-Hans"
    assert detect_language("OK.") == "en"  # too short to guess: the default
    assert detect_language("12 345 !!!", default="de") == "de"  # no letters at all


def test_letter_count_matches_isalpha() -> None:
    from hallucheck.text.language import _count_letters

    for text in ("".join(chr(i) for i in range(128)), "Crème brûlée 42 ÄÖÜ 中文 ǅ", "", "1234 !?"):
        assert _count_letters(text) == sum(map(str.isalpha, text))


def test_same_language_treats_scripts_and_regions_as_one_language() -> None:
    assert same_language("zh-Hans", "zh-Hant")
    assert same_language("de", "de")
    assert not same_language("de", "en")


def test_compact_identifier_scores_as_py3langid_restricted() -> None:
    """The identifier built from the model's parts gives py3langid's own scores, to the bit."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    from hallucheck.text.language import _LANGID_LANGUAGES

    reference = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    reference.set_languages(list(_LANGID_LANGUAGES))
    ident = _langid()
    assert ident.nb_classes == reference.nb_classes
    for text in (ENGLISH, GERMAN_WITH_ENGLISH, GERMAN_ASCII, FRENCH, "Ciao, come stai oggi?", "x", "", "12 345"):
        assert ident.classify(text) == reference.classify(text)
        assert ident._decide(text).tolist() == reference._decide(text).tolist()


def test_compact_identifier_keeps_only_its_languages() -> None:
    """No copy of the weights of all 142 languages stays behind the restricted ones (27 MB)."""
    from hallucheck.text.language import _LANGID_LANGUAGES

    full_weights = _langid()._full_model[0]
    assert full_weights.shape[1] == len(_LANGID_LANGUAGES)


def test_identifier_falls_back_when_the_model_parts_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    import py3langid.modelio

    sample = "Die Garantie gilt zwei Jahre ab dem Kaufdatum für jeden Laptop."
    compact = _langid().classify(sample)

    def other_layout(path: object) -> tuple[object, ...]:
        raise TypeError("another py3langid layout")

    monkeypatch.setattr(py3langid.modelio, "load_model", other_layout)
    _langid.cache_clear()
    try:
        assert _langid().classify(sample) == compact
    finally:
        _langid.cache_clear()


def test_has_cjk_char_searches_the_ranges_of_is_cjk_char() -> None:
    from hallucheck.text.language import has_cjk_char, is_cjk_char

    edges = [0x33FF, 0x3400, 0x4DBF, 0x4DC0, 0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0xF8FF, 0xF900, 0xFAFF, 0xFB00,
             0x1FFFF, 0x20000, 0x2FA1F, 0x2FA20, ord("a"), ord("の"), ord("한")]
    for code in edges:
        assert has_cjk_char(f"ab {chr(code)} cd") == is_cjk_char(chr(code)), hex(code)
    assert not has_cjk_char("")
