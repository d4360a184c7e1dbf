"""Whether a name written in Latin letters and a Chinese transliteration are the same name, by sound.

Why: a Chinese text gives a foreign name as a transliteration (奈杰尔·法拉奇, 皮尼拉斯), and an answer
over it often keeps the original spelling (Nigel Farage, Pinellas), or the reverse: a Chinese
answer over English sources writes 瑞恩·高斯林 for Ryan Gosling. The name rule compares names by
their letters, so it read each of these as a name the sources lack, and the verifier cannot tell
them apart either: over "电影由瑞恩·高斯林主演" it reads "电影由 Tom Cruise 主演" as entailed as
readily as "电影由 Ryan Gosling 主演".

How: both spellings become a *sound key*, the sequence of their consonant classes (vowels, h and
y left out): b/p, d/t, g/k/q, f/v/w, l/r, m, n, and the sibilants s/z/sh/ch/j/x together, as
transliteration merges them. A Chinese character is read by its toneless pinyin
(``hallucheck/data/pinyin.txt``, built by :mod:`hallucheck.train.pinyin_table`); an English r after
a vowel and before a consonant or at the end is silent (Ford → 福特), and 尔 (er) may stand for a
final l or r or for nothing. Two keys match when they begin alike and their edit distance is
small for their length (none up to three classes, one up to six, two beyond). A name matches a
text when each of its words of three classes or more (there must be one) matches a stretch of the
characters transliterations are written with there (or, the other way round, a Latin word).

What it does not do: prove that two names are the same; it finds whether the sources hold a name
that sounds like it, which is what tells a name written another way from a made-up one
(汤姆·克鲁斯 does not sound like Ryan Gosling). A name translated by meaning (Tory → 保守党) is
not found.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from importlib.resources import files

import regex

from hallucheck.text.entities import TRANSLITERATION_CHARS

__all__ = ["han_key", "han_name_in_han", "han_name_in_latin", "keys_match", "latin_key", "latin_name_in_han"]

_VOWELS = frozenset("aeiouy")
# Words of fewer sound classes (Tom, Ford, 汤姆) are not compared: a two-class key is found in
# almost any Chinese text that names a few people.
_COMPARED = 3
_LATIN_CLASS = {"b": "P", "p": "P", "d": "T", "t": "T", "k": "K", "q": "K", "f": "F", "v": "F", "w": "F",
                "l": "L", "r": "L", "m": "M", "n": "N", "s": "S", "z": "S", "j": "S"}
_LATIN_PAIRS = {"sh": "S", "ch": "S", "zh": "S", "ts": "S", "tz": "S", "cz": "S", "sz": "S", "ph": "F", "th": "T",
                "ck": "K", "kh": "K", "qu": "K", "ng": "N", "gh": ""}
# pinyin initials, longest first
_PINYIN_INITIALS = (("zh", "S"), ("ch", "S"), ("sh", "S"), ("b", "P"), ("p", "P"), ("d", "T"), ("t", "T"), ("g", "K"),
                    ("k", "K"), ("f", "F"), ("w", "F"), ("l", "L"), ("r", "L"), ("m", "M"), ("n", "N"), ("z", "S"),
                    ("c", "S"), ("s", "S"), ("j", "S"), ("q", "S"), ("x", "S"), ("y", ""))
_LATIN_WORD = regex.compile(r"[\p{Latin}]+")
_NAME_CHARS = "".join(sorted(TRANSLITERATION_CHARS | {"尔", "爾"}))
# a stretch of the characters that transliterations are written with (hallucheck.text.entities):
# other characters are read by sense, and a sound key of ordinary text matches almost any name
_HAN_NAME_CHARS = regex.compile(f"[{regex.escape(_NAME_CHARS)}·・‧•-]+")
_DOTTED = regex.compile(r"\p{Han}{1,4}(?:[·・‧•]\p{Han}{1,5})+")


@lru_cache(maxsize=1)
def _readings() -> dict[str, str]:
    table: dict[str, str] = {}
    text = (files("hallucheck") / "data" / "pinyin.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        syllable, _, chars = line.partition("\t")
        for ch in chars:
            table[ch] = syllable
    return table


@lru_cache(maxsize=4096)
def latin_key(word: str) -> str:
    """The sound key of one Latin-script word (``Farage`` → ``FLS``)."""
    w = "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if c.isascii() and c.isalpha())
    out: list[str] = []
    vowel_since = True  # a vowel since the last class: "dt" in Schmidt is one sound, "d-t" in Edith two

    def add(cls: str) -> None:
        nonlocal vowel_since
        for c in cls:
            if vowel_since or not out or out[-1] != c:
                out.append(c)
            vowel_since = False

    i = 0
    while i < len(w):
        c, nxt = w[i], w[i + 1 : i + 2]
        if w.startswith("sch", i):
            add("S")
            i += 3
            continue
        if w.startswith(("chr", "chl"), i):
            add("K")  # Christine, Chloe
            i += 2
            continue
        pair = w[i : i + 2]
        if pair in _LATIN_PAIRS:
            add(_LATIN_PAIRS[pair])
            i += 2
            continue
        if c in _VOWELS:
            vowel_since = True
            i += 1
            continue
        if c == "h":
            i += 1
            continue
        if c == "r" and i and w[i - 1] in _VOWELS and (not nxt or nxt not in _VOWELS):
            i += 1  # silent r: Ford, Gordon
            continue
        if c in "cg":
            add("S" if nxt and nxt in "eiy" else "K")
        elif c == "x":
            add("KS")
        else:
            add(_LATIN_CLASS.get(c, ""))
        i += 1
    return "".join(out)


def _syllable_key(syllable: str) -> str:
    if syllable == "er":
        return "L"
    head, rest = "", syllable
    for initial, cls in _PINYIN_INITIALS:
        if syllable.startswith(initial):
            head, rest = cls, syllable[len(initial):]
            break
    else:
        if syllable.startswith("hu") and len(syllable) > 2:
            head, rest = "F", syllable[2:]  # 华 hua, 霍 huo: a w sound
        elif syllable.startswith("h"):
            rest = syllable[1:]
    tail = "N" if rest.endswith(("n", "ng")) else ""
    return head + tail


def han_key(text: str) -> str:
    """The sound key of Han characters (``法拉奇`` → ``FLS``); characters without a reading are left out."""
    readings = _readings()
    return "".join(_syllable_key(readings[c]) for c in text if c in readings)


def keys_match(a: str, b: str) -> bool:
    """Whether two sound keys are close enough for their length (see the module doc)."""
    n = max(len(a), len(b))
    if min(len(a), len(b)) < 2 or a[0] != b[0]:
        return False
    allowed = 0 if n <= 3 else 1 if n <= 6 else 2
    return _distance(a, b, allowed) <= allowed


def _distance(a: str, b: str, cap: int) -> int:
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _han_stretch_keys(text: str) -> Iterator[str]:
    """The keys of every stretch of up to eight name characters of ``text``, and of any Han
    characters next to a name's dot (瑞恩·高斯林: 高 is no usual sound character, but the dot says
    a name is there). Dots and hyphens split names into parts; a part is also read with a final
    尔 left out."""
    runs = [m.group() for m in _HAN_NAME_CHARS.finditer(text)] + [m.group() for m in _DOTTED.finditer(text)]
    for run in runs:
        for part in regex.split(r"[·・‧•-]", run):
            for i in range(len(part)):
                for j in range(i + 1, min(len(part), i + 8) + 1):
                    piece = part[i:j]
                    yield han_key(piece)
                    if piece.endswith("尔") and len(piece) > 1:
                        yield han_key(piece[:-1])


@lru_cache(maxsize=256)
def _source_han_keys(text: str) -> frozenset[str]:
    return frozenset(k for k in _han_stretch_keys(text) if len(k) >= 2)


@lru_cache(maxsize=256)
def _source_han_run_keys(text: str) -> frozenset[str]:
    """The keys of the whole runs of transliteration characters of ``text`` (split at dots and
    hyphens), each also with a final 尔 left out."""
    keys: set[str] = set()
    for m in _HAN_NAME_CHARS.finditer(text):
        for part in regex.split(r"[·・‧•-]", m.group()):
            if len(part) >= 2:
                keys.add(han_key(part))
                if part.endswith(("尔", "爾")):
                    keys.add(han_key(part[:-1]))
    return frozenset(keys)


def _found(keys: list[str], there: frozenset[str]) -> bool:
    return bool(keys) and all(k in there or any(keys_match(k, h) for h in there if abs(len(h) - len(k)) <= 2) for k in keys)


def latin_name_in_han(name: str, text: str) -> bool:
    """Whether each word of the Latin-script ``name`` (of three sound classes or more) sounds like a
    stretch of Han characters in ``text``; False when no word can be compared.

    A name whose words all have two sound classes (Joko, Collier, Aguero) is compared more strictly:
    each must have the very key of a whole run of transliteration characters there (佐科, 科利尔
    with its final 尔 left out, 阿奎罗), not of a stretch inside one, which almost any Chinese text
    that names a few people would offer."""
    all_keys = [latin_key(w) for w in _LATIN_WORD.findall(name)]
    keys = [k for k in all_keys if len(k) >= _COMPARED]
    if keys:
        return _found(keys, _source_han_keys(text))
    short = [k for k in all_keys if len(k) == _COMPARED - 1]  # words of one class ("al" of al-Assad) say nothing
    return bool(short) and all(k in _source_han_run_keys(text) for k in short)


def han_name_in_han(name: str, text: str) -> bool:
    """Whether each part of the transliterated ``name`` (亨瑞克·史坦森) sounds like a stretch of Han
    characters in ``text`` (亨利克·斯滕森: two translators, two spellings); False when no part can be
    compared."""
    keys = [k for k in (han_key(p) for p in regex.split(r"[·・‧•-]", name) if p) if len(k) >= _COMPARED]
    return _found(keys, _source_han_keys(text))


def han_name_in_latin(name: str, text: str) -> bool:
    """Whether each part of the transliterated ``name`` (瑞恩·高斯林) sounds like a Latin-script word
    of ``text``, or two words side by side; False when no part can be compared."""
    parts = [p for p in regex.split(r"[·・‧•-]", name) if p]
    keys = [k for k in (han_key(p) for p in parts) if len(k) >= _COMPARED]
    if not keys:
        return False
    words = [latin_key(w) for w in _LATIN_WORD.findall(text)]
    there = {k for k in words if len(k) >= 2} | {a + b for a, b in zip(words, words[1:]) if len(a + b) >= 2}
    return all(any(keys_match(k, w) or (k.endswith("L") and keys_match(k[:-1], w)) for w in there) for k in keys)
