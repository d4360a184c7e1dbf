"""Language detection for the five supported languages (en, de, fr, zh-Hans, zh-Hant).

Chinese is recognised by script (a language identifier is unreliable on short mixed text) and
split into Traditional and Simplified by character tables; the rest is left to py3langid,
restricted to languages we can lemmatise so that a short answer is not labelled Latvian.
"""

from __future__ import annotations

from functools import lru_cache

import regex

__all__ = ["SUPPORTED", "base_language", "detect_language", "is_cjk_char"]

SUPPORTED = ("en", "de", "fr", "zh-Hans", "zh-Hant")

_ALIASES = {
    "zh": "zh-Hans",
    "zh-cn": "zh-Hans",
    "zh-sg": "zh-Hans",
    "zh-hans": "zh-Hans",
    "zh-tw": "zh-Hant",
    "zh-hk": "zh-Hant",
    "zh-mo": "zh-Hant",
    "zh-hant": "zh-Hant",
}


def is_cjk_char(ch: str) -> bool:
    """True for CJK ideographs (the characters that make a text Chinese for our purposes)."""
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FA1F


def normalize_language(code: str) -> str:
    """Map user-given codes (``zh-TW``, ``EN``, ``fr-CA``) onto our canonical codes."""
    key = code.strip().lower().replace("_", "-")
    if key in _ALIASES:
        return _ALIASES[key]
    return key.split("-")[0] or "en"


def base_language(code: str) -> str:
    """``zh-Hant`` -> ``zh``; the code used to pick lemmatisers and stop words."""
    return normalize_language(code).split("-")[0]


@lru_cache(maxsize=1)
def _langid():  # type: ignore[no-untyped-def]
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    ident.set_languages(["en", "de", "fr", "es", "it", "nl", "pt", "ja", "ko", "ru", "zh"])
    return ident


def _chinese_variant(text: str) -> str:
    import hanzidentifier

    kind = hanzidentifier.identify(text)
    if kind == hanzidentifier.TRADITIONAL:
        return "zh-Hant"
    if kind == hanzidentifier.SIMPLIFIED:
        return "zh-Hans"
    # Mixed or ambiguous: count characters that exist in only one script.
    trad = sum(1 for ch in text if hanzidentifier.is_traditional(ch) and not hanzidentifier.is_simplified(ch))
    simp = sum(1 for ch in text if hanzidentifier.is_simplified(ch) and not hanzidentifier.is_traditional(ch))
    return "zh-Hant" if trad > simp else "zh-Hans"


_LETTER = regex.compile(r"\p{L}")
# The same ranges as is_cjk_char, letters only.
_CJK_LETTER = regex.compile(r"(?=\p{L})[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\U00020000-\U0002fa1f]")
# The statistical identifier's cost grows with the text; a few hundred characters are plenty of evidence
# for telling the supported languages apart.
_LANGID_SAMPLE = 400


def detect_language(text: str, default: str = "en") -> str:
    """Best guess of the language of ``text`` as one of our codes (others pass through as ISO 639-1)."""
    sample = text[:2000]
    letters = len(_LETTER.findall(sample))
    if not letters:
        return default
    cjk = len(_CJK_LETTER.findall(sample))
    if cjk / letters > 0.3:
        return _chinese_variant(sample)
    if letters < 12:
        return default  # too short for a statistical guess
    lang, _ = _langid().classify(sample[:_LANGID_SAMPLE])
    if lang == "zh":
        return _chinese_variant(sample)
    return str(lang)
