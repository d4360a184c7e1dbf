"""Speculation and unnamed-authority phrases per language, for the lexicon detector (RAG prompting guide).

One module per language holds two tuples: ``SPECULATION`` (the writer hedges: "probably",
"I think", 可能) and ``FABRICATION`` (the writer appeals to an authority the sources never name:
"studies show", "according to official data", 專家表示). ``BLOCKERS`` lists longer words that
contain a phrase without meaning it (不可能 "impossible" contains 可能 "maybe").
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import NamedTuple

from hallucheck.text.language import normalize_language

__all__ = ["PhraseSet", "phrases_for", "LANGUAGES"]

LANGUAGES: dict[str, str] = {
    "en": "en",
    "de": "de",
    "fr": "fr",
    "zh-Hans": "zh_hans",
    "zh-Hant": "zh_hant",
}


class PhraseSet(NamedTuple):
    speculation: tuple[str, ...]
    fabrication: tuple[str, ...]
    blockers: dict[str, tuple[str, ...]]


def _load(module: str) -> PhraseSet:
    mod = importlib.import_module(f"hallucheck.detectors.rules.phrases.{module}")
    return PhraseSet(tuple(mod.SPECULATION), tuple(mod.FABRICATION), dict(getattr(mod, "BLOCKERS", {})))


@lru_cache(maxsize=16)
def phrases_for(language: str) -> PhraseSet:
    """The phrases that apply to text in ``language``.

    Chinese text gets both scripts' lists (answers mix them); a language we have no list for
    falls back to English.
    """
    lang = normalize_language(language)
    if lang.startswith("zh"):
        keys = ["zh_hant", "zh_hans"]
    else:
        keys = [LANGUAGES.get(lang, "en")]
    spec: dict[str, None] = {}
    fab: dict[str, None] = {}
    blockers: dict[str, tuple[str, ...]] = {}
    for key in keys:
        ps = _load(key)
        spec.update(dict.fromkeys(ps.speculation))
        fab.update(dict.fromkeys(ps.fabrication))
        for k, v in ps.blockers.items():
            blockers[k] = tuple(dict.fromkeys(blockers.get(k, ()) + v))
    return PhraseSet(tuple(spec), tuple(fab), blockers)
