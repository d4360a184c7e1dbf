"""Word tokens with offsets, lower-cased forms, lemmas and stop-word flags.

Chinese goes through jieba (loaded on first use, about a second); other languages use one
Unicode-aware regular expression. Lemmas come from simplemma (through the compact dictionaries
of :mod:`hallucheck.text.lexicons`) and are cached, because the same words recur across answers
and sources.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add, itemgetter, sub
from typing import NamedTuple

import regex

from hallucheck.text.language import base_language
from hallucheck.text.stopwords import stopwords

__all__ = ["Token", "TokenColumns", "tokenize", "token_columns", "lemma", "content_tokens"]

_WORD = regex.compile(
    r"\p{N}+(?:[.,:/]\p{N}+)*(?:%|\p{L}{0,3})"  # numbers, 3.5, 1,200, 12:30, 5km, 20%
    r"|[\p{L}\p{M}][\p{L}\p{M}\p{N}]*(?:['’\-][\p{L}\p{M}\p{N}]+)*"  # words, don't, state-of-the-art
    r"|[^\s\p{L}\p{N}]",  # any other single non-space character (punctuation, symbols)
)
# The same pattern for pure ASCII text (most English answers and sources), with the classes
# spelled out for ASCII (``\p{L}`` = A-Za-z, ``\p{N}`` = 0-9, no marks, ``\s`` = tab, line
# feed, vertical tab, form feed, carriage return, space): the standard ``re`` engine runs it
# about a third faster than ``regex`` runs the Unicode one. tests/text/test_tokens.py checks
# that the classes agree on every ASCII character. Words come first (the commonest token; the
# three alternatives start with different characters, so the order changes no match) and every
# repeat is possessive: nothing after a token can make the engine give characters back, so this
# matches exactly what the greedy pattern does, without keeping backtracking points.
_ASCII_GAP = "\t\n\x0b\x0c\r "
_ASCII_TOKEN = (
    r"[A-Za-z][A-Za-z0-9]*+(?:['\-][A-Za-z0-9]++)*+"
    r"|[0-9]++(?:[.,:/][0-9]++)*+(?:%|[A-Za-z]{0,3})"
    r"|[^\t\n\x0b\x0c\r A-Za-z0-9]"
)
_WORD_ASCII = re.compile(_ASCII_TOKEN)
# _WORD_ASCII with the white space before each token: the match lengths then add up to the token
# ends, so the offsets come from C-level sums instead of a ``str.find`` per token. Only used up to
# the end of the last token (no trailing white space), where every match is a token.
_SPACED_WORD_ASCII = re.compile(f"[{_ASCII_GAP}]*+(?:{_ASCII_TOKEN})")
_CJK_RUN = regex.compile(r"[\p{Han}]")
_LEMMA_LANGS = {"en", "de", "fr", "es", "it", "nl", "pt"}


class Token(NamedTuple):
    start: int
    end: int
    text: str
    norm: str  # lemma, lower-cased
    is_stop: bool
    is_punct: bool
    is_number: bool


@lru_cache(maxsize=200_000)
def lemma(word: str, language: str) -> str:
    """Lower-cased lemma of ``word`` (the word itself, lower-cased, where no lemmatiser applies)."""
    low = word.lower()
    lang = base_language(language)
    if lang not in _LEMMA_LANGS or not low.isalpha():
        return low
    from hallucheck.text.lexicons import lemmatize  # lazy: loaded only on this path

    try:
        return lemmatize(low, lang).lower()
    except ValueError:
        return low


def _jieba_spans(text: str) -> list[tuple[int, int]]:
    import logging  # lazy: loaded only on this path

    import jieba  # lazy: heavy: jieba loads only when this path runs

    jieba.setLogLevel(logging.WARNING)
    return [(s, e) for _, s, e in jieba.tokenize(text)]


def tokenize(text: str, language: str = "en") -> list[Token]:
    """All tokens of ``text`` (punctuation included, flagged), each with exact offsets."""
    lang = base_language(language)
    out: list[Token] = []
    ascii_only = text.isascii()
    if lang == "zh" or (not ascii_only and _CJK_RUN.search(text)):
        table = _word_table(lang)
        spans = _jieba_spans(text) if lang == "zh" or _CJK_RUN.search(text) else []
        for s, e in spans:
            w = text[s:e]
            if w.isspace():
                continue
            # jieba keeps Latin runs with spaces apart; re-split them with the word pattern.
            if not _CJK_RUN.search(w) and len(w) > 1:
                for m in _WORD.finditer(w):
                    out.append(_make(m.group(), s + m.start(), s + m.end(), table))
            else:
                out.append(_make(w, s, e, table))
        return out
    # The hot loop of every lexical check, with as few Python-level calls per token as possible.
    # Offsets come from str.find instead of match objects: the pattern leaves only white space
    # between tokens and no token starts with white space, so the next occurrence of a token's
    # text at or after the previous end is exactly where the pattern matched it.
    # Word facts come from a plain per-language dictionary: a dict lookup is cheaper than a
    # three-argument lru_cache call, and this runs for every token of every answer and source.
    lookup = _word_table(lang).__getitem__
    new = tuple.__new__
    append = out.append
    find = text.find
    pos = 0
    for w in (_WORD_ASCII if ascii_only else _WORD).findall(text):
        s = find(w, pos)
        pos = s + len(w)
        # Unpacked by name: a starred ``(s, pos, w, *info)`` builds a list first and is slower.
        norm, is_stop, is_punct, is_number, _kind = lookup(w)
        append(new(Token, (s, pos, w, norm, is_stop, is_punct, is_number)))
    return out


class _WordTable(dict[str, tuple[str, bool, bool, bool, int]]):
    """word -> ``_word_info(word, language, stopwords(language))``, filled on first lookup.

    A plain dict lookup is cheaper than a three-argument lru_cache call, and ``__missing__`` lets
    ``map(table.__getitem__, words)`` fill in new words without a separate pass to find them.
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.stops = stopwords(lang)

    def __missing__(self, word: str) -> tuple[str, bool, bool, bool, int]:
        info = self[word] = _word_info(word, self.lang, self.stops)
        return info


