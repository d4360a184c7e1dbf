"""Source views and evidence retrieval for the span tagger (no torch; shared by training and inference).

The tagger reads one answer sentence and a few hundred tokens of source. Which source tokens it
sees decides what it can judge, so retrieval matters as much as the encoder: units (sentences of
prose sources, ``key: value`` lines of structured records) are scored against the sentence with an
idf-weighted lemma overlap (BM25-like length damping), and the best are packed into the token
budget in source order. Empty (null) attributes whose key words the sentence uses score high, so
the tagger sees "business parking: null" next to "offers business parking".
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from threading import Lock
from typing import Any

from hallucheck.lru import trim
from hallucheck.models.structured_sources import flatten_structured, readable_key
from hallucheck.models.tagger_polarity import Clause, clauses_of
from hallucheck.text import split_sentences, tokenize
from hallucheck.text.tokens import Token

__all__ = ["Unit", "SourceView", "source_view", "select_units", "number_keys", "unit_clauses_of"]

_MAX_UNIT_CHARS = 600
_NUM_PART = re.compile(r"\d+")


def number_keys(text: str) -> tuple[str, frozenset[int]]:
    """A number token normalised (``1,200`` -> ``1200``) and its integer parts (``21:00`` -> {21, 0})."""
    full = text.replace(",", "").rstrip("%").lower()
    parts = frozenset(int(p) for p in _NUM_PART.findall(text) if len(p) < 16)
    return full, parts


@dataclass
class Unit:
    """One retrievable piece of source: its text, lemmas and tokenizer ids."""

    text: str
    context: int  # index of the context (Source) it came from
    start: int | None  # offsets into that context's text (None for flattened record lines)
    end: int | None
    is_null: bool
    norms: frozenset[str]
    ids: list[int] = field(default_factory=list)
    wp_norms: list[str | None] = field(default_factory=list)  # lemma of the word of each word piece


@dataclass
class SourceView:
    """Everything the tagger needs to know about a set of sources, computed once per source."""

    units: list[Unit]
    norms: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    numbers: frozenset[str]
    number_parts: frozenset[int]
    null_norms: frozenset[str]
    idf: dict[str, float]
    structured: bool
    # the clauses of units, read when a tagger with the polarity input first shows a unit (per language)
    clauses: dict[tuple[int, str], tuple[Clause, ...]] = field(default_factory=dict)


def _prose_units(text: str, ci: int, language: str) -> list[tuple[str, int | None, int | None, bool]]:
    out: list[tuple[str, int | None, int | None, bool]] = []
    for seg in split_sentences(text, language):
        a = seg.start
        while a < seg.end:  # very long "sentences" (tables, lists) are cut into pieces
            b = min(seg.end, a + _MAX_UNIT_CHARS)
            if b < seg.end:
                cut = text.rfind(" ", a + _MAX_UNIT_CHARS // 2, b)
                b = cut if cut > a else b
            piece = text[a:b]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                out.append((piece.strip(), a + lead, a + lead + len(piece.strip()), False))
            a = b
    return out


def _structured_units(text: str, language: str) -> list[tuple[str, int | None, int | None, bool]] | None:
    lines = flatten_structured(text)
    if lines is None:
        return None
    out: list[tuple[str, int | None, int | None, bool]] = []
    for line in lines:
        if len(line.text) <= _MAX_UNIT_CHARS and "\n" not in line.text:
            out.append((line.text, None, None, line.is_null))
            continue
        head = readable_key(line.key) + ": " if line.key != "text" else ""
        body = line.text[len(head) :] if head and line.text.startswith(head) else line.text
        for piece, _, _, _ in _prose_units(body, 0, language):
            out.append((head + piece, None, None, False))
    return out


def _build(texts: tuple[str, ...], language: str, tokenizer: Any) -> SourceView:
    raw: list[tuple[str, int, int | None, int | None, bool]] = []
    structured = False
    for ci, text in enumerate(texts):
        units = _structured_units(text, language)
        if units is not None:
            structured = True
        else:
            units = _prose_units(text, ci, language)
        raw.extend((t, ci, s, e, n) for t, s, e, n in units)
    all_norms: set[str] = set()
    bigrams: set[tuple[str, str]] = set()
    numbers: set[str] = set()
    parts: set[int] = set()
    null_norms: set[str] = set()
    df: dict[str, int] = {}
    units_out: list[Unit] = []
    toks_per_unit: list[list[Token]] = []
    for text, ci, s, e, is_null in raw:
        toks = tokenize(text, language)
        toks_per_unit.append(toks)
        norms = frozenset(t.norm for t in toks if not t.is_punct)
        all_norms |= norms
        for n in norms:
            df[n] = df.get(n, 0) + 1
        content = [t.norm for t in toks if not t.is_punct and not t.is_stop]
        bigrams.update(zip(content, content[1:]))
        for t in toks:
            if t.is_number:
                full, p = number_keys(t.text)
                numbers.add(full)
                parts |= p
        if is_null:
            key = text.rsplit(":", 1)[0]
            null_norms.update(t.norm for t in tokenize(key, language) if not t.is_punct and not t.is_stop)
        units_out.append(Unit(text, ci, s, e, is_null, norms))
    if tokenizer is not None and units_out:
        encs = tokenizer.encode_batch([u.text for u in units_out], add_special_tokens=False)
        for u, enc, toks in zip(units_out, encs, toks_per_unit):
            u.ids = list(enc.ids)
            u.wp_norms = norms_for_offsets(enc.offsets, toks)
    n_units = max(len(units_out), 1)
    idf = {k: math.log(1.0 + (n_units - v + 0.5) / (v + 0.5)) for k, v in df.items()}
    return SourceView(
        units_out,
        frozenset(all_norms),
        frozenset(bigrams),
        frozenset(numbers),
        frozenset(parts),
        frozenset(null_norms),
        idf,
        structured,
    )


def unit_clauses_of(view: SourceView, unit: int, language: str) -> tuple[Clause, ...]:
    """The clauses of ``view.units[unit]`` (offsets into its text), computed once per view.

    Read lazily: only the units a window shows need them, and only a tagger with the
    ``polarity_clash`` input asks (a race of two threads computes the same value twice).
    """
    key = (unit, language)
    hit = view.clauses.get(key)
    if hit is None:
        hit = clauses_of(tokenize(view.units[unit].text, language), language)
        view.clauses[key] = hit
    return hit


def norms_for_offsets(offsets: list[tuple[int, int]], toks: list[Token]) -> list[str | None]:
    """For each word piece (by character offsets), the lemma of the word token containing it."""
    out: list[str | None] = []
    j = 0
    for s, _e in offsets:
        while j < len(toks) and toks[j].end <= s:
            j += 1
        if j < len(toks) and toks[j].start <= s < toks[j].end:
            out.append(toks[j].norm)
        else:
            out.append(None)
    return out


_CACHE: OrderedDict[tuple[Any, ...], SourceView] = OrderedDict()
_LOCK = Lock()
# The source characters the cached views cover in all: a view keeps about 45 bytes per
# character (units, their lemmas and bigrams, the idf table; bench/memory_parts.py), so 64 cases
# with long sources could hold hundreds of MB; 300,000 characters are about 13 MB.
_CACHE_CHARS = 300_000


def source_view(texts: tuple[str, ...], language: str, tokenizer: Any, cache_size: int = 64) -> SourceView:
    """The (LRU-cached) view of ``texts``; a RAG log repeats the same sources for many answers.

    At most ``cache_size`` views and ``_CACHE_CHARS`` source characters are kept; the newest
    view always stays, whatever its length.
    """
    key = (texts, language, id(tokenizer))
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    view = _build(texts, language, tokenizer)
    with _LOCK:
        _CACHE[key] = view
        trim(_CACHE, cache_size, _CACHE_CHARS, lambda k: sum(map(len, k[0])))
    return view


def _ranked(view: SourceView, target: frozenset[str], context: frozenset[str], avg: float) -> list[tuple[float, int]]:
    scored: list[tuple[float, int]] = []
    for i, u in enumerate(view.units):
        # fsum: the sum of a set's values must not depend on the set's (hash-seeded) order, or
        # near ties would pick different evidence from one process to the next.
        hit = math.fsum(view.idf.get(n, 0.0) for n in target & u.norms)
        hit += 0.3 * math.fsum(view.idf.get(n, 0.0) for n in (context - target) & u.norms)
        if u.is_null and hit > 0:
            hit *= 1.5
        damp = math.sqrt(0.25 + 0.75 * len(u.norms) / avg)
        scored.append((hit / damp, i))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return scored


def select_units(
    view: SourceView,
    targets: list[frozenset[str]],
    context: frozenset[str],
    budget: int,
    max_unit_tokens: int = 96,
) -> list[int]:
    """Indices (in source order) of the best units for some sentences, packed into ``budget`` word pieces.

    ``targets`` are the content lemmas of each sentence in the window, ``context`` those of the
    question and the previous sentence (weighted lower). Sentences take turns picking their next
    best unit, so every sentence of a window gets its own evidence; units sharing nothing with any
    sentence still fill left-over budget in source order, so short sources are always seen whole.
    """
    if not view.units or budget <= 0 or not targets:
        return []
    avg = sum(len(u.norms) for u in view.units) / len(view.units) or 1.0
    ranked = [_ranked(view, t, context, avg) for t in targets]
    chosen: set[int] = set()
    used = 0
    pos = [0] * len(ranked)
    active = True
    while active and used < budget - 4:
        active = False
        for k, lst in enumerate(ranked):
            while pos[k] < len(lst):
                _, i = lst[pos[k]]
                pos[k] += 1
                if i in chosen:
                    continue
                cost = min(len(view.units[i].ids), max_unit_tokens) + 1
                if used + cost > budget:
                    continue
                chosen.add(i)
                used += cost
                active = True
                break
    return sorted(chosen)
