"""Language detection for the five supported languages (en, de, fr, zh-Hans, zh-Hant).

Chinese is recognised by script (a language identifier is unreliable on short mixed text) and
split into Traditional and Simplified by character tables; the rest is left to py3langid,
restricted to languages we can lemmatise so that a short answer is not labelled Latvian.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

import regex

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

__all__ = ["SUPPORTED", "base_language", "detect_language", "has_cjk_char", "is_chinese", "is_cjk_char", "load_identifier",
           "same_language"]

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


# the ranges of is_cjk_char, for a search of a whole text in C rather than a loop in Python
_CJK_CHAR = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\U00020000-\U0002fa1f]")


def has_cjk_char(text: str) -> bool:
    """Whether ``text`` holds a CJK ideograph (:func:`is_cjk_char`); a regular-expression search,
    as it runs over whole sources."""
    return _CJK_CHAR.search(text) is not None


def normalize_language(code: str) -> str:
    """Map user-given codes (``zh-TW``, ``EN``, ``fr-CA``) onto our canonical codes."""
    key = code.strip().lower().replace("_", "-")
    if key in _ALIASES:
        return _ALIASES[key]
    return key.split("-")[0] or "en"


@lru_cache(maxsize=256)
def base_language(code: str) -> str:
    """``zh-Hant`` -> ``zh``; the code used to pick lemmatisers and stop words."""
    return normalize_language(code).split("-")[0]


def is_chinese(code: str) -> bool:
    """Whether ``code`` is Chinese in either script: text then has no spaces between words, so
    lengths, boundaries and patterns are counted in characters."""
    return base_language(code) == "zh"


# The languages the identifier may answer: those we can lemmatise, and a few whose scripts or
# vocabulary would otherwise be mistaken for one of them.
_LANGID_LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "pt", "ja", "ko", "ru", "zh")


@lru_cache(maxsize=1)
def _langid() -> LanguageIdentifier:
    """py3langid restricted to ``_LANGID_LANGUAGES``, built from the model's parts so that it
    keeps only what it uses.

    ``LanguageIdentifier.from_model_file`` + ``set_languages`` keeps the weights of all 142
    languages (27 MB) beside the restricted copy, and the automaton's output table as a Python
    list of 100,000 integers. Here the weights are cut to our languages before the
    identifier is made and the output table is a compact ``array``: the same numbers, so the same
    scores and answers (tests/text/test_language.py compares them), in about 47 MB instead of 75
    (``bench/memory_parts.py``; the rest is the automaton itself).
    """
    from array import array  # lazy: loaded only on this path

    import numpy as np  # lazy: heavy: numpy loads only when this path runs
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # lazy: heavy: py3langid loads only when this path runs

    try:
        from py3langid.langid import MODEL_DIR  # lazy: heavy: py3langid loads only when this path runs
        from py3langid.modelio import load_model  # lazy: heavy: py3langid loads only when this path runs

        ptc, pc, classes, nextmove, row, output = load_model(MODEL_DIR / MODEL_FILE)
        keep = [i for i, c in enumerate(classes) if c in _LANGID_LANGUAGES]
        out_table = array("i", output)
        del output
        return LanguageIdentifier(np.ascontiguousarray(ptc[:, keep]), np.asarray(pc)[keep], [classes[i] for i in keep],
                                  nextmove, out_table, norm_probs=True, tk_row=row)
    except (ImportError, AttributeError, TypeError, ValueError):
        # py3langid versions whose model parts are laid out otherwise: the plain (larger) way,
        # which gives the same answers.
        ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        ident.set_languages(list(_LANGID_LANGUAGES))
        return ident


def load_identifier() -> None:
    """Load the statistical language identifier now rather than on first use.

    Loading it takes about half a second, and since most texts are recognised without it (clear
    English, Chinese by script, sources whose figures read the same in every language) the first
    use can come late: a service or a benchmark that wants no such pause mid-stream calls this first.
    """
    _langid()


def _chinese_variant(text: str) -> str:
    import hanzidentifier  # lazy: heavy: hanzidentifier loads only when this path runs

    kind = hanzidentifier.identify(text)
    if kind == hanzidentifier.TRADITIONAL:
        return "zh-Hant"
    if kind == hanzidentifier.SIMPLIFIED:
        return "zh-Hans"
    # Mixed or ambiguous: count characters that exist in only one script.
    trad = sum(1 for ch in text if hanzidentifier.is_traditional(ch) and not hanzidentifier.is_simplified(ch))
    simp = sum(1 for ch in text if hanzidentifier.is_simplified(ch) and not hanzidentifier.is_traditional(ch))
    return "zh-Hant" if trad > simp else "zh-Hans"


# The same ranges as is_cjk_char (practically every code point in them is a letter).
_CJK_LETTER = regex.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\U00020000-\U0002fa1f]")
# The statistical identifier's cost grows with the text; a few hundred characters are plenty of evidence
# for telling the supported languages apart.
_LANGID_SAMPLE = 400

# Fast path for unmistakable English (most RAG logs): plain ASCII prose dense in English function
# words and free of German and French ones. Anything less clear-cut goes to the identifier.
_ASCII_WORD = re.compile(r"[a-z]+")
_EN_WORDS = frozenset("the and of to is that with for was are this it on be as by from have has were".split())
_DE_FR_WORDS = frozenset(
    "der die und das ist nicht mit sich ein eine den von auf für dem im auch wird sind "
    "le la les et est des une du pour que dans pas sur au qui ce il elle sont avec".split()
)


def _clearly_english(sample: str, letters: int) -> bool:
    if not sample.isascii() and sum(map(str.isascii, sample)) < len(sample) - 2:  # accents, umlauts, other scripts
        return False
    words = _ASCII_WORD.findall(sample.lower())
    if len(words) < 20 or letters < 80:
        return False
    english = sum(map(_EN_WORDS.__contains__, words))
    other = sum(map(_DE_FR_WORDS.__contains__, words))
    return english >= 0.15 * len(words) and other <= 0.02 * len(words)


# Deleting the 52 ASCII letters leaves the rest: for ASCII text (where str.isalpha is exactly
# A-Z and a-z) the letter count is then one C call instead of a call per character.
_NO_ASCII_LETTERS = str.maketrans("", "", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _count_letters(text: str) -> int:
    """How many characters of ``text`` are letters (``str.isalpha``)."""
    if text.isascii():
        return len(text) - len(text.translate(_NO_ASCII_LETTERS))
    return sum(map(str.isalpha, text))


def detect_language(text: str, default: str = "en") -> str:
    """Best guess of the language of ``text`` as one of our codes (others pass through as ISO 639-1)."""
    sample = text[:2000]
    letters = _count_letters(sample)
    if not letters:
        return default
    cjk = 0 if sample.isascii() else len(_CJK_LETTER.findall(sample))
    if cjk / letters > 0.3:
        return _chinese_variant(sample)
    if letters < 12:
        return default  # too short for a statistical guess
    head = sample[:_LANGID_SAMPLE]
    if _clearly_english(head, _count_letters(head)):
        return "en"
    lang, _ = _langid().classify(head)
    if lang == "zh":
        return _chinese_variant(sample)
    return str(lang)


def same_language(a: str, b: str) -> bool:
    """Whether two language codes name one language (``zh-Hans`` and ``zh-Hant`` do)."""
    return base_language(a) == base_language(b)