# language -> its _WordTable. The bound is on the words of all languages together (a word with
# its entry in the lemma cache is about 360 bytes, bench/memory_parts.py, so 200,000 words are
# about 70 MB): a bound of 400,000 per language let a process that reads five languages keep
# several hundred MB. When the tables hold more, all are replaced by empty ones, so a long-running service
# does not keep every word (every figure, every name) it ever saw. A table may pass the bound by
# the new words of one text before the next look; 2,000 answers in five languages made 43,000.
_WORD_TABLES: dict[str, _WordTable] = {}
_WORD_TABLE_SIZE = 200_000


def _word_table(lang: str) -> _WordTable:
    global _WORD_TABLES
    tables = _WORD_TABLES
    if sum(map(len, tables.values())) > _WORD_TABLE_SIZE:
        tables = _WORD_TABLES = {}  # a new dict: a thread still reading the old one is unharmed
    table = tables.get(lang)
    if table is None:
        table = tables[lang] = _WordTable(lang)
    return table


# Bits of a word's kind code (the last field of _word_info), and per code whether the token is
# a word, content, a fact: ``bytes.translate`` with these tables turns the codes of a text into
# its masks in one C call.
_PUNCT, _STOP, _NUMBER = 1, 2, 4
_IS_WORD = bytes(0 if c & _PUNCT else 1 for c in range(256))
_IS_CONTENT = bytes(0 if c & (_PUNCT | _STOP) else 1 for c in range(256))
_IS_FACT = bytes(0 if c & (_PUNCT | _STOP | _NUMBER) else 1 for c in range(256))


