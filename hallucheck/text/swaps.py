"""Two parts of a sentence that trade places: "B acquired A" against a source that says "A acquired B".

Every word of such a sentence is in its source, in nearly the same order, so n-gram novelty,
embedding similarity and a word-by-word alignment all call it supported, and a sequence matcher
aligns one of the two names and leaves the other as an insertion. This module looks for the
pattern itself over the alignment symbols of :func:`hallucheck.text.opposites.polarity_symbols`
(lemmas; Chinese by characters): the answer reads ``X M Y`` where the source reads ``Y M X``,
with

- ``M`` the relation between them: the longest run of symbols both sentences share there, with
  at least one content symbol, and not a relation that reads the same both ways ("met",
  "merged with", "合作", :data:`SYMMETRIC_RELATIONS`) or only function words ("and", "和"); a
  middle of function words that are no list joint ("是") counts when both sentences go on after
  the second side with the same relation ("李娜是张伟的导师" against "张伟是李娜的导师": "的导师");
- ``X`` and ``Y`` different, each as long as the two sentences allow (the symbols before ``M``
  in the answer are those after it in the source, and the other way round), each holding a
  content symbol (in Chinese at least two characters, so that one shared character is no name);
- no sentence break inside ``X M Y`` (a swap across clauses is a reordering, not a swap of roles),
  and no list joint in ``M`` ("method overriding and method overloading");
- the source sentence does not also read ``X M Y`` somewhere ("Basil Growing Indoors. Growing basil indoors");
- for English, :func:`english_roles` tells roles around a verb from words moved around a noun
  (the ``opposites`` detector asks it, unless both sides are names): ``M`` holds a verb form (a word its lemma changes, "needs",
  "took"; an auxiliary, "will", "is"; or a word whose "-ing" form is a dictionary word of that
  lemma, "wear", "provide") and ``X`` and ``Y`` each a word that can fill a role: not
  an adverb in "-ly" or of time and order ("first", "last year"), nor a lone "-ing" form ("allow
  birds to breathe by enabling" over "enable birds to breathe by allowing"). Without them, an adjective or an
  adverb moved around its noun reads as a swap: "perfectly prepared coffee" over "coffee prepared
  perfectly", "food quality excellent" over "excellent quality food" (RAGTruth's clean answers).

A passive ("A was acquired by B") gives no match: its relation has other symbols around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from hallucheck.text.opposites import BREAK, NEG, Symbol

__all__ = ["SYMMETRIC_RELATIONS", "Swap", "english_roles", "find_swaps"]

# Relations that read the same in both directions: "A met B" is "B met A". Lemmas (as the
# alignment symbols carry them) in English, German and French; Chinese words by characters.
SYMMETRIC_RELATIONS: frozenset[str] = frozenset({
    # en
    "meet", "marry", "merge", "partner", "collaborate", "cooperate", "tie", "draw", "face", "play",
    "fight", "compete", "negotiate", "talk", "chat", "agree", "differ", "resemble", "equal", "match",
    "join", "combine", "mix", "connect", "link", "pair", "swap", "exchange", "correspond", "communicate",
    "share", "vs", "versus", "between", "among", "like", "similar", "same", "different", "alongside",
    # de
    "treffen", "heiraten", "fusionieren", "verbinden", "kombinieren", "vergleichen", "ähneln", "gleichen",
    "zusammenarbeiten", "zwischen", "wie", "gleich", "ähnlich",
    # fr
    "rencontrer", "épouser", "fusionner", "combiner", "relier", "comparer", "ressembler", "égaler", "entre",
    "comme", "pareil", "semblable", "même",
    # zh (characters of symmetric words: 合作 会见 会晤 结婚 合并 对阵 交战 比赛 相同 类似 之间 连接)
    "合", "作", "会", "會", "见", "見", "晤", "结", "結", "婚", "并", "併", "对", "對", "阵", "陣",
    "交", "战", "戰", "比", "赛", "賽", "相", "同", "类", "類", "似", "间", "間", "连", "連", "接", "与", "與",
    "和", "及", "跟",
})


class Swap(NamedTuple):
    """Answer symbols ``[x_start, y_end)`` read ``X M Y``; the source's symbols ``[src_start, src_end)`` read ``Y M X``."""

    x_start: int
    m_start: int
    y_start: int
    y_end: int
    src_start: int
    src_end: int


def _cjk(sym: Symbol) -> bool:
    return len(sym.form) == 1 and "\u3400" <= sym.form <= "\u9fff"


