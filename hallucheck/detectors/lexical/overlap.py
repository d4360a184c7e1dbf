"""ROUGE-L overlap between the answer and its sources (RAG detection guide), made useful for long sources.

The RAG detection guide scores the whole answer against the whole context with ROUGE-L F-measure (< 0.3
potential hallucination, > 0.5 high overlap, between: review). Against a retrieved context many
times longer than the answer, recall — and with it F — is small for every answer, grounded or
not, so the detector reports the guide's numbers but judges by *precision*: how much of each
answer sentence is covered, in order, by its best-matching source sentence
(``LCS(sentence, source sentence) / len(sentence)``, over lemmas). A sentence whose best
precision is below ``sentence_threshold`` is flagged, with that source sentence as "nearest"
evidence; the words of the sentence absent from that source sentence become the spans (for
sentences below ``span_threshold``, 0.2: marking every flagged sentence marks mostly faithful
words).

``risk`` grows with ``1 − mean(whole-answer LCS precision, least-covered sentence's best
precision)`` (0.5 where that uncovered share is ``risk_center``, 0.75 by default).
The sentence threshold defaults to the guide's own low cut-off, 0.3, applied per sentence. The LCS of one answer sentence with every
source sentence comes from one bit-parallel pass (see ``lcs.py``); the source side is cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.lexical.lcs import PackedSequences, lcs_length
from hallucheck.detectors.lexical.ngram import novelty_risk
from hallucheck.detectors.lexical.source_index import SourceIndex, locate_in_sources, source_index
from hallucheck.detectors.lexical.token_runs import marked_runs
from hallucheck.text import Token
from hallucheck.types import Coverage, Evidence, Finding, Role, Span

__all__ = ["OverlapDetector", "SentenceOverlap", "rouge_l", "interpret_rouge"]

SpanMode = Literal["runs", "sentence"]

# Above this many source words the per-sentence LCS runs only against candidate source sentences
# (those sharing the most content words), because packed masks grow with the source.
MAX_PACKED_WORDS = 6000
CANDIDATES = 24
# Sentences compared between two looks at the check's deadline (a look is a clock read).
_STOP_EVERY = 8
# Uncovered share at which the risk is 0.5 (half of such RAGTruth train answers were hallucinated).
RISK_CENTER = 0.75
# Flagged sentences get spans only below this precision: on the RAGTruth train part this raised
# character-level span F1 from 0.17-0.18 to 0.18-0.19 (bench/lexical_train.py, two samples).
SPAN_THRESHOLD = 0.2
# Whole-text ROUGE-L is skipped (with a note) when answer words × source words exceeds this.
MAX_WHOLE_CELLS = 400_000_000


def rouge_l(lcs: int, candidate_len: int, reference_len: int) -> tuple[float, float, float]:
    """ROUGE-L precision, recall and F1 from an LCS length (precision is over the candidate)."""
    if not lcs or not candidate_len or not reference_len:
        return 0.0, 0.0, 0.0
    p = lcs / candidate_len
    r = lcs / reference_len
    return p, r, 2 * p * r / (p + r)


def interpret_rouge(fmeasure: float, low: float = 0.3, high: float = 0.5) -> str:
    """The RAG detection guide's reading of a ROUGE-L F-measure."""
    if fmeasure > high:
        return "High overlap - likely grounded"
    if fmeasure < low:
        return "Low overlap - potential hallucinations"
    return "Moderate overlap - review recommended"


@dataclass
class SentenceOverlap:
    """The best source sentence for one answer sentence."""

    index: int
    start: int
    end: int
    words: list[str]
    tokens: list[Token]
    lcs: int = 0
    source_sentence: int | None = None
    flagged: bool = False

    @property
    def precision(self) -> float:
        return self.lcs / len(self.words) if self.words else 1.0


