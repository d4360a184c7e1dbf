"""Correct citation markers added to an answer, to check that they never count against it.

A marker such as ``[1]`` or ``[來源 POL-1]`` is a reference, not a claim. Every detector but the
citation rules reads the answer with markers masked, so the verdict on an answer must be the same
with or without correct markers. :func:`cite_case` makes the pair to compare: the case with its
sources named the way a marker style expects (``FAQ-001``, ``doc-a``, ``a`` ...) and no markers in
the answer, and the same case with a correct marker on every sentence, in that style.

"Correct" means the marker names a source that exists and, among the sources, the one that shares
the most words with the sentence. Placement varies as it does in real answers: before the final
stop (``退款[1]。``), after it (``refund. [1]``) or glued to it (``refund.[1]``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from hallucheck.text import split_sentences
from hallucheck.types import Case, Source

__all__ = ["MARKER_STYLES", "PLACEMENTS", "CitedPair", "cite_case"]

# style -> (source id for the i-th source (0-based), marker text for the chosen 0-based indices)
_Ids = Callable[[int], str]
_Marker = Callable[[Sequence[int], _Ids], str]


def _one(fmt: str) -> _Marker:
    return lambda idx, name: fmt.format(name(idx[0]))


def _numbered(i: int) -> str:
    return str(i + 1)


def _list(idx: Sequence[int], name: _Ids) -> str:
    return "[" + ", ".join(name(i) for i in sorted(idx)) + "]"


def _range(idx: Sequence[int], name: _Ids) -> str:
    lo, hi = min(idx), max(idx)
    return f"[{name(lo)}-{name(hi)}]" if hi > lo else f"[{name(lo)}]"


MARKER_STYLES: dict[str, tuple[_Ids, _Marker]] = {
    "brackets": (_numbered, _one("[{}]")),
    "lenticular": (_numbered, _one("【{}】")),
    "caret": (_numbered, _one("^[{}]^")),
    "source": (_numbered, _one("[Source {}]")),
    "laiyuan": (_numbered, _one("[來源 {}]")),
    "list": (_numbered, _list),
    "range": (_numbered, _range),
    "faq": (lambda i: f"FAQ-{i + 1:03d}", _one("[{}]")),
    "doc": (lambda i: f"doc-{chr(ord('a') + i)}", _one("[source:{}]")),
    "letter": (lambda i: chr(ord("a") + i), _one("[{}]")),
    "policy": (lambda i: f"POL-{i + 1}", _one("[來源 {}]")),
}
PLACEMENTS: tuple[str, ...] = ("before_stop", "after_stop", "glued")

_WORD = regex.compile(r"\p{Han}|[\p{L}\p{N}]+")
_STOP = "。！？.!?…"


@dataclass(frozen=True)
class CitedPair:
    """The same case without and with correct markers (``markers`` as inserted, in order)."""

    plain: Case
    cited: Case
    markers: tuple[str, ...]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _ranked_sources(sentence: str, sources: Sequence[set[str]]) -> list[int]:
    """Source indices, the one sharing most words with ``sentence`` first (ties: earlier first)."""
    words = _words(sentence)
    return sorted(range(len(sources)), key=lambda i: (-len(words & sources[i]), i))


def _split_sources(case: Case, parts: int) -> list[str]:
    """The case's source texts; a single source is cut at line breaks into up to ``parts``
    pieces of similar size, so that styles naming several sources have several to name."""
    texts = [s.text for s in case.contexts]
    if len(texts) != 1 or parts < 2:
        return texts
    lines = texts[0].split("\n")
    if len(lines) < parts:
        return texts
    size = max(1, len(lines) // parts)
    chunks = ["\n".join(lines[k : k + size]) for k in range(0, len(lines), size)]
    if len(chunks) > parts:
        chunks[parts - 1 :] = ["\n".join(chunks[parts - 1 :])]
    return [c for c in chunks if c.strip()] or texts


def cite_case(case: Case, style: str = "brackets", placement: str = "before_stop") -> CitedPair:
    """``case`` without markers and with a correct ``style`` marker on every sentence.

    Markers already in the answer are removed first (both versions then differ by the added
    markers only). Multi-source styles (``list``, ``range``) cut a single source into pieces.
    """
    if style not in MARKER_STYLES:
        raise ValueError(f"unknown marker style {style!r}; choose one of {', '.join(MARKER_STYLES)}")
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown placement {placement!r}; choose one of {', '.join(PLACEMENTS)}")
    name, marker = MARKER_STYLES[style]
    texts = _split_sources(case, 3 if style in ("list", "range") else 1)
    contexts = [Source(id=name(i), text=t) for i, t in enumerate(texts)]
    from hallucheck.analysis import CaseAnalysis  # lazy: loaded only on this path

    answer = CaseAnalysis(case).plain_answer()
    plain = case.model_copy(update={"contexts": contexts, "answer": answer})
    words = [_words(t) for t in texts]
    parts: list[str] = []
    added: list[str] = []
    pos = 0
    for seg in split_sentences(answer):
        if not any(ch.isalnum() for ch in seg.text):
            continue
        ranked = _ranked_sources(seg.text, words)
        chosen = ranked[:2] if style in ("list", "range") and len(ranked) > 1 else ranked[:1]
        mk = marker(chosen, name)
        stop = seg.end
        while stop > seg.start and answer[stop - 1] in _STOP:
            stop -= 1
        if placement == "before_stop" or stop == seg.end:
            at, text = stop, mk
        else:
            at, text = seg.end, (" " + mk if placement == "after_stop" else mk)
        parts.append(answer[pos:at])
        parts.append(text)
        pos = at
        added.append(mk)
    parts.append(answer[pos:])
    cited = plain.model_copy(update={"answer": "".join(parts)})
    return CitedPair(plain, cited, tuple(added))