def _names(part: Sequence[Symbol]) -> bool:
    """Whether one side holds a name: a content symbol; Chinese characters at least two of them."""
    if any(s.form in (BREAK, NEG) for s in part):
        return False
    if not any(s.content for s in part):
        return False
    return len(part) >= 2 or not _cjk(part[0])


# Words that join the members of a list: "A and method B" against "B and method A" is a list
# told in another order.
_JOINTS: frozenset[str] = frozenset({"and", "or", "nor", "und", "oder", "sowie", "et", "ou", "和", "与", "與", "或", "及", "、"})


def _joins_nothing(part: Sequence[Symbol]) -> bool:
    """Whether ``M`` neither breaks the clause nor joins list members (any words else may stand there)."""
    return not any(s.form == BREAK or s.form in _JOINTS or s.word in _JOINTS for s in part)


def _relation(part: Sequence[Symbol]) -> bool:
    """Whether ``M`` can carry roles: a content symbol, no break or list joint, and not a symmetric relation."""
    if not _joins_nothing(part):
        return False
    content = [s for s in part if s.content]
    if not content:
        return False
    return not all(s.form in SYMMETRIC_RELATIONS or s.word in SYMMETRIC_RELATIONS for s in content)


# English words that stand beside a verb without taking a role in it: auxiliaries (a verb form of
# their own), and adverbs of time and order with the nouns of time they make ("last year").
_AUXILIARIES: frozenset[str] = frozenset({
    "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "will", "would", "can", "could",
    "may", "might", "must", "shall", "should", "do", "does", "did",
})
_NO_ROLE: frozenset[str] = frozenset({
    "first", "then", "also", "last", "next", "later", "now", "soon", "again", "still", "even", "just", "already",
    "often", "always", "never", "here", "there", "today", "tomorrow", "yesterday", "ago", "once", "twice", "well",
    "together", "instead", "too", "very", "much", "more", "most", "less", "least", "early", "late", "finally",
    "year", "month", "week", "day", "time", "hour", "minute", "morning", "evening", "night", "decade", "century",
})


def _adverb(word: str) -> bool:
    """An English adverb in "-ly" made of a word ("perfectly"; not "family", "Italy")."""
    from hallucheck.text.lexicons import known_word  # lazy: loaded only on this path

    return len(word) > 4 and word.endswith("ly") and known_word(word[:-2], "en")


def _verb(word: str) -> bool:
    """An English verb form: an auxiliary, an inflected word ("needs", "took"; the caller compares
    it with its lemma), or a base form with an "-ing" form of its own ("wear", "provide"; not
    "quality")."""
    from hallucheck.text.lexicons import known_word, lemmatize  # lazy: loaded only on this path

    if word in _AUXILIARIES:
        return True
    if not word.isalpha() or len(word) < 2:
        return False
    ing = word[:-1] + "ing" if word.endswith("e") and not word.endswith("ee") else word + "ing"
    if known_word(ing, "en") and lemmatize(ing, "en") == word:
        return True
    # a doubled consonant ("hitting"); the dictionary may keep such a form as a word of its own
    # ("cutting", "setting"), which is still the verb's
    doubled = word + word[-1] + "ing"
    return _doubles(word) and known_word(doubled, "en") and lemmatize(doubled, "en") in (word, doubled)


_VOWELS = frozenset("aeiou")


def _doubles(word: str) -> bool:
    """Whether an English base form of one syllable doubles its last consonant before "-ing" ("hit"
    → "hitting", "cut", "stop"): it ends in one vowel between consonants. Verbs like these do not
    change in the past ("hit", "cut", "put", "set"), so without their "-ing" form no form of them
    would read as a verb. Longer words are left out: their stress decides ("rebelling", "visiting"),
    and the ones that double are mostly nouns too ("Houthi rebel targets")."""
    return (
        len(word) >= 3
        and sum(1 for a, b in zip(" " + word, word) if b in _VOWELS and a not in _VOWELS) == 1
        and word[-1] not in _VOWELS
        and word[-1] not in "wxy"
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
    )


def english_roles(x: Sequence[Symbol], m: Sequence[Symbol], y: Sequence[Symbol]) -> bool:
    """Whether an English ``X M Y`` can be two roles around a verb (see the module doc): ``M``
    holds a verb form, ``X`` and ``Y`` each a content word that is no adverb of manner, time or order."""
    if not any((s.word.isalpha() and s.word != s.form) or _verb(s.word) for s in m):
        return False
    return all(
        any(s.content and s.word not in _NO_ROLE and s.form not in _NO_ROLE and not _adverb(s.word) for s in side)
        and not (len(side) == 1 and side[0].word.endswith("ing") and side[0].form != side[0].word)
        for side in (x, y)
    )