class OverlapDetector(BaseDetector):
    """ROUGE-L of the answer against the sources (lexical layer).

    Options: ``low`` / ``high`` (the RAG detection guide's F-measure cut-offs, reported as its interpretation),
    ``sentence_threshold`` (best-precision below which a sentence is flagged), ``stopwords``
    (keep stop words in the per-sentence comparison; off by default: function words match
    anywhere and hide missing content), ``min_words`` (shorter sentences are not judged),
    ``span_mode`` ("runs": the words absent from the nearest source sentence; "sentence": the
    whole sentence), ``span_threshold`` (only flagged sentences below this precision get spans,
    0.2), ``risk_center`` (see ``_risk``).
    """

    name: ClassVar[str] = "overlap"

    role: ClassVar[Role] = "lexical"
    layer: ClassVar[int] = 2

    def __init__(
        self,
        *,
        low: float = 0.3,
        high: float = 0.5,
        sentence_threshold: float = 0.3,
        stopwords: bool = False,
        min_words: int = 3,
        span_mode: SpanMode = "runs",
        span_threshold: float = SPAN_THRESHOLD,
        risk_center: float = RISK_CENTER,
    ) -> None:
        checks = (
            ("low", low),
            ("high", high),
            ("sentence_threshold", sentence_threshold),
            ("span_threshold", span_threshold),
            ("risk_center", risk_center),
        )
        for name, value in checks:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a number between 0 and 1, got {value!r}")
        if low > high:
            raise ValueError(f"low ({low}) must not exceed high ({high})")
        if isinstance(min_words, bool) or not isinstance(min_words, int) or min_words < 1:
            raise ValueError(f"min_words must be a positive integer, got {min_words!r}")
        if span_mode not in ("runs", "sentence"):
            raise ValueError(f"span_mode must be 'runs' or 'sentence', got {span_mode!r}")
        self.low = float(low)
        self.high = float(high)
        self.sentence_threshold = float(sentence_threshold)
        self.stopwords = stopwords
        self.min_words = min_words
        self.span_mode: SpanMode = span_mode
        self.risk_center = float(risk_center)
        self.span_threshold = float(span_threshold)

    def _sentence_seqs(self, index: SourceIndex) -> tuple[Sequence[Sequence[str]], PackedSequences]:
        if self.stopwords:
            return index.words, index.packed_words
        return index.content, index.packed_content

    def score_sentences(self, analysis: CaseAnalysis, notes: list[str] | None = None) -> list[SentenceOverlap]:
        """Best source sentence (by LCS) for every answer sentence."""
        notes = notes if notes is not None else []
        index = source_index(analysis.source)
        seqs, _ = self._sentence_seqs(index)
        keep_stop = self.stopwords
        out: list[SentenceOverlap] = []
        by_sentence = analysis.tokens_by_sentence if keep_stop else analysis.content_by_sentence
        for i, (seg, toks) in enumerate(zip(analysis.sentences, by_sentence)):
            kept = [t for t in toks if not t.is_punct] if keep_stop else toks
            out.append(SentenceOverlap(i, seg.start, seg.end, [t.norm for t in kept], kept))
        if not any(seqs):
            return out
        big = sum(len(s) for s in seqs) > MAX_PACKED_WORDS
        if big:
            notes.append(f"long sources: each sentence compared with its {CANDIDATES} most similar source sentences")
        stop = analysis.out_of_time if analysis.deadline is not None else None
        for k, so in enumerate(out):
            if stop is not None and k % _STOP_EVERY == 0 and stop():
                # the check's time is up: the sentences from here on are not compared (and not
                # returned, so none of them reads as sharing no words with the sources)
                notes.append(f"the check's time was up: sentences {k + 1}-{len(out)} were not compared")
                del out[k:]
                break
            if not so.words:
                continue
            if big:
                ids = _candidates(index, so.words, CANDIDATES)
                if not ids:
                    continue
                lengths = PackedSequences.build([seqs[i] for i in ids]).lcs_lengths(so.words)
            else:
                ids = list(range(len(seqs)))
                lengths = self._sentence_seqs(index)[1].lcs_lengths(so.words)
            # The longest LCS; on ties the shorter source sentence, then the first one.
            top = max(lengths)
            if not top:
                continue  # no source sentence shares a word: lcs 0, no nearest sentence
            best = lengths.index(top)
            if lengths.count(top) > 1:
                best = min((k for k, n in enumerate(lengths) if n == top), key=lambda k: len(seqs[ids[k]]))
            so.lcs = top
            so.source_sentence = ids[best]
        return out

    def _whole(self, analysis: CaseAnalysis, index: SourceIndex, notes: list[str]) -> dict[str, Any]:
        answer_words = [t.norm for t in analysis.tokens if not t.is_punct]
        source_words = index.all_words
        if not answer_words:
            return {"precision": None, "recall": None, "fmeasure": None, "interpretation": None}
        if len(answer_words) * len(source_words) > MAX_WHOLE_CELLS:
            notes.append("whole-text ROUGE-L skipped: answer and sources too long; per-sentence scores cover the answer")
            return {"precision": None, "recall": None, "fmeasure": None, "interpretation": None}
        if len(source_words) <= MAX_PACKED_WORDS:
            lcs = index.packed_all.lcs_lengths(answer_words)[0] if answer_words and source_words else 0
        else:
            lcs = lcs_length(answer_words, source_words)
        p, r, f = rouge_l(lcs, len(answer_words), len(source_words))
        return {
            "precision": round(p, 6),
            "recall": round(r, 6),
            "fmeasure": round(f, 6),
            "interpretation": interpret_rouge(f, self.low, self.high),
            "potential_hallucination": f < self.low,
        }

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        notes: list[str] = []
        base = {"sentence_threshold": self.sentence_threshold, "low": self.low, "high": self.high}
        if not case.answer.strip():
            return self._empty("Answer is empty, cannot detect hallucinations", base)
        index = source_index(analysis.source)
        if not index.all_words:
            return self._empty("sources have no words; overlap cannot be measured", base)
        if all(t.is_punct for t in analysis.tokens):
            return self._empty("answer has no words; overlap cannot be measured", base)
        sentences = self.score_sentences(analysis, notes)
        coverage = None
        if len(sentences) < len(analysis.sentences):  # stopped at the deadline
            first = analysis.sentences[len(sentences)].start
            coverage = Coverage(answer_chars=len(case.answer), checked_chars=first, unchecked=[(first, len(case.answer))],
                                note="the check's time was up before every sentence was compared with the sources")
        judged = [so for so in sentences if len(so.words) >= self.min_words]
        for so in judged:
            so.flagged = so.precision < self.sentence_threshold
        if coverage is None:
            whole = self._whole(analysis, index, notes)
        else:
            whole = {"precision": None, "recall": None, "fmeasure": None, "interpretation": None}
        if not judged:
            notes.append(f"no sentence has {self.min_words} or more words to compare")
        flagged = [so for so in judged if so.flagged]
        min_p = min((so.precision for so in judged), default=1.0)
        risk = self._risk(whole.get("precision"), min_p if judged else None)
        seqs, _ = self._sentence_seqs(index)
        cut = min(self.span_threshold, self.sentence_threshold)
        spans = [s for so in flagged if so.precision < cut for s in self._spans(analysis, index, seqs, so)]
        precisions = [so.precision for so in judged]
        features = {
            "rougeL_precision": float(whole["precision"] or 0.0),
            "rougeL_recall": float(whole["recall"] or 0.0),
            "rougeL_fmeasure": float(whole["fmeasure"] or 0.0),
            "min_sentence_precision": round(min_p, 6) if judged else 1.0,
            "mean_sentence_precision": round(sum(precisions) / len(precisions), 6) if judged else 1.0,
            "flagged_fraction": round(len(flagged) / len(judged), 6) if judged else 0.0,
            "sentences": float(len(judged)),
        }
        details = {
            **base,
            "rouge_l": whole,
            "sentences": [
                {
                    "start": so.start,
                    "end": so.end,
                    "precision": round(so.precision, 4),
                    "source_sentence": so.source_sentence,
                    "judged": len(so.words) >= self.min_words,
                    "flagged": so.flagged,
                }
                for so in sentences
            ],
        }
        return Finding(detector=self.name, risk=round(risk, 6), flagged=bool(flagged), features=features, spans=spans,
                       notes=notes, details=details, coverage=coverage)

    def _risk(self, whole_precision: float | None, min_precision: float | None) -> float:
        """The uncovered share ``u = 1 − mean(whole-answer LCS precision, least-covered sentence's
        best precision)``, mapped piecewise-linearly so that ``u = risk_center`` gives 0.5.

        Both halves measure how much of the answer the sources cover in order: the whole-answer
        LCS against the whole source (the RAG detection guide's ROUGE-L, read as precision) and the weakest
        sentence against its best source sentence. Measured on the RAGTruth train part
        (bench/lexical_train.py) the mean ranks hallucinated answers better
        (AUROC 0.76) than the least-covered sentence alone (0.70) or the guide's F-measure (0.67); answers with ``u`` near
        0.75 were hallucinated half of the time, hence the default centre.
        """
        parts = [p for p in (whole_precision, min_precision) if p is not None]
        if not parts:
            return 0.0
        return novelty_risk(1.0 - sum(parts) / len(parts), self.risk_center)

    def _empty(self, note: str, base: dict[str, Any]) -> Finding:
        features = {
            "rougeL_precision": 0.0,
            "rougeL_recall": 0.0,
            "rougeL_fmeasure": 0.0,
            "min_sentence_precision": 1.0,
            "mean_sentence_precision": 1.0,
            "flagged_fraction": 0.0,
            "sentences": 0.0,
        }
        return Finding(detector=self.name, risk=0.0, notes=[note], flagged=False, features=features, details=dict(base))

    def _spans(self, analysis: CaseAnalysis, index: SourceIndex, seqs: Sequence[Sequence[str]], so: SentenceOverlap) -> list[Span]:
        case = analysis.case
        answer = case.answer
        score = round(1.0 - so.precision, 4)
        evidence: list[Evidence] = []
        reason = f"best ROUGE-L precision {so.precision:.2f} < {self.sentence_threshold:.2f}"
        matched = [False] * len(so.words)
        if so.source_sentence is not None:
            seg = index.sentences[so.source_sentence]
            sid, a, b = locate_in_sources(case, seg.start, seg.end)
            evidence.append(Evidence(source_id=sid, text=seg.text, relation="nearest", score=round(so.precision, 4), start=a, end=b))
            reason += f" against the nearest source sentence: {seg.text[:200]}"
            present = set(seqs[so.source_sentence])
            matched = [w in present for w in so.words]
        else:
            reason += ": no source sentence shares its words"
        runs = _unmatched_runs(analysis, so, matched) if self.span_mode == "runs" else []
        if not runs:
            runs = [(so.start, so.end)]
        return [
            Span(start=a, end=b, text=answer[a:b], label="baseless", score=score, detector=self.name, reason=reason, evidence=evidence)
            for a, b in runs
        ]


def _candidates(index: SourceIndex, words: list[str], k: int) -> list[int]:
    counts: dict[int, int] = {}
    for w in set(words):
        for i in index.postings.get(w, ()):
            counts[i] = counts.get(i, 0) + 1
    ranked = sorted(counts, key=lambda i: (-counts[i], i))[:k]
    return sorted(ranked)


def _unmatched_runs(analysis: CaseAnalysis, so: SentenceOverlap, matched: list[bool]) -> list[tuple[int, int]]:
    """Runs of compared words absent from the nearest source sentence, joined across the others."""
    unmatched = {t.start for t, ok in zip(so.tokens, matched) if not ok}
    return marked_runs(analysis.tokens_by_sentence[so.index], unmatched, {t.start for t in so.tokens})
