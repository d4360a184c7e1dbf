"""Sentence splitting that keeps exact offsets.

Ends are ``. ! ?`` (Latin) and ``。！？`` (CJK). A Latin stop ends a sentence only when white space
follows and the word before it is not an abbreviation, an initial or a list number; decimals
(``3.5``) never split. Every line break ends a sentence (answers use lines for lists and
headings). Citation markers right after an end (``... done. [1] Next``) stay with the sentence
they cite, which is what the citation rules need.
"""

from __future__ import annotations

import re

import regex

from hallucheck.text.segments import Segment

__all__ = ["split_sentences", "ABBREVIATIONS"]

ABBREVIATIONS: frozenset[str] = frozenset(
    {
        # English
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "inc", "ltd",
        "co", "corp", "no", "nos", "fig", "approx", "dept", "est", "jan", "feb", "mar", "apr", "jun",
        "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mt", "ft", "gen", "gov", "sen", "rep",
        "u.s", "u.k", "a.m", "p.m", "vol", "p", "pp", "al", "cf", "ca", "min", "max", "avg",
        # German
        "z.b", "bzw", "usw", "nr", "str", "u.a", "d.h", "ggf", "vgl", "evtl", "inkl", "zzgl", "bspw",
        "hr", "fr", "abs", "s", "tel",
        # French
        "m", "mme", "mlle", "mm", "p.ex", "env", "n°", "av", "bd", "j.-c",
    }
)

_CJK_END = "。！？!?"
_CLOSERS = "\"'”’」』）)]》】"
_CITATION_TAIL = regex.compile(r"(?:\s*(?:\^?\[[^\[\]\n]{1,40}\]\^?|【[^【】\n]{1,40}】|［[^［］\n]{1,40}］))+")
_MARKER_OPEN = "[【［"  # what may follow a stop directly: a citation marker ("done.【1】"; also "done.^[1]^")
_LATIN_END = regex.compile(r"[.!?…]+")
_INITIALISM = regex.compile(r"(?:\p{L}\.)+\p{L}")
_CANDIDATE = regex.compile(r"[。！？.!?…]")
# The same three patterns for pure ASCII lines, on the faster standard ``re`` engine (regex's
# ``\s`` is tab, line feed, vertical tab, form feed, carriage return and space on ASCII; ``re``'s
# would also take \x1c-\x1f, so the class is spelled out).
_CANDIDATE_ASCII = re.compile(r"[.!?]")
_LATIN_END_ASCII = re.compile(r"[.!?]+")
_CITATION_TAIL_ASCII = re.compile(r"(?:[\t\n\x0b\x0c\r ]*\^?\[[^\[\]\n]{1,40}\]\^?)+")
# How far back to look for the word before a full stop: enough for any abbreviation, and it keeps
# the search from rescanning the whole line at every full stop (quadratic on long paragraphs).
_WORD_WINDOW = 48


def _is_abbreviation(line: str, dot: int, sentence_start: int) -> bool:
    """Whether the ``.`` at ``dot`` belongs to an abbreviation, an initial or a list number."""
    # Walk back over the word before the dot (letters, digits, "." "°" "-"), at most a window.
    lo = max(0, dot - _WORD_WINDOW)
    begin = dot
    while begin > lo and (line[begin - 1].isalnum() or line[begin - 1] in ".°-"):
        begin -= 1
    if begin == dot:
        return False
    word = line[begin:dot].lower().strip(".")
    if not word:
        return False
    if word in ABBREVIATIONS:
        return True
    if len(word) == 1 and word.isalpha():
        return True  # an initial: "J. Smith"
    # A list number opening a sentence: "1. First item"
    if word.isdigit() and len(word) <= 2 and not line[sentence_start:begin].strip():
        return True
    # Dotted initialisms: "U.S.A." "e.g." (a word without an inner dot is none: no regex then)
    return "." in word and bool(_INITIALISM.fullmatch(word))


def _line_sentences(line: str, offset: int, out: list[Segment]) -> None:
    if line.isascii():
        candidate, latin_end, citation_tail = _CANDIDATE_ASCII, _LATIN_END_ASCII, _CITATION_TAIL_ASCII
    else:
        candidate, latin_end, citation_tail = _CANDIDATE, _LATIN_END, _CITATION_TAIL
    start = 0
    i = 0
    n = len(line)
    while i < n:
        # Jump straight to the next character that can end a sentence (most characters cannot).
        cand = candidate.search(line, i)
        if cand is None:
            break
        i = cand.start()
        ch = line[i]
        end = -1
        if ch in "。！？" or (ch in "!?" and i + 1 < n and line[i + 1] in "。！？"):
            end = i + 1
            while end < n and line[end] in _CJK_END:
                end += 1
        elif ch in ".!?…":
            m = latin_end.match(line, i)
            assert m is not None
            stop = m.end()
            j = stop
            while j < n and line[j] in _CLOSERS:
                j += 1
            # A stop must be followed by white space (or a citation, or the end of the line): that
            # cheap test first, so that decimals, times and URLs ("3.5", "1.2.3") skip the
            # abbreviation check, which walks back over the word before the dot.
            if j < n and not line[j].isspace() and line[j] not in _MARKER_OPEN and not line.startswith("^[", j):
                i = stop
                continue
            if ch == "." and stop - i == 1 and _is_abbreviation(line, i, start):
                i = stop
                continue
            end = j
        if end < 0:
            i += 1
            continue
        while end < n and line[end] in _CLOSERS:
            end += 1
        tail = citation_tail.match(line, end)
        if tail:
            end = tail.end()
        # A Latin stop followed by a lowercase word is most likely not a sentence end.
        k = end
        while k < n and line[k].isspace():
            k += 1
        if ch in ".…" and k < n and line[k].islower() and not _is_cjk(line[k]):
            i = end
            continue
        _emit(line, start, end, offset, out)
        start = end
        i = end
    _emit(line, start, n, offset, out)


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x3000 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF


def _emit(line: str, a: int, b: int, offset: int, out: list[Segment]) -> None:
    chunk = line[a:b]
    stripped = chunk.strip()
    if not stripped:
        return
    lead = len(chunk) - len(chunk.lstrip())
    s = offset + a + lead
    out.append(Segment(s, s + len(stripped), stripped))


def split_sentences(text: str, language: str | None = None) -> list[Segment]:
    """Split ``text`` into sentences; each Segment's offsets index ``text`` exactly."""
    del language  # the rules above cover all supported languages at once
    out: list[Segment] = []
    pos = 0
    for line in text.split("\n"):
        _line_sentences(line, pos, out)
        pos += len(line) + 1
    return out