class TokenColumns(NamedTuple):
    """The tokens of a text as parallel sequences, index ``i`` being token ``i`` of ``tokenize``.

    Source texts are analysed once and cached, and their tokens live as long as the cache entry.
    As ``Token`` objects that is hundreds of objects per source that the garbage collector keeps
    scanning (it never untracks tuple subclasses) and that cost an allocation each; as columns it
    is a handful of tuples, and the masks let ``itertools.compress`` pick the tokens a check needs.
    Tuples rather than lists: a tuple of strings or integers is untracked by the first collection
    that sees it, while a list is walked element by element in every collection of its generation
    (on a cold RAGTruth run the cached lists made up most of the collector's work). The masks are
    ``bytes`` of 0 and 1: built with one ``translate`` each, and not tracked at all.
    """

    starts: tuple[int, ...]
    ends: tuple[int, ...]
    norms: tuple[str, ...]
    words: bytes  # 1 where not punctuation
    content: bytes  # 1 where not punctuation and not a stop word
    facts: bytes  # 1 where content and not a number


def token_columns(text: str, language: str = "en") -> TokenColumns:
    """``tokenize(text, language)`` as columns (see TokenColumns)."""
    lang = base_language(language)
    ascii_only = text.isascii()
    if lang == "zh" or (not ascii_only and _CJK_RUN.search(text)):
        tokens = tokenize(text, language)
        starts = tuple(map(itemgetter(0), tokens))
        ends = tuple(map(itemgetter(1), tokens))
        norms = tuple(map(itemgetter(3), tokens))
        codes = bytes(_PUNCT * t.is_punct | _STOP * t.is_stop | _NUMBER * t.is_number for t in tokens)
    else:
        table = _word_table(lang)
        words, starts, ends = _ascii_words(text) if ascii_only else _unicode_words(text)
        infos = list(map(table.__getitem__, words))
        norms = tuple(map(itemgetter(0), infos))
        codes = bytes(map(itemgetter(4), infos))
    return TokenColumns(
        starts, ends, norms, codes.translate(_IS_WORD), codes.translate(_IS_CONTENT), codes.translate(_IS_FACT)
    )


def _ascii_words(text: str) -> tuple[list[str], tuple[int, ...], tuple[int, ...]]:
    """The tokens of an ASCII text with their start and end offsets, without a Python step per token."""
    last = len(text.rstrip(_ASCII_GAP))  # past the last token: every match up to here is a token
    pieces = _SPACED_WORD_ASCII.findall(text, 0, last)
    ends = tuple(accumulate(map(len, pieces)))
    words = list(map(str.lstrip, pieces, repeat(_ASCII_GAP)))
    starts = tuple(map(sub, ends, map(len, words)))
    return words, starts, ends


def _unicode_words(text: str) -> tuple[list[str], tuple[int, ...], tuple[int, ...]]:
    """The tokens of a text with their offsets, found as in tokenize (``str.find`` after each token)."""
    words = _WORD.findall(text)
    starts: list[int] = []
    append = starts.append
    find = text.find
    pos = 0
    for w in words:
        s = find(w, pos)
        append(s)
        pos = s + len(w)
    return words, tuple(starts), tuple(map(add, starts, map(len, words)))


def _make(w: str, s: int, e: int, table: _WordTable) -> Token:
    norm, is_stop, is_punct, is_number, _kind = table[w]
    return tuple.__new__(Token, (s, e, w, norm, is_stop, is_punct, is_number))


def _word_info(w: str, lang: str, stops: frozenset[str]) -> tuple[str, bool, bool, bool, int]:
    """Everything about a token that depends only on the word: computed once per word and language
    (the per-language _WordTable is the cache; an lru_cache here as well kept a second entry per
    word, whose key, holding the stop-word frozenset, the garbage collector could never untrack).

    ``(norm, is_stop, is_punct, is_number, kind)``, ``kind`` being the three flags as bits
    (``_PUNCT``, ``_STOP``, ``_NUMBER``), from which token_columns makes its masks.
    """
    first = w[0]
    is_number = first.isdigit()
    is_punct = not is_number and not first.isalpha() and not ("\u4e00" <= first <= "\u9fff")
    norm = w if is_punct else lemma(w, lang)
    is_stop = w.lower() in stops or norm in stops
    return norm, is_stop, is_punct, is_number, _PUNCT * is_punct | _STOP * is_stop | _NUMBER * is_number


def content_tokens(tokens: list[Token]) -> list[Token]:
    """Tokens that carry content: no punctuation, no stop words."""
    return [t for t in tokens if not t.is_punct and not t.is_stop]
