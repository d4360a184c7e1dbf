"""N-gram novelty that forgives paraphrase: a word counts as grounded when an aligned source sentence
supports it semantically (seed 004's known weakness on summaries).

The plain n-gram detector (layer 2) calls "the tech giant bought the startup" novel because none of
those lemmas occur in "Apple acquired Company B". This variant asks the semantic layer first: each
answer word is compared (contextual MiniLM word-piece vectors) with the words of the source
sentences its sentence is aligned to; a word whose best match reaches ``token_threshold`` is
grounded, and an n-gram made only of grounded words is not novel. Everything else — thresholds,
spans, features — is the plain detector's. It runs in layer 3 because it needs the embeddings;
when the semantic detector ran first on the same analysis, the alignment is reused.

Without token-level matching (answer and sources in different languages) the support comes from
the sentence alignment alone: the words of an answer sentence whose best source similarity
reaches ``sentence_threshold`` are grounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.ngram import NgramDetector
from hallucheck.detectors.semantic_align import DEFAULT_TOKEN_THRESHOLD, align

__all__ = ["ParaphraseNgramDetector", "DEFAULT_TOKEN_THRESHOLD", "DEFAULT_SENTENCE_THRESHOLD"]

DEFAULT_SENTENCE_THRESHOLD = 0.5  # rescaled e5 similarity (cross-lingual fallback)


class ParaphraseNgramDetector(NgramDetector):
    """``NgramDetector`` whose grounded words include the semantically supported ones.

    Extra options: ``token_threshold`` (word support needed, cosine of word-piece vectors),
    ``sentence_threshold`` (cross-lingual fallback), ``backend`` (embedder, as for the semantic
    detector), ``embedder`` (an object to use instead of the shared one). The other options are
    the plain detector's.
    """

    name: ClassVar[str] = "ngram_semantic"
    layer: ClassVar[int] = 3

    def __init__(
        self,
        *,
        token_threshold: float = DEFAULT_TOKEN_THRESHOLD,
        sentence_threshold: float = DEFAULT_SENTENCE_THRESHOLD,
        backend: str = "auto",
        embedder: Any = None,
        n_values: Sequence[int] = (1, 2),
        thresholds: Mapping[str, float] | None = None,
        threshold: float | None = None,
        n_thresholds: Mapping[int, float] | None = None,
        span_mode: Any = "runs",
        max_listed: int = 10,
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

    def _grounded(self, analysis: CaseAnalysis) -> list[bool] | None:
        if not analysis.case.answer.strip() or not analysis.case.source_text.strip():
            return None
        res = align(analysis, backend=self.backend, embedder=self.embedder)
        if res.token_scores is not None:
            return [s >= self.token_threshold for s in res.token_scores]
        # cross-lingual: whole sentences that are well aligned
        flags = [False] * len(analysis.tokens)
        by_sentence = analysis.tokens_by_sentence
        index = {t.start: i for i, t in enumerate(analysis.tokens)}
        for row, si in enumerate(res.sentence_ids):
            if res.best(row) >= self.sentence_threshold:
                for t in by_sentence[si]:
                    flags[index[t.start]] = True
        return flags
