"""Names written in Han characters (people, places, organisations) in one Chinese sentence.

Why: a Chinese name looks like any two or three characters, so no surface rule finds "王强" or
"深圳" on its own (:mod:`hallucheck.text.entities` leaves them alone). Where an answer sentence
copies its source sentence but for one such stretch ("项目经理王强负责迁移" over "项目经理李明负责迁移"),
the question is narrower: is the stretch a name on both sides? jieba's part-of-speech tagger
(``jieba.posseg``, part of the core dependency jieba) answers that well enough when both sides
agree on the kind of name and the rest of the sentence is the same; the opposites detector asks
it only there, so its cost (under a millisecond a sentence) is paid for a few sentences.

A name here is a tagged word of at least two characters (one-character "names" are mostly
function characters the tagger misreads, such as traditional "於"), of kind ``person``
(jieba ``nr``, ``nrt``, ``nrfg``), ``place`` (``ns``) or ``organisation`` (``nt``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, NamedTuple

from hallucheck.text.language import is_cjk_char

__all__ = ["HanName", "NameKind", "han_names", "name_at"]

NameKind = Literal["person", "place", "organisation"]

_KINDS: dict[str, NameKind] = {"nr": "person", "nrt": "person", "nrfg": "person", "ns": "place", "nt": "organisation"}


class HanName(NamedTuple):
    """A name in a sentence: character offsets into the sentence, its text and kind."""

    start: int
    end: int
    text: str
    kind: NameKind


@lru_cache(maxsize=4096)
def han_names(sentence: str) -> tuple[HanName, ...]:
    """The names jieba's tagger finds in ``sentence`` (offsets into ``sentence``)."""
    import jieba  # lazy: heavy: jieba loads only when this path runs
    import jieba.posseg  # lazy: heavy: jieba loads only when this path runs

    jieba.setLogLevel(60)  # no "Building prefix dict" chatter on stderr
    out: list[HanName] = []
    pos = 0
    for pair in jieba.posseg.cut(sentence):
        word, flag = pair.word, pair.flag
        start = sentence.find(word, pos)
        if start < 0:
            continue
        pos = start + len(word)
        kind = _KINDS.get(flag)
        if kind is not None and len(word) >= 2 and all(is_cjk_char(c) for c in word):
            out.append(HanName(start, pos, word, kind))
    return tuple(out)


def name_at(sentence: str, start: int, end: int) -> HanName | None:
    """The name of ``sentence`` that holds the characters ``start..end-1``, if one does."""
    return next((n for n in han_names(sentence) if n.start <= start and end <= n.end), None)
