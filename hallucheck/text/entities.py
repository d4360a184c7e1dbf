"""Proper names in text by conservative surface rules (no NER model), with exact offsets.

The point is the invented name: "L'entreprise a été fondée ... par Jean Dupont" when no source
names anyone. Recall is traded for precision, because a false name flag on every sentence-initial
word would drown the real ones. The rules (docs/detectors-rules.md):

* English and French: a run of capitalised words (``Jean Dupont``, ``Bank of America``; lower-case
  connectors such as of/de/von/van are allowed inside a run). A run that opens a sentence loses
  its first word when that word is a stop word or a dictionary word ("The Red Piano" -> "Red
  Piano"); a single sentence-initial word is never a name. Acronyms alone (``AI``, ``USA``)
  are skipped: answers coin them for source phrases.
* German capitalises every noun, so a single capitalised word counts only when simplemma's German
  dictionary does not know it and it is no compound of dictionary words (``Steinstraße``,
  ``Laptop-Computer``); a run of two or more (``Jean Dupont``, ``Deutsche Bahn``) counts unless
  one of its words is such a compound or an inflected noun (``Gruppe Männer``) and it does not
  open with an inflected adjective. Capitalised stop words (``Sie``) are left out. Single-word
  names that are also dictionary words (``Berlin``, ``Müller``) are missed on purpose: a plain
  noun is never flagged.
* Chinese: Latin-script runs inside Chinese text that contain a capital letter
  (``Jean Dupont``, ``iPhone``), and transliterated names, whose parts a middle dot joins
  (``赫尔曼·福格特``: each part is a name word); other Han-script names are not attempted (a
  Chinese name looks like any two or three characters).
* Lines written in Title Case (headings) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

import regex

from hallucheck.text.demonyms import place_forms
from hallucheck.text.language import base_language
from hallucheck.text.lexicons import known_word, lemmatize
from hallucheck.text.stopwords import stopwords

if TYPE_CHECKING:
    RunMatch: TypeAlias = re.Match[str] | regex.Match[str]

__all__ = [
    "EntityMention",
    "find_entities",
    "entity_words",
    "name_words",
    "word_supported",
    "NAME_ALIASES",
    "transliteration_supported",
    "REFERENCE_WORDS",
    "TRANSLITERATION_CHARS",
]


class EntityMention(NamedTuple):
    start: int
    end: int
    text: str
    words: tuple[tuple[int, int], ...]  # offsets of the capitalised words inside the run


_WORD = regex.compile(r"\p{L}[\p{L}\p{M}\p{N}]*(?:['’\-]\p{L}[\p{L}\p{M}\p{N}]*)*")
_WORD_ASCII = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:['\-][A-Za-z][A-Za-z0-9]*)*")  # _WORD on ASCII text
_ELISION = regex.compile(r"^(?:[LlDdJjNnSsCcMmTt]|[Qq]u|[Jj]usqu|[Ll]orsqu|[Pp]uisqu)['’](?=\p{L})")
_POSSESSIVE = regex.compile(r"['’]s$")
_CONNECTORS = frozenset({"of", "de", "du", "des", "la", "le", "von", "van", "der", "den", "di", "da", "del", "y", "&", "zu", "dei", "do"})
_LATIN_RUN = regex.compile(r"[A-Za-z][A-Za-z0-9&'’.\-]*(?:[ \u00a0]+[A-Za-z0-9][A-Za-z0-9&'’.\-]*)*")
_NOT_NAMES = frozenset({"i", "i'm", "i've", "i'd", "i'll", "ok", "okay", "yes", "no", "oui", "non", "ja", "nein",
                        # titles: "Mme Pelosi" over "Pelosi" names no one new
                        "mr", "mrs", "ms", "mme", "mmes", "mlle", "mlles", "dr", "prof", "hr"})
# Words by which an answer refers to its own sources or steps ("Passage 2", "Step 3"): not names,
# and the number after them is a reference, not a claim.
REFERENCE_WORDS = frozenset(
    "passage passages source sources document documents doc docs context contexts article text "
    "section chapter page pages paragraph point points item items step steps option options tip tips "
    "method methods part parts stage stages phase figure fig table appendix line lines question example fact facts "
    "quelle quellen dokument abschnitt kapitel seite punkt schritt schritte teil absatz "
    "étape étapes extrait chapitre partie paragraphe".split()
)
_ROMAN = regex.compile(r"^[IVXLC]+$")
# A CamelCase word is a run of letters with a lower-case letter right before an upper-case one.
# Searching for that pair and widening it to its letter run is linear; the equivalent single
# pattern (letters, the pair, letters) backtracks at every letter and was most of the cost of
# ``name_words`` on long sources.
_CAMEL_PAIR = regex.compile(r"\p{Ll}\p{Lu}")
_LETTERS_BEFORE = regex.compile(r"\p{L}*", flags=regex.REVERSE)
_LETTERS_AFTER = regex.compile(r"\p{L}*")
_CAMEL = regex.compile(r"\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})")


def _is_cap(word: str) -> bool:
    return word[:1].isupper()


def _is_acronym(word: str) -> bool:
    return len(word) >= 2 and word.isupper()


def _short_acronym_plural(word: str) -> bool:
    """A plural of a short acronym (TVs, PCs, CEOs): things counted, not a name, as the acronym
    itself is none at three letters or fewer."""
    return 3 <= len(word) <= 4 and word.endswith("s") and _is_acronym(word[:-1])


def entity_words(text: str, lower: bool = True) -> list[str]:
    """Word forms of a name without elisions and possessives (lower-cased for source lookup)."""
    forms = _entity_forms(text)
    return [w.lower() for w in forms] if lower else list(forms)


@lru_cache(maxsize=50_000)
def _entity_forms(text: str) -> tuple[str, ...]:
    """``entity_words(text, lower=False)``, cached: the same names recur across the answers of a log."""
    out = []
    for m in _WORD.finditer(text):
        w = m.group()
        if "'" in w or "’" in w:
            w = _POSSESSIVE.sub("", _ELISION.sub("", w))
        if w:
            out.append(w)
    return tuple(out)


_CAP_WORD = r"\p{Lu}[\p{L}\p{M}\p{N}]*(?:['’\-]\p{L}[\p{L}\p{M}\p{N}]*)*"
_CONNECTOR_ALT = "of|de|du|des|la|le|van|der|den|di|da|del|y|&|zu|dei|do"
_RUN_WITH_CONNECTORS = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}\-]){_CAP_WORD}(?:[ \u00a0]+(?:(?:{_CONNECTOR_ALT})[ \u00a0]+)*{_CAP_WORD})*"
)
_RUN_PLAIN = regex.compile(rf"(?<![\p{{L}}\p{{N}}\-]){_CAP_WORD}(?:[ \u00a0]+{_CAP_WORD})*")
_RUN_WORD = regex.compile(r"[^\s\u00a0]+")
_LETTER = regex.compile(r"\p{L}")
_UPPER_AFTER_FIRST = regex.compile(r"(?<=.)\p{Lu}", regex.DOTALL)
# The same run patterns for pure ASCII sentences, with the classes spelled out for ASCII
# (\p{Lu} = A-Z, \p{L} = A-Za-z, \p{N} = 0-9, no marks) on the faster standard ``re`` engine.
_CAP_WORD_ASCII = r"[A-Z][A-Za-z0-9]*(?:['\-][A-Za-z][A-Za-z0-9]*)*"
_RUN_WITH_CONNECTORS_ASCII = re.compile(
    rf"(?<![A-Za-z0-9\-]){_CAP_WORD_ASCII}(?:[ ]+(?:(?:{_CONNECTOR_ALT})[ ]+)*{_CAP_WORD_ASCII})*"
)
_RUN_PLAIN_ASCII = re.compile(rf"(?<![A-Za-z0-9\-]){_CAP_WORD_ASCII}(?:[ ]+{_CAP_WORD_ASCII})*")
_UPPER_ASCII = re.compile(r"[A-Z]")


def _clause_start(sentence: str, a: int) -> bool:
    """Whether the word at ``a`` opens the sentence or a clause after ``:`` / a bullet / a quote
    (or after a full stop the sentence splitter took for an abbreviation: "Santa Barbara, CA. The")."""
    if a == 0:
        return True
    before = sentence[:a].rstrip()
    if not _LETTER.search(before):
        return True
    return before.endswith((":", ";", ".", "!", "?", "\"", "“", "«", "(", "–", "—", "*")) or before.endswith("- ")


def _run_words(text: str, a: int, b: int) -> list[tuple[int, int, str]]:
    """Words of a capitalised run without elisions (``L'``) and possessives (``'s``)."""
    out = []
    run = text[a:b]
    if "'" not in run and "’" not in run:
        # Most runs: words split by spaces only, nothing to strip, no match objects needed.
        pos = a
        for w in run.split():
            s = text.find(w, pos)
            pos = s + len(w)
            out.append((s, pos, w))
        return out
    for m in _RUN_WORD.finditer(text, a, b):
        s, e = m.span()
        w = m.group()
        if "'" in w or "’" in w:
            el = _ELISION.match(w)
            if el:
                s += el.end()
            pm = _POSSESSIVE.search(w)
            if pm:
                e -= len(pm.group())
            w = text[s:e]
        if w:
            out.append((s, e, w))
    return out


def _latin_entities(
    text: str, offset: int, runs: list[RunMatch], lang: str, stops: frozenset[str], out: list[EntityMention]
) -> None:
    """Names among the capitalised ``runs`` of one sentence ``text`` (run offsets are into ``text``)."""
    n_caps = sum(r.group().count(" ") + 1 for r in runs)
    # A Title Case heading: 4 or more words, 70% capitalised (so at least 3 capitalised words).
    if n_caps >= 3:
        n_words = len(text.split())
        if n_words >= 4 and n_caps / n_words >= 0.7:
            return
    for r in runs:
        words = [w for w in _run_words(text, r.start(), r.end()) if w[2].lower() not in _NOT_NAMES or not _is_cap(w[2])]
        # drop leading words that are not capitalised after elision removal ("L'entreprise")
        while words and not _is_cap(words[0][2]):
            words = words[1:]
        if not words:
            continue
        if _clause_start(text, words[0][0]):
            low = words[0][2].lower()
            if len(words) == 1 or low in stops or known_word(low, lang):
                words = words[1:]
                while words and (words[0][2].lower() in _CONNECTORS or not _is_cap(words[0][2])):
                    words = words[1:]
        names = [
            w
            for w in words
            if _is_cap(w[2])
            and w[2].lower() not in _NOT_NAMES
            and w[2].lower() not in REFERENCE_WORDS
            and len(w[2]) > 1
            and not (_is_acronym(w[2]) and (len(w[2]) <= 3 or _ROMAN.match(w[2])))  # PM, CEO, II
            and not _short_acronym_plural(w[2])  # TVs, CEOs
        ]
        if not names:
            continue
        if text[words[-1][1] : words[-1][1] + 1] == ":" and _clause_start(text, r.start()):
            continue  # a label such as "Hours of Operation:"
        if len(names) == 1 and (_is_acronym(names[0][2]) or names[0][2].lower() in stops):
            continue
        if lang == "de" and _german_nouns([w[2] for w in names if w[2].lower() not in stops]):
            continue  # German capitalises every noun: known nouns are no name
        s, e = words[0][0], words[-1][1]
        out.append(EntityMention(offset + s, offset + e, text[s:e], tuple((offset + w[0], offset + w[1]) for w in names)))


def _german_compound(word: str) -> bool:
    """Whether ``word`` is a compound of dictionary words (``Laptop-Computer``, ``Steinstraße``,
    ``Ballonformen``; a linking s allowed): German writes new nouns that way, and no dictionary
    lists them all."""
    parts = [p for p in word.split("-") if p]
    if len(parts) > 1:
        return all(known_word(p, "de") or _german_compound(p) for p in parts)
    low = word.lower()
    for i in range(3, len(low) - 3):
        head, tail = low[:i], low[i:]
        if known_word(tail, "de") and (known_word(head, "de") or (head.endswith("s") and known_word(head[:-1], "de"))):
            return True
    return False


def _german_adjective(word: str) -> bool:
    """Whether ``word`` is an inflected adjective (``Deutsche``, ``Rotes``): written with a capital
    inside a sentence only as part of a name (Deutsche Bahn, Rotes Kreuz)."""
    low = word.lower()
    lemma = lemmatize(low, "de")
    return lemma.islower() and lemma != low and low.startswith(lemma)


def _german_inflected(word: str) -> bool:
    """Whether ``word`` is an inflected form of a dictionary noun (``Männer``, ``Geschäfte``): names
    are seldom inflected, nouns often are."""
    lemma = lemmatize(word, "de")
    return lemma != word and lemma[:1].isupper()


def _german_nouns(words: Sequence[str]) -> bool:
    """Whether capitalised German ``words`` are common nouns rather than a name. One word: a
    dictionary word or a compound of them. Several (``Gruppe Männer``, ``Person
    Schlittschuhlaufen``): one of them a compound or an inflected noun, and the first no inflected
    adjective (``Deutsche Bahn`` is a name). Stop words are left out by the caller (a capitalised
    ``Sie``, ``Ein``). Names made of base-form dictionary words (``Jean Dupont``) stay names."""
    if not words:
        return True
    if len(words) == 1:
        return known_word(words[0], "de") or _german_compound(words[0])
    if _german_adjective(words[0]):
        return False
    return any(_german_compound(w) or _german_inflected(w) for w in words)


# A transliterated foreign name: parts joined by a middle dot, as Chinese writes "Hermann Vogt"
# (赫尔曼·福格特). Chinese has no spaces, so a part ends where the characters that transliterate
# sounds end (the usual ones of both scripts, below): "天文学家赫尔曼·福格特以" gives 赫尔曼·福格特.
TRANSLITERATION_CHARS = frozenset(
    "丁万丘东丝丰丹丽乃乌乔亚亞亨什伊休伦伯佐佩保修倫傑克內兰兹内凡凯凱切列利加努劳勃勒勞华南博卡卢厄古史司吉吕呂哈唐"
    "喬嘉图圖圣圭坎坦埃基塔塞墨夏多夫夸奇奈奎奥奧妮姆威娄娜婁孟宁安宾密富寧尔尚尤尼巴布希帕席库庞庫廉延廷弗彭彼律德恩"
    "恰惠愛戈戴扎托扬拉拜捷提揚撒斐斯施旺昂明普曼朗本朱杜杰東松林查柯柳格桑梅森欣欧欽歐比毕毛汀汉汤沃沙法波泰泽洛派海"
    "涅温湯溫滕漢潘澤澳烏热熱爱爾特玛玲珀珍班琪琳琴琼瑙瑞瑟瑪瓊瓜瓦甘田申留畢登皮盖盧福科穆章米約納紐素索紹絲維繆约纳"
    "纽绍维缪罗羅美翰耶聖肖肯胡舍舒艾芒芙芬苏若英茂茜茨茲茹莉莎莫莱華菲萊萨萬蒂蒙蓋蕾薇薩蘇蘭裏西託許詹誇諾謝讓让许诺"
    "谢豐豪貝費賈賓賴賽贝费贾赖赛赫路辛达迈连迪連道達邁邦里金錫钦锡阿陆陶陸隆雅雷霍露韋韦馬马魯鮑鲁鲍麗麥麦黎默黛齊齐"
    "龍龐龙顿頓士盛"
)
_HAN_DOT = regex.compile(r"(?<=\p{Han})[·・‧•](?=\p{Han})")


def _transliterations(text: str) -> list[EntityMention]:
    """Dot-joined names (each part a name word); a dot with no name character beside it is none."""
    out: list[EntityMention] = []
    end = -1
    for dot in _HAN_DOT.finditer(text):
        if dot.start() < end:
            continue  # a later dot of a name already taken (马丁·路德·金)
        a = dot.start()
        while a > 0 and text[a - 1] in TRANSLITERATION_CHARS:
            a -= 1
        if a == dot.start():
            continue
        parts = [(a, dot.start())]
        b = dot.end()
        while True:
            e = b
            while e < len(text) and text[e] in TRANSLITERATION_CHARS:
                e += 1
            if e == b:
                break
            parts.append((b, e))
            if e < len(text) and _HAN_DOT.match(text, e):
                b = e + 1
                continue
            break
        if len(parts) < 2:
            continue
        end = parts[-1][1]
        out.append(EntityMention(a, end, text[a:end], tuple(parts)))
    return out


_DOTS = str.maketrans("・‧•", "···")


def transliteration_supported(name: str, source_text: str) -> bool:
    """Whether the sources give the dot-joined name ``name``: they hold the characters on either
    side of each of its dots (two of each, fewer when the part is shorter), with the dot or without.

    Only the characters at a dot are compared, because where a part ends away from the dot is a
    guess (:data:`TRANSLITERATION_CHARS`); "史蒂夫·乔布斯" and "史蒂夫·沃兹尼亚克" still differ there.
    """
    name = name.translate(_DOTS)
    sources = source_text.translate(_DOTS)
    parts = name.split("·")
    for left, right in zip(parts, parts[1:]):
        core_l, core_r = left[-2:], right[:2]
        if f"{core_l}·{core_r}" not in sources and f"{core_l}{core_r}" not in sources:
            return False
    return True


def _chinese_entities(text: str, out: list[EntityMention]) -> None:
    out.extend(_transliterations(text))
    for m in _LATIN_RUN.finditer(text):
        raw = m.group().rstrip(".-'’ ")
        if not raw or not any(c.isupper() for c in raw):
            continue
        if " " not in raw and (_is_acronym(raw) and len(raw) <= 4 or len(raw) < 3):
            continue  # units and short acronyms (GB, AI, CEO)
        a = m.start()
        words = tuple(
            (a + w.start(), a + w.end()) for w in _WORD.finditer(raw) if _is_cap(w.group()) or any(c.isupper() for c in w.group())
        )
        if words:
            out.append(EntityMention(a, a + len(raw), raw, words))


def find_entities(text: str, language: str, sentences: Sequence[tuple[int, int, str]] | None = None) -> list[EntityMention]:
    """Proper-name candidates in ``text``; ``sentences`` (start, end, text) avoid re-splitting."""
    lang = base_language(language)
    out: list[EntityMention] = []
    if lang == "zh":
        _chinese_entities(text, out)
        return out
    if sentences is None:
        from hallucheck.text.sentences import split_sentences  # lazy: already loaded by the package; kept where it is used

        sentences = [tuple(s) for s in split_sentences(text, language)]  # type: ignore[misc]
    stops = stopwords(lang)
    pattern = _RUN_PLAIN if lang == "de" else _RUN_WITH_CONNECTORS
    ascii_pattern = _RUN_PLAIN_ASCII if lang == "de" else _RUN_WITH_CONNECTORS_ASCII
    for start, _end, stext in sentences:
        if stext.isascii():
            if not _UPPER_ASCII.search(stext, 1):
                continue  # no capital after the first character: nothing but a sentence-initial word
            runs: list[RunMatch] = list(ascii_pattern.finditer(stext))
        else:
            if not _UPPER_AFTER_FIRST.search(stext):
                continue
            runs = list(pattern.finditer(stext))
        if runs:
            _latin_entities(stext, start, runs, lang, stops, out)
    return out


# Abbreviations that stand for a name in structured sources ("'state': 'CA'" -> "California").
NAME_ALIASES: dict[str, str] = {
    "AL": "alabama", "AK": "alaska", "AZ": "arizona", "AR": "arkansas", "CA": "california",
    "CO": "colorado", "CT": "connecticut", "DE": "delaware", "FL": "florida", "GA": "georgia",
    "HI": "hawaii", "ID": "idaho", "IL": "illinois", "IN": "indiana", "IA": "iowa", "KS": "kansas",
    "KY": "kentucky", "LA": "louisiana", "ME": "maine", "MD": "maryland", "MA": "massachusetts",
    "MI": "michigan", "MN": "minnesota", "MS": "mississippi", "MO": "missouri", "MT": "montana",
    "NE": "nebraska", "NV": "nevada", "NH": "new hampshire", "NJ": "new jersey", "NM": "new mexico",
    "NY": "new york", "NC": "north carolina", "ND": "north dakota", "OH": "ohio", "OK": "oklahoma",
    "OR": "oregon", "PA": "pennsylvania", "RI": "rhode island", "SC": "south carolina",
    "SD": "south dakota", "TN": "tennessee", "TX": "texas", "UT": "utah", "VT": "vermont",
    "VA": "virginia", "WA": "washington", "WV": "west virginia", "WI": "wisconsin", "WY": "wyoming",
    "DC": "district of columbia", "US": "united states america", "USA": "united states america",
    "UK": "united kingdom britain", "EU": "european union",
}
_ABBR = regex.compile(r"\b[A-Z]{2,3}\b")


def name_words(text: str) -> frozenset[str]:
    """Lower-cased word forms a text offers as support for names: its words, the same words without
    hyphens (``Wi-Fi`` = ``WiFi``) and their parts of three letters or more ("Kabobs" in
    "Gemüse-Kabobs", "Sonoma" in "Sonoma-Display"), and the names behind abbreviations such as ``CA``."""
    raw = (_WORD_ASCII if text.isascii() else _WORD).findall(text)
    words = set(map(str.lower, raw))
    words |= {_POSSESSIVE.sub("", _ELISION.sub("", w)).lower() for w in words if "'" in w or "’" in w}
    words |= {w.replace("-", "") for w in words if "-" in w}
    words |= {p for w in words if "-" in w for p in w.split("-") if len(p) >= 3}
    # CamelCase keys of structured sources: "OutdoorSeating" offers "outdoor" and "seating"
    for word in _camel_words(text):
        words.update(p.lower() for p in _CAMEL.findall(word))
    for m in _ABBR.finditer(text):
        alias = NAME_ALIASES.get(m.group())
        if alias:
            words.update(alias.split())
    return frozenset(words)


def _camel_words(text: str) -> list[str]:
    """The letter runs of ``text`` that contain a lower-case letter followed by an upper-case one."""
    out: list[str] = []
    end = -1
    for m in _CAMEL_PAIR.finditer(text):
        s = m.start()
        if s < end:
            continue  # another pair inside the run already taken
        before = _LETTERS_BEFORE.match(text, 0, s)
        after = _LETTERS_AFTER.match(text, s)
        assert before is not None and after is not None  # both may match nothing
        end = after.end()
        out.append(text[before.start() : end])
    return out


def word_supported(word: str, words: Collection[str], language: str = "en") -> bool:
    """Whether a name word occurs among ``words`` (lower case), allowing a plural (either way:
    "Greyhound" over "Greyhounds"), hyphens and another form of the same place
    (:func:`hallucheck.text.demonyms.place_forms`).

    A hyphenated word is also supported when its capitalised parts are: "Cajun-inspired" by
    "Cajun", "Texas-Mexico" by "Texas" and "Mexico". In German, where every noun is capitalised,
    the last part of a compound is its head, an ordinary noun ("Sonoma-Laden" says "a Sonoma
    shop"), so the parts before it must be supported and the head need not.
    """
    low = word.lower()
    if _supported(low, words):
        return True
    if any(_supported(form, words) for form in place_forms(low)):
        return True  # "European" over "Europe", "Americans" over "the US"
    if "-" in word:
        split = [p for p in word.split("-") if p]
        if base_language(language) == "de" and len(split) > 1:
            split = split[:-1]
        parts = [p for p in split if p[0].isupper()]
        return bool(parts) and all(_supported(p.lower(), words) for p in parts)
    return False


def _supported(low: str, words: Collection[str]) -> bool:
    if low in words:
        return True
    flat = low.replace("-", "")
    if flat in words:
        return True
    for suffix in ("s", "es", "'s"):
        if flat.endswith(suffix) and flat[: -len(suffix)] in words:
            return True
    return flat + "s" in words or flat + "es" in words
