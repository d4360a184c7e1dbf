"""N-gram novelty that forgives paraphrase: a word counts as grounded when an aligned source sentence
supports it semantically (the n-gram novelty guide's known weakness on summaries).

The plain n-gram detector (layer 2) calls "the tech giant bought the startup" novel because none of
those lemmas occur in "Apple acquired Company B". This variant asks the semantic layer first: each
answer word is compared (contextual MiniLM word-piece vectors) with the words of the source
sentences its sentence is aligned to; a word whose best match reaches ``token_threshold`` is
grounded, and an n-gram made only of grounded words is not novel. Everything else — thresholds,
spans, features — is the plain detector's. It runs in layer 3 because it needs the embeddings;
when the semantic detector ran first on the same analysis, the alignment is reused.

Numbers and proper names are never forgiven this way: a paraphrase does not change a figure or a
name, while contextual word vectors rate "2019" close to "2018" and one surname close to another.
Such a word is grounded only when the sources contain it (the plain detector's test).

Without token-level matching (answer and sources in different languages) the support comes from
the sentence alignment alone: the words of an answer sentence whose best source similarity
reaches ``sentence_threshold`` are grounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.lexical.ngram import NgramDetector
from hallucheck.detectors.semantic.semantic_align import DEFAULT_TOKEN_THRESHOLD, align
from hallucheck.text.entities import find_entities
from hallucheck.types import Role

__all__ = ["ParaphraseNgramDetector", "fact_tokens", "DEFAULT_TOKEN_THRESHOLD", "DEFAULT_SENTENCE_THRESHOLD", "PARAPHRASE_TOKEN_THRESHOLD"]

DEFAULT_SENTENCE_THRESHOLD = 0.5
# Word support needed to forgive a word: chosen on 200 train answers per task (bench/semantic.py);
# stricter than the semantic layer's own support flag (DEFAULT_TOKEN_THRESHOLD), because a loose
# match here silently removes a word from the novelty count.
PARAPHRASE_TOKEN_THRESHOLD = 0.8  # rescaled e5 similarity (cross-lingual fallback)


class ParaphraseNgramDetector(NgramDetector):
    """``NgramDetector`` whose grounded words include the semantically supported ones.

    Extra options: ``token_threshold`` (word support needed, cosine of word-piece vectors),
    ``sentence_threshold`` (cross-lingual fallback), ``backend`` (embedder, as for the semantic
    detector), ``embedder`` (an object to use instead of the shared one), ``protect_facts``
    (numbers and names need the sources' own words; default on). The other options are the plain
    detector's.
    """

    name: ClassVar[str] = "ngram_semantic"

    role: ClassVar[Role] = "semantic"
    layer: ClassVar[int] = 3

    def __init__(
        self,
        *,
        token_threshold: float = PARAPHRASE_TOKEN_THRESHOLD,
        sentence_threshold: float = DEFAULT_SENTENCE_THRESHOLD,
        backend: str = "auto",
        embedder: Any = None,
        n_values: Sequence[int] = (1, 2),
        thresholds: Mapping[str, float] | None = None,
        threshold: float | None = None,
        n_thresholds: Mapping[int, float] | None = None,
        span_mode: Any = "runs",
        max_listed: int = 10,
        protect_facts: bool = True,
    ) -> None:
        super().__init__(
            n_values=n_values,
            thresholds=thresholds,
            threshold=threshold,
            n_thresholds=n_thresholds,
            span_mode=span_mode,
            grounded_tokens=self._grounded,
            max_listed=max_listed,
        )
        self.token_threshold = float(token_threshold)
        self.sentence_threshold = float(sentence_threshold)
        self.backend = backend
        self.embedder = embedder
        self.protect_facts = bool(protect_facts)

    def _grounded(self, analysis: CaseAnalysis) -> list[bool] | None:
        if not analysis.case.answer.strip() or not analysis.case.source_text.strip():
            return None
        res = align(analysis, backend=self.backend, embedder=self.embedder)
        if res.token_scores is not None:
            flags = [s >= self.token_threshold for s in res.token_scores]
        else:
            # cross-lingual: whole sentences that are well aligned
            flags = [False] * len(analysis.tokens)
            by_sentence = analysis.tokens_by_sentence
            index = {t.start: i for i, t in enumerate(analysis.tokens)}
            for row, si in enumerate(res.sentence_ids):
                if res.best(row) >= self.sentence_threshold:
                    for t in by_sentence[si]:
                        flags[index[t.start]] = True
        if self.protect_facts:
            for i in fact_tokens(analysis):
                flags[i] = False
        return flags


def fact_tokens(analysis: CaseAnalysis) -> list[int]:
    """Indexes of answer tokens that state a fact paraphrase cannot change: numbers and names."""
    tokens = analysis.tokens
    out = [i for i, t in enumerate(tokens) if t.is_number or any(c.isdigit() for c in t.text)]
    sentences = [(s.start, s.end, s.text) for s in analysis.sentences]
    inside: list[tuple[int, int]] = [
        w for m in find_entities(analysis.answer, analysis.language, sentences) for w in m.words
    ]
    if inside:
        starts = {t.start: i for i, t in enumerate(tokens)}
        for a, b in inside:
            i = starts.get(a)
            while i is not None and i < len(tokens) and tokens[i].start < b:
                out.append(i)
                i += 1
    return sorted(set(out))
