"""N-gram novelty: answer sentences whose content words the sources never use (n-gram novelty guide).

A faithful sentence reuses the wording of its sources; a sentence built from words (or word
pairs) that appear nowhere in them is likely made up. Per sentence, over lemmas with stop words
and punctuation removed, the novelty is the share of its 1- and 2-grams missing from the source
n-gram set; a sentence is flagged when its novelty exceeds the task's threshold (QA 0.3,
summary 0.5, data-to-text 0.5, otherwise 0.4 — summaries and data descriptions paraphrase more).

Spans: labelled hallucinations are short phrases, so instead of the whole sentence the detector
marks the runs of novel content words inside a flagged sentence (``span_mode="runs"``, the
default); ``span_mode="sentence"`` marks whole sentences as the n-gram novelty guide does. The sentence, its
novelty and the novel n-grams go into the span's reason either way. Only sentences whose
novelty is ``span_margin`` (0.3, capped at 0.95) over the threshold are marked; the others stay
flagged in ``details["sentences"]`` (most RAGTruth answers have a sentence just over the guide's
thresholds, and marking those mostly marks faithful words).

Risk: the whole answer's novelty (all n pooled), mapped so that the task threshold sits at 0.5
(``novelty_risk``); ``Finding.flagged`` is the n-gram novelty guide's own verdict (some sentence over the
threshold). On RAGTruth most answers have one sentence over the guide's thresholds, so the
whole-answer novelty ranks answers better than the worst sentence does.

Paraphrase awareness: a word the semantic layer found supported (a synonym of a source word)
should not count as novel. Pass ``grounded_tokens`` (a callable returning one bool per answer
token, aligned with ``analysis.tokens``), or let an earlier detector put that list in
``analysis.facts.support``; n-grams made only of supported tokens are then
grounded.

Figures written another way: an answer figure that a source figure of the same value gives in
another form ("an hour and a half" over "90 minutes", "兩萬五千九百元" over "25,900元", "1250" over
"1,250": :func:`hallucheck.detectors.rules.numbers.figures_given_otherwise`) has been compared by value
by the numbers rules, which found it equal; its words are left out of the sentence's n-grams
(``figures_checked``, on by default), so that equal quantities do not read as new words.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import not_
from typing import Any, ClassVar, Literal

from hallucheck.analysis import CaseAnalysis, join_ngrams
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.lexical.token_runs import marked_runs
from hallucheck.text import Token
from hallucheck.types import Finding, Role, Span

__all__ = ["NgramDetector", "SentenceNovelty", "DEFAULT_THRESHOLDS", "DEFAULT_THRESHOLD", "SPAN_MARGIN", "novelty_risk"]

DEFAULT_THRESHOLDS: dict[str, float] = {"qa": 0.3, "summary": 0.5, "data2txt": 0.5}
DEFAULT_THRESHOLD = 0.4
# Spans are drawn only where a flagged sentence's novelty is this far over its threshold: on the
# RAGTruth train part this raised character-level span F1 from 0.18 to 0.24 (bench/lexical_train.py).
SPAN_MARGIN = 0.3

SpanMode = Literal["runs", "sentence"]
GroundedTokens = Callable[[CaseAnalysis], Sequence[bool] | None]


@dataclass
class SentenceNovelty:
    """Novelty of one answer sentence: pooled over all n, and per n."""

    index: int
    start: int
    end: int
    total: int = 0
    novel: int = 0
    per_n: dict[int, tuple[int, int]] = field(default_factory=dict)  # n -> (novel, total)
    novel_ngrams: list[str] = field(default_factory=list)
    novel_tokens: list[Token] = field(default_factory=list)
    flagged: bool = False

    @property
    def novelty(self) -> float:
        return self.novel / self.total if self.total else 0.0

    def novelty_for(self, n: int) -> float:
        novel, total = self.per_n.get(n, (0, 0))
        return novel / total if total else 0.0


def novelty_risk(novelty: float, threshold: float) -> float:
    """Map a novelty to a risk in 0..1 with the threshold at exactly 0.5.

    Piecewise linear: 0 → 0, threshold → 0.5, 1 → 1. Risks from different tasks (whose
    thresholds differ) then mean the same thing to a policy: above 0.5 is "over the line".
    """
    novelty = min(max(novelty, 0.0), 1.0)
    if threshold <= 0.0:
        return 0.5 + 0.5 * novelty
    if threshold >= 1.0:
        return 0.5 * novelty
    if novelty <= threshold:
        return 0.5 * novelty / threshold
    return 0.5 + 0.5 * (novelty - threshold) / (1.0 - threshold)


def _check_ratio(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must be a number between 0 and 1, got {value!r}")
    return float(value)


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` sorted, those that overlap or touch joined into one."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _inside(token: Token, ranges: Sequence[tuple[int, int]], starts: Sequence[int]) -> bool:
    """Whether ``token`` lies within one of ``ranges`` (merged: :func:`_merged`; ``starts``: their starts)."""
    k = bisect_right(starts, token.start) - 1
    return k >= 0 and token.end <= ranges[k][1]


class NgramDetector(BaseDetector):
    """Per-sentence n-gram novelty against the sources (lexical layer).

    Options: ``n_values`` (default 1, 2), ``thresholds`` (task -> threshold, merged over the
    defaults), ``threshold`` (one threshold for every task, overrides ``thresholds``),
    ``n_thresholds`` (n -> threshold: a sentence is flagged when any n's own novelty exceeds
    its threshold, the n-gram novelty guide's dataset mode, e.g. ``{1: 0.3, 2: 0.2}``), ``span_mode`` ("runs"
    or "sentence"), ``span_margin`` (how far over the threshold a sentence must be to get
    spans), ``grounded_tokens`` (paraphrase hook, see the module docstring), ``figures_checked``
    (leave out the words of figures the sources give in another form; see the module docstring).
    """

    name: ClassVar[str] = "ngram"

    role: ClassVar[Role] = "lexical"
    layer: ClassVar[int] = 2

    def __init__(
        self,
        *,
        n_values: Sequence[int] = (1, 2),
        thresholds: Mapping[str, float] | None = None,
        threshold: float | None = None,
        n_thresholds: Mapping[int, float] | None = None,
        span_mode: SpanMode = "runs",
        span_margin: float = SPAN_MARGIN,
        grounded_tokens: GroundedTokens | None = None,
        max_listed: int = 10,
        figures_checked: bool = True,
    ) -> None:
        ns = tuple(n_values)
        if not ns or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in ns):
            raise ValueError(f"n_values must be positive integers, got {list(ns)!r}")
        self.n_values: tuple[int, ...] = tuple(sorted(set(ns)))
        self.thresholds = dict(DEFAULT_THRESHOLDS)
        for task, value in (thresholds or {}).items():
            self.thresholds[str(task)] = _check_ratio(f"thresholds[{task!r}]", value)
        self.default_threshold = _check_ratio("threshold", self.thresholds.pop("default", DEFAULT_THRESHOLD))
        self.threshold = None if threshold is None else _check_ratio("threshold", threshold)
        self.n_thresholds: dict[int, float] | None = None
        if n_thresholds:
            self.n_thresholds = {int(n): _check_ratio(f"n_thresholds[{n}]", v) for n, v in n_thresholds.items()}
            missing = set(self.n_thresholds) - set(self.n_values)
            if missing:
                raise ValueError(f"n_thresholds has sizes {sorted(missing)} that are not in n_values {list(self.n_values)}")
        if span_mode not in ("runs", "sentence"):
            raise ValueError(f"span_mode must be 'runs' or 'sentence', got {span_mode!r}")
        self.span_mode: SpanMode = span_mode
        self.span_margin = _check_ratio("span_margin", span_margin)
        self.grounded_tokens = grounded_tokens
        self.max_listed = max_listed
        self.figures_checked = figures_checked

    def threshold_for(self, task: str) -> float:
        """The novelty threshold used for ``task`` (``threshold`` beats the per-task table)."""
        if self.threshold is not None:
            return self.threshold
        return self.thresholds.get(task, self.default_threshold)

    # -- scoring -----------------------------------------------------------------------------

    def _support(self, analysis: CaseAnalysis, notes: list[str]) -> set[int] | None:
        """Start offsets of answer tokens the semantic layer marked as supported, if any."""
        flags: Sequence[bool] | None = None
        if self.grounded_tokens is not None:
            flags = self.grounded_tokens(analysis)
        if flags is None:
            flags = analysis.facts.support
        if flags is None:
            return None
        tokens = analysis.tokens
        if len(flags) != len(tokens):
            notes.append(f"semantic support ignored: {len(flags)} flags for {len(tokens)} tokens")
            return None
        return {t.start for t, ok in zip(tokens, flags) if ok}

    def _checked_figures(self, analysis: CaseAnalysis) -> list[tuple[int, int]]:
        """Offsets of the answer's figures that the sources give in another form (none when
        ``figures_checked`` is off)."""
        if not self.figures_checked:
            return []
        from hallucheck.detectors.rules.numbers import figures_given_otherwise  # lazy: rules tables

        return _merged(figures_given_otherwise(analysis))

    def score_sentences(self, analysis: CaseAnalysis, notes: list[str] | None = None) -> list[SentenceNovelty]:
        """Novelty of every answer sentence (no threshold applied)."""
        notes = notes if notes is not None else []
        source = analysis.source
        grams = {n: source.content_ngrams(n) for n in self.n_values}
        supported = self._support(analysis, notes)
        smallest = self.n_values[0]
        # Citation markers are masked in the analysis' tokens (CaseAnalysis.answer): their words
        # never count as novel.
        out: list[SentenceNovelty] = []
        checked = self._checked_figures(analysis)
        starts = [a for a, _ in checked]
        for i, (seg, content) in enumerate(zip(analysis.sentences, analysis.content_by_sentence)):
            if checked:
                content = [t for t in content if not _inside(t, checked, starts)]
            norms = [t.norm for t in content]
            ok = [t.start in supported for t in content] if supported is not None else None
            sn = SentenceNovelty(i, seg.start, seg.end)
            covered = [False] * len(content)
            for n in self.n_values:
                known = grams[n]
                count = len(norms) - n + 1
                if count <= 0:
                    sn.per_n[n] = (0, 0)
                    continue
                seq = join_ngrams(norms, n)
                if ok is None and n == 1:
                    # The common case, without a Python-level step per word.
                    hits = list(map(known.__contains__, seq))
                    covered = hits
                    novel_grams = list(compress(seq, map(not_, hits)))
                elif ok is None and n != smallest:
                    novel_grams = [gram for gram in seq if gram not in known]
                else:
                    novel_grams = []
                    for j, gram in enumerate(seq):
                        if gram in known or (ok is not None and all(ok[j : j + n])):
                            if n == smallest:
                                covered[j : j + n] = [True] * n
                            continue
                        novel_grams.append(gram)
                novel = len(novel_grams)
                sn.novel_ngrams.extend(novel_grams)
                sn.per_n[n] = (novel, count)
                sn.total += count
                sn.novel += novel
            # A word is novel when no grounded n-gram of the smallest size runs through it
            # (with unigrams: the word itself is not in the sources).
            if len(norms) >= smallest:
                sn.novel_tokens = list(compress(content, map(not_, covered)))
            out.append(sn)
        return out

    def _span_worthy(self, sn: SentenceNovelty, threshold: float) -> bool:
        """Whether a flagged sentence is novel enough to be marked (``span_margin`` over the line)."""
        if self.n_thresholds:
            return any(sn.novelty_for(n) > min(t + self.span_margin, 0.95) for n, t in self.n_thresholds.items())
        return sn.novelty > min(threshold + self.span_margin, 0.95)

    def _flag(self, sn: SentenceNovelty, threshold: float) -> bool:
        if not sn.total:
            return False
        if self.n_thresholds:
            return any(sn.novelty_for(n) > t for n, t in self.n_thresholds.items())
        return sn.novelty > threshold

    # -- detection ---------------------------------------------------------------------------

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        threshold = self.threshold_for(case.task)
        notes: list[str] = []
        base_details: dict[str, Any] = {"threshold": threshold, "n_values": list(self.n_values)}
        if self.n_thresholds:
            base_details["n_thresholds"] = {str(n): t for n, t in self.n_thresholds.items()}
        if not case.answer.strip():
            return self._empty("Answer is empty, cannot detect hallucinations", base_details)
        if not any(analysis.source.content_ngrams(n) for n in self.n_values):
            return self._empty("sources have no content n-grams; novelty cannot be measured", base_details)
        sentences = self.score_sentences(analysis, notes)
        for sn in sentences:
            sn.flagged = self._flag(sn, threshold)
        scored = [sn for sn in sentences if sn.total]
        if not scored:
            return self._empty("answer has no content words; novelty cannot be measured", base_details)
        flagged = [sn for sn in sentences if sn.flagged]
        worst = max(scored, key=lambda s: s.novelty)
        risk = self._risk(sentences, threshold)
        spans = [s for sn in flagged if self._span_worthy(sn, threshold) for s in self._spans(analysis, sn, threshold)]
        n_keys = [(str(n), n) for n in self.n_values]
        details = {
            **base_details,
            "sentences": [
                {
                    "start": sn.start,
                    "end": sn.end,
                    "novelty": round(sn.novelty, 4),
                    "per_n": {key: round(sn.novelty_for(n), 4) for key, n in n_keys},
                    "novel_ngrams": sn.novel_ngrams[: self.max_listed],
                    "novel_count": sn.novel,
                    "total": sn.total,
                    "flagged": sn.flagged,
                }
                for sn in sentences
            ],
        }
        return Finding(detector=self.name, risk=round(risk, 6), flagged=bool(flagged),
                       features=self._features(sentences, scored, flagged, worst), spans=spans, notes=notes, details=details)

    def _risk(self, sentences: list[SentenceNovelty], threshold: float) -> float:
        """Whole-answer novelty (all n pooled), mapped so that the threshold sits at 0.5.

        Measured on the RAGTruth train part (bench/lexical_train.py): the pooled
        whole-answer novelty ranks hallucinated answers better (AUROC 0.74-0.76) than the worst
        sentence's novelty (0.71), which is above the n-gram novelty guide's thresholds for most answers. With
        per-n thresholds, the largest of the per-n whole-answer novelties, each mapped around
        its own threshold.
        """
        if self.n_thresholds:
            risks = [novelty_risk(_whole(sentences, n), t) for n, t in self.n_thresholds.items()]
            return max(risks, default=0.0)
        novel = sum(sn.novel for sn in sentences)
        total = sum(sn.total for sn in sentences)
        return novelty_risk(novel / total if total else 0.0, threshold)

    def _empty(self, note: str, details: dict[str, Any]) -> Finding:
        return Finding(
            detector=self.name,
            risk=0.0,
            notes=[note],
            flagged=False,
            features=self._zero_features(),
            details={**details, "sentences": []},
        )

    def _spans(self, analysis: CaseAnalysis, sn: SentenceNovelty, threshold: float) -> list[Span]:
        answer = analysis.case.answer
        score = round(novelty_risk(sn.novelty, threshold), 4)
        listed = ", ".join(sn.novel_ngrams[: self.max_listed])
        reason = (
            f"sentence novelty {sn.novelty:.2f} > {threshold:.2f} "
            f"({sn.novel} of {sn.total} n-grams not in the sources): {listed}"
        )
        if self.span_mode == "sentence" or not sn.novel_tokens:
            return [_span(answer, sn.start, sn.end, score, self.name, reason)]
        sentence = answer[sn.start : sn.end].strip()
        reason = f"{reason}; in: {sentence[:200]}"
        return [_span(answer, a, b, score, self.name, reason) for a, b in _runs(analysis, sn)]

    @staticmethod
    def _zero_features() -> dict[str, float]:
        return {
            "max_novelty": 0.0,
            "mean_novelty": 0.0,
            "novelty": 0.0,
            "novelty_n1": 0.0,
            "novelty_n2": 0.0,
            "flagged_fraction": 0.0,
            "worst_novel_count": 0.0,
            "novel_token_fraction": 0.0,
            "sentences": 0.0,
            "content_tokens": 0.0,
        }

    def _features(
        self,
        sentences: list[SentenceNovelty],
        scored: list[SentenceNovelty],
        flagged: list[SentenceNovelty],
        worst: SentenceNovelty,
    ) -> dict[str, float]:
        content = sum(sn.per_n.get(1, (0, 0))[1] for sn in sentences) if 1 in self.n_values else 0
        novel_tokens = sum(len(sn.novel_tokens) for sn in sentences)
        return {
            "max_novelty": round(worst.novelty, 6),
            "mean_novelty": round(sum(sn.novelty for sn in scored) / len(scored), 6),
            "novelty": round(sum(sn.novel for sn in sentences) / max(sum(sn.total for sn in sentences), 1), 6),
            "novelty_n1": round(_whole(sentences, 1), 6),
            "novelty_n2": round(_whole(sentences, 2), 6),
            "flagged_fraction": round(len(flagged) / len(scored), 6),
            "worst_novel_count": float(worst.novel),
            "novel_token_fraction": round(novel_tokens / content, 6) if content else 0.0,
            "sentences": float(len(sentences)),
            "content_tokens": float(content),
        }


def _span(answer: str, start: int, end: int, score: float, detector: str, reason: str) -> Span:
    # Validated like any Span: pydantic-core's validation is faster than model_construct, which
    # runs in Python (measured with pydantic 2: about 5 µs against 7 µs per span).
    return Span(start=start, end=end, text=answer[start:end], label="baseless", score=score, detector=detector, reason=reason)


def _whole(sentences: list[SentenceNovelty], n: int) -> float:
    """Novelty of the whole answer for one n-gram size."""
    novel = sum(sn.per_n.get(n, (0, 0))[0] for sn in sentences)
    total = sum(sn.per_n.get(n, (0, 0))[1] for sn in sentences)
    return novel / total if total else 0.0


def _runs(analysis: CaseAnalysis, sn: SentenceNovelty) -> list[tuple[int, int]]:
    """Character ranges of the runs of novel content words of one sentence."""
    toks = analysis.tokens_by_sentence[sn.index]
    judged = {t.start for t in toks if not t.is_punct and not t.is_stop}
    return marked_runs(toks, {t.start for t in sn.novel_tokens}, judged)