def find_swaps(answer: Sequence[Symbol], source: Sequence[Symbol], *, any_middle: bool = False) -> list[Swap]:
    """Every place where ``answer`` reads ``X M Y`` and ``source`` reads ``Y M X`` (see the module doc).

    ``any_middle``: ``M`` need not be a relation that carries roles; any words but a clause break or
    a list joint will do ("mittels Browser-Nutzer dem HTML-Formularen" against "mittels
    HTML-Formularen dem Browser-Nutzer"). Too loose to call a contradiction, it is what tells a
    sentence that exchanges two terms from one that only reorders its source's words."""
    a = [s.form for s in answer]
    b = [s.form for s in source]
    out: list[Swap] = []
    seen: set[tuple[int, int]] = set()
    where: dict[str, list[int]] = {}
    for k in range(1, len(b) - 1):
        where.setdefault(b[k], []).append(k)
    # content symbols before each answer position: M without one is no relation (see _relation),
    # and most shared runs are of function words ("of the"), so they are dropped without a scan
    before = [0]
    for sym in answer:
        before.append(before[-1] + sym.content)
    for i in range(1, len(a) - 1):
        for k in where.get(a[i], ()):
            if a[i - 1] == b[k - 1]:
                continue  # M starts here in both (a run that extends to the left starts earlier)
            m = 0
            while i + m < len(a) and k + m < len(b) and a[i + m] == b[k + m]:
                m += 1
            # a middle of function words only ("是") carries roles through what follows Y: see _tail
            copula = False
            if any_middle:
                if not _joins_nothing(answer[i : i + m]):
                    continue
            elif before[i + m] == before[i]:
                if not _joins_nothing(answer[i : i + m]):
                    continue
                copula = True
            elif not _relation(answer[i : i + m]):
                continue
            # X: before M in the answer, after M in the source; Y: after M in the answer, before it in the source
            # the first symbol of X (in the answer) opens the source's run after M; the first of Y
            # (right after M in the answer) opens the source's run before M: test those before slicing
            p = max((n for n in range(1, min(i, len(b) - k - m) + 1)
                     if a[i - n] == b[k + m] and a[i - n : i] == b[k + m : k + m + n]), default=0)
            q = max((n for n in range(1, min(len(a) - i - m, k) + 1)
                     if a[i + m + n - 1] == b[k - 1] and a[i + m : i + m + n] == b[k - n : k]), default=0)
            if not p or not q:
                continue
            if copula and not _tail(answer[i + m + q :], source[k + m + p :]):
                continue
            x, y = answer[i - p : i], answer[i + m : i + m + q]
            if [s.form for s in x] == [s.form for s in y]:
                continue
            if not (_names(x) and _names(y)):
                continue
            key = (i - p, i + m + q)
            if key in seen or _contains(b, a[i - p : i + m + q]):
                continue  # already found, or the source sentence also reads as the answer does
            seen.add(key)
            out.append(Swap(i - p, i, i + m, i + m + q, k - q, k + m + p))
    return out


def _tail(after_y: Sequence[Symbol], after_x: Sequence[Symbol]) -> bool:
    """Whether a middle of function words is a relation through the words after it: "李娜是张伟的导师"
    against "张伟是李娜的导师" reads ``X 是 Y`` against ``Y 是 X``, and both go on with the same "的导师"
    before the clause ends. Without such a tail "A是B" states an identity ("北京是中国的首都" and
    "中国的首都是北京" say the same), so the two sides may trade places."""
    n = 0
    while n < min(len(after_y), len(after_x)) and after_y[n].form == after_x[n].form and after_y[n].form != BREAK:
        n += 1
    return n > 0 and _relation(after_y[:n]) and not any(s.word in _SYMMETRIC_NOUNS for s in after_y[:n])


# Chinese nouns of a relation that reads the same both ways: "李娜是张伟的同事" says "张伟是李娜的同事".
_SYMMETRIC_NOUNS: frozenset[str] = frozenset({
    "同事", "同学", "同學", "朋友", "邻居", "鄰居", "伙伴", "夥伴", "同伴", "配偶", "伴侣", "伴侶", "队友", "隊友",
    "对手", "對手", "竞争对手", "競爭對手", "搭档", "搭檔", "亲戚", "親戚", "盟友", "合伙人", "合夥人", "同行",
})


def _contains(seq: Sequence[str], part: Sequence[str]) -> bool:
    n = len(part)
    return any(list(seq[k : k + n]) == list(part) for k in range(len(seq) - n + 1))
