"""Sentence pairs for the pair model: (best evidence, answer sentence) -> entailed / neutral / contradicted.

Why a sentence-level pair model beside the span tagger: the tagger reads words against packed
evidence and learns well where an answer copies its source, but a negated or reversed *paraphrase*
shares few words with its source, so word-level inputs call it supported. A classifier of the
whole sentence against its best source sentences is the comparison NLI models make, and it can
be trained on exactly the cases the tagger misses.

Each answer sentence becomes one pair. The premise is chosen the way the ``nli`` detector chooses
it at run time (:func:`hallucheck.detectors.model.nli.sentence_premises`), so training and use
read the same text. Labels come from the gold spans the sentence overlaps:

- a span typed as a conflict (RAGTruth's "Evident/Subtle Conflict", our ``contradiction``) ->
  ``contradiction``;
- any other unsupported span (baseless, speculation) -> ``neutral``;
- no span -> ``entailment``. Sentences of cases whose spans are citation faults are skipped:
  a wrong citation marker says nothing about whether the sources entail the words.

Edits (``hallucheck data edits``, ``data source-edits``) carry their own contrast: the edited
sentence of an edit and the same sentence of its unedited original are both kept, so the model
sees the pair that differs only by the edit. Torch-free: the run-time code is the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import regex

from hallucheck.eval.datasets import Example
from hallucheck.train.pair_example import PAIR_LABELS, PairExample, source_group
from hallucheck.train.pair_minimal import minimal_pairs_of_examples

__all__ = ["PAIR_LABELS", "PairExample", "edit_pairs", "negated_pair", "pair_label", "pairs_of_example", "pairs_of_source", "source_group"]

_MIN_CHARS = 8
_WORDS = regex.compile(r"\p{L}+(?:'\p{L}+)?")
_SKIP_LABELS = frozenset({"invalid_citation"})


def pair_label(label: str) -> int | None:
    """The pair label of a gold span label (None: a label that says nothing about entailment)."""
    low = label.strip().lower()
    if low in _SKIP_LABELS:
        return None
    if "conflict" in low or "contradict" in low:
        return PAIR_LABELS.index("contradiction")
    return PAIR_LABELS.index("neutral")


def _sentence_labels(example: Example, sentences: list[tuple[int, int]]) -> list[int] | None:
    spans = example.gold.spans
    labels = list(example.gold.labels) + ["baseless"] * (len(spans) - len(example.gold.labels))
    mapped = [pair_label(lab) for lab in labels]
    if any(m is None for m in mapped):
        return None
    out = []
    for start, end in sentences:
        hit = [m for (s, e), m in zip(spans, mapped) if s < end and e > start and m is not None]
        out.append(max(hit) if hit else 0)  # contradiction (2) outranks neutral (1)
    return out


def pairs_of_example(example: Example, kind: str, top_k: int = 3) -> list[PairExample]:
    """Every checkable sentence of an answer as a labelled pair (none for a citation-fault case)."""
    from hallucheck.analysis import CaseAnalysis  # lazy: heavy: pulls in pydantic; loaded only when this path runs
    from hallucheck.detectors.model.nli import sentence_premises  # lazy: heavy: pulls in numpy, pydantic; loaded only when this path runs

    analysis = CaseAnalysis(example.case)
    sents = analysis.sentences
    labels = _sentence_labels(example, [(s.start, s.end) for s in sents])
    if labels is None:
        return []
    premises = sentence_premises(analysis, top_k)
    group = source_group(example)
    out = []
    for i, (seg, lab, prem) in enumerate(zip(sents, labels, premises)):
        if len(seg.text.strip()) < _MIN_CHARS or not any(c.isalnum() for c in seg.text):
            continue
        premise = " ".join(t for _, t, _, _ in prem)
        out.append(PairExample(premise, seg.text.strip(), lab, group, kind, analysis.language, i))
    return out


_UNEDITED = frozenset({"original", "twin_negation", "twin_antonym"})


def edit_pairs(examples: Iterable[Example], prefix: str = "") -> Iterator[PairExample]:
    """Pairs of an edit file: each edit's changed sentences, and the same sentences unedited.

    An edit file holds, per answer, the unedited original (``metadata.edit == "original"``) and
    its edits. From an edit only the sentences a gold span marks are kept (the rest repeat the
    original); from the original, the sentences some edit changed, so every edited sentence has
    its unedited twin. Faithful twins (a source edited together with the answer) keep their
    marked sentence as entailed. Records are grouped by ``metadata.ragtruth_id`` (else the split
    key) and must come original first or last; the file is read once, one answer at a time.
    """
    current: str | None = None
    original: list[PairExample] = []
    changed: set[int] = set()

    def flush() -> Iterator[PairExample]:
        for p in original:
            if p.index in changed:
                yield p

    for ex in examples:
        meta = ex.case.metadata if isinstance(ex.case.metadata, dict) else {}
        key = str(meta.get("ragtruth_id") or meta.get("source_key") or "")
        edit = str(meta.get("edit") or "original")
        if key != current:
            yield from flush()
            current, original, changed = key, [], set()
        kind = prefix + edit
        if edit == "original":
            original = pairs_of_example(ex, kind)
            continue
        pairs = pairs_of_example(ex, kind)
        span_rows = _marked_indices(ex, pairs)
        changed |= span_rows
        for p in pairs:
            if p.index in span_rows:
                yield p
    yield from flush()


def _marked_indices(example: Example, pairs: list[PairExample]) -> set[int]:
    """Sentence indices of the pairs whose sentence a gold span (or the edit's ``changed``) touches."""
    meta = example.case.metadata if isinstance(example.case.metadata, dict) else {}
    ranges = list(example.gold.spans)
    ch = meta.get("changed")
    if isinstance(ch, list) and len(ch) == 2:
        ranges.append((int(ch[0]), int(ch[1])))
    if not ranges:
        return set()
    from hallucheck.analysis import CaseAnalysis  # lazy: heavy: pulls in pydantic; loaded only when this path runs

    sents = CaseAnalysis(example.case).sentences
    out = set()
    for p in pairs:
        seg = sents[p.index]
        if any(s < seg.end and e > seg.start for s, e in ranges):
            out.add(p.index)
    return out


def pairs_of_source(path: str, format: str, mode: str, part: str, entail_keep: float = 1.0, seed: int = 0, *,
                    entail_keep_negated: float | None = None, unrelated: float = 0.0,
                    names: float = 0.0) -> Iterator[PairExample]:
    """The pairs of one data file's ``part``: ``mode`` ``answers`` (every sentence, entailed ones
    sampled: ``entail_keep`` of them, ``entail_keep_negated`` of those with a negation word on
    either side, :func:`negated_pair`), ``edits`` (:func:`edit_pairs`), ``minimal`` (source
    sentences against themselves with one change, :mod:`hallucheck.train.pair_minimal`) or
    ``human`` (``path`` is the folder of human-labelled pairs, :mod:`hallucheck.train.human_pairs`;
    ``unrelated``: its share of neutral twins over other rows' premises, ``names`` of twins with a
    name swapped)."""
    if mode == "human":
        from hallucheck.train.human_pairs import human_pairs  # lazy: loaded only on this path

        yield from human_pairs(path, part, seed, unrelated=unrelated, names=names)
        return
    from hallucheck.eval.datasets import load_dataset  # lazy: already loaded by this module's imports; kept where it is used

    examples = load_dataset(path, format, split=part)
    if mode == "edits":
        yield from edit_pairs(examples)
        return
    if mode == "minimal":
        yield from minimal_pairs_of_examples(examples, seed)
        return
    if mode != "answers":
        raise ValueError(f"unknown pair source mode {mode!r} (answers, edits, minimal, human)")
    rng = random.Random(seed)
    for ex in examples:
        meta = ex.case.metadata if isinstance(ex.case.metadata, dict) else {}
        kind = "ragtruth" if format == "ragtruth" else f"synth:{meta.get('edit', 'case')}"
        for p in pairs_of_example(ex, kind):
            keep = entail_keep_negated if entail_keep_negated is not None and negated_pair(p) else entail_keep
            if p.label != 0 or rng.random() < keep:
                yield p


def negated_pair(pair: PairExample) -> bool:
    """Whether a negation word (:data:`hallucheck.text.opposites.NEGATION_WORDS`, or English "n't")
    stands in the premise or the hypothesis. Most negations a pair model sees in training are
    made by rules, in contradicted pairs or in a sentence against itself; natural entailed
    sentences that word a negation differently from their premise are few, and a model trained
    that way reads them as contradictions ("slice it, but not too thin" over "the secret is not
    to slice it too thin"). This is the test for keeping more of them."""
    from hallucheck.text.opposites import NEGATION_WORDS, NEGATION_WORDS_BY_LANGUAGE  # lazy: loaded only on this path

    for text in (pair.premise, pair.hypothesis):
        low = text.lower()
        if "n't" in low or "n’t" in low or any(w in NEGATION_WORDS for w in _WORDS.findall(low)):
            return True
        if any(c in low for c in NEGATION_WORDS_BY_LANGUAGE["zh"] if len(c) == 1):
            return True
    return False
