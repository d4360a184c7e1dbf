"""Semantic support: does each answer sentence have a source sentence that says the same thing?

Lexical checks fail on paraphrase ("the tech giant bought the startup" for "Apple acquired Company
B"); sentence embeddings do not. For each answer sentence the detector finds the best-supporting
source sentences (cosine of all-MiniLM-L6-v2 embeddings, or multilingual-e5 for Chinese, German,
French and cross-lingual cases), computes a BERTScore-style precision / recall / F1 of the answer
against the sources (word-piece vectors, idf weights from the source sentences), and marks the
answer sentences whose support falls below a threshold as ``baseless``, with the nearest source
sentences as evidence.

Support of a sentence = mean of its best sentence cosine and its token precision (the idf-weighted
share of its word pieces that find a close piece anywhere in the sources); the first catches
paraphrase, the second catches a sentence that resembles a source sentence overall but adds a new
name or number. With the multilingual backend (non-English and cross-lingual cases) support is the
sentence similarity alone.
Thresholds per task were chosen on the train part of the project's data split (``bench/semantic.py
--fit``); see docs/semantic.md.

Shared with later layers (see :mod:`hallucheck.detectors.semantic.semantic_align`):
``analysis.facts.sentence_alignment`` is a list, one entry per answer sentence (in
``analysis.sentences`` order), of ``(source_id, source_sentence_text, start, end, score)`` tuples,
best first: the source id, the source sentence (or window of a long one), its character offsets
into that source's text, and the cosine similarity. ``analysis.facts.support`` is one
bool per answer token (``analysis.tokens``): whether an aligned source sentence supports the word.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import Alignment
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.semantic.semantic_align import DEFAULT_TOKEN_THRESHOLD, align
from hallucheck.types import Evidence, Finding, Role, Span

__all__ = ["SemanticDetector", "DEFAULT_THRESHOLDS", "DEFAULT_THRESHOLD", "support_risk", "sentence_support"]

# Chosen on the train part (bench/semantic.py --fit); the point where a sentence stops counting
# as supported. Cross-lingual cases use the cosine alone and their own threshold.
DEFAULT_THRESHOLDS: dict[str, float] = {"qa": 0.52, "summary": 0.64, "data2txt": 0.52}
DEFAULT_THRESHOLD = 0.62
CROSS_LINGUAL_THRESHOLD = 0.3  # on the rescaled e5 scale (paraphrase ~0.5, unrelated ~0)


def support_risk(support: float, threshold: float) -> float:
    """Risk in 0..1 from a support score, 0.5 exactly at the threshold (piecewise linear).

    support 1 -> 0, threshold -> 0.5, threshold - 0.3 (or below) -> 1.
    """
    support = min(max(support, -1.0), 1.0)
    if support >= threshold:
        return 0.5 * (1.0 - support) / max(1.0 - threshold, 1e-6)
    return min(1.0, 0.5 + 0.5 * (threshold - support) / 0.3)


def sentence_support(res: Alignment, row: int) -> float:
    """Support of analysed sentence ``row``: mean of best cosine and token precision.

    Token precision uses English MiniLM word pieces; for text the multilingual backend handles
    (Chinese, German, French) it separates paraphrase from unrelated text far worse than the e5
    sentence similarity does (bench/embed_quality.py, tests), so there support is the similarity.
    """
    best = res.best(row)
    if res.token_level and res.backend == "minilm" and row < len(res.sentence_precision):
        return 0.5 * (best + res.sentence_precision[row])
    return best


class SemanticDetector(BaseDetector):
    """Answer sentences without semantic support in the sources (layer 3).

    Options: ``backend`` ("auto" — MiniLM for English, multilingual-e5 otherwise when installed;
    "minilm"; "e5"), ``thresholds`` (task -> support threshold, merged over the defaults),
    ``threshold`` (one for every task), ``top_k`` (source sentences kept per answer sentence),
    ``window_words`` (long source sentences are cut into windows of this many words),
    ``token_threshold`` (word-level support for the n-gram layer), ``embedder`` (an object with
    ``encode``/``token_embeddings``, e.g. a fake in tests).
    """

    name: ClassVar[str] = "semantic"

    role: ClassVar[Role] = "semantic"
    layer: ClassVar[int] = 3

    def __init__(
        self,
        *,
        backend: str = "auto",
        thresholds: Mapping[str, float] | None = None,
        threshold: float | None = None,
        top_k: int = 3,
        window_words: int = 64,
        token_threshold: float = DEFAULT_TOKEN_THRESHOLD,
        embedder: Any = None,
        max_evidence: int = 2,
    ) -> None:
        if backend not in ("auto", "minilm", "e5"):
            raise ValueError(f"backend must be 'auto', 'minilm' or 'e5', got {backend!r}")
        if top_k < 1 or window_words < 4:
            raise ValueError("top_k must be >= 1 and window_words >= 4")
        self.backend = backend
        self.thresholds = {**DEFAULT_THRESHOLDS, **{str(k): float(v) for k, v in (thresholds or {}).items()}}
        self.default_threshold = float(self.thresholds.pop("default", DEFAULT_THRESHOLD))
        self.threshold = None if threshold is None else float(threshold)
        self.top_k = top_k
        self.window_words = window_words
        self.token_threshold = float(token_threshold)
        self.embedder = embedder
        self.max_evidence = max_evidence

    def threshold_for(self, task: str, cross_lingual: bool = False) -> float:
        if self.threshold is not None:
            return self.threshold
        if cross_lingual:
            return CROSS_LINGUAL_THRESHOLD
        return self.thresholds.get(task, self.default_threshold)

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        if not case.answer.strip():
            return self._empty("Answer is empty, cannot detect hallucinations")
        if not case.source_text.strip():
            return self._empty("sources are empty; semantic support cannot be measured")
        res = align(
            analysis,
            backend=self.backend,
            top_k=self.top_k,
            window_words=self.window_words,
            token_threshold=self.token_threshold,
            embedder=self.embedder,
        )
        notes = list(res.notes)
        if not res.units:
            return self._empty("sources have no sentences with words; semantic support cannot be measured", notes)
        if not res.sentence_ids:
            return self._empty("answer has no words; semantic support cannot be measured", notes)
        if res.cross_lingual:
            notes.append("answer and sources are in different languages: sentence similarity only")
        threshold = self.threshold_for(case.task, res.cross_lingual)
        supports = [sentence_support(res, r) for r in range(len(res.sentence_ids))]
        unsupported = [r for r, s in enumerate(supports) if s < threshold]
        spans = [self._span(analysis, res, r, supports[r], threshold) for r in unsupported]
        worst = min(supports)
        risk = support_risk(worst, threshold)
        bests = [res.best(r) for r in range(len(res.sentence_ids))]
        sentences = analysis.sentences
        details: dict[str, Any] = {
            "threshold": threshold,
            "backend": res.backend,
            "cross_lingual": res.cross_lingual,
            "bertscore": {"precision": round(res.precision, 4), "recall": round(res.recall, 4), "f1": round(res.f1, 4)}
            if res.token_level
            else None,
            "sentences": [
                {
                    "start": sentences[si].start,
                    "end": sentences[si].end,
                    "support": round(supports[r], 4),
                    "best_similarity": round(bests[r], 4),
                    "token_precision": round(res.sentence_precision[r], 4) if res.token_level else None,
                    "local_precision": round(res.local_precision[r], 4) if res.token_level else None,
                    "flagged": supports[r] < threshold,
                    "best_sources": [
                        {"source_id": res.units[u].source_id, "start": res.units[u].start, "end": res.units[u].end, "score": round(s, 4)}
                        for u, s in res.top[r]
                    ],
                }
                for r, si in enumerate(res.sentence_ids)
            ],
        }
        return Finding(detector=self.name, risk=round(risk, 6), flagged=bool(unsupported),
                       features=self._features(res, supports, bests, unsupported), spans=spans, notes=notes, details=details)

    def _span(self, analysis: CaseAnalysis, res: Alignment, row: int, support: float, threshold: float) -> Span:
        seg = analysis.sentences[res.sentence_ids[row]]
        evidence = [
            Evidence(
                source_id=res.units[u].source_id,
                text=res.units[u].text,
                relation="nearest",
                score=round(max(0.0, s), 4),
                start=res.units[u].start,
                end=res.units[u].end,
            )
            for u, s in res.top[row][: self.max_evidence]
        ]
        detail = f"best source similarity {res.best(row):.2f}"
        if res.token_level:
            detail += f", token precision {res.sentence_precision[row]:.2f}"
        return Span(
            start=seg.start,
            end=seg.end,
            text=seg.text,
            label="baseless",
            score=round(support_risk(support, threshold), 4),
            detector=self.name,
            reason=f"no source sentence says this (support {support:.2f} < {threshold:.2f}; {detail})",
            evidence=evidence,
        )

    @staticmethod
    def _zero_features() -> dict[str, float]:
        return {
            "min_similarity": 0.0,
            "mean_similarity": 0.0,
            "min_support": 0.0,
            "mean_support": 0.0,
            "min_token_precision": 0.0,
            "min_local_precision": 0.0,
            "bertscore_precision": 0.0,
            "bertscore_recall": 0.0,
            "bertscore_f1": 0.0,
            "unsupported_fraction": 0.0,
            "unsupported_token_fraction": 0.0,
            "cross_lingual": 0.0,
            "sentences": 0.0,
            "source_units": 0.0,
        }

    def _features(self, res: Alignment, supports: list[float], bests: list[float], unsupported: list[int]) -> dict[str, float]:
        feats = self._zero_features()
        n = len(supports)
        feats.update(
            min_similarity=round(min(bests), 6),
            mean_similarity=round(sum(bests) / n, 6),
            min_support=round(min(supports), 6),
            mean_support=round(sum(supports) / n, 6),
            unsupported_fraction=round(len(unsupported) / n, 6),
            cross_lingual=float(res.cross_lingual),
            sentences=float(n),
            source_units=float(len(res.units)),
        )
        if res.token_level:
            feats.update(
                min_token_precision=round(min(res.sentence_precision), 6) if res.sentence_precision else 0.0,
                min_local_precision=round(min(res.local_precision), 6) if res.local_precision else 0.0,
                bertscore_precision=round(res.precision, 6),
                bertscore_recall=round(res.recall, 6),
                bertscore_f1=round(res.f1, 6),
            )
            scores = res.token_scores or []
            judged = [s for s in scores if s > 0.0]
            if judged:
                low = sum(1 for s in judged if s < self.token_threshold)
                feats["unsupported_token_fraction"] = round(low / len(judged), 6)
        return feats

    def _empty(self, note: str, notes: list[str] | None = None) -> Finding:
        return Finding(
            detector=self.name,
            risk=0.0,
            notes=[*(notes or []), note],
            flagged=False,
            features=self._zero_features(),
            details={"sentences": [], "bertscore": None},
        )
