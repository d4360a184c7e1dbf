"""The word dictionaries behind lemmas and known-word tests (simplemma), held compactly.

simplemma's default backend decodes a language's whole dictionary into a Python ``dict`` on
first use (German's alone is over a million forms), so a process that reads answers in English,
German and French carried about 155 MB of lexicon, the largest single share of the default
checker's memory. Its low-memory backend reads the same shipped dictionary as one decompressed
byte stream with a sparse index (about 22 MB for the three; ``bench/memory_parts.py``) and
decodes a few entries per lookup. The lemmas and the known-word answers are the same (the same
data, looked up differently); a lookup that no cache answers is slower, which the callers'
caches hide (``tokens.lemma`` and the word tables keep every word once, :func:`known_word` caches
its answers: ``bench/throughput.py`` checks as many answers per CPU second as before), and
loading is faster, because no dict is built.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["is_known", "known_word", "lemmatize"]


def lemmatize(word: str, language: str) -> str:
    """simplemma's lemma of ``word`` in ``language`` (an ISO 639-1 code simplemma has); raises
    ValueError for a language it does not know."""
    import simplemma  # lazy: heavy: simplemma loads only when this path runs

    return str(simplemma.lemmatize(word, language, low_memory=True))


def is_known(word: str, language: str) -> bool:
    """Whether ``word`` is an entry of simplemma's dictionary for ``language``."""
    import simplemma  # lazy: heavy: simplemma loads only when this path runs

    return bool(simplemma.is_known(word, language, low_memory=True))


@lru_cache(maxsize=100_000)
def known_word(word: str, language: str) -> bool:
    """Whether ``word``, as written or in lower case, is a dictionary word of ``language``; False
    for a language simplemma does not have. Cached: the name and term rules ask about the same
    words answer after answer, and a low-memory lookup decodes dictionary entries each time."""
    try:
        return is_known(word, language) or is_known(word.lower(), language)
    except ValueError:
        return False
