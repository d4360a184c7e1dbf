"""Citation markers in an answer: where they are and which source ids they name.

RAG prompts ask for many marker styles (``[1]``, ``[1, 2]``, ``[Source 1]``, ``[source:doc_7]``,
``[來源 1]``, ``【文件 2】`` ...). This module finds them all with exact offsets so the citation rules
can check each id and point at a bad marker. It has to be careful: square brackets also hold
markdown links (``[text](url)``), editorial marks (``[sic]``, ``[...]``), check boxes (``[ ]``,
``[x]``) and ordinary bracketed words, none of which are citations.

Rules (documented in docs/detectors-rules.md):

* a bracket (``[]``, full-width ``［］``, ``【】``; or ``()`` when a source word such as "Source"
  opens it) whose whole content is a list of items separated by ``,``/``;``/``、``/``，``/"and";
* an item is an optional source word (Source, Doc, Ref, 來源, 来源, 文件, 上下文, Quelle, ...) with an
  optional ``:``/``#``/``-``, then an id; ``[Source 1-3]`` and ``[1–3]`` are ranges;
* a bare item (no source word) counts when it is a number from 1 to 999, or an id-looking token
  (letters with a digit or ``_``/``-``/``:``/``.``), or exactly one of the ``known_ids`` passed in;
  a bare word such as ``[sic]`` or ``[Note]`` is not a citation unless a source has that id;
* when the sources are named by single letters (``a``, ``b``, ...), every bracketed single letter
  is a citation, so that ``[d]`` over sources a-c is caught as an invalid id instead of read as
  prose;
* a marker wrapped in carets (``^[1]^``, superscript in some markdown dialects) takes the carets
  with it;
* a bracket followed by ``(`` (a markdown link) or ``:`` at line start (a link definition) is not
  a citation.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import NamedTuple

import regex

__all__ = ["CitationMarker", "find_citations", "mask_citations", "source_sections", "strip_citations", "SOURCE_WORDS"]


class CitationMarker(NamedTuple):
    """One citation marker: ``text == answer[start:end]``; ``ids`` as written (prefix removed)."""

    start: int
    end: int
    text: str
    ids: tuple[str, ...]


# Words that announce a source reference inside a marker, in all supported languages.
SOURCE_WORDS: tuple[str, ...] = (
    # English
    "sources", "source", "src", "documents", "document", "docs", "doc", "references", "reference",
    "refs", "ref", "citations", "citation", "cite", "contexts", "context", "passages", "passage",
    "chunks", "chunk", "excerpt", "snippet", "evidence", "result", "item", "id",
    # German
    "quellen", "quelle", "dokumente", "dokument", "kontext", "abschnitt", "beleg", "fundstelle",
    # French
    "références", "référence", "extrait", "texte", "contexte",
    # Chinese (traditional and simplified)
    "來源", "来源", "文件", "文檔", "文档", "資料", "资料", "參考", "参考", "上下文", "段落", "出處",
    "出处", "引用", "文獻", "文献", "片段", "證據", "证据",
)

_WORDS = "|".join(sorted((regex.escape(w) for w in SOURCE_WORDS), key=len, reverse=True))
# "[...]" "［...］" "【...】" with no nested brackets and no line break, at most 80 characters.
_BRACKETS = regex.compile(r"\[([^\[\]\n]{1,80})\]|［([^［］\n]{1,80})］|【([^【】\n]{1,80})】")
# "(Source 1)" "(來源 2)": parentheses only when a source word opens them.
_PARENS = regex.compile(rf"[(（]((?:{_WORDS})\s*[:#：]?\s*[^()（）\n]{{1,60}})[)）]", regex.IGNORECASE)
_SEP = regex.compile(r"\s*(?:[,;，；、]|\band\b|\bund\b|\bet\b|和|及|與|与)\s*", regex.IGNORECASE)
# A source word joined by "-" is a prefix only before a number ("Doc-3"): "doc-a" is an id.
_PREFIX = regex.compile(rf"^(?:{_WORDS})(?=[\s:#：\d]|-\d)\s*[:#：\-]?\s*", regex.IGNORECASE)
_RANGE = regex.compile(r"^(\d{1,3})\s*[-–—~～]\s*(\d{1,3})$")
_NUMBER = regex.compile(r"^\^?(\d{1,3})$")
# An id-looking token: starts with a letter or digit, no spaces, has a digit or a joiner.
_IDLIKE = regex.compile(r"^[\p{L}\p{N}][\p{L}\p{N}_\-:./#]*$")
_NOT_CITATION = frozenset({"sic", "x", "...", "…", "citation needed", "edit", "update", "todo", "note"})
_MAX_RANGE = 20


def _item_ids(item: str, prefixed: bool, known: Collection[str], letters: bool = False) -> list[str] | None:
    """Ids named by one list item, or None when the item is not a citation.

    ``letters``: the sources are named by single letters, so a lone letter is an id.
    """
    item = item.strip()
    if not item:
        return None
    m = _PREFIX.match(item)
    if m and m.end() < len(item):
        item = item[m.end() :].strip()
        prefixed = True
    r = _RANGE.match(item)
    if r:
        a, b = int(r.group(1)), int(r.group(2))
        if 1 <= a <= b and b - a < _MAX_RANGE:
            return [str(i) for i in range(a, b + 1)]
        return None
    n = _NUMBER.match(item)
    if n:
        value = int(n.group(1))
        return [str(value)] if value >= 1 or prefixed else None
    if item.lower() in known or (letters and len(item) == 1 and item.isalpha()):
        return [item]
    if " " in item or not _IDLIKE.match(item) or item.lower() in _NOT_CITATION:
        return None
    if prefixed:
        return [item]
    # A bare token is an id only when it does not read like a word: it has a digit or a joiner.
    if any(ch.isdigit() or ch in "_-:./#" for ch in item) and not item.isdigit():
        return [item]
    return None


def _parse(content: str, known: Collection[str], letters: bool = False) -> tuple[str, ...] | None:
    content = content.strip()
    if not content or content.lower() in _NOT_CITATION:
        return None
    # "[Source 1, 2]": the source word in front applies to every item.
    prefixed = False
    m = _PREFIX.match(content)
    if m and m.end() < len(content) and content.lower() not in known:
        prefixed = True
        content = content[m.end() :]
    if content.strip().lower() in known:
        return (content.strip(),)
    ids: list[str] = []
    for item in _SEP.split(content):
        got = _item_ids(item, prefixed, known, letters)
        if got is None:
            return None
        ids.extend(got)
    return tuple(dict.fromkeys(ids)) or None


def find_citations(text: str, known_ids: Collection[str] = ()) -> list[CitationMarker]:
    """All citation markers in ``text``, in order; ``known_ids`` lets bare words like ``[intro]`` count."""
    known = frozenset(k.lower() for k in known_ids)  # ids match case-insensitively
    letters = any(len(k) == 1 and k.isalpha() for k in known)
    out: list[CitationMarker] = []
    if "[" not in text and "［" not in text and "【" not in text and "(" not in text and "（" not in text:
        return out
    for m in _BRACKETS.finditer(text):
        end = m.end()
        if end < len(text) and text[end] == "(":
            continue  # markdown link [text](url)
        if end < len(text) and text[end] == ":" and (m.start() == 0 or text[m.start() - 1] == "\n"):
            continue  # markdown link definition "[1]: http://..."
        content = m.group(1) or m.group(2) or m.group(3) or ""
        ids = _parse(content, known, letters)
        if ids:
            start = m.start()
            if start > 0 and end < len(text) and text[start - 1] == "^" and text[end] == "^":
                start, end = start - 1, end + 1  # "^[1]^"
            out.append(CitationMarker(start, end, text[start:end], ids))
    if "(" in text or "（" in text:
        for m in _PARENS.finditer(text):
            ids = _parse(m.group(1), known)
            # In parentheses only numbers and known ids count: "(Item three)" is prose.
            if ids and all(i.isdigit() or i.lower() in known for i in ids):
                out.append(CitationMarker(m.start(), m.end(), m.group(), ids))
        out.sort()
    return out


def strip_citations(text: str, markers: list[CitationMarker], offset: int = 0) -> str:
    """``text`` without the markers that fall inside it (``offset`` is where ``text`` starts)."""
    if not markers:
        return text
    parts: list[str] = []
    pos = 0
    for mk in markers:
        a, b = mk.start - offset, mk.end - offset
        if b <= 0 or a >= len(text):
            continue
        a, b = max(a, 0), min(b, len(text))
        parts.append(text[pos:a])
        pos = b
    parts.append(text[pos:])
    return "".join(parts)


def mask_citations(text: str, markers: Sequence[CitationMarker]) -> str:
    """``text`` with every marker replaced by spaces of the same length.

    This is how every detector but the citation rules reads an answer: a marker is a reference,
    not a claim, so its words must not look unsupported (or supported), yet every offset into the
    masked text is an offset into the answer, so spans need no mapping back. Spaces, rather than
    removal, also keep the words on either side of a marker apart for the tokenizers.
    """
    if not markers:
        return text
    chars = list(text)
    for mk in markers:
        chars[mk.start : mk.end] = " " * (mk.end - mk.start)
    return "".join(chars)


# A numbered section inside one source text: "passage 2:", "[3]", "Source 4:", "文件 2：".
_SECTION = regex.compile(
    r"^[ \t]*(?:(?:passage|source|document|doc|context|chunk|excerpt|quelle|dokument|來源|来源|文件|段落|上下文)"
    r"[ \t#]*(\d{1,3})[ \t]*[:：.)]?|[\[【](\d{1,3})[\]】])(?=\s|$)",
    regex.IGNORECASE | regex.MULTILINE,
)


@lru_cache(maxsize=256)
def source_sections(text: str) -> tuple[tuple[str, int, int], ...]:
    """The numbered sections of one source text: ``(number, start, end)`` of each section's body,
    in order. RAG frameworks often pack several passages into one context ("passage 1: ...
    passage 2: ..."), and a citation may name such a section. Cached: RAG logs repeat their
    sources, and scanning a long source for every answer cost more than the rules."""
    heads = list(_SECTION.finditer(text))
    return tuple((m.group(1) or m.group(2), m.end(), heads[k + 1].start() if k + 1 < len(heads) else len(text))
                 for k, m in enumerate(heads))
