"""Minimal sentence pairs for the pair model: a source sentence against itself with one change.

Why: pairs made from answers teach the model what answers look like, and the edit files' forms
of negation (an auxiliary with "not" added or removed) are the only negations it sees. A model
trained on those alone scored "The council did not approve the plan." against "The council
approved the plan." no higher than the unchanged copy: it learned the edit rules' marks, not the
comparison. Here a premise sentence ``P`` from a source is paired with

- ``P`` with one meaning-changing edit (contradiction): a negation added or removed in several
  forms (in English also "did not" / "didn't" + verb, or "never", where a verb is in the past
  tense), a word replaced by its opposite, two names swapped around their verb;
- the same edit the other way round (the edited sentence as premise, ``P`` as hypothesis);
- ``P`` itself, and the edited sentence itself (entailment), so that a negation or an opposite
  word in both sentences is no sign of contradiction, and near-identity no sign of entailment.

The premise also holds up to two other sentences of the same source after ``P``, as the ``nli``
detector's premise holds the best three. Torch-free.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

import regex

from hallucheck.eval.datasets import Example
from hallucheck.train.pair_example import PAIR_LABELS, PairExample, source_group

__all__ = ["minimal_edits", "minimal_pairs", "minimal_pairs_of_examples", "negate_past"]

_ENTAIL = PAIR_LABELS.index("entailment")
_CONTRA = PAIR_LABELS.index("contradiction")
_MIN_CHARS, _MAX_CHARS = 30, 300
_MIN_CHARS_ZH = 12

# Common irregular past tenses (lemma by the dictionary where it knows them; these it may not).
_IRREGULAR_PAST = {
    "went": "go", "made": "make", "took": "take", "gave": "give", "found": "find", "said": "say", "told": "tell",
    "became": "become", "began": "begin", "built": "build", "bought": "buy", "brought": "bring", "chose": "choose",
    "came": "come", "drew": "draw", "fell": "fall", "felt": "feel", "got": "get", "grew": "grow", "held": "hold",
    "kept": "keep", "knew": "know", "led": "lead", "left": "leave", "lost": "lose", "met": "meet", "paid": "pay",
    "ran": "run", "saw": "see", "sold": "sell", "sent": "send", "showed": "show", "spoke": "speak", "spent": "spend",
    "stood": "stand", "taught": "teach", "thought": "think", "won": "win", "wrote": "write", "rose": "rise",
    "struck": "strike", "sought": "seek", "caught": "catch", "broke": "break", "drove": "drive", "flew": "fly",
}
_WORD = regex.compile(r"\b\p{Ll}+\b")
_NEGATED = regex.compile(r"\b(?:not|no|never|nothing|nobody|none|neither|nor|without)\b|n't\b", regex.IGNORECASE)
# Words after which an "-ed" word is a participle or an adjective, not the verb of the clause.
_NOT_BEFORE_VERB = frozenset({
    "was", "were", "is", "are", "be", "been", "being", "has", "have", "had", "the", "a", "an", "its", "their", "his",
    "her", "our", "your", "my", "this", "that", "these", "those", "and", "or", "of", "to", "by", "for", "with",
    "not", "never", "newly", "well", "very", "more", "most", "less", "also", "who", "which",
})


def _lemma(word: str) -> str:
    from hallucheck.text.tokens import lemma  # lazy: loaded only on this path

    return _IRREGULAR_PAST.get(word) or lemma(word, "en")


def negate_past(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    """An English sentence whose past-tense verb is negated ("approved" -> "did not approve",
    "didn't approve", "never approved"): (new sentence, form), or None when no verb qualifies."""
    if _NEGATED.search(sentence):
        return None  # a second negation would not simply flip the sentence ("Nothing did not happen.")
    spots = []
    for m in _WORD.finditer(sentence):
        word = m.group()
        before = sentence[: m.start()].split()
        if not before or before[-1].lower().strip(",;:") in _NOT_BEFORE_VERB or before[-1].endswith((".", ",")):
            continue
        if word in _IRREGULAR_PAST or (word.endswith("ed") and len(word) > 4):
            base = _lemma(word)
            if base and base != word and not base.endswith("ed"):
                spots.append((m.start(), m.end(), base))
    if not spots:
        return None
    start, end, base = rng.choice(spots)
    form = rng.choice(("did not", "didn't", "never", "did not"))
    new = f"{form} {base}" if form != "never" else f"never {sentence[start:end]}"
    return sentence[:start] + new + sentence[end:], "negation_past"


def _english(kind: str) -> Callable[[str, random.Random], tuple[str, str] | None]:
    from hallucheck.synth.contradict import contradict  # lazy: loaded only on this path

    def edit(sentence: str, rng: random.Random) -> tuple[str, str] | None:
        got = contradict(sentence, "", kind, rng)
        return (got.text, kind) if got is not None else None

    return edit


def _synth(kind: str, language: str) -> Callable[[str, random.Random], tuple[str, str] | None]:
    from hallucheck.synth.edits import SENTENCE_EDITS, EditContext  # lazy: loaded only on this path

    def edit(sentence: str, rng: random.Random) -> tuple[str, str] | None:
        draft = SENTENCE_EDITS[kind](sentence, EditContext(language, sentence, (), rng))
        return (draft.text, kind) if draft is not None and draft.text != sentence else None

    return edit


def minimal_edits(language: str) -> list[Callable[[str, random.Random], tuple[str, str] | None]]:
    """The meaning-changing edits of one language (English: negations in four forms, opposites,
    swapped roles; de, fr, zh-Hans, zh-Hant: the case generator's negation and opposite edits;
    none for other languages)."""
    from hallucheck.synth.lexicon import NEGATABLE  # lazy: loaded only on this path

    if language.startswith("en"):
        return [negate_past, _english("negation"), _english("antonym"), _english("role")]
    if language not in NEGATABLE:
        return []
    return [_synth("negation", language), _synth("antonym", language)]


def minimal_pairs(sentences: list[str], language: str, group: str, rng: random.Random,
                  per_source: int = 2) -> Iterator[PairExample]:
    """Up to ``per_source`` premise sentences of one source, each with its edited twin (see the
    module doc); ``sentences`` are the source's sentences in order."""
    edits = minimal_edits(language)
    low = _MIN_CHARS_ZH if language.startswith("zh") else _MIN_CHARS
    usable = [i for i, s in enumerate(sentences) if low <= len(s.strip()) <= _MAX_CHARS]
    rng.shuffle(usable)
    made = 0
    for i in usable:
        if made >= per_source:
            break
        p = sentences[i].strip()
        order = list(edits)
        rng.shuffle(order)
        got = next((g for g in (e(p, rng) for e in order) if g is not None), None)
        if got is None:
            continue
        h, form = got
        rest = " ".join(s.strip() for s in sentences[i + 1 : i + 1 + rng.choice((0, 1, 2))])
        with_p, with_h = f"{p} {rest}".strip(), f"{h} {rest}".strip()
        kind = f"minimal:{form}"
        yield PairExample(with_p, h, _CONTRA, group, kind, language)
        yield PairExample(with_h, p, _CONTRA, group, kind, language)
        yield PairExample(with_p, p, _ENTAIL, group, "minimal:copy", language)
        yield PairExample(with_h, h, _ENTAIL, group, "minimal:copy_edited", language)
        made += 1


def minimal_pairs_of_examples(examples: Iterable[Example], seed: int = 0, per_source: int = 2) -> Iterator[PairExample]:
    """Minimal pairs from the sources of a data file's examples, each distinct source text once
    (RAGTruth gives one source to several answers)."""
    from hallucheck.text.language import detect_language  # lazy: loaded only on this path
    from hallucheck.text.sentences import split_sentences  # lazy: loaded only on this path

    rng = random.Random(seed)
    seen: set[int] = set()
    for ex in examples:
        group = source_group(ex)
        for ctx in ex.case.contexts:
            text = ctx.text
            key = hash(text)
            if key in seen or len(text) < _MIN_CHARS_ZH:
                continue
            seen.add(key)
            language = ex.case.language or detect_language(text)
            sentences = [seg.text for seg in split_sentences(text, language)]
            yield from minimal_pairs(sentences, language, group, rng, per_source)
