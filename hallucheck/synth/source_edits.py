"""Edits of the source sentence an answer sentence restates: the evidence changes, the answer need not.

Why: the answer-side contradiction edits (:mod:`hallucheck.synth.contradict`) put a word into
the answer that its writer never chose ("was" -> "was not", "increased" -> "decreased"). A tagger
trained on them can learn that such a word is wrong wherever it stands, without reading the
sources, and then marks the faithful negations of real answers: the English tagger gave "is not"
and "cannot" in answers labelled clean a contradiction probability of 0.95 and more. Editing the
source sentence instead gives two kinds of training case that only the evidence can tell apart:

- ``source_negation`` / ``source_antonym``: the answer as written, over a source sentence whose
  auxiliary is negated (or whose negation is removed) or whose word is replaced by its opposite.
  The answer's matching words now contradict the source: a ``contradiction`` span of type
  ``conflict`` on them;
- ``twin_negation`` / ``twin_antonym``: the same change made in the answer sentence and in the
  source sentence it restates. The answer gains a negation or an opposite word and stays
  faithful: no span.

A source sentence is the one an answer sentence restates when it holds at least
:data:`MIN_SHARED` of the answer sentence's content lemmas and at least half of them; the change
is made only where both sentences hold the same word (and, for a negation, the same auxiliary
before the same next word), so the label follows from the edit.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import regex

from hallucheck.synth.contradict import ANTONYMS, antonym_words, case_like
from hallucheck.synth.lexicon import NEGATABLE
from hallucheck.text.sentences import split_sentences
from hallucheck.text.tokens import tokenize

__all__ = ["MIN_SHARED", "SOURCE_EDIT_KINDS", "SourceEdit", "source_edits", "source_edit_records"]

SOURCE_EDIT_KINDS: tuple[str, ...] = ("source_negation", "source_antonym", "twin_negation", "twin_antonym")
# Content lemmas an answer sentence must share with a source sentence to count as restating it.
MIN_SHARED = 3
GENERATOR = "hallucheck.synth.source_edits/1"

_AUX = "|".join(NEGATABLE["en"])
# "was founded" (no negation after the auxiliary) and "was not founded" / "cannot find".
_AUX_POS = regex.compile(rf"\b({_AUX})\s+(?!not\b|never\b)(\p{{L}}[\p{{L}}'-]*)", regex.IGNORECASE)
_AUX_NEG = regex.compile(rf"\b(?:({_AUX})\s+not|(can)not|({_AUX})n't)\s+(\p{{L}}[\p{{L}}'-]*)", regex.IGNORECASE)


@dataclass(frozen=True)
class SourceEdit:
    """One edit: the new answer and source texts, the answer's labelled span (None when faithful),
    and the answer's words the change concerns (a twin edit's new words; measured, not labelled)."""

    kind: str
    answer: str
    context_index: int
    context: str
    span: tuple[int, int] | None
    changed: tuple[int, int]


@dataclass(frozen=True)
class _Sentence:
    start: int
    end: int
    text: str
    lemmas: frozenset[str]


def _sentences(text: str) -> list[_Sentence]:
    out = []
    for seg in split_sentences(text, "en"):
        lemmas = frozenset(t.norm for t in tokenize(seg.text, "en") if not t.is_stop and not t.is_punct and not t.is_number)
        out.append(_Sentence(seg.start, seg.end, seg.text, lemmas))
    return out


def _restated_pairs(answer: str, contexts: list[str]) -> list[tuple[_Sentence, int, _Sentence]]:
    """Each answer sentence with the source sentence (context index, sentence) it restates best."""
    sources = [(k, s) for k, text in enumerate(contexts) for s in _sentences(text)]
    pairs = []
    for a in _sentences(answer):
        if len(a.lemmas) < MIN_SHARED:
            continue
        best = max(sources, key=lambda ks: len(a.lemmas & ks[1].lemmas), default=None)
        if best is None:
            continue
        shared = len(a.lemmas & best[1].lemmas)
        if shared >= MIN_SHARED and 2 * shared >= len(a.lemmas):
            pairs.append((a, best[0], best[1]))
    return pairs


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _negated(aux: str) -> str:
    return case_like("cannot", aux) if aux.lower() == "can" else f"{aux} not"


def _aux_of(m: regex.Match[str]) -> str:
    """The auxiliary of a negated-auxiliary match ("was not", "cannot", "wasn't")."""
    return str(m.group(1) or m.group(2) or m.group(3))


def _antonym_edits(answer: str, contexts: list[str], a: _Sentence, k: int, s: _Sentence) -> Iterator[SourceEdit]:
    for m in antonym_words(a.text):
        word = m.group().lower()
        t = regex.search(rf"\b{regex.escape(word)}\b", s.text, regex.IGNORECASE)
        if t is None:
            continue
        src_start, src_end = s.start + t.start(), s.start + t.end()
        context = _replace(contexts[k], src_start, src_end, case_like(ANTONYMS[word], t.group()))
        ans_start, ans_end = a.start + m.start(), a.start + m.end()
        yield SourceEdit("source_antonym", answer, k, context, (ans_start, ans_end), (ans_start, ans_end))
        new = case_like(ANTONYMS[word], m.group())
        changed = (ans_start, ans_start + len(new))
        yield SourceEdit("twin_antonym", _replace(answer, ans_start, ans_end, new), k, context, None, changed)


def _negation_edits(answer: str, contexts: list[str], a: _Sentence, k: int, s: _Sentence) -> Iterator[SourceEdit]:
    # The source's positive "aux X": negate it; the answer's "X" (with its auxiliary when it has the same) is contradicted.
    for t in _AUX_POS.finditer(s.text):
        aux, verb = t.group(1), t.group(2).lower()
        same = regex.search(rf"\b({regex.escape(aux)})\s+({regex.escape(verb)})\b", a.text, regex.IGNORECASE)
        if same is not None:
            context = _replace(contexts[k], s.start + t.start(1), s.start + t.end(1), _negated(aux))
            ans = (a.start + same.start(), a.start + same.end())
            yield SourceEdit("source_negation", answer, k, context, ans, ans)
            negated = _negated(same.group(1))
            twin = _replace(answer, a.start + same.start(1), a.start + same.end(1), negated)
            changed = (ans[0], ans[1] + len(negated) - len(same.group(1)))
            yield SourceEdit("twin_negation", twin, k, context, None, changed)
    # The source's "aux not X" restated with the same negation: remove it from the source, and from both.
    for t in _AUX_NEG.finditer(s.text):
        aux, verb = _aux_of(t), t.group(4).lower()
        same = next((m for m in _AUX_NEG.finditer(a.text)
                     if m.group(4).lower() == verb and _aux_of(m).lower() == aux.lower()), None)
        if same is None:
            continue
        context = _replace(contexts[k], s.start + t.start(), s.start + t.start(4), aux + " ")
        ans = (a.start + same.start(), a.start + same.end(4))
        yield SourceEdit("source_negation", answer, k, context, ans, ans)
        kept = _aux_of(same) + " "
        twin = _replace(answer, a.start + same.start(), a.start + same.start(4), kept)
        yield SourceEdit("twin_negation", twin, k, context, None, (ans[0], ans[0] + len(kept) + len(same.group(4))))


def source_edits(answer: str, contexts: list[str]) -> list[SourceEdit]:
    """Every source-side and twin edit this answer and its sources allow (see the module doc)."""
    out: list[SourceEdit] = []
    for a, k, s in _restated_pairs(answer, contexts):
        out += _antonym_edits(answer, contexts, a, k, s)
        out += _negation_edits(answer, contexts, a, k, s)
    return out


def _seed(seed: int, key: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:8], "big")


def source_edit_records(
    records: Iterable[Mapping[str, Any]], *, seed: int = 13, per_answer: int = 2, per_kind: int = 1
) -> Iterator[dict[str, Any]]:
    """Generic labelled records: for each clean English QA or Summary answer (a generic record of
    ``hallucheck data edits``, ``edit: "original"``), edits of up to ``per_answer`` kinds, up to
    ``per_kind`` different edits of each."""
    for rec in records:
        meta = rec.get("metadata") or {}
        if meta.get("edit") != "original" or rec.get("spans") or rec.get("task") not in ("qa", "summary"):
            continue
        contexts = [c["text"] for c in rec["contexts"]]
        edits = source_edits(rec["answer"], contexts)
        if not edits:
            continue
        rng = random.Random(_seed(seed, str(rec.get("id"))))
        by_kind: dict[str, list[SourceEdit]] = {}
        for e in edits:
            by_kind.setdefault(e.kind, []).append(e)
        kinds = sorted(by_kind)
        rng.shuffle(kinds)
        for kind in kinds[:per_answer]:
            options = by_kind[kind]
            chosen = [rng.choice(options)] if per_kind == 1 else rng.sample(options, min(per_kind, len(options)))
            for n, e in enumerate(chosen):
                yield _record(rec, meta, kind if not n else f"{kind}:{n}", e)


def _record(rec: Mapping[str, Any], meta: Mapping[str, Any], name: str, e: SourceEdit) -> dict[str, Any]:
    """One edit as a generic labelled record named ``<ragtruth id>:<name>``."""
    new_contexts = [dict(c) for c in rec["contexts"]]
    new_contexts[e.context_index]["text"] = e.context
    spans = []
    if e.span is not None:
        a, b = e.span
        spans.append({"start": a, "end": b, "label": "contradiction", "type": "conflict", "text": e.answer[a:b]})
    base = str(meta.get("ragtruth_id") or rec.get("id"))
    return {
        **{k: v for k, v in rec.items() if k not in ("id", "contexts", "answer", "spans", "label", "metadata")},
        "id": f"{base}:{name}",
        "contexts": new_contexts,
        "answer": e.answer,
        "label": e.span is not None,
        "spans": spans,
        "metadata": {**meta, "generator": GENERATOR, "edit": e.kind, "type": "conflict" if spans else "faithful",
                     "changed": list(e.changed)},
    }
